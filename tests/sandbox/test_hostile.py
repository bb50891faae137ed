"""Hostile commands: each is contained, ends in bounded time and leaves no container behind.

The `run_id` fixture fails a test if any container labelled with its run id survives.
What is and is not limited (see also skillforge/sandbox/docker_backend.py):
- processes: the PID limit stops a fork bomb; the command timeout kills its group;
- CPU time: an infinite loop is killed by the command timeout (and the lifetime);
- memory: the cgroup limit OOM-kills the hog (tested in test_docker_sandbox.py);
- disk: the root filesystem is read-only and every writable path is a size-limited tmpfs
  (disk_mb shared out by skillforge/sandbox/mounts.py): a many-file filler ends with "No
  space left on device" in the container and the host's disk does not shrink; one file
  is also capped by RLIMIT_FSIZE (max_file_mb);
- output: streamed and capped, so a flood costs time, not memory.
"""

from __future__ import annotations

import asyncio
import resource
import time

import pytest

from skillforge.sandbox import open_sandbox
from skillforge.sandbox.archive import tar_from_mapping

pytestmark = [pytest.mark.docker, pytest.mark.timeout(120)]

FETCH = """
import urllib.request
for url in ('http://1.1.1.1/', 'http://deb.debian.org/'):
    try:
        urllib.request.urlopen(url, timeout=3)
        print(url, 'reached')
    except OSError:
        print(url, 'blocked')
"""


async def test_fork_bomb_is_contained(spec):
    async with open_sandbox("docker", spec(pids=64)) as sb:
        started = time.monotonic()
        result = await sb.exec("bomb() { bomb | bomb & }; bomb; sleep 60", timeout_s=4,
                               max_output=2048)
        assert time.monotonic() - started < 15
        assert "Cannot fork" in result.stderr  # the PID limit, not the host, stopped it
        # The bomb burns out against the limit (or is killed); the sandbox comes back.
        await sb.kill_user_processes()
        deadline = time.monotonic() + 20
        after = None
        while time.monotonic() < deadline:
            after = await sb.exec("cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || "
                                  "cat /sys/fs/cgroup/pids.max; echo alive", timeout_s=5)
            if after.stdout.split() == ["64", "alive"]:
                break
            await asyncio.sleep(0.5)
        assert after is not None and after.stdout.split() == ["64", "alive"]


async def test_infinite_loop_is_stopped_by_the_wall_clock(spec):
    async with open_sandbox("docker", spec()) as sb:
        started = time.monotonic()
        result = await sb.exec("while :; do :; done", timeout_s=2)
        assert result.timed_out and result.exit_code is None
        assert time.monotonic() - started < 8
        busy = await sb.exec("cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '")
        assert "while" not in busy.stdout


async def test_one_big_file_hits_the_file_size_cap(spec):
    async with open_sandbox("docker", spec(max_file_mb=16)) as sb:
        one = await sb.exec("dd if=/dev/zero of=/workspace/big bs=1M count=64 2>&1; "
                            "stat -c %s /workspace/big", timeout_s=30)
        # SIGXFSZ kills dd (the shell says "File size limit exceeded") or write() fails.
        assert "File size limit exceeded" in one.stdout or "File too large" in one.stdout
        assert int(one.stdout.split()[-1]) <= 16 * 1024 * 1024


def _host_free_bytes() -> int:
    """Free bytes on the filesystem holding Docker's data (where a container layer grows)."""
    import shutil

    import docker

    root = docker.from_env().info().get("DockerRootDir", "/var/lib/docker")
    return shutil.disk_usage(root).free


async def test_a_many_file_disk_filler_ends_with_no_space_and_the_host_keeps_its_disk(spec):
    """The threat: a script writing many files (4 GiB in 18 s was seen) fills the host."""
    disk_mb = 128
    free_before = _host_free_bytes()
    async with open_sandbox("docker", spec(disk_mb=disk_mb, memory_mb=512)) as sb:
        started = time.monotonic()
        filler = await sb.exec("i=0; while :; do i=$((i+1)); "
                               "head -c 4000000 /dev/zero > /workspace/f$i || break; done; "
                               "echo files=$i; du -sm /workspace | cut -f1", timeout_s=60)
        assert not filler.timed_out and time.monotonic() - started < 30
        assert "No space left on device" in filler.stderr
        used_mb = int(filler.stdout.split()[-1])
        assert used_mb <= disk_mb // 2 + 1  # /workspace's share of the budget
        # Every other writable path has its own limit; the root filesystem takes nothing.
        others = await sb.exec(
            "for d in /tmp /var/tmp /home/agent /logs; do head -c 900000000 /dev/zero "
            "> $d/fill 2>/dev/null; echo $d $(du -sm $d | cut -f1); done; "
            "echo x > /fill 2>&1 || true", timeout_s=60)
        sizes = dict(line.split() for line in others.stdout.splitlines() if line.count(" ") == 1)
        assert set(sizes) == {"/tmp", "/var/tmp", "/home/agent", "/logs"}
        assert sum(int(v) for v in sizes.values()) <= disk_mb
        assert "Read-only file system" in others.stdout + others.stderr
        free_during = _host_free_bytes()
    print(f"disk filler: /workspace {used_mb} MiB, other mounts {sizes}; host free before "
          f"{free_before >> 20} MiB, while full {free_during >> 20} MiB")
    # The host lost no more than the limit while the filler ran (tmpfs lives in memory).
    assert free_before - free_during < disk_mb * 1024 * 1024


async def test_a_100mb_stdout_flood_does_not_blow_up_memory(spec):
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    async with open_sandbox("docker", spec()) as sb:
        started = time.monotonic()
        result = await sb.exec("head -c 100000000 /dev/zero | tr '\\0' x", timeout_s=60)
        assert result.exit_code == 0 and not result.timed_out
        assert result.stdout_bytes == 100_000_000 and result.truncated
        assert len(result.stdout) < 70 * 1024
        assert time.monotonic() - started < 30
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024
    assert grown_mb < 40, f"peak memory grew by {grown_mb:.0f} MB"


async def test_network_calls_fail_when_the_network_is_off(spec):
    async with open_sandbox("docker", spec()) as sb:
        result = await sb.exec(["python3", "-c", FETCH], timeout_s=30)
        assert result.stdout.split("\n")[:2] == ["http://1.1.1.1/ blocked",
                                                 "http://deb.debian.org/ blocked"]


async def test_host_files_are_not_visible(spec, tmp_path):
    marker = tmp_path / "host-marker-7f3a9c.txt"
    marker.write_text("host secret")
    async with open_sandbox("docker", spec()) as sb:
        probe = await sb.exec(
            "for p in /work /work/main /root/.ssh /var/run/docker.sock /run/docker.sock "
            f"{tmp_path}; do if [ -e $p ]; then echo $p visible; fi; done; "
            "find / -xdev -name 'host-marker-7f3a9c.txt' 2>/dev/null; "
            "grep -c docker.sock /proc/self/mountinfo; cat /proc/1/cmdline | tr '\\0' ' '",
            timeout_s=60)
        lines = probe.stdout.split("\n")
        assert [ln for ln in lines if "visible" in ln or "host-marker" in ln] == []
        assert "0" in lines  # no docker socket mounted
        assert "docker-init" in probe.stdout  # its own PID namespace: PID 1 is the init


async def test_writing_outside_workspace_fails(spec):
    async with open_sandbox("docker", spec()) as sb:
        # Staged like a skill: root-owned.
        await sb.put_archive(tar_from_mapping({"skills/demo/SKILL.md": "# demo"}, uid=0, gid=0))
        result = await sb.exec(
            "echo x > /skills/demo/SKILL.md; echo x > /newfile; echo x >> /etc/passwd; "
            "rm -rf /skills/demo 2>&1; echo x > /workspace/ok.txt && echo wrote", timeout_s=30)
        assert result.stdout.strip().endswith("wrote")
        # Each write is refused: by ownership (/skills, /etc) or by the read-only root (/).
        refused = [ln for ln in result.stderr.splitlines() if "cannot create" in ln]
        assert len(refused) == 3, result.stderr
        assert "/newfile: Read-only file system" in result.stderr
        escalate = await sb.exec("kill -9 1; chown agent /usr/bin/env; echo $?", timeout_s=30)
        assert "Operation not permitted" in escalate.stderr
