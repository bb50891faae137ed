"""The text readers every rule family shares: Markdown, code spans, table cells, literal
search, compiled regexes, token counts, sections; and, in `paths/`, how a path is written and
read in prose (whether it is the skill's file, and whose it is when not).

Nothing here knows a rule or makes a finding: the rule folders read a skill through these.
"""
