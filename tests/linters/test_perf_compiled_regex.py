"""Patterns built from the kept compile are the patterns `re.compile` builds (issue 14)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from linters.text import compiled_regex
from linters.text.compiled_regex import rx

SAMPLES = [
    (r"\be\.g\.|\beg\b|['’]s\W*$", re.IGNORECASE),
    (r"(?P<user>[A-Za-z0-9][\w.-]*)(?=[\\/\s\"'`)\]>:,;]|$)", 0),
    (r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", re.MULTILINE),
    (r"(`+)(.+?)\1", 0),
    ("[\u200b-\u200d\u2060\ufeff\u202a-\u202e]|[\U000e0000-\U000e007f]", 0),
    (r"(?<![\w./~$@%\\-])((?:\./)?(?:scripts|references)/(?:[\w.-]+/)*[\w-][\w.-]*)", 0),
]


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLFORGE_CACHE_DIR", str(tmp_path))
    compiled_regex.forget()
    monkeypatch.setattr(compiled_regex, "_added", {})
    yield tmp_path
    compiled_regex.forget()


def _same(a: re.Pattern[str], b: re.Pattern[str]) -> bool:
    # A Pattern compares its pattern, flags and opcodes; the group tables too, here.
    return a == b and a.groupindex == b.groupindex and a.groups == b.groups


def test_kept_compiles_rebuild_the_same_patterns(fresh_cache: Path):
    first = [rx(p, f) for p, f in SAMPLES]  # compiled by re, kept
    assert all(_same(a, re.compile(p, f)) for a, (p, f) in zip(first, SAMPLES))
    compiled_regex._save()
    kept = list((fresh_cache / "compiled-regex").glob("re-*.marshal"))
    assert len(kept) == 1
    compiled_regex.forget()
    assert len(compiled_regex._load()) == len(SAMPLES)
    again = [rx(p, f) for p, f in SAMPLES]  # built from the file
    assert all(_same(a, b) for a, b in zip(again, first))
    assert again[1].match("ada/").group("user") == "ada"
    assert again[3].search("run `ls -la` now").group(2) == "ls -la"
    assert not compiled_regex._added  # nothing new to write


def test_a_damaged_file_means_compiling_as_usual(fresh_cache: Path):
    rx(*SAMPLES[0])
    compiled_regex._save()
    (path,) = (fresh_cache / "compiled-regex").glob("re-*.marshal")
    path.write_bytes(b"\x00garbage")
    compiled_regex.forget()
    assert compiled_regex._load() == {}
    assert _same(rx(*SAMPLES[0]), re.compile(*SAMPLES[0]))


def test_every_rule_pattern_of_a_fresh_process_is_what_re_compiles(tmp_path: Path):
    # Two fresh processes: the first compiles and keeps, the second builds from the file.
    code = (
        "import re, sys\n"
        "import linters.text.compiled_regex as c\n"
        "made = []\n"
        "real = c.rx\n"
        "c.rx = lambda p, f=0: made.append((p, int(f), real(p, f))) or made[-1][2]\n"
        "from linters.rules import checks; checks()\n"
        "import linters.security.secret_detectors as d; d.detectors()\n"
        "bad = [p for p, f, got in made if got != re.compile(p, f)]\n"
        "print(len(made), len(c._load()), len(bad))\n"
    )
    env = {"SKILLFORGE_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env=env, check=True, timeout=120).stdout.split() for _ in range(2)]
    made, table_first, bad_first = map(int, runs[0])
    made2, table_second, bad_second = map(int, runs[1])
    # (The second also compiles detect-secrets' patterns from secret_detectors' own table,
    # which the first run wrote.)
    assert made > 150 and made2 >= made
    assert table_first == 0 and table_second >= made  # the second run read them all
    assert bad_first == bad_second == 0
