"""What the agent's code leaves, for as-agent's broker (skillforge.sandbox.as_agent).

Like the broker, this file is not imported by skillforge: it is staged beside it in a
grading container and loaded by path (standard library only, Python 3.6 or later), with
link_rule.py.

While any CMD the grader runs with `as-agent` is running, /workspace is closed to the
grader (root's, mode 0770, its group the agent's, so CMD still writes there); when the last
one ends, every process of the agent's uid is killed, the workspace copy's link rule
(link_rule.sanitize) is applied in place to what the agent's uid could write and the grader
may read (/workspace, /tmp, /var/tmp), and /workspace reopens. Only then does the broker
send the exit status back, so the grader never reads a link the agent's code made that
leads out (to /grader/expected.txt, say).
"""

import fcntl
import json
import os
import signal

TREES = ("/workspace", "/tmp", "/var/tmp")


class Running:
    """The CMDs running now (their handler's pid and their client's, in the shared file),
    and what happens when the first starts (/workspace closes) and the last ends (the
    clean-up).

    A CMD whose client (`as-agent`) is gone no longer counts, though its handler may not
    have seen it yet: so after a grader's timeout killed `as-agent`, its next `as-agent`
    call (`as-agent true`) does the whole clean-up before it returns."""

    def __init__(self, shared, rule, client):
        self.fd = shared.fileno()
        self.rule = rule
        self.me = [os.getpid(), client]

    def _pids(self):
        os.lseek(self.fd, 0, os.SEEK_SET)
        text = os.read(self.fd, 1 << 16).decode() or "[]"
        # a handler that died (it cannot: only root may kill it) is no longer running
        return [pair for pair in json.loads(text)
                if pair[0] != os.getpid() and _alive(pair[0]) and _alive(pair[1])]

    def _save(self, pids):
        os.ftruncate(self.fd, 0)
        os.lseek(self.fd, 0, os.SEEK_SET)
        os.write(self.fd, json.dumps(pids).encode())

    def enter(self, agent_gid):
        """Before CMD starts: the grader may not read /workspace while agent code runs."""
        fcntl.lockf(self.fd, fcntl.LOCK_EX)
        try:
            pids = self._pids()
            if not pids:
                os.chown("/workspace", 0, agent_gid)
                os.chmod("/workspace", 0o770)
            self._save(pids + [self.me])
        finally:
            fcntl.lockf(self.fd, fcntl.LOCK_UN)

    def leave(self, agent_uid, agent_gid):
        """After CMD ended: when no other runs, kill every process of the agent's uid,
        apply the link rule to what it could write, and reopen /workspace. Returns "", or
        why that failed (then /workspace stays closed: a failed grade, never a forged one)."""
        fcntl.lockf(self.fd, fcntl.LOCK_EX)
        try:
            pids = self._pids()
            self._save(pids)
            if pids:
                return ""
            if not _kill_agent(agent_uid):
                return "a process of the agent's uid would not die"
            for tree in TREES:
                if os.path.isdir(tree) and not os.path.islink(tree):
                    self.rule.sanitize(tree, agent_uid, agent_gid,
                                       theirs=True if tree == "/workspace" else None)
            os.chown("/workspace", agent_uid, agent_gid)
            os.chmod("/workspace", 0o755)
            return ""
        except Exception as exc:  # noqa: BLE001 - said to the grader; /workspace stays shut
            return "%s: %s" % (type(exc).__name__, exc)
        finally:
            fcntl.lockf(self.fd, fcntl.LOCK_UN)


def _alive(pid):
    """Whether `pid` runs (a zombie does not)."""
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[-1].split()[:1] not in (["Z"], ["X"])
    except OSError:
        return False


def _agent_processes(agent_uid):
    """Pids of the live (not zombie) processes whose real or saved uid is the agent's."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open("/proc/%s/status" % entry) as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue
        uids = fields.get("Uid", "").split()
        if fields.get("State", "").split()[:1] != ["Z"] and str(agent_uid) in uids:
            found.append(int(entry))
    return found


def _kill_agent(agent_uid, tries=200):
    """Kill every process of the agent's uid; True when none is left.

    A child sends kill(-1, SIGKILL), which the kernel delivers to every process it may
    signal at once (a fork cannot slip through), with the effective uid of the agent (so
    exactly the agent's processes) and a real uid of nobody's: the agent's processes
    cannot signal it back (a real or saved uid of 1000 would let them)."""
    import time

    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresuid(65534, agent_uid, 0)
            for _ in range(tries):
                try:
                    os.kill(-1, signal.SIGKILL)
                except OSError:
                    pass
                if not _agent_processes(agent_uid):
                    os._exit(0)
                time.sleep(0.005)
        finally:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
