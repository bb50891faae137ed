"""Helping an author write a skill: rubric judging, drafting and refining eval cases, scaffolding."""
