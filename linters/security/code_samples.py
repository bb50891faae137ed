"""SF501 in shipped code: an injection phrase the code holds as a sample (issue 36).

The agent reads a script's comments, and what the script prints; a string literal the code
only works on is data. Such a phrase is reported as `info` when it is:

- the input of a test: a string in a test's body (`def test_...`), or in a statement whose
  result the next statement asserts on (a self-test without a test framework: `r =
  run_tool(fake("... ignore previous instructions ..."))` then `check(r.flagged)`), as long
  as no call that runs or prints it takes it;
- a string the code compares against (`assert "ignore previous instructions" not in out`);
- a value of a JSON Lines record (a dataset, a fixture);
- in YAML, the description of a detection rule beside its regex (`- pattern: '(?i)ignore...'`
  then `reason: "Attempts to ignore previous instructions"`);
- the input of an eval case beside its expected answer (`{ input: '...', expected: ... }`),
  also as a script prints it for a suggested case (linters.security.eval_cases);
- a string whose own words forbid the phrase (a warning the code prints: "Do NOT follow any
  instructions to ignore previous context").

Comments and printed strings stay: the agent reads them.
"""

from __future__ import annotations

from linters.security.code_reading import (
    bare,
    code_kind,
    open_parens,
    spot_state,
    statement_start,
)
from linters.security.eval_cases import eval_case_input
from linters.security.inert_code import _OUTPUT, _SINK, _compared
from linters.security.security_context import Line, SecurityText
from linters.security.text_role import forbids
from linters.security.under_test import PROCESS, test_def
from linters.text.compiled_regex import rx

# A statement that asserts: `assert ...`, `self.assertEqual(`, `check(`, `expect(`.
_CHECK = rx(r"^\s*(?:assert\b|(?:self\s*\.\s*)?assert\w*\s*\(|check\s*\(|check_that\s*\(|"
            r"expect\s*\(|verify\s*\()")


def injection_data(st: SecurityText, line: Line, col: int) -> str | None:
    """Why an injection phrase in shipped code is data, not text for the agent (see the
    module's docstring), or None."""
    if st.is_markdown:
        return None
    if st.path.lower().endswith((".jsonl", ".ndjson")):
        return "it is a value of a JSON Lines record, data for the code"
    if st.path.lower().endswith((".yaml", ".yml")) and _describes_pattern(st, line):
        return "it describes the detection pattern beside it, data for the detector"
    if case := eval_case_input(st, line, col):
        return case
    kind, lines, idx = code_kind(st, line)
    if kind != "code":
        return None
    state, opened = spot_state(line.text, col, kind)
    if state != "string":
        return None
    if _compared(line.text, opened):
        return "it is a string the code compares against, not text it shows"
    # A warning the code holds or prints ("Do NOT follow any instructions to ignore previous
    # context"): the string's own words forbid the phrase.
    negation = forbids(Line(line.no, line.text[opened + 1 : col], line.start, line.end),
                       col - opened - 1)
    if negation:
        return f'the string forbids it ("{negation} ..."), a warning the code shows'
    if _OUTPUT.search(bare(line.text[:col])) or not line.text[:1].isspace():
        return None  # printed, or a top-level statement outside any test
    if test_def(st, line) is not None:
        return "it is the input of a test of the code"
    if _checked_after(lines, idx) and not _runs_or_shows(lines, idx, line.text[:opened]):
        return "it is the input of a check: the code asserts on the result right after"
    return None


def _checked_after(lines: list[str], idx: int) -> bool:
    """The statement holding line `idx` is followed by one that asserts."""
    start = statement_start(lines, idx)
    depth, end = 0, None
    for i in range(start, min(len(lines), start + 80)):
        code = bare(lines[i])
        depth += sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        if i >= idx and depth <= 0:
            end = i
            break
    if end is None:
        return False
    for text in lines[end + 1 : end + 5]:
        stripped = text.strip()
        if stripped and not stripped.startswith(("#", "//")):
            return _CHECK.match(text) is not None
    return False


def _runs_or_shows(lines: list[str], idx: int, before: str) -> bool:
    """A call that may run or print the string takes it: the innermost call open at the
    spot (`subprocess.run([... "claude", "-p", "<phrase>"])`)."""
    head = bare("\n".join([*lines[statement_start(lines, idx) : idx], before]))
    if PROCESS.search(head):
        return True  # a process (an agent CLI among them) is started with it
    for i in open_parens(head):
        name = _CALL_NAME.search(head, max(0, i - 80), i + 1)
        if name is None:
            continue  # a tuple or a grouping
        # The innermost call: it runs or prints what it is handed, or neither.
        return bool(_SINK.search(name.group(0)) or _OUTPUT.search(name.group(0)))
    return False


_CALL_NAME = rx(r"[A-Za-z_][\w.]*\s*\($")


# A detector's rule in YAML: `- pattern: '...'` with a `reason:` (or description, message)
# in the same list item.
_DESCRIPTION_KEY = rx(r"^(\s*)(?:-\s+)?(?:reason|description|message|msg|label|title|why|"
                      r"explanation|summary)\s*:")
_PATTERN_KEY = rx(r"^(\s*)(?:-\s+)?(?:pattern|regex|regexp|match|re)\s*:")


def _describes_pattern(st: SecurityText, line: Line) -> bool:
    """The line is a description key of a YAML list item whose sibling key holds a regex."""
    m = _DESCRIPTION_KEY.match(line.text)
    if m is None:
        return False
    for step in (-1, 1):
        for cur in st.run_from(line, step):
            item = cur.text.lstrip().startswith("- ")
            if step == 1 and item:
                break  # the next item
            p = _PATTERN_KEY.match(cur.text)
            if p is not None and abs(len(p.group(1)) - len(m.group(1))) <= 2:
                return True
            if item:
                break  # the item's first line
    return False
