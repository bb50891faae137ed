"""The form for one eval case: every field, with its problem shown under it as you type.

The form holds no model: `load(case)` fills it, and every edit is posted as
`CaseForm.FieldEdited(field, value)` with the value already converted to the field's type
(or with `error` set when the text cannot be converted, e.g. `reference_turns: "x"`).
`show_problems(...)` puts the model's validation messages next to the fields.

Those messages arrive a moment after the keys, and a key bound with priority (ctrl+s, ctrl+z)
is handled before them. `take_edits()` hands over what the fields hold right now, for an
action that must see every key typed before it; each message carries a sequence number so
that the ones posted before a `take_edits()` can be told apart (they are stale then).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, TextArea

from skillforge.models.evals import KINDS, EvalCase
from widgets.evals_checks import CaseProblems
from widgets.evals_messages import EditExternally
from widgets.focus_border import FocusWithinBorder
from widgets.list_editor import ListEditor
from widgets.steady import show_text

TEXT_AREAS = ("prompt", "ground_truth")
LISTS = ("files", "expected_behavior")
INPUTS = ("id", "expected_skill", "expected_script", "grader", "notes", "reference_turns")
OPTIONAL = ("expected_skill", "expected_script", "ground_truth", "grader", "notes")
HINTS = {
    "id": "unique name of the case",
    "kind": "explicit, implicit, contextual or negative",
    "should_trigger": "for trigger evals: should this request open the skill?",
    "prompt": "the task given to the agent",
    "files": "input files copied into the workspace, e.g. evals/files/sales.csv",
    "expected_skill": "the skill that should be used (empty for negative cases)",
    "expected_script": "a script the agent should run, e.g. scripts/summarize.py",
    "ground_truth": "the correct outcome, for the judge",
    "expected_behavior": "assertions checked against the trajectory, one per item",
    "grader": "command or script scoring the workspace (0..1)",
    "notes": "anything for the next reader",
    "reference_turns": "turns a good run needs (default 10)",
}
ORDER = ("id", "kind", "should_trigger", "prompt", "files", "expected_skill", "expected_script", "ground_truth",
         "expected_behavior", "grader", "notes", "reference_turns")


# should_trigger is tri-state: unset (the blank), true or false, written as JSON booleans.
TRIGGER_CHOICES = (("true: should open the skill", True), ("false: should not", False))

EMPTY_HINT = "No case selected: pick one on the left, or add one with a (or ctrl+n)."


def list_text(items: list[str]) -> str:
    """A list field as text for $EDITOR: one item per line."""
    return "\n".join(items)


class CaseForm(FocusWithinBorder, VerticalScroll):
    """Every field of the selected case, with inline validation."""

    HELP = """## Case
Every field of the selected case. Edits apply as you type and each field shows its problem
right under it (the same check saving does). Lists (files, expected behaviour): **Enter**
adds an item, **Backspace** in an empty item removes it, **Alt+↑/↓** moves it.
**Ctrl+O** opens the focused field in `$EDITOR` (lists one item per line).
"""
    DEFAULT_CSS = """
    CaseForm { height: 1fr; border: round $panel; padding: 0 1; }
    CaseForm .field { height: auto; margin-bottom: 1; }
    CaseForm .field-head { height: 1; }
    CaseForm .field-name { width: auto; text-style: bold; }
    CaseForm .field-alias { width: auto; color: $foreground-muted; margin-left: 1; }
    CaseForm .field-hint { width: 1fr; color: $foreground-muted; margin-left: 2; text-overflow: ellipsis; text-wrap: nowrap; }
    CaseForm .field-error { color: $text-error; display: none; height: auto; }
    CaseForm .field.-invalid .field-error { display: block; }
    CaseForm .field.-invalid .field-name { color: $text-error; }
    CaseForm TextArea { height: auto; min-height: 2; max-height: 8; }
    CaseForm #field-ground_truth { max-height: 6; }
    CaseForm Input, CaseForm Select { width: 1fr; }
    CaseForm #case-problems { color: $text-error; display: none; height: auto; }
    CaseForm #case-extra { color: $foreground-muted; height: auto; }
    CaseForm #case-empty { color: $foreground-muted; }
    """
    BINDINGS = [
        Binding("ctrl+o", "edit_external", "Edit in $EDITOR", id="evals.edit_external"),
    ]

    class FieldEdited(Message):
        """The author changed a field; `value` has the field's type, or `error` says why
        the text could not be converted (the model then keeps its old value)."""

        def __init__(self, field: str, value: Any, error: str | None = None,
                     case: EvalCase | None = None, typed: bool = False, seq: int = 0) -> None:
            super().__init__()
            self.field = field
            self.value = value
            self.error = error
            self.case = case  # the case the form showed when the edit was made
            self.typed = typed  # typing: merges with the field's previous edit for undo
            self.seq = seq  # the form's count of edits posted, this one included

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Case"
        self.case: EvalCase | None = None
        self._int_id = False
        self._loading = False
        self._shown: dict[str, tuple[Any, str | None]] = {}  # field -> last loaded/posted
        self._touched: set[str] = set()  # fields edited since the case was loaded
        self.seq = 0  # edits posted so far (FieldEdited.seq)

    def compose(self) -> ComposeResult:
        yield Static(EMPTY_HINT, id="case-empty")
        yield Static(id="case-problems")
        for name in ORDER:
            with Vertical(classes="field", id=f"row-{name}"):
                with Horizontal(classes="field-head"):
                    yield Label(name, classes="field-name")
                    yield Label("", classes="field-alias", id=f"alias-{name}")
                    yield Label(HINTS[name], classes="field-hint")
                yield self._editor(name)
                yield Static("", classes="field-error", id=f"error-{name}")
        yield Static(id="case-extra")

    def _editor(self, name: str) -> Widget:
        wid = f"field-{name}"
        if name == "kind":
            return Select([(k, k) for k in KINDS], prompt="(not set: counts as explicit)",
                          allow_blank=True, compact=True, id=wid)
        if name == "should_trigger":
            return Select(TRIGGER_CHOICES, prompt="(not set)", allow_blank=True, compact=True,
                          id=wid)
        if name in TEXT_AREAS:
            return TextArea(soft_wrap=True, compact=True, show_line_numbers=False, id=wid,
                            tab_behavior="focus")
        if name in LISTS:
            return ListEditor(placeholder=HINTS[name], id=wid)
        if name == "reference_turns":
            return Input(compact=True, type="integer", placeholder="10", id=wid)
        return Input(compact=True, placeholder=HINTS[name], id=wid)

    def on_mount(self) -> None:
        self._set_visible(False)

    def _set_visible(self, has_case: bool) -> None:
        self.query_one("#case-empty").display = not has_case
        for row in self.query(".field"):
            row.display = has_case
        self.query_one("#case-extra").display = has_case

    # --- filling --------------------------------------------------------------------------

    async def load(self, case: EvalCase | None, empty: str = "") -> None:
        """Show `case` (None: an empty form saying `empty`, why there is no case)."""
        self.case = case
        self._touched.clear()
        self._set_visible(case is not None)
        if case is None:
            self.border_subtitle = ""
            self._set_label("#case-empty", empty or EMPTY_HINT)
            return
        self._loading = True
        # One layout for the whole case, not one per field: the old case must not linger.
        with self.app.batch_update():
            try:
                self._int_id = isinstance(case.id, int)
                for name in ORDER:
                    await self._fill(name, getattr(case, name))
                    self._shown[name] = self.value_of(name)
                    alias = case.field_names.get(name)
                    self._set_label(f"#alias-{name}",
                                    f"(as {alias!r})" if alias and alias != name else "")
                extra = ", ".join(case.extra)
                self._set_label("#case-extra",
                                f"Other fields, kept as they are: {extra}" if extra else "")
                self.show_case_title(case)
            finally:
                self._loading = False

    def release(self) -> None:
        """The case shown is about to be replaced (undo, another case selected): edits of
        the fields until the next `load` are dropped, not applied to the set."""
        self.case = None

    def take_edits(self) -> tuple[EvalCase | None, dict[str, tuple[Any, str | None]], int]:
        """The case shown, the value of every field edited since it was loaded (as the
        fields hold it now, keys whose messages are still on the way included), and the
        `seq` of the last edit posted: messages up to it say nothing newer."""
        if self.case is None or self._loading:
            return None, {}, self.seq
        edits = {}
        for name in ORDER:
            value = self.value_of(name)
            if name in self._touched or value != self._shown.get(name):
                self._touched.add(name)
                self._shown[name] = edits[name] = value
        return self.case, edits, self.seq

    def _set_label(self, selector: str, text: str) -> None:
        widget = self.query_one(selector, Static)
        if str(widget.render()) != text:  # an update re-lays the form out, even unchanged
            widget.update(text)

    def show_case_title(self, case: EvalCase) -> None:
        """The border names the case as it is now (after its id is edited, too)."""
        self.border_subtitle = f"case {case.id!r}" + (f" · line {case.line}" if case.line else "")

    async def _fill(self, name: str, value: Any) -> None:
        widget = self.query_one(f"#field-{name}")
        if isinstance(widget, ListEditor):
            if widget.items != list(value or []):
                await widget.set_items(list(value or []))
        elif isinstance(widget, TextArea):
            text = value or ""
            if widget.text != text:
                widget.load_text(text)
        elif isinstance(widget, Select):
            allowed = (True, False) if name == "should_trigger" else KINDS
            wanted = value if value in allowed and value is not None else Select.NULL
            if widget.value != wanted:
                widget.value = wanted
        elif isinstance(widget, Input):
            text = "" if value is None else str(value)
            if widget.value != text:
                widget.value = text

    async def set_field_text(self, name: str, text: str) -> None:
        """Put `text` into a field as if typed (lists: one item per line) and post the edit."""
        if name in LISTS:
            items = [line for line in text.splitlines() if line.strip()]
            await self.query_one(f"#field-{name}", ListEditor).set_items(items)
            self._shown[name] = (items, None)
            self._touched.add(name)
            self.seq += 1
            self.post_message(self.FieldEdited(name, items, None, self.case, False, self.seq))
            return
        widget = self.query_one(f"#field-{name}")
        if isinstance(widget, TextArea):
            widget.load_text(text)
        elif isinstance(widget, Input):
            widget.value = text.strip("\n")
        self._post(name, typed=False)

    def show_problems(self, problems: CaseProblems | None, unconverted: dict[str, str]) -> None:
        """Show each field's problems under it; whole-case problems at the top."""
        fields = dict(problems.fields) if problems else {}
        for name, message in unconverted.items():
            fields[name] = [message]
        for name in ORDER:
            messages = fields.get(name, [])
            row = self.query_one(f"#row-{name}")
            row.set_class(bool(messages), "-invalid")
            show_text(self.query_one(f"#error-{name}", Static),
                      Text("\n".join(f"⚠ {m}" for m in messages)))
        case_level = fields.get("case", [])
        box = self.query_one("#case-problems", Static)
        box.display = bool(case_level)
        show_text(box, Text("\n".join(f"⚠ {m}" for m in case_level)))

    def error_text(self, name: str) -> str:
        """The problem shown under a field ('' when none); what the author sees."""
        row = self.query_one(f"#row-{name}")
        if not row.has_class("-invalid"):
            return ""
        return str(self.query_one(f"#error-{name}", Static).render())

    # --- edits ----------------------------------------------------------------------------

    def value_of(self, name: str) -> tuple[Any, str | None]:
        """The field's current value converted to its type, or (None, why) when it cannot be."""
        widget = self.query_one(f"#field-{name}")
        if isinstance(widget, ListEditor):
            return [item for item in widget.items if item.strip()], None
        if isinstance(widget, Select):
            return (None if widget.value is Select.NULL else widget.value), None
        text = widget.text if isinstance(widget, TextArea) else widget.value
        if name == "reference_turns":
            if not text.strip():
                return None, None
            try:
                return int(text), None
            except ValueError:
                return None, "reference_turns must be a whole number, like 10"
        if name == "id":
            return (int(text) if self._int_id and text.strip().isdigit() else text), None
        if name in OPTIONAL and not text.strip():
            return None, None
        return text, None

    def _post(self, name: str, typed: bool = True) -> None:
        if self._loading or self.case is None:
            return
        value, error = self.value_of(name)
        shown = (value, error)
        if self._shown.get(name) == shown:
            return  # e.g. a widget reporting the value it was just loaded with
        self._shown[name] = shown
        self._touched.add(name)
        self.seq += 1
        self.post_message(self.FieldEdited(name, value, error, self.case, typed, self.seq))

    def _field_of(self, widget: Widget | None) -> str | None:
        node = widget
        while node is not None and node is not self:
            if node.id and node.id.startswith("field-"):
                return node.id.removeprefix("field-")
            node = node.parent
        return None

    @on(Input.Changed)
    def _input_changed(self, event: Input.Changed) -> None:
        name = self._field_of(event.input)
        if name in INPUTS:
            event.stop()
            self._post(name)

    @on(TextArea.Changed)
    def _text_changed(self, event: TextArea.Changed) -> None:
        name = self._field_of(event.text_area)
        if name:
            event.stop()
            self._post(name)

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._post(self._field_of(event.select) or "kind", typed=False)

    @on(ListEditor.Changed)
    def _list_changed(self, event: ListEditor.Changed) -> None:
        event.stop()
        name = self._field_of(event.editor)
        if name:
            self._post(name, typed=event.typed)

    def action_edit_external(self) -> None:
        name = self._field_of(self.screen.focused) or "prompt"
        if self.case is None or name in ("kind", "should_trigger"):
            return
        widget = self.query_one(f"#field-{name}")
        if isinstance(widget, ListEditor):
            text = list_text(widget.items)
        elif isinstance(widget, TextArea):
            text = widget.text
        else:
            text = widget.value
        self.post_message(EditExternally(name, text, self.case.id))
