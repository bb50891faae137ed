"""Readings from the twenty-fifth held-out part of issue 36: a Python template whose slots are
`<NAME>` angle placeholders (SF601, SF602).

A skill may ship `assets/handler-template.py` holding `def <handler_name>(<arg>: <type>):`
and tell the agent to add its own handlers by copying it. Python cannot parse the file as
written and is not meant to. In a file that says it is a template (its name, a `templates/`
folder, or its own comment saying to replace a `<slot>`), a `<NAME>` standing where Python
expects an operand is a slot: the file is checked with it filled by a name of the same
length. A template that imports nothing is a fragment to paste into a file that defines
what it uses, so ruff's undefined names there are warnings.

Every skill text here is written for this file. The template readings failed before (an
SF601 error); each twin keeps its error: a real syntax error elsewhere in the template (an
unclosed f-string), `x = <y>` in a script that is no template, a template that imports and
misspells a name, and comparisons (`a < b > c`, `a<b>c`) that are never slots.
"""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from linters.scripts.template_slots import code_slots, filled_text
from tests.hypothesis_budget import examples
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = """\
# Webhook handlers

Start from `assets/server.py`. For each event the user wants handled, add a handler
shaped like `assets/handler-template.py` to `server.py`.
"""

_HANDLER = '''\
@app.route("/hooks/<event>", methods=["POST"])
def <handler_name>(<payload>: <payload_type>) -> dict:
    """Handle one <event> delivery."""
    # check the signature header first
    body = verify(request)
    if not body:
        return {"ok": False}
    return {"ok": True, "event": "<event>"}
'''

_SERVER = '''\
from flask import Flask, request

app = Flask(__name__)


def verify(req):
    return req.get_json(silent=True)
'''


def _skill(tmp_path, handler: str = _HANDLER, name: str = "assets/handler-template.py",
           body: str = _BODY):
    return make_skill(tmp_path, body, {name: handler, "assets/server.py": _SERVER})


def test_an_angle_slot_template_is_not_a_broken_script(tmp_path):
    """Before: SF601 error on line 2 (`def <handler_name>(`)."""
    skill = _skill(tmp_path)
    assert severe(skill, "SF601") == []
    assert found(skill, "SF601") == [("assets/handler-template.py", 2, "info")]


def test_a_fragment_template_leaves_undefined_names_to_its_host(tmp_path):
    """It imports nothing: `app`, `verify` and `request` are `server.py`'s names."""
    skill = _skill(tmp_path)
    assert severe(skill, "SF602", external=True) == []


def test_a_templates_folder_and_a_fill_comment_declare_a_template(tmp_path):
    skill = _skill(tmp_path, name="templates/handler.py")
    assert severe(skill, "SF601") == []
    commented = "# Replace <handler_name> and <payload> with your names.\n" + _HANDLER
    other = tmp_path / "other"
    skill = _skill(other, commented, name="assets/handler.py")
    assert severe(skill, "SF601") == []


def test_an_unclosed_f_string_in_the_template_stays_an_error(tmp_path):
    handler = _HANDLER.replace('"event": "<event>"}', '"event": f"{body[\'type\']}}')
    skill = _skill(tmp_path, handler)
    assert severe(skill, "SF601") == [("assets/handler-template.py", 8, "error")]


def test_an_angle_value_in_a_script_that_is_no_template_stays_an_error(tmp_path):
    script = "import sys\n\nlimit = <max_items>\nprint(limit, sys.argv)\n"
    skill = make_skill(tmp_path, "# Lister\n\nRun `python scripts/list.py`.\n",
                       {"scripts/list.py": script})
    assert severe(skill, "SF601") == [("scripts/list.py", 3, "error")]


def test_a_template_that_imports_keeps_its_misspelt_names(tmp_path):
    handler = "import json\n\n<name> = jsn.loads(<raw_text>)\n"
    skill = _skill(tmp_path, handler)
    assert severe(skill, "SF601") == []
    assert severe(skill, "SF602", external=True) == [("assets/handler-template.py", 3, "error")]


def test_comparisons_in_a_template_are_not_slots(tmp_path):
    handler = ("def <name>(a: int, b: int, c: int) -> bool:\n"
               "    return a < b > c or a<b>c or (a) <b> c\n")
    path = "assets/check-template.py"
    assert [s.text for s in code_slots(handler, path)] == ["<name>"]
    broken = handler + "x = (a <b> c\n"
    skill = _skill(tmp_path, broken, name=path)
    assert severe(skill, "SF601") == [(path, 3, "error")]


def test_angle_slots_are_read_only_in_a_template(tmp_path):
    text = "def <name>():\n    pass\n"
    assert code_slots(text, "scripts/run.py") == ()
    assert code_slots(text) == ()
    assert [s.name for s in code_slots(text, "scripts/run_template.py")] == ["__name"]


_NAMES = st.text("abcxyz_", min_size=1, max_size=8).map(lambda n: "v" + n)


@settings(max_examples=examples(300))
@given(a=_NAMES, b=_NAMES, c=_NAMES, slot=_NAMES)
def test_comparisons_never_become_slots_and_slots_keep_columns(a, b, c, slot):
    """In a template, `a < b > c` and `a<b>c` are never read as slots, while a `<slot>` where
    a name belongs is filled by a name of its own length, so the file parses and its lines
    keep their lengths."""
    text = (f"def <{slot}>({a}: int) -> bool:\n"
            f"    return {a} < {b} > {c} or {a}<{b}>{c}\n")
    path = "templates/check.py"
    assert [s.text for s in code_slots(text, path)] == [f"<{slot}>"]
    filled = filled_text(text, path)
    assert [len(x) for x in filled.splitlines()] == [len(x) for x in text.splitlines()]
    assert filled.splitlines()[1] == text.splitlines()[1]
    ast.parse(filled)
