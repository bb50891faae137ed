"""The Docker sandbox for real: lifecycle, files, commands, limits, network, user."""

from __future__ import annotations

import asyncio
import io
import socket
import tarfile
import threading
import time

import docker.errors
import pytest

from skillforge.sandbox import SandboxError, SandboxUnavailable, open_sandbox
from skillforge.sandbox.archive import tar_from_mapping
from skillforge.sandbox import docker_client as dc
from skillforge.sandbox.docker_backend import DockerSandbox
from tests.docker_fixtures import managed_containers

pytestmark = [pytest.mark.docker, pytest.mark.timeout(120)]


def gone(client, container_id: str) -> bool:
    try:
        client.api.inspect_container(container_id)
    except docker.errors.NotFound:
        return True
    return False


async def test_create_exec_copy_remove(spec, docker_client):
    async with open_sandbox("docker", spec()) as sb:
        result = await sb.exec("echo out; echo err >&2; exit 3", timeout_s=30)
        assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")
        assert not result.timed_out and not result.truncated
        argv = await sb.exec(["python3", "-c", "import sys; print(sys.argv[1:])", "a b", "c"])
        assert argv.stdout == "['a b', 'c']\n"
        await sb.put_archive({"notes/hello.txt": "hi there"}, "/workspace")
        assert await sb.get_file("/workspace/notes/hello.txt") == b"hi there"
        await sb.exec("mkdir -p out && echo 42 > out/answer.txt")
        with tarfile.open(fileobj=io.BytesIO(await sb.copy_out("/workspace/out"))) as tar:
            assert tar.extractfile("out/answer.txt").read() == b"42\n"
        with pytest.raises(SandboxError, match="does not exist"):
            await sb.get_file("/workspace/missing.txt")
        cid = sb.container_id
        assert not gone(docker_client, cid)
    assert gone(docker_client, cid)
    await sb.remove()  # a second removal is harmless


async def test_runs_as_non_root_in_the_contract_layout(spec):
    async with open_sandbox("docker", spec()) as sb:
        who = await sb.exec("id -u; id -g; pwd; echo $HOME")
        assert who.stdout.split() == ["1000", "1000", "/workspace", "/home/agent"]
        writes = await sb.exec(
            "for d in /workspace /logs /home/agent /tmp /skills / /etc /usr/bin; do "
            "if touch $d/probe 2>/dev/null; then echo $d ok; else echo $d denied; fi; done")
        assert writes.stdout.split("\n")[:-1] == [
            "/workspace ok", "/logs ok", "/home/agent ok", "/tmp ok", "/skills denied",
            "/ denied", "/etc denied", "/usr/bin denied"]


async def test_limits_are_applied(spec, docker_client):
    async with open_sandbox("docker", spec(cpus=0.5, memory_mb=256, pids=64)) as sb:
        host = docker_client.api.inspect_container(sb.container_id)["HostConfig"]
        assert host["NanoCpus"] == 500_000_000
        assert host["Memory"] == host["MemorySwap"] == 256 * 1024 * 1024
        assert host["PidsLimit"] == 64
        assert host["NetworkMode"] == "none"
        assert host["CapDrop"] == ["ALL"] and "no-new-privileges" in host["SecurityOpt"]
        status = await sb.exec("grep -E '^(CapEff|NoNewPrivs)' /proc/self/status")
        assert status.stdout.split() == ["CapEff:", "0000000000000000", "NoNewPrivs:", "1"]
        hog = await sb.exec("python3 -c 'x = bytearray(600 * 1024 * 1024); print(len(x))'",
                            timeout_s=60)
        assert hog.exit_code == 137 and hog.stdout == ""  # killed by the memory limit


async def test_network_is_off_by_default(spec):
    probe = ("import socket; s = socket.socket(); s.settimeout(3)\n"
             "try:\n    s.connect(('1.1.1.1', 53)); print('connected')\n"
             "except OSError as e:\n    print('failed', e.errno)")
    async with open_sandbox("docker", spec()) as sb:
        result = await sb.exec(["python3", "-c", probe], timeout_s=30)
        assert result.stdout.startswith("failed")
        assert (await sb.exec("ls /sys/class/net")).stdout.split() == ["lo"]


async def test_network_can_be_enabled(spec, docker_client):
    server = socket.create_server(("0.0.0.0", 0))
    port = server.getsockname()[1]
    server.settimeout(20)
    got: list[bytes] = []

    def serve() -> None:
        try:
            conn, _ = server.accept()
            with conn:
                got.append(conn.recv(100))
        except OSError:
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        async with open_sandbox("docker", spec(network=True)) as sb:
            net = docker_client.api.inspect_container(sb.container_id)["NetworkSettings"]
            gateway = net["Gateway"] or net["Networks"]["bridge"]["Gateway"]
            assert "eth0" in (await sb.exec("ls /sys/class/net")).stdout.split()
            send = ("import socket, sys; s = socket.create_connection((sys.argv[1], "
                    "int(sys.argv[2])), timeout=10); s.sendall(b'hello from the sandbox')")
            result = await sb.exec(["python3", "-c", send, gateway, str(port)], timeout_s=30)
            assert result.exit_code == 0, result.stderr
        thread.join(10)
        assert got == [b"hello from the sandbox"]
    finally:
        server.close()


async def test_output_is_capped_and_counted(spec):
    async with open_sandbox("docker", spec()) as sb:
        result = await sb.exec("seq 1 200000; echo done >&2", max_output=4096)
        assert result.truncated and result.stdout_bytes == len(
            "".join(f"{i}\n" for i in range(1, 200001)))
        assert result.stdout.startswith("1\n2\n3\n") and result.stdout.endswith("199999\n200000\n")
        assert "bytes omitted" in result.stdout and len(result.stdout) < 4096 + 100
        assert result.stderr == "done\n" and result.exit_code == 0


async def test_timeout_kills_the_whole_process_group(spec):
    async with open_sandbox("docker", spec()) as sb:
        started = time.monotonic()
        result = await sb.exec("sleep 300 & sleep 301 & echo started; wait", timeout_s=1.5)
        assert result.timed_out and result.exit_code is None
        assert result.stdout == "started\n"
        assert time.monotonic() - started < 6
        left = await sb.exec("cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '")
        assert "sleep 300" not in left.stdout and "sleep 301" not in left.stdout


async def test_kill_user_processes_stops_background_jobs(spec):
    async with open_sandbox("docker", spec()) as sb:
        await sb.exec("nohup sleep 500 >/dev/null 2>&1 &")
        before = await sb.exec("cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '")
        assert "sleep 500" in before.stdout
        await sb.kill_user_processes()
        after = await sb.exec("cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '")
        assert "sleep 500" not in after.stdout
        assert (await sb.exec("echo alive")).stdout == "alive\n"  # the sandbox survives


async def test_container_is_removed_on_error_and_on_cancel(spec, run_id, docker_client):
    with pytest.raises(RuntimeError, match="agent crashed"):
        async with open_sandbox("docker", spec()):
            raise RuntimeError("agent crashed")
    assert managed_containers(run_id) == []

    entered = asyncio.Event()

    async def trial() -> None:
        async with open_sandbox("docker", spec()) as sb:
            entered.set()
            await sb.exec("sleep 120", timeout_s=200)

    task = asyncio.create_task(trial())
    await asyncio.wait_for(entered.wait(), 30)
    await asyncio.sleep(0.5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert managed_containers(run_id) == []


async def test_lifetime_ends_the_container_without_any_help(spec, run_id, docker_client):
    sb = DockerSandbox(spec(timeout_sec=2))
    await sb.start()
    started = time.monotonic()
    result = await sb.exec("sleep 60", timeout_s=60)  # clamped to the lifetime
    assert result.timed_out and time.monotonic() - started < 8
    deadline = time.monotonic() + 15
    while managed_containers(run_id) and time.monotonic() < deadline:
        await asyncio.sleep(0.3)
    assert managed_containers(run_id) == []  # stopped itself and was auto-removed
    with pytest.raises(SandboxError, match="lifetime is over|not running"):
        await sb.exec("true")
    await sb.remove()


async def test_labels_name_the_owner(spec, run_id, docker_client):
    import os

    async with open_sandbox("docker", spec(labels={"skillforge.case": "c1"})) as sb:
        labels = docker_client.api.inspect_container(sb.container_id)["Config"]["Labels"]
        assert labels["skillforge.managed"] == "1"
        assert labels["skillforge.pid"] == str(os.getpid())
        assert labels["skillforge.run_id"] == run_id
        assert labels["skillforge.case"] == "c1"
        assert float(labels["skillforge.deadline"]) > float(labels["skillforge.created"])


async def test_many_sandboxes_run_concurrently(spec):
    async def one(i: int) -> str:
        async with open_sandbox("docker", spec()) as sb:
            return (await sb.exec(f"sleep 1; echo {i}")).stdout

    started = time.monotonic()
    assert await asyncio.gather(*(one(i) for i in range(4))) == ["0\n", "1\n", "2\n", "3\n"]
    assert time.monotonic() - started < 20


async def test_missing_image_is_a_clear_unavailable_error(spec):
    with pytest.raises(SandboxUnavailable, match="docker pull skillforge-test/no-such-image"):
        async with open_sandbox("docker", spec(image="skillforge-test/no-such-image:1")):
            pass


def test_dead_daemon_gives_one_clear_message(monkeypatch):
    monkeypatch.setattr(dc, "_client", None)
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxUnavailable) as info:
        dc.get_client()
    message = str(info.value)
    assert "unix:///nonexistent/docker.sock" in message
    assert "Start Docker" in message and "--sandbox local" in message
    ok, status = dc.docker_status()
    assert not ok and "Start Docker" in status


async def test_a_daemon_that_goes_away_mid_run_is_unavailable_not_a_traceback(spec):
    import docker

    # A client whose daemon is gone: every call fails to connect.
    dead = docker.DockerClient(base_url="unix:///nonexistent/docker.sock", version="1.41")
    sb = DockerSandbox(spec(), client=dead)
    with pytest.raises(SandboxUnavailable, match="Start Docker"):
        await sb.start()


async def test_files_outside_the_writable_mounts_are_refused_by_name(spec):
    async with open_sandbox("docker", spec()) as sb:
        with pytest.raises(SandboxError, match=r"cannot write /etc/evil: .*read-only.*/workspace"):
            await sb.put_archive({"evil": "x"}, "/etc")
        # Programs skillforge stages (a harness wrapper) go to the tools folder, first on PATH.
        await sb.put_archive(tar_from_mapping({"opt/skillforge/bin/hello": "#!/bin/sh\necho hi\n"},
                                              uid=0, gid=0, mode=0o755))
        ran = await sb.exec("echo $PATH; hello; touch /opt/skillforge/bin/x 2>&1 || true",
                            timeout_s=30)
        path, said, touched = ran.stdout.splitlines()
        assert path.startswith("/opt/skillforge/bin:") and said == "hi"
        assert "Permission denied" in touched
