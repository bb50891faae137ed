"""The command helpers the reliability rules stand on (`linters.reliability.commands`, `.installs`,
`.script_commands`): which lines of a skill are commands, which scripts they run, which
packages they install unpinned, and which paths are the skill's own.
"""

from __future__ import annotations

import textwrap

import pytest

from linters.reliability.commands import commands_in_doc, script_runs, segments, words
from linters.reliability.installs import unpinned_packages
from linters.text.markdown import MarkdownDoc
from linters.reliability.command_dirs import skill_relative
from skillforge.models.skill import load_skill
from tests.linters.reliability_skill import make_skill


def doc_commands(markdown: str) -> list[str]:
    return [c.text for c in commands_in_doc(MarkdownDoc(textwrap.dedent(markdown)), "SKILL.md")]


def test_shell_fence_drops_prompts_comments_and_heredoc_bodies_and_joins_continuations():
    md = """
    ```bash
    # install first
    $ pip install "pypdf==4.3.1"
    python3 scripts/extract.py in.pdf \\
        --pages 1-3   # only the first pages
    cat > notes.txt <<EOF
    rm -rf / (this is text, not a command)
    EOF
    ```
    """
    assert doc_commands(md) == [
        'pip install "pypdf==4.3.1"',
        "python3 scripts/extract.py in.pdf --pages 1-3",
        "cat > notes.txt <<EOF",
    ]


def test_console_fence_keeps_only_prompted_lines():
    md = """
    ```console
    $ python3 scripts/summarize.py sales.csv
    {"2025-01": 1200}
    ```
    """
    assert doc_commands(md) == ["python3 scripts/summarize.py sales.csv"]


def test_inline_code_is_a_command_only_when_it_reads_like_one():
    md = "Run `python3 scripts/a.py --x 1` or `./scripts/run`; the logic is in `scripts/a.py`.\n"
    assert doc_commands(md) == ["python3 scripts/a.py --x 1", "./scripts/run"]


def test_python_fences_are_not_shell():
    assert doc_commands("```python\nimport os\nos.system('pip install x')\n```\n") == []


def test_segments_and_words_respect_quotes():
    assert segments('cd "a;b" && python x.py | tee out; echo $(date)') == [
        'cd "a;b"', "python x.py", "tee out", "echo", "date"]
    assert words("python3 'my script.py' --name \"A B\"") == [
        "python3", "my script.py", "--name", "A B"]


@pytest.mark.parametrize(
    ("command", "runs"),
    [
        ("python scripts/a.py --x 1", [("scripts/a.py", False)]),
        ("sudo -E python3 -u tools/b.py", [("tools/b.py", False)]),
        ("uv run --with rich python scripts/c.py", [("scripts/c.py", False)]),
        ("npx tsx scripts/d.ts", [("scripts/d.ts", False)]),
        ("./scripts/e && bash scripts/f.sh", [("./scripts/e", True), ("scripts/f.sh", False)]),
        ("{baseDir}/scripts/g.py in.csv", [("{baseDir}/scripts/g.py", True)]),
        ("python -m scripts.report", []),
        ("python -c 'print(1)'", []),
        ("git status", []),
    ],
)
def test_script_runs(command, runs):
    assert [(r.path, r.direct) for r in script_runs(command)] == runs


@pytest.mark.parametrize(
    ("command", "unpinned"),
    [
        ("pip install pandas numpy==1.26.4 'scipy>=1.11'", ["pandas", "scipy>=1.11"]),
        ("pip install 'numpy>=1.24,<2' 'pypdf~=4.3'", []),
        ("python3 -m pip install --upgrade pip setuptools wheel", []),
        ("pip install -r requirements.txt -e . ./vendor/lib", []),
        ("pip install git+https://github.com/acme/tool", []),
        ("pip install <package-name>", []),
        ("uv pip install torch", ["torch"]),
        ("npx -y @playwright/mcp@latest", ["@playwright/mcp@latest"]),
        ("npx create-next-app@14.2.3 my-app", []),
        ("npx -p typescript@5.4.5 tsc --noEmit", []),
        ("npx eslint .", []),  # the project's own eslint
        ("npx --yes prettier --write .", ["prettier"]),
        ("uvx ruff check .", ["ruff"]),
        ("uvx ruff@0.6.9 check .", []),
        ("uvx --from 'ruff==0.6.9' ruff check", []),
        ("pipx run cowsay hi", ["cowsay"]),
        ("pnpm dlx shadcn add button", ["shadcn"]),
        ("bunx prettier@3.3.3 --check .", []),
    ],
)
def test_unpinned_packages(command, unpinned):
    assert [spec for _tool, spec in unpinned_packages(command)] == unpinned


def test_skill_relative_paths(tmp_path):
    skill = load_skill(make_skill(tmp_path, "# CSV", {"tools/x.sh": "echo\n"}))
    assert skill_relative("{baseDir}/scripts/a.py", skill) == "scripts/a.py"
    assert skill_relative("${SKILL_DIR}/scripts/a.py", skill) == "scripts/a.py"
    assert skill_relative("~/.claude/skills/csv-insights/scripts/a.py", skill) == "scripts/a.py"
    assert skill_relative("./scripts/a.py", skill) == "scripts/a.py"
    assert skill_relative("tools/y.sh", skill) == "tools/y.sh"  # the skill has tools/
    assert skill_relative("src/app.py", skill) is None  # the user's project
    assert skill_relative("scripts/<name>.py", skill) is None  # a placeholder
    assert skill_relative("/usr/local/bin/x", skill) is None
