"""The LLM-judged metrics of one trial (CONTRACTS.md section 7): accuracy, goal_accuracy and
behavior_check, through the provider layer.

`await judged_metrics(trajectory, case, clients)` asks every judge model at once. Each
answer must validate as `TrialJudgeAnswer` for this case (every cited step id exists in the
trajectory, every assertion answered once, a goal verdict when there is a ground truth); an
invalid answer is sent back once with what is wrong, and a judge that still fails (or whose
provider fails) is left out and named in `JudgedResult.errors`: the others still count. Per
metric the result is the mean over the judges that answered, with the spread (max - min)
when two or more did.

- accuracy = score / 10; goal_accuracy = 1 (met), 0.5 (partially met) or 0 (not met), null
  without a ground truth; behavior_check = share of `yes` answers, null without assertions.
- Cached by sha256 of (trajectory, case id, case content, facts, judge provider:model,
  temperature, rubric version): in the run store (`RunStore.cache_get/cache_put`) when one
  is given, else as files under `<cache root>/trial_judge/`. A cache hit makes no request
  and reports zero tokens and cost.
- A case with `judge_votes: N` (plugin-eval's llm graders: 3) asks each judge N times and
  takes the majority per assertion (skillforge.metrics.judge_votes).
- With no client at all it raises ProviderNotConfigured; the caller decides what to do
  (leave the three metrics null: `overall` is the mean of what is available).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sessions.atif import Trajectory
from sessions.store import MetricEvidence, RunStore
from linters.caches import cache_dir
from skillforge.trajectory import facts as tf
from skillforge.models.fileio import atomic_write_text
from skillforge.metrics.judge_votes import majority, votes_of
from skillforge.metrics.judged_prompts import (
    RUBRIC_VERSION,
    judge_facts,
    new_nonce,
    response_schema,
    retry_prompt,
    system_prompt,
    trajectory_texts,
    user_prompt,
)
from skillforge.lift.agreement import metric_agreement
from skillforge.models.evals import EvalCase
from skillforge.models.judge import JudgeError, JudgeOutputError
from skillforge.models.llm import (
    ModelClient,
    ProviderError,
    ProviderNotConfigured,
)
from skillforge.models.metrics import (
    GOAL_VALUES,
    JudgedResult,
    TrialFacts,
    TrialJudgeAnswer,
    TrialVerdict,
)
from skillforge.models.structured_ask import (
    UnusableAnswer,
    ask_validated,
    client_labels,
    explain,
    json_object,
    keyed_items,
)

CACHE_KIND = "trial_judge"
METRICS = ("accuracy", "goal_accuracy", "behavior_check")


def trial_judge_cache_dir() -> Path:
    """<$SKILLFORGE_CACHE_DIR | $XDG_CACHE_HOME/skillforge | ~/.cache/skillforge>/trial_judge."""
    return cache_dir(CACHE_KIND)


def _sha(data: Any) -> str:
    text = data if isinstance(data, str) else json.dumps(data, sort_keys=True,
                                                         ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def trajectory_hash(traj: Trajectory) -> str:
    return _sha(traj.model_dump(mode="json", exclude_none=True))


def case_hash(case: EvalCase) -> str:
    """sha256 of what the judge is told about a case (editing notes does not re-judge)."""
    return _sha({"prompt": case.prompt, "kind": case.kind, "ground_truth": case.ground_truth,
                 "expected_behavior": case.expected_behavior, "files": case.files,
                 "expected_skill": case.expected_skill, "expected_script": case.expected_script})


def cache_key(traj_hash: str, case: EvalCase, facts: TrialFacts, client: ModelClient,
              temperature: float | None, rubric_version: str) -> str:
    parts = [traj_hash, str(case.id), case_hash(case), _sha(facts.model_dump(mode="json")),
             f"{client.name}:{client.model}", repr(temperature), rubric_version]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _labels(clients: Sequence[ModelClient]) -> list[str]:
    try:
        return client_labels(clients)
    except ValueError as exc:
        raise JudgeError(str(exc)) from None


async def judged_metrics(trajectory: Trajectory, case: EvalCase,
                         clients: Sequence[ModelClient], *, facts: TrialFacts | None = None,
                         store: RunStore | None = None, rubric_version: str = RUBRIC_VERSION,
                         temperature: float | None = 0.0, max_tokens: int | None = None,
                         use_cache: bool = True, cache_dir: Path | None = None,
                         skills_dirs: Sequence[str] = tf.SKILLS_DIRS) -> JudgedResult:
    """accuracy, goal_accuracy and behavior_check of one trial, judged by every client."""
    if not clients:
        raise ProviderNotConfigured(
            "judged metrics (accuracy, goal_accuracy, behavior_check) need a judge model; "
            "configure a provider (see `skillforge doctor`), or leave these metrics null")
    labels = _labels(clients)
    facts = facts or judge_facts(trajectory, skills_dirs)
    t_hash = trajectory_hash(trajectory)
    tasks = [asyncio.create_task(_judge_one(
        trajectory, case, facts, c, label, t_hash, store, rubric_version, temperature,
        max_tokens, use_cache, cache_dir)) for c, label in zip(clients, labels, strict=True)]
    try:
        outcomes = await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    verdicts = [o for o in outcomes if isinstance(o, TrialVerdict)]
    errors = {label: o for label, o in zip(labels, outcomes, strict=True) if isinstance(o, str)}
    return aggregate(case, verdicts, errors, rubric_version)


async def _judge_one(traj: Trajectory, case: EvalCase, facts: TrialFacts, client: ModelClient,
                     label: str, t_hash: str, store: RunStore | None, rubric_version: str,
                     temperature: float | None, max_tokens: int | None, use_cache: bool,
                     cache_dir: Path | None) -> TrialVerdict | str:
    """One judge's verdict, from the cache or the model; a string says why it failed. A case
    with `judge_votes` asks it that many times and takes the majority (judge_votes)."""
    votes = votes_of(case)
    got = [await _judge_vote(traj, case, facts, client, label, t_hash, store, rubric_version,
                             temperature, max_tokens, use_cache, cache_dir, vote)
           for vote in range(votes)]
    failed = next((g for g in got if isinstance(g, str)), None)
    if failed is not None:
        return failed
    return got[0] if votes == 1 else majority(got)  # type: ignore[arg-type]


async def _judge_vote(traj: Trajectory, case: EvalCase, facts: TrialFacts, client: ModelClient,
                      label: str, t_hash: str, store: RunStore | None, rubric_version: str,
                      temperature: float | None, max_tokens: int | None, use_cache: bool,
                      cache_dir: Path | None, vote: int) -> TrialVerdict | str:
    key = cache_key(t_hash, case, facts, client, temperature, rubric_version)
    if vote:
        key = hashlib.sha256(f"{key}\0vote {vote}".encode()).hexdigest()
    path = (cache_dir or trial_judge_cache_dir()) / f"{key}.json"
    if use_cache:
        hit = _cache_read(key, store, path)
        if hit is not None:
            return hit.model_copy(update={"label": label, "cached": True, "tokens_in": 0,
                                          "tokens_out": 0, "tokens_cached": 0, "cost_usd": 0.0})
    try:
        verdict = await _ask(traj, case, facts, client, label, rubric_version, temperature,
                             max_tokens)
    except asyncio.CancelledError:
        raise
    except (ProviderError, JudgeError, ValueError) as exc:
        # A provider that failed for good, or an unusable answer: this judge only. Anything
        # else is a bug and propagates.
        return str(exc) or type(exc).__name__
    if use_cache:
        _cache_write(key, verdict, store, path)
    return verdict


def _cache_read(key: str, store: RunStore | None, path: Path) -> TrialVerdict | None:
    try:
        if store is not None:
            value = store.cache_get(key)
            return TrialVerdict.model_validate(value) if value is not None else None
        return TrialVerdict.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None  # missing or damaged: ask again, and overwrite it


def _cache_write(key: str, verdict: TrialVerdict, store: RunStore | None, path: Path) -> None:
    try:
        if store is not None:
            store.cache_put(key, verdict.model_dump(mode="json"), kind=CACHE_KIND,
                            model=f"{verdict.provider}:{verdict.model}")
        else:
            atomic_write_text(path, verdict.model_dump_json(indent=1))
    except OSError:
        pass  # an unwritable cache costs a request next time, nothing else


def parse_answer(text: str, traj: Trajectory, case: EvalCase) -> TrialJudgeAnswer:
    """The answer if it fits this case and trajectory, else ValueError saying what is wrong.
    `behaviors` comes keyed by assertion number (what the schema asks for) or as a list."""
    data = json_object(text)
    if isinstance(data.get("behaviors"), dict):
        data = {**data, "behaviors": keyed_items(data["behaviors"], "index", numbered=True)}
    context = {"step_ids": {s.step_id for s in traj.steps},
               "assertions": len(case.expected_behavior), "goal": bool(case.ground_truth)}
    try:
        return TrialJudgeAnswer.model_validate(data, context=context)
    except ValidationError as exc:
        raise ValueError(explain(exc)) from None


async def _ask(traj: Trajectory, case: EvalCase, facts: TrialFacts, client: ModelClient,
               label: str, rubric_version: str, temperature: float | None,
               max_tokens: int | None) -> TrialVerdict:
    nonce = new_nonce([*trajectory_texts(traj), case.prompt, case.ground_truth or "",
                       *case.expected_behavior])
    try:
        answer, stats = await ask_validated(
            client, lambda fit: user_prompt(traj, case, facts, nonce, fit),
            system=system_prompt(nonce),
            schema=response_schema(bool(case.ground_truth), len(case.expected_behavior),
                                   [s.step_id for s in traj.steps]),
            parse=lambda done, _attempt: parse_answer(done.text, traj, case),
            retry_prompt=retry_prompt, max_tokens=max_tokens, temperature=temperature)
    except UnusableAnswer as exc:
        raise JudgeOutputError(f"judge model {label} did not answer in the trial rubric's "
                               f"format, even after one retry: {exc.problems}. Try another "
                               "judge model.", model=label) from None
    n = len(answer.behaviors)
    return TrialVerdict(
        provider=client.name, model=client.model, label=label, answer=answer,
        accuracy=answer.accuracy.score / 10,
        goal_accuracy=GOAL_VALUES[answer.goal.verdict] if answer.goal else None,
        behavior_check=(sum(1 for b in answer.behaviors if b.answer == "yes") / n if n else None),
        attempts=stats.attempts, tokens_in=stats.usage.input_tokens,
        tokens_out=stats.usage.output_tokens, tokens_cached=stats.usage.cached_tokens,
        cost_usd=stats.rounded_cost, temperature=temperature, rubric_version=rubric_version,
        left_out=stats.left_out, created_at=datetime.now(UTC))


def aggregate(case: EvalCase, verdicts: list[TrialVerdict], errors: dict[str, str],
              rubric_version: str) -> JudgedResult:
    """Mean and spread per metric over the judges that answered, and the evidence."""
    values: dict[str, float | None] = {}
    spread: dict[str, float | None] = {}
    agreement: dict[str, dict[str, float | None]] = {}
    for m in METRICS:
        got = [v for v in (getattr(j, m) for j in verdicts) if v is not None]
        values[m] = sum(got) / len(got) if got else None
        spread[m] = round(max(got) - min(got), 6) if len(got) >= 2 else None
        if len(got) >= 2:
            # The run-level statistic on this one trial (alpha needs many trials: left out).
            stats = metric_agreement([got], len(verdicts))
            # Only goal_accuracy is categorical; a behavior share of 0.5 only looks so.
            agreement[m] = {"mean_abs_diff": stats.mean_abs_diff,
                            "percent_agreement": stats.percent_agreement
                            if m == "goal_accuracy" else None}
    costs = [v.cost_usd for v in verdicts]
    return JudgedResult(
        **values, spread=spread, agreement=agreement,
        evidence=_evidence(case, verdicts, errors, spread, agreement),
        judges=verdicts, errors=errors, rubric_version=rubric_version,
        tokens_in=sum(v.tokens_in for v in verdicts),
        tokens_out=sum(v.tokens_out for v in verdicts),
        tokens_cached=sum(v.tokens_cached for v in verdicts),
        cost_usd=None if any(c is None for c in costs) else round(sum(costs), 8),  # type: ignore[arg-type]
        cached=bool(verdicts) and all(v.cached for v in verdicts),
    )


def _evidence(case: EvalCase, verdicts: list[TrialVerdict], errors: dict[str, str],
              spread: dict[str, float | None],
              agreement: dict[str, dict[str, float | None]]) -> dict[str, Any]:
    def items(ev: list[Any]) -> list[dict[str, Any]]:
        return [{"step_id": e.step_id, "quote": e.quote} for e in ev]

    out: dict[str, Any] = {
        "accuracy": {"spread": spread["accuracy"], "judges": {
            v.label: {"score": v.answer.accuracy.score, "value": v.accuracy,
                      "rationale": v.answer.accuracy.rationale,
                      "evidence": items(v.answer.accuracy.evidence)} for v in verdicts}},
    }
    if case.ground_truth:
        out["goal_accuracy"] = {"spread": spread["goal_accuracy"], "judges": {
            v.label: {"verdict": v.answer.goal.verdict, "value": v.goal_accuracy,
                      "rationale": v.answer.goal.rationale,
                      "evidence": items(v.answer.goal.evidence)}
            for v in verdicts if v.answer.goal is not None}}
    else:
        out["goal_accuracy"] = {"null_because": "the case has no ground_truth"}
    if case.expected_behavior:
        rows = []
        for i, text in enumerate(case.expected_behavior, 1):
            answers = {v.label: b.model_dump(exclude={"index"}) for v in verdicts
                       for b in v.answer.behaviors if b.index == i}
            rows.append({"index": i, "assertion": text, "answers": answers,
                         "unanimous": len({a["answer"] for a in answers.values()}) <= 1})
        out["behavior_check"] = {"spread": spread["behavior_check"], "assertions": rows}
    else:
        out["behavior_check"] = {"null_because": "the case has no expected_behavior assertions"}
    for m in METRICS:
        if m in agreement:
            out[m]["agreement"] = agreement[m]
        if errors:
            out[m]["judge_errors"] = errors
        cuts = {v.label: v.left_out for v in verdicts if v.left_out}
        if cuts:
            # What a judge did not see, to fit its model's context (prompt_fit).
            out[m]["not_shown_to_judge"] = cuts
        if "null_because" not in out[m]:
            # Each judge's own value: the run-level agreement between judges is built from it.
            out[m]["per_judge"] = {v.label: v.metrics()[m] for v in verdicts}
    return out


def metric_evidence(result: JudgedResult) -> dict[str, MetricEvidence]:
    """The evidence to store beside each judged metric (RunStore.record_metric)."""
    return {m: MetricEvidence(evidence=result.evidence.get(m), judge_model=result.judge_model,
                              rubric_version=result.rubric_version) for m in METRICS}
