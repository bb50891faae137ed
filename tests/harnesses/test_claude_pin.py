"""The Claude Code that `make` installs is the one constraints/claude-code.txt pins, and
skillforge finds it, runs it and says which it is (`skillforge doctor`)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

from skillforge.cli.doctor import check_claude_code
from skillforge.harnesses import ClaudeCodeHarness
from skillforge.harnesses.image import AUTO, IMAGE, bundled_claude, cli_binary, cli_version
from skillforge.models.config import Settings

PIN = Path(__file__).resolve().parents[2] / "constraints" / "claude-code.txt"


def pinned() -> tuple[str, str, str]:
    """(version, sha256, path under site-packages) from constraints/claude-code.txt."""
    text = PIN.read_text()
    version = re.search(r"^# version (\S+)$", text, re.M).group(1)
    sha, rel = next(line.split() for line in text.splitlines()
                    if line and not line.startswith("#"))
    return version, sha, rel


def test_the_installed_binary_is_the_pinned_one():
    version, sha, rel = pinned()
    binary = bundled_claude()
    assert binary is not None, "claude-agent-sdk is not installed: run `make`"
    assert binary.as_posix().endswith(rel)
    digest = hashlib.sha256(binary.read_bytes()).hexdigest()
    assert digest == sha
    assert cli_version(binary) == version


def test_the_cli_choice_and_doctor_name_it():
    version = pinned()[0]
    harness = ClaudeCodeHarness({})
    assert cli_binary(harness, AUTO) == bundled_claude()
    assert cli_binary(harness, IMAGE) is None
    check = check_claude_code(Settings())
    assert (check.status, check.detail.split()[0]) == ("ok", version)
    missing = check_claude_code(Settings(trial={"harness_cli": "/nonexistent/claude"}))
    assert missing.status == "warn" and "no such file" in missing.detail


def test_doctor_prints_the_version_as_a_user_sees_it():
    done = subprocess.run([str(Path(sys.executable).with_name("skillforge")), "doctor",
                           "--format", "json"], capture_output=True, text=True, timeout=120,
                          check=False)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["claude code"]["detail"].startswith(pinned()[0])
