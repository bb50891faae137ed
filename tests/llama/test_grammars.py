"""Every schema skillforge sends compiles into a llama.cpp grammar.

llama-cpp-python turns a JSON schema into a GBNF grammar, and llama.cpp's grammar parser
refuses some (a `maxLength` of 1500 unrolls into too many nested rules) by aborting the
whole server process. So each answer schema, at its largest (every kind, many steps, many
assertions), and each tool of the built-in agent is compiled and sampled once, in a child
process: a schema that would kill the server fails here with its name.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from skillforge.authoring.judge.prompt import response_schema as rubric_schema
from skillforge.agent.tools import BASH, READ_FILE, WRITE_FILE
from skillforge.authoring.drafting import draft_schema
from skillforge.authoring.refining import _session_case_schema, refine_schema
from skillforge.metrics.judged_prompts import response_schema as trial_judge_schema
from skillforge.models.evals import KINDS
from skillforge.models.skill_loader import load_skill
from tests.conftest import SAMPLE_SKILLS
from tests.llama_server import INSTALL_HINT, missing_packages, model_path

pytestmark = [pytest.mark.llama, pytest.mark.timeout(600)]

CHILD = """
import json, sys
from llama_cpp import Llama, llama_grammar
schemas = json.load(sys.stdin)
llm = Llama(model_path=sys.argv[1], n_ctx=128, verbose=False)
for name, schema in schemas.items():
    print(name, flush=True)
    grammar = llama_grammar.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    llm.create_completion("Answer:", max_tokens=1, grammar=grammar)
print("all compiled", flush=True)
"""


def every_schema() -> dict[str, dict]:
    skill = load_skill(SAMPLE_SKILLS / "csv-insights")
    scripts = [f.path for f in skill.scripts]
    inputs = sorted(f.path for f in skill.files if f.path.startswith("evals/files/"))
    return {
        "rubric judge": rubric_schema(),
        "trial judge": trial_judge_schema(True, 6, list(range(1, 61))),
        "trial judge, long trajectory": trial_judge_schema(True, 3, list(range(1, 400))),
        "draft": draft_schema(KINDS, 3, scripts=scripts, inputs=inputs),
        "refine": refine_schema(),
        "case from a session": _session_case_schema(skill),
        **{f"agent tool {t.name}": t.parameters for t in (BASH, READ_FILE, WRITE_FILE)},
    }


def test_every_schema_compiles_into_a_llama_cpp_grammar():
    missing = missing_packages()
    if missing:
        pytest.fail(f"needs {' and '.join(missing)}: {INSTALL_HINT}", pytrace=False)
    schemas = every_schema()
    proc = subprocess.run([sys.executable, "-c", CHILD, str(model_path())],
                          input=json.dumps(schemas), capture_output=True, text=True,
                          timeout=500, check=False)
    done = proc.stdout.split("\n")
    last = next((line for line in reversed(done) if line.strip()), "")
    assert proc.returncode == 0 and last == "all compiled", (
        f"llama.cpp could not compile the schema {last!r} (exit {proc.returncode}):\n"
        + "\n".join(line for line in proc.stderr.splitlines() if "::=" not in line)[-2000:])
