"""The selected finding: its rule's explanation and the file around the line."""

from __future__ import annotations

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from skillforge.models.findings import Finding, Rule
from skillforge.models.fixes import Fix

CONTEXT_LINES = 4
LEXERS = {".md": "markdown", ".py": "python", ".sh": "bash", ".bash": "bash", ".json": "json",
          ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".js": "javascript", ".ts": "typescript"}


def snippet(path: str, text: str, line: int | None, theme: str) -> Syntax | Text:
    """The lines around `line`, highlighted, with the line itself marked."""
    lines = text.splitlines()
    if not lines:
        return Text("(empty file)", style="dim")
    target = min(max(line or 1, 1), len(lines))
    start = max(1, target - CONTEXT_LINES)
    end = min(len(lines), target + CONTEXT_LINES)
    lexer = LEXERS.get("." + path.rsplit(".", 1)[-1].lower() if "." in path else "", "text")
    return Syntax(
        "\n".join(lines[start - 1 : end]),
        lexer,
        theme=theme,
        line_numbers=True,
        start_line=start,
        highlight_lines={target} if line else set(),
        word_wrap=True,
    )


def fix_text(fix: Fix, diff: str) -> Text:
    """The fix's heading: what it does, how safe it is, the key that applies it."""
    out = Text()
    out.append(f"Fix ({fix.safety}): ", style="bold green" if fix.safety == "safe" else "bold yellow")
    out.append(fix.title)
    out.append("  f applies it" + ("" if fix.safety == "unsafe" else ", F every safe fix"), style="dim")
    return out


class FindingDetail(VerticalScroll):
    """Why a finding matters (the rule's explanation) and where it is (the source)."""

    HELP = """## Detail
The highlighted finding: the rule's explanation and a fixed example, and the file around
the line. Press **e** to open the file in `$EDITOR` at that line. When the finding has a
fix, its diff is shown: **f** applies it, **F** applies every safe fix of the skill, and
**ctrl+z** puts the files back as they were before the last fix.
"""
    DEFAULT_CSS = """
    FindingDetail { height: 1fr; border: round $panel; padding: 0 1; }
    FindingDetail:focus { border: round $accent; }
    FindingDetail > Static { width: 1fr; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "Detail"
        self._body = Static(Text("Select a finding to see why it matters.", style="dim"))
        self._shown: tuple | None = None  # what show() was last given

    def compose(self):
        yield self._body

    def show(self, finding: Finding | None, rule: Rule | None, text: str | None, dark: bool = True,
             fix: tuple[Fix, str] | None = None) -> None:
        # Shown already (the same finding after a save that changed nothing it shows): an
        # update would lay the screen out again and scroll the author back to the top.
        key = (finding, rule.id if rule else None, text, dark, fix)
        if key == self._shown:
            return
        self._shown = key
        if finding is None:
            self._body.update(Text("No finding here: nothing to fix in this view.", style="dim"))
            self.border_subtitle = ""
            return
        parts: list = []
        head = Text()
        head.append(f"{finding.rule}", style="bold")
        if finding.code:
            head.append(f" {finding.code}", style="bold")
        if rule is not None:
            head.append(f"  {rule.title}", style="bold")
        head.append(f"  ({finding.category.value}, {finding.severity.value})", style="dim")
        parts.append(head)
        parts.append(Text(finding.message))
        if fix is not None:
            parts.append(Text(""))
            parts.append(fix_text(*fix))
            parts.append(Syntax(fix[1].rstrip("\n") or "(no text change)", "diff",
                                theme="monokai" if dark else "default", word_wrap=True))
        if text is not None and finding.path:
            parts.append(Text(""))
            parts.append(snippet(finding.path, text, finding.line, "monokai" if dark else "default"))
        if rule is not None:
            parts.append(Text(""))
            parts.append(Text(rule.explanation, style="italic"))
            if rule.example:
                parts.append(Text("Fixed example:", style="bold"))
                parts.append(Text(rule.example, style="green"))
        self._body.update(Group(*parts))
        self.border_subtitle = finding.location()
        self.scroll_home(animate=False)
