"""Issue 36, holdout29: SF508 and a metadata read of one attribute of the instance.

A cloud VM's metadata service answers, at documented paths, with facts about the instance
itself: its id, hostname, region or zone, type, addresses. A failover hook that asks for the
droplet's own id to reassign a floating IP reads no credential, so the read is info and the
message names the attribute. The service's credential paths stay high: AWS's
`iam/security-credentials/`, GCP's service-account `token`, Azure's managed-identity token,
any provider's user data, a bare listing or dump of the service, and a path held in a variable.

Every skill text here is written for this file.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from linters.text.markdown import MarkdownDoc
from linters.security.security import scan_text
from tests.hypothesis_budget import examples
from tests.linters.test_issue36_security import found

IMDS = "http://169.254.169.254"
GCP = "http://metadata.google.internal"

# (client prefix, base URL, path) per provider; the header each provider asks for.
DO = ("curl -s", IMDS)
AWS = ('curl -s -H "X-aws-ec2-metadata-token: $TOKEN"', IMDS)
GOOGLE = ('curl -s -H "Metadata-Flavor: Google"', GCP)
AZURE = ('curl -s -H "Metadata: true"', IMDS)

ATTRIBUTES = [
    (DO, "/metadata/v1/id"),
    (DO, "/metadata/v1/hostname"),
    (DO, "/metadata/v1/region"),
    (DO, "/metadata/v1/interfaces/private/0/ipv4/address"),
    (DO, "/metadata/v1/floating_ip/ipv4/active"),
    (DO, "/metadata/v1/reserved_ip/ipv4/ip_address"),
    (AWS, "/latest/meta-data/instance-id"),
    (AWS, "/latest/meta-data/local-ipv4"),
    (AWS, "/latest/meta-data/public-ipv4"),
    (AWS, "/latest/meta-data/placement/availability-zone"),
    (AWS, "/latest/meta-data/instance-type"),
    (AWS, "/latest/meta-data/ami-id"),
    (AWS, "/latest/meta-data/mac"),
    (GOOGLE, "/computeMetadata/v1/instance/id"),
    (GOOGLE, "/computeMetadata/v1/instance/zone"),
    (GOOGLE, "/computeMetadata/v1/instance/network-interfaces/0/ip"),
    (AZURE, "/metadata/instance/compute/vmId?api-version=2021-02-01&format=text"),
    (AZURE, "/metadata/instance/compute/location?api-version=2021-02-01&format=text"),
]

CREDENTIALS = [
    (DO, "/metadata/v1/user-data"),
    (DO, "/metadata/v1/vendor-data"),
    (DO, "/metadata/v1/"),
    (DO, "/metadata/v1.json"),
    (DO, "/metadata/v1/$FIELD"),
    (DO, "/metadata/v1/${FIELD}"),
    (AWS, "/latest/meta-data/iam/security-credentials/web-role"),
    (AWS, "/latest/meta-data/"),
    (AWS, "/latest/user-data"),
    (AWS, "/latest/meta-data/$FIELD"),
    (GOOGLE, "/computeMetadata/v1/instance/service-accounts/default/token"),
    (GOOGLE, "/computeMetadata/v1/?recursive=true"),
    (AZURE, "/metadata/identity/oauth2/token?api-version=2018-02-01&resource=https://vault.azure.net"),
    (AZURE, "/metadata/instance?api-version=2021-02-01"),
    (AZURE, "/metadata/instance/compute/userData?api-version=2021-01-01&format=text"),
]


def hook(provider, path: str, var: str = "SELF") -> str:
    client, base = provider
    return f'{var}=$({client} "{base}{path}")'


def doc(command: str) -> str:
    return f"""\
## Failover on a cloud VM

The failover daemon runs this hook on the node that becomes the primary.

```bash
#!/usr/bin/env bash
set -euo pipefail
{command}
echo "primary is now $SELF"
```
"""


def severities(text: str, path: str) -> list[str]:
    return [s for _, s in found(text, path, rule="SF508")]


def script(provider: str, path: str) -> str:
    """A shipped failover script whose one metadata read is `hook(provider, path)`."""
    return f"#!/usr/bin/env bash\nset -eu\n{hook(provider, path)}\necho \"$SELF\"\n"


def sf508(text: str):
    """The one SF508 hit of a SKILL.md text."""
    [hit] = [h for h in scan_text("SKILL.md", text, MarkdownDoc(text)) if h.rule == "SF508"]
    return hit


# --- the shape: one attribute of the instance ----------------------------------------------

@pytest.mark.parametrize("provider,path", ATTRIBUTES)
@pytest.mark.parametrize("where", ["SKILL.md", "references/failover.md"])
def test_an_attribute_of_the_instance_is_info(provider, path, where):
    """Before: high for every DigitalOcean path."""
    assert severities(doc(hook(provider, path)), where) == ["info"]


@pytest.mark.parametrize("provider,path", ATTRIBUTES)
def test_an_attribute_read_in_a_shipped_script_is_info(provider, path):
    assert severities(script(provider, path), "scripts/failover.sh") == ["info"]


def test_the_message_says_which_attribute_it_reads():
    hit = sf508(doc(hook(DO, "/metadata/v1/id")))
    assert "the instance's own `id`" in hit.message
    assert "not a credential" in hit.message
    assert "instance credentials" not in hit.message


def test_the_address_of_an_interface_is_named_whole():
    hit = sf508(doc(hook(DO, "/metadata/v1/interfaces/public/0/ipv4/address")))
    assert "`interfaces/public/0/ipv4/address`" in hit.message


# --- the twins: credential paths, user data, listings, variables --------------------------

@pytest.mark.parametrize("provider,path", CREDENTIALS)
@pytest.mark.parametrize("where", ["SKILL.md", "references/failover.md"])
def test_a_credential_path_stays_high(provider, path, where):
    assert severities(doc(hook(provider, path)), where) == ["high"]


@pytest.mark.parametrize("provider,path", CREDENTIALS)
def test_a_credential_path_in_a_shipped_script_stays_high(provider, path):
    assert severities(script(provider, path), "scripts/failover.sh") == ["high"]


@pytest.mark.parametrize("provider,path", CREDENTIALS)
def test_an_attribute_read_does_not_hide_a_credential_read_on_its_line(provider, path):
    attr = next(p for prov, p in ATTRIBUTES if prov == provider)
    line = f"{hook(provider, attr)} && {hook(provider, path, 'DATA')}"
    assert severities(doc(line), "SKILL.md") == ["high"]


def test_a_longer_path_behind_an_attribute_name_stays_high():
    for path in ("/metadata/v1/id/../user-data", "/metadata/v1/hostname-secret",
                 "/latest/meta-data/instance-id/../iam/security-credentials/x"):
        assert severities(doc(hook(DO, path)), "SKILL.md") == ["high"], path


def test_the_session_token_then_a_role_read_stays_high():
    line = ('TOKEN=$(curl -sX PUT "http://169.254.169.254/latest/api/token" '
            '-H "X-aws-ec2-metadata-token-ttl-seconds: 60") && '
            'curl -s -H "X-aws-ec2-metadata-token: $TOKEN" '
            '"http://169.254.169.254/latest/meta-data/iam/security-credentials/web-role"')
    assert severities(doc(line), "SKILL.md") == ["high"]


# --- a property: generated hooks ------------------------------------------------------------

_VAR = st.from_regex(r"[A-Z][A-Z_]{1,10}", fullmatch=True)
_WHERE = st.sampled_from(["SKILL.md", "references/hooks.md", "references/cloud/ha.md"])


@settings(max_examples=examples(60), deadline=None)
@given(attr=st.sampled_from(ATTRIBUTES), cred=st.sampled_from(CREDENTIALS), var=_VAR,
       where=_WHERE, quote=st.sampled_from(['"', "'", ""]))
def test_generated_hooks_keep_attribute_soft_and_credentials_high(attr, cred, var, where,
                                                                   quote):
    def read(provider, path):
        client, base = provider
        return f"{var}=$({client} {quote}{base}{path}{quote})"

    assert severities(doc(read(*attr)), where) == ["info"]
    assert severities(doc(read(*cred)), where) == ["high"]
