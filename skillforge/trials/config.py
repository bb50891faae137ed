"""From configuration to a `RunSpec`: [trial] settings, then evals.json `defaults`, then flags.

Precedence, lowest first (CONTRACTS.md sections 3 and 4): the merged `[trial]` section of
skillforge.toml / SKILLFORGE_TRIAL__* variables; the optional top-level `defaults` object of
the skill's evals/evals.json (any [trial] key, for this eval set); the command-line flags or
the TUI form's overrides. Every layer is validated by `TrialConfig`, so a typo names the
layer and the key.

Beyond the [trial] keys, overrides take `case_ids`, `provider`, `baseline_version` and the
routing-stress options `decoys` (a number of decoy skills chosen from `decoys_from`, default
the skills next to the target, with `decoy_seed`; see skillforge.trials.decoys: they replace
`decoy_skills` and switch the workspace to `group`). The agent must be `builtin` or an
external harness (claude-code, codex), whose provider becomes the run's provider unless one
is given; what a harness needs to RUN (Docker, network, its key) is checked by
`check_harness(spec)`, so a spec can still be built for `skillforge export harbor`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from skillforge.harnesses import HarnessError, check_agent, get_harness
from skillforge.models.config import Settings, TrialConfig
from skillforge.models.trial import Limits, RunSpec

# Overrides that are not [trial] keys.
SPEC_ONLY = ("case_ids", "provider", "baseline_version", "decoys", "decoys_from", "decoy_seed",
             "skill_cache_from", "skill_cache_mode")
LIMIT_KEYS = ("cpus", "memory_mb", "pids", "timeout_sec", "max_turns", "disk_mb")


class TrialConfigError(ValueError):
    """A trial setting that cannot be used; the message names where it came from."""


def skill_root(path: Path | str) -> Path:
    """The skill folder for a folder or a SKILL.md path."""
    p = Path(path)
    return p.parent if p.name == "SKILL.md" else p


def evals_defaults(skill_dir: Path) -> dict[str, Any]:
    """The `defaults` object of evals/evals.json ({} when absent or unreadable).

    An unreadable evals.json is reported later, by the run, with its line.
    """
    path = skill_dir / "evals" / "evals.json"
    try:
        doc = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    defaults = doc.get("defaults") if isinstance(doc, dict) else None
    if defaults is not None and not isinstance(defaults, dict):
        raise TrialConfigError(f"{path}: \"defaults\" must be an object of [trial] keys, such "
                               'as {"attempts": 5, "timeout_sec": 300}')
    return dict(defaults or {})


def _explain(exc: ValidationError, where: str) -> str:
    lines = [f"{where}: invalid trial setting"]
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"])
        if err["type"] == "extra_forbidden":
            lines.append(f"  {key}: unknown key; use one of the [trial] keys "
                         f"({', '.join(TrialConfig.model_fields)})")
        else:
            lines.append(f"  {key}: {err['msg']} (got {err.get('input')!r})")
    return "\n".join(lines)


def _layer(base: dict[str, Any], over: Mapping[str, Any], where: str) -> dict[str, Any]:
    merged = {**base, **{k: v for k, v in over.items() if v is not None}}
    try:
        return TrialConfig.model_validate(merged).model_dump()
    except ValidationError as exc:
        raise TrialConfigError(_explain(exc, where)) from None


def resolve_skill_paths(paths: list[str], skill_dir: Path) -> list[str]:
    """Relative support/decoy paths: next to the skill, else from the launch directory."""
    out = []
    for raw in paths:
        p = Path(raw).expanduser()
        if not p.is_absolute():
            for base in (skill_dir.parent, skill_dir, Path.cwd()):
                if (base / p).exists():
                    p = base / p
                    break
        out.append(str(p))
    return out


def _decoys(cfg: dict[str, Any], overrides: Mapping[str, Any], root: Path,
            warn: Callable[[str], None] | None) -> None:
    """Replace cfg's decoy skills by `decoys` chosen ones (group workspace), when asked."""
    from skillforge.trials.decoys import DecoyError, choose_decoys

    if overrides.get("decoys") is None:
        return
    support = resolve_skill_paths(cfg["support_skills"], root)
    try:
        cfg["decoy_skills"] = choose_decoys(
            root, int(overrides["decoys"]), source=overrides.get("decoys_from"),
            seed=int(overrides.get("decoy_seed") or 0), exclude=support, warn=warn)
    except DecoyError as exc:
        raise TrialConfigError(f"options: {exc}") from None
    cfg["workspace"] = "group"


def build_run_spec(skill_path: Path | str, settings: Settings,
                   overrides: Mapping[str, Any] | None = None, *,
                   warn: Callable[[str], None] | None = None) -> RunSpec:
    """The RunSpec for a skill: settings < evals.json defaults < overrides (flags, the form).

    `overrides` takes any [trial] key plus `case_ids`, `provider`, `baseline_version`,
    `decoys`, `decoys_from` and `decoy_seed`; None values are ignored (a flag that was not
    given). `warn` hears about decoy candidates that had to be skipped.
    """
    root = skill_root(skill_path)
    overrides = dict(overrides or {})
    layer = settings.trial.model_dump()
    layer = _layer(layer, evals_defaults(root),
                   f"{root / 'evals' / 'evals.json'} (\"defaults\")")
    trial_flags = {k: v for k, v in overrides.items() if k not in SPEC_ONLY}
    cfg = _layer(layer, trial_flags, "options")
    case_ids = [str(c) for c in overrides.get("case_ids") or []]
    conditions = list(dict.fromkeys(cfg["conditions"]))
    if len(conditions) < 1:
        raise TrialConfigError("options: give at least one condition (with_skill, baseline, "
                               "self_generated, skill_mode)")
    try:
        harness = get_harness(cfg["agent"], environ={})
    except HarnessError as exc:
        raise TrialConfigError(f"options: {exc}") from None
    _decoys(cfg, overrides, root, warn)
    try:
        return RunSpec(
            skill_path=str(root.resolve()),
            case_ids=case_ids,
            conditions=conditions,
            attempts=cfg["attempts"],
            agent=cfg["agent"],
            model=cfg["model"],
            provider=overrides.get("provider") or (harness.provider if harness else None),
            sandbox=cfg["sandbox"],
            image=cfg["image"],
            network=cfg["network"],
            harness_cli=cfg["harness_cli"],
            limits=Limits(**{k: cfg[k] for k in LIMIT_KEYS}),
            workspace=cfg["workspace"],
            support_skills=resolve_skill_paths(cfg["support_skills"], root),
            decoy_skills=resolve_skill_paths(cfg["decoy_skills"], root),
            concurrency=cfg["concurrency"],
            pass_threshold=cfg["pass_threshold"],
            max_cost_usd=cfg["max_cost_usd"],
            baseline_version=overrides.get("baseline_version"),
            skill_cache_from=overrides.get("skill_cache_from"),
            skill_cache_mode=overrides.get("skill_cache_mode") or "grow",
            until_decided=cfg["until_decided"], margin=cfg["margin"],
        )
    except ValidationError as exc:
        raise TrialConfigError(_explain(exc, "options")) from None


def check_harness(spec: RunSpec, environ: Mapping[str, str] | None = None) -> None:
    """Refuse a spec whose external harness cannot run (sandbox, network, key), saying why."""
    try:
        check_agent(spec.agent, sandbox=spec.sandbox, network=spec.network, environ=environ,
                    conditions=spec.conditions)
    except HarnessError as exc:
        raise TrialConfigError(str(exc)) from None
