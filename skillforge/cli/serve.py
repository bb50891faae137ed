"""`skillforge serve [PATH]`: the same workbench in a browser, through textual-serve."""

from __future__ import annotations

import click

from skillforge.cli.common import require_paths


@click.command("serve")
@click.argument("path", default=".", type=click.Path())
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
def serve(path: str, host: str, port: int) -> None:
    """Serve the workbench on http://HOST:PORT (each browser tab runs its own session)."""
    (root,) = require_paths((path,))
    # The web server lives with the App: the CLI reaches it only when this command runs.
    from skillforge.app.serve import serve_workbench

    click.echo(f"skillforge: serving {root} on http://{host}:{port} (Ctrl+C to stop)")
    serve_workbench(root, host, port)
