"""SF301 and a block that builds the current folder as a project first (issue 36, a reading
of the `test` part's one remaining wrong SF301 finding): `docker build -t app .` needs a
Dockerfile in the current folder, `make test` a Makefile, `npm test` a package.json. When the
skill has none of these, the block runs in a project's checkout, and the relative script it
runs next (`scripts/run_tests.sh tests/docker/`) is that project's. The finding is a warning
that names the assumption, never silence: the script may still be the skill's, misplaced.

Every skill text here is written for this file; the first test failed before the reading,
each twin (the skill ships the Dockerfile, `docker build -f`, the build in another block)
keeps the missing script an error.
"""

from __future__ import annotations

import pytest

from tests.linters.rule_findings import found, severe
from tests.linters.test_security import make_skill

_BODY = """\
# Kiln service notes

How the kiln controller's container is put together.

## Run the integration tests

```sh
{build}
KILN_IMAGE=kiln:dev scripts/integration.sh tests/integration/ -v
```
"""


@pytest.mark.parametrize("build, needs", [
    ("docker build -t kiln:dev .", "Dockerfile"),
    ("make image", "Makefile"),
    ("npm run build:image", "package.json"),
    ("cargo build --release", "Cargo.toml"),
])
def test_a_block_that_builds_the_current_folder_first(tmp_path, build, needs):
    skill = make_skill(tmp_path, _BODY.format(build=build), name="kiln-notes")
    assert severe(skill, "SF301") == []
    [(_f, _line, sev)] = found(skill, "SF301")
    assert sev == "warning"
    from linters import lint_skill

    [msg] = [f.message for f in lint_skill(skill).findings if f.rule == "SF301"]
    assert needs in msg or needs.split(".")[0].lower() in msg.lower()


def test_the_skill_ships_the_dockerfile_so_the_folder_may_be_its_own(tmp_path):
    skill = make_skill(tmp_path, _BODY.format(build="docker build -t kiln:dev ."),
                       {"Dockerfile": "FROM scratch\n"}, name="kiln-notes")
    assert [sev for _f, _l, sev in severe(skill, "SF301")] == ["error"]


def test_a_build_from_a_named_dockerfile_says_nothing_of_the_folder(tmp_path):
    build = "docker build -f build/Dockerfile -t kiln:dev ."
    skill = make_skill(tmp_path, _BODY.format(build=build), name="kiln-notes")
    assert [sev for _f, _l, sev in severe(skill, "SF301")] == ["error"]


def test_a_build_in_another_block_does_not_carry_over(tmp_path):
    body = _BODY.format(build="echo ready").replace(
        "## Run the integration tests", "```sh\ndocker build -t kiln:dev .\n```\n\n## Run")
    skill = make_skill(tmp_path, body, name="kiln-notes")
    assert [sev for _f, _l, sev in severe(skill, "SF301")] == ["error"]
