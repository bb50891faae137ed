"""Updates that leave the screen alone when nothing changes.

`Static.update` lays the whole screen out again (the text may need another size), about
10 ms at 100x30 with the Evals tab open. Views that re-render after every keystroke (the
case form's problems, the Evals title) mostly show what they showed already: `show_text`
skips those updates, so typing a prompt costs one layout per real change instead of a dozen.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

_SHOWN = "_steady_text"


def show_text(widget: Static, text: Text) -> None:
    """`widget.update(text)`, unless `widget` shows that text (characters and styles) already."""
    if getattr(widget, _SHOWN, None) == text:
        return
    setattr(widget, _SHOWN, text)
    widget.update(text)
