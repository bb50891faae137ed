"""Readings tuned on holdout25: links no reader follows (SF116, issue 36,
linters.text.paths.disabled_links).

- A link inside an HTML comment the authors wrote to disable it (a light/dark image pair
  commented out) is shown to nobody and followed by no agent: not checked as a link.
- A link whose target is only a placeholder word (`link`, `url`, `<url>`, `...`) in a file
  that presents itself as a template is the blank the agent fills in when it writes the
  document: not a missing file.

Every skill text here is written for this file. The twins keep the error: a link outside
any comment, a link after a comment closed on the same line, a `<!--` inside inline code, a
comment never closed, `[guide](guide)` where `guide` is no placeholder word, a bare `link`
outside a template, and a real missing path inside a template.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import example, given, settings, strategies as hs

from linters import lint_skill
from linters.text.markdown import MarkdownDoc
from linters.text.paths.disabled_links import commented_out, template_slot
from tests.hypothesis_budget import examples

_HEAD = ("---\nname: pipeline-notes\ndescription: Explains the build pipeline's stages and when "
         "to use each one while debugging a release.\n---\n\n# Pipeline notes\n\n")


def _skill(tmp_path: Path, body: str, files: dict[str, str] | None = None) -> Path:
    skill = tmp_path / "pipeline-notes"
    skill.mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(_HEAD + body, encoding="utf-8")
    for rel, text in (files or {}).items():
        p = skill / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return skill


def _sf116(skill: Path) -> list[tuple[str, int, str]]:
    return [(f.path or "", f.line or 0, f.severity.value)
            for f in lint_skill(skill).findings if f.rule == "SF116"]


def _errors(skill: Path) -> list[tuple[str, int, str]]:
    return [f for f in _sf116(skill) if f[2] == "error"]


# --- links inside HTML comments --------------------------------------------------------------

_REF = "See [the stages](references/stages.md) for each stage.\n"
_STAGES = ("# Stages\n\nThe pipeline has three stages.\n\n"
           "<!-- ![Stage flow](./img/stage-flow.svg#light)\n"
           "![Stage flow](./img/stage-flow-dark.svg#dark) -->\n\n"
           "Each stage writes a log.\n")


def test_images_commented_out_are_not_links(tmp_path):
    """Before: two SF116 errors on the disabled light/dark image pair."""
    skill = _skill(tmp_path, _REF, {"references/stages.md": _STAGES})
    assert _sf116(skill) == []


def test_a_link_in_a_one_line_comment_is_not_a_link(tmp_path):
    body = _REF + "\n<!-- TODO: restore [old runbook](runbook-v1.md) once migrated -->\n"
    skill = _skill(tmp_path, body, {"references/stages.md": "# Stages\n"})
    assert _sf116(skill) == []


def test_twin_a_link_outside_any_comment_stays_an_error(tmp_path):
    text = _STAGES.replace("<!-- ", "").replace(" -->", "")
    skill = _skill(tmp_path, _REF, {"references/stages.md": text})
    assert len(_errors(skill)) == 2


def test_twin_a_link_after_a_closed_comment_on_the_same_line_stays_an_error(tmp_path):
    body = _REF + "\n<!-- hidden note --> Then read [the checklist](checklist.md).\n"
    skill = _skill(tmp_path, body, {"references/stages.md": "# Stages\n"})
    assert [e[0] for e in _errors(skill)] == ["SKILL.md"]


def test_twin_a_comment_marker_in_inline_code_hides_nothing(tmp_path):
    body = (_REF + "\nWrite `<!--` to start a note; then read [the checklist](checklist.md). "
            "Close it with `-->`.\n")
    skill = _skill(tmp_path, body, {"references/stages.md": "# Stages\n"})
    assert [e[0] for e in _errors(skill)] == ["SKILL.md"]


def test_twin_a_comment_never_closed_hides_nothing(tmp_path):
    body = _REF + "\n<!-- draft\n\nRead [the checklist](checklist.md) first.\n"
    skill = _skill(tmp_path, body, {"references/stages.md": "# Stages\n"})
    assert [e[0] for e in _errors(skill)] == ["SKILL.md"]


_WORD = hs.text(alphabet="abcdefghij ", min_size=0, max_size=12)


@settings(max_examples=examples(60))
@given(before=_WORD, inside=_WORD, after=_WORD)
@example(before="    ", inside="", after="")  # the shape a run found: indented code
def test_only_what_lies_between_the_markers_is_commented_out(before, inside, after):
    """Property: on a line `before<!--inside-->after`, a column is commented out exactly when
    it lies from `<!--` through `-->`; unless the line opens with four spaces, which makes it
    an indented code block, where a comment's markers are shown as text and hide nothing."""
    line = f"{before}<!--{inside}-->{after}"
    doc = MarkdownDoc(f"# T\n\n{line}\n")
    start = len(before) + 1
    end = start + len("<!--") + len(inside) + len("-->")
    code = line.startswith("    ")
    for col in range(1, len(line) + 1):
        assert commented_out(doc, 3, col) == (not code and start <= col < end), col


# --- placeholder targets in a template -------------------------------------------------------

_TEMPLATE = ("# Release Report Template\n\nUse this template when you report on a release.\n\n"
             "## Release: [Version]\n\n**Date:** [YYYY-MM-DD]\n\n"
             "**Build log:** [Open the build]({target})\n")


def _template_skill(tmp_path: Path, target: str, name: str = "references/release-report.md"):
    body = f"Report with [the template]({name}).\n"
    return _skill(tmp_path, body, {name: _TEMPLATE.format(target=target)})


def test_a_placeholder_word_target_in_a_template_is_a_blank(tmp_path):
    """Before: SF116 error on `[View the run](link)` in a report template."""
    for i, target in enumerate(("link", "url", "<url>", "...", "your-link")):
        assert _sf116(_template_skill(tmp_path / str(i), target)) == [], target


def test_a_template_by_its_file_name_alone(tmp_path):
    text = "# Release report\n\n**Build log:** [Open the build](link)\n"
    skill = _skill(tmp_path, "Report with [the template](references/report-template.md).\n",
                   {"references/report-template.md": text})
    assert _sf116(skill) == []


def test_twin_a_word_that_is_no_placeholder_stays_an_error(tmp_path):
    assert len(_errors(_template_skill(tmp_path, "guide"))) == 1


def test_twin_a_real_missing_path_in_a_template_stays_an_error(tmp_path):
    assert len(_errors(_template_skill(tmp_path, "../logs/build.md"))) == 1


def test_twin_a_bare_link_outside_a_template_stays_an_error(tmp_path):
    text = "# Release notes\n\nThe build log is [here](link).\n"
    skill = _skill(tmp_path, "Read [the notes](references/notes.md).\n",
                   {"references/notes.md": text})
    assert len(_errors(skill)) == 1


@settings(max_examples=examples(60))
@given(word=hs.from_regex(r"[a-z]{3,9}", fullmatch=True))
def test_only_placeholder_words_are_blanks(word):
    """Property: in a template, a target is a blank only when it is a placeholder word; a
    path with a folder or an extension never is."""
    text = "# Report Template\n"
    assert template_slot(word, "references/report.md", text) == (
        word in ("link", "links", "url", "urls", "uri", "uris", "href"))
    assert not template_slot(f"{word}/link", "references/report.md", text)
    assert not template_slot(f"{word}.md", "references/report.md", text)
