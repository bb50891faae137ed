"""Skill Lift: per-case pairs, statistics, pass rates, triage, agreement and the sample-size planner."""
