"""The image a harness trial runs in: the trial image plus the harness's CLI.

`[trial] harness_cli` chooses the CLI:

- `auto` (the default): for claude-code, the Claude Code binary that PyPI's claude-agent-sdk
  wheel bundles (`pip install 'skillforge[claude-code]'`; its version and sha256 are pinned in
  constraints/claude-code.txt), when installed; else the image's own CLI. Codex has no binary
  on a registry skillforge can pin, so it always uses the image's own.
- `image`: the trial image as it is; its `claude` / `codex` must be on the PATH.
- a path: that CLI binary (a standalone executable, e.g. another Claude Code version).

A binary is layered onto the trial image once, by the local Docker Engine, nothing pulled:

    FROM <trial image>
    COPY claude /usr/local/bin/claude

tagged `skillforge-harness/<harness>:<cli version>-<12 chars of the trial image's id>`, so a
new trial image or CLI version builds a new one and an unchanged pair is reused.

`image_cli_version` reads the version of an image's own CLI (for `skillforge doctor` with
`harness_cli = "image"`): `<cli> --version` as uid 1000, in a throwaway container with no
network and no capabilities.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
import time
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from skillforge.harnesses.base import Harness, HarnessError
from skillforge.sandbox.base import SandboxUnavailable

AUTO, IMAGE = "auto", "image"
IMAGE_VERSION_TIMEOUT_S = 30
_VERSION = re.compile(r"\d+\.\d+\.\d+[0-9A-Za-z.+-]*")
INSTALL_PATH = "/usr/local/bin"


def bundled_claude() -> Path | None:
    """The Claude Code binary inside the installed claude-agent-sdk, if there is one
    (found without importing the SDK)."""
    spec = find_spec("claude_agent_sdk")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(folder) / "_bundled" / "claude"
        if binary.is_file():
            return binary
    return None


def cli_binary(harness: Harness, choice: str) -> Path | None:
    """The binary to layer onto the trial image for `harness`, or None: use the image's."""
    if choice == IMAGE:
        return None
    if choice == AUTO:
        return bundled_claude() if harness.name == "claude-code" else None
    path = Path(choice).expanduser()
    if not path.is_file():
        raise HarnessError(f"[trial] harness_cli = {choice!r}: no such file; give the path "
                           f"of a {harness.binary} binary, or \"auto\" / \"image\"")
    return path


def cli_version(binary: Path) -> str:
    """`binary --version`'s version number (run on the host, no key, a clean environment)."""
    try:
        done = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                              timeout=60, env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent",
                                               "DISABLE_AUTOUPDATER": "1"}, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HarnessError(f"{binary} could not run ({exc}); is it a Linux x86-64 build of "
                           "the CLI?") from exc
    found = _VERSION.search(done.stdout)
    if done.returncode != 0 or not found:
        raise HarnessError(f"`{binary} --version` printed no version (exit {done.returncode}"
                           f"): {(done.stdout + done.stderr).strip()[:200]}")
    return found.group(0)


def image_cli_version(client: Any, image: str, binary: str,
                      timeout_s: float = IMAGE_VERSION_TIMEOUT_S) -> str:
    """The version `binary --version` prints in `image`, run as a trial runs it (uid 1000,
    the image's PATH) with no network, no capabilities and no key; HarnessError says why
    there is none (the image is not here, has no such CLI, it printed no version...)."""
    import docker.errors

    script = (f"command -v {binary} >/dev/null 2>&1 || {{ echo 'skillforge: no {binary}'; "
              f"exit 127; }}; {binary} --version 2>&1 | head -n 5")
    api = client.api
    try:
        api.inspect_image(image)
        cid = api.create_container(
            image, entrypoint=["sh", "-c"], command=[script], user="1000:1000",
            environment={"HOME": "/tmp", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
                         "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"},
            network_disabled=True, labels={"skillforge.doctor": "cli-version"},
            host_config=api.create_host_config(network_mode="none", cap_drop=["ALL"],
                                               security_opt=["no-new-privileges"],
                                               mem_limit="1g", pids_limit=256))["Id"]
    except docker.errors.ImageNotFound as exc:
        raise HarnessError(f"the trial image {image!r} is not on this machine (`docker pull "
                           f"{image}` or build it)") from exc
    except docker.errors.APIError as exc:
        raise HarnessError(f"could not start the trial image {image!r}: "
                           f"{exc.explanation or exc}") from exc
    try:
        t0 = time.monotonic()
        api.start(cid)
        try:
            code = api.wait(cid, timeout=timeout_s).get("StatusCode")
        except Exception as exc:  # noqa: BLE001 - a read timeout, whatever the transport
            raise HarnessError(f"`{binary} --version` in {image!r} gave no answer within "
                               f"{time.monotonic() - t0:.0f} s") from exc
        text = api.logs(cid, stdout=True, stderr=True).decode("utf-8", "replace").strip()
    finally:
        try:
            api.remove_container(cid, force=True)
        except docker.errors.APIError:
            pass
    if code == 127 and f"skillforge: no {binary}" in text:
        raise HarnessError(f"the trial image {image!r} has no `{binary}` on the PATH of "
                           "uid 1000")
    found = _VERSION.search(text)
    if code != 0 or not found:
        raise HarnessError(f"`{binary} --version` in {image!r} printed no version (exit "
                           f"{code}): {' '.join(text.split())[:200]}")
    return found.group(0)


def harness_image(client: Any, harness: Harness, base_image: str, binary: Path,
                  version: str) -> str:
    """The tag of `base_image` + `binary` as /usr/local/bin/<cli>, built when missing."""
    import docker.errors

    try:
        base_id = client.api.inspect_image(base_image)["Id"].split(":")[-1][:12]
    except docker.errors.ImageNotFound as exc:
        raise SandboxUnavailable(
            f"the trial image {base_image!r} is not on this machine: run `docker pull "
            f"{base_image}` (or build it), or set [trial] image to one `docker images` "
            "lists") from exc
    tag = f"skillforge-harness/{harness.name}:{version}-{base_id}"
    try:
        client.api.inspect_image(tag)
        return tag
    except docker.errors.ImageNotFound:
        pass
    dockerfile = (f"FROM {base_image}\n"
                  f"COPY {harness.binary} {INSTALL_PATH}/{harness.binary}\n").encode()
    context = io.BytesIO()
    with tarfile.open(fileobj=context, mode="w") as tar:
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(dockerfile)
        tar.addfile(info, io.BytesIO(dockerfile))
        info = tar.gettarinfo(str(binary), arcname=harness.binary)
        info.mode, info.uid, info.gid, info.uname, info.gname = 0o755, 0, 0, "root", "root"
        with binary.open("rb") as fh:
            tar.addfile(info, fh)
    context.seek(0)
    try:
        for chunk in client.api.build(fileobj=context, custom_context=True, tag=tag, rm=True,
                                      pull=False, decode=True,
                                      labels={"skillforge.harness": harness.name,
                                              "skillforge.cli-version": version}):
            if isinstance(chunk, dict) and chunk.get("error"):
                raise HarnessError(f"building the {harness.name} image {tag} failed: "
                                   f"{chunk['error'].strip()}")
    except docker.errors.APIError as exc:
        raise HarnessError(f"building the {harness.name} image {tag} failed: "
                           f"{exc.explanation or exc}") from exc
    return tag
