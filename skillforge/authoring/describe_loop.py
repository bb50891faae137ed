"""The description-optimisation loop, with a held-out test set and the author in charge.

    loop = DescriptionLoop(skill_dir, history, trials=TriggerTrials(...), proposer=client)
    history = await loop.run()        # loop.json written after every step

Protocol (Anthropic's skill-creator loop, with intervals and decoys):

1. The trigger set (evals.json cases with `should_trigger`) is split, stratified, into train
   and test (`holdout` to test, `seed`), before anything runs.
2. Iteration 0 scores the current description on both splits.
3. Each further iteration asks the proposer for a description from the training queries
   and every earlier attempt's training results (skillforge.authoring.describe_prompt:
   never a test query or score). The candidate is linted as a SKILL.md (the spec's 1024
   characters and the linter's description rules); one with findings is sent back once with
   them, then skipped. A repeat of an earlier description is not run again. Otherwise it is
   scored on train and test.
4. The best is the highest test accuracy (ties: train accuracy, then the earlier
   iteration). Against the current description: the paired test difference with its
   interval, a warning when it is within noise (with the planner's number of queries), and
   the queries whose decision flipped.

With a cost cap (`--max-cost-usd`), the trigger runs share it (each run gets what is left,
skillforge.trials.budget) and a proposal is asked only while the dearest one so far fits on
top of the spend. The loop then ends `stopped`; the attempt whose scoring the cap cut keeps
no score, and the best is picked among the attempts scored in full.

Nothing is written to the skill: the result is a proposal (`LoopHistory`) that the author
accepts with `--write` or `a` in the workbench (skillforge.authoring.description_edit).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from pathlib import Path

from linters import lint_skill
from skillforge.authoring.describe_prompt import lint_feedback, propose_description
from skillforge.lift.triggers import compare, flips, pick_best
from skillforge.models.lint_config import LintConfig
from skillforge.models.fileio import atomic_write_text
from skillforge.models.findings import Finding, Severity
from skillforge.models.llm import ModelClient
from skillforge.models.proposals import ModelCall, ProposalError
from skillforge.models.skill import SKILL_MD, Skill
from skillforge.models.skill_loader import load_skill
from skillforge.models.triggers import Attempt, LoopHistory
from skillforge.trials.triggers import TriggerTrials, stage_candidate


class CostCapReached(Exception):
    """The loop's next step would pass its cost cap; the message says the spend."""

LOOP_FILE = "loop.json"
# The linter's rules about the description (CONTRACTS.md section 2): a candidate with any of
# them (at any severity but info) is rejected, as is one with a new error or a critical or
# high security finding.
DESCRIPTION_RULES = frozenset({"SF107", "SF111", "SF117", "SF201", "SF202", "SF203", "SF205",
                               "SF206", "SF207"})
BLOCKING = frozenset({Severity.error, Severity.critical, Severity.high})

Progress = Callable[[LoopHistory], None]


def loop_dir(state_dir: Path, loop_id: str) -> Path:
    return Path(state_dir) / "triggers" / loop_id


def save_history(folder: Path, history: LoopHistory) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOOP_FILE
    atomic_write_text(path, history.model_dump_json(indent=2) + "\n")
    return path


def load_history(folder: Path) -> LoopHistory:
    return LoopHistory.model_validate_json((folder / LOOP_FILE).read_text("utf-8"))


def _key(f: Finding) -> tuple[str, str]:
    return (f.rule, f.message)


def lint_description(skill_dir: Path, description: str, name: str,
                     config: LintConfig | None = None) -> list[str]:
    """The findings that reject `description` for the skill at `skill_dir` ("SFxxx: ...")."""
    before = {_key(f) for f in lint_skill(skill_dir, config, external=False).findings}
    with tempfile.TemporaryDirectory(prefix="skillforge-desc-") as tmp:
        try:
            folder = stage_candidate(skill_dir, description, Path(tmp), name, [])
        except ValueError as exc:
            return [f"SF111: {exc}"]
        report = lint_skill(folder, config, external=False)
    out = []
    for f in report.findings:
        if f.rule in DESCRIPTION_RULES and f.severity != Severity.info:
            out.append(f"{f.rule}: {f.message}")
        elif f.severity in BLOCKING and _key(f) not in before:
            out.append(f"{f.rule}: {f.message}")
    return out


class DescriptionLoop:
    """Runs the loop of the module docstring over a prepared `LoopHistory`."""

    def __init__(self, skill_dir: Path, history: LoopHistory, *, trials: TriggerTrials,
                 proposer: ModelClient, folder: Path, lint_config: LintConfig | None = None,
                 max_tokens: int | None = None, temperature: float | None = None,
                 on_progress: Progress | None = None) -> None:
        self.skill_dir = skill_dir
        self.history = history
        self.trials = trials
        self.proposer = proposer
        self.folder = folder
        self.lint_config = lint_config
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.on_progress = on_progress
        self.cancelled = False

    def _save(self) -> None:
        save_history(self.folder, self.history)
        if self.on_progress is not None:
            self.on_progress(self.history)

    def cancel(self) -> None:
        self.cancelled = True
        self.trials.cancel()

    async def _score(self, attempt: Attempt) -> None:
        h = self.history
        self.trials.stage(attempt.description, attempt.iteration, [*h.train, *h.test])
        for split in ("train", "test"):
            queries = h.train if split == "train" else h.test
            run_id, score = await self.trials.score(
                attempt.description, queries, loop_id=h.loop_id, iteration=attempt.iteration,
                split=split)  # type: ignore[arg-type]
            if self.trials.stopped:
                # A partial score would compare descriptions on different queries.
                attempt.train = attempt.test = None
                attempt.status, attempt.note = "stopped", (
                    f"its {split} run {run_id} stopped at the cost cap; not scored")
                raise CostCapReached(self._cap_reason())
            if split == "train":
                attempt.train_run, attempt.train = run_id, score
            else:
                attempt.test_run, attempt.test = run_id, score
            self._save()
            if self.cancelled:
                return

    def _cap_reason(self) -> str:
        return (f"stopped at the cost cap: ${self.trials.spent:.4f} spent of "
                f"${self.trials.max_cost_usd:.4f}; the next step would have passed it")

    def _proposal_fits(self) -> bool:
        """Another proposal fits the cap: the dearest one so far (or none yet) on top of
        the spend."""
        cap = self.trials.max_cost_usd
        if cap is None:
            return True
        dearest = max((a.propose_cost_usd or 0.0 for a in self.history.attempts), default=0.0)
        return self.trials.spent + dearest <= cap

    def _skill(self) -> Skill:
        return load_skill(self.skill_dir)

    async def _propose(self, iteration: int) -> Attempt:
        """Ask for a candidate (again once with the lint findings); lint it."""
        h = self.history
        skill = self._skill()
        earlier = list(h.attempts)
        feedback: str | None = None
        calls: list[ModelCall] = []
        attempt = Attempt(iteration=iteration, description="")
        for round_ in (1, 2):
            answer, call = await propose_description(
                self.proposer, skill, h.train, earlier, feedback=feedback,
                max_tokens=self.max_tokens, temperature=self.temperature)
            calls.append(call)
            attempt.description, attempt.rationale = answer.description, answer.rationale
            found = lint_description(self.skill_dir, answer.description, h.skill,
                                     self.lint_config)
            attempt.lint_findings = found
            if not found:
                attempt.status = "tried"
                break
            if round_ == 1:
                feedback = lint_feedback(answer.description, found)
            else:
                attempt.status = "lint_rejected"
                attempt.note = ("the linter rejected it twice (" + "; ".join(
                    f.split(":")[0] for f in found) + "); skipped")
        attempt.propose_tokens_in = sum(c.tokens_in for c in calls)
        attempt.propose_tokens_out = sum(c.tokens_out for c in calls)
        costs = [c.cost_usd for c in calls if c.cost_usd is not None]
        attempt.propose_cost_usd = round(sum(costs), 6) if costs else None
        if attempt.status == "tried" and any(
                a.description == attempt.description for a in h.attempts):
            attempt.status, attempt.note = "duplicate", "repeats an earlier attempt; not run"
        return attempt

    async def run(self) -> LoopHistory:
        h = self.history
        try:
            current = h.attempt(0) or Attempt(iteration=0, description=h.attempts[0].description
                                              if h.attempts else "")
            if h.attempt(0) is None:
                h.attempts.append(current)
            self._save()
            await self._score(current)
            for k in range(1, h.settings.iterations + 1):
                if self.cancelled:
                    break
                if not self._proposal_fits():
                    raise CostCapReached(self._cap_reason())
                try:
                    attempt = await self._propose(k)
                except ProposalError as exc:
                    attempt = Attempt(iteration=k, description="", status="failed",
                                      note=str(exc))
                self.trials.spent += attempt.propose_cost_usd or 0.0
                h.attempts.append(attempt)
                self._save()
                if attempt.status == "tried":
                    await self._score(attempt)
            self.finish()
            h.status = "cancelled" if self.cancelled else "finished"
        except CostCapReached as exc:
            h.status, h.error = "stopped", str(exc)
            self.finish()
        except asyncio.CancelledError:
            h.status = "cancelled"
            self.finish()
            self._save()
            raise
        except Exception as exc:
            h.status, h.error = "failed", str(exc)
            self._save()
            raise
        self._save()
        return h

    def finish(self) -> None:
        """Pick the best attempt, compare it with the current one, list the flips."""
        h = self.history
        current = h.attempt(0)
        if current is None or current.test is None:
            return
        best_k = pick_best(h.attempts)
        best = h.attempt(best_k) or current
        h.comparison = compare(current.test, best.test or current.test, best_k)
        h.flips = flips(current, best) if best_k else []


def description_of(skill_dir: Path) -> str:
    """The current description of the skill (as the loader reads it)."""
    skill = load_skill(skill_dir)
    if skill.description is None:
        raise ProposalError(f"{skill_dir / SKILL_MD} has no description to optimise; add one "
                            "first")
    return str(skill.description)


def histories(state_dir: Path, skill_dir: Path) -> list[LoopHistory]:
    """The stored loops of the skill at `skill_dir`, newest first (unreadable ones skipped)."""
    root = Path(state_dir) / "triggers"
    want = Path(skill_dir).resolve()
    out = []
    for path in sorted(root.glob(f"*/{LOOP_FILE}")) if root.is_dir() else []:
        try:
            h = LoopHistory.model_validate_json(path.read_text("utf-8"))
        except (OSError, ValueError):
            continue
        if Path(h.skill_path).resolve() == want:
            out.append(h)
    return sorted(out, key=lambda h: h.created_at, reverse=True)
