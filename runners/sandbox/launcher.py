# Starts a worker's sandbox chains for it. Node starts a child with fork() + exec (libuv), and a
# fork copies the page tables of the whole worker: measured on this VM, 1.0 ms for a 40 MiB node
# process, 6.8 ms at 200 MiB and 24 ms at 600 MiB — on every run's path, cold or warm on its own
# chain. This process is small (no site, a few modules): it forks in well under a millisecond.
#
# Protocol: one JSON request per line on stdin: {"id", "argv", "env", "cwd", "stdio"}, where stdio
# lists, per fd of the child from 0, "r" (a pipe the child reads: the worker writes its other end),
# "w" (the child writes, the worker reads), "null" (/dev/null) or null (not open). The child is made
# the leader of a session of its own and execs argv. Replies, one JSON line each:
#   {"id", "pid", "fds"}: started; fds[i] is this process's fd of the worker's end of the child's fd
#     i (or null): the worker opens /proc/<this pid>/fd/<n> and then sends {"opened": id}, after
#     which this process closes its copies (so the worker sees end-of-file when the child's go);
#   {"id", "error"}: it could not be started (nothing runs);
#   {"id", "exit", "signal"}: its wait status (exit code, or the number of the signal that ended it).
# It dies with the worker (PDEATHSIG); the chains it started die with it (bwrap --die-with-parent).
from __future__ import annotations

import ctypes
import fcntl
import json
import os
import select
import signal
from typing import Any

PR_SET_PDEATHSIG = 1


def emit(obj: dict[str, Any]) -> None:
    try:
        os.write(1, (json.dumps(obj) + '\n').encode())
    except BrokenPipeError:
        os._exit(0)


def start(req: dict[str, Any], kept: dict[str, list[int]]) -> None:
    run_id = str(req['id'])
    stdio: list[str | None] = req['stdio']
    theirs: list[int | None] = []
    ours: list[int | None] = []
    for kind in stdio:
        if kind == 'r':
            r, w = os.pipe()
            theirs.append(r)
            ours.append(w)
        elif kind == 'w':
            r, w = os.pipe()
            theirs.append(w)
            ours.append(r)
        elif kind == 'null':
            theirs.append(os.open('/dev/null', os.O_RDWR))
            ours.append(None)
        else:
            theirs.append(None)
            ours.append(None)
    err_r, err_w = os.pipe2(os.O_CLOEXEC)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(err_r)
            os.setsid()
            os.chdir(req['cwd'])
            # Each moved to the lowest free fd above the child's stdio (never onto an fd in use: this
            # process may hold a hundred pipes of chains in flight), so the dup2s below cannot
            # overwrite one not yet placed.
            above = len(stdio) + 3
            err_w = fcntl.fcntl(err_w, fcntl.F_DUPFD_CLOEXEC, above)
            moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, above) if fd is not None else None for fd in theirs]
            for i, fd in enumerate(moved):
                if fd is not None:
                    os.dup2(fd, i)
            low = 0
            for fd in sorted({i for i, m in enumerate(moved) if m is not None} | {err_w}):
                if fd > low:  # os.closerange(0, 0) closes every fd (its high end, -1, wraps)
                    os.closerange(low, fd)
                low = fd + 1
            os.closerange(low, 1 << 16)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            # As node's spawn: argv[0] is looked up on the child's own PATH.
            os.execvpe(req['argv'][0], req['argv'], req['env'])
        except BaseException as exc:
            try:
                os.write(err_w, f'{type(exc).__name__}: {exc}'.encode())
            finally:
                os._exit(127)
    os.close(err_w)
    for fd in theirs:
        if fd is not None:
            os.close(fd)
    failure = b''
    while True:
        b = os.read(err_r, 4096)
        if not b:
            break
        failure += b
    os.close(err_r)
    if failure:
        os.waitpid(pid, 0)
        for fd in ours:
            if fd is not None:
                os.close(fd)
        emit({'id': run_id, 'error': failure.decode(errors='replace')})
        return
    kept[run_id] = [fd for fd in ours if fd is not None]
    pids[pid] = run_id
    emit({'id': run_id, 'pid': pid, 'fds': ours})


pids: dict[int, str] = {}


def reap() -> None:
    while pids:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        run_id = pids.pop(pid, None)
        if run_id is None:
            continue
        if os.WIFSIGNALED(status):
            emit({'id': run_id, 'exit': None, 'signal': os.WTERMSIG(status)})
        else:
            emit({'id': run_id, 'exit': os.WEXITSTATUS(status), 'signal': None})


def main() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    kept: dict[str, list[int]] = {}
    buf = b''
    emit({'ready': True, 'pid': os.getpid()})
    while True:
        try:
            ready = select.select([0, wake_r], [], [])[0]
        except InterruptedError:
            continue
        if wake_r in ready:
            try:
                while os.read(wake_r, 4096):
                    pass
            except BlockingIOError:
                pass
            reap()
        if 0 in ready:
            chunk = os.read(0, 1 << 16)
            if not chunk:
                return
            buf += chunk
            while b'\n' in buf:
                line, buf = buf.split(b'\n', 1)
                try:
                    req = json.loads(line)
                except ValueError:
                    continue
                if 'opened' in req:
                    for fd in kept.pop(str(req['opened']), []):
                        os.close(fd)
                    continue
                try:
                    start(req, kept)
                except Exception as exc:
                    emit({'id': str(req.get('id')), 'error': f'{type(exc).__name__}: {exc}'})
            reap()


if __name__ == '__main__':
    main()
