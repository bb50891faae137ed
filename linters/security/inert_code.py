"""What code holds but never runs: the role of a command-shaped string in code (issue 36).

In shipped code only what the code executes is a command: a shell line outside comments, an
argument of `subprocess.run` / `os.system` / `eval`, a string the code later hands to one.
The same text elsewhere in code is about the pattern, and the command rules (SF505, SF506,
SF508, SF509, SF510, SF512, SF513, SF515) report it as `info` with the reason:

- a comment or a docstring of a shipped script (`# blocks variants like rm -fr /`), unless
  the comment tells the reader to run it (`# Install uv first: curl ... | sh`);
- a string the code compares against (`if "169.254.169.254" in payload:`), which tests a
  value and contacts nothing;
- string data the code never runs: an item of a list of descriptions, a field of a sample
  record, a variable that reaches no exec call (`user_input="foo; rm -rf /"` then `grep
  "$user_input"`); a value under a key that describes or exemplifies (`"example": "..."`);
  a field of an object literal handed to a call that runs nothing (`buildAlert({"process.
  command_line": "powershell -EncodedCommand ..."})`, sample alerts the script generates);
  the input a test hands to the code under test (`escape_for_shell("x; rm -rf /")` in a
  `def test_...`), `linters.security.under_test`.

A web page's shown text (between its tags, outside `<script>` and the elements that show a
command to copy) is drawn, not run: `linters.security.page_text`.

Text the code prints or raises stays severe: the agent reads the output and may follow it
(`print("Install uv first: curl ... | sh")`). The readers work on one line plus the file's
uses of a variable; they return the reason, worded to follow "reported as info: ...".
Secrets (SF504) and injection text (SF501) do not ask: a key in a comment is still leaked,
and a comment is read by the agent. `linters.security.code_samples` answers SF501's
narrower question.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import Verdict
from linters.security.code_flow import runs_computed
from linters.security.code_reading import (
    bare,
    closing_quote,
    code_kind,
    in_docstring,
    open_brackets,
    open_call,
    open_parens,
    spot_state,
    statement_start,
)
from linters.security.imperative import tells_to_run
from linters.security.page_text import shown_text
from linters.security.security_context import Line, SecurityText
from linters.security.text_role import weigh
from linters.security.under_test import test_argument
from linters.text.compiled_regex import rx
from skillforge.models.findings import Severity


def weigh_command(
    st: SecurityText,
    line: Line,
    col: int,
    default: Severity,
    end: int | None = None,
    *,
    reads: bool = False,
) -> Verdict:
    """`text_role.weigh` for a rule about what runs, and `info` when the code never runs the
    text at 0-based `col`. The role's own evidence (defensive code, a warning) speaks first."""
    verdict = weigh(st, line, col, default, end, reads=reads)
    if verdict.severity is Severity.info:
        return verdict
    why = inert(st, line, col)
    return Verdict(Severity.info, why) if why else verdict


def inert(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the code holding (line, `col`) never runs the text there, or None."""
    kind, lines, idx = code_kind(st, line)
    if kind is None:
        return shown_text(st, line, col)
    state, at = spot_state(line.text, col, kind)
    if not st.is_markdown:
        if state == "comment":
            said = line.text[at:col].lstrip("#/-*; ")
            # "Install uv first: curl ... | sh" tells the reader to run it; a compound noun
            # ("Pipe-to-shell (curl | sh)") titles a section.
            if tells_to_run(said) and not _COMPOUND.match(said):
                return None
            return "it is in a comment of the code, which never runs"
        if kind == "code" and (_docstring(st, line, lines, idx) or _lone(lines, idx)):
            said = line.text[:col].strip().lstrip("\"'")
            if tells_to_run(said) and not _COMPOUND.match(said):
                return None  # "Usage: run ..." in a module's docstring
            return "it is in a docstring, which never runs"
    if state != "string":
        return None
    if _compared(line.text, at):
        return "it is a string the code compares against, not one it runs"
    if _may_run(st, kind, lines):
        return None  # linters.security.code_flow: the code may run any string it holds
    if kind == "data":
        key = _DATA_KEY.match(line.text)
        if key and _DESCRIBES.fullmatch(key.group(1)):
            return f"it is the `{key.group(1)}` value of a data record, not a command"
        return None
    if kind == "shell":
        return _shell_data(line.text, at, col, lines)
    return _code_data(st, line, lines, idx, line.text[:at])


_COMPOUND = rx(r"^[A-Za-z]+-[A-Za-z]")
# A line that is one triple-quoted string on its own: a one-line docstring, a no-op.
_LONE_STRING = rx(r"""^\s*[rRuUbB]?(?:"{3}(?:(?!"{3}).)*"{3}|'{3}(?:(?!'{3}).)*'{3})\s*(?:#.*)?$""")


def _lone(lines: list[str], idx: int) -> bool:
    """Line `idx` is a string literal standing as a statement of its own: nothing runs it."""
    return _LONE_STRING.match(lines[idx]) is not None and _opens_statement(lines, idx)


def _opens_statement(lines: list[str], idx: int) -> bool:
    """Line `idx` starts a statement: no bracket is open and no operator continues into it
    (a triple-quoted argument of `subprocess.run(` on its own line is no docstring)."""
    prev = lines[idx - 1].rstrip() if idx > 0 else ""
    return statement_start(lines, idx) == idx and not prev.endswith(
        ("\\", "=", "+", ",", "(", "[", "{", ":=", "%")
    )


def _docstring(st: SecurityText, line: Line, lines: list[str], idx: int) -> bool:
    if not in_docstring(st.raw, line.start):
        return False
    opener = next((j for j in range(idx - 1, -1, -1) if '"""' in lines[j] or "'''" in lines[j]), 0)
    return _opens_statement(lines, opener)


def _may_run(st: SecurityText, kind: str, lines: list[str]) -> bool:
    """The file (or the Markdown code block) runs a computed string, or a file that does
    reads this one (`SecurityText.exposed`): any string in it may be what runs."""
    if st.is_markdown:
        return runs_computed("\n".join(lines), kind)
    return st.exposed or runs_computed(st.text, kind)


# --- the readers ---------------------------------------------------------------------------

# The string is an operand of a test: `"x" in s`, `s == "x"`, `s.startswith("x")`,
# `[[ $s == *"x"* ]]`. A test reads a value; it runs nothing.
_BEFORE_TEST = rx(
    r"(?:==|!=|===|!==|=~|\bin|\bnot\s+in)\s*[(\[{]?\s*[*]?$|"
    r"\.(?:startswith|startsWith|endswith|endsWith|includes|contains|"
    r"indexOf|find|count)\s*\(\s*[(\[]?\s*$"
)
_AFTER_TEST = rx(r"^\s*[*]?(?:==|!=|===|!==|\bin\b|\bnot\s+in\b)")


# `for c in ["curl ... | sh"]:` iterates over the string, it does not test against it.
_LOOP_IN = rx(r"\bfor\s+[\w\s,()\[\]]+?\s+in\s*[(\[{]?\s*$")


def _compared(text: str, opened: int) -> bool:
    if _LOOP_IN.search(text[:opened]):
        return False
    close = closing_quote(text, opened)
    after = text[close + 1 :] if close is not None else ""
    return bool(_BEFORE_TEST.search(text[:opened]) or _AFTER_TEST.match(after)
                or _asserted(text[:opened]))


# A test's assertion: `self.assertIn("--yolo", cmd)`, `assertEqual(cmd, ["x", "--yolo"])`,
# `expect(cmd).toContain("--yolo")`. What it is handed is a value the test expects, or
# expects absent, in what the code under test built; the assertion runs nothing.
_ASSERTION = rx(r"(?:^|[\s.(\[{,=!])(?:assert\w*|expect|to(?:Be|Equal|StrictEqual|"
                r"Contain|ContainEqual|Match|Have\w*|Include))$")


def _asserted(head: str) -> bool:
    """The end of `head` (a line up to a string) is inside the arguments of an assertion
    call, at any depth of brackets."""
    code = bare(head)
    return any(_ASSERTION.search(code[max(0, i - 40) : i].rstrip()) for i in open_parens(code))


# A JSON or YAML key, and the keys whose value describes or exemplifies what the record is
# about: a deny-list's `"example"`, a rule's `"description"`, a sample's `"completion"`.
_DATA_KEY = rx(r"""^\s*(?:-\s+)?["']?([A-Za-z_][\w-]*)["']?\s*:""")
_DESCRIBES = rx(
    r"(?:examples?|description|desc|summary|title|label|name|pattern|patterns|"
    r"regex|regexp|match|reason|rationale|note|notes|comment|sample|samples|"
    r"expected|prompt|completion|response|answer|question|payload|input|"
    r"bad|unsafe|dangerous|blocked|denied)",
    re.IGNORECASE,
)

# A call that runs its argument: a process, an interpreter, a shell, a request.
_SINK = rx(
    r"\b(?:system|popen|Popen|subprocess|spawn\w*|exec\w*|eval|shell\w*|run\w*|"
    r"call|check_output|check_call|Command|invoke\w*|os\.\w+|pty|sh|bash|zsh|"
    r"urlopen|requests|httpx|fetch|axios|get|post|request|curl|wget|download\w*|"
    r"install\w*|launch\w*|start\w*|cmd|command)\s*[(`]|\bshell\s*=\s*True",
    re.IGNORECASE,
)
# A call that shows its argument to whoever reads the output: the agent, when it runs it.
_OUTPUT = rx(
    r"\b(?:print\w*|puts|warn\w*|log\w*|console\.\w+|write\w*|exit|abort|fail|"
    r"\w*Error|\w*Exception|echo)\s*\(|\b(?:echo|printf|print|raise|throw|die|puts)\b"
)
_ASSIGN = rx(
    r"^\s*(?:(?:const|let|var|final|static|export|local|readonly|declare)\s+)*"
    r"([A-Za-z_]\w*)\s*(?::[^=]{0,40})?=(?!=)"
)
_DEFINES = rx(r"^\s*(?:async\s+)?(?:def|function|fn|func)\s+([A-Za-z_]\w*)")
_LOOP_OR_COPY = rx(r"\bfor\s+([\w\s,()]+?)\s+in\b|^\s*([A-Za-z_]\w*)\s*=(?!=)")


def _code_data(st: SecurityText, line: Line, lines: list[str], idx: int,
               before: str) -> str | None:
    """Why a string literal of a programming language is data: it sits in a list, a record
    or an assignment, not in a call (a call may run it: `deploy("curl ... | sh")`), and the
    variable it is assigned to reaches nothing that runs or prints it."""
    head = bare("\n".join([*lines[statement_start(lines, idx) : idx], before]))
    if _SINK.search(head) or _OUTPUT.search(head):
        return None
    if open_call(head) and not _keyed_value(head):
        # A call may run it, unless a test hands it to the code under test.
        return test_argument(st, line, lines, idx, head)
    name = _ASSIGN.match(head)
    if name and _reaches_sink(name.group(1), lines):
        return None
    held = f" of `{name.group(1)}`" if name else ""
    return f"it is string data{held} that the code never runs"


# The end of a statement (literals blanked by `bare`) where a value of a key starts:
# `{"process.command_line": `, `{cmd: `, `{"args": [` with earlier items of the list.
_KEY_COLON = rx(r"""(?:^|[{,\n])\s*(?:""|[A-Za-z_$][\w$]*|\[[^\]]*\])\s*:\s*$""")
_LIST_ITEMS = rx(r"""^(?:\s*(?:""|-?\d+(?:\.\d+)?|true|false|null|None|True|False)\s*,)*\s*$""")


def _keyed_value(head: str) -> bool:
    """The string that ends `head` is the value of a key in an object or dict literal (or an
    item of a list that is one): a field of a record the code builds, which a call it is
    handed to receives as data. `_code_data` still asks whether anything runs the record."""
    inner = next(open_brackets(head), None)
    if inner is None:
        return False
    if head[inner] == "[":
        if not _LIST_ITEMS.match(head[inner + 1 :]):
            return False
        return bool(_KEY_COLON.search(head[:inner]))
    return head[inner] == "{" and bool(_KEY_COLON.search(head[inner + 1 :]))


def _reaches_sink(name: str, lines: list[str], steps: int = 3) -> bool:
    """`name` is used on a line that runs or prints, directly or through a variable
    assigned from it or a loop over it (a few steps)."""
    names, seen = [name], {name}
    defined = {m.group(1) for text in lines for m in _DEFINES.finditer(text)}
    calls_own = (
        rx(r"\b(?:" + "|".join(map(re.escape, sorted(defined))) + r")\s*\(") if defined else None
    )
    for _ in range(steps):
        nxt: list[str] = []
        for n in names:
            use = re.compile(rf"(?<![\w$.]){re.escape(n)}(?!\w)")
            for text in lines:
                code = bare(text) + " " + " ".join(re.findall(r"\{([^{}]*)\}", text))
                if not use.search(code):
                    continue
                own = _ASSIGN.match(code)
                if own and own.group(1) == n and not use.search(code, own.end()):
                    continue  # its own definition
                if (
                    _SINK.search(code)
                    or _OUTPUT.search(code)
                    or (calls_own is not None and calls_own.search(code))
                    or _passed_on(code, use)
                ):
                    return True  # a call that may run it
                for m in _LOOP_OR_COPY.finditer(code):
                    for v in re.findall(r"[A-Za-z_]\w*", m.group(1) or m.group(2)):
                        if v not in seen:
                            seen.add(v)
                            nxt.append(v)
        names = nxt
    return False


# Calls that only read or reshape a value: handing a variable to one runs nothing. Any
# other call it is handed to (`helpers.deploy(cmd)`) may run it.
_INERT_CALL = rx(
    r"(?:re\.\w+|search|match|fullmatch|compile|findall|finditer|sub|split|len|str|repr|"
    r"isinstance|sorted|list|tuple|set|frozenset|dict|enumerate|zip|items|keys|values|"
    r"lower|upper|strip|startswith|endswith|includes|test|escape|dumps|join|range|"
    r"any|all|bool|min|max|sum|reversed|fnmatch)",
)


def _passed_on(code: str, use: re.Pattern[str]) -> bool:
    """The variable is an argument of a call that is not known to only read it."""
    for call in re.finditer(r"([A-Za-z_][\w.]*)\s*\(", code):
        if use.search(code, call.end()) and not _INERT_CALL.fullmatch(
            call.group(1).rsplit(".", 1)[-1] if not call.group(1).startswith("re.") else "re.x"
        ):
            return True
    return False


_SHELL_ASSIGN = rx(
    r"^\s*(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?"
    r"([A-Za-z_]\w*)=$"
)


def _shell_data(text: str, opened: int, col: int, lines: list[str]) -> str | None:
    """Why a quoted shell string is data: the value of a variable assignment (nothing in
    it substituted) that the script never runs (`eval`, `sh -c`, or `$NAME` as a command)."""
    m = _SHELL_ASSIGN.match(text[:opened])
    if m is None or (text[opened] == '"' and ("$(" in text[opened:col] or "`" in text[opened:col])):
        return None
    name = re.escape(m.group(1))
    ref = rf"\$(?:\{{{name}\}}|{name}\b)"
    runs = rx(
        rf"(?:^|[;&|({{]|\bthen|\bdo|\belse|\bexec|\beval|\bxargs|\bsudo|"
        rf"\b(?:ba|z|k)?sh\s+-c)\s*[\"']?{ref}|\beval\b.*{ref}|"
        rf"\b(?:ba|z|k)?sh\s+-c\s+.*{ref}|\b(?:echo|printf)\b.*{ref}",
        re.MULTILINE,
    )
    if runs.search("\n".join(lines)):
        return None
    return f"it is the value of the variable `{m.group(1)}`, which the script never runs"


# --- SF502: invisible characters as the code's data ----------------------------------------

_SEPARATORS = rx(r"[\s|\[\],\\-]")
# A regex's quantifier after the set (`[\u200b\u200c]{3,}`, `+`): a pattern that finds them.
_QUANTIFIER = rx(r"\{\d*,?\d*\}|(?<=\])[+*?]")


def invisible_charset(st: SecurityText, line: Line, col: int, invisible: str) -> str | None:
    """Why invisible characters at 0-based `col` are a set the code handles (a normaliser's
    `ZERO_WIDTH = "..."` to strip): they fill a string literal of code on their own, so
    they hide no text between visible words."""
    kind, _lines, _idx = code_kind(st, line)
    if kind is None:
        return None
    state, opened = spot_state(line.text, col, kind)
    close = closing_quote(line.text, opened) if state == "string" else None
    if close is None:
        return None
    content = line.text[opened + 1 : close]
    rest = "".join(ch for ch in content if ch not in invisible)
    if _SEPARATORS.sub("", _QUANTIFIER.sub("", rest)):
        return None
    return "they fill a string literal of the code on their own, a set of characters it handles"
