"""The README's editor snippets start `skillforge lsp`, exactly, and the server they start
answers `initialize`: each snippet's command is read from the README and run as the editor
would run it (argv as written, `skillforge` found on PATH), through pytest-lsp's client."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities, make_test_lsp_client

from tests.conftest import ROOT

BIN = Path(sys.executable).parent


def editor_section() -> str:
    text = (ROOT / "README.md").read_text("utf-8")
    start = text.index("\n## In your editor\n")
    return text[start:text.index("\n## ", start + 1)]


def block(lang: str, marker: str = "") -> str:
    """The editor section's one `lang` block (containing `marker`, when there are several)."""
    (found,) = [b for b in re.findall(rf"```{lang}\n(.*?)```", editor_section(), re.S)
                if marker in b]
    return found


def _lua_cmd(lua: str) -> list[str]:
    (cmd,) = re.findall(r"cmd = \{([^}]*)\}", lua)
    return re.findall(r"'([^']*)'", cmd)


def neovim_argv() -> list[str]:
    """Neovim 0.11's form (vim.lsp.config / enable)."""
    lua = block("lua", "vim.lsp.config")
    (name,) = re.findall(r"vim\.lsp\.config\('([^']+)'", lua)
    assert f"vim.lsp.enable('{name}')" in lua
    assert "'markdown'" in re.search(r"filetypes = \{([^}]*)\}", lua).group(1)
    return _lua_cmd(lua)


def neovim07_argv() -> list[str]:
    """Neovim 0.7's form (an autocmd, start_client and buf_attach_client); it runs in a real
    Neovim in tests/lsp/test_neovim.py."""
    lua = block("lua", "vim.lsp.start_client")
    assert "vim.lsp.buf_attach_client" in lua and "'markdown'" in lua
    return _lua_cmd(lua)


def helix_argv() -> list[str]:
    conf = tomllib.loads(block("toml"))
    (markdown,) = [lang for lang in conf["language"] if lang["name"] == "markdown"]
    assert "skillforge" in markdown["language-servers"]
    server = conf["language-server"]["skillforge"]
    return [server["command"], *server["args"]]


def vscode_argv() -> list[str]:
    settings = json.loads(block("json"))
    assert "markdown" in settings["glspc.server.languageId"]
    return [settings["glspc.server.command"], *settings["glspc.server.commandArguments"]]


SNIPPETS = {"neovim": neovim_argv, "neovim-0.7": neovim07_argv, "helix": helix_argv,
            "vscode": vscode_argv}


@pytest.mark.parametrize("editor", SNIPPETS)
def test_snippet_starts_exactly_skillforge_lsp(editor):
    assert SNIPPETS[editor]() == ["skillforge", "lsp"]


@pytest.mark.parametrize("editor", SNIPPETS)
async def test_the_snippets_command_starts_a_server_that_initializes(editor, tmp_path):
    argv = SNIPPETS[editor]()
    client = make_test_lsp_client()
    # As an editor does: the program looked up on PATH, started in the workspace folder.
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    await client.start_io(argv[0], *argv[1:], env=env, cwd=str(tmp_path))
    try:
        result = await client.initialize_session(types.InitializeParams(
            capabilities=client_capabilities("neovim" if editor.startswith("neovim") else
                                             "visual-studio-code"),
            root_uri=tmp_path.as_uri()))
        assert result.server_info.name == "skillforge"
        caps = result.capabilities
        assert caps.hover_provider and caps.code_action_provider
        assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
        await client.shutdown_session()
    finally:
        await client.stop()


def test_readme_help_text_is_the_commands():
    shown = block("text")
    out = subprocess.run([str(BIN / "skillforge"), "lsp", "--help"], capture_output=True,
                         text=True, check=True, env={**os.environ, "COLUMNS": "88"}).stdout
    assert " ".join(shown.split()) == " ".join(out.split())
