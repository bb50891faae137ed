"""Readings tuned on holdout29: a download-and-run the text places on the compromised host
(issue 36, linters.security.practice).

In a skill declaring an offensive-security purpose, SF506 is medium when the text places the
command on the target. Besides the block's lead-in and nearest heading, two more places count:

- the comment that labels the command in its block ("# Or run it without writing to disk",
  "# Transfer and run"), the comment lines just above it or those opening the block;
- a heading further out than the nearest: a block under "### SomeTool" in "## Automated checks"
  of a reference titled "Linux Privilege Escalation" is in that phase, unless a nearer heading,
  the lead-in or the comment names the tester's own setup.

Every skill text here is written for this file. The twins keep the severity: the same skill's
install under a setup heading, a nearer install heading, a lead-in or comment naming the
tester's own machine, a skill with no offensive purpose, a vendor installer as a setup step.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as hs

from linters import lint_skill
from tests.hypothesis_budget import examples
from tests.linters.probe_skill import probe_skill

_PENTEST = "Guide authorised penetration testing engagements against Linux hosts."
_PHASE = "Walk through post-exploitation on Linux hosts in authorised engagements."
_PLAIN = "Set up a Linux workstation for everyday development."
_URL = "https://github.com/example-org/hostcheck/releases/latest/download/hostcheck.sh"


def _skill(tmp_path: Path, body: str, description: str = _PENTEST,
           files: dict[str, str] | None = None, name: str = "probe-engage") -> Path:
    return probe_skill(tmp_path, body, files, name=name, description=description,
                       title="Engage")


def _sf506(skill: Path) -> list[str]:
    return [f.severity.value for f in lint_skill(skill).findings if f.rule == "SF506"]


def _block(comment: str | None, url: str = _URL, lead: str | None = None) -> str:
    lead_text = f"{lead}\n\n" if lead else ""
    note = f"# {comment}\n" if comment else ""
    return f"{lead_text}```bash\n{note}curl -sL {url} | sh\n```\n"


_SEE = "See references/host-work.md for the host checklist.\n"


def _ref(body: str, title: str = "Host Work Notes") -> dict[str, str]:
    return {"references/host-work.md": f"# {title}\n\n{body}"}


# --- soft: the text places the download on the target --------------------------------------

def test_a_comment_saying_it_stays_off_the_disk_is_medium(tmp_path):
    """Before: high; the only placement is the command's own comment."""
    body = "## Checks\n\n### hostcheck\n\n" + _block("Or run it without writing to disk")
    assert _sf506(_skill(tmp_path, _SEE, files=_ref(body))) == ["medium"]


def test_a_block_opened_by_transfer_and_run_is_medium(tmp_path):
    body = ("## Checks\n\n### hostcheck\n\n```bash\n# Transfer and run\n"
            f"curl -sL {_URL} -o /tmp/h.sh\ncurl -sL {_URL} | sh\n```\n")
    assert _sf506(_skill(tmp_path, _SEE, files=_ref(body))) == ["medium"]


def test_a_reference_titled_for_privilege_escalation_places_its_tools(tmp_path):
    """Before: high; the phase is named by the file's title, two headings out."""
    body = "## 1. Automated checks\n\n### hostcheck\n\n" + _block(None)
    files = _ref(body, title="Linux Privilege Escalation Techniques")
    assert _sf506(_skill(tmp_path, _SEE, files=files)) == ["medium"]


def test_a_phase_skills_enumeration_section_places_its_tools(tmp_path):
    """In a post-exploitation skill, a tool under "### hostcheck" of "## Enumeration"."""
    body = "## Enumeration\n\n### hostcheck\n\n" + _block(None)
    assert _sf506(_skill(tmp_path, body, description=_PHASE)) == ["medium"]


# --- twins: the tester's own machine, or no offensive purpose ------------------------------

def test_the_same_skills_tool_install_under_setup_stays_high(tmp_path):
    body = "## Setup\n\n### hostcheck\n\n" + _block(None)
    assert _sf506(_skill(tmp_path, body, description=_PHASE)) == ["high"]


def test_a_nearer_install_heading_in_a_privesc_reference_stays_high(tmp_path):
    body = "## Tooling\n\n### Install the tools\n\n" + _block(None)
    files = _ref(body, title="Linux Privilege Escalation Techniques")
    assert _sf506(_skill(tmp_path, _SEE, files=files)) == ["high"]


def test_a_lead_in_naming_the_testers_machine_stays_high(tmp_path):
    body = "## 1. Automated checks\n\n" + _block(None, lead="Fetch it on your own workstation:")
    files = _ref(body, title="Linux Privilege Escalation Techniques")
    assert _sf506(_skill(tmp_path, _SEE, files=files)) == ["high"]


def test_a_comment_naming_the_install_stays_high(tmp_path):
    body = "## 1. Automated checks\n\n" + _block("install the helper CLI")
    files = _ref(body, title="Linux Privilege Escalation Techniques")
    assert _sf506(_skill(tmp_path, _SEE, files=files)) == ["high"]


def test_a_non_offensive_skill_with_the_same_text_stays_high(tmp_path):
    body = "## 1. Automated checks\n\n### hostcheck\n\n" + _block("run without writing to disk")
    files = _ref(body, title="Linux Privilege Escalation Techniques")
    assert _sf506(_skill(tmp_path, _SEE, description=_PLAIN, files=files)) == ["high"]


def test_a_vendor_installer_as_a_setup_step_stays_high(tmp_path):
    body = ("## Quick start\n\n" + _block("official installer", url="https://get.scanvendor.dev/i.sh",
                                          lead="Install the scanner CLI:"))
    assert _sf506(_skill(tmp_path, body)) == ["high"]


def test_a_neutral_comment_in_a_neutral_section_stays_high(tmp_path):
    body = "## Tools\n\n### hostcheck\n\n" + _block("fetch the latest release")
    assert _sf506(_skill(tmp_path, _SEE, files=_ref(body))) == ["high"]


# --- property ----------------------------------------------------------------------------

_TOOLS = hs.sampled_from(["hostcheck", "sysaudit", "enumkit", "peek"])
_HOSTS = hs.sampled_from(["github.com/acme/tools/releases/latest/download",
                          "raw.githubusercontent.com/acme/tools/main", "tools.acme.dev"])
_SOFT_COMMENTS = hs.sampled_from(["Or run without writing to disk", "Transfer and run",
                                  "run it from memory", "fileless"])
_PHASE_TITLES = hs.sampled_from(["Linux Privilege Escalation", "Escalating Privileges on Linux",
                                 "Lateral Movement Playbook", "Privesc Cheatsheet"])
_SETUP_HEADS = hs.sampled_from(["Install the tools", "Setup", "Prerequisites",
                                "Getting started"])


_SOFT = ("medium", "info")


@settings(max_examples=examples(25), deadline=None)
@given(tool=_TOOLS, host=_HOSTS, comment=_SOFT_COMMENTS, title=_PHASE_TITLES,
       setup=_SETUP_HEADS)
def test_placed_downloads_soften_and_setup_twins_stay_high(tmp_path_factory, tool, host,
                                                           comment, title, setup):
    url = f"https://{host}/{tool}.sh"
    soft_comment = f"## Checks\n\n### {tool}\n\n" + _block(comment, url=url)
    soft_title = f"## Automated checks\n\n### {tool}\n\n" + _block(None, url=url)
    twin = f"## {setup}\n\n### {tool}\n\n" + _block(None, url=url)
    root = tmp_path_factory.mktemp("p")
    # Soft: never severe (another reading may already make it info).
    assert _sf506(_skill(root / "a", _SEE, files=_ref(soft_comment))) == ["medium"]
    assert _sf506(_skill(root / "b", _SEE, files=_ref(soft_title, title)))[0] in _SOFT
    assert _sf506(_skill(root / "c", _SEE, files=_ref(twin, title))) == ["high"]
    assert _sf506(_skill(root / "d", _SEE, description=_PLAIN,
                         files=_ref(soft_comment))) == ["high"]
