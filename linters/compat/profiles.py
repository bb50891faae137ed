"""Harness profiles: what each agent harness does with a skill, as data.

One TOML file per harness in `profiles/` (claude-code, codex, gemini-cli, opencode,
copilot). Each rule table (discovery, name, description, listing, keys, plugin) carries its
`source`, the harness `version` it describes and its `basis` (documented, source, observed
or assumed), so a finding can say where its fact comes from and a reader can tell a
documented limit from a guess. This module only reads them; the checks are in checks.py.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from skillforge.models.lint_config import HARNESSES

PROFILE_DIR = Path(__file__).with_name("profiles")
BASES = ("documented", "source", "observed", "assumed")


@dataclass(frozen=True, kw_only=True)
class Provenance:
    """Where a rule table's facts come from."""

    source: str
    version: str
    basis: str

    def cite(self) -> str:
        """A short citation for a message: the basis and the version."""
        return f"{self.basis}, {self.version}"


@dataclass(frozen=True, kw_only=True)
class Discovery(Provenance):
    project: tuple[str, ...]
    user: tuple[str, ...]
    depth: str
    precedence: str

    def user_roots(self) -> list[Path]:
        """The user-level roots with `~` expanded against $HOME as it is now."""
        home = Path(os.environ.get("HOME") or Path.home())
        return [home / p[2:] if p.startswith("~/") else Path(p) for p in self.user]


@dataclass(frozen=True, kw_only=True)
class NameRule(Provenance):
    required: bool
    max: int
    pattern: str
    must_match_dir: bool
    refuses: bool
    # When the length limit rests on weaker ground than the rest of the table.
    max_basis: str = ""


@dataclass(frozen=True, kw_only=True)
class DescriptionRule(Provenance):
    required: bool
    max: int
    collapse_whitespace: bool
    refuses: bool
    short_max: int = 0
    max_basis: str = ""


@dataclass(frozen=True, kw_only=True)
class Listing(Provenance):
    cut: int
    fields: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Keys(Provenance):
    honoured: tuple[str, ...]
    ignored: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Plugin(Provenance):
    manifests: tuple[str, ...]
    skills_dir: str


@dataclass(frozen=True, kw_only=True)
class Profile:
    harness: str
    title: str
    profile_version: str
    discovery: Discovery
    name: NameRule
    description: DescriptionRule
    listing: Listing
    keys: Keys
    plugin: Plugin


_TABLES = {"discovery": Discovery, "name": NameRule, "description": DescriptionRule,
           "listing": Listing, "keys": Keys, "plugin": Plugin}


def _table(cls: type, path: Path, key: str, data: dict) -> Provenance:
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    for field_name in ("basis", "max_basis"):
        if field_name in values and values[field_name] not in BASES:
            raise ValueError(f"{path.name} [{key}]: {field_name} must be one of {', '.join(BASES)}")
    if "basis" not in values:
        raise ValueError(f"{path.name} [{key}]: basis is missing")
    try:
        return cls(**values)
    except TypeError as exc:
        raise ValueError(f"{path.name} [{key}]: {exc}") from None


def load_profile(path: Path) -> Profile:
    """One profile file; ValueError names the file and table of a malformed one."""
    data = tomllib.loads(path.read_text("utf-8"))
    tables = {key: _table(cls, path, key, data.pop(key, {})) for key, cls in _TABLES.items()}
    return Profile(**data, **tables)


@cache
def profiles() -> dict[str, Profile]:
    """Every harness's profile, by id, in HARNESSES order."""
    return {h: load_profile(PROFILE_DIR / f"{h}.toml") for h in HARNESSES}


def profile(harness: str) -> Profile:
    return profiles()[harness]
