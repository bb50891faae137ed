"""Security rules (SF5xx): a skill is untrusted text that an agent reads and follows.

One combined scan per file (every decoded text file except `evals/`, SKILL.md's frontmatter
included, code blocks included since agents run them). Scanners share one `SecurityText` per
file, so each literal anchor is searched once however many rules use it, and Markdown is
parsed only when a hit needs its context. Results are cached per (enabled rules, path,
sha256) in a bounded LRU: the TUI re-lints on every save and unchanged files cost nothing.
The scanners live in `injection` (SF501-SF503), `secret_scan` (SF504), `risky_urls` (SF507),
`risky_commands` (SF505, SF506, SF509, SF510), `credential_access` (SF508), `agent_commands`
(SF512, SF513) and `cli_credentials` (SF515); `allowed-tools` (SF511) is checked here and
shipped executables (SF514, not a text rule) in `shipped_binaries`. Every text rule weighs
its hits by the role of the text around them (`linters.security.text_role`).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator

from linters.security.agent_commands import scan_sf512, scan_sf513
from linters.text.anchor_index import AnchorIndex
from linters.security.cli_credentials import cli_subject, scan_sf515
from linters.security.own_scripts import note as own_script_note, shipped_script
from linters.text.compiled_regex import rx
from linters.context import LintContext
from linters.security.code_flow import exposed_files
from linters.security.credential_access import scan_sf508
from linters.security.injection import scan_sf501, scan_sf502, scan_sf503
from linters.security.printed_hints import halted_scripts
from linters.security.practice import TARGET_RULES, offensive_purpose, target_phase
from linters.text.markdown import MarkdownDoc
from linters.registry import check
from linters.security.risky_commands import scan_sf505, scan_sf506, scan_sf509, scan_sf510
from linters.security.risky_urls import scan_sf507
from linters.security.sample_files import sample_files
from linters.security.secret_scan import scan_sf504
from linters.security.subject_tool import names_package, subject_text
from linters.security.security_context import Hit, SecurityText
from skillforge.models.findings import Finding, Severity
from skillforge.models.skill import SkillFile

# Bump when a scanner changes, so cached results from an older rule set are not reused.
SCANNER_VERSION = 21

Scanner = Callable[[SecurityText], Iterable[Hit]]
SCANNERS: dict[str, Scanner] = {
    "SF501": scan_sf501,
    "SF502": scan_sf502,
    "SF503": scan_sf503,
    "SF504": scan_sf504,
    "SF505": scan_sf505,
    "SF506": scan_sf506,
    "SF507": scan_sf507,
    "SF508": scan_sf508,
    "SF509": scan_sf509,
    "SF510": scan_sf510,
    "SF512": scan_sf512,
    "SF513": scan_sf513,
    "SF515": scan_sf515,
}
FILE_RULES = tuple(SCANNERS)

_CACHE_SIZE = 4096
_cache: OrderedDict[tuple, tuple[Hit, ...]] = OrderedDict()
_cache_lock = threading.Lock()


def scan_text(
    path: str,
    text: str,
    doc: MarkdownDoc | Callable[[], MarkdownDoc | None] | None = None,
    rules: Iterable[str] = FILE_RULES,
    owner: str = "",
    index: AnchorIndex | None = None,
    exposed: bool = False,
    halts: bool = False,
    sample: bool = False,
) -> tuple[Hit, ...]:
    """Every security hit in one file's text (uncached). `owner`: the skill's name;
    `index`: the AnchorIndex of the file's bytes (LintContext.anchors), if made already;
    `exposed`: code of the skill that runs computed strings reads the file; `sample`: the
    skill's text names the file as a test sample not to follow."""
    st = SecurityText(path, text, doc, owner, index, exposed, halts, sample)
    hits: list[Hit] = []
    for rid in rules:
        # Licence texts are boilerplate nobody follows; only hidden characters and leaked
        # secrets matter there.
        if st.is_license and rid not in ("SF502", "SF504"):
            continue
        hits.extend(SCANNERS[rid](st))
    return tuple(sorted(hits, key=lambda h: (h.line, h.column, h.rule)))


def cached_scan(
    ctx: LintContext, f: SkillFile, rules: tuple[str, ...], exposed: bool = False,
    halts: bool = False, sample: bool = False,
) -> tuple[Hit, ...]:
    """`scan_text` of one file through the LRU; Markdown is parsed only on a miss."""
    path, text, sha = f.path, f.text or "", f.sha256
    owner = ctx.skill.name or ctx.skill.folder_name
    key = (SCANNER_VERSION, rules, path, sha, owner, exposed, halts, sample)
    if sha is not None:
        with _cache_lock:
            hit = _cache.get(key)
            if hit is not None:
                _cache.move_to_end(key)
                return hit
    doc = (lambda: _markdown(ctx, f)) if path.lower().endswith((".md", ".markdown", ".mdx")) \
        else None
    # The pass's index of the file's bytes (made once for every rule) holds them.
    result = scan_text(path, text, doc, rules, owner=owner, index=ctx.anchors(f), exposed=exposed,
                       halts=halts, sample=sample)
    if sha is not None:
        with _cache_lock:
            _cache[key] = result
            if len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return result


def _markdown(ctx: LintContext, f: SkillFile) -> MarkdownDoc | None:
    """The file's Markdown structure. A SKILL.md whose frontmatter never closes has no body
    (SF103 reports it), yet the agent still reads the whole text: its code blocks and
    headings frame a hit as they would under a closed frontmatter."""
    if f.path == "SKILL.md" and ctx.skill.frontmatter_status == "unclosed" and f.text:
        return MarkdownDoc(f.text)
    return ctx.doc(f.path)


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


@check(*FILE_RULES)
def security_scan(ctx: LintContext) -> Iterator[Finding]:
    """SF501-SF510, SF512, SF513 and SF515 over every text file the agent can see."""
    disabled = set(ctx.config.disable)
    rules = tuple(r for r in FILE_RULES if r not in disabled)
    if not rules:
        return
    purpose = offensive_purpose(ctx.skill)
    phase = target_phase(ctx.skill) if purpose else None
    subject = cli_subject(ctx.skill)
    about = subject_text(ctx.skill, ctx.skill_md_text)
    files = [f for f in ctx.text_files() if f.text is not None]
    paths = [f.path for f in files]
    exposed = exposed_files([(f.path, f.text or "") for f in files])
    halted = halted_scripts(ctx.skill_md_text, [f.path for f in files if f.path != "SKILL.md"])
    samples = sample_files([(f.path, f.text or "") for f in files])
    for f in files:
        for h in cached_scan(ctx, f, rules, f.path in exposed, f.path in halted,
                             f.path in samples):
            severity, message = h.severity, h.message
            if purpose and (h.rule in TARGET_RULES or h.on_target or (h.host_step and phase)) \
                    and severity in (
                    Severity.critical, Severity.high):
                # linters.security.practice: the skill is for attacking a system under test.
                severity = Severity.medium
                message += (f" (medium, not {h.severity.value}: the skill declares an "
                            f"offensive-security purpose, \"{purpose}\", so its commands "
                            "target a system under test; review them.)")
            elif h.cli in subject and severity in (Severity.critical, Severity.high):
                # linters.security.cli_credentials: the skill is about the CLI it reads from.
                severity = Severity.medium
                message += (f" (medium, not {h.severity.value}: the skill is about this CLI, so "
                            "the read is its documented command, and the value goes to no "
                            "other program or host; review it.)")
            elif h.package and severity in (Severity.critical, Severity.high) and names_package(
                    about, h.package):
                # linters.security.subject_tool: the package is the tool the skill is about.
                severity = Severity.medium
                message += (f" (medium, not {h.severity.value}: the skill is about "
                            f"`{h.package}`, so this is its own tool's documented use, and the "
                            "run sends the data nowhere else; pin it all the same.)")
            elif h.script and severity in (Severity.critical, Severity.high) and (
                    own := shipped_script(h.script, f.path, paths)):
                # linters.security.own_scripts: the runner runs the skill's own script.
                severity = Severity.medium
                message += own_script_note(own, h.severity.value)
            yield ctx.finding(h.rule, message, path=f.path, line=h.line, column=h.column,
                              severity=severity)


# --- SF511 ------------------------------------------------------------------------------

_SHELL_TOOLS = {
    "bash", "shell", "sh", "zsh", "powershell", "pwsh", "terminal", "run_shell_command",
    "runshellcommand", "local_shell", "exec_command", "execute_command", "cmd",
}
_TOOL = rx(r"^(?P<name>[A-Za-z_][\w.-]*)(?:\((?P<arg>.*)\))?$", re.DOTALL)
# Command prefixes that run anything: a pattern starting with them restricts nothing.
_ANY_COMMAND = rx(
    r"^\s*(?:\*+|:\*|\*:\*|(?:sudo|su|doas|eval|exec|env|xargs|nohup|time|timeout|"
    r"(?:ba|z|k|da|fi)?sh|sh\s+-c|bash\s+-c|zsh\s+-c|command|builtin|source|\.)"
    r"(?:\s*:?\s*\*+|\s+-c\s*:?\s*\*+)?)?\s*$"
)
_INTERPRETER = rx(
    r"^\s*(?:python[\d.]*|node|ruby|perl|php|deno|bun|npx|uvx|pwsh|powershell|osascript)"
    r"\s*(?:-c|-e)?\s*:?\s*\*+\s*$"
)


def split_tools(value: object) -> list[str]:
    """allowed-tools as a list: a YAML list, or a string split on spaces/commas outside ()."""
    if isinstance(value, list | tuple):
        out: list[str] = []
        for item in value:
            out.extend(split_tools(item) if isinstance(item, str) else [])
        return out
    if not isinstance(value, str):
        return []
    tools: list[str] = []
    buf: list[str] = []
    depth = 0
    for ch in value:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if depth == 0 and (ch.isspace() or ch == ","):
            if buf:
                tools.append("".join(buf))
                buf = []
            continue
        buf.append(ch)
    if buf:
        tools.append("".join(buf))
    return tools


def shell_grant(tool: str) -> str | None:
    """What a shell tool grant lets the agent run without asking: "any command" (no real
    restriction), "any code" (an any-interpreter pattern), or None (a real restriction)."""
    m = _TOOL.match(tool.strip())
    if not m or m.group("name").lower() not in _SHELL_TOOLS:
        return None
    arg = m.group("arg")
    if arg is None or _ANY_COMMAND.match(arg):
        return "any command"
    if _INTERPRETER.match(arg):
        return "any code"
    return None


@check("SF511")
def allowed_tools_shell(ctx: LintContext) -> Iterator[Finding]:
    """SF511: `allowed-tools` pre-approves an unrestricted shell.

    A warning, not a security alarm: the grant is the author's policy choice, stated in the
    open, and harnesses and other linters treat it so. It stays visible, and
    `--fail-on warning` still gates on it."""
    fm = ctx.skill.frontmatter
    if not ctx.frontmatter_ok or fm is None or "allowed-tools" not in fm.data:
        return
    key_line = ctx.fm_line("allowed-tools") or 2
    lines = ctx.skill_md_text.splitlines()
    for tool in split_tools(fm.get("allowed-tools")):
        grant = shell_grant(tool)
        if grant is None:
            continue
        line, col = _locate(lines, tool, key_line)
        how = ("lets the agent run any command without asking" if grant == "any command"
               else "lets the agent run arbitrary code through an interpreter")
        yield ctx.finding(
            "SF511",
            f"`allowed-tools` grants `{tool}`, which {how}; list the exact commands the "
            "skill needs instead, for example `Bash(python scripts/report.py:*)`.",
            line=line,
            column=col,
        )


def _locate(lines: list[str], tool: str, key_line: int) -> tuple[int, int]:
    """Line and column of `tool` in the frontmatter, searching from the key's line."""
    word = re.compile(r"(?<![\w(])" + re.escape(tool) + r"(?![\w(])")
    for i in range(key_line - 1, min(len(lines), key_line + 60)):
        m = word.search(lines[i])
        if m:
            return i + 1, m.start() + 1
        if i > key_line - 1 and lines[i].strip() == "---":
            break
    return key_line, 1
