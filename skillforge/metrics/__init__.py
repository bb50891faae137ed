"""The metrics of one trial: deterministic (security, skill use) and LLM-judged."""
