"""SF116 reports a missing path only when the text presents it as a file of the skill to read
or run (issue 14). Each case is a passage of a real-looking skill whose path does not exist
and is rightly not reported: an output file, the user's project file, a file a changelog
says was removed, an example of a path or link format, a footnote, an entry "(coming soon)".
The same paths presented as the skill's files are still reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.linters.correctness_skill import findings, skill_md, write_skill

FILES = {"references/api.md": "# API\n", "scripts/run_tests.py": "print('ok')\n"}


def sf116(tmp_path: Path, body: str) -> list[tuple[int, str]]:
    root = write_skill(tmp_path / "test-runner", skill_md(body=body, name="test-runner"), FILES)
    return [(f.line, f.message) for f in findings(root, "SF116")]


OUTPUT = """
# Test runner

1. Run `python3 scripts/run_tests.py --all`.
2. Summarise the failures in `./test-report.md` and show it to the user.

## Output

When the run ends, the report is at `./test-report.md`.

| File | Contents |
|---|---|
| `./coverage-summary.md` | coverage per package |

- `./junit.xml` - machine-readable results
"""

PROJECT = """
# Test runner

1. Find the test command in the project's `./package.json` (`scripts.test`).
2. Check `./pyproject.toml` for a `[tool.pytest.ini_options]` section.
3. Run `python3 scripts/run_tests.py`.
"""

CHANGELOG = """
# Test runner

Run `python3 scripts/run_tests.py`.

## Changelog

### 1.3.0

- Removed `scripts/legacy_runner.sh` (use `scripts/run_tests.py`).
- `references/old-flags.md` was merged into `references/api.md`.
"""

REMOVED_IN_PROSE = """
# Test runner

Run `python3 scripts/run_tests.py`; `scripts/run_all.sh` was removed in 2.0.
"""

LINK_FORMAT = """
# Test runner

Run `python3 scripts/run_tests.py`.

## Writing references

Link each reference from SKILL.md with a relative path, for example
[flaky tests](references/flaky-tests.md). Use forward slashes (`reference/guide.md`), not
backslashes.
"""

FOOTNOTE = """
# Test runner

Run `python3 scripts/run_tests.py`; it needs Node 18.[^t]

[^t]: The package ships a prebuilt binary for Linux and macOS.
"""

COMING_SOON = """
# Test runner

Run `python3 scripts/run_tests.py`.

## References

- `references/api.md` - flags of the runner
- `references/flaky-tests.md` - quarantining flaky tests (coming soon)
- [Coverage](references/coverage.md) (coming soon)
"""


@pytest.mark.parametrize("body", [OUTPUT, PROJECT, CHANGELOG, REMOVED_IN_PROSE, LINK_FORMAT,
                                  FOOTNOTE, COMING_SOON],
                         ids=["output-file", "project-file", "changelog", "removed",
                              "link-format", "footnote", "coming-soon"])
def test_paths_that_are_not_files_of_the_skill(tmp_path, body):
    assert sf116(tmp_path, body) == []


PRESENTED = """
# Test runner

1. Run `python3 scripts/run_tests.py`.
2. For the exit codes, see `./EXIT_CODES.md`.
3. For detailed guidance, refer to `references/flaky-tests.md`.

Read [the coverage guide](references/coverage.md) before changing thresholds.

## Files

- `references/api.md` - flags of the runner
- `scripts/quarantine.py`: moves flaky tests to a quarantine list
- `./FLAKY.md` - how quarantined tests are tracked
"""


def test_paths_presented_as_the_skills_files_are_still_reported(tmp_path):
    found = sorted(sf116(tmp_path, PRESENTED))
    assert [line for line, _ in found] == [9, 10, 12, 17, 18]
    assert "`./EXIT_CODES.md`" in found[0][1]
    assert "`scripts/quarantine.py`" in found[3][1]
    assert "`./FLAKY.md`" in found[4][1]  # an index of the skill's files


def test_the_same_line_outside_a_changelog_is_reported(tmp_path):
    body = "\n# Test runner\n\n- Use `scripts/legacy_runner.sh` for suites older than 1.3.\n"
    [(line, message)] = sf116(tmp_path, body)
    assert line == 8 and "`scripts/legacy_runner.sh`" in message
