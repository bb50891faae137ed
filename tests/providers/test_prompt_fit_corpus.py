"""Prompt fitting on every skill of the shared corpus (about 150 real skills nobody here
wrote), for the judge and for drafting, at the 8,192 and 16,384-token windows of small local
models: each prompt fits with its answer's budget and keeps SKILL.md whole, or the refusal
says the window is too small for SKILL.md itself."""

from __future__ import annotations

import pytest

from skillforge.authoring import drafting
from skillforge.authoring.judge import prompt as judge
from skillforge.models.prompt_fit import (
    PromptTooLarge,
    compact_schema,
    completion_budget,
    fit_prompt,
)
from skillforge.providers.context import count_for_sizing
from tests.corpus import corpus_skill_dirs, load_corpus_skill

NONCE = "0f0f0f0f0f0f"


@pytest.mark.parametrize("window", [8192, 16384])
def test_every_corpus_skill_fits_or_is_refused_for_its_skill_md(window):
    completion = completion_budget(2048, window)
    fitted = refused = 0
    for skill_dir in corpus_skill_dirs():
        skill = load_corpus_skill(skill_dir)
        md = skill.skill_md.text if skill.skill_md and skill.skill_md.text else ""
        builders = [
            (judge.system_prompt(NONCE), judge.response_schema(),
             lambda fit, s=skill: judge.user_prompt(s, NONCE, fit)),
            (drafting.system_prompt(NONCE), drafting.draft_schema(["explicit"]),
             lambda fit, s=skill: drafting.user_prompt(s, ["explicit"], 1, None, NONCE, fit)),
        ]
        for system, schema, build in builders:
            try:
                got = fit_prompt(build, system=system, schema=schema, window=window,
                                 completion=completion, count=count_for_sizing)
            except PromptTooLarge:
                # Only when SKILL.md with the fixed parts (the compact schema) leaves under
                # 512 tokens for everything else.
                alone = fit_prompt(md, system=system, schema=compact_schema(schema),
                                   window=window, completion=completion, count=count_for_sizing)
                assert alone.tokens + completion > window - 512, (skill_dir, alone.tokens)
                refused += 1
                continue
            assert got.tokens + completion <= window, skill_dir
            assert md[:judge.MAX_FILE_CHARS] in got.text, skill_dir
            fitted += 1
    assert fitted > refused
    print(f"window {window}: {fitted} prompts fitted, {refused} refused")
