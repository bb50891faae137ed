"""A border in the accent colour while the focus is on a widget or inside it.

That is what `Form:focus-within { border: round $accent; }` says in CSS, but Textual answers
a `:focus-within` rule by restyling the widget's whole subtree on every focus change inside
it, and again when the focus leaves: every Tab between two fields of the case form, and
every tab switch away from the trial form, re-matched all their widgets against the
stylesheet (~100 ms each on this 2-core machine; tests/bench/bench_tui.py, case move and
tab switch). Here the border is an inline style set when the screen's focus changes, which
repaints the one widget.
"""

from __future__ import annotations

from textual.color import Color


class FocusWithinBorder:
    """Mixin for a Widget whose CSS draws its border in another colour: while the focus is
    on it or on a widget inside it, the border is `FOCUS_BORDER` in the theme's
    `FOCUS_COLOR` (following theme changes); otherwise the CSS border shows."""

    FOCUS_BORDER = "round"
    FOCUS_COLOR = "accent"
    _focus_border: tuple[str, Color] | None = None  # as last set

    def _on_mount(self) -> None:
        self.watch(self.screen, "focused", self._paint_focus_border)
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        # The theme's variables are computed when the app restyles for the new theme.
        self.call_after_refresh(self._paint_focus_border)

    def _paint_focus_border(self) -> None:
        if not self.is_attached:
            return
        border = None  # None: the inline border is cleared and the CSS one shows
        if self.has_focus_within:
            border = (self.FOCUS_BORDER, Color.parse(self.app.theme_variables[self.FOCUS_COLOR]))
        if border != self._focus_border:
            self._focus_border = border
            self.styles.border = border
