"""Correctness rules (SF1xx): is this a valid skill by the Agent Skills specification?

`correctness.py`: loading, `name`, `description`, unknown keys and the empty body;
`optional_fields` (SF113-SF115); `links` (SF116), with the text gates that spare it a parse
in `link_gates`; `portable_paths` (SF122, SF123); `fences` (SF120).
"""
