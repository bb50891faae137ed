"""Discoverability rules (SF2xx): will an agent pick the skill when, and only when, it fits?

`description` (SF201-SF203, SF205-SF207), `skill_name` (SF204), `opening` (the body's
first words, SF208) and `scope` (when not to use it, SF209).
"""
