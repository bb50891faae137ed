"""Serve the workbench in a browser through textual-serve (each tab runs its own session)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from textual_serve.server import Server


def serve_workbench(root: Path, host: str, port: int) -> None:
    """Run `python -m skillforge ROOT` behind a textual-serve web server until Ctrl+C."""
    command = f"{shlex.quote(sys.executable)} -m skillforge {shlex.quote(str(root))}"
    Server(command, host=host, port=port, title="skillforge").serve()
