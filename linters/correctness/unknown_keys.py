"""SF112: frontmatter keys outside the Agent Skills spec.

A key the spec does not list is an error, unless something real reads it: a harness that
documents it for skills (`harness_keys`), the skill's own repository documenting it as its
harness's extension (`repo_keys`), or a platform the skill declares it is made for
(`platform_keys`); those are warnings naming who reads the key. A key that looks like a
misspelt spec or harness key gets the spelling as its fix; a key of an upstream skill copied
in (`vendored_reason`), of a metadata checker's fixture, or of a SKILL.md a plugin keeps
outside the skills folders its manifest names (`outside_plugin_skills`) is a warning saying so.
"""

from __future__ import annotations

from collections.abc import Iterator

from linters.context import LintContext
from linters.correctness.correctness import SPEC_KEYS
from linters.correctness.harness_keys import (KNOWN_KEYS, documented_under_metadata, harness_of,
                                             spelled_elsewhere)
from linters.correctness.not_installed import metadata_fixture_sentence
from linters.correctness.outside_plugin_skills import outside_reason
from linters.correctness.platform_keys import platform_block, platform_key
from linters.correctness.repo_keys import (documented_by_repository, repository_docs,
                                          repository_key)
from linters.registry import check
from linters.text.compiled_regex import rx
from linters.text.vendored_copy import vendored_reason
from skillforge.models.findings import Finding, Severity

_CAMEL_HUMP = rx(r"(?<=[a-z])(?=[A-Z])")


def _key_hint(key: str) -> str | None:
    """The allowed or known key that `key` is probably a misspelling of."""
    norm = _CAMEL_HUMP.sub("-", key).lower().replace("_", "-").replace(" ", "-")
    for known in (*SPEC_KEYS, *KNOWN_KEYS):
        if norm == known.replace("_", "-") and key != known:
            return known
    return None


@check("SF112")
def unknown_keys(ctx: LintContext) -> Iterator[Finding]:
    """Frontmatter keys outside the spec; a harness's own keys are a warning, others an error."""
    if not ctx.frontmatter_ok:
        return
    docs = None  # the repository's documents, read once when a key first needs them
    for key in ctx.skill.frontmatter.data:
        k = str(key)
        if k in SPEC_KEYS:
            continue
        line = ctx.fm_line(k)
        harness = harness_of(k, ctx.skill.frontmatter.data)
        if harness:
            where = ("move it under `metadata:` as a string" if k == "version"
                     else f"keep it only if the skill is meant for {harness}")
            yield ctx.finding(
                "SF112",
                f"`{k}` is not in the Agent Skills spec: {harness} reads it"
                f"{spelled_elsewhere(k)}, but other "
                f"harnesses ignore it and strict validators reject the skill, so {where}.",
                line=line,
                severity=Severity.warning,
            )
            continue
        block = platform_block(ctx, k)
        if block:  # the settings of a platform the skill declares (platform_keys)
            yield ctx.finding("SF112", platform_key(k, *block), line=line,
                              severity=Severity.warning)
            continue
        docs = repository_docs(ctx.skill.root) if docs is None else docs
        documented = documented_by_repository(docs, k)
        if documented:  # the repository's own harness reads it (repo_keys)
            yield ctx.finding("SF112", repository_key(k, *documented), line=line,
                              severity=Severity.warning)
            continue
        hint, why = _key_hint(k), (vendored_reason(ctx.skill.root, f"`{k}`")  # upstream key
                                   or _fixture_reason(ctx, k) or outside_reason(ctx))
        fix = (f"rename it to `{hint}`." if hint else
               "record it under `metadata:` as a string value or delete it."
               + documented_under_metadata(k))
        yield ctx.finding(
            "SF112",
            f"Unknown frontmatter key `{k}`: the spec allows only {', '.join(SPEC_KEYS)}; {fix}"
            + (f" (A warning only: {why}.)" if why else ""),
            line=line,
            severity=Severity.warning if why else None,
        )


def _fixture_reason(ctx: LintContext, key: str) -> str | None:
    """The warning's reason for a fixture of a metadata checker (`not_installed`): its keys
    are the test's input; None for any other skill."""
    said = metadata_fixture_sentence(ctx.skill.description)
    if said is None:
        return None
    return (f"the description calls this SKILL.md a fixture of its own metadata (\"{said}\"), "
            f"the input of a checker's test, so `{key}` is what that checker reads, not a key "
            "of a skill anyone installs")
