"""Fixtures of the Harbor bridge tests: exported datasets and Harbor's own interpreter."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.register_assert_rewrite("tests.harbor.scenario")

from skillforge.harbor.export import ExportResult, export_harbor
from skillforge.models.trial import RunSpec
from tests.conftest import SAMPLE_SKILLS
from tests.harbor.harbor_env import (
    HarborEnv,
    HarborSetupError,
    NoPython312,
    ensure_harbor,
)

CSV = SAMPLE_SKILLS / "csv-insights"


@pytest.fixture
def export_csv(tmp_path):
    """Export the csv-insights sample (copied to tmp first) with RunSpec overrides."""
    def make(out: str = "dataset", skill: Path = CSV, environment: str = "docker",
             **spec) -> ExportResult:
        root = tmp_path / "skills" / out / skill.name
        if not root.exists():
            shutil.copytree(skill, root, symlinks=True)
        return export_harbor(RunSpec(skill_path=str(root), **spec), tmp_path / out,
                             environment=environment)

    return make


@pytest.fixture(scope="session")
def harbor_env() -> HarborEnv:
    """Harbor's venv (made once, then reused). Fails, never skips, when it cannot be made: a
    Harbor test that silently skips proves nothing."""
    try:
        return ensure_harbor()
    except NoPython312 as exc:
        pytest.fail(f"the Harbor tests need Python >= 3.12 for Harbor's venv: {exc}; install "
                    "one (e.g. `pyenv install 3.12`) or point SKILLFORGE_HARBOR_PYTHON at it",
                    pytrace=False)
    except HarborSetupError as exc:
        pytest.fail(f"Python >= 3.12 is here but Harbor could not be installed: {exc}",
                    pytrace=False)
