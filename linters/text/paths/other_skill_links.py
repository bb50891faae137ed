"""Link targets that name no file of the skill (SF116): a placeholder (`references/xxx.md`,
a URL's slot), another skill the text tells the user to install, sibling skills linked from
another install layout.

- `[Open](LINK)`, `[connect a domain](<checkout-url>)`: a target that is one word naming a
  URL (`URL`, `LINK`, `HREF` in capitals, or a name ending so: `checkout-url`) is the slot of
  a message template, filled with the address the agent builds; no file is meant.
- "install the dedicated [`x-migrate`](../x-migrate/SKILL.md) skill: `npx skills add ...`":
  the link names another skill's SKILL.md (or folder), outside this skill, in a sentence
  that has the user install that skill; it is there once that skill is installed.
- A file whose links to sibling skills all climb the same wrong number of levels
  (`../../../other-skill/` from SKILL.md, when the skills beside this one are one level up):
  written for another layout of the same skills (a plugin's `skills/` folder), where they
  resolve. Read so only when some link of that climb names a skill found beside this one;
  a single link that climbs one level too many is a broken relative link, as before.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from linters.text.compiled_regex import rx

# One word naming an address: `LINK`, `URL`, `checkout-url`, `your_link`, `dashboard-href`.
_URL_SLOT = rx(r"^(?:[A-Za-z0-9]+[-_])*(?:url|uri|link|href)$", re.IGNORECASE)
# The sentence has the user install a skill: "install the dedicated `x` skill",
# "`npx skills add owner/repo --skill x`", "add the x skill first".
_INSTALL_SKILL = rx(
    r"\binstall(?:s|ed|ing)?\b[^.;\n]{0,80}?\bskills?\b|\bskills?\b[^.;\n]{0,40}?\binstall"
    r"|\bnpx\s+skills\s+add\b|\bskills\s+add\b|\badd\s+the\s+[^.;\n]{0,60}?\bskill\b",
    re.IGNORECASE,
)
# A link target naming a skill: its SKILL.md, or its folder.
_SKILL_TARGET = rx(r"^((?:\.\./)+)([\w.-]+)/(?:SKILL\.md)?$")


# A file name nobody ships: `references/X.md`, `xxx.md`, `example.py` in a sentence
# showing the shape of a pointer.
_PLACEHOLDER_STEM = rx(
    r"^(?:x+|foo|bar|baz|file[-_]?name|some[-_]?file|something|whatever"
    r"|placeholder|example|sample)$",
    re.IGNORECASE,
)


def placeholder_path(path: str) -> bool:
    """A file name nobody ships, or a URL's slot in a template."""
    stem = posixpath.basename(path).split(".", 1)[0]
    return bool(_PLACEHOLDER_STEM.match(stem)) or url_placeholder(path)


def url_placeholder(path: str) -> bool:
    """`path` is a single word naming a URL, written as a slot (in capitals, or naming which
    address): a template's slot, not a file. A bare lowercase `url` is left to the reader:
    in a rule file it is a stub the author forgot to fill in."""
    return ("/" not in path and "." not in path and bool(_URL_SLOT.match(path))
            and (path.isupper() or "-" in path or "_" in path))


def other_skill(path: str, file: str) -> str | None:
    """The skill a link target from `file` names (`../x/SKILL.md`, `../../x/`) when it leaves
    the skill folder, else None."""
    m = _SKILL_TARGET.match(path)
    if m is None:
        return None
    base = posixpath.dirname(file)
    landed = posixpath.normpath(posixpath.join(base or ".", m.group(1)))
    return m.group(2) if landed.startswith("..") else None


def installs_other_skill(path: str, file: str, sentence: str) -> bool:
    """The link names another skill, in a sentence that has the user install it."""
    return other_skill(path, file) is not None and bool(_INSTALL_SKILL.search(sentence))


_CLIMB_LINK = rx(r"\]\(\s*<?((?:\.\./)+)([\w.-]+)/(?:SKILL\.md)?\s*>?\)")


def sibling_layout(root: Path, file: str, path: str, text: str) -> str | None:
    """Why a link to another skill (`path`, from `file`) is written for another layout: the
    skills this file links with the same climb are found beside this skill, one level up,
    where the climb does not lead. None otherwise."""
    if other_skill(path, file) is None:
        return None
    m = _SKILL_TARGET.match(path)
    assert m is not None
    climb = m.group(1)
    base = posixpath.dirname(file)
    if posixpath.normpath(posixpath.join(base or ".", climb)) == "..":
        return None  # it climbs to the folder that holds this skill: no other layout
    try:
        parent = root.resolve().parent
    except OSError:
        return None
    for link in _CLIMB_LINK.finditer(text):
        if link.group(1) != climb:
            continue
        name = link.group(2)
        if name != root.name and (parent / name / "SKILL.md").is_file():
            return (f"the skill `{name}` this file links with the same `{climb}` is beside "
                    f"this skill, at `../{name}/`; the links are written for another layout "
                    "of these skills")
    return None
