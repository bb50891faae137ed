"""SF514: prebuilt executables and build folders shipped inside a skill (issue 36).

A skill is installed by copying its folder. An executable in it (ELF, Mach-O, PE: what the
loader runs, shared libraries included) is code nobody can review, run with the user's
rights the moment SKILL.md or a script calls it; a build folder (Cargo's `target/`,
`node_modules/`, a virtualenv) is a pile of them plus third-party code no reviewer read.
The file's first bytes decide, never its name; a file the corpus lists without content
(not copied) is judged by its folder only. Shipped code is always in role (b) of
`linters.security.text_role`: there is no text around a binary to make it an example.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SkillFile

_ELF = b"\x7fELF"
_MACHO = (b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe")
_FAT = b"\xca\xfe\xba\xbe"  # a universal Mach-O binary, or a Java class file


def executable_format(head: bytes) -> str | None:
    """"ELF", "Mach-O" or "PE" when `head` (a file's first 64+ bytes) starts an executable."""
    if head.startswith(_ELF):
        return "ELF"
    if head.startswith(_MACHO):
        return "Mach-O"
    if head.startswith(_FAT) and len(head) >= 8:
        # Java class files share the magic; their next word is a version >= 45, a fat
        # binary's is its number of architectures (a handful).
        return "Mach-O" if int.from_bytes(head[4:8], "big") < 40 else None
    if head.startswith(b"MZ") and len(head) >= 64:
        pe = int.from_bytes(head[60:64], "little")
        return "PE" if 64 <= pe <= len(head) - 4 and head[pe : pe + 4] == b"PE\0\0" else None
    return None


def _head(ctx: LintContext, f: SkillFile) -> bytes:
    """The file's first bytes: its content when loaded, else (a large file) read from disk."""
    if f.raw is not None:
        return f.raw[:4096]
    if not f.present or f.is_dir or not f.binary:
        return b""
    try:
        with open(Path(ctx.skill.root) / f.path, "rb") as fh:
            return fh.read(4096)
    except OSError:
        return b""


def _build_folder(path: str, names: set[str], is_dir: bool) -> str | None:
    """The build folder `path` lies in (or is), with what made it: "target/" of a Cargo
    project (a Cargo.toml beside it), `node_modules/`, a virtualenv."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1] if not is_dir else parts):
        folder = "/".join(parts[: i + 1])
        parent = "/".join(parts[:i])
        if part == "target" and (f"{parent}/Cargo.toml".lstrip("/") in names
                                 or (len(parts) > i + 1 and parts[i + 1] in ("debug", "release"))):
            return f"{folder}/ (a Cargo build folder)"
        if part == "node_modules":
            return f"{folder}/ (installed npm packages)"
        if part in (".venv", "venv") or f"{folder}/pyvenv.cfg" in names:
            return f"{folder}/ (a Python virtualenv)"
    return None


@check("SF514")
def shipped_binaries(ctx: LintContext) -> Iterator[Finding]:
    """Executables and build folders in the skill: one finding per build folder (high when
    it holds an executable, else medium) and one per executable outside them (high)."""
    names = {f.path for f in ctx.skill.files}
    folders: dict[str, list[str]] = {}  # folder -> executables in it ("path (ELF)")
    loose: list[tuple[SkillFile, str]] = []
    for f in ctx.skill.files:
        if f.kind == "eval":
            continue
        folder = _build_folder(f.path, names, f.is_dir)
        # Executables hold NUL bytes, so the loader has marked them binary.
        fmt = executable_format(_head(ctx, f)) if f.binary else None
        if folder is not None:
            folders.setdefault(folder, [])
            if fmt:
                folders[folder].append(f"{f.path} ({fmt})")
        elif fmt:
            loose.append((f, fmt))
    for folder, executables in folders.items():
        where, _, what = folder.partition(" ")
        holds = (f", with {len(executables)} prebuilt executable"
                 f"{'s' if len(executables) != 1 else ''} such as {executables[0]}"
                 if executables else "")
        yield ctx.finding(
            "SF514",
            f"The skill ships {where} {what}{holds}: code no reviewer reads, which runs with "
            "the user's rights; delete the folder (and ignore it in version control), and "
            "ship the source with a build or pinned install step instead.",
            path=where.rstrip("/"),
            severity=Severity.high if executables else Severity.medium,
        )
    for f, fmt in loose:
        yield ctx.finding(
            "SF514",
            f"{f.path} is a prebuilt {fmt} executable: code no reviewer can read, run with the "
            "user's rights; ship its source and build it (or install a pinned, checksummed "
            "release) instead.",
            path=f.path,
        )
