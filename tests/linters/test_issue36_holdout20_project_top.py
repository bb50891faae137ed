"""Readings from the twentieth held-out part of issue 36: a project skill's path found at the
repository's top on disk (SF301, SF116).

A skill kept in a repository's own `.agents/skills/<name>/` (or `.claude/`, `.codex/`,
`.github/`) runs with the repository's top as its working folder, whatever language its
text is written in. When that top is on disk and holds the file the skill names
(`scripts/run-checks.sh`), the run works, with or without English words of "this repo":
SF301 says nothing and SF116 is a warning that says the file is at the repository's top, as
for a skill that says "this repo". A copied skill, whose top cannot be checked, keeps its
findings.

Every skill text here is written for this file (in Portuguese, so that no English cue
applies); the reading failed before it was added, and each twin (a copy, a checked top
without the script, a skill outside an agent folder, a skill with its own `scripts/`) keeps
the missing script an error.
"""

from __future__ import annotations

from linters import lint_skill
from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_CHECKS = """\
# Verificar o módulo

Antes de abrir o pedido, corre a bateria de testes do módulo alterado.

## Passo 1: preparar a base de dados

Confirma que o contentor `db` está a correr.

## Passo 2: correr os testes

```bash
scripts/run-checks.sh -m <modulo>
```

O executor de testes é `scripts/run-checks.sh`, que guarda o relatório na pasta `out`.
"""


def _message(skill, rule):
    return next(f.message for f in lint_skill(skill, external=False).findings if f.rule == rule)


def _repo(tmp_path, where=(".agents", "skills"), files=None, git=True, script=True):
    repo = tmp_path / "repo"
    skill = make_skill(repo.joinpath(*where), _CHECKS, files, name="verificar-modulo")
    if git:
        (repo / ".git").mkdir()
    if script:
        (repo / "scripts").mkdir()
        (repo / "scripts" / "run-checks.sh").write_text("#!/bin/sh\necho ok\n")
    return skill


def test_a_copy_without_the_repositorys_top_keeps_its_findings(tmp_path):
    skill = _repo(tmp_path, git=False, script=False)
    assert severe(skill, "SF301") == [("SKILL.md", 17, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 20, "error")]


def test_a_project_skills_script_at_the_checked_top_is_not_reported(tmp_path):
    skill = _repo(tmp_path)
    assert found(skill, "SF301") == []
    assert found(skill, "SF116") == [("SKILL.md", 20, "warning")]
    assert "at the repository's top" in _message(skill, "SF116")


def test_each_agent_folder_reads_the_same(tmp_path):
    for agent in (".claude", ".codex", ".github"):
        skill = _repo(tmp_path / agent, where=(agent, "skills"))
        assert found(skill, "SF301") == [], agent
        assert severe(skill, "SF116") == [], agent


def test_a_checked_top_without_the_script_keeps_the_error(tmp_path):
    skill = _repo(tmp_path, script=False)
    assert severe(skill, "SF301") == [("SKILL.md", 17, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 20, "error")]


def test_a_skill_outside_an_agent_folder_keeps_the_error(tmp_path):
    # `<repo>/skills/<name>/` is a collection's skill, installed apart from the repository.
    skill = _repo(tmp_path, where=("skills",))
    assert severe(skill, "SF301") == [("SKILL.md", 17, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 20, "error")]


def test_a_skill_with_its_own_scripts_keeps_the_error(tmp_path):
    # The skill has `scripts/`: its `scripts/run-checks.sh` is its own file, misspelt or lost.
    skill = _repo(tmp_path, files={"scripts/run_checks.sh": "#!/bin/sh\necho ok\n"})
    assert severe(skill, "SF301") == [("SKILL.md", 17, "error")]
    assert severe(skill, "SF116") == [("SKILL.md", 20, "error")]
