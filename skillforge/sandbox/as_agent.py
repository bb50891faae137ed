"""as-agent's broker and client, copied into a grading container (docs/graders.md).

This file is not imported by skillforge: its text is staged at /grader/.skillforge/as_agent.py
and run by the image's own python3 (3.6 or later, standard library only, `python3 -I -S`).

The grader runs as its own uid (GRADER_UID) with no capability, so it cannot become the
agent's uid itself. Before the grader starts, skillforge starts this file as root:

    python3 -I -S as_agent.py serve GRADER_UID AGENT_UID AGENT_GID SOCKET

binds SOCKET (its folder is the grader uid's, mode 0700), hands it to the grader's uid,
detaches and serves. `as-agent CMD...` then runs

    python3 -I -S as_agent.py run CMD...

which sends the broker its argv, working directory, environment and umask, and its own
stdin, stdout and stderr (SCM_RIGHTS). The broker accepts only a peer whose uid is
GRADER_UID (SO_PEERCRED), forks, and the child drops to AGENT_UID/AGENT_GID with no
supplementary groups, in a session of its own, with exactly those three descriptors, then
execs CMD. The broker waits for it and sends its exit status back; the client exits with
it (or dies of the same signal). A signal the client gets is passed on to CMD; when the
client goes away (killed, timed out), the broker kills CMD's process group.
"""

import json
import os
import signal
import socket
import struct
import sys
import warnings  # noqa: F401 - os.execvpe imports it, after the child may no longer read it

_FDS = 3
_HEADER = struct.Struct("!I")
_MAX_REQUEST = 4 << 20
_FORWARDED = ("SIGHUP", "SIGINT", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGALRM",
              "SIGCONT", "SIGWINCH")


def _send_fds(sock, data, fds):
    import array

    sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])


def _recv_fds(sock, size, maxfds):
    import array

    fds = array.array("i")
    msg, ancdata, _flags, _addr = sock.recvmsg(size, socket.CMSG_LEN(maxfds * fds.itemsize))
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - (len(data) % fds.itemsize)])
    return msg, list(fds)


def _recv_exact(sock, size):
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 16))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


# --- the broker (root) -----------------------------------------------------------------
def serve(grader_uid, agent_uid, agent_gid, path):
    """Bind `path`, detach, and serve one forked handler per connection."""
    if os.path.lexists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chown(path, grader_uid, grader_uid)
    os.chmod(path, 0o600)
    listener.listen(16)
    if os.fork():
        os._exit(0)  # the starter's `docker exec` ends: the broker is ready
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in range(3):
        os.dup2(null, fd)
    os.close(null)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # handlers are reaped by the kernel
    while True:
        try:
            conn, _ = listener.accept()
        except InterruptedError:
            continue
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                _handle(conn, grader_uid, agent_uid, agent_gid)
            finally:
                os._exit(0)
        conn.close()


def _reply(conn, kind, value):
    try:
        conn.sendall(json.dumps({kind: value}).encode() + b"\n")
    except OSError:
        pass


def _handle(conn, grader_uid, agent_uid, agent_gid):
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    if uid != grader_uid:
        _reply(conn, "refused", "only the grader's uid may run code as the agent")
        return
    head, fds = _recv_fds(conn, _HEADER.size, _FDS)
    if len(head) != _HEADER.size or len(fds) != _FDS:
        _reply(conn, "refused", "a request is a length and three descriptors")
        return
    (size,) = _HEADER.unpack(head)
    if size > _MAX_REQUEST:
        _reply(conn, "refused", "request too large")
        return
    request = json.loads(_recv_exact(conn, size).decode("utf-8", "surrogateescape"))
    pid = os.fork()
    if pid == 0:
        _become_agent(request, fds, agent_uid, agent_gid)
    for fd in fds:
        os.close(fd)
    _reply(conn, "started", pid)
    _supervise(conn, pid)


def _become_agent(request, fds, agent_uid, agent_gid):
    """In the forked child: the agent's uid, the client's three descriptors, then exec."""
    try:
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(_FDS, 1 << 16)
        os.setgroups([])
        os.setresgid(agent_gid, agent_gid, agent_gid)
        os.setresuid(agent_uid, agent_uid, agent_uid)
        for name in ("SIGPIPE", "SIGCHLD", "SIGXFSZ", "SIGINT", "SIGTERM"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        os.umask(int(request.get("umask", 0o022)))
        try:
            os.chdir(request.get("cwd") or "/workspace")
        except OSError:
            os.chdir("/workspace")  # the grader's folder is not the agent's to enter
        argv = [a.encode("utf-8", "surrogateescape") for a in request["argv"]]
        env = {k.encode("utf-8", "surrogateescape"): v.encode("utf-8", "surrogateescape")
               for k, v in request["env"].items()}
        try:
            os.execvpe(argv[0], argv, env)
        except OSError as exc:
            os.write(2, ("as-agent: cannot run %s: %s\n" % (request["argv"][0],
                                                            exc.strerror)).encode())
            os._exit(127 if isinstance(exc, FileNotFoundError) else 126)
    except BaseException as exc:  # noqa: BLE001 - never return into the broker's code
        try:
            os.write(2, ("as-agent: %s\n" % exc).encode())
        finally:
            os._exit(126)


def _supervise(conn, pid):
    """Pass the client's signals on to `pid`; kill its group when the client goes away;
    send back how it ended."""
    import select

    buffered = b""
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        ready, _, _ = select.select([conn], [], [], 0.02)
        if not ready:
            continue
        try:
            data = conn.recv(4096)
        except OSError:
            data = b""
        if not data:
            # the client is gone: nothing waits for CMD any more
            for target in (-pid, pid):
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass
            os.waitpid(pid, 0)
            return
        buffered += data
        while b"\n" in buffered:
            line, buffered = buffered.split(b"\n", 1)
            if line.strip().isdigit():
                try:
                    os.kill(pid, int(line))
                except OSError:
                    pass
    if os.WIFSIGNALED(status):
        _reply(conn, "signal", os.WTERMSIG(status))
    else:
        _reply(conn, "exit", os.WEXITSTATUS(status))


# --- the client (the grader's uid) ------------------------------------------------------
def run(path, argv):
    """Run argv through the broker at `path`; return the exit code (or die of CMD's signal)."""
    if not argv:
        sys.stderr.write("usage: as-agent CMD [ARG...]\n")
        return 2
    fds = []
    for fd in range(_FDS):
        try:
            os.fstat(fd)
            fds.append(fd)
        except OSError:
            fds.append(os.open(os.devnull, os.O_RDWR))
    umask = os.umask(0o022)
    os.umask(umask)
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "/workspace"
    body = json.dumps({"argv": argv, "cwd": cwd, "umask": umask,
                       "env": dict(os.environ)}, ensure_ascii=True).encode()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        _send_fds(sock, _HEADER.pack(len(body)), fds)
        sock.sendall(body)
    except OSError as exc:
        sys.stderr.write("as-agent: cannot reach skillforge's broker at %s: %s\n"
                         % (path, exc.strerror or exc))
        return 126
    for name in _FORWARDED:
        signum = getattr(signal, name, None)
        if signum is not None:
            signal.signal(signum, lambda n, _frame: _forward(sock, n))
    reader = sock.makefile("rb")
    while True:
        try:
            line = reader.readline()
        except InterruptedError:
            continue
        if not line:
            sys.stderr.write("as-agent: skillforge's broker went away\n")
            return 126
        reply = json.loads(line.decode())
        if "refused" in reply:
            sys.stderr.write("as-agent: refused: %s\n" % reply["refused"])
            return 126
        if "exit" in reply:
            return int(reply["exit"])
        if "signal" in reply:
            signum = int(reply["signal"])
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return 128 + signum


def _forward(sock, signum):
    try:
        sock.sendall(b"%d\n" % signum)
    except OSError:
        pass


def main(args):
    if args[:1] == ["serve"] and len(args) == 5:
        serve(int(args[1]), int(args[2]), int(args[3]), args[4])
        return 0
    if args[:1] == ["run"] and len(args) >= 2:
        return run(args[1], args[2:])
    sys.stderr.write("usage: as_agent.py serve GRADER_UID AGENT_UID AGENT_GID SOCKET | "
                     "run SOCKET CMD [ARG...]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
