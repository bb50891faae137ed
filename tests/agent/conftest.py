"""The agent loop's tests use the trial tests' copy of csv-insights and their scripted client."""

from tests.trials.conftest import agent_client, csv_skill  # noqa: F401
