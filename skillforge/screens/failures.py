"""What went wrong, in words a person can act on: which kind of failure, and what to do.

Pure (no Textual). A worker of the workbench that fails hands its exception to `classify`;
the screen shows the `Failure` (a titled notice, and the tab's own status line reset) and
only an exception skillforge did not expect is called a bug, with the traceback written to
`log_path()` so the report can quote it.

The kinds, each with the place a person goes to fix it:

- configuration: skillforge.toml, SKILLFORGE_* variables, the run form's values;
- environment: Docker, the trial image, the disk, a missing program;
- provider: the LLM service (key, URL, rate limit, outage);
- model output: the model answered, but not something usable (ask again, another model);
- skill content: the skill's own files (SKILL.md, evals.json, a grader).
"""

from __future__ import annotations

import datetime as _dt
import traceback
from dataclasses import dataclass
from pathlib import Path

from linters.caches import cache_dir

KIND_TITLE = {
    "configuration": "Configuration",
    "environment": "Environment (Docker, image)",
    "provider": "LLM provider",
    "model output": "Model output",
    "skill content": "Skill content",
    "bug": "Something went wrong (a bug; the workbench keeps running)",
}
KIND_HINT = {
    "configuration": "Fix the setting (skillforge.toml, a SKILLFORGE_* variable or the form), "
                     "then try again.",
    "environment": "`skillforge doctor` checks Docker, images and folders.",
    "provider": "Check the provider's key, URL and status; `skillforge doctor` tests it.",
    "model output": "Ask again, or choose a stronger model ([provider] model).",
    "skill content": "Fix the file named above, then try again.",
}
# By exception class name, most specific first in each exception's MRO.
BY_NAME = {
    "ConfigError": "configuration", "TrialConfigError": "configuration",
    "ProviderNotConfigured": "configuration", "PriceTableError": "configuration",
    "DecoyError": "configuration", "HarnessError": "configuration",
    "SandboxUnavailable": "environment", "SandboxError": "environment",
    "StoreVersionError": "environment", "DockerException": "environment",
    "ProposalError": "model output", "StructuredOutputError": "model output",
    "UnusableAnswer": "model output", "JudgeOutputError": "model output",
    "MalformedResponse": "provider", "ProviderError": "provider", "JudgeError": "provider",
    "HTTPError": "provider", "TimeoutException": "provider",
    "EvalsInvalidError": "skill content", "StagingError": "skill content",
    "SkillTreeError": "skill content", "GraderError": "skill content",
    "AtifError": "skill content", "UnicodeDecodeError": "skill content",
    "RunError": "skill content",
    "OSError": "environment",
}


@dataclass(frozen=True)
class Failure:
    kind: str
    message: str  # what happened, then what to do
    log: Path | None = None  # where the traceback went (bugs only)

    @property
    def title(self) -> str:
        return KIND_TITLE[self.kind]

    @property
    def is_bug(self) -> bool:
        return self.kind == "bug"


def kind_of(exc: BaseException, expected: str | None = None) -> str:
    """The kind of `exc`. `expected`: the kind a ValueError means here (e.g. "model output"
    where the only values come from a model's answer); else a ValueError is a bug."""
    if type(exc).__name__ == "RunError" and isinstance(exc.__cause__, Exception):
        cause = kind_of(exc.__cause__, expected)  # RunError wraps a HarnessError, a StagingError
        if cause != "bug":
            return cause
    for cls in type(exc).__mro__:
        kind = BY_NAME.get(cls.__name__)
        if kind is not None:
            return kind
        if cls.__module__.split(".")[0] in ("docker", "requests", "urllib3"):
            return "environment"
        if cls.__module__.split(".")[0] in ("httpx", "openai", "anthropic"):
            return "provider"
    if expected is not None and isinstance(exc, ValueError):
        return expected
    return "bug"


def first_line(exc: BaseException, limit: int = 600) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def log_path() -> Path:
    """<$SKILLFORGE_CACHE_DIR | $XDG_CACHE_HOME/skillforge | ~/.cache/skillforge>/workbench.log"""
    return cache_dir("workbench.log")


def write_log(exc: BaseException, doing: str) -> Path | None:
    """Append the traceback of `exc` to the log; its path, or None when it cannot be written."""
    path = log_path()
    stamp = _dt.datetime.now().isoformat(timespec="seconds")
    text = "".join(traceback.format_exception(exc))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(f"--- {stamp} while {doing}\n{text}\n")
    except OSError:
        return None
    return path


def classify(exc: BaseException, doing: str, expected: str | None = None) -> Failure:
    """The failure of `doing` ("drafting cases", "the trial run") as the author sees it."""
    kind = kind_of(exc, expected)
    if kind == "bug":
        log = write_log(exc, doing)
        where = f" Details: {log}" if log else ""
        return Failure("bug", f"{doing}: {type(exc).__name__}: {first_line(exc, 300)}.{where}",
                       log)
    return Failure(kind, f"{doing}: {first_line(exc)}\n{KIND_HINT[kind]}")
