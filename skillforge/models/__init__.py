"""Typed domain models shared by every part of skillforge (no I/O frameworks).

pydantic v2 for what is read from files (evals, trajectories, trial records, config); the
skill, its lint findings and the `[lint]` settings are plain dataclasses, so that `skillforge
lint` loads no pydantic (half of a one-skill lint) unless a config file or an evals file
asks to be validated.
"""
