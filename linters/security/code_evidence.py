"""Why a string in code is data, not a command: the readers of defensive code (issue 36).

A skill's scripts and code blocks hold the patterns the security rules look for in places
where nothing runs them: a blocklist (`BLOCKED_HOSTS = ["169.254.169.254"]`), a detection
regex, a guard that refuses the value (`if "169.254.169.254" in url: raise`), a sample handed
to a detector (`injection_score("ignore previous instructions")`), the input of a test that
expects a refusal, a read whose output goes to /dev/null (`security find-generic-password -s
NAME >/dev/null`: it checks the item exists), a `# BAD` comment. Each reader returns the
reason, worded to follow "reported as info: ...", or None; `linters.security.text_role` asks them.
"""

from __future__ import annotations

import re

from linters.security.attack_talk import COMMENT, NEGATIVE_LABEL
from linters.security.code_reading import indented_body
from linters.text.compiled_regex import rx
from linters.security.security_context import Line, SecurityText

# Defensive code: a name for what is looked for or refused, or a pattern being compiled.
_DEFENSIVE_NAME = rx(
    r"(?:block|deny|forbid|disallow|banned|blacklist|reject|suspicious|danger|malicious|"
    r"pattern|regex|regexp|signature|indicator|marker|detect|\bioc|\bbad(?:_|\b)|unsafe|risky|"
    r"private_?(?:ip|net|range)|ssrf)",
    re.IGNORECASE,
)
_ASSIGNMENT = rx(r"^\s*(?:(?:const|let|var|final|static|export)\s+)*"
                 r"([A-Za-z_][\w.]*)\s*(?::[^=]{0,40})?(?:=|:)(?!=)")
_PATTERN_CALL = rx(
    r"\bre\.(?:compile|search|match|fullmatch|findall|finditer|sub)\s*\(|\bRegExp\s*\(|"
    r"\bregex(?:p)?\s*[:=(]|\bgrep\s+-\w*[EPF]|=~|\.test\s*\(|\bpattern(?:s|-either|-regex)?\s*:",
    re.IGNORECASE,
)


def defensive_code(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the hit at 0-based `col` is data in defensive code: a string in a block or deny
    list, a detection pattern or a regex (`BLOCKED = ['169.254.169.254']`).

    The string must be an argument of the pattern call, or an item of a collection whose name
    says what it holds: `BLOCKED = "curl ... | sh"` followed by `os.system(BLOCKED)` is a
    command with a misleading name, not a list."""
    text = line.text
    before = text[:col]
    in_string = (before.count('"') % 2 == 1 or before.count("'") % 2 == 1
                 or (before.count("`") % 2 == 1 and not st.is_markdown))
    if not in_string:
        return None
    call = None
    for m in _PATTERN_CALL.finditer(text, 0, col):
        call = m
    if call is not None and ")" not in text[call.end():col]:
        return "it is a pattern in defensive code (a detection regex or rule)"
    name, item = _assigned_name(st, line)
    if not name or not _DEFENSIVE_NAME.search(name):
        return None
    if item or _COLLECTION_OPEN.search(text, 0, col):
        return f"it is data in defensive code (the list `{name[:40]}`)"
    return None


_COLLECTION_OPEN = rx(r"(?:=|:)\s*(?:new\s+Set\s*\(|(?:frozen)?set\s*\(|tuple\s*\()?"
                      r"\s*[\[({]")


def _assigned_name(st: SecurityText, line: Line) -> tuple[str | None, bool]:
    """(name assigned on this line, or on the line opening the list it is an item of;
    whether the line is such an item rather than the assignment itself)."""
    cur: Line | None = line
    for _ in range(40):
        if cur is None:
            return None, False
        m = _ASSIGNMENT.match(cur.text)
        if m:
            return m.group(1), cur is not line
        stripped = cur.text.strip()
        if cur is not line and not stripped.startswith(("'", '"', "r'", 'r"', "#", "//", "-")):
            if not stripped.endswith(("[", "(", "{", ",")):
                return None, False
        cur = st.neighbour(cur, -1)
    return None, False


# A guard: a condition that tests a value, then refuses. The string being tested is the
# pattern, not a command (`if "169.254.169.254" in url: raise ValueError(...)`).
_GUARD = rx(
    r"^\s*(?:\}\s*)?(?:el(?:s(?:e\s+)?)?if|if|unless|assert|when|elif|case)\b"
    r"|\b(?:in|not\s+in)\s+[\w.\[\]()'\"]+\s*:?\s*$"
    r"|\.(?:includes|startswith|startsWith|endswith|endsWith|contains|match|test|search|"
    r"indexOf|find)\s*\(|\s(?:==|!=|===|!==|=~)\s|\[\[.*(?:==|=~|!=)",
)
_REFUSE = rx(
    r"\b(?:raise|throw|abort|die|deny|denied|reject|refuse|block(?:ed)?|forbid|disallow|"
    r"sys\.exit|exit\s+[1-9]|return\s+(?:false|False|None|null|nil|1|-1|err|error)|"
    r"PermissionError|SecurityError|not\s+allowed|unsafe|dangerous)\b",
    re.IGNORECASE,
)


def defensive_check(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the hit at 0-based `col` is a string a guard tests and refuses: a string literal
    in a condition (`if`, `in`, `==`, `.includes(`) whose branch raises, exits or denies,
    on the same line or the next two."""
    before = line.text[:col]
    if not (before.count('"') % 2 == 1 or before.count("'") % 2 == 1):
        return None
    if not _GUARD.search(line.text):
        return None
    cur: Line | None = line
    for _ in range(3):
        if cur is None:
            break
        if _REFUSE.search(cur.text, col if cur is line else 0):
            return "it is a string that defensive code checks for and refuses"
        cur = st.neighbour(cur, 1)
    return None


# A function named for judging text: its string argument is a sample to score, not an order.
_DETECTOR_CALL = rx(
    r"\b[\w.]*(?:jailbreak|inject|detect|classif|scan|guard|moderat|sanitiz|is_safe|"
    r"is_malicious|is_attack|score)[\w.]*\s*\(", re.IGNORECASE)


# The same as a command: a program named for judging text, run on a quoted argument
# (`uv run test-defender.py --text "Ignore all previous instructions"`).
_DETECTOR_COMMAND = rx(
    r"^\s*(?:\$\s+)?(?:(?:uv|poetry|pipenv|pdm)\s+run\s+|(?:python3?|node|deno|bun|npx|"
    r"ruby|bash|sh)\s+)?(?:[\w.~-]*/)*[\w.-]*(?:jailbreak|inject|detect|classif|scan|guard|"
    r"moderat|sanitiz|defend)[\w.-]*(?=\s)", re.IGNORECASE)


def detector_input(line: Line, col: int) -> str | None:
    """Why the string at 0-based `col` is a sample handed to a detector
    (`get_jailbreak_score("Ignore previous instructions")`, `scan-prompt.py --text "..."`),
    or None."""
    before = line.text[:col]
    if not (before.count('"') % 2 == 1 or before.count("'") % 2 == 1):
        return None
    cmd = _DETECTOR_COMMAND.match(before)
    if cmd is not None and not re.search(r"[|;&`]|\$\(", before[cmd.end():]):
        return f"it is a sample passed to `{cmd.group(0).strip()[:40]}`"
    call = None
    for call in _DETECTOR_CALL.finditer(before):
        pass
    if call is None or ")" in before[call.end():]:
        return None
    return f"it is a sample passed to `{call.group(0).rstrip('( ')[:40]}`"


# A call that runs or shows its argument: a sample handed to one is no longer only a sample.
_RUNS_OR_SHOWS = rx(r"[\w.]*(?:print|echo|puts|log|write|system|popen|Popen|subprocess|exec|eval|"
                    r"run|call|spawn|send|post|request|prompt|complete|chat|invoke|ask)[\w.]*\s*\(",
                    re.IGNORECASE)


def detector_cases(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the string at 0-based `col` is a case in a table the code hands to a detector: an
    item of a collection (`CASES = [("inject", "<phrase>", True), ...]`) that a loop walks,
    passing a loop variable to a function named for judging text (`scan_text(text)`), a
    variable the code never runs, prints or sends."""
    before = line.text[:col]
    if not (before.count('"') % 2 == 1 or before.count("'") % 2 == 1):
        return None
    name, item = _assigned_name(st, line)
    if not name or not item or "." in name:
        return None
    lines = st.text.split("\n")
    # Built from the skill's text: `re`, not `rx` (whose kept compiles are the source's own).
    judges = _local_detectors(lines)
    names = [name]
    for _ in range(2):  # the table, and a table of tables (`for cat, cases in T.items()`)
        inner = []
        for walked in names:
            loop = re.compile(rf"\bfor\s+([\w\s,()]+?)\s+in\s+(?:enumerate\s*\(\s*)?"
                              rf"{re.escape(walked)}\b")
            for no, text in enumerate(lines):
                m = loop.search(text)
                if m is None:
                    continue
                for var in re.findall(r"[A-Za-z_]\w*", m.group(1)):
                    use = re.compile(rf"(?<![\w.]){re.escape(var)}(?!\w)")
                    uses = [t for t in indented_body(lines, no) if use.search(t)]
                    judged = [t for t in uses if _judges(t, use, judges)]
                    if judged and not any(_shows(t, use) for t in uses):
                        call = _DETECTOR_CALL.search(judged[0]) or judges.search(judged[0])
                        return (f"it is a case of a table the code hands to "
                                f"`{call.group(0).rstrip('( ') if call else 'a detector'}`")
                    inner.append(var)
        names = inner
    return None


def _judges(text: str, use: re.Pattern[str], local: re.Pattern[str]) -> bool:
    """The variable is an argument of a detector call on the line, or of a function of the
    file that hands its argument to one."""
    calls = [*_DETECTOR_CALL.finditer(text), *local.finditer(text)]
    return any(use.search(text, m.end()) for m in calls)


def _shows(text: str, use: re.Pattern[str]) -> bool:
    """The line may run or show the case itself. A report line that prints a preview
    (`case[:50]`) beside another value (the verdict: `f"[{status}] {case[:50]}"`) shows
    the detector's result, not the case as text to act on."""
    if not _RUNS_OR_SHOWS.search(text):
        return False
    report = re.search(r"\bprint\s*\(\s*f[\"'].*\{\w+\}.*", text)
    return not (report and all(text[m.end():].startswith("[:") for m in use.finditer(text)))


_FUNC = re.compile(r"^(\s*)def\s+(\w+)\s*\(\s*(\w+)")


def _local_detectors(lines: list[str]) -> re.Pattern[str]:
    """A call of any function of the file whose first parameter goes to a detector call
    (`def test_text(text): ... scan_for_injections(text, config)`)."""
    found = []
    for i, text in enumerate(lines):
        m = _FUNC.match(text)
        if m is None:
            continue
        param = re.compile(rf"(?<![\w.]){re.escape(m.group(3))}(?!\w)")
        for body in lines[i + 1 : i + 40]:
            if body.strip() and len(body) - len(body.lstrip()) <= len(m.group(1)):
                break  # the function ended
            if any(param.search(body, c.end()) for c in _DETECTOR_CALL.finditer(body)):
                found.append(re.escape(m.group(2)))
                break
    return re.compile(rf"(?<![\w.])(?:{'|'.join(found)})\s*\(" if found else r"(?!x)x")


# A test that expects the input to be refused: `assertRaises`, `pytest.raises`, `toThrow`,
# or an assertion naming the rejection ("invalid-test-id", "rejected", "blocked").
_EXPECTS_REFUSAL = rx(
    r"assertRaises|pytest\.raises|\.toThrow|\.rejects\b|assert\w*\s*\(?.*\b(?:invalid|"
    r"reject|refus|block|denied|deny|violation|forbidden|unsafe|malicious|dangerous)",
    re.IGNORECASE)
_TEST_DEF = rx(r"^\s*(?:async\s+)?def\s+test\w*|^\s*(?:it|test)\s*\(\s*['\"]")


def refused_in_test(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the string at 0-based `col` is the input of a test that expects it refused (a
    test of the skill's own guard), or None."""
    before = line.text[:col]
    if not (before.count('"') % 2 == 1 or before.count("'") % 2 == 1):
        return None
    cur: Line | None = line
    in_test = False
    for _ in range(15):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            break
        if _TEST_DEF.match(cur.text):
            in_test = True
            break
    if not in_test:
        return None
    # `with self.assertRaises(...):` just above, or an assertion just after.
    prev = st.neighbour(line, -1)
    if prev is not None and _EXPECTS_REFUSAL.search(prev.text):
        return "it is the input of a test that expects it to be refused"
    cur = line
    for _ in range(5):
        if _EXPECTS_REFUSAL.search(cur.text):
            return "it is the input of a test that expects it to be refused"
        cur = st.neighbour(cur, 1)
        if cur is None or _TEST_DEF.match(cur.text):
            break
    return None


# The command's output is thrown away, and the command is a test: `if security
# find-generic-password -s NAME >/dev/null 2>&1; then`, `gh auth token >/dev/null || exit`.
_DISCARDED = rx(r"(?:&>|>&|1?>)\s*/dev/null|\|\s*(?:true|:)\b|\bout-null\b|>\s*\$null",
                re.IGNORECASE)
_TESTED = rx(r"^\s*(?:if|elif|until|while|!)\s|\|\||&&|\bthen\b|\bif\s+!", re.IGNORECASE)
_SUBST = rx(r"\$\(|`|=\s*\$|\bread\b|\|\s*(?!true\b|:)[\w-]")


def existence_check(text: str) -> str | None:
    """Why the command `text` (that reads a value) only checks that it exists: its output
    goes to /dev/null and it is tested (`if`, `&&`, `||`), so the value is never used."""
    if not _DISCARDED.search(text) or not _TESTED.search(text):
        return None
    # `TOKEN=$(gh auth token 2>/dev/null)` keeps stdout: only stderr was thrown away.
    if _SUBST.search(text.split("/dev/null")[0]) and not re.search(r"(?<!2)>\s*/dev/null|&>",
                                                                  text):
        return None
    return "it only checks that the item exists (the value goes to /dev/null)"


def comment_label(st: SecurityText, line: Line) -> str | None:
    """A comment on the line, or on the line above it, that marks a negative example."""
    own = COMMENT.search(line.text)
    if own and NEGATIVE_LABEL.search(own.group(1)):
        return f'its comment says "{own.group(1).strip()[:40]}"'
    prev = st.neighbour(line, -1)
    if prev is not None:
        comment = COMMENT.match(prev.text.strip())
        if comment and NEGATIVE_LABEL.search(comment.group(1)):
            return f'the comment above it says "{comment.group(1).strip()[:40]}"'
    return None
