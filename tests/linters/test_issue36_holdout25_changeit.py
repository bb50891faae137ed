"""SF504 (issue 36, holdout25): a password that tells the reader to change it is no secret.

A database vendor's docs print its stock admin login, `admin:changeit`, in every
connection-string example (`mydb+discover://admin:changeit@cluster.dns.name:2113`). Like
`changeme`, the password `changeit` (also the stock password of Java's keystores) or
`change_this` is an instruction, not a credential: the basic-auth reading skips it as a
placeholder on any host. A password that merely starts with the words (`changeItem`) or a
random-looking one in the same URL stays high, as does a real host's non-default password.
"""

from __future__ import annotations

import string

import pytest

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from linters.security.secret_scan import _PLACEHOLDER
from tests.hypothesis_budget import examples
from tests.linters.test_security import hits


def _sf504(text: str, path: str = "references/sdk/getting-started.md") -> list[str]:
    return [h.severity.value for h in hits(text, path) if h.rule == "SF504"]


def _doc(url: str) -> str:
    return (
        "## Connection string\n\n"
        "Replace the login below with your own credentials.\n\n"
        f"```\n{url}\n```\n"
    )


def test_the_stock_change_it_password_on_a_placeholder_host_is_no_secret():
    for url in (
        "mydb+discover://admin:changeit@cluster.dns.name:2113",
        "mydb://admin:changeit@node1.dns.name:2113,node2.dns.name:2113",
        "connectTo=tcp://admin:changeit@my-instance.acme.company:1113; UseSsl=false;",
        "mydb://admin:changeit@localhost:2113?tls=false",
        "amqp://guest:ChangeIt@broker.example-corp.io:5672/",
        "postgres://app:change_this@db.staging.acme.dev/app",
        "postgres://app:change-it@db.staging.acme.dev/app",
    ):
        assert _sf504(_doc(url)) == [], url


def test_the_same_reading_in_code_files():
    code = 'CONN = "mydb://admin:changeit@cluster.dns.name:2113"\n'
    assert _sf504(code, "scripts/connect.py") == []


def test_near_miss_a_random_password_in_the_same_url_stays_high():
    pw = "Zq8f3" + "LkP2x"
    assert _sf504(_doc(f"mydb+discover://admin:{pw}@cluster.dns.name:2113")) == ["high"]
    assert _sf504(_doc(f"postgres://admin:{pw}@db.prod.acme.io/app")) == ["high"]


def test_near_miss_a_password_that_only_starts_with_the_words_stays_high():
    # `changeItem42` goes on past "it": a word of its own, not the instruction.
    pw = "changeItem" + "42Qx"
    assert _sf504(_doc(f"postgres://admin:{pw}@db.prod.acme.io/app")) == ["high"]
    pw = "changethisway" + "9Lq"
    assert _sf504(_doc(f"postgres://admin:{pw}@db.prod.acme.io/app")) == ["high"]


_PW_CHARS = string.ascii_letters + string.digits


@settings(max_examples=examples(200), deadline=None)
@given(
    pw=st.text(_PW_CHARS, min_size=8, max_size=16).filter(
        lambda p: any(c.isdigit() for c in p) and any(c.isupper() for c in p)
        and any(c.islower() for c in p) and "change" not in p.lower()),
    host=st.sampled_from(["cluster.dns.name", "db.prod.acme.io", "pg.corp-net.com"]),
)
def test_property_only_the_change_it_password_is_skipped(pw: str, host: str):
    """A mixed-case random password is reported high on a non-local host; putting
    `changeit` where it stood removes the finding, and nothing else of the line changed."""
    assume(not _PLACEHOLDER.search(pw))  # no other fill-in marker (`000000`, `abcdef`)
    real = _doc(f"mydb://admin:{pw}@{host}:2113")
    assert _sf504(real) == ["high"]
    assert _sf504(_doc(f"mydb://admin:changeit@{host}:2113")) == []


# Found by the property above: a local suffix counts only where the host name ends.
@pytest.mark.parametrize("host", ["pg.internal-corp.net", "db.local.acme.io", "localhost.evil.io",
                                  "example.com.attacker.net"])
def test_a_host_that_only_starts_with_a_local_suffix_is_a_real_host(host):
    pw = "Zq8f3" + "LkP2x"
    assert _sf504(_doc(f"postgres://admin:{pw}@{host}/app")) == ["high"]


@pytest.mark.parametrize("host", ["pg.internal", "db.local:5432", "localhost", "example.com",
                                  "db.example.com:5432", "a.b.internal", "api.staging.test"])
def test_a_local_or_example_host_still_ends_the_name(host):
    pw = "Zq8f3" + "LkP2x"
    assert _sf504(_doc(f"postgres://admin:{pw}@{host}/app")) == []
