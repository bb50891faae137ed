"""plugin-eval's llm graders become behavior_check assertions decided by the judge's majority
of three votes (judge_votes), asked through the real judge path against the loopback server."""

from __future__ import annotations

from skillforge.evalformats import registry
from skillforge.metrics.judge_votes import votes_of
from skillforge.metrics.judged import judged_metrics
from skillforge.models.evals import EvalCase
from tests.evalformats.test_readers import FIXTURES
from tests.llm_server import structured
from tests.metrics.builders import activate, trajectory
from tests.metrics.test_judged import answer


def test_plugin_eval_llm_graders_ask_for_three_votes():
    case = registry.read(FIXTURES / "cc-plugin-eval").evalset.case("monthly-revenue")
    assert case.expected_behavior and votes_of(case) == 3
    assert votes_of(EvalCase(id="x", prompt="p")) == 1


async def test_behavior_check_is_the_majority_of_three_votes(llm_server, make_client, tmp_path):
    case = EvalCase(id="v", prompt="Do it.", expected_behavior=["reads the skill", "runs it"],
                    extra={"judge_votes": 3})
    client, server = make_client("openai"), llm_server
    server.script(*(structured(answer(8, None, b, step=2)) for b in
                    (("yes", "no"), ("yes", "yes"), ("no", "no"))))
    traj = trajectory(activate("demo"), final="Done.")
    result = await judged_metrics(traj, case, [client], use_cache=True, cache_dir=tmp_path)
    assert result.behavior_check == 0.5  # assertion 1: 2 of 3 yes; assertion 2: 1 of 3
    assert len(server.requests) == 3
    again = await judged_metrics(traj, case, [client], use_cache=True, cache_dir=tmp_path)
    assert again.behavior_check == 0.5 and len(server.requests) == 3  # each vote cached
