"""A trial's judges answer within [provider] max_tokens, like every other structured ask:
a small local model (or a server with a small context) needs a small budget."""

from __future__ import annotations

from skillforge.trials.scoring import judged
from tests.llm_server import structured
from tests.metrics.builders import bash, case, trajectory


async def test_the_trial_judges_get_the_configured_budget(llm_server, make_client):
    traj = trajectory(bash("wc -w notes.txt", "13 notes.txt"), final="13 words.",
                      task="How many words are in notes.txt?")
    last = traj.steps[-1].step_id
    llm_server.script(structured({"accuracy": {"score": 7, "rationale": "ok",
                                               "evidence": [{"step_id": last, "quote": "13"}]},
                                  "goal": {"verdict": "met", "rationale": "ok",
                                           "evidence": [{"step_id": last, "quote": "13"}]}}))

    scores = await judged(traj, case(ground_truth="13 words"), [make_client("openai")],
                          max_tokens=700)

    assert llm_server.requests[0].body["max_tokens"] == 700
    assert (scores.metrics["accuracy"], scores.metrics["goal_accuracy"]) == (0.7, 1.0)
