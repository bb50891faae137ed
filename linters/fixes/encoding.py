"""SF118: re-save a file as UTF-8 without a byte-order mark (safe: the text stays the same)."""

from __future__ import annotations

from linters.fixes.registry import fixer
from skillforge.models.findings import Finding
from skillforge.models.fixes import FileOp, Fix
from skillforge.models.skill import Skill, SkillFile

_UTF8_BOM = b"\xef\xbb\xbf"
# Byte-order marks of the other Unicode encodings, longest first (UTF-32 LE starts with
# UTF-16 LE's); Python's utf-16/utf-32 codecs read the mark and drop it.
_MARKS = ((b"\xff\xfe\x00\x00", "utf-32", "UTF-32"), (b"\x00\x00\xfe\xff", "utf-32", "UTF-32"),
          (b"\xff\xfe", "utf-16", "UTF-16"), (b"\xfe\xff", "utf-16", "UTF-16"))
# Bytes that are not UTF-8 are read as Windows-1252, the Latin-1 superset Windows editors
# save (its 0x80-0x9F are curly quotes and dashes, where Latin-1 has invisible control
# characters); bytes Windows-1252 leaves undefined fall back to Latin-1 itself.
_SINGLE_BYTE = (("cp1252", "Windows-1252"), ("latin-1", "Latin-1"))


def source_encoding(raw: bytes) -> tuple[str, str] | None:
    """(Python codec, name shown to the author) that reads `raw` exactly, when `raw` is not
    plain UTF-8 and its encoding can be told with certainty; None otherwise."""
    if raw.startswith(_UTF8_BOM):
        return (("utf-8-sig", "UTF-8 with a byte-order mark") if _decodes(raw, "utf-8-sig")
                else None)
    for mark, codec, name in _MARKS:
        if raw.startswith(mark):
            return (codec, name) if _decodes(raw, codec) else None
    if _decodes(raw, "utf-8") and b"\0" not in raw:
        return None
    if b"\0" in raw:
        # ASCII-heavy UTF-16 without a mark: a NUL in every other byte, on one side.
        for codec, side in (("utf-16-le", raw[1::2]), ("utf-16-be", raw[0::2])):
            if side.count(0) > len(raw) // 4 and _decodes(raw, codec):
                text = raw.decode(codec)
                if "\0" not in text:
                    return codec, codec.upper().replace("UTF-16-", "UTF-16 ")
        return None  # NUL bytes in a single-byte text: not a text file we can name
    for codec, name in _SINGLE_BYTE:
        if _decodes(raw, codec):
            return codec, name
    return None


def _decodes(raw: bytes, codec: str) -> bool:
    try:
        raw.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


@fixer("SF118")
def reencode(skill: Skill, finding: Finding) -> list[Fix]:
    f: SkillFile | None = skill.file(finding.path or "")
    if f is None or f.raw is None or f.binary:
        return []
    found = source_encoding(f.raw)
    if found is None:
        return []
    codec, name = found
    title = (f"Remove the byte-order mark from {f.path}" if codec == "utf-8-sig"
             else f"Re-save {f.path} as UTF-8 (it is {name})")
    return [Fix(rule="SF118", title=title, safety="safe",
                file_ops=(FileOp(kind="reencode", path=f.path, encoding=codec),))]
