"""The external linters: ruff and shellcheck run as processes (SF602, SF603), how a tool is
found and run under a deadline, and the cache of their results by content hash.

The engine reaches these only in its second phase (`engine.external_findings`), after the
in-process checks.
"""
