"""Writing `evals/evals.json` back, and editing a set in memory (CONTRACTS.md section 4).

`dumps_evals` copies every unchanged value's original text byte for byte and re-renders only
what changed, in the file's indent and line endings; `save_evals` validates, refuses to
overwrite a file changed on disk since it was loaded (ConflictError) and writes atomically.
Reading is skillforge.models.evals, which re-exports these names.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from skillforge.models.fileio import atomic_write_text
from skillforge.models.evals import (
    ALIAS_TO_CANON,
    ALIASES,
    CASE_FIELDS,
    CaseKind,
    EvalCase,
    EvalIssue,
    EvalSet,
    EvalsInvalidError,
    parse_evals,
    parsed_list,
    parsed_value,
)


class ConflictError(RuntimeError):
    """The file changed on disk since it was loaded (or exists when a new one was expected)."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(message)
        self.path = path


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text: 1, 1.0 and true differ, and so does key order."""
    try:
        return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)
    except (TypeError, ValueError):
        return False


def _list_value(canon: str, value: list[str], raw: Any) -> Any:
    """A changed list, keeping the author's item shapes ({"text": ...} objects) and extras."""
    raw_items = raw if isinstance(raw, list) else []
    objects = bool(raw_items) and all(isinstance(v, dict) for v in raw_items)
    out: list[Any] = []
    for i, item in enumerate(value):
        old = raw_items[i] if i < len(raw_items) else None
        if old is not None and _same(parsed_list([old]), [item]):
            out.append(old)
        elif isinstance(old, dict):
            out.append({**old, "text": item})
        else:
            out.append({"text": item} if objects and canon == "expected_behavior" else item)
    return out


def style_names(evalset: EvalSet) -> dict[str, str]:
    """The field names most of the set's cases use (e.g. skill-creator's `expectations`)."""
    names: dict[str, str] = {}
    for canon in ALIASES:
        used = [c.field_names[canon] for c in evalset.cases if canon in c.field_names]
        if used:
            names[canon] = max(dict.fromkeys(used), key=used.count)
    return names


def _case_document(case: EvalCase, style: dict[str, str]) -> dict[str, Any]:
    raw = case._raw or {}
    values: dict[str, Any] = {}
    for canon in CASE_FIELDS:
        value = getattr(case, canon)
        name = case.field_names.get(canon) or style.get(canon, canon)
        if name in raw:
            if value is None and canon == "should_trigger":
                continue  # unset in the form: the key goes (null is not a valid flag)
            if _same(parsed_value(canon, raw[name]), value):
                values[name] = raw[name]  # unchanged: the author's exact value
            elif canon in ("files", "expected_behavior") and isinstance(value, list):
                values[name] = _list_value(canon, value, raw[name])
            else:
                values[name] = value
        elif value not in (None, []):
            values[name] = value
    values.update(case.extra)
    order = [k for k in case.key_order if k in values]
    order += [k for k in values if k not in order]  # new fields, canonical order
    return {k: values[k] for k in order}


def evals_document(evalset: EvalSet) -> dict[str, Any] | list[Any]:
    """The JSON document `evalset` is written as."""
    style = style_names(evalset)
    cases = [_case_document(c, style) for c in evalset.cases]
    doc = evalset._doc
    values: dict[str, Any] = {}
    had = doc if isinstance(doc, dict) else {}
    if evalset.skill_name is not None or "skill_name" in had:
        values["skill_name"] = evalset.skill_name
    if evalset.defaults or "defaults" in had:
        values["defaults"] = evalset.defaults
    values["evals"] = cases
    values.update(evalset.extra)
    if isinstance(doc, list) and set(values) == {"evals"}:
        return cases  # the author wrote a bare list of cases
    canonical = ["skill_name", "defaults", "evals"]
    order = [k for k in evalset.key_order if k in values]
    order += [k for k in canonical + list(values) if k in values and k not in order]
    return {k: values[k] for k in dict.fromkeys(order)}


_NUM = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def _spans(text: str) -> dict[str, tuple[int, int]]:
    """JSON pointer -> (start, end) offsets of each value in a valid JSON text."""
    out: dict[str, tuple[int, int]] = {}
    ws = re.compile(r"[ \t\n\r]*")
    decoder = json.JSONDecoder()

    def value(pos: int, ptr: str) -> int:
        pos = ws.match(text, pos).end()
        start = pos
        ch = text[pos]
        if ch in "{[":
            close = "}" if ch == "{" else "]"
            pos = ws.match(text, pos + 1).end()
            i = 0
            while text[pos] != close:
                if ch == "{":
                    key, pos = json.decoder.scanstring(text, pos + 1)
                    pos = ws.match(text, pos).end() + 1  # the ':'
                    child = f"{ptr}/{key.replace('~', '~0').replace('/', '~1')}"
                else:
                    child = f"{ptr}/{i}"
                pos = ws.match(text, value(pos, child)).end()
                i += 1
                if text[pos] == ",":
                    pos = ws.match(text, pos + 1).end()
            end = pos + 1
        elif ch == '"':
            end = json.decoder.scanstring(text, pos + 1)[1]
        else:
            m = _NUM.match(text, pos)
            end = m.end() if m else decoder.raw_decode(text, pos)[1]
        out[ptr] = (start, end)
        return end

    value(0, "")
    return out


def _ptr(base: str, key: str | int) -> str:
    return f"{base}/{str(key).replace('~', '~0').replace('/', '~1')}"


class _Renderer:
    """Renders a document against the text it was read from, copying unchanged values.

    Values equal to what stood at the same place keep their original text; changed
    containers are laid out with the file's indent and line endings (inline when the
    original was on one line). Cases are matched with the case they were read from, so
    reordering or inserting cases leaves the other cases' text alone.
    """

    def __init__(self, evalset: EvalSet) -> None:
        self.text = evalset._text or ""
        self.spans = _spans(self.text) if evalset._text is not None else {}
        self.nl = "\r\n" if "\r\n" in self.text else "\n"
        ind = evalset.indent if evalset.indent is not None else 2
        self.unit = ind if isinstance(ind, str) else " " * ind
        self.ascii = bool(self.text) and self.text.isascii() and "\\u" in self.text
        self.cases_ptr = "" if isinstance(evalset._doc, list) else "/evals"
        self.case_index = [c._index for c in evalset.cases]

    def render(self, value: Any, orig: Any, ptr: str | None, depth: int) -> str:
        span = self.spans.get(ptr) if ptr is not None else None
        if span is not None and _same(value, orig):
            return self.text[span[0]:span[1]]
        inline = span is not None and "\n" not in self.text[span[0]:span[1]]
        if isinstance(value, dict) and value:
            old = orig if isinstance(orig, dict) and ptr is not None else {}
            items = [f"{json.dumps(k, ensure_ascii=self.ascii)}: "
                     f"{self.render(v, old.get(k), _ptr(ptr, k) if k in old else None, depth + 1)}"
                     for k, v in value.items()]
            return self._wrap("{", "}", items, depth, inline)
        if isinstance(value, list) and value:
            old_list = orig if isinstance(orig, list) and ptr is not None else []
            index = self.case_index if ptr == self.cases_ptr else list(range(len(value)))
            items = []
            for i, v in enumerate(value):
                j = index[i] if i < len(index) else None
                ok = j is not None and j < len(old_list)
                items.append(self.render(v, old_list[j] if ok else None,
                                         _ptr(ptr, j) if ok else None, depth + 1))
            return self._wrap("[", "]", items, depth, inline)
        return json.dumps(value, ensure_ascii=self.ascii)

    def _wrap(self, open_: str, close: str, items: list[str], depth: int, inline: bool) -> str:
        if inline:
            return open_ + ", ".join(items) + close
        pad = self.nl + self.unit * (depth + 1)
        return open_ + pad + ("," + pad).join(items) + self.nl + self.unit * depth + close


def dumps_evals(evalset: EvalSet) -> str:
    """The text of evals.json for `evalset`: unchanged values byte-identical to the source."""
    r = _Renderer(evalset)
    known = evalset._text is not None
    body = r.render(evals_document(evalset), evalset._doc if known else None,
                    "" if known else None, 0)
    if not known or evalset._text.endswith("\n"):
        body += r.nl
    return body


def _sha_of(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def save_evals(evalset: EvalSet, path: Path, expected_sha: str | None = None, *,
               overwrite: bool = False) -> str:
    """Validate, then atomically write `evalset` to `path`; returns the new text's sha256.

    Refuses with ConflictError when the file on disk is not the one loaded: its sha256
    differs from `expected_sha` (default: the sha of the text `evalset` was parsed from),
    or it exists although the set is new. `overwrite=True` skips that check. Raises
    EvalsInvalidError, writing nothing, when the result would not validate.
    """
    path = Path(path)
    if evalset._unreadable:
        raise EvalsInvalidError(path, [EvalIssue(pointer="/evals", message=(
            f"{evalset._unreadable} case(s) of the file could not be read, and saving would "
            "drop them; fix them in the file first"))])
    expected = expected_sha if expected_sha is not None else evalset._sha
    if not overwrite:
        current = _sha_of(path)
        if expected is None and current is not None:
            raise ConflictError(path, f"{path} already exists; load it first, or save with "
                                "overwrite to replace it")
        if expected is not None and current != expected:
            what = "was deleted" if current is None else "changed on disk"
            raise ConflictError(path, f"{path} {what} since it was loaded; reload it (your "
                                "edits are kept in memory) or save with overwrite")
    text = dumps_evals(evalset)
    _, issues = parse_evals(text)
    if issues:
        raise EvalsInvalidError(path, issues)
    atomic_write_text(path, text)
    _remember(evalset, text)
    return evalset._sha or ""


def _remember(evalset: EvalSet, text: str) -> None:
    """After a save, the written text is what later edits are compared with."""
    fresh, _ = parse_evals(text)
    if fresh is None or len(fresh.cases) != len(evalset.cases):
        return
    evalset._text, evalset._doc, evalset._sha = fresh._text, fresh._doc, fresh._sha
    evalset.key_order = fresh.key_order
    for mine, new in zip(evalset.cases, fresh.cases, strict=True):
        mine._raw, mine._index = new._raw, new._index
        mine.key_order, mine.field_names = new.key_order, new.field_names


class EvalsFile(BaseModel):
    """An evals.json as loaded: its text, sha256 and mtime, the set, and any issues."""

    path: Path
    text: str | None = None  # None: the file does not exist yet
    sha256: str | None = None
    mtime_ns: int | None = None
    evalset: EvalSet | None = None
    issues: list[EvalIssue] = Field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> EvalsFile:
        """Read `path` (a missing file gives an empty new set); never raises for bad JSON."""
        path = Path(path)
        try:
            data = path.read_bytes()
            stat = os.stat(path)
        except FileNotFoundError:
            return cls(path=path, evalset=EvalSet())
        except OSError as exc:
            return cls(path=path, issues=[EvalIssue(pointer="", message=f"cannot read {path}: "
                                                    f"{exc}")])
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return cls(path=path, sha256=hashlib.sha256(data).hexdigest(),
                       mtime_ns=stat.st_mtime_ns, issues=[EvalIssue(
                           pointer="", message=f"{path} is not UTF-8 ({exc.reason}); save it "
                           "as UTF-8")])
        evalset, issues = parse_evals(text)
        return cls(path=path, text=text, sha256=hashlib.sha256(data).hexdigest(),
                   mtime_ns=stat.st_mtime_ns, evalset=evalset, issues=issues)

    def changed_on_disk(self) -> bool:
        """True when the file is no longer the one loaded (cheap mtime check, then sha256)."""
        try:
            if os.stat(self.path).st_mtime_ns == self.mtime_ns:
                return False
        except FileNotFoundError:
            return self.sha256 is not None
        return _sha_of(self.path) != self.sha256

    def save(self, evalset: EvalSet | None = None, *, overwrite: bool = False) -> EvalsFile:
        """Write `evalset` (default: the loaded one) back; this object then describes the
        file as now on disk, so saving again after more edits just works."""
        evalset = evalset or self.evalset
        if evalset is None:
            raise EvalsInvalidError(self.path, self.issues)
        save_evals(evalset, self.path, self.sha256, overwrite=overwrite)
        self.text, self.sha256, self.evalset, self.issues = evalset._text, evalset._sha, evalset, []
        self.mtime_ns = os.stat(self.path).st_mtime_ns
        return self


# Editing helpers (the evals editor).

def new_case(case_id: str | int, prompt: str, *, kind: CaseKind | None = None,
             **fields: Any) -> EvalCase:
    """A new case; fields by canonical name (or alias), unknown ones kept as extras."""
    values: dict[str, Any] = {"id": case_id, "prompt": prompt, "kind": kind}
    extra: dict[str, Any] = {}
    for name, value in fields.items():
        canon = ALIAS_TO_CANON.get(name, name)
        if canon in CASE_FIELDS:
            values[canon] = value
        else:
            extra[name] = value
    return EvalCase(**values, extra=extra)


def unique_case_id(evalset: EvalSet, base: str) -> str:
    """`base`, or `base-2`, `base-3`, ... whichever no case uses yet."""
    taken = {str(c.id) for c in evalset.cases}
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def add_case(evalset: EvalSet, case: EvalCase, index: int | None = None) -> EvalCase:
    """Insert `case` (at the end by default), named in the style of the set's cases."""
    if evalset.case(case.id) is not None:
        raise ValueError(f"a case with id {case.id!r} already exists; ids must be unique")
    style = style_names(evalset)
    for canon, name in style.items():
        case.field_names.setdefault(canon, name)
    if not case.key_order:
        order = [case.field_names.get(c, c) for c in CASE_FIELDS] + list(case.extra)
        if evalset.cases and evalset.cases[0].key_order:
            lead = [k for k in evalset.cases[0].key_order if k in order]
            order = lead + [k for k in order if k not in lead]
        case.key_order = order
    evalset.cases.insert(len(evalset.cases) if index is None else index, case)
    return case


def remove_case(evalset: EvalSet, case_id: str | int) -> EvalCase:
    case = evalset.case(case_id)
    if case is None:
        raise KeyError(f"no case with id {case_id!r}")
    evalset.cases.remove(case)
    return case


def move_case(evalset: EvalSet, case_id: str | int, index: int) -> None:
    """Move a case to position `index` (0-based, clamped)."""
    case = remove_case(evalset, case_id)
    evalset.cases.insert(max(0, min(index, len(evalset.cases))), case)


def set_field(case: EvalCase, name: str, value: Any) -> None:
    """Set a field by canonical name or alias (validated), or an unknown field (kept)."""
    canon = ALIAS_TO_CANON.get(name, name)
    if canon in CASE_FIELDS:
        setattr(case, canon, value)
        if name != canon and canon not in case.field_names:
            case.field_names[canon] = name
    elif value is None:
        case.extra.pop(name, None)
    else:
        case.extra[name] = value
