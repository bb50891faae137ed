"""The LLM judge: the nine-criterion rubric of CONTRACTS 2.3 over a loaded skill.

`await judge_skill(skill, clients)` asks every judge model at once (a `ModelClient` each,
built by the caller: `run.judge_clients`), validates each answer against
`JudgeAnswer`, retries a model ONCE with the validation errors, and aggregates: mean per
criterion and overall, spread (max - min) per criterion, flags where spread >= 3.

Each model's verdict is cached on disk by (skill content hash, rubric version, provider and
model, temperature) under `<cache root>/judge/`; a re-judge of an unchanged skill makes no
request. The call is a coroutine: cancelling it cancels every request in flight.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from linters.caches import cache_dir
from skillforge.authoring.judge.prompt import (
    RUBRIC_VERSION,
    new_nonce,
    response_schema,
    retry_prompt,
    system_prompt,
    user_prompt,
)
from linters.scoring import grade
from skillforge.models.judge import (
    CRITERIA,
    SPREAD_FLAG,
    CriterionResult,
    JudgeAnswer,
    JudgeError,
    JudgeEvent,
    JudgeFailed,
    JudgeFinished,
    JudgeOutputError,
    JudgeResult,
    JudgeRetrying,
    JudgeStarted,
    ModelVerdict,
)
from skillforge.models.fileio import atomic_write_text
from skillforge.models.llm import (
    Completion,
    ModelClient,
)
from skillforge.models.skill import Skill
from skillforge.models.structured_ask import (
    UnusableAnswer,
    ask_validated,
    client_labels,
    explain,
    json_object,
    keyed_items,
)

Progress = Callable[[JudgeEvent], None]


def judge_cache_dir() -> Path:
    """<$SKILLFORGE_CACHE_DIR | $XDG_CACHE_HOME/skillforge | ~/.cache/skillforge>/judge."""
    return cache_dir("judge")


def cache_key(skill_hash: str, client: ModelClient, temperature: float | None) -> str:
    """sha256 of (skill hash, rubric version, provider:model, temperature); `client` needs
    only `name` and `model` (a resolved ProviderChoice will do)."""
    parts = [skill_hash, RUBRIC_VERSION, f"{client.name}:{client.model}", repr(temperature)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def cached_result(skill: Skill, judges: Sequence, temperature: float | None = 0.0,
                  cache_dir: Path | None = None) -> JudgeResult | None:
    """The verdict every judge gave this exact content before, from the disk cache alone
    (no request), or None when any judge has none. `judges` need `name` and `model`."""
    if not judges or skill.skill_md is None or skill.skill_md.text is None:
        return None
    try:
        labels = client_labels(judges)
    except ValueError:
        return None
    skill_hash = skill.content_hash()
    cache = cache_dir or judge_cache_dir()
    verdicts = []
    for judge, label in zip(judges, labels, strict=True):
        hit = _read_cache(cache / f"{cache_key(skill_hash, judge, temperature)}.json")
        if hit is None:
            return None
        verdicts.append(hit.model_copy(update={"label": label, "cached": True}))
    return aggregate(skill, skill_hash, verdicts, temperature)


def _labels(clients: Sequence[ModelClient]) -> list[str]:
    try:
        return client_labels(clients)
    except ValueError as exc:
        raise JudgeError(str(exc)) from None


async def judge_skill(
    skill: Skill,
    clients: Sequence[ModelClient],
    *,
    temperature: float | None = 0.0,
    max_tokens: int | None = None,
    use_cache: bool = True,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
) -> JudgeResult:
    """Judge `skill` with every client (concurrently) and aggregate their verdicts."""
    if not clients:
        raise JudgeError("no judge model given; configure a provider (see skillforge doctor)")
    if skill.skill_md is None or skill.skill_md.text is None:
        raise JudgeError(f"{skill.root}: no readable SKILL.md, so there is nothing to judge; "
                         "run `skillforge lint` on it first")
    labels = _labels(clients)
    skill_hash = skill.content_hash()
    cache = (cache_dir or judge_cache_dir()) if use_cache else None
    tasks = [
        asyncio.create_task(_judge_one(skill, skill_hash, c, label, temperature, max_tokens,
                                       cache, progress))
        for c, label in zip(clients, labels, strict=True)
    ]
    try:
        verdicts = list(await asyncio.gather(*tasks))
    except BaseException:
        # One judge failed (or we were cancelled): stop the others' requests too.
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return aggregate(skill, skill_hash, verdicts, temperature)


async def _judge_one(skill: Skill, skill_hash: str, client: ModelClient, label: str,
                     temperature: float | None, max_tokens: int | None, cache: Path | None,
                     progress: Progress | None) -> ModelVerdict:
    emit = progress or (lambda _e: None)
    emit(JudgeStarted(label))
    path = cache / f"{cache_key(skill_hash, client, temperature)}.json" if cache else None
    hit = _read_cache(path) if path else None
    if hit is not None:
        verdict = hit.model_copy(update={
            "label": label, "cached": True, "tokens_in": 0, "tokens_out": 0,
            "tokens_cached": 0, "cost_usd": 0.0,
        })
        emit(JudgeFinished(label, verdict.score, True))
        return verdict
    try:
        verdict = await _ask(skill, client, label, temperature, max_tokens, emit)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        emit(JudgeFailed(label, str(exc)))
        raise
    if path is not None:
        try:
            atomic_write_text(path, verdict.model_dump_json(indent=1))
        except OSError:
            pass  # an unwritable cache costs a request next time, nothing else
    emit(JudgeFinished(label, verdict.score, False))
    return verdict


def _read_cache(path: Path) -> ModelVerdict | None:
    try:
        return ModelVerdict.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None  # missing or damaged: ask again, and overwrite it


async def _ask(skill: Skill, client: ModelClient, label: str, temperature: float | None,
               max_tokens: int | None, emit: Progress) -> ModelVerdict:
    nonce = new_nonce(skill)
    try:
        answer, stats = await ask_validated(
            client, lambda fit: user_prompt(skill, nonce, fit), system=system_prompt(nonce),
            schema=response_schema(), parse=lambda done, _attempt: parse_answer(done),
            retry_prompt=retry_prompt, max_tokens=max_tokens, temperature=temperature,
            on_retry=lambda problems: emit(JudgeRetrying(label, problems)))
    except UnusableAnswer as exc:
        raise JudgeOutputError(
            f"judge model {label} did not answer in the rubric's format, even after one retry: "
            f"{exc.problems}. Try another judge model (--model), or a larger one.",
            model=label,
        ) from None
    score = round(10 * sum(c.score for c in answer.criteria) / len(CRITERIA), 1)
    return ModelVerdict(
        provider=client.name, model=client.model, label=label,
        criteria=answer.criteria, summary=answer.summary, score=score, grade=grade(score),
        tokens_in=stats.usage.input_tokens, tokens_out=stats.usage.output_tokens,
        tokens_cached=stats.usage.cached_tokens, tokens_estimated=stats.usage.estimated,
        cost_usd=stats.rounded_cost, attempts=stats.attempts, temperature=temperature, request_ids=stats.request_ids,
        left_out=stats.left_out, created_at=datetime.now(UTC),
    )


def parse_answer(completion: Completion) -> JudgeAnswer:
    """The answer if it is a JudgeAnswer, else ValueError saying what is wrong. `criteria`
    comes keyed by criterion (what the schema asks for) or as a list of items."""
    data = json_object(completion.text)
    keyed = isinstance(data.get("criteria"), dict)
    names = [k for k, v in data["criteria"].items() if v is not None] if keyed else []
    if keyed:
        data = {**data, "criteria": keyed_items(data["criteria"], "criterion")}
    try:
        return JudgeAnswer.model_validate(data)
    except ValidationError as exc:
        problems = explain(exc)
        # Name the entries as the model wrote them: criteria.workflow.score, not .3.score.
        for i, name in reversed(list(enumerate(names))):
            problems = problems.replace(f"criteria.{i}.", f"criteria.{name}.")
        raise ValueError(problems) from None


def aggregate(skill: Skill, skill_hash: str, verdicts: list[ModelVerdict],
              temperature: float | None) -> JudgeResult:
    """Mean per criterion and overall, spread and flags, totals of tokens and cost."""
    per: list[CriterionResult] = []
    for name in CRITERIA:
        scored = [(v.label, next(c for c in v.criteria if c.criterion == name)) for v in verdicts]
        scores = {label: c.score for label, c in scored}
        lo, hi = min(scores.values()), max(scores.values())
        worst_label, worst = min(scored, key=lambda lc: lc[1].score)
        per.append(CriterionResult(
            criterion=name, score=round(sum(scores.values()) / len(scores), 1), min=lo, max=hi,
            spread=hi - lo, flagged=hi - lo >= SPREAD_FLAG, scores=scores,
            evidence=worst.evidence, suggestion=worst.suggestion, judge=worst_label,
        ))
    points = sum(c.score for v in verdicts for c in v.criteria)
    score = round(10 * points / (len(verdicts) * len(CRITERIA)), 1)
    costs = [v.cost_usd for v in verdicts]
    return JudgeResult(
        skill_name=skill.name or skill.folder_name, skill_hash=skill_hash,
        rubric_version=RUBRIC_VERSION, models=[v.label for v in verdicts],
        temperature=temperature, criteria=per, score=score, grade=grade(score),
        spread={c.criterion: c.spread for c in per},
        flags=[c.criterion for c in per if c.flagged], judges=verdicts,
        tokens_in=sum(v.tokens_in for v in verdicts),
        tokens_out=sum(v.tokens_out for v in verdicts),
        tokens_cached=sum(v.tokens_cached for v in verdicts),
        tokens_estimated=any(v.tokens_estimated for v in verdicts),
        cost_usd=None if any(c is None for c in costs) else round(sum(costs), 8),  # type: ignore[arg-type]
        cached=all(v.cached for v in verdicts), created_at=datetime.now(UTC),
        left_out=list(dict.fromkeys(n for v in verdicts for n in v.left_out)),
    )


def result_json(result: JudgeResult) -> str:
    return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False)
