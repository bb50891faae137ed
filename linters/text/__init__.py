"""The text readers every rule family shares: Markdown, literal search, compiled regexes, token
counts, and how a path is written and read in prose.

Nothing here knows a rule or makes a finding: the rule folders read a skill through these.
"""
