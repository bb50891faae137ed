"""SF504 and GitHub's checksummed tokens, tuned on holdout28 (issue 36).

A GitHub token `gh[pousr]_` + 36 base62 characters ends in the base62 CRC32 of its first
30 (linters.security.github_tokens). One whose checksum fails was never issued: a copied
documentation sample, info with the reason. A long refresh token (`ghr_` + 76) has no
documented checksum: it is info only in the same response sample as a failing token. A token
whose checksum holds stays high everywhere, in a shell, XML or JSON response sample too;
other secret types are untouched.

Every skill text and token here is written (or generated) for this file.
"""

from __future__ import annotations

import random
import string
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as hs

from linters import lint_skill
from linters.security.github_tokens import (
    BASE62, PREFIXES, base62, checksum, checksum_holds, whole_token,
)
from tests.hypothesis_budget import examples

_ALPHABET = string.digits + string.ascii_uppercase + string.ascii_lowercase


def _random_part(rng: random.Random) -> str:
    # Mixed case and digits up front, as real tokens have; no run a placeholder filter knows.
    while True:
        part = "Q7k" + "".join(rng.choice(_ALPHABET) for _ in range(27))
        low = part.lower()
        if not any(w in low for w in ("xxxx", "abcdef", "1234567", "000000", "key", "your")):
            return part


def _token(rng: random.Random, prefix: str = "gho_", valid: bool = True) -> str:
    part = _random_part(rng)
    tail = checksum(part)
    if not valid:
        tail = tail[:-1] + ("b" if tail[-1] != "b" else "c")
    return prefix + part + tail


def _refresh(rng: random.Random) -> str:
    return "ghr_" + "".join(rng.choice(_ALPHABET) for _ in range(70)) + "Zq81Lm"


VALID = _token(random.Random(1))
FAILING = _token(random.Random(2), valid=False)
REFRESH = _refresh(random.Random(3))


def _skill(tmp_path: Path, reference: str, name: str = "probe") -> Path:
    skill = tmp_path / name
    (skill / "references").mkdir(parents=True, exist_ok=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: Helps with {name} work.\n---\n\n# {name}\n\n"
        "See [the OAuth notes](references/oauth.md).\n", encoding="utf-8")
    (skill / "references" / "oauth.md").write_text(reference, encoding="utf-8")
    return skill


def _sf504(skill: Path) -> list[tuple[int, str, str]]:
    return sorted((f.line, f.severity.value, f.message) for f in lint_skill(skill).findings
                  if f.rule == "SF504")


def _response_doc(access: str, refresh: str | None = None) -> str:
    refresh_line = f"&refresh_token={refresh}\n" if refresh else ""
    return (
        "# Exchanging the code\n\nThe server answers in this form:\n\n"
        f"```shell\naccess_token={access}&expires_in=28800\n{refresh_line}"
        "&scope=repo&token_type=bearer\n```\n\n"
        "Asked for JSON it answers:\n\n"
        f'```json\n{{\n  "access_token": "{access}",\n  "token_type": "bearer"\n}}\n```\n\n'
        "Asked for XML:\n\n"
        f"```xml\n<OAuth>\n  <access_token>{access}</access_token>\n</OAuth>\n```\n")


# --- the checksum itself -------------------------------------------------------------------

def test_known_answer_and_width() -> None:
    # A published CRC32/base62 pair of a revoked token's random part.
    assert checksum("fIkRGaBu5PeKsznMzXQOg3kETH1Sgx") == "2oIfSC"
    assert base62(0) == "000000" and base62(61) == "00000z"
    assert len(base62(2**32 - 1)) == 6  # every CRC32 fits the six places
    assert BASE62 == _ALPHABET


@settings(max_examples=examples(400), deadline=None)
@given(seed=hs.integers(0, 2**32), prefix=hs.sampled_from(PREFIXES), at=hs.integers(0, 35),
       shift=hs.integers(1, 61))
def test_generated_tokens_pass_and_one_change_fails(seed: int, prefix: str, at: int,
                                                    shift: int) -> None:
    rng = random.Random(seed)
    part = "".join(rng.choice(_ALPHABET) for _ in range(30))
    token = prefix + part + base62(zlib.crc32(part.encode()))
    assert checksum_holds(token) is True
    body = list(token[4:])
    body[at] = _ALPHABET[(_ALPHABET.index(body[at]) + shift) % 62]
    # CRC32 catches every one-byte change of the 30, and base62 is one-to-one on the 6.
    assert checksum_holds(prefix + "".join(body)) is False


def test_forms_without_a_checksum_are_not_judged() -> None:
    assert checksum_holds(REFRESH) is None  # the long refresh token
    assert checksum_holds(VALID + "a") is None  # a longer run
    assert checksum_holds(VALID[:-1]) is None
    assert checksum_holds(VALID[:10] + "_" + VALID[11:]) is None  # not base62
    assert checksum_holds("glpat-" + VALID[4:]) is None
    assert whole_token(f"x={REFRESH}&y", REFRESH[:40]) == REFRESH


# --- the class and its twins ---------------------------------------------------------------

def test_failing_samples_in_response_examples_are_info(tmp_path: Path) -> None:
    found = _sf504(_skill(tmp_path, _response_doc(FAILING, REFRESH)))
    assert found and all(sev == "info" for _, sev, _ in found)
    assert any("not the CRC32 checksum" in msg for _, _, msg in found)
    assert any("same response as a GitHub token whose checksum fails" in msg
               for _, _, msg in found)
    assert lint_skill(tmp_path / "probe").passed_gate


def test_valid_token_stays_high_in_every_response_example(tmp_path: Path) -> None:
    found = _sf504(_skill(tmp_path, _response_doc(VALID, REFRESH)))
    # shell access, shell refresh (beside a valid token), JSON string, XML element
    assert [sev for _, sev, _ in found] == ["high"] * 4


def test_refresh_token_alone_or_apart_stays_high(tmp_path: Path) -> None:
    alone = f"# Refresh\n\n```shell\nrefresh_token={REFRESH}\n```\n"
    assert [sev for _, sev, _ in _sf504(_skill(tmp_path / "a", alone))] == ["high"]
    apart = (f"# Two\n\n```shell\naccess_token={FAILING}\n```\n\nLater:\n\n"
             f"```shell\nrefresh_token={REFRESH}\n```\n")
    found = _sf504(_skill(tmp_path / "b", apart))
    assert [sev for _, sev, _ in found] == ["info", "high"]


def test_failing_token_as_a_step_is_info_valid_one_high(tmp_path: Path) -> None:
    step = "# Setup\n\nRun this first:\n\n```bash\nexport GITHUB_TOKEN={}\ngh repo list\n```\n"
    failing = _sf504(_skill(tmp_path / "a", step.format(_token(random.Random(4), "ghp_",
                                                                 valid=False))))
    valid = _sf504(_skill(tmp_path / "b", step.format(_token(random.Random(4), "ghp_"))))
    assert [sev for _, sev, _ in failing] == ["info"]
    assert [sev for _, sev, _ in valid] == ["high"]


@pytest.mark.parametrize("secret", [
    "github_pat_11AQ7kR2Z0Lm4Pq9Xv3Tb8_" + "Hc5Wn2Ks7Jd4Fg9Lq1Rt6Yp3Ze8Ub0Vm5Xa2Nc7Bd4Gh9Jk1Lq6Ps3",
    "npm_Q7kTz3Lm9Pq2Xv8Tb4Hc5Wn2Ks7Jd4Fg9Lq1",
])
def test_other_secret_types_untouched(tmp_path: Path, secret: str) -> None:
    doc = f"# Exchanging\n\nThe server answers in this form:\n\n```shell\ntoken={secret}\n```\n"
    assert [sev for _, sev, _ in _sf504(_skill(tmp_path, doc))] == ["high"]


_WRAPPERS = (
    "access_token={}&scope=repo",
    '"access_token": "{}",',
    "<access_token>{}</access_token>",
    "export GH_TOKEN='{}'",
    "Authorization: token {}",
)


@settings(max_examples=examples(40), deadline=None)
@given(seed=hs.integers(0, 2**32), prefix=hs.sampled_from(PREFIXES),
       wrap=hs.sampled_from(_WRAPPERS), lang=hs.sampled_from(("shell", "json", "xml", "")),
       valid=hs.booleans())
def test_checksum_decides_in_any_wrapper(tmp_path_factory, seed: int, prefix: str, wrap: str,
                                         lang: str, valid: bool) -> None:
    token = _token(random.Random(seed), prefix, valid=valid)
    doc = f"# Reply\n\nThe response takes this form:\n\n```{lang}\n{wrap.format(token)}\n```\n"
    found = _sf504(_skill(tmp_path_factory.mktemp("w"), doc))
    assert [sev for _, sev, _ in found] == (["high"] if valid else ["info"])
