"""Readings from the thirtieth held-out part of issue 36: paths inside an app package.

SF116: a skill about mobile apps (it names APKs, IPAs or their decompilers) that sends the
agent to a well-known path inside the app package ("React Native | Extract
`assets/index.android.bundle`", "grep `lib/arm64-v8a/libapp.so`") names the target app's
file, not one of its own, even with no artefact word beside the path. Twins stay errors: a
link to the same path, a skill that keeps its own `assets/` folder, a missing
`references/` file of the same mobile skill, the same row in a skill about something else,
and an `assets/` document a mobile skill tells the agent to read.

Every skill text here is written for this file.
"""

from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.linters.rule_findings import fresh_root, severe
from tests.linters.test_security import make_skill

_MOBILE = """\
# Mobile app review

Decompile the APK with `jadx` before anything else; an IPA is unzipped instead.

## Triage

| Stack | First move |
|-------|------------|
| Android | run `apktool d target.apk` |
| React Native | {verb} `{path}` - the JS lives there |
"""

_OTHER = """\
# Release notes writer

Summarise the merged pull requests of the week.

| Step | What |
|------|------|
| Bundle | {verb} `{path}` - the JS lives there |
"""


def _mobile(verb: str = "Extract", path: str = "assets/index.android.bundle") -> str:
    return _MOBILE.format(verb=verb, path=path)


def test_a_mobile_skill_sends_the_agent_into_the_apk(tmp_path):
    assert severe(make_skill(tmp_path, _mobile()), "SF116") == []


def test_other_in_package_paths_of_a_mobile_skill(tmp_path):
    body = _mobile() + """
Search `lib/arm64-v8a/libflutter.so` with strings, check `decoded/AndroidManifest.xml`
for exported activities, inspect `res/xml/network_security_config.xml`, and look for
`Payload/Target.app/Info.plist` in the IPA's twin build.
"""
    assert severe(make_skill(tmp_path, body), "SF116") == []


def test_a_link_to_the_same_path_stays_an_error(tmp_path):
    body = _mobile() + "\nExtract [the bundle](assets/index.android.bundle) first.\n"
    assert [x[1] for x in severe(make_skill(tmp_path, body), "SF116")] != []


def test_a_skill_with_its_own_assets_folder_keeps_the_error(tmp_path):
    skill = make_skill(tmp_path, _mobile(), {"assets/checklist.md": "- item\n"})
    assert severe(skill, "SF116") != []


def test_a_missing_reference_of_the_mobile_skill_stays_an_error(tmp_path):
    body = _mobile() + "\nFor pinning bypasses, read `references/frida-pinning.md`.\n"
    assert [x[1] for x in severe(make_skill(tmp_path, body), "SF116")] == [17]


def test_an_assets_document_to_read_stays_an_error(tmp_path):
    body = _mobile() + "\nCheck `assets/report-template.md` before writing the report.\n"
    assert severe(make_skill(tmp_path, body), "SF116") != []


def test_the_same_row_in_a_skill_about_something_else_stays_an_error(tmp_path):
    body = _OTHER.format(verb="Extract", path="assets/index.android.bundle")
    assert severe(make_skill(tmp_path, body), "SF116") != []


def test_a_path_named_without_a_verb_stays_an_error(tmp_path):
    body = _mobile(verb="Use", path="assets/index.android.bundle")
    assert severe(make_skill(tmp_path, body), "SF116") != []


_VERBS = st.sampled_from(["Extract", "Grep", "Search", "Look for", "Inspect", "Pull",
                          "Beautify", "Dump", "Unzip and check"])
_PATHS = st.sampled_from(["assets/index.android.bundle", "assets/flutter_assets/kernel_blob.bin",
                          "lib/armeabi-v7a/libapp.so", "classes2.dex", "resources.arsc",
                          "smali/com/target/Auth.smali", "assets/bin/Data/Managed/Assembly-CSharp.dll",
                          "Payload/Shop.app/main.jsbundle", "res/raw/config.json"])
# In-package paths under `assets/`, a folder the rule otherwise reads as the skill's own.
_ASSETS = st.sampled_from(["assets/index.android.bundle", "assets/flutter_assets/kernel_blob.bin",
                           "assets/bin/Data/Managed/Assembly-CSharp.dll", "assets/www/index.html",
                           "assets/libhermes.so", "assets/cache.db", "assets/main.jsbundle"])
_SETTINGS = settings(max_examples=12, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])



@_SETTINGS
@given(verb=_VERBS, path=_PATHS)
def test_property_in_package_paths_of_a_mobile_skill_are_soft(tmp_path, verb, path):
    assert severe(make_skill(fresh_root(tmp_path), _mobile(verb, path)), "SF116") == []


@_SETTINGS
@given(verb=_VERBS, path=_ASSETS)
def test_property_twins_stay_severe(tmp_path, verb, path):
    root = fresh_root(tmp_path)
    assert severe(make_skill(root / "a", _mobile(verb, path)), "SF116") == []
    # Twins: a link, the skill's own assets/ folder, a skill about something else.
    linked = _mobile(verb, path) + f"\n{verb} [it]({path}) too.\n"
    assert severe(make_skill(root / "b", linked), "SF116") != []
    owned = make_skill(root / "c", _mobile(verb, path), {"assets/own.txt": "x\n"})
    assert severe(owned, "SF116") != []
    other = _OTHER.format(verb=verb, path=path)
    assert severe(make_skill(root / "d", other), "SF116") != []
