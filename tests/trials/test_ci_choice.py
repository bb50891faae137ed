"""`skillforge trial --ci bootstrap` is refused before any trial runs when the run has fewer
cases than the bootstrap needs (issue 15): it would report an interval below its level."""

from __future__ import annotations

from click.testing import CliRunner

from sessions.store import RunStore
from skillforge.cli import main


def test_bootstrap_on_a_six_case_run_is_refused_naming_the_minimum(csv_skill, tmp_path,
                                                                    monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # never called
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "local-model")
    state = tmp_path / "state"
    res = CliRunner().invoke(main, ["trial", str(csv_skill), "--ci", "bootstrap",
                                    "--no-judge", "--state-dir", str(state)])
    assert res.exit_code == 2, res.output
    assert "--ci bootstrap: the bootstrap interval needs at least 10 paired cases" in res.output
    assert "this run has 6: use the t interval (--ci t)" in res.output
    with RunStore(state) as store:
        assert store.runs() == []
