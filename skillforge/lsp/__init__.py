"""`skillforge lsp`: skillforge's findings inside any editor, over the Language Server Protocol.

The server (`server.py`, on pygls) lints a skill with the same engine as `skillforge lint`
(`linters.engine`), on the editor's unsaved text (`documents.py`), and turns the findings
into diagnostics (`diagnostics.py`), hovers (`hover.py`, `keys.py`) and quick fixes
(`actions.py`). Only `server.py` imports pygls, and only `skillforge lsp` imports it, so
the rest of the program starts without it.
"""

# Milliseconds `skillforge lsp` waits after an edit before linting the unsaved text: one
# lint per burst of keystrokes. A lint of a typical skill takes ~5 ms, so this wait is nearly
# all of the delay an author sees; 50 ms keeps that under issue 20's 100 ms from a change
# (tests/bench/bench_lsp.py measures both) while a burst of fast typing is still one lint.
DEBOUNCE_MS = 50
