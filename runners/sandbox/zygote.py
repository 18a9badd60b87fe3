# A warm Python for sandbox runs: imports the heavy, fork-safe modules once, then forks per run.
#
# The worker starts this as root, outside any namespace, with a clean environment (no secrets) and
# talks to it over stdin/stdout only (no socket a script could reach). For each run the worker
# first starts the ordinary cold chain — cgroup join, prlimit, bwrap (namespaces, read-only view,
# private /tmp, seccomp), setpriv — but with a tiny shell "holder" in place of python. Then it
# writes `run <id> <payload file>` here. We fork a child that:
#   1. opens, from outside, the holder's namespaces, root directory and stdout/stderr pipes;
#   2. joins the holder's ipc/uts/net/cgroup/pid/mount namespaces and chroots into its root, so it
#      sees exactly the view bwrap built for this run (nothing of ours is re-implemented);
#   3. forks the run process (inside the holder's pid namespace), which joins the run's cgroup,
#      takes the run's rlimits, drops every capability and the bounding set, switches to the run's
#      uid, sets no_new_privs and loads the same seccomp filter bytes bwrap loads, builds the run's
#      environment from scratch, resets per-run interpreter state and runs the script with runpy;
#   4. reports the run's wait status as one JSON line, which the worker hands to the holder so the
#      cold chain's exit status, timeout, kill and cleanup machinery work unchanged.
# The main loop never parses a request (the payload lives in a root-only file read by the child),
# so a fork carries no earlier run's data. Forking this process is the dearest step (on this VM it
# grows with the mapped memory: ~10-50 ms with tenpy and matplotlib loaded), so one per-run child
# is forked ahead of time ("spare") and waits on its own pipe; a run pays only the second fork.
import ctypes
import gc
import json
import os
import signal
import sys
import threading

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


def check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f'{what}: {os.strerror(err)}')


def prctl(option, arg2=0, arg3=0, arg4=0, arg5=0, what='prctl'):
    check(libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_ulong(arg3), ctypes.c_ulong(arg4), ctypes.c_ulong(arg5)), what)


class SockFprog(ctypes.Structure):
    _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]


class CapHeader(ctypes.Structure):
    _fields_ = [('version', ctypes.c_uint32), ('pid', ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [('effective', ctypes.c_uint32), ('permitted', ctypes.c_uint32), ('inheritable', ctypes.c_uint32)]


def emit(obj):
    # One write per line (< PIPE_BUF), so lines from concurrent children never interleave.
    os.write(1, (json.dumps(obj) + '\n').encode())


def thread_count():
    try:
        return len(os.listdir('/proc/self/task'))
    except OSError:
        return threading.active_count()


def vm_data_bytes():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmData:'):
                return int(line.split()[1]) * 1024
    return 0


def preload(names):
    loaded, failed = [], []
    for name in names:
        try:
            __import__(name)
            loaded.append(name)
        except Exception as exc:  # a module that will not import is simply not warm
            failed.append(f'{name}: {type(exc).__name__}: {exc}')
    return loaded, failed


def holder_uid(pid):
    with open(f'/proc/{pid}/status') as f:
        for line in f:
            if line.startswith('Uid:'):
                return int(line.split()[1])
    raise OSError(f'no Uid line for {pid}')


def take_fds(pid, *fds):
    """Duplicates of another process's fds (the worker's stdio are socket pairs, which /proc/<pid>/fd cannot reopen)."""
    pidfd = libc.syscall(SYS_PIDFD_OPEN, ctypes.c_int(pid), ctypes.c_uint(0))
    if pidfd < 0:
        check(-1, 'pidfd_open')
    try:
        out = []
        for fd in fds:
            got = libc.syscall(SYS_PIDFD_GETFD, ctypes.c_int(pidfd), ctypes.c_int(fd), ctypes.c_uint(0))
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


def enter_run(req):
    """In the per-run child (root, outside): join the holder's namespaces and view, fork the run."""
    pid = int(req['holderPid'])
    uid = int(req['uid'])
    if holder_uid(pid) != uid:
        raise OSError(f'holder {pid} does not run as the run uid {uid}')
    ns_fds = []
    for ns in NAMESPACES:
        p = f'/proc/{pid}/ns/{ns}'
        if not os.path.exists(p):
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
    for ns, fd in ns_fds:
        check(libc.setns(fd, 0), f'setns {ns}')
        os.close(fd)
    os.fchdir(root_fd)
    os.chroot('.')
    os.close(root_fd)
    os.chdir(req['workDir'])
    null_fd = os.open('/dev/null', os.O_RDONLY | os.O_CLOEXEC)
    child = os.fork()
    if child == 0:
        try:
            become_run(req, uid, last_cap, procs_fds, null_fd, out_fd, err_fd)
        except BaseException as exc:
            try:
                os.write(err_fd, f'physvec sandbox: the warm start failed: {exc}\n'.encode())
            finally:
                os._exit(125)
    for fd in (*procs_fds, null_fd, out_fd, err_fd):
        os.close(fd)
    return child


def become_run(req, uid, last_cap, procs_fds, null_fd, out_fd, err_fd):
    """In the run process (inside the pid namespace, still root): the rest of what the cold chain does."""
    os.setsid()  # bwrap --new-session
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, what='PR_SET_PDEATHSIG')
    for fd in procs_fds:  # before anything else can fork
        os.write(fd, b'0')
    os.dup2(null_fd, 0)
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.closerange(3, 1 << 16)

    import resource
    for name, (soft, hard) in req['rlimits'].items():
        resource.setrlimit(getattr(resource, name), (soft, hard))

    # setpriv --bounding-set=-all --inh-caps=-all --clear-groups --reuid --regid --no-new-privs
    for cap in range(last_cap + 1):
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

    reset_interpreter(req)
    run_script(req['entry'])


def reset_interpreter(req):
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
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
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
    if 'numpy' in sys.modules:
        sys.modules['numpy'].random.seed()
    if 'matplotlib' in sys.modules:
        import matplotlib
        # Its config and cache dirs follow the run's MPLCONFIGDIR, not the zygote's (memoised at import).
        for name in ('get_configdir', 'get_cachedir'):
            forget_memo(getattr(matplotlib, name, None))
        matplotlib.rcdefaults()
        matplotlib.rcParams['backend'] = os.environ.get('MPLBACKEND', 'Agg')
        if 'matplotlib.pyplot' in sys.modules:
            sys.modules['matplotlib.pyplot'].close('all')


def forget_memo(fn):
    """Reset matplotlib's `_logged_cached` memo (a closure flag `called`), so the next call recomputes."""
    names = getattr(getattr(fn, '__code__', None), 'co_freevars', ())
    if 'called' in names:
        fn.__closure__[names.index('called')].cell_contents = False


def run_script(entry):
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
        main.__builtins__ = builtins
        main.__loader__ = importlib.machinery.SourceFileLoader('__main__', path)
        main.__spec__ = None
        main.__cached__ = None
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
        threading._shutdown()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        code = code or 120
    os._exit(code)


def serve(run_id, payload_path):
    """The per-run child: read its own request, enter the run, report its wait status."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    try:
        with open(payload_path) as f:
            req = json.load(f)
        os.unlink(payload_path)
        child = enter_run(req)
    except BaseException as exc:
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


def request_of(line):
    parts = line.decode().split()
    return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == 'run' else None


def fork_spare():
    """A per-run child forked before its run arrives: it waits for one request line on its own pipe."""
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(w)
        os.close(0)  # only the main loop reads the worker's requests
        with os.fdopen(r, 'rb') as f:
            req = request_of(f.readline())
        if req is None:  # the zygote is gone (EOF) or closed it unused
            os._exit(0)
        serve(*req)
    os.close(r)
    return w


def main():
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, what='PR_SET_PDEATHSIG')  # die with the worker
    names = [n for n in (sys.argv[1] if len(sys.argv) > 1 else '').split(',') if n]
    loaded, failed = preload(names)
    threads = thread_count()
    if threads != 1:
        emit({'ready': False, 'error': f'{threads} threads after preloading {",".join(loaded)}: forking would not be safe'})
        return
    # Everything imported so far is never collected: a run's garbage collections do not walk (and
    # so copy-on-write) the preloaded objects.
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # per-run children are reaped by the kernel
    spare = fork_spare()
    emit({'ready': True, 'loaded': loaded, 'failed': failed, 'vmDataBytes': vm_data_bytes()})
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return
        if request_of(line) is None:
            continue
        os.write(spare, line)  # one short line (< PIPE_BUF): never blocks
        os.close(spare)
        spare = fork_spare()


if __name__ == '__main__':
    main()
