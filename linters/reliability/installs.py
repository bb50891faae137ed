"""Installs and one-off runs without a version (SF307): `pip install x`, `npx y`, `uvx z`.

What a command installs is read from its words (`commands`): pip, uv, pipx, npx and
friends, with their options that take a value, so `-r requirements.txt` is not a package.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.compiled_regex import rx
from linters.reliability.commands import PYTHON_PROGRAM, commands, program, segments, words
from linters.context import LintContext
from linters.registry import check
from skillforge.models.findings import Finding

# Bootstrap tools: upgrading them is routine and their version rarely matters to the skill.
_BOOTSTRAP = frozenset({"pip", "setuptools", "wheel", "uv", "pipx", "npm", "corepack"})
# Options whose value is a file, an index or an interpreter, not a package to install.
_PIP_VALUE_OPTIONS = frozenset({
    "-r", "--requirement", "-c", "--constraint", "-e", "--editable", "-i", "--index-url",
    "--extra-index-url", "-f", "--find-links", "-t", "--target", "--prefix", "--root",
    "--python", "-p", "--platform", "--only-binary", "--no-binary", "--src", "--cache-dir",
    "--trusted-host", "--python-version", "--implementation", "--abi", "--progress-bar",
})
_NPX_VALUE_OPTIONS = frozenset({"--package", "-p", "--cache", "--registry", "--node-options"})
_UVX_VALUE_OPTIONS = frozenset({"--from", "--spec", "--with", "--python", "-p", "--index",
                                "--extra-index-url", "--index-url", "-w", "--with-requirements"})
_PY_PIN = rx(r"(?:===?|~=|<=?)\s*[\w*]|\s@\s")
_JS_PIN = rx(r"^(?:@[^/@\s]+/)?[^@\s]+@[v=^~<>]*\d")
_SPEC_END = rx(r"[\[=<>~!;@ ]")
_AT_VERSION = rx(r"@v?\d")
_PIP = rx(r"pip\d?(?:\.\d+)?")
_NOT_A_PACKAGE = rx(
    r"^[.~/]|<[A-Za-z][\w -]*>|[{}$]|://|^git\+|\.(?:whl|zip|tar\.gz|tgz)$|^(?:file|github|git):|\.\.\."
)
# Tools a JavaScript project normally has as devDependencies: `npx eslint` runs the
# project's own pinned copy, so it is not a floating download (unless `-y` says otherwise).
_PROJECT_TOOLS = frozenset({
    "eslint", "prettier", "tsc", "jest", "vitest", "playwright", "mocha", "next", "vite",
    "webpack", "rollup", "esbuild", "tsx", "ts-node", "prisma", "nx", "turbo", "astro",
    "cypress", "storybook", "biome", "stylelint", "lerna", "changeset", "knip", "nuxt",
    "svelte-kit", "tailwindcss", "drizzle-kit", "expo", "react-native", "remix",
})
_EXAMPLE_NAMES = rx(
    r"^(?:package|pkg|your|my|some|example)(?:[-_](?:name|package|pkg|tool|cli))?$", re.IGNORECASE
)


def unpinned_packages(text: str) -> list[tuple[str, str]]:
    """(tool, package) for each package a command installs or runs with no fixed version."""
    out: list[tuple[str, str]] = []
    for seg in segments(text):
        ws = words(seg)
        i = program(ws)
        if i >= len(ws):
            continue
        tool, specs = _installer(ws[i].rsplit("/", 1)[-1], ws[i + 1:])
        python = tool == "pip install" or tool.startswith(("uv", "pipx"))
        for spec in specs:
            pkg = _SPEC_END.split(spec.lstrip("@"), maxsplit=1)[0]
            if _NOT_A_PACKAGE.search(spec) or _EXAMPLE_NAMES.match(pkg):
                continue
            if pkg.lower() in _BOOTSTRAP:
                continue
            if python:
                pinned = _PY_PIN.search(spec) or _AT_VERSION.search(spec)
            else:
                pinned = _JS_PIN.match(spec) or (
                    pkg in _PROJECT_TOOLS and "@" not in spec[1:] and not {"-y", "--yes"} & set(ws)
                )
            if not pinned:
                out.append((tool, spec))
    return out


def _installer(name: str, rest: list[str]) -> tuple[str, list[str]]:
    """(tool as written, package specs) when a command installs or runs a package."""
    if PYTHON_PROGRAM.match(name) and rest[:2] == ["-m", "pip"]:
        name, rest = "pip", rest[2:]
    if name == "uv" and rest[:1] == ["pip"]:
        name, rest = "pip", rest[1:]
    if _PIP.fullmatch(name) and rest[:1] == ["install"]:
        return "pip install", _positionals(rest[1:], _PIP_VALUE_OPTIONS, every=True)
    sub = " ".join(rest[:2])
    if name == "uv" and sub in ("tool run", "tool install"):
        return f"uv {sub}", _positionals(rest[2:], _UVX_VALUE_OPTIONS, ("--from", "--with"))
    if name == "pipx" and rest[:1] in (["run"], ["install"]):
        return f"pipx {rest[0]}", _positionals(rest[1:], _UVX_VALUE_OPTIONS, ("--spec",))
    if name == "uvx":
        return name, _positionals(rest, _UVX_VALUE_OPTIONS, ("--from", "--with"))
    if name in ("pnpm", "yarn") and rest[:1] == ["dlx"] or name == "npm" and rest[:1] == ["exec"]:
        return f"{name} {rest[0]}", _positionals(rest[1:], _NPX_VALUE_OPTIONS, ("--package", "-p"))
    if name in ("npx", "bunx", "pnpx"):
        return name, _positionals(rest, _NPX_VALUE_OPTIONS, ("--package", "-p"))
    return "", []


def _positionals(ws: list[str], value_opts: frozenset[str], main_opts: tuple[str, ...] = (),
                 *, every: bool = False) -> list[str]:
    """Package specs among a tool's arguments: a `--from`/`--package` value (then the first
    positional is a command name) or the first positional; every positional for pip."""
    specs: list[str] = []
    main = False
    j = 0
    while j < len(ws):
        w = ws[j]
        if w.startswith("-") and w != "-":
            key, _, val = w.partition("=")
            if key in value_opts and not val and j + 1 < len(ws):
                j += 1
                val = ws[j]
            if key in main_opts and val:
                specs.append(val)
                main = key != "--with"
        elif every:
            specs.append(w)
        else:
            if not main:
                specs.append(w)
            break
        j += 1
    return specs


# What follows a package's name in a spec: a tag or version (`@latest`, `@^2`), a Python
# version clause (`>=2`, `~=1.4`, `; python_version...`) or a space.
_JS_VERSION = rx(r"^((?:@[^/@\s]+/)?[^@\s]+)@.*$")
_PY_VERSION = rx(r"^([^\[=<>~!;@ ]+(?:\[[^\]]*\])?).*$")


def pinned_example(tool: str, spec: str) -> str:
    """`spec` with a made-up exact version in place of what it has (`pkg@latest` ->
    `pkg@1.2.3`, `pkg>=2` -> `pkg==1.2.3`), in the form the tool reads."""
    js = tool in ("npx", "bunx", "pnpx") or tool.endswith(("dlx", "exec"))
    if js:
        return _JS_VERSION.sub(r"\1", spec) + "@1.2.3"
    name = _PY_VERSION.sub(r"\1", spec)
    # uvx and `uv tool run` take `tool@1.2.3`; pip, pipx and `uv tool install` take `==`.
    return f"{name}@1.2.3" if tool in ("uvx", "uv tool run") else f"{name}==1.2.3"


# A command can only install or run a package when it names one of these tools.
_INSTALL_WORDS = rx("pip|npx|uvx|bunx|pnpx|dlx|uv |npm exec")


@check("SF307")
def unpinned_installs(ctx: LintContext) -> Iterator[Finding]:
    """Installs and one-off runs in SKILL.md name a version, so tomorrow's run is today's."""
    seen: set[str] = set()
    for cmd in commands(ctx):
        if not _INSTALL_WORDS.search(cmd.text):
            continue
        found = [(tool, spec) for tool, spec in unpinned_packages(cmd.text) if spec not in seen]
        if not found:
            continue
        seen.update(spec for _tool, spec in found)
        tool, spec = found[0]
        shown = " ".join(s for _t, s in found)
        example = pinned_example(tool, spec)
        yield ctx.finding(
            "SF307",
            f"`{tool} {shown}` gets whatever version is newest on the day the agent runs it; "
            f"pin the version the instructions were written for (`{example}`).",
            line=cmd.line,
            column=cmd.column if cmd.inline else None,
        )
