"""The JSON-schema keywords each provider's constrained decoding accepts.

skillforge's answer schemas state every constraint that can be decoded (`minItems`,
`maxItems`, `minLength`, `enum`...), so a server that compiles the schema into a grammar
(llama.cpp, vLLM) cannot produce an answer the validation afterwards would refuse. Hosted
APIs accept only a subset and refuse a schema with anything else (HTTP 400):

- OpenAI strict mode (`strict: true`): no `minLength`/`maxLength` (it takes `pattern`,
  `minimum`/`maximum`, `minItems`/`maxItems`).
- Anthropic `output_config.format`: no numeric bounds, no string lengths, no `maxItems`,
  and `minItems` only 0 or 1.

What is dropped here is still checked: the caller validates every answer with pydantic.
"""

from __future__ import annotations

from typing import Any

OPENAI_STRICT_UNSUPPORTED = frozenset({"minLength", "maxLength"})
ANTHROPIC_UNSUPPORTED = frozenset({
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
    "maxLength", "maxItems", "uniqueItems", "minProperties", "maxProperties",
})
# Keys whose value is a map of names to schemas (not a schema itself).
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")


def without_keywords(schema: Any, drop: frozenset[str], *, max_min_items: int | None = None
                     ) -> Any:
    """A copy of `schema` without the `drop` keywords anywhere in it; `minItems` above
    `max_min_items` is lowered to it."""
    if isinstance(schema, list):
        return [without_keywords(s, drop, max_min_items=max_min_items) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in drop:
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: without_keywords(sub, drop, max_min_items=max_min_items)
                        for name, sub in value.items()}
        elif key in ("enum", "const", "required", "description", "default", "examples"):
            out[key] = value
        elif key == "minItems" and max_min_items is not None and isinstance(value, int):
            out[key] = min(value, max_min_items)
        else:
            out[key] = without_keywords(value, drop, max_min_items=max_min_items)
    return out


def openai_strict(schema: dict[str, Any]) -> dict[str, Any]:
    """What OpenAI's strict structured outputs accept of `schema`."""
    return without_keywords(schema, OPENAI_STRICT_UNSUPPORTED)


def anthropic_output_config(schema: dict[str, Any]) -> dict[str, Any]:
    """What Anthropic's `output_config.format` accepts of `schema`."""
    return without_keywords(schema, ANTHROPIC_UNSUPPORTED, max_min_items=1)
