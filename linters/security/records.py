"""Recorded output: text a data file keeps as the record of what an agent, a model or a
command produced (issue 36).

Eval results, test fixtures and transcripts store an agent's answer under a key that says
so (`"agent_output": "... curl http://169.254.169.254/ ..."`, `response:`, `transcript:`,
`stdout:`). Such a value is a record of what was said or printed, read back by a grader: text
about the pattern, not an instruction the agent is given nor code the skill runs. What
decides is the key that holds the value, not the file's name: the same command under a
`"run"` or `"command"` key of the same file keeps its role. A secret in a record is still
leaked (`text_role.role_of` does not ask for SF504).
"""

from __future__ import annotations

import re

from linters.security.code_reading import code_kind, spot_state
from linters.security.security_context import Line, SecurityText
from linters.text.compiled_regex import rx

# A key naming what something produced: `agent_output`, `model_response`, `stdout`,
# `transcript`, `actual_output`, `completion`. A bare `result` or `value` is not: it may
# hold a setting.
RECORD_KEY = rx(
    r"(?:(?:agent|model|assistant|llm|ai|raw|actual|final|observed|tool|command|cmd|run|"
    r"generated|captured|recorded)[_.\- ]?)?"
    r"(?:outputs?|responses?|transcripts?|completions?|stdout|stderr|replies|reply|answers?|"
    r"generation)",
    re.IGNORECASE,
)
# The key just before a quoted value: `"agent_output": "`, `response: '`, `'stdout' => "`.
_KEY_BEFORE = rx(r"""["']?([A-Za-z_][\w.\- ]{0,40}?)["']?\s*(?::|=>?)\s*$""")
_YAML_KEY = rx(r"""^(\s*)(?:-\s+)?["']?([A-Za-z_][\w.\-]{0,40})["']?\s*:(?:\s+|$)(.*)$""")
_BLOCK_SCALAR = rx(r"^[|>][+-]?\d*\s*(?:#.*)?$")


def recorded_output(st: SecurityText, line: Line, col: int) -> str | None:
    """Why the spot at 0-based `col` is recorded output: it is the value of a key of a data
    text (JSON, YAML, a data block of Markdown) that names what something produced."""
    kind, lines, idx = code_kind(st, line)
    if kind != "data":
        return None
    state, opened = spot_state(line.text, col, kind)
    key = None
    if state == "string":
        m = _KEY_BEFORE.search(line.text[:opened])
        key = m.group(1) if m else None
    else:
        m = _YAML_KEY.match(line.text)
        if m and m.start(3) <= col:
            key = m.group(2)
        else:
            key = _block_owner(lines, idx)
    if key and RECORD_KEY.fullmatch(key.strip()):
        return f"it is the recorded `{key.strip()}` of a data record, what was produced, not " \
               "an instruction"
    if _FIXTURE_FILE.search(st.path) and not (key and _RUN_KEY.search(key)):
        return f"it is a value of `{st.path}`, a JSON test fixture: data a test loads, " \
               "such as a recorded response"
    return None


# A JSON document in a test-fixture folder (`tests/fixtures/`, `__fixtures__/`, `testdata/`):
# a recorded response or sample input a test reads. A key that names a command to run keeps
# its role there as anywhere (`"run": "curl ... | sh"`).
_FIXTURE_FILE = rx(r"(?:^|/)(?:__)?(?:fixtures?|testdata)(?:__)?/(?:[^/]+/)*[^/]+\.jsonl?$",
                   re.IGNORECASE)
_RUN_KEY = rx(r"^(?:run|cmd|command|commands|script|scripts|exec|shell|install|setup|steps?|"
              r"hooks?|pre\w*|post\w*)$", re.IGNORECASE)


def _block_owner(lines: list[str], idx: int) -> str | None:
    """The key of the YAML block scalar (`output: |`) whose text holds line `idx`."""
    own = len(lines[idx]) - len(lines[idx].lstrip())
    for j in range(idx - 1, max(-1, idx - 400), -1):
        text = lines[j]
        if not text.strip():
            continue
        indent = len(text) - len(text.lstrip())
        if indent >= own:
            continue
        m = _YAML_KEY.match(text)
        if m and _BLOCK_SCALAR.match(m.group(3).strip()):
            return m.group(2)
        return None
    return None
