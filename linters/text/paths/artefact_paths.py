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

A skill about mobile apps names a package's own paths with no artefact word beside them: a
table row "React Native | Extract `assets/index.android.bundle` - it's JS". `in_app_package`
reads those when three things agree (holdout30):
- the document's subject is app packages: it names an APK, IPA, AAB or a decompiler for
  them (`apktool`, `jadx`) at least twice;
- the path has the shape of a file inside one: `lib/<abi>/`, `classes<n>.dex`,
  `AndroidManifest.xml`, `resources.arsc`, `smali/`, `META-INF/` signatures, a `res/` type
  folder, `Payload/<x>.app/`, or an `assets/` file an app framework puts there (a React
  Native or Flutter bundle, Unity's `bin/Data/`, Cordova's `www/`, a native `.so`, a `.db`);
- the sentence before it sends the agent to take or search it (extract, unzip, grep, look
  for, inspect, decompile, hook, patch...).
A Markdown link, and any path whose first folder the skill has (`assets/` of its own), stay
the skill's files: the caller asks only for a mention in a folder the skill lacks.
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

_APP_SUBJECT = rx(r"\b(?:apks?|ipas?|aabs?|xapks?|apktool|jadx|dex2jar|smali)\b", re.IGNORECASE)
_IN_PACKAGE = rx(
    r"(?:[\w.-]+/)?(?:lib/(?:arm64-v8a|armeabi(?:-v7a)?|x86(?:_64)?|mips(?:64)?)/"
    r"|res/(?:values|xml|raw|layout|drawable|mipmap|menu|navigation|anim|color|font)[\w-]*/"
    r"|smali(?:_classes\d+)?/|META-INF/[^/]+\.(?:RSA|DSA|EC|SF|MF)$|Payload/[^/]+\.app(?:/|$)"
    r"|assets/(?:index\.android\.bundle$|flutter_assets/|bin/Data/|www/|public/"
    r"|[^/]+\.(?:bundle|jsbundle|so|dll|dat|db|sqlite|bks)$)"
    r"|(?:classes\d*\.dex|AndroidManifest\.xml|resources\.arsc)$)",
)
_TAKE = rx(
    r"\b(?:extract|unzip|unpack|decompil|decod|grep|search|look\s+(?:for|at|in)|inspect|examin"
    r"|check|find|locate|strings|pull|dump|hook|patch|modif|replac|deobfuscat|beautif|review"
    r"|analy[sz])\w*",
    re.IGNORECASE,
)


def in_app_package(doc_text: str, para: Paragraph, offset: int, path: str) -> bool:
    """A mobile-app skill (by `doc_text`) sends the agent to `path`, a well-known path inside
    an app package, at `offset` of `para` (see the module's docstring)."""
    if not _IN_PACKAGE.match(path):
        return False
    start, _end = para.sentence(offset)
    if not _TAKE.search(para.text, max(start, offset - _REACH), offset):
        return False
    found = _APP_SUBJECT.finditer(doc_text)
    return next(found, None) is not None and next(found, None) is not None


def inside_artefact(para: Paragraph, offset: int, path: str) -> bool:
    """The words just around the path at `offset` of `para` place it inside an artefact
    the skill analyses (see the module's docstring)."""
    start, end = para.sentence(offset)
    if _BEFORE.search(para.text, max(start, offset - _REACH), offset):
        return True
    return bool(_AFTER.match(para.text, offset, min(end, offset + len(path) + _REACH)))
