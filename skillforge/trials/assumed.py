"""Per-trial token figures when no stored run can give them: stated assumptions, not data.

Used by the estimate (skillforge.trials.estimate) when the store holds no comparable run of
the skill, and for the judge's share when no earlier run was judged. Every figure here is
printed with the estimate (`ASSUMPTION` / `JUDGE_ASSUMPTION`), so a reader knows the cost
shown is a guess of this shape and can replace it by running a few cases first.

The agent: every trial uses all its `max_turns` turns, the context starting at
`BASE_TOKENS` (system prompt with the skill list, the case's prompt) and growing by
`TURN_CONTEXT_TOKENS` a turn (the model's call and its tool result), each turn writing
`TURN_OUTPUT_TOKENS`. The input of a trial is the sum of the context over its turns, since
every turn resends it. Using all turns makes it an upper bound for most runs.

The judge: one call per judge per trial (accuracy, goal_accuracy and behavior_check are
asked together, skillforge.metrics.judged), reading the whole trajectory plus
`JUDGE_OVERHEAD_TOKENS` of rubric, case and schema, answering in `JUDGE_OUTPUT_TOKENS`. The
trajectory is taken as the agent's mean context per turn: the judge's rendering leaves out
the agent's system prompt and is fitted to the judge's window. Measured on the loopback
server's csv-insights trials: for monthly-revenue with and without the skill the judge's
calls took 3,865 tokens in and out, this assumption says 5,707 (twice the mean context
said 7,612); for four trials of two cases they read 11,085 input tokens (retries
included), this says 9,857.
"""

from __future__ import annotations

BASE_TOKENS = 2_000
TURN_CONTEXT_TOKENS = 600
TURN_OUTPUT_TOKENS = 150  # as skillforge.authoring.describe_setup assumes for trigger trials
JUDGE_OVERHEAD_TOKENS = 1_500
JUDGE_OUTPUT_TOKENS = 400


def agent_tokens(max_turns: int) -> tuple[float, float]:
    """(input, output) tokens of one trial that uses all `max_turns` turns."""
    turns = max(1, max_turns)
    tokens_in = turns * BASE_TOKENS + TURN_CONTEXT_TOKENS * turns * (turns - 1) / 2
    return float(tokens_in), float(turns * TURN_OUTPUT_TOKENS)


def judge_tokens(agent_in: float, turns: float | None, judges: int = 1) -> tuple[float, float]:
    """(input, output) judge tokens of one trial whose agent read `agent_in` tokens over
    `turns` turns (None: unknown, then the whole input is taken as the trajectory)."""
    trajectory = agent_in / turns if turns and turns > 0 else agent_in
    n = max(1, judges)
    return n * (trajectory + JUDGE_OVERHEAD_TOKENS), float(n * JUDGE_OUTPUT_TOKENS)


def assumption(max_turns: int) -> str:
    """The agent's assumption in words, with the figures used."""
    return (f"assumed: every trial uses all {max_turns} turns, the context starting at "
            f"{BASE_TOKENS:,} tokens and growing {TURN_CONTEXT_TOKENS:,} a turn, "
            f"{TURN_OUTPUT_TOKENS:,} output tokens a turn (an upper bound for most runs)")


def judge_assumption(judges: int) -> str:
    """The judge's assumption in words."""
    who = "the judge" if judges <= 1 else f"each of the {judges} judges"
    return (f"assumed: {who} reads the whole trajectory once per trial (about the agent's "
            f"mean context per turn) plus {JUDGE_OVERHEAD_TOKENS:,} tokens of rubric "
            f"and answers in {JUDGE_OUTPUT_TOKENS:,}")
