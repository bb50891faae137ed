"""Issue 36, holdout29: SF513's user data read inside a model id.

`npx <eval-tool> eval --providers ... openai:chat:<model>` compares two models; the `chat`
its user-data cue matched is one segment of the provider's model id, not the user's
conversation. A data word that is one segment of a larger identifier joined with no space by
`-`, `_`, `.`, `/` or `:` (a provider:model id, `--model acme/chat-large`, a package path, a
dotted API name) names a thing (linters.security.agent_commands). The twins keep SF513 high:
a file or folder that may hold the data (`--file transcript.md`, `cat chat.txt |`,
`~/.claude/projects/...jsonl`, `exports/history/`), a variable naming it (`"$CHAT_LOG"`,
`"$SESSION"`), an option's own name (`--session`), the data word as its own argument.

Without user data the unpinned run is no SF513 at all: in SKILL.md it is SF307's
reliability warning (the version the registry serves that day), which stays true.

Every skill text here is written for this file; the first tests failed before the reading.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linters import lint_skill
from tests.hypothesis_budget import examples
from tests.linters.probe_skill import probe_skill
from tests.linters.test_issue36_security import found

_COMPARE = """\
### Comparing models

```bash
# Run the suite against two models
npx evalbench run --providers \\
  acme:messages:orca-large-2 \\
  openai:chat:gpt-4.1
```
"""


def test_a_chat_segment_of_a_model_id_is_not_user_data():
    """Before: SF513 high, 'hands it the user's data (`chat`)'."""
    assert found(_COMPARE, path="references/evals.md", rule="SF513") == []


@pytest.mark.parametrize("args", [
    "--model openai/chat-large",        # a provider/model flag value
    "--model=acme/chat",                # the same, with `=`
    "--filter packages/chat",           # a package path
    "--api openai.chat.completions",    # a dotted API name
    "--endpoint https://api.example.com/v1/chat/completions",  # an endpoint
    "--provider vertex:chat:bison-2",   # a provider:model id
    "--skill weekly-feedback-loop",     # a hyphenated skill name (holdout20's shape)
])
def test_a_data_word_inside_an_identifier_names_a_thing(args):
    text = f"```bash\nnpx evalbench run {args}\n```\n"
    assert found(text, path="references/evals.md", rule="SF513") == []


def test_a_model_id_in_inline_code_is_not_user_data():
    text = "Point it at another model: `npx evalbench run --model openai:chat:gpt-4.1`.\n"
    assert found(text, path="references/evals.md", rule="SF513") == []


_TWINS = [
    "npx share-kit upload --file transcript.md",
    'npx share-kit upload "$CHAT_LOG"',
    "npx share-kit upload --input ~/.claude/projects/app/last.jsonl",
    'npx share-kit upload --session "$SESSION"',
    "cat chat.txt | npx share-kit upload -",
    "npx share-kit upload chat",
    "npx share-kit upload exports/history/",
    "npx share-kit upload ./history",
    "npx share-kit upload --input chat-session.json",
    "npx share-kit upload --transcript-file out.txt",
]


@pytest.mark.parametrize("command", _TWINS)
def test_a_real_data_argument_stays_high(command):
    text = f"```bash\n{command}\n```\n"
    assert found(text, path="references/share.md", rule="SF513") == [("SF513", "high")]


def test_a_data_file_beside_a_model_id_stays_high():
    text = _COMPARE.replace("openai:chat:gpt-4.1", "openai:chat:gpt-4.1 --input chat.txt")
    assert found(text, path="references/evals.md", rule="SF513") == [("SF513", "high")]


def test_without_user_data_the_unpinned_run_is_a_reliability_warning(tmp_path):
    body = "Run the evals in CI:\n\n```bash\nnpx evalbench run --model openai:chat:gpt-4.1\n```\n"
    report = lint_skill(probe_skill(tmp_path, body, name="eval-runner"), external=False)
    hits = {(f.rule, f.severity.value) for f in report.findings if f.rule in ("SF307", "SF513")}
    assert hits == {("SF307", "warning")}


# --- generated variants ------------------------------------------------------------------

_WORDS = st.sampled_from(["chat", "session", "history", "transcript", "conversation",
                          "feedback"])
_SEG = st.from_regex(r"[a-z][a-z0-9]{1,7}", fullmatch=True)
_JOIN = st.sampled_from([":", "/", "-", "."])


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(word=_WORDS, head=_SEG, tail=_SEG, join=_JOIN, flag=st.sampled_from(
    ["--model", "--providers", "--filter", "--target", ""]))
def test_an_identifier_segment_stays_soft(word, head, tail, join, flag):
    ident = f"{head}{join}{word}{join}{tail}-4"
    text = f"```bash\nnpx evalbench run {flag} {ident}\n```\n"
    assert found(text, path="references/evals.md", rule="SF513") == []


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(word=_WORDS, ext=st.sampled_from(["md", "txt", "json", "jsonl", "log"]),
       shape=st.sampled_from(["--file {w}.{e}", "cat {w}.{e} |", "{w}", "--input ~/{w}.{e}",
                              "--dir exports/{w}/", "--input ./{w}-notes.{e}"]),
       model=st.sampled_from(["", " --model openai:chat:gpt-4.1"]))
def test_a_data_argument_stays_severe(word, ext, shape, model):
    arg = shape.format(w=word, e=ext)
    cmd = (f"{arg} npx share-kit upload -{model}" if arg.endswith("|")
           else f"npx share-kit upload {arg}{model}")
    text = f"```bash\n{cmd}\n```\n"
    assert found(text, path="references/share.md", rule="SF513") == [("SF513", "high")]
