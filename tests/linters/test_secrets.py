"""SF504: secrets found by detect-secrets' plugins, placeholders and documentation examples
left alone, each finding masked and placed at its line and column."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from linters.security import secret_detectors
from skillforge.models.findings import Severity
from tests.linters.test_security import hits, scan


def _fake_jwt() -> str:
    # A made-up token with the shape of a JWT: no service issued it.
    def part(obj: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
    return ".".join([part({"alg": "HS256", "typ": "JWT"}),
                     part({"sub": "svc-reports", "iat": 1700000000}),
                     "Qm9ndXNTaWduYXR1cmVOb3RSZWFsMTIzNDU2Nzg5MA"])


def test_token_found_by_detect_secrets_is_high():
    text = f"```bash\nexport REPORTS_TOKEN={_fake_jwt()}\n```\n"
    (h,) = hits(text)
    assert (h.rule, h.severity, h.line) == ("SF504", Severity.high, 2)
    assert "JwtTokenDetector" in h.message and "JSON Web Token" in h.message
    assert _fake_jwt() not in h.message  # the secret is masked


def test_documentation_placeholders_are_skipped():
    for line in (
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
        "GITHUB_TOKEN=ghp_" + "x" * 36,
        "export STRIPE_KEY=sk_live_" + "X" * 24,
        "export OPENAI_API_KEY=${OPENAI_API_KEY}",
        "DATABASE_URL=postgres://user:password@localhost:5432/app",
        "url = https://admin:<password>@db.acme-widgets.io/app",
        "token: your-api-key-here",
    ):
        assert [r for r in scan(f"```\n{line}\n```\n") if r[0] == "SF504"] == [], line


def test_jwt_io_sample_token_is_skipped():
    sample = ".".join([
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
        base64.urlsafe_b64encode(b'{"sub":"1234567890","name":"John Doe","iat":1516239022}')
        .decode().rstrip("="),
        "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ])
    assert scan(f"Authorization: Bearer {sample}\n") == []


def test_basic_auth_url_with_a_real_looking_password():
    url = "https://deploy:" + "Zq7vN2pLk9" + "@registry.acme-widgets.io/simple"
    assert scan(f"pip install --index-url {url} reports\n") == [("SF504", "high")]


def test_private_key_needs_a_body():
    header = "-----BEGIN " + "RSA PRIVATE KEY-----"
    assert scan(f"Keys start with `{header}`.\n") == []
    body = base64.b64encode(bytes(range(200))).decode()
    text = f"```\n{header}\n{body[:64]}\n{body[64:128]}\n-----END RSA PRIVATE KEY-----\n```\n"
    assert scan(text) == [("SF504", "high")]


def test_secret_in_a_long_json_line_gets_its_column():
    token = _fake_jwt()
    line = '{"a": "' + "x " * 2000 + f'", "token": "{token}"}}'
    (h,) = hits(line + "\n", "assets/config.json")
    assert h.column == line.index(token) + 1


def _token_body(seed: str, n: int) -> str:
    # Random-looking but built at run time, so no scanner mistakes this file for a leak.
    digest = hashlib.sha256(seed.encode()).hexdigest()
    return "".join(c.upper() if i % 3 == 0 else c for i, c in enumerate(digest))[:n]


def test_prefixed_tokens_are_reported_whole():
    # detect-secrets' GitHub and GitLab patterns capture only the prefix (`ghp`, `glpat`);
    # the finding must still come, with the token masked by its own first characters.
    for line, detector in (
        ("export GH_TOKEN=ghp_" + _token_body("gh", 36), "GitHubTokenDetector"),
        ("GITLAB_TOKEN=glpat-" + _token_body("gl", 20), "GitLabTokenDetector"),
        ("//registry.npmjs.org/:_authToken=npm_" + _token_body("npm", 36), "NpmDetector"),
    ):
        found = [h for h in hits(f"```bash\n{line}\n```\n") if h.rule == "SF504"]
        assert found, line
        assert any(detector in h.message for h in found), [h.message for h in found]
        assert all(_token_body("gh", 36) not in h.message for h in found)


# --- the plugins' regexes kept in the cache dir (linters.security.secret_detectors) ---------


def _no_call(*_args, **_kwargs):
    raise AssertionError("imported detect-secrets' plugins although the table was kept")


@pytest.fixture
def kept_table(monkeypatch):
    """(detectors from the plugins, detectors read back from the table they left)."""
    secret_detectors.forget()
    real = secret_detectors.detectors()
    assert secret_detectors.table_path().is_file()
    secret_detectors.forget()
    monkeypatch.setattr(secret_detectors, "_from_plugins", _no_call)
    yield real, secret_detectors.detectors()
    secret_detectors.forget()


def _shape(dets):
    return [(d.name, d.label, d.gates, d.plain, [(r.pattern, r.flags) for r in d.denylist])
            for d in dets]


def test_the_kept_table_holds_exact_copies_of_the_plugins_regexes(kept_table):
    real, kept = kept_table
    assert _shape(kept) == _shape(real) and len(kept) > 20
    # Only the JWT plugin has an analyze_string of its own (it checks the token's form).
    assert [d.name for d in kept if not d.plain] == ["JwtTokenDetector"]


def test_secrets_are_found_alike_through_the_kept_table(kept_table):
    test_token_found_by_detect_secrets_is_high()  # the JWT plugin itself is used here
    test_basic_auth_url_with_a_real_looking_password()
    test_prefixed_tokens_are_reported_whole()
    test_documentation_placeholders_are_skipped()
    test_private_key_needs_a_body()


def test_a_text_no_plugin_regex_matches_never_imports_the_plugins(kept_table, monkeypatch):
    monkeypatch.setattr(secret_detectors, "_load_plugins", _no_call)
    text = f"```\nBuild id: {_token_body('id', 32)} at https://ci.acme-widgets.io/run\n```\n"
    assert scan(text) == []


@pytest.mark.parametrize("content", [b"", b"[[1, 2]]", b'[["X", "x", [["(", 32]], true]]'],
                         ids=["empty", "wrong-shape", "bad-regex"])
def test_a_damaged_table_is_read_from_the_plugins_and_replaced(content):
    secret_detectors.forget()
    real = _shape(secret_detectors.detectors())
    path = secret_detectors.table_path()
    path.write_bytes(content)
    secret_detectors.forget()
    try:
        assert _shape(secret_detectors.detectors()) == real
        secret_detectors.forget()
        assert _shape(secret_detectors._read_table(path)) == real  # rewritten whole
    finally:
        secret_detectors.forget()
