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


def block(lang: str) -> str:
    (found,) = re.findall(rf"```{lang}\n(.*?)```", editor_section(), re.S)
    return found


def neovim_argv() -> list[str]:
    lua = block("lua")
    (cmd,) = re.findall(r"cmd = \{([^}]*)\}", lua)
    (name,) = re.findall(r"vim\.lsp\.config\('([^']+)'", lua)
    assert f"vim.lsp.enable('{name}')" in lua
    assert "'markdown'" in re.search(r"filetypes = \{([^}]*)\}", lua).group(1)
    return re.findall(r"'([^']*)'", cmd)


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


SNIPPETS = {"neovim": neovim_argv, "helix": helix_argv, "vscode": vscode_argv}


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
            capabilities=client_capabilities("neovim" if editor == "neovim" else
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
