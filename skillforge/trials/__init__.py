"""Paired trials: a RunSpec expanded into trials, staged, run, scored, stored and reported as events."""
