"""Driving the workbench in tests: build it on a copy, record messages, wait for states."""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.keys import _character_to_key
from textual.message import Message

from skillforge.app import SkillforgeApp, build_app
from skillforge.models.config import Settings
from tests.conftest import SAMPLE_SKILLS
from widgets.case_list import CaseList
from widgets.evals_pane import EvalsPane
from widgets.findings_table import FindingsTable

SIZE = (100, 30)


class Recorder:
    """Collects every message the app dispatches (Harlequin's message_hook idea)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def __call__(self, message: Message) -> None:
        self.messages.append(message)

    def of(self, kind: type) -> list:
        return [m for m in self.messages if isinstance(m, kind)]

    def names(self) -> list[str]:
        return [type(m).__name__ for m in self.messages]


def make_app(path: Path, settings: Settings | None = None) -> SkillforgeApp:
    return build_app(path, settings or Settings())


# How often `wait_for` looks at its condition. Between looks the app runs as it would for a
# person (its own timers lay out and paint); `pilot.pause` is not used for the polling, since
# each one sends a message to every widget on the screen and waits for all to answer: polling
# with it every 20 ms cost more CPU than the app itself in the TUI tests.
POLL_S = 0.02


async def wait_for(
    pilot, condition: Callable[[], bool], timeout: float = 10.0, what: str = ""
) -> None:
    """Let the app run until `condition()` holds; fail with `what` after `timeout` seconds.
    Once it holds, every message already queued is processed (`pilot.pause(0)`)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout}s waiting for {what or condition}; the screen:\n"
                + screen_text(pilot.app)
            )
        await asyncio.sleep(POLL_S)
    await pilot.pause(0)


async def mounted(pilot, selector, timeout: float = 10.0, what: str = ""):
    """The workbench's widget matching `selector` once its tab has mounted it. A tab's
    widgets are mounted on its first visit, after the key that opens it has been handled,
    so querying right after the key races the mount on a loaded machine."""
    wb = pilot.app.workbench
    await wait_for(pilot, lambda: bool(wb.query(selector)), timeout, what or str(selector))
    return wb.query_one(selector)


async def press_handled(pilot, *keys: str) -> None:
    """Press `keys` and wait until the app has handled them. A key that is meant to do nothing
    leaves no trace to wait for, so F1 follows: it takes the same way through the app (the
    focused widget, up to the app's bindings) after them, and its Help screen is the proof;
    Esc closes it again."""
    from skillforge.screens.help import HelpScreen

    app = pilot.app
    await pilot.press(*keys, "f1")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, HelpScreen),
        5,
        f"{' '.join(keys)} handled (the Help screen F1 opens after them)",
    )
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), 5, "the Help closed")


async def burst(pilot, *keys: str) -> None:
    """Send `keys` the way a terminal delivers fast typing: all at once, with no pause for
    the app between them (`pilot.press` waits for the app to go idle after every key).
    Single characters are typed; other names (`shift+down`, `ctrl+s`) are keys."""
    app = pilot.app
    for key in keys:
        event = events.Key(_character_to_key(key), key) if len(key) == 1 else events.Key(key, None)
        event.set_sender(app)
        app.post_message(event)


def table(app: SkillforgeApp) -> FindingsTable:
    return app.screen.query_one(FindingsTable)


def shown_rules(app: SkillforgeApp) -> set[str]:
    return {f.rule for f in table(app).shown}


def current_result(app: SkillforgeApp):
    wb = app.workbench
    return wb.results.get(wb.current) if wb and wb.current else None


def settled(app: SkillforgeApp) -> bool:
    """The current skill is linted, scripts included, and the table shows that report."""
    r = current_result(app)
    if r is None or r.report.scripts_pending and r.external is None:
        return False
    return len(table(app)._all) == len(r.report.findings)


async def settle(pilot, timeout: float = 15.0) -> None:
    await wait_for(pilot, lambda: settled(pilot.app), timeout, "the lint to settle")
    await pilot.pause(0.05)


TAB_KEYS = dict(
    zip(
        "123456",
        ("lint-pane", "judge-pane", "evals-pane", "trials-pane", "lift-pane", "compare-pane"),
        strict=True,
    )
)


def footer_current(app) -> bool:
    """The footer lists the keys the screen offers now (it follows the focus a refresh late)."""
    from widgets.key_footer import KeyFooter

    want = {b.binding.description for b in app.screen.active_bindings.values() if b.binding.show}
    return {d for _k, _s, d, _on in app.workbench.query_one(KeyFooter).keys} == want


async def show_tab(pilot, key: str) -> None:
    """Press a tab's key (1-6); return once that tab is shown and the footer offers its keys."""
    app = pilot.app
    await pilot.press(key)
    await wait_for(pilot, lambda: app.workbench.active_tab == TAB_KEYS[key], 5, f"tab {key}")
    await wait_for(pilot, lambda: footer_current(app), 5, f"the footer to show tab {key}'s keys")


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


async def sleep(s: float) -> None:
    await asyncio.sleep(s)


def screen_lines(app: SkillforgeApp) -> list[str]:
    """The terminal as a person sees it now: one string per row of the top screen."""
    update = app.screen._compositor.render_full_update(simplify=True)
    return ["".join(strip.text for strip in row) for row in update.strips]


def screen_text(app: SkillforgeApp) -> str:
    return "\n".join(screen_lines(app))


async def open_run_list(pilot) -> None:
    """Lift tab (key 5), once the skill is linted and the stored runs are listed; the list
    has the focus."""
    from widgets.run_picker import RunPicker

    app = pilot.app
    await settle(pilot)
    await pilot.press("5")
    await wait_for(
        pilot,
        lambda: bool(app.workbench.query(RunPicker)) and app.workbench.query_one(RunPicker).runs,
        10,
        "the runs",
    )
    app.workbench.query_one(RunPicker).focus()


async def open_lift(pilot, run_row: int = 0, run_id: str | None = None, timeout: float = 20):
    """Lift tab; Enter on the run at `run_row` of the list (newest first); its LiftView
    once the run's lift is shown (that of `run_id`, when given)."""
    from widgets.lift_view import LiftView

    await open_run_list(pilot)
    await pilot.press(*["down"] * run_row, "enter")
    lift = pilot.app.workbench.query_one(LiftView)
    await wait_for(
        pilot,
        lambda: lift.report is not None and (run_id is None or lift.report.run_id == run_id),
        timeout,
        "the run's lift",
    )
    return lift


def shown_in(app, widget) -> str:
    """What the screen shows inside `widget` (its border left out), lines joined by spaces."""
    r = widget.content_region
    rows = screen_lines(app)[r.y : r.y + r.height]
    return " ".join(" ".join(row[r.x : r.x + r.width].split()) for row in rows)


def one_case_skill(root: Path, case: str = "monthly-revenue") -> Path:
    """csv-insights with only its eval case `case`: a run of it is two trials."""
    skill = shutil.copytree(SAMPLE_SKILLS / "csv-insights", root / "csv-insights")
    path = skill / "evals" / "evals.json"
    doc = json.loads(path.read_text("utf-8"))
    doc["evals"] = [c for c in doc["evals"] if c["id"] == case]
    path.write_text(json.dumps(doc, indent=2), "utf-8")
    return skill


def local_scripted_model(root: Path, monkeypatch, llm_server, handler: Callable) -> None:
    """Work in `root`; trials run in the local sandbox against the scripted model server,
    which answers every request with `handler`."""
    monkeypatch.chdir(root)
    (root / "skillforge.toml").write_text('[trial]\nsandbox = "local"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    monkeypatch.setenv("SKILLFORGE_PROVIDER__MODEL", "small-local-model")
    llm_server.handler = handler


async def open_evals_tab(pilot) -> None:
    """The Evals tab (key 3), its cases loaded and its case list focused. The tab gives the
    focus to its first widget (the case list) a refresh later: waiting for that keeps the
    focus from moving under the keys a test presses next."""
    await settle(pilot)
    await pilot.press("3")
    await wait_for(
        pilot,
        lambda: bool(pilot.app.workbench.query(EvalsPane))
        and pilot.app.workbench.query_one(EvalsPane).evalset is not None,
        5,
        "the evals",
    )
    await wait_for(pilot, lambda: isinstance(pilot.app.focused, CaseList), 5,
                   "the case list focused by the tab")
