"""Pieces of the with/without side-by-side (`widgets.compare_view`): each side's score line
and the diff of the two final answers."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from skillforge.models.trial import DEFAULT_METRICS
from skillforge.report import facts as F
from skillforge.trajectory.compare_data import Attempt, answer_diff
from widgets.heatmap import SHORT

SCORE_METRICS = (*DEFAULT_METRICS, "grader", "overall")


class ScoreLine:
    """This side's scores (six metrics, grader, overall), green where better than the other
    side, red where worse; wrapped between metrics, never inside one."""

    def __init__(self, mine: Attempt | None, other: Attempt | None) -> None:
        self.items: list[tuple[str, str, str]] = []
        for m in SCORE_METRICS:
            v = mine.score(m) if mine else None
            o = other.score(m) if other else None
            style = "" if v is None or o is None or abs(v - o) < 1e-9 else \
                "bold green" if v > o else "bold red"
            self.items.append((SHORT.get(m, m), F.num(v, 2), style))

    @property
    def plain(self) -> str:
        return "  ".join(f"{k} {v}" for k, v, _ in self.items)

    def __rich_console__(self, console, options):
        text = Text()
        used = 0
        for key, value, style in self.items:
            size = len(key) + 1 + len(value)
            if used and used + 2 + size > options.max_width:
                text.append("\n")
                used = 0
            elif used:
                text.append("  ")
                used += 2
            text.append(f"{key} ", style="dim")
            text.append(value, style=style)
            used += size
        yield text


def diff_text(before: str, after: str, before_label: str = "baseline") -> Group:
    """The two final answers, each whole, with the words only it has highlighted."""
    parts = answer_diff(before, after)
    old, new = Text(), Text()
    old.append(f"− {before_label:<12}", style="bold red")
    new.append("+ with skill  ", style="bold green")
    for op, chunk in parts:
        if op in ("equal", "delete"):
            old.append(chunk, style="bold red reverse" if op == "delete" else "")
        if op in ("equal", "insert"):
            new.append(chunk, style="bold green reverse" if op == "insert" else "")
    if not before:
        old.append("(no final answer)", style="dim")
    if not after:
        new.append("(no final answer)", style="dim")
    same = Text("The final answers are identical.", style="dim") if before == after else Text()
    return Group(old, new, same)
