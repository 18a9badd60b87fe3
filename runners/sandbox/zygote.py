# A warm Python for sandbox runs: imports the heavy, fork-safe modules once, then forks per run.
#
# The worker starts this as root, outside any namespace, with a clean environment (no secrets) and
# talks to it over stdin/stdout only (no socket a script could reach). For each run the worker
# first starts the ordinary cold chain — cgroup join, bwrap (namespaces, read-only view, private
# /tmp, seccomp), setpriv; no prlimit, the run process sets its own rlimits — but with a tiny shell
# "holder" in place of python. Then it
# writes `arm <id> <payload file>` here, and a per-run child:
#   1. forks the run process into the run's pid namespace — the holder's, or, on a chain started
#      for its run, bwrap's first process's as soon as bwrap reports it (`--info-fd`), so that this
#      fork (the dearest step) overlaps bwrap's set-up; the holder's pid then follows (`holder <id>
#      <pid>`) once it runs inside the finished chain;
#   2. opens, from outside, the holder's namespaces, root directory and stdout/stderr pipes and
#      hands them to the run process (SCM_RIGHTS), which joins the holder's
#      ipc/uts/net/cgroup/mount namespaces and chroots into its root, so it sees exactly the view
#      bwrap built for this run (nothing of ours is re-implemented), joins the run's cgroup, takes
#      the run's rlimits, drops every capability and the bounding set, switches to the run's uid,
#      sets no_new_privs, loads the same seccomp filter bytes bwrap loads, reports that it is
#      armed and waits;
#   3. on `go <id> <payload file>` hands it the script's environment, argv and entry: it builds
#      the environment from scratch, resets per-run interpreter state, drops to the neighbours'
#      priority in a session of its own and runs the script;
#      (`disarm <id>` instead ends it unrun);
#   4. reports the run's wait status as one JSON line, which the worker hands to the holder so the
#      cold chain's exit status, timeout, kill and cleanup machinery work unchanged.
# A worker may arm a run before the run exists (prestart.ts): everything up to the script is then
# done while nobody waits. The main loop never parses a payload (each lives in a root-only file
# read by the per-run child), so a fork carries no earlier run's data. Forking this process is the
# dearest step (on this VM it grows with the mapped memory: ~5-25 ms with tenpy and matplotlib
# loaded), so one per-run child is forked ahead of time ("spare") and waits on its own pipe.
#
# Typed (mypy --strict, pyproject.toml): the records below are the protocol with runners/sandbox/zygote.ts.
from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import select
import signal
import socket
import sys
import threading
from collections.abc import Iterable
from typing import IO, Any, Literal, NamedTuple, NoReturn, TypedDict, Union, cast

PR_SET_PDEATHSIG = 1
PR_SET_SECCOMP = 22
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECCOMP_MODE_FILTER = 2
# The same numbers on x86-64 and arm64 (the generic table); Linux >= 5.6.
SYS_PIDFD_OPEN = 434
SYS_PIDFD_GETFD = 438
LINUX_CAPABILITY_VERSION_3 = 0x20080522
# Joined in this order: the mount namespace last, since after it /proc is the run's.
NAMESPACES = ('ipc', 'uts', 'net', 'cgroup', 'pid', 'mnt')
REQUIRED_NAMESPACES = {'ipc', 'uts', 'net', 'pid', 'mnt'}

libc = ctypes.CDLL(None, use_errno=True)


class ArmRequest(TypedDict):
    """`arm`'s payload file (zygote.ts ArmRequest): what the run process is made with."""
    # None: not known yet (a `holder` line brings it); the run process is then forked into nsPid's pid namespace.
    holderPid: int | None
    # bwrap's first process (the run's pid namespace's init), when holderPid is None.
    nsPid: int | None
    # Inodes the holder's fd 1 and 2 must have (the run's stdout and stderr).
    stdioInodes: list[int]
    uid: int
    # The holder's own uid: not the script's, so the script cannot stop or trace it.
    holderUid: int
    procsFiles: list[str]
    # resource.RLIMIT_* name -> [soft, hard] (-1: unlimited).
    rlimits: dict[str, list[int]]
    seccompHex: str
    workDir: str
    # The worker's nice while it raised itself (lib/process-priority.ts): the set-up of the run runs
    # at it, the script at the warm python's own (the neighbours'); None: all at the warm python's.
    armNice: int | None


class GoRequest(TypedDict):
    """`go`'s payload file (zygote.ts GoRequest): what the armed run then runs."""
    env: dict[str, str]
    workDir: str
    entry: str
    args: list[str]


# What this writes to stdout, one JSON line each: first Ready or NotReady, then per run id
# Armed, Started and Exited, or RunError at any step.
class Ready(TypedDict):
    ready: Literal[True]
    loaded: list[str]
    failed: list[str]
    vmDataBytes: int


class NotReady(TypedDict):
    ready: Literal[False]
    error: str


class Armed(TypedDict):
    id: str
    armed: Literal[True]


class Started(TypedDict):
    id: str
    started: Literal[True]


class Exited(TypedDict):
    """The run's wait status: its exit code, or the signal that ended it."""
    id: str
    exitCode: int | None
    signal: int | None


class RunError(TypedDict):
    id: str
    error: str


Response = Union[Ready, NotReady, Armed, Started, Exited, RunError]


class Command(NamedTuple):
    """One request line: `arm <id> <payload>`, `holder <id> <pid>`, `go <id> <payload>` or `disarm <id>` (payload None)."""
    verb: Literal['arm', 'holder', 'go', 'disarm']
    run_id: str
    payload: str | None


def check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f'{what}: {os.strerror(err)}')


def prctl(option: int, arg2: int = 0, arg3: int = 0, arg4: int = 0, arg5: int = 0, what: str = 'prctl') -> None:
    check(libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_ulong(arg3), ctypes.c_ulong(arg4), ctypes.c_ulong(arg5)), what)


class SockFprog(ctypes.Structure):
    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]


class CapHeader(ctypes.Structure):
    _fields_ = [('version', ctypes.c_uint32), ('pid', ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [('effective', ctypes.c_uint32), ('permitted', ctypes.c_uint32), ('inheritable', ctypes.c_uint32)]


def emit(obj: Response) -> None:
    # One write per line (< PIPE_BUF), so lines from concurrent children never interleave.
    try:
        os.write(1, (json.dumps(obj) + '\n').encode())
    except BrokenPipeError:
        # The worker that read these lines is gone (killed, or stopped mid-run): there is no one left
        # to tell, and a traceback on its terminal would only hide what happened.
        os._exit(0)


def thread_count() -> int:
    try:
        return len(os.listdir('/proc/self/task'))
    except OSError:
        return threading.active_count()


def vm_data_bytes() -> int:
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmData:'):
                return int(line.split()[1]) * 1024
    return 0


def preload(names: Iterable[str]) -> tuple[list[str], list[str]]:
    loaded: list[str] = []
    failed: list[str] = []
    for name in names:
        try:
            __import__(name)
            loaded.append(name)
        except Exception as exc:  # a module that will not import is simply not warm
            failed.append(f'{name}: {type(exc).__name__}: {exc}')
    return loaded, failed


def holder_uid(pid: int) -> int:
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith('Uid:'):
                return int(line.split()[1])
    raise OSError(f'no Uid line for {pid}')


def take_fds(pid: int, *fds: int) -> list[int]:
    """Duplicates of another process's fds (the worker's stdio are socket pairs, which /proc/<pid>/fd cannot reopen)."""
    pidfd: int = libc.syscall(SYS_PIDFD_OPEN, ctypes.c_int(pid), ctypes.c_uint(0))
    if pidfd < 0:
        check(-1, 'pidfd_open')
    try:
        out: list[int] = []
        for fd in fds:
            got: int = libc.syscall(SYS_PIDFD_GETFD, ctypes.c_int(pidfd), ctypes.c_int(fd), ctypes.c_uint(0))
            if got < 0:
                check(-1, f'pidfd_getfd {fd}')
            out.append(got)
            want = os.stat(f'/proc/{pid}/fd/{fd}')
            have = os.fstat(got)
            if (want.st_ino, want.st_dev) != (have.st_ino, have.st_dev):
                raise OSError(f'fd {fd} of {pid} changed while it was taken')
        return out
    finally:
        os.close(pidfd)


class HolderView(NamedTuple):
    """What the run process takes from the holder: opened from outside by the per-run child."""
    ns_fds: list[tuple[str, int]]
    root_fd: int
    procs_fds: list[int]
    null_fd: int
    out_fd: int
    err_fd: int
    last_cap: int


def open_holder(req: ArmRequest, pid: int, pid_ns_ino: int) -> HolderView:
    """In the per-run child (root, outside): the holder's namespaces (but the pid one, already
    entered: checked to be the holder's), root directory, stdout/stderr and the run's cgroup."""
    uid = int(req['uid'])
    if holder_uid(pid) != int(req['holderUid']) or int(req['holderUid']) == uid:
        raise OSError(f'holder {pid} does not run as the holder uid {req["holderUid"]}')
    if os.stat(f'/proc/{pid}/ns/pid').st_ino != pid_ns_ino:
        raise OSError(f'holder {pid} is not in the pid namespace the run process was forked into')
    ns_fds: list[tuple[str, int]] = []
    for ns in NAMESPACES:
        p = f'/proc/{pid}/ns/{ns}'
        if ns == 'pid' or not os.path.exists(p):
            continue
        if os.stat(p).st_ino == os.stat(f'/proc/self/ns/{ns}').st_ino:
            if ns in REQUIRED_NAMESPACES:
                raise OSError(f'the holder shares the {ns} namespace with the worker')
            continue
        ns_fds.append((ns, os.open(p, os.O_RDONLY | os.O_CLOEXEC)))
    root_fd = os.open(f'/proc/{pid}/root', os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    out_fd, err_fd = take_fds(pid, 1, 2)
    # The worker read these off the chain's first process: the script writes to the run's own stdout and stderr or not at all.
    if [os.fstat(out_fd).st_ino, os.fstat(err_fd).st_ino] != list(req['stdioInodes']):
        raise OSError(f'the holder\'s stdout/stderr are not the run\'s (inodes {os.fstat(out_fd).st_ino}, {os.fstat(err_fd).st_ino} vs {req["stdioInodes"]})')
    procs_fds = [os.open(p, os.O_WRONLY | os.O_CLOEXEC) for p in req['procsFiles']]
    with open('/proc/sys/kernel/cap_last_cap') as f:
        last_cap = int(f.read())
    null_fd = os.open('/dev/null', os.O_RDONLY | os.O_CLOEXEC)
    return HolderView(ns_fds, root_fd, procs_fds, null_fd, out_fd, err_fd, last_cap)


def view_fds(v: HolderView) -> list[int]:
    return [*[fd for _, fd in v.ns_fds], v.root_fd, *v.procs_fds, v.null_fd, v.out_fd, v.err_fd]


def send_view(sock: socket.socket, v: HolderView) -> None:
    header = json.dumps({'ns': [ns for ns, _ in v.ns_fds], 'procs': len(v.procs_fds), 'lastCap': v.last_cap}).encode()
    socket.send_fds(sock, [header], view_fds(v))


def recv_view(sock: socket.socket) -> HolderView | None:
    """None: the per-run child closed the socket (the run was disarmed before its holder came)."""
    data, fds, _, _ = socket.recv_fds(sock, 1 << 16, 64)
    if not data:
        return None
    header = json.loads(data)
    names: list[str] = header['ns']
    n, k = len(names), int(header['procs'])
    if len(fds) != n + k + 4:
        raise OSError(f'got {len(fds)} fds of the holder\'s view, expected {n + k + 4}')
    return HolderView(list(zip(names, fds[:n])), fds[n], fds[n + 1:n + 1 + k], fds[n + 1 + k], fds[n + 2 + k], fds[n + 3 + k], int(header['lastCap']))


def fork_run(req: ArmRequest) -> tuple[int, int, int, socket.socket, int]:
    """In the per-run child (root, outside): fork the run process into the run's pid namespace (the
    holder's, or that of bwrap's first process when the holder is not up yet). The run process waits
    for the holder's view, then sets itself up (become_run) and waits for its script.

    Returns the run process's pid, the read end of its set-up report, the write end of the pipe its
    script request comes through, the socket the view goes through and the pid namespace's inode."""
    source = req['holderPid'] if req.get('holderPid') is not None else req.get('nsPid')
    if source is None:
        raise OSError('neither the holder nor the run\'s pid namespace was named')
    pid_ns = os.open(f'/proc/{int(source)}/ns/pid', os.O_RDONLY | os.O_CLOEXEC)
    pid_ns_ino = os.fstat(pid_ns).st_ino
    if pid_ns_ino == os.stat('/proc/self/ns/pid').st_ino:
        raise OSError('the run\'s pid namespace is the worker\'s')
    # Only this process's children enter the pid namespace; this one stays outside, able to read
    # the script request from the host and to report the run's end.
    check(libc.setns(pid_ns, 0), 'setns pid')
    os.close(pid_ns)
    report_r, report_w = os.pipe()
    go_r, go_w = os.pipe()
    view_ours, view_theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    child = os.fork()
    if child == 0:
        try:
            os.close(report_r)
            os.close(go_w)
            view_ours.close()
            view = recv_view(view_theirs)
            if view is None:  # disarmed before its holder came
                os._exit(0)
            view_theirs.close()
            become_run(req, int(req['uid']), view, keep=(report_w, go_r))
            os.write(report_w, b'ok')
            os.close(report_w)
        except BaseException as exc:
            try:
                os.write(report_w, f'{type(exc).__name__}: {exc}'.encode())
            finally:
                os._exit(125)
        go = read_all(go_r)
        os.close(go_r)
        if not go:  # disarmed: the run never came
            os._exit(0)
        try:
            request = cast(GoRequest, json.loads(go))
            reset_interpreter(request)
            at_neighbour_priority()  # what follows is the script's
        except BaseException as exc:
            os.write(2, f'physvec sandbox: the warm start failed: {exc}\n'.encode())
            os._exit(125)
        run_script(request['entry'])
    view_theirs.close()
    os.close(report_w)
    os.close(go_r)
    return child, report_r, go_w, view_ours, pid_ns_ino


def read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        b = os.read(fd, 1 << 16)
        if not b:
            return b''.join(chunks)
        chunks.append(b)


def close_fds_except(keep: Iterable[int]) -> None:
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)


def set_autogroup_nice(nice: int) -> bool:
    """The nice of this process's session as a whole against other sessions (kernel autogroup)."""
    try:
        with open('/proc/self/autogroup', 'w') as f:
            f.write(str(nice))
        return True
    except OSError:
        return False  # no autogroup here, or not permitted: the thread nice alone


def at_setup_priority(req: ArmRequest) -> None:
    """In the per-run child (a fork of the zygote, which runs at the worker's priority once it has
    imported): a session of its own at the priority its set-up of the run asks for — the worker's
    (armNice), or the neighbours' — so a busy host does not queue physvec's own few milliseconds
    behind the neighbours. When that is where the zygote already runs (its thread and its session's
    autogroup at the worker's priority), the child stays in the zygote's session: a session of its
    own cost ~3 ms at load 4 (a new autogroup and a write to it) on every run armed on its own
    chain. The run process always makes its own (become_run)."""
    nice = req.get('armNice')
    nice = NEIGHBOUR_NICE if nice is None else nice
    if nice == ZYGOTE_AUTOGROUP_NICE and os.getpriority(os.PRIO_PROCESS, 0) == nice:
        return
    try:
        os.setsid()
    except OSError:
        pass
    set_autogroup_nice(nice if nice < 0 else 0)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    except OSError:
        pass  # not root: it stays where the zygote is


def at_neighbour_priority() -> None:
    """Right before the script: a session of its own (bwrap --new-session), whose new autogroup is at
    nice 0 as on a cold chain, and the neighbours' priority. Everything before it — the set-up, the
    wait for the script (a pre-started run's wake-up) and the interpreter's reset (~3 ms) — is
    physvec's own work and ran in the per-run child's session at the set-up's priority; on a busy
    host at the neighbours' it was queued behind them. Done after the caps are dropped, so it can
    only lower the priority: a run process whose set-up ran below the neighbours' is left there
    (lowering the nice value would need the capability it no longer has), and any failure here
    ends the run before its script (never a script at the worker's priority)."""
    os.setsid()
    if os.getpriority(os.PRIO_PROCESS, 0) < NEIGHBOUR_NICE:
        os.setpriority(os.PRIO_PROCESS, 0, NEIGHBOUR_NICE)


def become_run(req: ArmRequest, uid: int, view: HolderView, keep: tuple[int, int]) -> None:
    """In the run process (inside the pid namespace, still root): the rest of what the cold chain does."""
    for ns, fd in view.ns_fds:  # the mount namespace last: after it /proc is the run's
        check(libc.setns(fd, 0), f'setns {ns}')
    os.fchdir(view.root_fd)
    os.chroot('.')
    os.chdir(req['workDir'])
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, what='PR_SET_PDEATHSIG')
    for fd in view.procs_fds:  # before anything else can fork
        os.write(fd, b'0')
    os.dup2(view.null_fd, 0)
    os.dup2(view.out_fd, 1)
    os.dup2(view.err_fd, 2)
    close_fds_except(keep)

    for name, (soft, hard) in req['rlimits'].items():
        resource.setrlimit(getattr(resource, name), (soft, hard))

    # setpriv --bounding-set=-all --inh-caps=-all --clear-groups --reuid --regid --no-new-privs
    for cap in range(view.last_cap + 1):
        prctl(PR_CAPBSET_DROP, cap, what='PR_CAPBSET_DROP')
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, what='PR_CAP_AMBIENT')
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    data = (CapData * 2)()
    check(libc.capset(ctypes.byref(CapHeader(LINUX_CAPABILITY_VERSION_3, 0)), data), 'capset')
    prctl(PR_SET_NO_NEW_PRIVS, 1, what='PR_SET_NO_NEW_PRIVS')
    bpf = bytes.fromhex(req['seccompHex'])
    buf = ctypes.create_string_buffer(bpf, len(bpf))
    prog = SockFprog(len(bpf) // 8, ctypes.cast(buf, ctypes.c_void_p))
    check(libc.prctl(ctypes.c_int(PR_SET_SECCOMP), ctypes.c_ulong(SECCOMP_MODE_FILTER), ctypes.byref(prog), ctypes.c_ulong(0), ctypes.c_ulong(0)), 'PR_SET_SECCOMP')


def reset_interpreter(req: GoRequest) -> None:
    """What a fork would otherwise carry over from the zygote into this run."""
    import io
    import random
    os.environ.clear()
    os.environ.update(req['env'])
    os.environ['PWD'] = req['workDir']  # bwrap --chdir sets it
    entry = os.path.abspath(req['entry'])
    sys.argv = [req['entry'], *req['args']]
    # As a fresh `python entry` builds it: the script's dir, then the run's own PYTHONPATH (e.g. the
    # physvec runtime), then the interpreter's own entries without the zygote's PYTHONPATH.
    own = [p for p in ZYGOTE_PYTHONPATH if p]
    rest = [p for p in sys.path[1:] if p not in own]
    run_path = [p for p in req['env'].get('PYTHONPATH', '').split(os.pathsep) if p]
    sys.path[:] = [os.path.dirname(entry), *run_path, *rest]
    sys.dont_write_bytecode = True
    # python -u: unbuffered binary layer, write-through text layer.
    sys.stdin = io.TextIOWrapper(io.FileIO(0, 'r', closefd=False), encoding='utf-8')
    sys.stdout = io.TextIOWrapper(io.FileIO(1, 'w', closefd=False), encoding='utf-8', write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, 'w', closefd=False), encoding='utf-8', errors='backslashreplace', write_through=True)
    # typeshed marks the originals Final; a fresh interpreter's are the run's own streams, so they are replaced.
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr  # type: ignore[misc]
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
    # As a fresh interpreter sets them.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    random.seed()
    if 'numba.core.config' in sys.modules:
        # numba reads its NUMBA_* settings at import: the cache dir was the zygote's home (absent from
        # the run's view), not the run's own NUMBA_CACHE_DIR; re-read them from the run's environment.
        sys.modules['numba.core.config'].reload_config()
    if 'numpy' in sys.modules:
        sys.modules['numpy'].random.seed()
    if 'matplotlib' in sys.modules:
        import matplotlib
        # Its config and cache dirs follow the run's MPLCONFIGDIR, not the zygote's (memoised at import).
        for name in ('get_configdir', 'get_cachedir'):
            forget_memo(getattr(matplotlib, name, None))
        # Back to its state right after the zygote imported it (what a fresh import gives), without
        # re-validating every value as rcdefaults() would (~4 ms per run).
        dict.clear(matplotlib.rcParams)
        dict.update(matplotlib.rcParams, MPL_RC_AT_IMPORT)
        matplotlib.rcParams['backend'] = os.environ.get('MPLBACKEND', 'Agg')
        if 'matplotlib.pyplot' in sys.modules:
            sys.modules['matplotlib.pyplot'].close('all')


def forget_memo(fn: object) -> None:
    """Reset matplotlib's `_logged_cached` memo (a closure flag `called`), so the next call recomputes."""
    names: tuple[str, ...] = getattr(getattr(fn, '__code__', None), 'co_freevars', ())
    closure: tuple[Any, ...] | None = getattr(fn, '__closure__', None)
    if 'called' in names and closure is not None:  # a function with free variables has its closure
        closure[names.index('called')].cell_contents = False


def run_script(entry: str) -> NoReturn:
    import atexit
    import builtins
    import importlib.machinery
    import traceback
    import types
    code = 0
    try:
        # As `python entry` runs it: __main__ with an absolute __file__, sys.argv[0] as given.
        path = os.path.abspath(entry)
        main = types.ModuleType('__main__')
        main.__file__ = path
        main.__dict__['__builtins__'] = builtins  # (the module's globals; typeshed's ModuleType lacks the name)
        main.__loader__ = importlib.machinery.SourceFileLoader('__main__', path)
        main.__spec__ = None
        main.__dict__['__cached__'] = None
        sys.modules['__main__'] = main
        with open(path, 'rb') as f:
            source = f.read()
        exec(compile(source, path, 'exec'), main.__dict__)
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code & 0xFF
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        # What the interpreter does at exit: join non-daemon threads (private, so not in typeshed).
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        code = code or 120
    os._exit(code)


def load_payload(path: str) -> bytes:
    with open(path, 'rb') as f:
        data = f.read()
    os.unlink(path)
    return data


def serve(requests: IO[bytes], run_id: str, arm_path: str) -> NoReturn:
    """The per-run child: arm the run (its process set up inside the chain, waiting), then on `go`
    hand it its script request and report its wait status; on EOF instead, end it unrun."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    child = 0

    def end_unrun() -> NoReturn:
        if child:
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
        os._exit(0)

    try:
        arm = cast(ArmRequest, json.loads(load_payload(arm_path)))
        at_setup_priority(arm)
        child, report_r, go_w, view_sock, pid_ns_ino = fork_run(arm)
        holder = arm.get('holderPid')
        if holder is None:
            line = request_of(requests.readline())
            if line is None or line.verb != 'holder' or line.run_id != run_id or line.payload is None:
                end_unrun()  # disarmed (or the zygote is gone) before the holder came
            holder = int(line.payload)
        view = open_holder(arm, int(holder), pid_ns_ino)
        send_view(view_sock, view)
        for fd in view_fds(view):
            os.close(fd)
        view_sock.close()
        report = read_all(report_r)
        os.close(report_r)
        if report != b'ok':
            os.waitpid(child, 0)
            raise OSError(report.decode(errors='replace') or 'the run process died while it was set up')
    except BaseException as exc:
        emit({'id': run_id, 'error': f'{type(exc).__name__}: {exc}'})
        if child:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        os._exit(0)
    emit({'id': run_id, 'armed': True})
    go = request_of(requests.readline())
    if go is None or go.verb != 'go' or go.run_id != run_id or go.payload is None:
        end_unrun()
    try:
        request = load_payload(go.payload)
        os.write(go_w, request)  # blocks until the run process has read what the pipe cannot hold
        os.close(go_w)
    except BaseException as exc:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        emit({'id': run_id, 'error': f'{type(exc).__name__}: {exc}'})
        os._exit(0)
    emit({'id': run_id, 'started': True})
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        emit({'id': run_id, 'exitCode': None, 'signal': os.WTERMSIG(status)})
    else:
        emit({'id': run_id, 'exitCode': os.WEXITSTATUS(status), 'signal': None})
    os._exit(0)


ZYGOTE_PYTHONPATH = os.environ.get('PYTHONPATH', '').split(os.pathsep)
# The nice the warm python was started at (the neighbours'): what a script runs at.
NEIGHBOUR_NICE = 0
# The autogroup nice of the warm python's session once it set it (--setup-nice), else None.
ZYGOTE_AUTOGROUP_NICE: int | None = None
# matplotlib's rcParams as the zygote's import left them (reset_interpreter restores them).
MPL_RC_AT_IMPORT: dict[str, Any] = {}


def request_of(line: bytes) -> Command | None:
    """`arm <id> <payload>`, `holder <id> <pid>`, `go <id> <payload>` or `disarm <id>`, as (verb, id, payload or None)."""
    parts = line.decode(errors='replace').split()
    if len(parts) == 3 and parts[0] in ('arm', 'holder', 'go'):
        verb: Literal['arm', 'holder', 'go'] = 'arm' if parts[0] == 'arm' else 'holder' if parts[0] == 'holder' else 'go'
        return Command(verb, parts[1], parts[2])
    if len(parts) == 2 and parts[0] == 'disarm':
        return Command('disarm', parts[1], None)
    return None


SPARE_AFTER_IDLE_S = 0.1


class RequestLines:
    """The worker's request lines from an fd, with a timeout (a buffered readline cannot be polled)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b''

    def next(self, timeout: float | None) -> bytes | None:
        """The next line (b'' at EOF), or None when `timeout` seconds passed without one."""
        while b'\n' not in self.buf:
            if timeout is not None and not select.select([self.fd], [], [], timeout)[0]:
                return None
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return b''
            self.buf += chunk
        line, self.buf = self.buf.split(b'\n', 1)
        return line + b'\n'


def fork_spare(armed: dict[str, int]) -> int:
    """A per-run child forked before its run arrives: it waits for its requests on its own pipe."""
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(w)
        os.close(0)  # only the main loop reads the worker's requests
        for fd in armed.values():  # the other runs' pipes: their EOF must reach them
            os.close(fd)
        requests = os.fdopen(r, 'rb')
        req = request_of(requests.readline())
        if req is None or req.verb != 'arm' or req.payload is None:  # the zygote is gone (EOF) or closed it unused
            os._exit(0)
        serve(requests, req.run_id, req.payload)
    os.close(r)
    return w


def main() -> None:
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, what='PR_SET_PDEATHSIG')  # die with the worker
    names = [n for n in (sys.argv[1] if len(sys.argv) > 1 else '').split(',') if n]
    # A toolchain warmed in the background imports at a lower priority, so the worker's own start
    # and the runs in flight keep the cores; the priority is restored before anything is forked
    # (runs inherit it), which needs root (else it is not lowered at all).
    global NEIGHBOUR_NICE
    base_priority = NEIGHBOUR_NICE = os.getpriority(os.PRIO_PROCESS, 0)
    background = '--background' in sys.argv[2:] and os.geteuid() == 0
    if background:
        os.setpriority(os.PRIO_PROCESS, 0, min(19, base_priority + 10))
    loaded, failed = preload(names)
    if background:
        os.setpriority(os.PRIO_PROCESS, 0, base_priority)
    # Imported (at the neighbours' priority: seconds of CPU); from now on its work — forks, the
    # arming of runs — is physvec's own few milliseconds per run, so it runs at the worker's
    # priority when the worker raised its own (`--setup-nice`); every run drops to the neighbours'
    # before its script (at_neighbour_priority).
    setup = [a.split('=', 1)[1] for a in sys.argv[2:] if a.startswith('--setup-nice=')]
    global ZYGOTE_AUTOGROUP_NICE
    if setup and os.geteuid() == 0:
        try:
            os.setpriority(os.PRIO_PROCESS, 0, int(setup[0]))
            if set_autogroup_nice(int(setup[0])):
                ZYGOTE_AUTOGROUP_NICE = int(setup[0])
        except (OSError, ValueError):
            pass
    threads = thread_count()
    if threads != 1:
        emit({'ready': False, 'error': f'{threads} threads after preloading {",".join(loaded)}: forking would not be safe'})
        return
    # Everything imported so far is never collected: a run's garbage collections do not walk (and
    # so copy-on-write) the preloaded objects.
    if 'matplotlib' in sys.modules:
        MPL_RC_AT_IMPORT.update(dict.items(sys.modules['matplotlib'].rcParams))
    gc.collect()
    gc.freeze()
    # The heap is left in 4 KiB pages. Collapsed into 2 MiB pages (MADV_COLLAPSE) it made the fork
    # and the run's exit cheaper by a few ms, but the run's own computation slower: tenpy's DMRG
    # took 6-12 % more CPU in a fork of a collapsed zygote than cold (scripts/bench-warm-pool.ts).
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # per-run children are reaped by the kernel
    armed: dict[str, int] = {}  # run id -> the request pipe of the per-run child that armed it
    spare: int | None = fork_spare(armed)
    emit({'ready': True, 'loaded': loaded, 'failed': failed, 'vmDataBytes': vm_data_bytes()})
    requests = RequestLines(0)
    while True:
        # The next spare is forked once no request came for SPARE_AFTER_IDLE_S, not right behind the
        # arm that took the last one: on a run's own chain that arm comes while bwrap builds the run's
        # view, and a fork of this process (~6.5 ms of CPU at load 4) then competed with it and with
        # the run process's own fork on two cores. An arm that finds no spare forks one at once.
        line = requests.next(SPARE_AFTER_IDLE_S if spare is None else None)
        if line is None:
            spare = fork_spare(armed)
            continue
        if not line:
            return
        req = request_of(line)
        if req is None:
            # A worker speaking another version of this protocol: say so, rather than leave its run waiting.
            parts = line.decode(errors='replace').split()
            if len(parts) >= 2:
                emit({'id': parts[1], 'error': f'the warm python does not understand {parts[0]!r}'})
            continue
        verb, run_id, _ = req
        # Each line is short (< PIPE_BUF): a write never blocks.
        if verb == 'arm' and run_id not in armed:
            if spare is None:
                spare = fork_spare(armed)
            os.write(spare, line)
            armed[run_id] = spare
            spare = None
        elif verb == 'holder' and run_id in armed:
            os.write(armed[run_id], line)
        elif verb == 'go' and run_id in armed:
            fd = armed.pop(run_id)
            os.write(fd, line)
            os.close(fd)
        elif verb == 'go':
            emit({'id': run_id, 'error': 'no armed run with this id'})
        elif verb == 'disarm' and run_id in armed:
            os.close(armed.pop(run_id))


if __name__ == '__main__':
    main()
