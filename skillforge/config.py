"""Find and merge configuration: files, environment, flags.

Precedence, lowest to highest:

1. built-in defaults (CONTRACTS.md section 3)
2. the user config file: `$XDG_CONFIG_HOME/skillforge/skillforge.toml`
   (`~/.config/skillforge/skillforge.toml`), or `$SKILLFORGE_CONFIG` when set
3. `skillforge.toml` in the launch directory
4. `skillforge.toml` next to the skill (the skill's own folder)
5. `SKILLFORGE_<SECTION>__<KEY>` environment variables, e.g.
   `SKILLFORGE_LINT__FAIL_UNDER=80`, `SKILLFORGE_TRIAL__IMAGE=debian-py:12`
   (values are read as JSON when they parse as JSON, else as strings)
6. command-line flags

A broken file is a `ConfigError` naming the file, the line or key, and the fix.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillforge.models.lint_config import LintConfig

if TYPE_CHECKING:
    from pydantic import ValidationError

    from skillforge.models.config import Settings

CONFIG_NAME = "skillforge.toml"
ENV_PREFIX = "SKILLFORGE_"


class ConfigError(ValueError):
    """A configuration file or variable that cannot be used; the message says how to fix it."""


def user_config_path() -> Path:
    if os.environ.get("SKILLFORGE_CONFIG"):
        return Path(os.environ["SKILLFORGE_CONFIG"]).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "skillforge" / CONFIG_NAME


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}; fix the TOML syntax on that line") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, val in over.items():
        if isinstance(val, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], val)
        else:
            out[key] = val
    return out


def _env_layer(environ: dict[str, str]) -> dict[str, Any]:
    layer: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name:
            continue
        path = [p.lower() for p in name[len(ENV_PREFIX) :].split("__")]
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        node = layer
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
    return layer


def config_files(skill_dir: Path | None = None, launch_dir: Path | None = None) -> list[Path]:
    """The config files that apply, lowest precedence first (only those that exist)."""
    launch_dir = (launch_dir or Path.cwd()).resolve()
    candidates = [user_config_path(), launch_dir / CONFIG_NAME]
    if skill_dir is not None:
        candidates.append(Path(skill_dir).resolve() / CONFIG_NAME)
    seen: list[Path] = []
    for p in candidates:
        if p.is_file() and p.resolve() not in seen:
            seen.append(p.resolve())
    return seen


def load_settings(
    skill_dir: Path | None = None,
    *,
    launch_dir: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Merge every layer into one validated `Settings`."""
    from pydantic import ValidationError

    from skillforge.models.config import Settings

    merged: dict[str, Any] = {}
    files = config_files(skill_dir, launch_dir)
    for path in files:
        layer = _read_toml(path)
        _validate_layer(layer, str(path))
        merged = _merge(merged, layer)
    env = _env_layer(dict(os.environ if environ is None else environ))
    if env:
        _validate_layer(env, "environment (SKILLFORGE_* variables)")
        merged = _merge(merged, env)
    if overrides:
        merged = _merge(merged, _drop_none(overrides))
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, "flags")) from None


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            v = _drop_none(v)
            if v:
                out[k] = v
        elif v is not None:
            out[k] = v
    return out


def lint_settings(
    files: list[Path],
    skill_dir: Path | None = None,
    *,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> LintConfig:
    """The `[lint]` settings for a skill whose config files are `files` (`config_files`).

    With no file and no SKILLFORGE_* variable there is nothing to validate but the flags,
    so the section is built directly, without pydantic (loading it was about half of a
    one-skill lint); otherwise every layer is merged and validated as in
    `load_settings`, and a broken one is the same `ConfigError`."""
    env = dict(os.environ if environ is None else environ)
    if files or _env_layer(env):
        return load_settings(skill_dir, overrides=overrides, environ=env).lint
    lint = _drop_none((overrides or {}).get("lint") or {})
    try:
        return LintConfig(**lint)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"flags: invalid configuration\n  [lint] {exc}") from None


def _validate_layer(layer: dict[str, Any], where: str) -> None:
    from pydantic import ValidationError

    from skillforge.models.config import Settings

    try:
        Settings.model_validate(layer)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, where)) from None


def _explain(exc: ValidationError, where: str) -> str:
    lines = [f"{where}: invalid configuration"]
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        section, _, key = loc.partition(".")
        pretty = f"[{section}] {key}" if key else loc
        if err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
            # (the second: the [lint] section, a dataclass, names an unknown key so)
            lines.append(f"  {pretty}: unknown key; see the README's configuration table")
        elif err["type"] == "value_error" and not key:
            # A section's own check (LintConfig.__post_init__) names the key itself.
            lines.append(f"  [{section}] {err['ctx']['error']}")
        else:
            lines.append(f"  {pretty}: {err['msg']} (got {err.get('input')!r})")
    return "\n".join(lines)
