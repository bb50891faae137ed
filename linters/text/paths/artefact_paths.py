"""Paths inside an artefact the skill analyses, not files of the skill (SF116; issue 36,
holdout13).

A skill that reverses an Android app says "The APK contains `assets/index.android.bundle`":
the path is where the file sits inside the APK (a sign to look for), not a file the skill
ships. The words tie the path to a package, binary or image the agent works on:

- the artefact holds it: "The APK contains `x`", "the IPA includes `x` or `y`";
- the artefact's file: "the app's `Info.plist`", "the firmware's `etc/shadow`";
- the path is placed in it: "`x` inside the APK", "`squashfs-root/etc/passwd` extracted
  from the firmware image", "Inside the JAR: `META-INF/MANIFEST.MF`";
- a marker of what the target is built with: "Identify the framework: React Native
  (`assets/index.android.bundle`)", in parentheses after the name it marks.

The artefacts: app packages (APK, IPA, AAB, JAR, WAR, DMG, MSI...), an app, a binary or
executable, firmware, a container, disk or system image, an archive. Not the skill's or
the plugin's own package ("the skill archive contains `scripts/run.py`"), nor a tool named
after one ("`scripts/unpack.sh` from the firmware toolkit"). Read in bounded windows just
before and after the path, never in the whole sentence.
"""

from __future__ import annotations

import re

from linters.text.compiled_regex import rx
from linters.text.paths.path_context import Paragraph

_DET = r"(?:the|an?|this|that|its|their|each|every|any|target|unpacked|extracted|decompiled)"
# Up to two modifiers ("the decoded release APK"), not the skill's or plugin's own package.
_MODS = r"(?:(?!skill\b|plugin\b|release\b)[\w.-]+\s+){0,2}"
_ARTEFACT = (r"(?:apks?|ipas?|aabs?|xapks?|jars?|war|ear|aars?|dex|dmg|msi|ipsw|apps?"
             r"|application|binar(?:y|ies)|executables?|firmware|archives?|tarballs?|zip"
             r"|(?:container|docker|oci|disk|system|boot|rootfs|firmware|vm)\s+images?)")
# Not a tool or a folder named after the artefact ("the firmware toolkit", "app scripts").
_NOT_A_NOUN_AFTER = (r"(?![\w-]|\s+(?:tool(?:s|kit)?|kit|skills?|plugins?|scripts?|helpers?"
                     r"|folders?|director(?:y|ies)|analy[sz]ers?|extractors?|unpackers?"
                     r"|decompilers?|parsers?|code|repo(?:sitory)?|project|store)\b)")
_HOLD = r"(?:contains?|includes?|holds?|has|ships?|bundles?|embeds?|carries|stores?)"
# Before the path, within its sentence: "The APK contains `", "The IPA includes `a` or `",
# "the app's `", "Inside the JAR: `".
_BEFORE = rx(
    rf"\b{_DET}\s+{_MODS}{_ARTEFACT}{_NOT_A_NOUN_AFTER}\s+(?:\w+\s+)?{_HOLD}\s+"
    r"(?:(?:an?|the)\s+)?(?:[^.;!?`\n]|`[^`\n]*`){0,80}`?$"
    rf"|\b{_ARTEFACT}['’]s\s+(?:[\w-]+\s+){{0,2}}`?$"
    rf"|\b(?:in|inside|within)\s+{_DET}\s+{_MODS}{_ARTEFACT}\s*[,:]\s*`?$"
    # A marker that tells what the target is built with: "Identify the framework: React
    # Native (`assets/index.android.bundle`), Flutter (`libflutter.so`)".
    r"|\b(?:identify|detect|recogni[sz]e|fingerprint|determine)\w*\s+(?:the\s+|its\s+|which\s+)?"
    r"(?:framework|platform|stack|engine|runtime|toolkit|packer|obfuscator)s?\b"
    r"(?:[^.;!?`\n]|`[^`\n]*`){0,100}\(\s*`?$",
    re.IGNORECASE,
)
# After the path: "` inside the APK", "` extracted from the firmware image", "` (the JS
# bundle) in the APK".
_AFTER = rx(
    r"`?[^\s`]+`?(?:\s+\([^()\n]{0,40}\))?\s+(?:(?:is|are)\s+)?(?:[a-z]+\s+)?"
    rf"(?:in|inside|within|from)\s+{_DET}\s+{_MODS}{_ARTEFACT}{_NOT_A_NOUN_AFTER}",
    re.IGNORECASE,
)
_REACH = 120


def inside_artefact(para: Paragraph, offset: int, path: str) -> bool:
    """The words just around the path at `offset` of `para` place it inside an artefact
    the skill analyses (see the module's docstring)."""
    start, end = para.sentence(offset)
    if _BEFORE.search(para.text, max(start, offset - _REACH), offset):
        return True
    return bool(_AFTER.match(para.text, offset, min(end, offset + len(path) + _REACH)))
