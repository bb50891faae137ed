"""What `skillforge trial` shows of a Skill Mode run at the end: per attempt, the final cache.

The SkillCraft metrics (exec rate, reuse rate, efficiency) are `skillforge report`'s
(skillforge.lift.skillcraft); this is the run's own account, read from the stored rows: the
skills each chain ended with (created by which case, runs, failures) and the skill-tool
failures by kind (verifier rejections included).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from skillforge.models.skill_mode import SkillModeTrial


def skill_mode_summary(rows: Sequence[SkillModeTrial]) -> list[dict[str, Any]]:
    """One entry per attempt: cases in chain order, final skills, failures by kind."""
    out: list[dict[str, Any]] = []
    for attempt in sorted({r.attempt for r in rows}):
        chain = sorted((r for r in rows if r.attempt == attempt), key=lambda r: r.seq)
        last = chain[-1]
        calls = Counter(e.tool for r in chain for e in r.events)
        failures = Counter(e.failure for r in chain for e in r.events if e.failure)
        out.append({
            "attempt": attempt,
            "mode": last.mode,
            "inherited_from": last.inherited_from,
            "cases": [r.case_id for r in chain],
            "calls": dict(calls),
            "failures": dict(failures),
            "skills": [{"name": s.name,
                        "created_by": s.created_by.case_id if s.created_by else None,
                        "runs": s.execution_stats.runs,
                        "failures": s.execution_stats.failures}
                       for s in last.cache_after.skills.values()],
        })
    return out


def skill_mode_table(summary: Sequence[dict[str, Any]]) -> Group:
    """The text rendering of `skill_mode_summary`."""
    parts: list[Any] = []
    for chain in summary:
        head = f"Skill Mode, attempt {chain['attempt']} ({chain['mode']}"
        head += f", cache from run {chain['inherited_from']})" if chain["inherited_from"] \
            else ")"
        parts.append(Text(head + ": " + " -> ".join(chain["cases"]), style="bold"))
        if chain["skills"]:
            table = Table(show_edge=False, pad_edge=False)
            for col in ("skill", "created by", "runs", "failures"):
                table.add_column(col, justify="right" if col in ("runs", "failures")
                                 else "left")
            for s in chain["skills"]:
                table.add_row(s["name"], s["created_by"] or "(inherited)", str(s["runs"]),
                              str(s["failures"]))
            parts.append(table)
        else:
            parts.append(Text("no skills cached", style="dim"))
        calls = ", ".join(f"{k} {v}" for k, v in sorted(chain["calls"].items())) or "none"
        fails = ", ".join(f"{k} {v}" for k, v in sorted(chain["failures"].items())) or "none"
        parts.append(Text(f"skill tool calls: {calls}; failures: {fails}", style="dim"))
    return Group(*parts)
