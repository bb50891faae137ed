"""Reliability rules (SF3xx): will the skill work when an agent follows it?

What it runs: `script_commands` (SF301, SF305), reading commands with `commands`,
`command_dirs` (where a command runs) and `command_context` (whether the text tells the agent
to run it); `installs` (SF307), `interactive` (SF306). What it points to: `reachability`
(SF302-SF304), `mcp_tools` (SF318). What it says: `completeness` (SF309, SF310, SF317),
`wording` (SF308, SF311, SF312); what it has not said yet: `placeholders` (SF319, the
scaffold's text left unfilled). Its evaluation assets: `evals_rules` (SF313-SF316).
"""
