"""A recorded session, digested for a model: the facts read off it deterministically, the
steps as delimited data, and the copy check that traces a proposed ground truth back to it.

`session_facts(trajectory)` gathers task, final answer, activations, script runs, commands
and writes (skillforge.trajectory.facts) plus everything the agent and its tools produced;
`render_facts` and `render_steps` lay them out inside nonce-tagged delimiters.

Non-circularity: the answer of the agent under test must not become the ground truth it is
graded against without the author noticing. `session_overlap` measures how much of what a
proposal adds to the author's own words appears in the session; `from_session` and
`copy_warning` turn that into the mark skillforge.authoring.refining puts on a change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sessions.atif import Trajectory, message_text
from skillforge.models.prompt_fit import Fit
from skillforge.trajectory import facts as tf
from skillforge.models.proposals import FROM_AGENT_WARNING

OVERLAP_FLAG = 0.6  # share of the new words found in the session that marks a copy
VERBATIM_RUN = 8  # this many consecutive words shared with the session is a copy
STEP_TEXT, CALL_ARGS, RESULT_TEXT, SESSION_CHARS = 3000, 800, 1500, 60_000
_STOP = frozenset("""a an the and or but of to in on at for from by with as is are was were be
been it its this that these those there their they them he she we you your our i me my not no
do does did done has have had will would can could should may might must than then so if
into over under about per each all any some more most less very also only just which who
what when where why how""".split())  # noqa: SIM905


@dataclass
class SessionFacts:
    """What a trajectory shows, read off deterministically before any model looks at it."""

    task: str
    final_answer: str
    final_step: int | None
    activations: list[tf.Activation]
    script_runs: list[tf.ScriptRun]
    commands: list[tf.Command]
    writes: list[tf.FileWrite]
    tool_calls: int
    tool_errors: int
    steps: int
    # (where, text) of everything the agent produced: answer, messages, file contents, and
    # (separately) what its tools printed. The non-circularity check reads these.
    agent_texts: list[tuple[str, str]] = field(default_factory=list)
    tool_texts: list[tuple[str, str]] = field(default_factory=list)


_WRITE_KEYS = ("content", "contents", "file_text", "new_string", "new_str", "text", "input",
               "patch")


def session_facts(traj: Trajectory) -> SessionFacts:
    """The facts of `traj`: task, final answer, activations, scripts, commands, writes."""
    user = [s for s in traj.steps if s.source == "user" and s.text.strip()]
    agent = [s for s in traj.steps if s.source == "agent" and s.text.strip()]
    final = next((s for s in reversed(agent) if not s.tool_calls), agent[-1] if agent else None)
    outcomes = tf.call_outcomes(traj)
    writes = tf.file_writes(traj)
    write_ids = {w.tool_call_id for w in writes}
    agent_texts = [("the final answer" if s is final else f"the agent's message at step "
                    f"{s.step_id}", s.text) for s in agent]
    tool_texts = []
    for _order, step, call in tf.tool_calls(traj):
        cmd = tf.shell_command(call)
        what = (f"a file written at step {step.step_id}" if call.tool_call_id in write_ids
                else f"the agent's tool input at step {step.step_id}")
        if cmd is not None:
            if call.tool_call_id in write_ids:  # e.g. cat > answer.md <<EOF ... EOF
                agent_texts.append((what, cmd))
        else:
            agent_texts += [(what, v) for k in _WRITE_KEYS
                            if isinstance(v := call.arguments.get(k), str) and v.strip()]
        res = tf.result_for(step, call)
        if res is not None:
            tool_texts.append((f"a tool output at step {step.step_id}",
                               message_text(res.content)))
    return SessionFacts(
        task=user[0].text.strip() if user else "", final_answer=final.text.strip() if final else "",
        final_step=final.step_id if final else None, activations=tf.skill_activations(traj),
        script_runs=tf.script_runs(traj), commands=tf.commands(traj), writes=writes,
        tool_calls=len(outcomes), tool_errors=sum(1 for o in outcomes if o.error),
        steps=len(traj.steps), agent_texts=agent_texts, tool_texts=tool_texts)


def cut_text(text: str, limit: int) -> str:
    """`text` stripped, and cut at `limit` characters with a note of how many were left out."""
    text = text.strip()
    return text if len(text) <= limit else f"{text[:limit]}… [{len(text) - limit} more characters]"


def render_facts(facts: SessionFacts, nonce: str, fit: Fit | None = None) -> str:
    """The facts as one delimited block, commands and answer cut to a readable length (and
    shorter under a `fit` for a small context)."""
    fit = fit or Fit()
    acts = ", ".join(f"{a.skill_name} ({a.how} at step {a.step_id})" for a in facts.activations)
    runs = ", ".join(f"{r.skill_name}/{r.script} at step {r.step_id} (exit "
                     f"{'?' if r.exit_code is None else r.exit_code})" for r in facts.script_runs)
    lines = [f"<session_facts_{nonce}>",
             f"task (first user message): {cut_text(facts.task, max(200, fit.cap(2000))) or '(none)'}",
             (f"steps: {facts.steps}; tool calls: {facts.tool_calls}; tool calls that failed: "
              f"{facts.tool_errors}"),
             f"skills activated: {acts or 'none'}",
             f"skill scripts run: {runs or 'none'}",
             f"shell commands ({len(facts.commands)}):"]
    shown, cut = max(5, fit.cap(40)), max(80, fit.cap(300))
    lines += [f"  step {c.step_id}: {cut_text(c.command, cut)}" for c in facts.commands[:shown]]
    if len(facts.commands) > shown:
        lines.append(f"  ... and {len(facts.commands) - shown} more")
    writes = max(10, fit.cap(200))
    lines.append("files written: " + (", ".join(f"{w.path} (step {w.step_id})"
                                                for w in facts.writes[:writes]) or "none")
                 + (f", ... and {len(facts.writes) - writes} more"
                    if len(facts.writes) > writes else ""))
    if fit.scale < 1 and (len(facts.commands) > shown or len(facts.writes) > writes):
        fit.note(f"the session's facts: {min(shown, len(facts.commands))} of "
                 f"{len(facts.commands)} commands and {min(writes, len(facts.writes))} of "
                 f"{len(facts.writes)} files written shown")
    lines.append(f"final answer (step {facts.final_step}): "
                 f"{cut_text(facts.final_answer, max(300, fit.cap(4000))) or '(none)'}")
    lines.append(f"</session_facts_{nonce}>")
    return "\n".join(lines)


def _render_step(step: Any, nonce: str, fit: Fit) -> str:
    out = [f'<step_{nonce} id="{step.step_id}" source="{step.source}">']
    if step.text.strip():
        out.append(cut_text(step.text, max(120, fit.cap(STEP_TEXT))))
    for call in step.tool_calls or []:
        args = json.dumps(call.arguments, ensure_ascii=False)
        out.append(f"[tool call {call.function_name}] {cut_text(args, max(80, fit.cap(CALL_ARGS)))}")
        res = tf.result_for(step, call)
        if res is not None:
            out.append(f"[result] "
                       f"{cut_text(message_text(res.content), max(80, fit.cap(RESULT_TEXT)))}")
    out.append(f"</step_{nonce}>")
    return "\n".join(out)


def render_steps(traj: Trajectory, nonce: str, fit: Fit | None = None) -> str:
    """The steps as data; when too long, the first (up to five) and as many of the last as
    fit; a `fit` for a small context shrinks every limit and records the cut."""
    fit = fit or Fit()
    parts = [_render_step(s, nonce, fit) for s in traj.steps]
    limit = fit.cap(SESSION_CHARS)
    if sum(map(len, parts)) > limit:
        head, used = [], 0
        for p in parts[:5]:
            if head and used + len(p) > limit // 2:
                break
            head.append(p)
            used += len(p)
        tail: list[str] = []
        for p in reversed(parts[len(head):]):
            if used + len(p) > limit:
                break
            tail.insert(0, p)
            used += len(p)
        gap = len(parts) - len(head) - len(tail)
        if gap:
            parts = [*head, f"[{gap} steps left out for length]", *tail]
            fit.note(f"the session: {gap} of {gap + len(head) + len(tail)} steps left out")
    return f"<session_steps_{nonce}>\n" + "\n".join(parts) + f"\n</session_steps_{nonce}>"


# --- non-circularity ------------------------------------------------------------------------

def _tokens(text: str) -> list[str]:
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.lower())  # 2,556.83 -> 2556.83
    return re.findall(r"\d+(?:\.\d+)?|[^\W\d_]+", text)


def _content(text: str) -> set[str]:
    """Words and numbers that carry meaning: no stop words, no 1-2 digit integers (those
    match by accident: "12" is in every date of December)."""
    return {t for t in _tokens(text)
            if t not in _STOP and (t[0].isdigit() and (len(t) > 2 or "." in t) or len(t) > 2)}


def _grams(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + VERBATIM_RUN]) for i in range(len(words) - VERBATIM_RUN + 1)}


def session_overlap(new: str, author_texts: Iterable[str],
                    sources: list[tuple[str, str]]) -> tuple[float, str | None]:
    """(share of `new`'s own words found in `sources`, where most of them were).

    Words the author already wrote (the case, the skill) do not count: only what the
    proposal adds is traced to the session. A run of VERBATIM_RUN words copied from the
    session (and not from the author) counts as a copy whatever the share.
    """
    authored = [t for t in author_texts if t]
    novel = _content(new) - set().union(set(), *(_content(t) for t in authored))
    if len(novel) == 1 and not next(iter(novel))[0].isdigit():
        novel = set()  # one shared word is a coincidence; one shared number is not
    pool = set().union(set(), *(_content(t) for _w, t in sources))
    share = len(novel & pool) / len(novel) if novel else 0.0
    copied = _grams(_tokens(new)) - set().union(set(), *(_grams(_tokens(t)) for t in authored))
    verbatim = [w for w, t in sources if copied & _grams(_tokens(t))]
    if verbatim:
        share = 1.0
    if share == 0:
        return 0.0, None
    best = verbatim[0] if verbatim else max(
        sources, key=lambda s: (len(novel & _content(s[1])), s[0] == "the final answer"))[0]
    return round(share, 2), best


def from_session(new: str, author_texts: list[str],
                  facts: SessionFacts) -> tuple[float, str | None, bool]:
    """(overlap, where, whether the agent itself wrote it) of a ground truth candidate."""
    share, where = session_overlap(new, author_texts, facts.agent_texts)
    if share >= OVERLAP_FLAG:
        return share, where, True
    tool_share, tool_where = session_overlap(new, author_texts, facts.tool_texts)
    if tool_share >= OVERLAP_FLAG:
        return tool_share, tool_where, False
    return share, where, False


def copy_warning(model_said: bool, share: float, where: str | None, by_agent: bool) -> str | None:
    """The warning a change or case carries when its ground truth came from the session."""
    if share >= OVERLAP_FLAG and not by_agent:
        return f"taken from the agent's session ({where}) — verify before accepting"
    if share >= OVERLAP_FLAG or model_said:
        return FROM_AGENT_WARNING + (f" (matches {where})" if share >= OVERLAP_FLAG else "")
    return None

