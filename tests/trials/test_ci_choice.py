"""`--ci t|skew-t|bootstrap` was withdrawn (issue 33): a script that still passes it is told
why, before any trial runs, instead of getting an interval that under-covers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main


@pytest.mark.parametrize("command", ["trial", "report"])
def test_a_withdrawn_interval_is_refused_naming_why(csv_skill, tmp_path, monkeypatch, command):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # never called
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "local-model")
    state = tmp_path / "state"
    args = [str(csv_skill)] if command == "trial" else ["latest"]
    res = CliRunner().invoke(main, [command, *args, "--ci", "bootstrap", "--state-dir",
                                    str(state)])
    assert res.exit_code == 2, res.output
    assert "the bootstrap interval was withdrawn: it under-covers on bounded deltas" in \
        res.output
    assert "bounded interval" in res.output
    if state.exists():
        with RunStore(state) as store:
            assert store.runs() == []


def test_the_option_is_not_advertised():
    res = CliRunner().invoke(main, ["trial", "--help"])
    assert res.exit_code == 0 and "--ci" not in res.output
