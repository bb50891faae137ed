"""Eval case formats other runners use, read into and written from skillforge's EvalSet.

One module per format, each with `read(path) -> Read` and `write(evalset, out) -> list[Loss]`:

- `cc_plugin_eval`: Claude Code's `claude plugin eval` case folders (`evals/<case>/` with
  `prompt.md` + `graders/*.md`, or `case.yaml`; `fixture.sh` / `context.scaffold_script`).
- `waza`: microsoft/waza `eval.yaml` with task files.
- `vally`: microsoft/vally `eval.yaml` (stimuli) and its experiment files (variants, matrix).
- `evals_json`: evals.json in skillforge's own shape and in the skill-creator and NVIDIA
  SkillEvaluator dialects (skillforge.models.evals reads all three).
- `harbor_tasks`: Harbor task folders (`instruction.md`, `task.toml`, `tests/test.sh`).

The in-memory model is skillforge's own (skillforge.models.evals: EvalSet, EvalCase with
its `checks`), so everything downstream (trials, metrics, the Evals tab) works unchanged.
What a format cannot hold is reported per case and field as a `Loss`, never dropped
silently. `registry` detects a path's format; `convert` writes one from another.
"""
