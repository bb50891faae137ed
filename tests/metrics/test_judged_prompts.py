"""What the trial judge is shown: size limits, the final answer, the facts."""

from __future__ import annotations

from skillforge.metrics.judged_prompts import (
    MAX_TRAJECTORY_CHARS,
    final_answer,
    judge_facts,
    render_trajectory,
    user_prompt,
)
from tests.metrics.builders import Call, activate, bash, case, trajectory, write


def test_a_long_trajectory_keeps_its_first_and_last_steps():
    calls = [bash(f"python3 step_{i}.py", "x" * 5000) for i in range(150)]
    t = trajectory(*calls, final="The final report.")
    text = render_trajectory(t, "abc123")
    assert len(text) < MAX_TRAJECTORY_CHARS + 5_000
    assert '<step_abc123 id="1" source="user">' in text
    assert '<step_abc123 id="152" source="agent">\nThe final report.' in text
    assert '<omitted_abc123 steps="' in text
    assert "characters cut" in text  # each 5000-character output is clipped too


def test_final_answer_is_the_last_message_without_tool_calls():
    t = trajectory(bash("ls"), final="All done: 3 files.")
    assert final_answer(t) == (3, "All done: 3 files.")
    assert final_answer(trajectory(bash("ls"), final=None)) == (None, "")


def test_facts_record_exit_codes_writes_activations_and_errors():
    t = trajectory(activate("csv-insights"), bash("python3 broken.py", "Traceback", code=1),
                   write("out.md"), Call("read_file", {"path": "gone.csv"}, "Error: missing",
                                         {"is_error": True}))
    f = judge_facts(t)
    assert [(c.step_id, c.exit_code, c.error) for c in f.commands] == [(3, 1, True)]
    assert f.files_written == [(4, "out.md")]
    assert f.activations == [(2, "csv-insights")]
    assert f.tool_calls == 4 and [s for s, _ in f.tool_errors] == [3, 5]
    prompt = user_prompt(t, case(), f, "n0nce0")
    assert "Tool calls: 4; with errors: 2 (step 3: the harness flagged" in prompt
    assert "step 3, exit 1: python3 broken.py" in prompt
