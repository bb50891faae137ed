"""Issue 36, holdout30: a SKILL.md without frontmatter that only Claude Code reads.

Readers of holdout15, holdout18, holdout24, holdout27 and holdout30 read a skill without
frontmatter in a Claude Code project, plugin or Claude Code-only marketplace as policy: Claude
Code names it after its folder and describes it by its first paragraph, and only the Agent
Skills spec and other harnesses need the fields. So SF102 is a warning there that quotes the
paragraph Claude Code routes on; with no paragraph (headings, lists, tables, code only) it
stays an error, as it does where another harness is named or for `--target claude-ai`.

The property, over generated contents: where Claude Code alone reads the skill, the finding is
a warning exactly when the content holds a paragraph of prose outside code, and the words it
quotes are that paragraph's; in a repository that also installs into Codex it is an error.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linters.context import LintContext
from linters.correctness.plugin_layout import _first_paragraph, missing_frontmatter
from linters.text.markdown import MarkdownDoc
from skillforge.models.findings import Severity
from skillforge.models.lint_config import LintConfig
from skillforge.models.skill import load_skill
from tests.hypothesis_budget import examples
from tests.linters.correctness_skill import findings

MARKETPLACE_README = """\
# rad plugins

A plugin marketplace for Claude Code.

```
/plugin marketplace add someone/rad-plugins
/plugin install astro-tools@rad-plugins
```
"""
CODEX_README = MARKETPLACE_README + "\nCodex: copy `plugins/*/skills/*` into `~/.codex/skills/`.\n"


def _plugin_skill(top: Path, readme: str, text: str) -> Path:
    """A marketplace checkout whose plugin `astro-tools` holds the skill `astro-db`."""
    (top / ".git").mkdir(parents=True, exist_ok=True)
    (top / "README.md").write_text(readme, "utf-8")
    manifest = top / "plugins/astro-tools/.claude-plugin/plugin.json"
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text('{"name": "astro-tools"}\n', "utf-8")
    root = top / "plugins/astro-tools/skills/astro-db"
    root.mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(text, "utf-8")
    return root


INTRO = ("# Astro DB Patterns Skill\n\nPatterns for defining tables, relations and seed data "
         "with Astro DB\nin an Astro project, locally and on a hosted libSQL database.\n\n"
         "## Tables\n\n- Use `defineTable`.\n")


def test_a_marketplace_skill_over_an_introduction_is_a_warning(tmp_path):
    [f] = findings(_plugin_skill(tmp_path / "rad", MARKETPLACE_README, INTRO), "SF102")
    assert f.severity is Severity.warning and f.line == 1
    assert "This skill is part of a Claude Code plugin" in f.message
    assert 'first paragraph (line 3: "Patterns for defining tables, relations and seed data' in f.message
    assert f.message.count("...") == 1  # the paragraph is longer than 80 characters: cut


def test_the_same_skill_for_codex_too_or_for_the_upload_is_an_error(tmp_path):
    [f] = findings(_plugin_skill(tmp_path / "a", CODEX_README, INTRO), "SF102")
    assert f.severity is Severity.error and "Claude Code" not in f.message
    root = _plugin_skill(tmp_path / "b", MARKETPLACE_README, INTRO)
    f = missing_frontmatter(LintContext(load_skill(root), LintConfig(target="claude-ai")))
    assert f.severity is Severity.error


def test_a_skill_in_a_skills_folder_of_no_plugin_and_no_readme_is_an_error(tmp_path):
    root = tmp_path / "kit/skills/astro-db"
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text(INTRO, "utf-8")
    [f] = findings(root, "SF102")
    assert f.severity is Severity.error


# --- the property ---------------------------------------------------------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
_PROSE = st.lists(_WORD, min_size=1, max_size=8).map(lambda ws: " ".join(ws).capitalize() + ".")
_BLOCK = st.one_of(
    st.tuples(st.just("heading"), _WORD.map(lambda w: f"## {w}")),
    st.tuples(st.just("list"), st.lists(_WORD, min_size=1, max_size=3).map(
        lambda ws: "\n".join(f"- {w}" for w in ws))),
    st.tuples(st.just("numbered"), _WORD.map(lambda w: f"1. {w}")),
    st.tuples(st.just("table"), _WORD.map(lambda w: f"| {w} | x |\n| --- | --- |")),
    st.tuples(st.just("code"), _PROSE.map(lambda p: f"```\n{p}\n```")),
    st.tuples(st.just("quote"), _PROSE.map(lambda p: f"> {p}")),
    st.tuples(st.just("comment"), _PROSE.map(lambda p: f"<!-- {p} -->")),
    st.tuples(st.just("prose"), st.lists(_PROSE, min_size=1, max_size=3).map("\n".join)),
)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=_WORD, blocks=st.lists(_BLOCK, max_size=6))
def test_a_warning_exactly_when_there_is_a_paragraph_to_take(tmp_path_factory, title, blocks):
    text = f"# {title}\n\n" + "\n\n".join(body for _, body in blocks) + "\n"
    prose = [body for kind, body in blocks if kind == "prose"]
    top = tmp_path_factory.mktemp("rad")
    [f] = findings(_plugin_skill(top, MARKETPLACE_README, text), "SF102")
    if not prose:
        assert f.severity is Severity.error, text
        assert _first_paragraph(MarkdownDoc(text)) is None
        return
    assert f.severity is Severity.warning, text
    line, words = _first_paragraph(MarkdownDoc(text))
    assert words == " ".join(prose[0].splitlines())  # the first prose block, nothing else
    assert text.splitlines()[line - 1] == prose[0].splitlines()[0]
    shown = words if len(words) <= 80 else words[:77].rstrip() + "..."
    assert f'(line {line}: "{shown}")' in f.message
    [g] = findings(_plugin_skill(tmp_path_factory.mktemp("codex"), CODEX_README, text), "SF102")
    assert g.severity is Severity.error


@given(st.text(max_size=300))
def test_the_first_paragraph_never_raises_and_is_from_the_text(text):
    got = _first_paragraph(MarkdownDoc(text))
    if got is not None:
        line, words = got
        assert text.splitlines()[line - 1].strip() in words
