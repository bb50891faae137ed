"""Issue 36, holdout19: a token command run to prove a revoked credential fails (SF515).

A remediation guide has the user authenticate deliberately with the OLD key after a rotation
and expect an error: the command reads the credential the line hands it, which the text calls
revoked, and expects to fail. That is a check that the revocation took, not a read of the
user's credential store: info (linters.security.revoked_check). A token command whose output
is kept or sent on, one against a key nobody calls revoked, or one expected to work, stays
high.

Every skill text here is written for this file; the first tests failed before the reading.
"""

from __future__ import annotations

import pytest

from tests.linters.test_issue36_security import found

_REF = "references/rotation.md"

_GCLOUD = """\
## After the rotation

1. Delete the leaked key in the console.
2. Sign in on purpose with the retired key file and make sure the call fails:

   ```bash
   GOOGLE_APPLICATION_CREDENTIALS=$HOME/keys/ci-deploy.json \\
     gcloud auth application-default print-access-token
   # expect: ERROR ... invalid_grant
   ```
"""

_AWS = """\
Then confirm the deactivated key is useless:

```bash
aws configure export-credentials --profile leaked-ci 2>&1
# should fail with InvalidClientTokenId
```
"""


@pytest.mark.parametrize("text", [_GCLOUD, _AWS])
def test_a_token_command_expected_to_fail_on_a_revoked_key_is_info(text):
    """Before: SF515 high, 'takes the user's Google Cloud access token out of the store'."""
    assert found(text, path=_REF, rule="SF515") == [("SF515", "info")]


@pytest.mark.parametrize("old, new", [
    # the output kept in a variable
    ("   GOOGLE_APPLICATION_CREDENTIALS=$HOME", "   TOKEN=$(GOOGLE_APPLICATION_CREDENTIALS=$HOME"),
    # the output piped on
    ("print-access-token\n", "print-access-token | tee token.txt\n"),
    # a key nobody calls revoked, expected to work
    ("Sign in on purpose with the retired key file and make sure the call fails:",
     "Sign in with the new key file and check that a token comes back:"),
    # the user's own store: no credential on the line
    ("   GOOGLE_APPLICATION_CREDENTIALS=$HOME/keys/ci-deploy.json \\\n     gcloud",
     "   gcloud"),
])
def test_a_token_kept_or_read_from_a_live_key_stays_high(old, new):
    text = _GCLOUD.replace(old, new)
    assert text != _GCLOUD
    assert found(text, path=_REF, rule="SF515") == [("SF515", "high")]


def test_a_revoked_key_without_an_expected_failure_stays_high():
    text = _AWS.replace("# should fail with InvalidClientTokenId", "# prints the keys")
    assert found(text, path=_REF, rule="SF515") == [("SF515", "high")]
