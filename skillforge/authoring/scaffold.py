"""`skillforge new NAME`: a valid skill to start from, with an evals/evals.json template."""

from __future__ import annotations

import json
import re
from pathlib import Path

from skillforge.models.fileio import atomic_write_text

NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class ScaffoldError(ValueError):
    """The skill cannot be created; the message says why and what to do."""


def suggest_name(raw: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", raw.lower()).strip("-")
    return re.sub(r"-{2,}", "-", slug)[:64].strip("-") or "my-skill"


def reserved_word_problem(name: str) -> str | None:
    """Why `name` breaks lint rule SF121 (a reserved word), with a name that would not; None
    when it does not. `new` refuses such a name up front rather than scaffold a skill that
    its own lint flags at once (and whose gate fails with `--target claude-ai`)."""
    # The rule's own words and renaming; loaded here so that `new --help` loads no linter.
    from linters.correctness.correctness import RESERVED_WORDS
    from linters.correctness.correctness import suggest_name as spec_name

    for word in RESERVED_WORDS:
        if word in name:
            rest = spec_name(name.replace(word, "-"))
            hint = (f"for example {rest!r}, or a name for the task it does" if rest
                    else "for example 'pdf-form-filler': a name for the task it does")
            return (f"{name!r} contains the reserved word {word!r}, which claude.ai's skill "
                    f"upload rejects (lint rule SF121); choose a name without it, {hint}")
    return None


def skill_md(name: str, description: str) -> str:
    title = name.replace("-", " ").capitalize()
    return f"""---
name: {name}
description: {description}
---

# {title}

One paragraph: what this skill does and the result the user gets.

## When to use

- The user asks to ... (write the requests in the user's own words).

Do not use this skill when ... (name the nearby tasks it must not take).

## Workflow

1. Read the input the user gave and check it is what this skill expects.
2. Do the work (prefer a script in `scripts/` for anything deterministic).
3. Verify the result: say how to check it, and what to do when the check fails.

## Example

Input: a short, realistic request.

Output: what the answer looks like.

## Limitations

- What this skill does not handle, and what to do instead.
"""


def evals_template(name: str) -> dict:
    return {
        "skill_name": name,
        "evals": [
            {
                "id": "explicit-1",
                "kind": "explicit",
                "prompt": f"Use the {name.replace('-', ' ')} skill to ...",
                "files": [],
                "expected_skill": name,
                "ground_truth": "What a correct answer contains.",
                "expected_behavior": ["Reads SKILL.md before acting"],
            },
            {
                "id": "implicit-1",
                "kind": "implicit",
                "prompt": "A request that needs this skill without naming it ...",
                "files": [],
                "expected_skill": name,
                "ground_truth": "What a correct answer contains.",
                "expected_behavior": ["Activates the skill without being told to"],
            },
            {
                "id": "negative-1",
                "kind": "negative",
                "prompt": "A nearby request this skill must not take ...",
                "files": [],
                "expected_skill": None,
                "ground_truth": "Answers without using the skill.",
                "expected_behavior": ["Does not read this skill's SKILL.md"],
            },
        ],
    }


def create_skill(parent: Path, name: str, description: str | None = None) -> Path:
    """Create `parent/name/` with SKILL.md and evals/evals.json; never overwrites."""
    if not NAME_RE.fullmatch(name) or len(name) > 64:
        raise ScaffoldError(
            f"{name!r} is not a valid skill name: use 1-64 lowercase letters, digits and single "
            f"hyphens, e.g. {suggest_name(name)!r}"
        )
    reserved = reserved_word_problem(name)
    if reserved:
        raise ScaffoldError(reserved)
    root = Path(parent) / name
    if (root / "SKILL.md").exists():
        raise ScaffoldError(f"{root / 'SKILL.md'} already exists; pick another name or edit it")
    desc = description or (
        f"Describe what {name.replace('-', ' ')} does and when to use it, in the words users "
        "type. Use when the user asks to ..."
    )
    atomic_write_text(root / "SKILL.md", skill_md(name, desc))
    atomic_write_text(root / "evals" / "evals.json", json.dumps(evals_template(name), indent=2) + "\n")
    return root
