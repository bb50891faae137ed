"""Scripts rules (SF6xx): will the code a skill ships run when the agent calls it?

`scripts.py` tells which files are scripts and parses Python ones in process (SF601); ruff
(SF602) and shellcheck (SF603) run as processes from `linters.external`.
"""
