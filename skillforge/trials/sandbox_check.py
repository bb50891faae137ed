"""Before a run: is the sandbox usable? One clear message when Docker or the trial image is
not (moved out of skillforge.trials.run, which re-exports it)."""

from __future__ import annotations

import asyncio

from skillforge.models.trial import RunSpec
from skillforge.sandbox import SandboxUnavailable


async def check_sandbox(spec: RunSpec) -> None:
    """Fail early, with one clear message, when Docker or the trial image is unusable."""
    if spec.sandbox != "docker":
        return
    from skillforge.sandbox.docker_client import executor, get_client

    def probe() -> None:
        import docker.errors

        client = get_client()
        try:
            client.api.inspect_image(spec.image)
        except docker.errors.ImageNotFound:
            raise SandboxUnavailable(
                f"the trial image {spec.image!r} is not on this machine: run `docker pull "
                f"{spec.image}` (or build it), or set --image / [trial] image to one that "
                "`docker images` lists") from None

    await asyncio.get_running_loop().run_in_executor(executor(), probe)
