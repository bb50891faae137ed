"""Mappings every format shares: skillforge's case fields as graders and back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from skillforge.models.evals import KINDS, EvalCase, EvalSet

SKILL_GRADER = "skill-invoked"
NO_SKILL_GRADER = "skill-not-invoked"
SCRIPT_GRADER = "expected-script"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def escape(text: str) -> str:
    """A regex matching `text` literally, escaping only what needs it (readable output)."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text)


def unescape(pattern: str) -> str | None:
    """The literal text a regex written by `escape` matches, or None if it is not literal."""
    out, i = [], 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern) and not pattern[i + 1].isalnum():
            out.append(pattern[i + 1])
            i += 2
            continue
        if ch in ".^$*+?{}[]\\|()":
            return None
        out.append(ch)
        i += 1
    return "".join(out)


def safe_name(text: str, fallback: str = "case") -> str:
    """A file or folder name for `text` (ids become folder names)."""
    name = _SAFE.sub("-", str(text)).strip("-.")
    return name or fallback


def skill_name_of(path: Path) -> str | None:
    """The skill a case file belongs to: the folder holding SKILL.md above `path`."""
    for parent in [path, *path.parents][:4]:
        if (parent / "SKILL.md").is_file():
            return parent.name
    return None


def kind_from_tags(tags: Any) -> tuple[str | None, list[Any]]:
    """(the skillforge kind named among `tags`, the other tags)."""
    if not isinstance(tags, list):
        return None, []
    kind = next((t for t in tags if t in KINDS), None)
    return kind, [t for t in tags if t != kind]


def skill_target(case: EvalCase, evalset: EvalSet) -> str | None:
    """The skill a negative case must not use, or a positive case must: for graders."""
    return case.expected_skill or evalset.skill_name


def skill_from_match(match: Any, fallback: str | None) -> str | None:
    text = unescape(match) if isinstance(match, str) else None
    return text if text and _PLAIN_NAME.match(text) else fallback


def new_case(values: dict[str, Any], extra: dict[str, Any]) -> EvalCase:
    """An EvalCase from read values; field names canonical, key order canonical."""
    values = {k: v for k, v in values.items() if v not in (None, [], "") or k == "prompt"}
    case = EvalCase(**values, extra=extra)
    order = [k for k in ("id", "kind", "prompt", "files", "expected_skill", "expected_script",
                         "ground_truth", "expected_behavior", "grader", "notes",
                         "reference_turns", "should_trigger", "checks") if k in values]
    case.key_order = order + list(extra)
    return case


JUDGE_PASS = ("\n\nIf this holds, call set_waza_grade_pass; otherwise call "
              "set_waza_grade_fail.")
TRUTH_GRADER = "ground-truth"
TRUTH_PREFIX = "The result agrees with this reference answer: "


def truth_rubric(ground_truth: str) -> str:
    return TRUTH_PREFIX + ground_truth


def truth_of(rubric: str) -> str | None:
    return rubric[len(TRUTH_PREFIX):] if rubric.startswith(TRUTH_PREFIX) else None


def regex_check(pattern: str, *, negate: bool = False, target: Any = "last_message",
                name: str | None = None) -> dict[str, Any]:
    check: dict[str, Any] = {"type": "regex", "pattern": pattern,
                             "match": "not_contains" if negate else "contains"}
    if target != "last_message":
        check["target"] = target
    if name:
        check["name"] = name
    return check


def load_case_values(values: dict[str, Any], grader_reads: list[tuple[str, Any]]) -> None:
    """Apply (field, value) pairs read off graders: expected_behavior accumulates."""
    for key, value in grader_reads:
        if key in ("expected_behavior", "checks"):
            values.setdefault(key, []).append(value)
        else:
            values[key] = value


def reconcile(generated: list[dict[str, Any]], original: list[dict[str, Any]],
              meaning: Any) -> list[dict[str, Any]]:
    """`generated` graders with each one that means what an original grader meant replaced by
    that original (its name, spelling and options), in the original order, new ones last.

    `meaning(grader)` is what a grader says in skillforge's terms (comparable). A case saved
    in place without edits therefore comes back exactly as it was read."""
    used: set[int] = set()
    placed: list[tuple[int, int, dict[str, Any]]] = []
    for j, g in enumerate(generated):
        mine = meaning(g)
        hit = next((i for i, o in enumerate(original) if i not in used and meaning(o) == mine),
                   None)
        if hit is None:
            placed.append((len(original), j, g))
        else:
            used.add(hit)
            placed.append((hit, j, original[hit]))
    return [g for _, _, g in sorted(placed, key=lambda t: (t[0], t[1]))]
