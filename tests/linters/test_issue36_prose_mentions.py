"""A missing path a reference file names in its prose, neither linked nor pointed to, is a
warning (SF116): on skills read before any tuning, such mentions were far more often another
project's, a generated or a described file than the skill's own. A link anywhere, a mention in
SKILL.md, and a pointer ("See `x`", "Run `x`") stay errors.

Every skill text here is written for this file; the warning tests failed before the reading.
"""

from __future__ import annotations

from linters import lint_skill
from tests.linters.rule_findings import found as _found
from tests.linters.test_security import make_skill

_BODY = "# Ledger\n\nFor the close, follow [the close guide](references/close.md).\n"


def _close(line: str) -> dict[str, str]:
    return {"references/close.md": f"# Close\n\n{line}\n"}


def test_a_path_described_in_a_reference_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _BODY, _close(
        "The upstream exporter keeps its rate cache in `scripts/rate_cache.py`, which "
        "rebuilds nightly."))
    assert _found(skill, "SF116") == [("references/close.md", 3, "warning")]
    (finding,) = [f for f in lint_skill(skill, external=False).findings if f.rule == "SF116"]
    assert "not a link" in finding.message and "link it" in finding.message


def test_a_table_cell_naming_a_page_in_a_reference_is_a_warning(tmp_path):
    skill = make_skill(tmp_path, _BODY, _close(
        "| Endpoint | Doc page |\n|---|---|\n| `GET /rates` | `reference/get-rates.md` |"))
    assert _found(skill, "SF116") == [("references/close.md", 5, "warning")]


def test_a_link_in_a_reference_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, _BODY, _close("Rates: [the table](rates.md)."))
    assert _found(skill, "SF116") == [("references/close.md", 3, "error")]


def test_a_pointer_in_a_reference_stays_an_error(tmp_path):
    for lead in ("See `references/rates.md`.", "Run `scripts/close.sh` first.",
                 "Read the rounding rule in `references/rounding.md`.",
                 "完整规则详见 `references/rates.md`。"):
        skill = make_skill(tmp_path / str(abs(hash(lead))), _BODY, _close(lead))
        assert _found(skill, "SF116") == [("references/close.md", 3, "error")], lead


def test_a_negated_run_is_no_pointer(tmp_path):
    skill = make_skill(tmp_path, _BODY, _close(
        "The helper does not run `scripts/update_submodules.py` of the monorepo."))
    assert _found(skill, "SF116") == [("references/close.md", 3, "warning")]


def test_the_same_mention_in_skill_md_stays_an_error(tmp_path):
    skill = make_skill(tmp_path, "# Ledger\n\nThe rate cache lives in `scripts/rate_cache.py`.\n")
    assert [sev for path, _line, sev in _found(skill, "SF116") if path == "SKILL.md"] == ["error"]


# --- holdout8: a path to the skill's own file written from the repository's root ----------------

def test_the_skills_own_file_written_from_the_repository_root_is_a_warning(tmp_path):
    skill = make_skill(tmp_path / "skills", "# Ledger\n\nRead `./skills/ledger/references/guides/rates.md` first.\n",
                       {"references/guides/rates.md": "# Rates\n"}, name="ledger")
    assert [(p, sev) for p, _line, sev in _found(skill, "SF116")] == [("SKILL.md", "warning")]
    (finding,) = [f for f in lint_skill(skill, external=False).findings if f.rule == "SF116"]
    assert "repository's root" in finding.message and "references/guides/rates.md" in finding.message


def test_another_folders_copy_written_from_the_root_stays_an_error(tmp_path):
    skill = make_skill(tmp_path / "skills", "# Ledger\n\nRead `./skills/billing/references/guides/rates.md` first.\n",
                       {"references/guides/rates.md": "# Rates\n"}, name="ledger")
    assert [(p, sev) for p, _line, sev in _found(skill, "SF116")] == [("SKILL.md", "error")]
