"""Which network policy an exported task can ask of each Harbor environment.

A task.toml sets `[environment] network_mode` (the sandbox as it starts, while Harbor
installs the agent) and, per phase, `[agent]` / `[verifier] network_mode`. What an
environment accepts, as read in Harbor 0.25.0's source (`harbor/environments/*`, the
`capabilities` of each class for a task built from a Dockerfile, and the checks in
`environments/base.py` and `trial/trial.py`):

- `switch`: it can turn the network off and change the policy after start. The sandbox
  starts public (so Harbor can install the agent) and the agent and grader phases run
  without network.
- `fixed`: it can turn the network off but cannot change the policy after start, and
  refuses a phase policy that differs from the start one. Every policy is no-network, so
  an agent that is installed during setup (claude-code, codex, ...) must already be in the
  image; terminus-2 runs on the host and needs nothing installed.
- `none`: it refuses no-network ("network_mode='no-network' is not supported"). Every
  policy is public: the network cannot be kept off, and the export says so.

Harbor's Docker environment (and podman, kata, built on it) is `none` here: it can enforce
no-network only through an egress-control sidecar that it builds from Docker Hub images,
after probing the engine's kernel for nftables support with another Docker Hub image; where
those cannot be fetched or the kernel lacks the support, a no-network task is refused, and
a public sandbox with a no-network agent phase is refused too ("cannot change network
policy after start"). An export cannot know which case a machine is in, so for these
environments it writes policies that always run, and says plainly that the trials have
network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Enforcement = Literal["switch", "fixed", "none"]
DEFAULT_ENVIRONMENT = "docker"

# Harbor 0.25.0's EnvironmentType values, by what they do with a Dockerfile task's policy.
ENVIRONMENTS: dict[str, Enforcement] = {
    # runs on this machine's container engine
    "docker": "none", "podman": "none", "kata": "none", "apple-container": "none",
    "singularity": "none",
    # cloud sandboxes that switch the policy per phase
    "daytona": "switch", "modal": "switch", "e2b": "switch", "beam": "switch",
    "prime": "switch", "sail": "switch", "tensorlake": "switch", "hyperbrowser": "switch",
    "runta": "switch", "vercel": "switch", "novita": "switch",
    # cloud sandboxes whose policy is fixed at creation (islo and sbx switch only in some
    # of their set-ups; a fixed policy is accepted in all of them)
    "runloop": "fixed", "mosaic": "fixed", "blaxel": "fixed", "skypilot": "fixed",
    "ec2": "fixed", "cwsandbox": "fixed", "opensandbox": "fixed", "langsmith": "fixed",
    "smol": "fixed", "islo": "fixed", "sbx": "fixed",
    # cannot turn the network off at all
    "kernel": "none", "openshift": "none", "ack": "none", "gke": "none",
    "hf-sandbox": "none", "use-computer": "none", "cua-cloud": "none",
}
LOCAL = frozenset({"docker", "podman", "kata", "apple-container", "singularity"})


@dataclass(frozen=True)
class NetworkPlan:
    """The policies written into every task.toml of an export, and what they mean."""

    harbor_environment: str
    asked_network: bool  # what the trial settings asked ([trial] network / --network)
    environment: str  # [environment] network_mode
    phases: str | None  # [agent] and [verifier] network_mode (None: as the environment)

    @property
    def enforcement(self) -> Enforcement:
        return ENVIRONMENTS[self.harbor_environment]

    @property
    def has_network(self) -> bool:
        """Whether the agent and the grader can reach the network in these trials."""
        return (self.phases or self.environment) != "no-network"

    @property
    def cannot_enforce(self) -> bool:
        """The settings asked for no network, and this environment cannot give it."""
        return not self.asked_network and self.has_network


def network_plan(harbor_environment: str, network: bool) -> NetworkPlan:
    """The policies for `harbor_environment` (a key of ENVIRONMENTS) and the trial setting."""
    kind = ENVIRONMENTS[harbor_environment]
    if network or kind == "none":
        return NetworkPlan(harbor_environment, network, "public", None)
    if kind == "switch":
        return NetworkPlan(harbor_environment, network, "public", "no-network")
    return NetworkPlan(harbor_environment, network, "no-network", "no-network")


def network_notice(plan: NetworkPlan) -> str | None:
    """The sentence the export prints (and the README repeats) when the network stays on
    against the trial settings; None when the plan gives what was asked."""
    if not plan.cannot_enforce:
        return None
    env = plan.harbor_environment
    why = ("it turns the network off only through an egress-control sidecar built from "
           "Docker Hub images, which not every machine can build or run"
           if env in ("docker", "podman", "kata") else "it has no way to turn it off")
    return (f"Harbor's {env} environment cannot enforce no-network ({why}), so these tasks "
            f"are written with network_mode = \"public\": the agent and the grader CAN reach "
            "the network in these trials. For trials without network, export with "
            "--environment daytona, modal, e2b or another environment that enforces it.")


def concurrency(harbor_environment: str) -> int:
    """The README's `harbor run -n`: a few at a time on this machine, many on a cloud."""
    return 4 if harbor_environment in LOCAL else 64
