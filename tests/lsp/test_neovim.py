"""The README's Neovim 0.7 snippet, read from the README exactly, in a real headless Neovim
(Debian 12's 0.7.2; `make test` installs it, tools/system-deps.sh): opening a SKILL.md with
a defect starts `skillforge lsp`, attaches it to the buffer, shows the finding as a
diagnostic, and offers its quick fix with the cursor at the start of the finding's line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.lsp.conftest import FIXTURES

BIN = Path(sys.executable).parent

# Run after the file is opened: wait for diagnostics, ask for code actions as
# `vim.lsp.buf.code_action()` does (the cursor's position as the range) with the cursor at
# column 0 of the SF112 line, and write what Neovim holds as JSON.
CHECK = r"""
local got = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local res = { waited = got, clients = {}, diagnostics = {}, actions = {} }
for _, c in pairs(vim.lsp.buf_get_clients(0)) do table.insert(res.clients, c.name) end
local row = nil
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  table.insert(res.diagnostics, { code = code, lnum = d.lnum, source = d.source })
  if code == 'SF112' then row = d.lnum end
end
if row then
  vim.api.nvim_win_set_cursor(0, { row + 1, 0 })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = {} }
  local answers = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 10000)
  for _, answer in pairs(answers or {}) do
    for _, action in ipairs(answer.result or {}) do table.insert(res.actions, action.title) end
  end
end
vim.fn.writefile({ vim.fn.json_encode(res) }, os.getenv('NVIM_RESULT'))
vim.cmd('qa!')
"""


def readme_snippet(marker: str) -> str:
    """The README's Lua block that contains `marker`, as written."""
    text = (ROOT / "README.md").read_text("utf-8")
    (found,) = [b for b in re.findall(r"```lua\n(.*?)```", text, re.S) if marker in b]
    return found


def headless(tmp_path: Path, *args: str) -> Path:
    """Run `nvim --headless` with the README's 0.7 snippet as its whole init.lua, the venv's
    `skillforge` on PATH and its own config, data and state folders; the file the run
    writes its findings to (NVIM_RESULT)."""
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.fail("nvim is not installed; `make test` installs it (tools/system-deps.sh)")
    head = subprocess.run([nvim, "--version"], capture_output=True, text=True,
                          check=True).stdout.splitlines()[0]
    assert tuple(map(int, re.search(r"v(\d+)\.(\d+)", head).groups())) >= (0, 7), head
    init = tmp_path / "init.lua"
    init.write_text(readme_snippet("vim.lsp.start_client"), "utf-8")
    result = tmp_path / "result.json"
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "NVIM_RESULT": str(result),
           **{f"XDG_{d}_HOME": str(tmp_path / d.lower()) for d in
              ("CONFIG", "DATA", "STATE", "CACHE")}}
    done = subprocess.run([nvim, "--headless", "-i", "NONE", "-u", str(init), *args],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    assert result.is_file(), (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    return result


def test_the_07_snippet_attaches_and_shows_a_finding_in_headless_neovim(tmp_path: Path):
    skill = tmp_path / "weekly-report"
    shutil.copytree(FIXTURES / "weekly-report", skill)  # an unknown key: SF112
    check = tmp_path / "check.lua"
    check.write_text(CHECK, "utf-8")
    got = json.loads(headless(tmp_path, str(skill / "SKILL.md"), "-c",
                              f"luafile {check}").read_text())
    assert got["clients"] == ["skillforge"], got
    codes = {d["code"] for d in got["diagnostics"]}
    assert "SF112" in codes and {d["source"] for d in got["diagnostics"]} == {"skillforge"}
    assert got["actions"] == ["SF112: Move `category` under `metadata:`"], got


def test_a_markdown_file_outside_a_skill_gets_no_server(tmp_path: Path):
    notes = tmp_path / "notes" / "todo.md"
    notes.parent.mkdir()
    notes.write_text("# Todo\n")
    probe = ("vim.fn.writefile({ tostring(#vim.lsp.buf_get_clients(0)) }, "
             "os.getenv('NVIM_RESULT')) vim.cmd('qa!')")
    assert headless(tmp_path, str(notes), "-c", f"lua {probe}").read_text().strip() == "0"
