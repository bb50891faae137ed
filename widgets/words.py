"""Counting nouns the way a reader expects: "1 run", "2 runs" (never "1 runs")."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one: counted(1, "run") == "1 run"."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
