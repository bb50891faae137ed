"""The LLM judge: the nine-criterion rubric of CONTRACTS 2.3, asked of one or more models.

`rubric.judge_skill` judges a loaded skill with clients it is given (verdicts cached, then
aggregated); `prompt` is what the judge model is told; `run.run_judge` builds the clients
from the settings, as the workbench and the CLI use it. Not a lint rule: it asks a model,
so it lives here, above `linters`, and may use them (the grades of `linters.scoring`).
"""
