"""The trajectory view's colours: its component classes and their default styles.

`RowPainter` (widgets.trajectory_draw) looks each style up by name (`header`, `cursor`,
`activation-badge`...) through the view's component classes, so a theme or an app's CSS can
restyle any part of a row: `TrajectoryView > .trajectory-view--error { color: red; }`.
"""

from __future__ import annotations

STYLE_NAMES = (
    "header", "cursor", "user", "agent", "system", "meta", "text", "reasoning", "call", "obs",
    "body", "activation", "activation-badge", "other-skill-badge", "script", "script-badge",
    "error", "error-badge",
)
COMPONENT_CLASSES = {f"trajectory-view--{name}" for name in STYLE_NAMES}

TRAJECTORY_CSS = """
    TrajectoryView {
        height: 1fr; border: round $panel; scrollbar-gutter: stable; overflow-x: hidden;
        background: $surface;
    }
    TrajectoryView:focus { border: round $accent; }
    TrajectoryView > .trajectory-view--header { background: $panel; color: $foreground; }
    TrajectoryView > .trajectory-view--cursor { color: $accent; }
    TrajectoryView > .trajectory-view--user { color: $text-secondary; text-style: bold; }
    TrajectoryView > .trajectory-view--agent { color: $text-primary; text-style: bold; }
    TrajectoryView > .trajectory-view--system { color: $foreground-muted; text-style: bold; }
    TrajectoryView > .trajectory-view--meta { color: $foreground-muted; }
    TrajectoryView > .trajectory-view--text { color: $foreground; }
    TrajectoryView > .trajectory-view--reasoning { color: $foreground-muted; text-style: italic; }
    TrajectoryView > .trajectory-view--call { color: $foreground; }
    TrajectoryView > .trajectory-view--obs { color: $foreground-muted; }
    TrajectoryView > .trajectory-view--body { color: $foreground-muted; }
    TrajectoryView > .trajectory-view--activation { color: $text-accent; text-style: bold; }
    TrajectoryView > .trajectory-view--activation-badge {
        background: $accent; color: $background; text-style: bold;
    }
    TrajectoryView > .trajectory-view--other-skill-badge {
        background: $accent-muted; color: $foreground;
    }
    TrajectoryView > .trajectory-view--script { color: $text-success; text-style: bold; }
    TrajectoryView > .trajectory-view--script-badge {
        background: $success; color: $background; text-style: bold;
    }
    TrajectoryView > .trajectory-view--error { color: $text-error; }
    TrajectoryView > .trajectory-view--error-badge {
        background: $error; color: $background; text-style: bold;
    }
    """
