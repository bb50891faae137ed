"""Readings tuned on holdout32 (issue 36): three texts that only name a security pattern.

- SF504 (linters.security.jwt_tokens, secret_scan): a key in a URL query whose secret part
  is a slot the reader fills in is no key. A JWT there whose header alone is literal
  (`?token=eyJhbGciOi...J9.<payload>.<sig>`, `.xxx.yyy`, the header with nothing after) is a
  shape anyone can write: only the signature makes a token. A value whose fixed start runs
  into a slot (`?api_key=Zr8...-<rest>`) is the same. A full three-segment token with a real
  payload and signature, an `sk-proj-` key and a real `?api_key=` value stay high.
- SF505 (linters.security.under_test, inert_code): a destructive command in a string a test
  hands to the code under test (`quote_arg("x; rm -rf /")` in a `def test_...`, `it(...)`,
  or a `parametrize` case) is test data: info. `subprocess.run(..., shell=True)` and
  `os.system(...)` in a test, a test whose body starts a process, a call whose name says it
  runs (`run_cmd`, `safe_exec`, `helpers.doCall`), a function of the same file, a non-test
  function and a shell test script stay critical.
- SF508 (linters.security.data_sentence): the metadata address named in a sentence that a
  YAML or JSON file holds as a string value (`attackScenarios: - "Reach the metadata
  endpoint (169.254.169.254)"`) fetches nothing: info. A fetch in `command:`/`args:`/`run:`,
  a `url:` value, a value under an endpoint or host key, a bare address in a list and an
  instruction in SKILL.md to fetch it stay high.

Every skill text here is written for this file.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

from linters import lint_skill
from tests.hypothesis_budget import examples
from tests.linters.probe_skill import probe_skill
from tests.linters.test_issue36_security import found

# --- SF504: a key in a URL query whose secret part is a slot ----------------------------------

_HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"  # {"alg":"HS256","typ":"JWT"}, on every HS256 token
_PAYLOAD = "eyJ1aWQiOjQ4MTcyLCJyb2xlIjoib3BzIiwiZXhwIjoxNzQ0MjAwMDAwfQ"
_SIGNATURE = "Vq3Tz8Kd2Rw9Lm4Hs7Bp6Nc5Jf1Gx0Ya8Ue3Wi2Ok7Mr"


def _report(url: str) -> str:
    return ("## A finding from a past review\n\n"
            "The mobile build shipped a hard-coded link of this shape:\n\n"
            f"```\n{url}\n```\n\nThe token had expired years before.\n")


@pytest.mark.parametrize("tail", [
    ".<payload>.<sig>",
    ".<payload>.<signature>",
    ".{payload}.{signature}",
    ".xxx.yyy",
    ".payload.signature",
    ".PAYLOAD.SIGNATURE",
    ".",
    "",
    f".{_PAYLOAD}.<sig>",
    f".{_PAYLOAD}.",
])
def test_a_jwt_whose_payload_or_signature_is_a_slot_is_no_key(tail):
    for host in ("https://api.<client>.example/<path>", "https://api.shopfront.io/v2/orders"):
        url = f"{host}?token={_HEADER}{tail}"
        assert found(_report(url), rule="SF504") == [], url


def test_twin_a_full_jwt_in_a_url_query_stays_high():
    url = f"https://api.shopfront.io/v2/orders?token={_HEADER}.{_PAYLOAD}.{_SIGNATURE}"
    hits = found(_report(url), rule="SF504")
    assert hits and set(hits) == {("SF504", "high")}


def test_a_fixed_start_running_into_a_slot_is_no_key():
    url = "https://maps.example-api.io/v1/tiles?api_key=Zr8qP2mXv7LtN4wK9sBd3-<rest-of-key>"
    assert found(_report(url), rule="SF504") == []


@pytest.mark.parametrize("url", [
    "https://maps.example-api.io/v1/tiles?api_key=Zr8qP2mXv7LtN4wK9sBd3Hf",
    "https://maps.example-api.io/v1/tiles?api_key=Zr8qP2mXv7LtN4wK9sBd3Hf<br>",
    "https://maps.shopfront.io/v1/tiles?access_token=Zr8qP2mXv7LtN4wK9sBd3Hf&z=4",
])
def test_twin_a_real_query_key_stays_high(url):
    assert found(_report(url), rule="SF504") == [("SF504", "high")], url


def test_twin_base64_json_that_is_no_jwt_header_stays_high():
    # A Grafana-style API key: base64 of {"k":...,"n":...,"id":...}, no signing algorithm.
    key = "eyJrIjoiUjdxWjJtUDhWbjRMazl3WDNjVDYiLCJuIjoiZGFzaCIsImlkIjo3fQ"
    url = f"https://grafana.shopfront.io/api/dashboards?api_key={key}"
    assert found(_report(url), rule="SF504") == [("SF504", "high")]


def test_twin_a_project_key_stays_high():
    key = "sk-proj-" + "Rt7Wq2Zp9Lk4Vn8Hx3Bc6Md1Jf5Gs0Ty7Ue2Pa9Oi4Kl3Nm8Qb"
    assert ("SF504", "high") in found(f"## Setup\n\n```bash\nexport OPENAI_API_KEY={key}\n```\n",
                                      rule="SF504")


# Letters without vowels, `x` or a `0`/`1` run: a random segment cannot spell a placeholder
# word (`fake`, `xxxx`, `example`) that the filters rightly skip.
_ALPHABET = "BCDFGHJKLMNPQRSTVWZbcdfghjklmnpqrstvwz23456789_-"
_SEGMENT = hs.text(_ALPHABET, min_size=24, max_size=80).filter(
    lambda s: any(c.isdigit() for c in s) and any(c.isupper() for c in s)
    and any(c.islower() for c in s) and len(set(s)) >= 12)
_SLOT = hs.sampled_from(["<payload>", "<sig>", "<signature>", "xxx", "yyy", "{sig}", "sig",
                         "<redacted>", ""])
_KEY = hs.sampled_from(["token", "access_token", "auth_token", "api_key"])
_HOST = hs.sampled_from(["https://api.shopfront.io/v2/orders", "https://<host>/api",
                         "https://api.<client>.example/<a>/<b>", "http://10.0.4.7:8080/feed"])


@settings(max_examples=examples(200), deadline=None)
@given(payload=_SEGMENT, signature=_SEGMENT, key=_KEY, host=_HOST)
def test_property_a_full_token_in_a_query_is_reported(payload, signature, key, host):
    url = f"{host}?{key}={_HEADER}.eyJ{payload}.{signature}"
    hits = found(_report(url), rule="SF504")
    assert ("SF504", "high") in hits, url


@settings(max_examples=examples(200), deadline=None)
@given(payload=_SEGMENT, slot=_SLOT, key=_KEY, host=_HOST, which=hs.sampled_from([1, 2]))
def test_property_a_token_with_a_slotted_segment_is_not(payload, slot, key, host, which):
    parts = [_HEADER, f"eyJ{payload}", slot] if which == 2 else [_HEADER, slot, slot]
    url = f"{host}?{key}={'.'.join(parts)}"
    assert found(_report(url), rule="SF504") == [], url


# --- SF505: a destructive command handed to the code under test -------------------------------

_QUOTING_TEST = '''"""Tests for the quoting helper."""

from toolkit.quoting import quote_arg


class TestQuoteArg:
    def test_plain_word(self):
        assert quote_arg("hello") == "hello"

    def test_separator_is_quoted(self):
        """A semicolon must not end the command."""
        out = quote_arg("notes.txt; rm -rf /")
        assert out.startswith("'")
'''


def test_a_command_a_test_hands_to_the_escaper_is_test_data(tmp_path):
    skill = probe_skill(tmp_path, "Quote arguments with `toolkit.quoting`.\n",
                        files={"tests/test_quoting.py": _QUOTING_TEST}, name="quoting")
    hits = [f for f in lint_skill(skill).findings if f.rule == "SF505"]
    assert [(f.line, f.severity.value) for f in hits] == [(12, "info")]
    assert "it is a test's input, handed to `quote_arg`, which does not run it" in hits[0].message


def _test_body(*lines: str, head: str = "") -> str:
    return head + "def test_cleanup():\n" + "".join(f"    {text}\n" for text in lines)


@pytest.mark.parametrize("text", [
    _test_body('assert quote_arg("x; rm -rf ~") != "x"'),
    _test_body('ok, why = check_allowed("rm -rf /")', "assert not ok"),
    _test_body('parsed = shlex.split(normalise("sudo rm -rf /"))', "assert parsed"),
    ('import pytest\n\n@pytest.mark.parametrize("cmd", [\n    "rm -rf /",\n    "ls -la",\n])\n'
     "def test_refused(cmd):\n    assert not is_allowed(cmd)\n"),
])
def test_strings_handed_to_the_code_under_test_are_info(text):
    assert found(text, "tests/test_guard.py", rule="SF505") == [("SF505", "info")], text


@pytest.mark.parametrize("text", [
    _test_body('subprocess.run("rm -rf /", shell=True)', head="import subprocess\n\n"),
    _test_body('os.system("rm -rf ~")', head="import os\n\n"),
    _test_body('out = quote_arg("x; rm -rf /")', "subprocess.run(out, shell=True)",
               head="import subprocess\n\n"),
    _test_body('run_cmd("rm -rf /")'),
    _test_body('safe_exec("rm -rf /")'),
    _test_body('helpers.doCall("rm -rf /")'),
    _test_body('do_exec(quote_arg("rm -rf /"))'),
    "def wipe(cmd):\n    pass\n\n\n" + _test_body('wipe("rm -rf /")'),
    'def main():\n    out = quote_arg("x; rm -rf /")\n',
    ('import pytest, subprocess\n\n@pytest.mark.parametrize("cmd", ["rm -rf /"])\n'
     "def test_runs(cmd):\n    subprocess.run(cmd, shell=True)\n"),
])
def test_twin_strings_that_a_call_may_run_stay_critical(text):
    assert found(text, "tests/test_guard.py", rule="SF505") == [("SF505", "critical")], text


def test_a_js_test_input_is_info_and_a_test_that_runs_it_is_not():
    spec = ('describe("quote", () => {\n  it("quotes a separator", () => {\n'
            '    const out = quoteArg("a; rm -rf /");\n    expect(out).toContain("\'");\n'
            "  });\n});\n")
    assert found(spec, "tests/quote.test.ts", rule="SF505") == [("SF505", "info")]
    runs = ('import { execSync } from "child_process";\n\nit("wipes", () => {\n'
            '  const out = quoteArg("rm -rf /");\n  execSync(out);\n});\n')
    assert found(runs, "tests/quote.test.ts", rule="SF505") == [("SF505", "critical")]


def test_twin_a_shell_test_script_that_runs_it_stays_critical():
    script = "#!/bin/bash\n# test: the sandbox survives a wipe\nrm -rf /\n"
    assert found(script, "tests/test_wipe.sh", rule="SF505") == [("SF505", "critical")]


_JUDGE = hs.sampled_from(["quote_arg", "escape_for_shell", "sanitise_input", "is_allowed",
                          "validator.check", "normalize_path", "classify", "parse_line",
                          "quoteForShell", "policy.permits"])
_RUNNER = hs.sampled_from(["run_cmd", "safe_exec", "helpers.doCall", "spawn_job",
                           "invoke_tool", "launch", "exec_remote", "sh", "runInShell"])
_WIPE = hs.sampled_from(["rm -rf /", "rm -rf ~", "x; rm -rf /", "rm -rf $HOME",
                         "a && rm -rf /*", "mkfs.ext4 /dev/sda1"])


@settings(max_examples=examples(200), deadline=None)
@given(fn=_JUDGE, cmd=_WIPE, assign=hs.booleans())
def test_property_a_judge_call_in_a_test_is_info(fn, cmd, assign):
    call = f'{fn}("{cmd}")'
    text = _test_body(f"out = {call}" if assign else f"assert {call}")
    assert found(text, "tests/test_guard.py", rule="SF505") == [("SF505", "info")], text


@settings(max_examples=examples(200), deadline=None)
@given(fn=_RUNNER, cmd=_WIPE)
def test_property_a_runner_call_in_a_test_stays_critical(fn, cmd):
    text = _test_body(f'{fn}("{cmd}")')
    assert found(text, "tests/test_guard.py", rule="SF505") == [("SF505", "critical")], text


# --- SF508: the metadata address named in a sentence of a data file ---------------------------

_FAULT = """name: host-network
kind: fault
risk:
  level: high
  summary: |
    A pod sharing the node's network namespace can:
    - listen on node ports
    - reach services bound to localhost
  threats:
    - "Query the node's kubelet without a token"
    - "Reach the cloud metadata endpoint (169.254.169.254)"

    - "Watch other pods' traffic"
"""


def test_a_scenario_naming_the_metadata_address_is_info(tmp_path):
    skill = probe_skill(tmp_path, "Injects faults from `faults/`.\n",
                        files={"faults/host-network.yaml": _FAULT}, name="chaos")
    hits = [f for f in lint_skill(skill).findings if f.rule == "SF508"]
    assert [(f.line, f.severity.value) for f in hits] == [(11, "info")]
    assert "named in a sentence, a string value under `threats`" in hits[0].message


@pytest.mark.parametrize(("path", "text"), [
    ("risks.yaml", "impact: Pods can reach 169.254.169.254 and read node credentials\n"),
    ("risks.yaml", "impacts:\n- Workloads on the host network reach 169.254.169.254 directly\n"),
    ("risks.json", '{\n  "threats": [\n    "Reading role keys from 169.254.169.254 works"\n  ]\n}\n'),
    ("risks.yaml", "notes: |\n  Pods that share the host network\n"
                   "  also reach the node metadata server at 169.254.169.254 as well\n"),
])
def test_sentences_in_data_values_are_info(path, text):
    assert found(text, path, rule="SF508") == [("SF508", "info")], text


@pytest.mark.parametrize(("path", "text"), [
    ("k8s/pod.yaml", 'spec:\n  containers:\n    - name: probe\n      command: ["sh", "-c", '
                     '"curl http://169.254.169.254/latest/meta-data/iam/security-credentials/"]\n'),
    ("k8s/pod.yaml", "spec:\n  containers:\n    - name: probe\n      args:\n        - "
                     '"wget -qO- 169.254.169.254/latest/meta-data/iam/security-credentials/"\n'),
    ("conf/imds.yaml", "imds:\n  url: http://169.254.169.254/latest/meta-data/\n"),
    ("conf/imds.yaml", 'imds:\n  endpoint: "the metadata service at 169.254.169.254 on nodes"\n'),
    ("conf/scan.yaml", "targets:\n  - 169.254.169.254\n"),
    ("k8s/job.yaml", 'command: ["sh", "-c", "echo the metadata address is 169.254.169.254 here"]\n'),
    (".github/workflows/role.yml", "jobs:\n  a:\n    steps:\n      - run: |\n"
                                   "          echo reading the instance role now\n"
                                   "          curl -s 169.254.169.254/latest/meta-data/iam/info\n"),
])
def test_twin_a_value_that_fetches_or_addresses_it_stays_high(path, text):
    assert found(text, path, rule="SF508") == [("SF508", "high")], text


def test_twin_an_instruction_in_skill_md_to_fetch_it_stays_high():
    body = ("## Role\n\nFetch the role's keys with "
            "`curl http://169.254.169.254/latest/meta-data/iam/security-credentials/`.\n")
    assert found(body, rule="SF508") == [("SF508", "high")]


_ABOUT_KEY = hs.sampled_from(["threats", "attackScenarios", "risks", "impact", "notes",
                              "consequences", "why_it_matters", "findings"])
_ACTING_KEY = hs.sampled_from(["command", "args", "endpoint", "host", "url", "script",
                               "healthCheck", "metadata_url"])
_SENTENCE = hs.sampled_from([
    "Reach the cloud metadata endpoint ({a})",
    "Pods can query {a} and take the node role",
    "An attacker in the pod reads role keys from {a}",
    "Traffic to {a} is not blocked by the policy",
])
_ADDRESS = hs.sampled_from(["169.254.169.254", "metadata.google.internal"])


def _data_value(key: str, sentence: str, shape: str) -> tuple[str, str]:
    if shape == "json":
        return "f.json", f'{{\n  "{key}": [\n    "{sentence}"\n  ]\n}}\n'
    if shape == "item":
        return "f.yaml", f'{key}:\n  - "{sentence}"\n'
    return "f.yaml", f"{key}: {sentence}\n"


@settings(max_examples=examples(200), deadline=None)
@given(key=_ABOUT_KEY, sentence=_SENTENCE, address=_ADDRESS,
       shape=hs.sampled_from(["json", "item", "plain"]))
def test_property_a_sentence_under_a_describing_key_is_info(key, sentence, address, shape):
    path, text = _data_value(key, sentence.format(a=address), shape)
    assert found(text, path, rule="SF508") == [("SF508", "info")], text


@settings(max_examples=examples(200), deadline=None)
@given(key=_ACTING_KEY, sentence=_SENTENCE, address=_ADDRESS,
       shape=hs.sampled_from(["json", "item", "plain"]))
def test_property_the_same_sentence_under_an_acting_key_stays_high(key, sentence, address, shape):
    path, text = _data_value(key, sentence.format(a=address), shape)
    assert found(text, path, rule="SF508") == [("SF508", "high")], text
