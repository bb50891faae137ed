"""Docker networks for trials whose agent calls a model from inside the container.

An external harness CLI (skillforge.harnesses) talks to skillforge's model proxy on the host.
Without `--network` its container joins `skillforge-proxy`, an *internal* bridge network:
Docker gives it no route out, so the only address it can reach is the host's side of the
bridge, where the proxy listens (no internet, no DNS). With `--network` it joins Docker's
default `bridge` network (internet access) and reaches the proxy on that bridge's gateway.
"""

from __future__ import annotations

from typing import Any

from skillforge.sandbox.base import SandboxUnavailable

PROXY_NETWORK = "skillforge-proxy"
BRIDGE = "bridge"
LABEL = "skillforge.network"


def _gateway(info: dict[str, Any], name: str) -> str:
    for config in (info.get("IPAM") or {}).get("Config") or []:
        gateway = (config or {}).get("Gateway")
        if gateway and ":" not in gateway:  # IPv4: what the containers' base URLs use
            return gateway
    raise SandboxUnavailable(
        f"Docker network {name!r} has no IPv4 gateway, so trial containers cannot reach "
        f"skillforge's model proxy on the host; remove it (`docker network rm {name}`) and "
        "skillforge creates it again")


def network_gateway(client: Any, internet: bool) -> tuple[str, str]:
    """(network name, the host's IPv4 address on it) for a harness trial's container,
    creating the internal proxy network on first use."""
    import docker.errors

    api = client.api
    if internet:
        return BRIDGE, _gateway(api.inspect_network(BRIDGE), BRIDGE)
    try:
        return PROXY_NETWORK, _gateway(api.inspect_network(PROXY_NETWORK), PROXY_NETWORK)
    except docker.errors.NotFound:
        pass
    try:
        api.create_network(PROXY_NETWORK, driver="bridge", internal=True,
                           labels={LABEL: "proxy"}, check_duplicate=True)
    except docker.errors.APIError as exc:
        if exc.status_code != 409:  # another skillforge made it first: fine
            raise SandboxUnavailable(f"could not create the Docker network {PROXY_NETWORK!r} "
                                     f"for harness trials: {exc.explanation or exc}") from exc
    return PROXY_NETWORK, _gateway(api.inspect_network(PROXY_NETWORK), PROXY_NETWORK)
