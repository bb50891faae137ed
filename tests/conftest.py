"""Shared test helpers: fixture skills are copied to a temporary folder before use."""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

# numpy's OpenBLAS runs a large matrix product (the coverage simulation's bootstrap) on one
# thread per core, and its threads spin while they wait. With two test workers per core they
# only took CPU from each other: tests/lift/test_coverage_families.py used ~9.5 CPU-s with
# them and ~5 on one thread, in less time. Set before any test module imports numpy; a
# value given on the command line wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tests.llm_fixtures import PROVIDER_ENV_PREFIXES, clean_provider_env, llm_server, make_client  # noqa: F401
from tests.scheduling import spread

# Docker fixtures (the trial image built from Debian packages, run ids) and the real model
# server (llama.cpp serving SmolLM2-135M) for every test folder.
pytest_plugins = ["tests.docker_fixtures", "tests.llama_server"]

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
RULE_FIXTURES = FIXTURES / "rules"
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
SAMPLE_SKILLS = ROOT / "sample_skills"


def fixture_skill(rule_id: str, which: str) -> Path:
    """The one skill folder under tests/fixtures/rules/<rule>/<which>/."""
    base = RULE_FIXTURES / rule_id / which
    dirs = [p for p in base.iterdir() if p.is_dir()] if base.is_dir() else []
    if len(dirs) != 1:
        raise FileNotFoundError(f"{base} must hold exactly one skill folder, found {len(dirs)}")
    return dirs[0]


def copy_skill(src: Path, dest_root: Path) -> Path:
    """Copy a skill folder (mode bits included) under dest_root, keeping its folder name."""
    dest = dest_root / src.name
    shutil.copytree(src, dest, symlinks=True)
    return dest


@pytest.fixture
def rule_fixture(tmp_path):
    def get(rule_id: str, which: str) -> Path:
        return copy_skill(fixture_skill(rule_id, which), tmp_path / which)

    return get


_FRESH = itertools.count()


def fresh_dir(root: Path) -> Path:
    """A new, empty folder under `root`, named by a counter of this test process.

    Not `tmp_path_factory.mktemp`: that lists the whole base folder to find the next free
    number, so each call cost more than the last (three calls a test, thousands of tests a
    worker, and one a Hypothesis example in the fuzz tests)."""
    path = root / str(next(_FRESH))
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def fresh_root(tmp_path_factory) -> Path:
    """The one folder under which `fresh_dir` makes the per-test folders of this process."""
    return tmp_path_factory.mktemp("fresh")


def isolated_dirs(root: Path) -> dict[str, str]:
    """A new, empty cache dir and config dir under `root`, as the environment variables that
    point skillforge at them."""
    base = fresh_dir(root)
    dirs = {}
    for var, name in (("SKILLFORGE_CACHE_DIR", "cache"), ("XDG_CONFIG_HOME", "config")):
        (base / name).mkdir()
        dirs[var] = str(base / name)
    return dirs


_PASSED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[_PASSED] = report.passed
    return report


@pytest.fixture(autouse=True)
def _isolated_caches(request, fresh_root, monkeypatch):
    """Keep test runs away from the user's cache, config and real API keys. A passing test's
    dirs go at its teardown, like its tmp_path (pyproject.toml's tmp_path_retention_policy);
    a failing one's stay for a look."""
    dirs = isolated_dirs(fresh_root)
    for var, value in dirs.items():
        monkeypatch.setenv(var, value)
    for name in list(os.environ):
        if name.startswith(PROVIDER_ENV_PREFIXES):
            monkeypatch.delenv(name, raising=False)
    yield
    if request.node.stash.get(_PASSED, False):
        shutil.rmtree(Path(dirs["SKILLFORGE_CACHE_DIR"]).parent, ignore_errors=True)


@pytest.fixture(scope="session")
def _warm_cache_seed(tmp_path_factory) -> Path:
    """A cache dir as a first `skillforge` process leaves it: the tokenizer's decoded tables,
    the rules' compiled regexes, detect-secrets' plugin table (made once per test process by
    `linters.engine.warm_up` in a child, as the LSP server and the TUI do at start)."""
    seed = tmp_path_factory.mktemp("warm-cache")
    subprocess.run([sys.executable, "-c", "from linters.engine import warm_up; warm_up()"],
                   env={**os.environ, "SKILLFORGE_CACHE_DIR": str(seed)}, cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    return seed


def warm_cache_dir(seed: Path, cache_dir: str) -> None:
    """Fill `cache_dir` with what every earlier run would have left in it (the `seed`), so the
    `skillforge` processes using it (the CLI, the LSP server) do not each decode the
    tokenizer (~0.15 s) and compile the rules' regexes again. Copies, not links: a test may
    damage a file of its own cache dir on purpose."""
    shutil.copytree(seed, cache_dir, dirs_exist_ok=True)


@pytest.fixture
def warm_caches(_isolated_caches, _warm_cache_seed) -> None:
    """This test's cache dir starts warm (`warm_cache_dir`)."""
    warm_cache_dir(_warm_cache_seed, os.environ["SKILLFORGE_CACHE_DIR"])


# The fast tier (`make test-fast`) deselects tests that need a real engine. A test is marked
# by the session fixtures it uses, so a new Docker or Harbor test is never misfiled.
ENGINE_FIXTURES = {
    "docker_client": "docker",
    "harbor_env": "harbor",
    "llama_server": "llama",
}


# make test's second part runs the engine tests in two streams (`-n 2 --dist loadgroup`):
# the tests that wait on the llama.cpp model server (CPU-bound, one request at a time) in one
# worker, the Docker, Chromium, Harbor and install tests (mostly waiting on containers and
# processes) in the other. Serially the two took ~22 + ~15 min. Without loadgroup the group
# marker does nothing. tryfirst: xdist's worker reads the marker in this same hook.
ENGINE_GROUPS = ("docker", "chromium", "harbor", "install")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        for fixture, marker in ENGINE_FIXTURES.items():
            if fixture in item.fixturenames:
                item.add_marker(marker)
        if item.get_closest_marker("llama"):
            item.add_marker(pytest.mark.xdist_group("llama"))
        elif any(item.get_closest_marker(m) for m in ENGINE_GROUPS):
            item.add_marker(pytest.mark.xdist_group("engine"))
    if os.environ.get("PYTEST_XDIST_WORKER"):  # every worker orders its collection alike
        items[:] = spread(items)


# Textual's Pilot waits after every key it presses until the app looks idle: it sleeps in
# steps of SLEEP_GRANULARITY (1/50 s) and stops after a step in which the process used
# almost no CPU. Steps of 1/200 s answer as soon as the app is done: the TUI tests typed at
# ~150 ms a key, and while they waited the apps' timers (cursor blinks, clocks) kept
# repainting. Measured on four TUI files: 74 s -> 40 s, and a quarter less CPU. 1/500 s
# polls more than it saves. The name is private to Textual, which is pinned exactly; a
# Textual without it fails here, loudly, rather than the suite slowing down unnoticed.
import textual._wait  # noqa: E402

assert hasattr(textual._wait, "SLEEP_GRANULARITY"), "Textual's Pilot changed: see tests/conftest.py"
textual._wait.SLEEP_GRANULARITY = 1 / 200


# Python's cyclic collector walked every module, test item and fixture definition again and
# again: each full collection took ~0.1 s once the suite was imported, and the TUI tests
# (thousands of widgets each) set one off every few seconds. What is alive once collection
# ends lives to the end of the session, so it leaves the walks altogether, and the young
# generation is collected less often (gen0 every 50,000 allocations, as `skillforge lint`
# does). On the TUI tests this cut the CPU time by about a quarter.
GC_THRESHOLD = (50_000, 20, 20)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


# syrupy (under pytest-textual-snapshot) writes a snapshot report at the end of every
# process, and an xdist worker's report is thrown away unread: syrupy itself leaves unused
# snapshots to the controller there (its `finish`). Working out which snapshots the worker
# did not use still cost each worker 1 to 1.5 s once its last test had run, walking every
# test it ran for every snapshot other workers used. A worker's report is left empty.
@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        syrupy = getattr(session.config, "_syrupy", None)
        assert syrupy is not None and hasattr(syrupy, "report"), "syrupy changed: see tests/conftest.py"
        syrupy.report = types.SimpleNamespace(lines=())
