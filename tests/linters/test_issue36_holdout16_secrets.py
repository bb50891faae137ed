"""SF504 (issue 36, holdout16): two readings of credentials that are not secrets.

A line the author marked with detect-secrets' own inline pragma (`pragma: allowlist
secret`) holds a value someone reviewed as no secret: a generic match there (a password in a
URL, a query value) is info. A key in an issuer's format stays a finding: its form is
evidence of its own. And a URL whose password is an interpolation (`{password}`,
`${DB_PASS}`, `$(cat pw)`) holds a variable, not a secret.
"""

from __future__ import annotations

from linters.security.github_tokens import checksum
from skillforge.models.findings import Severity
from tests.linters.test_security import hits, scan

# Built at run time, so no scanner reads this file as holding a credential.
_PW = "Tq8" + "vWm2zRk"
_URL = f"postgresql://svc_reports:{_PW}@db.acme-widgets.io:5432/reports"


def _sf504(text: str, path: str) -> list[str]:
    return [h.severity.value for h in hits(text, path) if h.rule == "SF504"]


def test_a_url_on_a_line_marked_allowlist_secret_is_info():
    code = f'BASE = "{_URL}"  # pragma: allowlist secret\n'
    (h,) = [h for h in hits(code, "tests/test_db.py") if h.rule == "SF504"]
    assert h.severity == Severity.info
    assert "pragma: allowlist secret" in h.message


def test_the_pragma_in_other_comment_syntaxes_and_on_the_line_before():
    js = f'const base = "{_URL}"; // pragma: allowlist secret\n'
    assert _sf504(js, "tests/db.test.js") == ["info"]
    yaml = f"# pragma: allowlist nextline secret\ndatabase_url: {_URL}\n"
    assert _sf504(yaml, "config/test.yaml") == ["info"]


def test_near_miss_the_same_url_without_the_pragma_stays_high():
    assert _sf504(f'BASE = "{_URL}"  # test fixture\n', "tests/test_db.py") == ["high"]
    # A pragma that only follows code on the line before covers nothing (as in detect-secrets).
    text = f'x = 1  # pragma: allowlist nextline secret\nBASE = "{_URL}"\n'
    assert _sf504(text, "tests/test_db.py") == ["high"]


def test_near_miss_a_key_in_an_issuers_format_stays_high_under_the_pragma():
    key = "ghp_" + "Rk3vQ9mZt2Lw8Xy4Np6Bc1Dh5Fj7Gs0" + checksum("Rk3vQ9mZt2Lw8Xy4Np6Bc1Dh5Fj7Gs0")  # an issued form: checksum holds
    code = f'TOKEN = "{key}"  # pragma: allowlist secret\n'
    assert _sf504(code, "scripts/publish.py") == ["high"]


def test_a_url_whose_password_is_an_interpolation_is_no_secret():
    for line in (
        'url = f"postgresql://{user}:{password}@{host}:{port}/{db}"',
        'url = f"postgresql://{username}:{encoded_password}@db.acme-widgets.io/app"',
        'url = "mysql://{}:{pw}@{}/app".format(user, host)',
        'url = "postgres://admin:%(password)s@db.acme-widgets.io/app" % cfg',
        "DATABASE_URL=postgres://app:${DB_PASS}@db.acme-widgets.io/app",
        "DATABASE_URL=postgres://app:$PASSWORD@db.acme-widgets.io/app",
        "DATABASE_URL=postgres://app:$(cat /run/secrets/pw)@db.acme-widgets.io/app",
        "url = https://admin:<password>@db.acme-widgets.io/app",
        'url = "redis://default:#{redis_password}@cache.acme-widgets.io:6379"',
    ):
        assert _sf504(line + "\n", "scripts/connect.py") == [], line


def test_near_miss_a_literal_password_in_the_url_stays_high():
    url = "postgres://admin:" + "S3cr3tPassw0rd" + "@db.acme-widgets.io/app"
    assert scan(f'url = "{url}"\n', "scripts/connect.py") == [("SF504", "high")]
    # Braces around part of a literal password are no interpolation of a name.
    url = "postgres://admin:" + "{9}Xw4Lm7Qp" + "@db.acme-widgets.io/app"
    assert scan(f'url = "{url}"\n', "scripts/connect.py") == [("SF504", "high")]
