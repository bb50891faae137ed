"""Editing a list of strings in place: one line per item, add, remove and reorder.

Enter in an item adds a new item below it; Backspace in an empty item removes it;
Alt+↑ / Alt+↓ move the item; the small buttons do the same with the mouse. Every change
posts `ListEditor.Changed` with the whole list.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input


class ItemInput(Input):
    """One item; Backspace in an empty item asks for the item to be removed."""

    class RemoveMe(Message):
        def __init__(self, row: ItemRow) -> None:
            super().__init__()
            self.row = row

    def action_delete_left(self) -> None:
        if not self.value and isinstance(self.parent, ItemRow):
            self.post_message(self.RemoveMe(self.parent))
            return
        super().action_delete_left()


class ItemRow(Horizontal):
    """An item input and its move/remove buttons."""

    def __init__(self, value: str, placeholder: str) -> None:
        super().__init__(classes="list-item")
        # Made here, not in compose: `input` must work before the row has been composed
        # (the form reads the items right after mounting a new list).
        self._input = ItemInput(value, placeholder=placeholder, compact=True,
                                classes="list-item-input")

    def compose(self) -> ComposeResult:
        yield self._input
        yield Button("↑", compact=True, classes="list-up", tooltip="Move up (alt+↑)")
        yield Button("↓", compact=True, classes="list-down", tooltip="Move down (alt+↓)")
        yield Button("✕", compact=True, classes="list-remove", tooltip="Remove")

    @property
    def input(self) -> ItemInput:
        return self._input


class ListEditor(Vertical):
    """A list of strings (files, expected behaviour...) edited item by item."""

    DEFAULT_CSS = """
    ListEditor { height: auto; }
    ListEditor > .list-item { height: 1; margin-bottom: 0; }
    ListEditor .list-item-input { width: 1fr; }
    ListEditor .list-item > Button { width: 3; min-width: 3; }
    ListEditor > .list-add { width: auto; min-width: 10; margin-top: 0; }
    """
    BINDINGS = [
        Binding("alt+up", "move(-1)", "Move item up", id="list.move_up", show=False),
        Binding("alt+down", "move(1)", "Move item down", id="list.move_down", show=False),
    ]

    class Changed(Message):
        """The list changed (an item typed, added, removed or moved)."""

        def __init__(self, editor: ListEditor, items: list[str], typed: bool = False) -> None:
            super().__init__()
            self.editor = editor
            self.items = items
            self.typed = typed  # True: text typed in an item; False: added, removed, moved

        @property
        def control(self) -> ListEditor:
            return self.editor

    def __init__(self, items: list[str] | None = None, *, placeholder: str = "",
                 add_label: str = "+ add", **kwargs) -> None:
        super().__init__(**kwargs)
        self._initial = list(items or [])
        self._placeholder = placeholder
        self._add_label = add_label
        self._last = list(self._initial)  # the items as last loaded or reported

    def compose(self) -> ComposeResult:
        for item in self._initial:
            yield ItemRow(item, self._placeholder)
        yield Button(self._add_label, compact=True, classes="list-add")

    # --- data -----------------------------------------------------------------------------

    @property
    def rows(self) -> list[ItemRow]:
        return list(self.query_children(ItemRow))

    @property
    def items(self) -> list[str]:
        """The items as shown, in order."""
        return [row.input.value for row in self.rows]

    async def set_items(self, items: list[str]) -> None:
        """Replace every item (no Changed message: this is a load, not an edit).

        Rows already there are reused (only their text changes): mounting a row costs a
        compose and a layout, and moving between cases would pay it for every item."""
        self._last = list(items)
        rows = self.rows
        for row, item in zip(rows, items, strict=False):
            if row.input.value != item:
                row.input.value = item
        if len(rows) > len(items):
            await self.remove_children(rows[len(items):])
        elif len(items) > len(rows):
            new = [ItemRow(item, self._placeholder) for item in items[len(rows):]]
            await self.mount_all(new, before=self.query_one(".list-add"))

    async def add_item(self, after: ItemRow | None = None, value: str = "") -> ItemRow:
        """Add an item (after `after`, else at the end) and focus it."""
        row = ItemRow(value, self._placeholder)
        if after is not None:
            await self.mount(row, after=after)
        else:
            await self.mount(row, before=self.query_one(".list-add"))
        row.input.focus()
        self._changed()
        return row

    async def remove_item(self, row: ItemRow) -> None:
        rows = self.rows
        index = rows.index(row)
        await row.remove()
        rest = self.rows
        if rest:
            rest[max(0, index - 1)].input.focus()
        else:
            self.query_one(".list-add", Button).focus()
        self._changed()

    def move_item(self, row: ItemRow, step: int) -> None:
        rows = self.rows
        index = rows.index(row)
        target = index + step
        if not 0 <= target < len(rows):
            return
        if step < 0:
            self.move_child(row, before=rows[target])
        else:
            self.move_child(row, after=rows[target])
        self._changed()

    def _changed(self, typed: bool = False) -> None:
        items = self.items
        if items == self._last:
            return  # e.g. inputs reporting the values they were mounted with
        self._last = items
        self.post_message(self.Changed(self, items, typed))

    def _row_of(self, widget) -> ItemRow | None:
        node = widget
        while node is not None and node is not self:
            if isinstance(node, ItemRow):
                return node
            node = node.parent
        return None

    # --- events ---------------------------------------------------------------------------

    @on(Input.Changed, ".list-item-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._changed(typed=True)

    @on(Input.Submitted, ".list-item-input")
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        row = self._row_of(event.input)
        await self.add_item(after=row)

    @on(ItemInput.RemoveMe)
    async def _remove_me(self, event: ItemInput.RemoveMe) -> None:
        event.stop()
        await self.remove_item(event.row)

    @on(Button.Pressed)
    async def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.has_class("list-add"):
            await self.add_item()
            return
        row = self._row_of(event.button)
        if row is None:
            return
        if event.button.has_class("list-remove"):
            await self.remove_item(row)
        elif event.button.has_class("list-up"):
            self.move_item(row, -1)
        elif event.button.has_class("list-down"):
            self.move_item(row, 1)

    def action_move(self, step: int) -> None:
        row = self._row_of(self.screen.focused)
        if row is not None:
            self.move_item(row, step)
            row.input.focus()
