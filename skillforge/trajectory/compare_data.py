"""One case of a stored run, side by side: every attempt's trajectory, record and evidence.

Headless (no Textual): the Compare view renders what `load_case_attempts` returns. Also
here, because both are facts about a pair of attempts rather than about drawing them: the
judge's evidence as links to steps (`evidence_links`), an attempt's final answer, and the
word diff of two final answers (`answer_diff`).

Evidence is stored as whatever JSON the metric writer produced (CONTRACTS.md section 7):
the judge's `{"judges": {label: {"evidence": [{"step_id", "quote"}]}}}`, behaviour answers
`{"assertions": [{"answers": {label: {"answer", "step_id", "quote"}}}]}`, the deterministic
metrics' checks (`"why": "activated at step 3 (read)"`), error lists with `step_id` and
security findings with `step_ids`. `evidence_links` walks any of these shapes and keeps
every piece that names a step.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sessions.atif import AtifError, Trajectory, load_trajectory
from sessions.store import MetricEvidence, RunStore, TrajectoryRecord
from skillforge.lift.cases import natural_key, trial_overall, trial_value
from skillforge.models.trial import ALL_METRICS, TrialRecord

SIDES: tuple[str, str] = ("with_skill", "baseline")
QUOTE_LIMIT = 160
# "step 4", "steps 3, 5", "step(s) 4, 7 and 9"
_STEP_MENTION = re.compile(r"\bsteps?(?:\(s\))?\s+(\d+(?:\s*(?:,|and)\s*\d+)*)", re.IGNORECASE)
_TEXT_KEYS = ("quote", "why", "detail", "reason", "rationale", "assertion", "check")


@dataclass(frozen=True)
class EvidenceLink:
    """One piece of a metric's evidence that points at a step of the trajectory."""

    metric: str
    step_id: int
    text: str
    source: str | None = None  # the judge's label, or the check that said it


@dataclass
class Attempt:
    """One attempt of one side: its record, trajectory (None when unreadable) and evidence."""

    trial: TrialRecord
    trajectory: Trajectory | None = None
    evidence: dict[str, MetricEvidence] = field(default_factory=dict)
    problem: str | None = None  # why there is no trajectory, in words

    @property
    def number(self) -> int:
        return self.trial.attempt

    @property
    def links(self) -> list[EvidenceLink]:
        """The evidence that names a step, in metric order."""
        out: list[EvidenceLink] = []
        for metric in sorted(self.evidence, key=_metric_rank):
            out += evidence_links(metric, self.evidence[metric].evidence)
        return out

    def score(self, metric: str) -> float | None:
        """The attempt's value of a metric; `overall` and `grader` derived as for the lift."""
        return trial_value(self.trial, metric)

    @property
    def final_answer(self) -> str:
        return final_answer(self.trajectory)


@dataclass
class CaseAttempts:
    """Every attempt of one case on both sides, and which attempt to show first per side."""

    run_id: str
    case_id: str
    skill: str | None = None
    kind: str | None = None
    sides: dict[str, list[Attempt]] = field(default_factory=dict)
    start: dict[str, int] = field(default_factory=dict)  # index into sides[side]
    problems: list[str] = field(default_factory=list)


def _metric_rank(metric: str) -> tuple[int, str]:
    return (ALL_METRICS.index(metric) if metric in ALL_METRICS else len(ALL_METRICS), metric)


# --- evidence ------------------------------------------------------------------------------

def _short(text: str, limit: int = QUOTE_LIMIT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _mentioned_steps(text: str) -> list[int]:
    out: list[int] = []
    for m in _STEP_MENTION.finditer(text):
        out += [int(n) for n in re.findall(r"\d+", m.group(1))]
    return list(dict.fromkeys(out))


def _item_text(node: Mapping[str, Any], context: str | None) -> str:
    """`#2 Runs the script · yes · “quote”`: what an evidence item says, in one line."""
    head = context
    if isinstance(node.get("index"), int) and isinstance(node.get("assertion"), str):
        head = f"#{node['index']} {node['assertion']}"
    answer = node.get("answer") if isinstance(node.get("answer"), str) else None
    body = None
    for key in _TEXT_KEYS:
        value = node.get(key)
        if key != "assertion" and isinstance(value, str) and value.strip():
            body = f"“{value.strip()}”" if key == "quote" else value.strip()
            break
    if body is None and isinstance(node.get("tool"), str):
        body = node["tool"]
    return _short(" · ".join(b for b in (head, answer, body) if b))


def _is_detail(text: str) -> bool:
    """A free-text detail line such as "step 4: reads /etc/passwd"."""
    return bool(_STEP_MENTION.match(text.strip()))


def evidence_links(metric: str, evidence: Any) -> list[EvidenceLink]:
    """Every piece of one metric's stored evidence that names a step, deduplicated."""
    found: list[EvidenceLink] = []

    def mentions(text: str, source: str | None) -> None:
        found.extend(EvidenceLink(metric, s, _short(text), source)
                     for s in _mentioned_steps(text))

    def walk(node: Any, source: str | None, context: str | None) -> None:
        if isinstance(node, list):
            for item in node:
                if isinstance(item, str) and _is_detail(item):
                    mentions(item, source)
                else:
                    walk(item, source, context)
            return
        if not isinstance(node, Mapping):
            return
        sid = node.get("step_id")
        has_step = isinstance(sid, int) and not isinstance(sid, bool)
        if has_step:
            found.append(EvidenceLink(metric, sid, _item_text(node, context), source))
        details = node.get("details")
        covered = set()
        if isinstance(details, list):
            covered = {s for d in details if isinstance(d, str) for s in _mentioned_steps(d)}
        ids = node.get("step_ids")
        if isinstance(ids, list):
            label = _short(str(node.get("label") or node.get("kind") or metric))
            found.extend(EvidenceLink(metric, s, label, source) for s in ids
                         if isinstance(s, int) and not isinstance(s, bool) and s not in covered)
        row = (f"#{node['index']} {node['assertion']}"
               if isinstance(node.get("assertion"), str) and isinstance(node.get("index"), int)
               else context)
        check = node.get("check") if isinstance(node.get("check"), str) else None
        for key, value in node.items():
            if key in ("judges", "answers") and isinstance(value, Mapping):
                for label, sub in value.items():
                    walk(sub, str(label), row)
            elif isinstance(value, str):
                if key in ("why", "detail", "details") and not has_step:
                    mentions(value, check or source)
            elif key != "step_ids":
                walk(value, source, context)

    walk(evidence, None, None)
    return list(dict.fromkeys(found))


# --- final answers -------------------------------------------------------------------------

def final_answer(traj: Trajectory | None) -> str:
    """The text of the last agent step that says something ('' when none does)."""
    if traj is None:
        return ""
    for step in reversed(traj.steps):
        if step.source == "agent" and step.text.strip():
            return step.text.strip()
    return ""


DiffOp = Literal["equal", "delete", "insert"]
# A word with the spaces after it: spaces then never match on their own between changes.
_TOKENS = re.compile(r"^\s+|\S+\s*")


def answer_diff(before: str, after: str) -> list[tuple[DiffOp, str]]:
    """Word-level diff from `before` to `after`: runs of equal, deleted and inserted text.

    Whitespace is kept, so joining the `equal` and `delete` parts gives `before` back and
    joining `equal` and `insert` parts gives `after`.
    """
    a, b = _TOKENS.findall(before), _TOKENS.findall(after)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out: list[tuple[DiffOp, str]] = []

    def add(op: DiffOp, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            add("equal", "".join(a[i1:i2]))
        else:
            add("delete", "".join(a[i1:i2]))
            add("insert", "".join(b[j1:j2]))
    return out


# --- loading -------------------------------------------------------------------------------

def representative(attempts: Sequence[Attempt]) -> int:
    """Index of the attempt whose overall is closest to the side's mean (first on ties)."""
    scored = [(i, v) for i, a in enumerate(attempts) if (v := trial_overall(a.trial)) is not None]
    if not scored:
        return 0
    centre = sum(v for _, v in scored) / len(scored)
    return min(scored, key=lambda iv: (abs(iv[1] - centre), iv[0]))[0]


def _trajectory(store: RunStore, rec: TrajectoryRecord | None,
                trial: TrialRecord) -> tuple[Trajectory | None, str | None]:
    path: Path | None = rec.path if rec is not None else None
    if path is None and trial.trajectory_path:
        path = Path(trial.trajectory_path)
        if not path.is_absolute():
            path = store.state_dir / path
    where = f"{trial.case_id} {trial.condition} attempt {trial.attempt}"
    if path is None:
        why = f": {trial.error}" if trial.error else ""
        return None, f"no trajectory was stored for {where} (status {trial.status}{why})"
    if not path.exists():
        return None, (f"the trajectory of {where} is missing ({path}); re-run the trial or "
                      "restore the state dir")
    try:
        return load_trajectory(path), None
    except AtifError as exc:
        return None, f"{exc}; re-import or re-run {where}"


def load_case_attempts(store: RunStore, run_id: str, case_id: str,
                       conditions: Iterable[str] = SIDES) -> CaseAttempts:
    """Every attempt of `case_id` in `run_id`, both sides, with trajectories and evidence.

    Raises LookupError (with what exists) when the run or the case is not in the store; a
    missing or damaged trajectory is not an error: the attempt says why in `problem`.
    """
    run = store.run(run_id)
    if run is None:
        known = ", ".join(r.run_id for r in store.runs()[:5]) or "none"
        raise LookupError(f"no run {run_id!r} in {store.db_path} (recent runs: {known})")
    conds = tuple(conditions)
    trials = [t for t in store.trials(run_id) if t.condition in conds]
    mine = [t for t in trials if t.case_id == case_id]
    if not mine:
        cases = sorted({t.case_id for t in trials}, key=natural_key)
        shown = ", ".join(cases[:8]) + (" …" if len(cases) > 8 else "")
        raise LookupError(f"run {run_id} has no trial of case {case_id!r} (its cases: "
                          f"{shown or 'none'})")
    records = {(r.condition, r.attempt): r for r in store.trajectories(run_id)
               if r.case_id == case_id}
    out = CaseAttempts(run_id=run_id, case_id=case_id, skill=run.skill_name,
                       kind=next((t.case_kind for t in mine if t.case_kind), None))
    for cond in conds:
        attempts = []
        for trial in sorted((t for t in mine if t.condition == cond), key=lambda t: t.attempt):
            traj, problem = _trajectory(store, records.get((cond, trial.attempt)), trial)
            if problem:
                out.problems.append(problem)
            evidence = {m.metric: MetricEvidence(evidence=m.evidence, judge_model=m.judge_model,
                                                 rubric_version=m.rubric_version)
                        for m in store.metrics(run_id, (case_id, cond, trial.attempt))}
            attempts.append(Attempt(trial, traj, evidence, problem))
        out.sides[cond] = attempts
        out.start[cond] = representative(attempts)
    return out
