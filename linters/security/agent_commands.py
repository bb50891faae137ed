"""Commands that hand an agent's, or the user's, trust to someone else (issue 36): starting an
agent CLI with its permission checks off (SF512), and running an unpinned package, without
asking, on the user's own data (SF513).

Both are found like the other command rules (`risky_commands`): literal anchors pick
the candidate lines, shell continuations are joined, and `text_role` decides whether
the text runs the command or talks about it. For SF513, `interpreter_runs` answers a
runner asked for a Python interpreter that runs a local script, and a cue word that is one
segment of a larger name (a skill named `chat-session-review`, a model id
`openai:chat:gpt-4o`, a package path `acme/chat-kit`) is not the user's data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from linters.text.anchor_index import declare
from linters.security.attack_talk import Verdict, downgraded
from linters.text.compiled_regex import rx
from linters.security.security_context import (
    shown_command,
    Hit,
    Line,
    Logical,
    SecurityText,
    command_at,
    command_lines,
    in_inline_code,
    inline_span,
    matches,
    short,
)
from linters.security.flag_owner import AGENT_CLIS, SHARED_FLAG, file_owner, owner
from linters.security.imperative import imperative
from linters.security.inert_code import weigh_command
from linters.security.option_listing import listed_value
from linters.security.interpreter_runs import local_script, note as interpreter_note
from linters.security.subject_tool import ENGLISH_WORDS, own_package
from skillforge.models.findings import Severity

# --- SF512 ------------------------------------------------------------------------------

# Flags and settings that switch an agent CLI's approvals (and sandbox) off. Each is specific
# to its CLI, so the flag alone is enough (an alias or a wrapper script runs it as well);
# the short forms that other tools share (`-y`, `-f`, `--allow-all`) count only after the
# CLI's own name.
_AGENTS = AGENT_CLIS
_BYPASS = rx(
    r"--(?:allow-)?dangerously-skip-permissions\b"
    r"|--dangerously-bypass-approvals-and-sandbox\b"
    r"|--dangerously-allow-all\b"
    r"|--permission-mode[= ]+[\"']?bypassPermissions\b"
    r"|[\"']?defaultMode[\"']?\s*:\s*[\"']bypassPermissions\b"
    r"|--yolo\b"
    r"|--approval-mode[= ]+[\"']?yolo\b"
    r"|(?:--sandbox|-s)[= ]+[\"']?danger-full-access\b"
    r"|sandbox_mode\s*=\s*[\"']danger-full-access\b"
    r"|--yes-always\b"
    r"|\b(?:gemini|qwen)\s+-y\b"
    r"|\bcursor-agent\b[^|;&\n]{0,120}?\s(?:-f|--force)\b"
    r"|\bcopilot\b[^|;&\n]{0,120}?\s--allow-all(?:-tools|-paths)?\b",
    re.IGNORECASE,
)
_AGENT_WORD = rx(rf"(?<![\w/.-]){_AGENTS}(?![\w-])", re.IGNORECASE)
# The CLI names themselves are common words in docs about agents, so the short forms are
# anchored on what follows the name: `gemini -y` and `qwen -y` only right after it.
_SF512_ANCHORS = declare(
    b"dangerously-", b"bypasspermissions", b"--yolo", b"approval-mode", b"danger-full-access",
    b"--yes-always", b"cursor-agent", b"gemini -y", b"qwen -y", b"--allow-all",
)


def scan_sf512(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for log, spans in command_lines(st, _SF512_ANCHORS):
        for m in matches(_BYPASS, log, spans, word=False):
            line, col = log.where(m.start())
            if line.no in seen:
                continue
            seen.add(line.no)
            cmd = command_at(log.text, m.start(), m.end())
            verdict = _bypass_verdict(st, line, col, cmd)
            if SHARED_FLAG.match(m.group(0)) and _other_program(st, log, line, m):
                # linters.security.flag_owner: another tool's own "don't ask" switch.
                yield Hit("SF512", line.no, col + 1, Severity.info,
                          f"`{shown_command(cmd)}`: `{m.group(0)}` here belongs to a program "
                          "that is no agent CLI, so it turns off no agent's permission checks; "
                          "if that program starts an agent, make sure the agent keeps them.")
                continue
            message = (f"`{shown_command(cmd)}` runs an agent with its permission checks off, "
                       "so anything it reads (a web page, an issue, a file) can run any command "
                       "as the user; drop the flag and pre-approve only the tools the task needs "
                       "(for example `--allowedTools \"Bash(npm test:*)\"`).")
            option = (listed_value(st, line) if verdict.severity is Severity.high else None)
            if option:
                # linters.security.option_listing: one line of a listing of the option's values.
                verdict = Verdict(Severity.info, f"it is one line of a listing of `{option}`'s "
                                  "values, not a command that starts an agent")
            fence = (_confined(st, log, line, m.start(), m.group(0))
                     if verdict.severity is Severity.high else None)
            if fence:
                verdict = Verdict(Severity.warning)
                message = message[:-1] + (
                    f" (a warning, not high: the same command confines the agent ({fence}), "
                    "so what it reads cannot run commands as the user outside those limits; "
                    "check that the tools it still allows cannot act for whoever wrote that "
                    "text).")
            yield Hit("SF512", line.no, col + 1, verdict.severity,
                      downgraded(message, Severity.high, verdict))


def _other_program(st: SecurityText, log: Logical, line: Line, m: re.Match[str]) -> bool:
    """The shared flag `m` of `log` is plainly another program's (its stage runs
    `gmail`, `mytool`...), or, named alone in a sentence, is the flag the file's own commands
    give another program."""
    found = owner(log.text[:m.start()])
    if found == "unknown" and st.is_markdown and not st.in_code(line):
        found = file_owner(st, m.group(0))
    return found == "other"


def _bypass_verdict(st: SecurityText, line: Line, col: int, cmd: str) -> Verdict:
    """A flag named in a sentence ("Claude Code's `--dangerously-skip-permissions` turns the
    prompts off") runs nothing: only a command (code, a script, inline code that starts the
    CLI) or a sentence that tells the agent to use it counts."""
    if st.is_markdown and not st.in_code(line):
        inline = in_inline_code(line, col)
        span = inline_span(line, col)[1] if inline else ""
        if not _AGENT_WORD.search(span) and not imperative(line, col):
            return Verdict(Severity.info, "it names the flag in a sentence; nothing runs it")
    return weigh_command(st, line, col, Severity.high)


# --- a contained bypass ---------------------------------------------------------------------

# What confines an agent whose approvals are off, so that a page or a file it reads cannot run
# a command as the user (issue 36: contained runs are the author's policy, like SF511's grant):
# the tools that act denied on the same command (the shell among them), the CLI's own sandbox
# left on, or a container or sandbox program the CLI runs inside.
_DENIES_SHELL = rx(
    r"--(?:deny-tools?|disallowed-?tools|exclude-tools|disable-tools?)[= ]+"
    r"(?:(?!\s--)[^\n;&|]){0,80}?\b(?:shell|bash|run_shell_command|exec_command|terminal)\b",
    re.IGNORECASE,
)
_OWN_SANDBOX = rx(r"--sandbox\b(?!-)(?!\s*[= ]\s*[\"']?(?:danger-full-access|off|none|false|"
                  r"disabled|no|0)\b)", re.IGNORECASE)
_CONTAINER = rx(r"\b(?:(?:docker|podman)\s+(?:container\s+)?run|bwrap|firejail|sandbox-exec|"
                r"nsjail)\b", re.IGNORECASE)
# A statement that adds to a command being built (`cmd.append("--yolo")`, `args+=(--yolo)`):
# the statements next to it that add to the same name build the same command.
_COMMENT = rx(r"(?:^|\s)(?:#|//).*$", re.MULTILINE)
# A shell guard may come first (`[ "$SKIP" = 1 ] && CMD+=(...)`): a statement under another
# guard may not run with it, so only an unguarded one or one under the same guard counts.
_GUARD = r"(?:\[\[?[^\]\n]*\]\]?\s*&&\s*)?"
_ADDS_TO = rx(rf"^\s*({_GUARD})([A-Za-z_]\w*)\s*(?:\.\s*(?:append|extend|insert|push)\s*\(|\+=)")


def _confined(st: SecurityText, log: Logical, line: Line, at: int, flag: str) -> str | None:
    """What confines the agent the bypass at offset `at` of `log` starts, or None: read on the
    command itself and on the statements beside it that build the same command."""
    # A comment ("# add --disallowedTools Bash when ...") confines nothing.
    text = _COMMENT.sub("", log.text) + " " + _same_command(st, line)
    deny = _DENIES_SHELL.search(text)
    if deny:
        flag_text = re.match(r"--[\w-]+[= ]+[\"'\[]?[^\s\"'\]]*", text[deny.start():])
        return f"`{short(flag_text.group(0) if flag_text else deny.group(0), 50)}`"
    # The CLI's sandbox counts unless the flag turns it off too (codex's bypass and --yolo,
    # `--sandbox danger-full-access`); a flag that only skips the prompts
    # (`--dangerously-skip-permissions`) leaves a `--sandbox` beside it on.
    low = flag.lower()
    sandbox_off = ("sandbox" in low or "danger-full-access" in low
                   or re.search(r"(?<![\w-])codex\b", text, re.IGNORECASE) is not None)
    own = None if sandbox_off else _OWN_SANDBOX.search(text)
    if own:
        return f"`{own.group(0)}`"
    # A container the CLI runs in: before it, in the same stage of the pipeline.
    begin = max((i + len(sep) for sep in ("|", ";", "&&", "\n")
                 if (i := log.text.rfind(sep, 0, at)) >= 0), default=0)
    box = _CONTAINER.search(log.text, begin, at)
    return f"`{box.group(0)}`" if box else None


def _same_command(st: SecurityText, line: Line) -> str:
    """The code of the neighbouring statements that add to the same name as `line` (up to
    six lines each way, up to a blank line), without their comments."""
    m = _ADDS_TO.match(line.text)
    if m is None:
        return ""
    guard = re.escape(m.group(1).strip())
    guard = rf"(?:{guard}\s*)?" if guard else ""
    name = re.compile(rf"^\s*{guard}{re.escape(m.group(2))}\s*(?:\.\s*\w+\s*\(|\+=|=)")
    out: list[str] = []
    for step in (-1, 1):
        for cur in st.run_from(line, step):
            if cur.text.lstrip().startswith(("#", "//")):
                continue
            if name.match(cur.text):
                out.append(_COMMENT.sub("", cur.text))
    return " ".join(out)


# --- SF513 ------------------------------------------------------------------------------

# Package runners that fetch and run a package in one step. npx (npm exec) asks before it
# installs only on a terminal: an agent's shell is not one, so it never asks.
_RUNNER = rx(
    r"(?:npx|npm\s+exec|pnpm\s+(?:dlx|exec)|yarn\s+dlx|bunx|bun\s+x|uvx|pipx\s+run|uv\s+tool\s+run)"
    r"(?P<opts>(?:\s+(?:-y|--yes|--quiet|-q|--no-install|--prefer-online|--from\s+\S+|"
    r"--package[= ]\S+|-p\s+\S+|--python\s+\S+|--with\s+\S+|--isolated|--refresh))*)"
    r"\s+(?P<pkg>(?!-)[\w@./:+=~^<>-]+)",
    re.IGNORECASE,
)
# A version in the name: npm `pkg@1.2.3` / `@scope/pkg@1.2.3`, PyPI `pkg==1.2` or `pkg@1.2`.
_PINNED = rx(r"(?:^@?[^@]+@|==)v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$")
_FROM_PINNED = rx(r"--from\s+\S*(?:==|@)v?\d+(?:\.\d+){1,3}")
# The user's own data: what they said, did or have open, sent as arguments or input.
_USER_DATA = rx(
    # A login session ("CLI session expired", "log in (a new session)") is the tool's own
    # credential, not what the user said or did.
    r"\b(?:(?<!cli )(?<!new )(?<!login )(?<!auth )(?<!sso )(?<!browser )(?<!shell )"
    r"session(?!\s+(?:expired|expires|timed\s+out|timeout|token|cookie)\b)|conversation|transcript|chat(?:\s+log|\s+history)?|history|feedback|"
    r"what\s+the\s+user|the\s+user'?s\s+(?!(?:package\s+manager|shell|terminal|editor|os|"
    r"machine|computer|platform|environment|account|choice|preference|region)\b)\w+"
    r"|user'?s\s+(?:messages?|prompts?|requests?|input|data|"
    r"code|files?|notes?|repo(?:sitory)?)|their\s+(?:messages?|prompts?|code|files?))\b"
    # A harness variable for what the user has (`$CLAUDE_PROJECT_DIR`, a session's id), not
    # one naming the plugin's or skill's own folder (`$CLAUDE_PLUGIN_ROOT/theme.json`).
    r"|\.claude/projects|\.codex/sessions"
    r"|\$\{?(?:CLAUDE|CODEX)_(?!(?:PLUGIN_ROOT|PLUGIN_DIR|SKILL_DIR|SKILL_ROOT)\b)\w+"
    r"|\$\{?ARGUMENTS\b"
    r"|\$\{?(?:PROMPT|TRANSCRIPT\w*|CHAT\w*|SESSION\w*|CONVERSATION\w*|FEEDBACK|SUMMARY)\b",
    re.IGNORECASE,
)
_SENDS = rx(r"\b(?:send|sends|sent|upload|post|submit|share|report|forward|pipe|pass|feed|"
            r"hand|give|file)\b", re.IGNORECASE)
_SF513_ANCHORS = declare(b"npx", b"npm exec", b"dlx", b"bunx", b"bun x", b"uvx", b"pipx run",
                         b"uv tool run", b"pnpm exec")


def scan_sf513(st: SecurityText) -> Iterator[Hit]:
    seen: set[int] = set()
    for log, spans in command_lines(st, _SF513_ANCHORS):
        for m in matches(_RUNNER, log, spans):
            pkg = m.group("pkg").strip("'\"")
            if _PINNED.search(pkg) or _FROM_PINNED.search(m.group("opts") or ""):
                continue
            line, col = log.where(m.start())
            if line.no in seen:
                continue
            if pkg.lower() in ENGLISH_WORDS and not (
                    st.is_markdown and (st.in_code(line) or in_inline_code(line, col))):
                continue  # "shipped via uvx or a script": the runner named in a sentence
            data = _user_data(st, log.text, m, line, col)
            if data is None:
                continue
            seen.add(line.no)
            opts = m.group("opts") or ""
            script = local_script(pkg, opts, log.text, m.end())
            if script:
                # linters.security.interpreter_runs: an interpreter on a local script.
                yield Hit("SF513", line.no, col + 1, Severity.info,
                          f"`{shown_command(m.group())}` hands {data} to a script on the "
                          f"machine, not to a registry package: "
                          f"{interpreter_note(script, opts)}.")
                continue
            verdict = weigh_command(st, line, col, Severity.high)
            name = pkg.rsplit("@", 1)[0] if pkg.count("@") > pkg.startswith("@") else pkg
            yield Hit(
                "SF513", line.no, col + 1, verdict.severity, downgraded(
                    f"`{shown_command(m.group())}` runs whatever version of `{short(name, 40)}` the "
                    f"registry serves that day, without asking, and hands it {data}; pin an "
                    f"exact version (`{short(name, 40)}@1.4.2`) and ask the user before their "
                    "data leaves the machine.", Severity.high, verdict),
                script=script_run(name, log.text, m.end()),
                package=own_package(name, opts,
                                    log.text[m.end():].split("\n", 1)[0]),
            )


# Packages whose job is to run a script file: the TypeScript/JavaScript runners.
_SCRIPT_RUNNERS = frozenset(("tsx", "ts-node", "ts-node-esm", "esno", "esrun", "vite-node",
                             "jiti", "sucrase-node", "babel-node", "@babel/node"))
# The runner's first argument that is not an option: a script file by its extension.
_SCRIPT_ARG = rx(r"(?:\s+--?[\w-]+(?:=\S+)?)*\s+[\"']?(?P<script>[^\s\"';&|<>]+\."
                 r"(?:[cm]?ts|tsx|[cm]?js|jsx))[\"']?(?=[\s;&|)]|$)", re.IGNORECASE)


def script_run(name: str, text: str, end: int) -> str:
    """The local script file a script-runner package is given (`npx tsx scripts/fetch.ts`), or
    "": a URL or any other package is no script of the skill's."""
    if name.lower() not in _SCRIPT_RUNNERS:
        return ""
    m = _SCRIPT_ARG.match(text, end)
    if m is None or "://" in m.group("script"):
        return ""
    return m.group("script")


def _user_data(st: SecurityText, text: str, m: re.Match[str], line: Line,
               col: int) -> str | None:
    """What user data the package run is fed ("the user's session"), found in the command's
    own arguments or input, or in the sentence or lead-in that introduces it."""
    if not _USER_DATA.search(text) and not (st.is_markdown and _near_user_data(st, line)):
        return None  # the common case, told without parsing the Markdown
    stage_end = min([i for i in (text.find(sep, m.end()) for sep in (";", "&&", "\n"))
                     if i >= 0] or [len(text)])
    if st.is_markdown and in_inline_code(line, col) and not st.in_code(line):
        # Inline code: the command ends with its span, the sentence after it is prose.
        start, span = inline_span(line, col)
        stage_end = min(stage_end, m.start() + (start + len(span) - col))
    stage_start = max(text.rfind(sep, 0, m.start()) for sep in (";", "&&"))
    # Its arguments and its input; not the package's own name (`feedback-cli@latest`).
    found = (_data_cue(text, m.end(), stage_end)
             or _data_cue(text, max(0, stage_start + 1), m.start()))
    if found is None and st.is_markdown:
        # The sentence before the command, or the block's lead-in, must say it sends the
        # data ("send a summary of the session:"); a sentence that only mentions the user
        # elsewhere ("`npx x add`: the user's preference") feeds the command nothing.
        context = line.text[:col] if not st.in_code(line) else _block_lead(st, line)
        if context and _SENDS.search(context):
            found = _data_cue(context, 0, len(context))
    if found is None:
        return None
    return f"the user's data (`{short(found.group(0), 40)}`)"


# A cue word that is one segment of a larger identifier, joined with no space by `-`, `_`,
# `.`, `/` or `:` (`--skill agent-session-classify`, a provider's model id
# `openai:chat:gpt-4o`, `--model acme/chat-large`, a package path `packages/chat`), names a
# thing (a skill, a model, a package, a branch), not the user's data. An option's own name
# (`--transcript-file`) says what its value is, and a file or folder (`chat-history.json`,
# `session-notes/`, `~/chats`, `./history`) may hold the data: both stay cues.
_TOKEN_EDGE = " \t\n\"'`=,;()[]{}<>|"
_JOINERS = "-_./:"
# A file's extension after the cue (`chat.txt`, `transcript.md`), not the cue itself
# (`openai.chat`) and not a version (`gpt-5.5`).
_EXTENSION = rx(r"\.[A-Za-z][A-Za-z0-9]{0,5}$")
_ROOTED = ("~", "/", "./", "../", "$", "%")


def _data_cue(text: str, start: int, end: int) -> re.Match[str] | None:
    """The first user-data cue in `text[start:end]` that is not a segment of a name."""
    for found in _USER_DATA.finditer(text, start, end):
        if not _in_name(text, found.start(), found.end()):
            return found
    return None


def _in_name(text: str, start: int, end: int) -> bool:
    if not text[start].isalpha() or any(c.isspace() for c in text[start:end]):
        return False
    before, after = text[start - 1:start], text[end:end + 1]
    if not ((before and before in _JOINERS) or (after and after in _JOINERS)):
        return False
    left = max(text.rfind(c, 0, start) for c in _TOKEN_EDGE) + 1
    right = min([i for i in (text.find(c, end) for c in _TOKEN_EDGE) if i >= 0] or [len(text)])
    token = text[left:right].rstrip(".:")  # a sentence's full stop or colon
    if token.startswith("-") or token.endswith("/") or token.startswith(_ROOTED):
        return False  # an option's name, a folder, a path on the machine
    ext = _EXTENSION.search(token)
    return not (ext and left + ext.start() >= end and "/" not in token[ext.start():])


def _near_user_data(st: SecurityText, line: Line) -> bool:
    """The line or one of the few before it names user data: told from the raw text, so
    most package runs are passed over without parsing the Markdown."""
    cur: Line | None = line
    for _ in range(6):
        if cur is None:
            return False
        if _USER_DATA.search(cur.text):
            return True
        cur = st.neighbour(cur, -1)
    return False


def _block_lead(st: SecurityText, line: Line) -> str:
    """The prose line just before the code block holding `line` (or "")."""
    doc = st.doc
    if doc is None:
        return ""
    fences = [f for f in doc.fences if f.start < line.no and (f.end is None or line.no < f.end)]
    if not fences:
        return ""
    start = fences[-1].start
    for no in range(start - 1, max(doc.first_line - 1, start - 4), -1):
        text = doc.lines[no - doc.first_line].strip()
        if text:
            return "" if text.startswith("#") else text
    return ""
