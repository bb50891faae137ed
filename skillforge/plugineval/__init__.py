"""Claude Code's `claude plugin eval` results (aggregate-result.json and the runs' traces)
imported as a skillforge run: `skillforge import plugin-eval PATH`."""
