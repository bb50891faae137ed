"""One script as an external tool (ruff, shellcheck) is shown it: its text and bytes, the
hash its cached results are kept under, and, for a Python template, the `{{NAME}}` (or `<NAME>`) slots
filled by names before the tool reads it (`linters.scripts.template_slots`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from linters.scripts.template_slots import Slot, code_slots, filled_text
from skillforge.models.skill import SkillFile


@dataclass
class ScriptInput:
    """One script as a tool sees it: its bytes, their hash and the suffix the tool is shown."""

    path: str
    text: str
    data: bytes
    content_key: tuple[str, str]  # (sha256 of data, suffix)
    slots: tuple[Slot, ...] = ()  # a template's `{{NAME}}` slots, filled in `text` and `data`

    @classmethod
    def of(cls, f: SkillFile, suffix: str) -> ScriptInput:
        data = f.raw if f.raw is not None else (f.text or "").encode("utf-8")
        return cls(f.path, f.text or "", data, (hashlib.sha256(data).hexdigest(), suffix))

    @classmethod
    def of_python(cls, f: SkillFile, suffix: str) -> ScriptInput:
        """`of`, except that a template is shown with its slots filled by names."""
        slots = code_slots(f.text or "", f.path)
        if not slots:
            return cls.of(f, suffix)
        text = filled_text(f.text or "", f.path)
        data = text.encode("utf-8", "surrogatepass")
        return cls(f.path, text, data, (hashlib.sha256(data).hexdigest(), suffix), slots)
