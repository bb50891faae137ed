"""Model answers, in the shape the drafting and refining schemas ask for."""

from __future__ import annotations

from typing import Any


def draft_case(case_id: str, kind: str, prompt: str, *, ground_truth: str = "A checkable "
               "answer", behavior: list[str] | None = None, script: str | None = None,
               files: list[str] | None = None, rationale: str = "Tests routing.") -> dict[str, Any]:
    return {"id": case_id, "kind": kind, "prompt": prompt, "ground_truth": ground_truth,
            "expected_behavior": behavior or ["Reads SKILL.md first",
                                              "Answers in the file asked for"],
            "expected_script": script, "files": files or [], "rationale": rationale}


IMPLICIT = draft_case(
    "channel-units", "implicit",
    "How many units did we sell through each channel in sales.csv? Put a small table in "
    "/workspace/channels.md.",
    ground_truth="Units per channel summing to 121", script="scripts/summarize.py",
    files=["evals/files/sales.csv"],
    behavior=["Runs scripts/summarize.py with --group-by channel --sum units",
              "Writes /workspace/channels.md with one row per channel and a total of 121"])
NEGATIVE = draft_case(
    "dedupe-customers", "negative",
    "Remove duplicate rows from customers.csv and save the result as customers_clean.csv.",
    ground_truth="A deduplicated customers_clean.csv", files=["evals/files/customers.csv"],
    behavior=["Does not run scripts/summarize.py: this is a data change, not a summary",
              "Writes customers_clean.csv"])


def drafted(*cases: dict[str, Any]) -> dict[str, Any]:
    return {"cases": list(cases)}


def edit(field: str, value: Any, *, source: str = "model", why: str = "The session shows it.",
         steps: list[int] | None = None) -> dict[str, Any]:
    return {"field": field, "value": value, "rationale": why, "source": source,
            "evidence_steps": steps or []}


def refined(*edits: dict[str, Any], observations: str = "The agent read the skill and ran "
            "the script, but summed the whole year.") -> dict[str, Any]:
    return {"observations": observations, "edits": list(edits)}


def session_case(**over: Any) -> dict[str, Any]:
    base = draft_case(
        "q4-top-region-from-session", "contextual",
        "Before my 3pm: which region brought in the most revenue in Q4 2024 in sales.csv, and "
        "how much? Put it in /workspace/answer.md.",
        ground_truth="North brought in the most revenue: 2556.83 across 18 orders",
        script="scripts/summarize.py", files=["evals/files/sales.csv"],
        behavior=["Runs scripts/summarize.py with --period quarter and --group-by region",
                  "Names the Q4 2024 leader and its amount"])
    base["ground_truth_source"] = "model"
    base.update(over)
    return base
