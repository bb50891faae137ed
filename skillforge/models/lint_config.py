"""The `[lint]` section of skillforge.toml (CONTRACTS.md section 3), as a plain dataclass.

Kept apart from `skillforge.models.config` so that a lint loads no pydantic: with no config
file and no SKILLFORGE_* variable, `skillforge.config.lint_settings` builds it straight from
the flags. When a file or a variable applies, `Settings` (pydantic) validates the section
with the other ones: `__pydantic_config__` forbids unknown keys there, and `__post_init__`
checks the range, whichever way it is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

FailOn = Literal["error", "warning", "never"]
# Where the skill is meant to go. "generic": any harness that follows the Agent Skills spec.
# "claude-ai": also claude.ai's (and the Claude API's) skill upload, whose rules beyond the
# spec (no `<` or `>` in name or description, no `claude` or `anthropic` in the name, SF117
# and SF121) are then errors; for other targets they are warnings, since a Claude Code
# plugin's `claude-hooks` skill or a description saying `< 1s` breaks nothing there.
Target = Literal["generic", "claude-ai"]
# The harnesses with a compatibility profile (linters/compat/profiles/<id>.toml): `lint
# --harness` and `[lint] harness` name them; "all" is every one.
HARNESSES: tuple[str, ...] = ("claude-code", "codex", "gemini-cli", "opencode", "copilot")


def parse_harnesses(value: str | list[str] | tuple[str, ...]) -> list[str]:
    """`claude-code,codex` or a list of ids (or "all") as a list of known ids, in HARNESSES
    order; ValueError names an unknown one and the known ones."""
    items = value.split(",") if isinstance(value, str) else list(value)
    wanted = {i.strip() for i in items if i.strip()}
    if "all" in wanted:
        return list(HARNESSES)
    unknown = sorted(wanted - set(HARNESSES))
    if unknown:
        raise ValueError(f"unknown harness {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(HARNESSES)} (or all)")
    return [h for h in HARNESSES if h in wanted]


@dataclass(kw_only=True)
class LintConfig:
    # Read by pydantic when Settings validates a file's [lint] table: a typo is an error.
    __pydantic_config__ = {"extra": "forbid"}

    disable: list[str] = field(default_factory=list)
    fail_under: float = 70.0
    fail_on: FailOn = "error"
    # Run ruff and shellcheck over scripts (slower; results arrive after the rest).
    scripts: bool = True
    target: Target = "generic"
    # Check the skill against these harnesses' profiles (SF7xx); empty: no harness checks.
    harness: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0 <= self.fail_under <= 100:
            raise ValueError(f"fail_under must be between 0 and 100 (got {self.fail_under!r})")
        if self.fail_on not in get_args(FailOn):
            raise ValueError(f"fail_on must be one of {', '.join(get_args(FailOn))} "
                             f"(got {self.fail_on!r})")
        self.harness = parse_harnesses(self.harness)
        if self.target not in get_args(Target):
            raise ValueError(f"target must be one of {', '.join(get_args(Target))} "
                             f"(got {self.target!r})")
