"""Run a person's program once on one input, under a time and a memory limit, and measure it.

The child runs in a session of its own (so a time-out kills its process group at once), and this process is
made the reaper of the orphans its descendants leave (Linux's ``PR_SET_CHILD_SUBREAPER``), so that a child that
left the session (``setsid``) is still found among this process's children after the run, and killed. It runs with
``RLIMIT_AS`` at the memory limit, as judges that limit the address space do. Its CPU time comes from
``os.wait4``'s resource usage, which is the child's own (``RUSAGE_CHILDREN`` would mix in every earlier run). Its
peak resident memory is the ``VmHWM`` of ``/proc/PID/status``, read while it runs: the ``ru_maxrss`` of
``wait4`` also counts the pages the child shared with this process between fork and exec, so a big gamedp
process (a test session, a solved table) would make every small program look over its limit. ``ru_maxrss`` is
still exact when it passes this process's own peak (the child then grew past anything it inherited), which
catches a program that grows and ends between two reads. A run is stopped when its CPU time passes the limit (watched in ``/proc``, with ``RLIMIT_CPU`` as
a backstop) or its wall-clock time passes :func:`wall_allowance` (a program that sleeps or waits for input that
never comes); it counts as too slow when it was stopped or its CPU time passed the limit. Wall-clock time alone
would call a correct program slow whenever the machine is busy.

>>> import sys
>>> run = run_program([sys.executable, "-c", "print(input()[::-1])"], b"abc\\n", time_limit=5, memory_mb=256)
>>> run.stdout, run.exit_code, run.timed_out
(b'cba\\n', 0, False)
"""

from __future__ import annotations

import os
import resource
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

from gamedp.errors import GamedpError
from gamedp.kernel_cache import NUMBA_LOCATORS

#: Output beyond this many bytes stops the run: no judge answer of these problems comes near it.
OUTPUT_CAP = 64 << 20
#: How much of stderr is kept for the report: its first and its last half of this.
STDERR_CAP = 64 << 10
#: How often the child's CPU time is looked at.
POLL = 0.02

MEMORY_ERRORS = (b"MemoryError", b"bad_alloc", b"Cannot allocate memory", b"out of memory", b"OutOfMemoryError")


@dataclass
class Run:
    """What one run of the program did, with the measured figures."""

    stdout: bytes
    stderr: bytes
    #: the exit status, or None when a signal ended the program
    exit_code: int | None
    signal: int | None
    cpu_seconds: float
    wall_seconds: float
    peak_rss_mb: float
    #: stopped by gamedp for passing the wall-clock allowance
    killed: bool
    time_limit: float
    memory_mb: int
    output_capped: bool = False

    @property
    def timed_out(self) -> bool:
        return self.killed or self.cpu_seconds > self.time_limit

    @property
    def out_of_memory(self) -> bool:
        """Over the memory limit: resident memory past it, or a failed run that ran out of address space."""
        if self.peak_rss_mb > self.memory_mb:
            return True
        failed = self.exit_code != 0 and not self.killed
        return failed and any(word in self.stderr for word in MEMORY_ERRORS)

    def figures(self) -> str:
        """``CPU 0.41 s, wall 0.43 s, peak memory 12.3 MB`` (limits alongside)."""
        return (f"CPU {self.cpu_seconds:.2f} s, wall {self.wall_seconds:.2f} s (limit {self.time_limit:g} s), "
                f"peak memory {self.peak_rss_mb:.1f} MB (limit {self.memory_mb} MB)")

    def ending(self) -> str:
        """How the program ended, in words: ``ended with exit code 1``, ``was killed by signal 11 (SIGSEGV)``."""
        if self.output_capped:
            return f"was stopped by gamedp when its output passed {OUTPUT_CAP >> 20} MB"
        if self.killed:
            return (f"was stopped by gamedp after {self.cpu_seconds:.2f} s of CPU time ({self.wall_seconds:.2f} s "
                    "wall-clock)")
        if self.signal is not None:
            try:
                name = signal.Signals(self.signal).name
            except ValueError:
                name = "unknown"
            return f"was killed by signal {self.signal} ({name})"
        return f"ended with exit code {self.exit_code}"

    def stderr_head(self, lines: int = 5) -> str:
        """The first ``lines`` lines of stderr, and the last ``lines`` too when there are more (a traceback
        ends with its error): printable text only, each line cut to :data:`WIDTH` characters."""
        text = printable(self.stderr.decode("utf-8", "replace")).strip().splitlines()
        if len(text) > 2 * lines:
            text = text[:lines] + [f"... ({len(text) - 2 * lines} lines)"] + text[-lines:]
        return "\n".join(cut_line(line) for line in text)


#: The most characters of one line of a program's output shown in a report.
WIDTH = 200


def printable(text: str) -> str:
    """``text`` with what a terminal would not show as text (NUL bytes, escape sequences' ESC, other controls)
    left out, and a note of how many characters were.

    >>> printable("boom\\x00\\x00\\x1b[2J\\n")
    'boom[2J\\n(3 characters that are not text left out)'
    """
    kept = "".join(ch for ch in text if ch.isprintable() or ch in "\n\t")
    dropped = len(text) - len(kept)
    return kept + (f"({dropped:,} characters that are not text left out)" if dropped else "")


def cut_line(line: str) -> str:
    """``line`` cut to :data:`WIDTH` characters, saying how long it was.

    >>> cut_line("x" * 250)[-40:]
    'xxxxxxxxxxxxxxxxxxxx... (250 characters)'
    """
    return line if len(line) <= WIDTH else f"{line[:WIDTH]}... ({len(line):,} characters)"


def run_program(argv: list[str], data: bytes, time_limit: float, memory_mb: int) -> Run:
    """Run ``argv`` with ``data`` on standard input; its output, how it ended and what it used."""
    limit_bytes = memory_mb << 20

    cpu_backstop = int(time_limit) + 2

    def limit_child() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_backstop, cpu_backstop))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    inherited = peak_memory_mb(os.getpid())  # what ru_maxrss may count that is not the program's
    _reap_orphans()
    before = _children()
    started = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, preexec_fn=limit_child, env=_environment())
    except FileNotFoundError:
        raise GamedpError(f"cannot run {argv[0]!r}: no such program (give a path, or a command on PATH)") from None
    except PermissionError:
        raise GamedpError(f"cannot run {argv[0]!r}: permission denied (is it executable?)") from None
    except OSError as e:
        raise GamedpError(f"cannot run {argv[0]!r}: {e.strerror}") from None
    feeder = threading.Thread(target=_feed, args=(proc.stdin, data), daemon=True)
    feeder.start()
    deadline = started + wall_allowance(time_limit)
    peak = [0.0]  # the highest VmHWM seen, in MB
    stdout, stderr, killed, capped = _collect(proc, deadline, time_limit, peak)
    status, usage, late = _reap(proc.pid, deadline, peak)
    killed = killed or late
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen does not wait for it again
    _kill_group(proc.pid)  # anything the program left behind
    _kill_strays(before | {proc.pid})
    feeder.join(1)
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    return Run(stdout=stdout, stderr=stderr,
               exit_code=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
               signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
               cpu_seconds=usage.ru_utime + usage.ru_stime, wall_seconds=wall,
               peak_rss_mb=max(peak[0], usage.ru_maxrss / 1024 if usage.ru_maxrss / 1024 > inherited else 0.0),
               killed=killed, time_limit=time_limit, memory_mb=memory_mb,
               output_capped=capped)


def _environment() -> dict[str, str]:
    """This process's environment, less the numba locators gamedp named for itself
    (:func:`gamedp.kernel_cache.trust_numba_cache`): the program may run a Python without gamedp, whose numba
    would fail to import them."""
    env = dict(os.environ)
    if env.get("NUMBA_CACHE_LOCATOR_CLASSES") == NUMBA_LOCATORS:
        del env["NUMBA_CACHE_LOCATOR_CLASSES"]
    return env


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, ValueError, OSError):  # the program stopped reading: its own business
        pass


def wall_allowance(time_limit: float) -> float:
    """Wall-clock seconds a run may take: five times the CPU limit, and at least two seconds more than it (on a
    busy machine a program gets a fraction of a core).

    >>> wall_allowance(1.0), wall_allowance(0.2)
    (5.0, 2.2)
    """
    return max(5 * time_limit, time_limit + 2)


def cpu_seconds(pid: int) -> float:
    """The CPU time a running process has used so far (0 where ``/proc`` cannot tell)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def peak_memory_mb(pid: int) -> float:
    """The peak resident memory of a running process since its exec, in MB (0 where ``/proc`` cannot tell)."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, IndexError, ValueError):
        pass
    return 0.0


def _collect(proc: subprocess.Popen, deadline: float, time_limit: float,
             peak: list[float]) -> tuple[bytes, bytes, bool, bool]:
    """Read stdout and stderr until both close, the CPU limit or the deadline passes (then kill the session)."""
    err_fd = proc.stderr.fileno()
    out: list[bytes] = []
    size = 0
    err = _HeadAndTail(STDERR_CAP // 2)
    killed = capped = False
    with selectors.DefaultSelector() as sel:
        for stream in (proc.stdout, proc.stderr):
            sel.register(stream, selectors.EVENT_READ)
        while sel.get_map():
            left = deadline - time.perf_counter()
            peak[0] = max(peak[0], peak_memory_mb(proc.pid))
            if left <= 0 or cpu_seconds(proc.pid) > time_limit:
                killed = True
                break
            for key, _ in sel.select(min(left, POLL)):
                block = os.read(key.fd, 1 << 16)
                if not block:
                    sel.unregister(key.fileobj)
                elif key.fd == err_fd:
                    err.add(block)
                elif size < OUTPUT_CAP:
                    out.append(block)
                    size += len(block)
                else:
                    capped = True
            if capped:
                break
    if killed or capped:
        _kill_group(proc.pid)
    return b"".join(out), err.bytes(), killed, capped


class _HeadAndTail:
    """The first and the last ``half`` bytes of a stream (a traceback ends with its error), and how many went
    between them."""

    def __init__(self, half: int):
        self.half, self.head, self.tail, self.skipped = half, bytearray(), bytearray(), 0

    def add(self, block: bytes) -> None:
        room = self.half - len(self.head)
        self.head += block[:room]
        self.tail += block[room:] if room > 0 else block
        if len(self.tail) > self.half:
            self.skipped += len(self.tail) - self.half
            del self.tail[:len(self.tail) - self.half]

    def bytes(self) -> bytes:
        gap = f"\n... ({self.skipped:,} bytes left out) ...\n".encode() if self.skipped else b""
        return bytes(self.head) + gap + bytes(self.tail)


def _reap(pid: int, deadline: float, peak: list[float]) -> tuple[int, resource.struct_rusage, bool]:
    """Wait for the program to end (it may close its output and go on running); kill it at the deadline."""
    killed = False
    while True:
        peak[0] = max(peak[0], peak_memory_mb(pid))  # until it is reaped: a zombie has no memory left to read
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return status, usage, killed
        if not killed and time.perf_counter() > deadline:
            _kill_group(pid)
            killed = True
        time.sleep(0.002)


_reaping: list[bool] = []


def _reap_orphans() -> None:
    """Make this process the reaper of its descendants' orphans (once; Linux only, elsewhere nothing)."""
    if _reaping:
        return
    try:
        import ctypes

        _reaping.append(ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        _reaping.append(False)


def _children() -> set[int]:
    """This process's children, as its threads' ``/proc`` entries list them (empty where they cannot)."""
    found: set[int] = set()
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as f:
                found.update(int(pid) for pid in f.read().split())
    except OSError:
        pass
    return found


def _kill_strays(known: set[int]) -> None:
    """Kill and reap every child of this process but ``known``: what a program's descendants left when they
    ended or were killed (they came to this process as their reaper), then theirs in turn."""
    for _ in range(100):
        strays = _children() - known
        if not strays:
            return
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except ChildProcessError:  # reaped meanwhile (not ours to wait for after all)
                known.add(pid)
            except ProcessLookupError:
                pass


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
