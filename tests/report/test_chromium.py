"""The HTML report in a real browser: Debian's headless Chromium opens the file, and

- the screenshot is a 1280x2000 PNG with real content (many colours, the verdict's colour);
- the rendered DOM holds every metric row with its lift, the heatmap rows, the side-by-side;
- the console stayed silent (no error, no message at all: the page has no script);
- the page asked the network for nothing (Chromium's own net log, page requests only);
- it prints to a multi-page PDF.

Chromium is required: install it with tools/ensure-chromium.sh. The screenshot, the page and
the PDF are left in tests/bench/out/ to look at.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from skillforge.report import facts as F
from skillforge.report import headline as H
from skillforge.report import render_html
from skillforge.report.method import verdict_cell
from skillforge.report.svg import VERDICT_COLOUR
from tests.conftest import ROOT
from tests.report.dom import Dom
from tests.report.png import header, top_pixels
from tests.report.synthetic import realistic_report, trajectories_for_negatives

pytestmark = pytest.mark.chromium
OUT = ROOT / "tests" / "bench" / "out"
WIDTH, HEIGHT = 1280, 2000
QUIET = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--hide-scrollbars",
         "--enable-logging=stderr", "--v=0"]


@pytest.fixture(scope="module")
def chromium() -> str:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("chromium is not installed: run tools/ensure-chromium.sh (installs Debian's "
                    "`chromium` package); this test needs a real browser and does not skip")
    return exe


def run_chromium(exe: str, profile: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([exe, *QUIET, f"--user-data-dir={profile}", *args, url],
                          check=False, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, f"chromium exited {proc.returncode}:\n{proc.stderr[-3000:]}"
    return proc


def console_messages(stderr: str) -> list[str]:
    """Page console output as Chromium logs it with --enable-logging=stderr."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]


def page_requests(netlog: Path) -> list[str]:
    """URLs the page itself asked for over the network (the browser's own traffic excluded).

    A request started for a document opened from file:// carries a file:// network
    isolation key; Chromium's background requests (updates, time) carry none.
    """
    text = netlog.read_text("utf-8")
    try:
        log = json.loads(text)
    except json.JSONDecodeError:  # a log cut at exit lacks its closing brackets
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for event in log["events"]:
        params = event.get("params") or {}
        if event.get("type") != start or "url" not in params:
            continue
        if "file://" in str(params.get("network_isolation_key", "")) and \
                not params["url"].startswith(("file:", "data:", "about:")):
            urls.append(params["url"])
    return urls


@pytest.fixture(scope="module")
def rendered(chromium, tmp_path_factory):
    """The realistic report opened once for a screenshot (with a net log) and once for its DOM."""
    OUT.mkdir(parents=True, exist_ok=True)
    report = realistic_report()
    page = OUT / "report.html"
    page.write_text(render_html(report, trajectories=trajectories_for_negatives()), "utf-8")
    shot, netlog, pdf = OUT / "report.png", OUT / "report-netlog.json", OUT / "report.pdf"
    for f in (shot, netlog, pdf):
        f.unlink(missing_ok=True)
    tmp = tmp_path_factory.mktemp("chromium")
    url = page.resolve().as_uri()
    shot_run = run_chromium(chromium, tmp / "p1", url, f"--screenshot={shot}",
                            f"--window-size={WIDTH},{HEIGHT}", f"--log-net-log={netlog}")
    dom_run = run_chromium(chromium, tmp / "p2", url, "--dump-dom")
    pdf_run = run_chromium(chromium, tmp / "p3", url, f"--print-to-pdf={pdf}",
                           "--no-pdf-header-footer")
    return {"report": report, "shot": shot, "netlog": netlog, "pdf": pdf, "dom": dom_run.stdout,
            "stderr": shot_run.stderr + dom_run.stderr + pdf_run.stderr}


def test_screenshot_is_a_sane_png_with_real_content(rendered):
    shot = rendered["shot"]
    assert shot.is_file(), "chromium wrote no screenshot"
    info = header(shot)
    assert (info["width"], info["height"]) == (WIDTH, HEIGHT)
    pixels = top_pixels(shot, 800)  # the header, the headline and the lift table
    colours = Counter(pixels)
    assert len(colours) > 200, f"only {len(colours)} colours: the page looks blank"
    white = colours.get((255, 255, 255), 0) + colours.get((255, 255, 255, 255), 0)
    assert white < 0.95 * len(pixels)
    verdict = H.headline_verdict(rendered["report"])[0]
    hex_colour = VERDICT_COLOUR[verdict].lstrip("#")
    rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))
    painted = sum(n for c, n in colours.items() if c[:3] == rgb)
    assert painted > 300, f"the {verdict!r} badge and CI bars are not painted"


def test_the_rendered_dom_has_every_metric_row_and_the_figures(rendered):
    dom = Dom(rendered["dom"])
    report = rendered["report"]
    for metric, row in report.metrics.items():
        cells = dom.row(data_metric=metric).cells
        assert cells[0] == metric and cells[3] == F.signed(row.lift)
    assert dom.row(data_metric="overall").cells[-1] == verdict_cell(report, "overall")
    assert len(re.findall(r'<g class="hm-row"', rendered["dom"])) == len(report.extra.cases)
    assert rendered["dom"].count('<div class="sbs">') == 2
    assert H.headline(report) in dom.text
    assert "Overall Skill Lift (mean of grader, accuracy, goal_accuracy, behavior_check, " \
        "security): +0.098" in dom.text


def test_no_console_output_and_no_network_request(rendered):
    assert console_messages(rendered["stderr"]) == []
    assert rendered["netlog"].is_file()
    assert page_requests(rendered["netlog"]) == []


def test_the_report_prints_to_several_pdf_pages(rendered):
    data = rendered["pdf"].read_bytes()
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) >= 3


def test_the_console_and_network_checks_catch_a_bad_page(chromium, tmp_path):
    """Control: the same checks, on a page that logs an error and loads an image, do fire."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><img src="http://example.invalid/x.png">'
                   '<script>console.error("boom"); missingFunction();</script></body></html>')
    netlog = tmp_path / "net.json"
    proc = run_chromium(chromium, tmp_path / "p", bad.as_uri(), "--dump-dom",
                        f"--log-net-log={netlog}")
    messages = console_messages(proc.stderr)
    assert any('"boom"' in m for m in messages)
    assert any("missingFunction is not defined" in m for m in messages)
    assert page_requests(netlog) == ["http://example.invalid/x.png"]
