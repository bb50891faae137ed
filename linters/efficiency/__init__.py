"""Efficiency rules (SF4xx): does the skill spend the agent's context window well?

All in `efficiency.py`; token counts come from `linters.text.tokens`.
"""
