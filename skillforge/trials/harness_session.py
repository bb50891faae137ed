"""What a run with an external harness sets up once: its image, network and model proxy.

    async with harness_session(spec, harness, warn=...) as session:
        sandbox = sandbox_spec(...).model_copy(update=session.sandbox_update())
        lease = session.lease(trial_key, condition, target, task, max_calls, on_limit)
        access = harness.proxy_credentials(lease.token, session.base_url)

- Image: the trial image plus the harness's CLI (skillforge.harnesses.image), built once.
- Network: without --network the internal `skillforge-proxy` network, on which the only
  reachable address is the host's end of the bridge; with it, Docker's default bridge
  (skillforge.sandbox.networks).
- Proxy: one per run, listening on that network's gateway address, forwarding with the
  host's credentials (skillforge.harnesses.proxy). Baseline trials (where the target is not
  staged) get a contamination scanner (skillforge.harnesses.contamination).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skillforge.agent.loop import task_message
from skillforge.harnesses.base import Harness, HarnessError
from skillforge.harnesses.contamination import Markers, Scanner
from skillforge.harnesses.image import cli_binary, cli_version, harness_image
from skillforge.harnesses.proxy import Lease, ModelProxy, ProxyError
from skillforge.harnesses.run import HarnessRun
from skillforge.models.llm import Usage
from skillforge.models.trial import RunSpec
from skillforge.providers.prices import cost_usd, price_table
from skillforge.sandbox.base import SandboxUnavailable
from skillforge.sandbox.skill_tree import SkillTree

# Conditions whose container holds no version of the target: what their requests carry of
# it came from somewhere staging could not see.
UNSTAGED = ("baseline", "self_generated")


@dataclass
class HarnessSession:
    """A run's harness image, network and proxy."""

    harness: Harness
    proxy: ModelProxy
    host: str
    network_name: str
    image: str
    cli: dict[str, Any]
    version_delta: bool = False

    @property
    def base_url(self) -> str:
        return self.proxy.base_url(self.host)

    def sandbox_update(self) -> dict[str, Any]:
        return {"image": self.image, "network_name": self.network_name}

    def lease(self, key: Hashable, condition: str, target: SkillTree, task: str,
              max_calls: int, on_limit: Callable[[], None]) -> Lease:
        scanner = None
        if condition in UNSTAGED and not self.version_delta:
            scanner = Scanner(Markers(target.name, target.description, task))
        return self.proxy.lease(key, scanner=scanner, max_calls=max_calls, on_limit=on_limit)

    def start(self, sandbox: Any, stage: Any, prompt: str, condition: str, target: SkillTree,
              spec: RunSpec, *, meta: dict[str, Any], on_step: Callable[..., None] | None
              ) -> tuple[HarnessRun, Lease]:
        """One trial's CLI run, with its lease on the proxy (release it when the trial ends)."""
        runs: list[HarnessRun] = []
        lease = self.lease((meta.get("case_id"), condition, meta.get("attempt")), condition,
                           target, task_message(stage, prompt), spec.limits.max_turns,
                           on_limit=lambda: runs[0].stop_at_limit())
        run = HarnessRun(self.harness, sandbox, stage, prompt,
                         access=self.harness.proxy_credentials(lease.token, self.base_url),
                         meta=meta, model=spec.model, max_turns=spec.limits.max_turns,
                         timeout_s=spec.limits.timeout_sec, on_step=on_step)
        runs.append(run)
        run.facts["cli"] = self.cli
        return run, lease


def trial_usage(lease: Lease, reported: Usage, reported_cost: float | None
                ) -> tuple[Usage, float | None]:
    """What a harness trial used: what the proxy forwarded, priced from skillforge's table
    when the model is in it (else the CLI's own cost). A run that made no call through the
    proxy (a stand-in CLI replaying a transcript) keeps what its stream reported."""
    if lease.calls == 0:
        return reported, reported_cost
    usage = Usage(input_tokens=lease.usage.input_tokens,
                  output_tokens=lease.usage.output_tokens,
                  cached_tokens=lease.usage.cached_tokens,
                  cache_write_tokens=lease.usage.cache_write_tokens)
    model = next((r.get("model") for r in reversed(lease.requests) if r.get("model")), None)
    cost = cost_usd(model, usage, price_table()) if model else None
    return usage, cost if cost is not None else reported_cost


def _prepare(spec: RunSpec, harness: Harness) -> tuple[str, str, str, dict[str, Any]]:
    """(image, network name, gateway, CLI facts): blocking Docker calls, run in a thread."""
    from skillforge.sandbox.docker_client import get_client
    from skillforge.sandbox.networks import network_gateway

    client = get_client()
    binary: Path | None = cli_binary(harness, spec.harness_cli)
    cli: dict[str, Any] = {"source": "image", "binary": harness.binary}
    image = spec.image
    if binary is not None:
        version = cli_version(binary)
        image = harness_image(client, harness, spec.image, binary, version)
        cli = {"source": str(binary), "version": version, "image": image}
    name, gateway = network_gateway(client, internet=spec.network)
    return image, name, gateway, cli


@asynccontextmanager
async def harness_session(spec: RunSpec, harness: Harness | None
                          ) -> AsyncIterator[HarnessSession | None]:
    """The run's session for `harness` (None for the built-in agent: nothing to set up).
    Raises HarnessError (a missing key, CLI or image) or SandboxUnavailable (Docker)."""
    if harness is None:
        yield None
        return
    upstream = harness.upstream()
    image, name, gateway, cli = await asyncio.to_thread(_prepare, spec, harness)
    proxy = ModelProxy(upstream, hosts=[gateway])
    try:
        await proxy.start()
    except ProxyError as exc:
        raise SandboxUnavailable(
            f"{exc}. Trial containers reach skillforge's model proxy on the host's address on "
            f"the Docker network {name!r} ({gateway}); is that bridge up (`docker network "
            f"inspect {name}`)?") from exc
    try:
        yield HarnessSession(harness, proxy, gateway, name, image, cli,
                             version_delta=bool(spec.baseline_version))
    finally:
        await proxy.stop()


__all__ = ["HarnessError", "HarnessSession", "harness_session"]
