"""Where the shards of a tier run: in this process, or as tasks on a Dask cluster.

An executor's work is ``run(fn, jobs, on_done)``: it calls ``fn(job)`` for every job (in any order,
anywhere) and ``on_done(job)`` in this process as each finishes, and returns when all have (raising the first
job's error). A job leaves its result in a file, so nothing ``fn`` returns comes back: on Dask, fetching it would
cost a round trip to a worker at the end of every tier. Besides, ``slots()`` says how many jobs run at once,
``started`` whether the executor is ready (a local cluster starts when first used), and ``start()`` readies it.
The solvers know nothing else about it; dask is imported only when a Dask executor is started.

>>> LocalExecutor().run(print, [-2, 3], lambda job: print("done", job))
-2
done -2
3
done 3
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import threading
import time
from concurrent.futures import CancelledError
from typing import Any, Callable, Sequence

from gamedp.errors import GamedpError, InputError

#: Seconds to wait for an existing scheduler (and its scheduler file) before saying it cannot be reached.
CONNECT_TIMEOUT = 10
#: The most bytes of a scheduler file read: Dask writes a few hundred.
SCHEDULER_FILE_LIMIT = 1 << 16
#: How a local cluster starts its workers: forked from this process (with what ``preload`` loaded) where that is
#: safe, rather than spawned (a fresh interpreter each, then numba and the kernels loaded again in every worker:
#: seconds of a small solve; figures in docs/performance.md).
START_METHOD = "fork" if sys.platform == "linux" else "spawn"
#: What a local cluster's processes do besides the tasks, turned down: a shard's kernel holds the GIL for up to a
#: second, and a worker's sampling profiler every 10 ms and event-loop checks every 20 ms only wait on it, or take
#: it from the task in between (docs/performance.md: the kernels ran slower on a worker with them on, as fast
#: without).
QUIET_CLUSTER = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
                 "distributed.admin.system-monitor.interval": "5s"}
#: Seconds a cluster may have no worker at all while jobs wait, before the run stops (a local cluster starts a
#: killed worker again in well under a second; a remote one may be scaling).
PATIENCE = 30.0
#: Seconds without a job ending after which the scheduler is asked which of the jobs waited on it has ended. Dask's
#: client drops the report of a job that ended in a message it cannot read (a failure whose exception is no
#: exception: its report handler fails an assertion), and the job was waited on for ever; one the scheduler says
#: ended, at two askings this far apart, was lost so.
LOST_AFTER = 10.0
#: The least a local worker takes: memory (what a forked worker holds resident before loading the kernels, and
#: more once they are loaded) and this process's file descriptors (its connections and pipes); measured figures
#: in docs/performance.md.
WORKER_MEMORY = 128 << 20
WORKER_FILES = 12
#: File descriptors kept for the solve itself (its working files, the scheduler's listening sockets).
FILES_RESERVE = 64
#: Seconds between a local cluster's batches of messages (client to scheduler, scheduler to workers and back):
#: Dask's 2-10 ms suit many tasks over a network, but a tier is a barrier of a few tasks, so each tier waited on
#: them, once per tier (docs/performance.md).
PROMPT = 0.001


class LocalExecutor:
    """Every job in this process, one after another."""

    def run(self, fn: Callable, jobs: Sequence, on_done: Callable[[Any], None]) -> None:
        for job in jobs:
            fn(job)
            on_done(job)

    #: Nothing to start.
    started = True

    def start(self) -> None:
        pass

    def slots(self) -> int:
        """How many jobs run at once."""
        return 1

    def close(self) -> None:
        pass

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DaskExecutor:
    """Jobs as tasks on Dask: a new local cluster of ``workers`` processes, or an existing scheduler (``address``
    or ``scheduler_file``). A worker that dies mid-task has its tasks run again elsewhere (Dask retries).

    An existing scheduler is reached at once, so that a wrong address is said before any work. A local cluster
    starts when first used, or when :meth:`start` is called: importing Dask and starting the processes takes
    ~0.35 s, which a solver may spend on its first tiers in a process of its own meanwhile (see :attr:`started`).
    ``preload()`` runs just before a local cluster's workers are forked, so that they start with what it loads
    (the solver's kernels)."""

    def __init__(self, workers: int | None = None, address: str | None = None, scheduler_file: str | None = None,
                 timeout: float | None = None, preload: Callable[[], None] | None = None):
        if importlib.util.find_spec("distributed") is None:
            raise GamedpError("--workers, --cluster and --scheduler-file need Dask: pip install 'dask[distributed]'")
        if workers is not None:
            most, why = most_workers()
            if workers > most:
                raise GamedpError(f"--workers {workers} is more than this machine holds: at most {most:,} ({why}); "
                                  f"it has {os.cpu_count() or 1} cores, and more workers than cores do not help")
        self.cluster: Any = None
        self._client: Any = None
        self._settings: Any = None
        self._last: list = []
        self._workers, self._address, self._scheduler_file = workers, address, scheduler_file
        self._timeout = CONNECT_TIMEOUT if timeout is None else timeout
        self._preload = preload
        if workers is None:
            self.start()

    @property
    def local(self) -> bool:
        """Whether the workers are processes of this machine started here (a local cluster)."""
        return self._workers is not None

    @property
    def started(self) -> bool:
        """Whether the cluster is there (a local one is started by :meth:`start`, or by first use)."""
        return self._client is not None

    @property
    def client(self) -> Any:
        """The Dask client (a local cluster is started first if it was not)."""
        self.start()
        return self._client

    def start(self) -> None:
        """Start the local cluster, or reach the scheduler, unless that is done."""
        if self._client is not None:
            return
        import logging

        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError as e:  # there, but broken (say, dask and distributed of different releases)
            raise GamedpError(f"Dask cannot be imported ({e}): pip install -U 'dask[distributed]'") from None

        # Dask's own warnings (a nanny restarting a worker, a slow shutdown) are its business, not the user's; so
        # are a local cluster's errors about its own messages, which its forked workers inherit this level for (a
        # worker's heartbeat that meets the scheduler closing at the end printed a traceback): a task's failure
        # reaches the solver through its future.
        # Dask's configuration gives some of its loggers their own level (distributed.client: WARNING, which
        # printed "Couldn't gather 1 keys, rescheduling" when a worker died), so each is set, not only the parent.
        level = logging.ERROR if self._workers is None else logging.CRITICAL
        named = [name for name in logging.root.manager.loggerDict if name.startswith("distributed.")]
        for name in ("distributed", "tornado.application", *named):  # tornado logs what fails in Dask's callbacks
            logging.getLogger(name).setLevel(level)
        logging.getLogger("distributed.client").addFilter(_unread_report)
        if self._workers is None:
            self._client = self._reach()
            return
        try:
            if self._preload is not None:
                self._preload()
            # One task at a time per worker thread (Dask's default sends 2 to each of its 1-thread workers,
            # which can give one worker both pieces of a tier while the other waits). Kept while the cluster
            # runs: a worker that dies is started again by the same method (spawned, it took seconds, and needed
            # a resource tracker process, whose replacement printed a traceback for each of its predecessor's
            # semaphores).
            self._settings = dask.config.set({"distributed.worker.multiprocessing-method": START_METHOD,
                                              "distributed.scheduler.worker-saturation": 1.0, **QUIET_CLUSTER})
            _quiet_forks(True)
            # No dashboard: the scheduler's HTTP server (health and metrics only) on a free port of this machine;
            # Dask's default, 8787 on every address, warned on four lines wherever it was taken.
            self.cluster = LocalCluster(n_workers=self._workers, threads_per_worker=1, processes=True,
                                        dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
            self._client = Client(self.cluster)
            self._prompt()
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise GamedpError(f"cannot start a local cluster of {self._workers} workers ({first})") from None

    def _reach(self) -> Any:
        """A client of the existing scheduler, within the timeout (the scheduler file's wait included)."""
        deadline = time.monotonic() + self._timeout
        if self._scheduler_file is None:
            address, where = str(self._address), f"--cluster {self._address}"
        else:
            address = read_scheduler_file(self._scheduler_file, deadline, self._timeout)
            where = f"the scheduler at {address} (from --scheduler-file {self._scheduler_file})"
        return connect(address, where, deadline, self._timeout)

    def _prompt(self) -> None:
        """Send a local cluster's messages every :data:`PROMPT` seconds. The intervals are attributes of Dask's
        batched streams, not settings: where a Dask release lacks them, nothing is changed (only time lost)."""
        scheduler = self.cluster.scheduler
        streams = [getattr(self._client, "scheduler_comm", None), *getattr(scheduler, "stream_comms", {}).values(),
                   *getattr(scheduler, "client_comms", {}).values()]
        for stream in streams:
            if hasattr(stream, "interval"):
                stream.interval = PROMPT
        self._client.run(_prompt_worker)

    def run(self, fn: Callable, jobs: Sequence, on_done: Callable[[Any], None]) -> None:
        """As the module says. A run whose cluster fails under it (no worker for :data:`PATIENCE` seconds, a job
        that killed its worker each time Dask tried it, a job whose end this client never heard of (see
        :data:`LOST_AFTER`), Dask's own machinery broken by killed processes) stops with one line; what the jobs
        finished is kept."""
        futures = self.client.map(fn, list(jobs), pure=False)
        # The last batch's futures are released only now: releasing them sends the scheduler a message, and the
        # client sends at most one batch of messages per 10 ms, so a release just before this map held it back
        # ~10 ms (a tier's start, 25 times in a 6x4 solve).
        self._last = futures
        index = {f.key: i for i, f in enumerate(futures)}
        pending, alone_since = set(futures), None
        asked, ended = time.monotonic(), set()  # when the scheduler was last asked, and what it said had ended
        try:
            while pending:
                done, pending = self._cluster(_wait_some, pending)
                for future in done:
                    if future.status != "finished":
                        self._raise_from(future)
                    on_done(jobs[index[future.key]])
                if done or self._cluster(self.client.nthreads):
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > PATIENCE:
                    raise self._failed(f"has no workers left (none for {PATIENCE:g} s)")
                if done:
                    asked, ended = time.monotonic(), set()
                elif time.monotonic() - asked > LOST_AFTER:
                    over = self._ended(pending)
                    if ended & over:
                        raise self._failed("reported a job's end in a message gamedp could not read (a failure "
                                           "that was no exception?)")
                    asked, ended = time.monotonic(), over
        except BaseException:
            try:
                self.client.cancel(futures)
            except Exception:  # a cluster in pieces: nothing left to cancel
                pass
            raise

    def _ended(self, pending: set) -> set:
        """The keys of ``pending`` that the scheduler holds as ended (finished or failed); none where it cannot say
        (a scheduler of a Dask release without ``get_task_status``, or a cluster failing, which the next wait
        says)."""
        try:
            states = self.client.sync(self.client.scheduler.get_task_status, keys=[f.key for f in pending])
        except Exception:
            return set()
        return {key for key, state in states.items() if state in ("memory", "erred")}

    def _raise_from(self, future: Any) -> None:
        """Raise a job's own error; a job Dask lost or gave up on (its worker died each time) is the cluster's."""
        from distributed import KilledWorker

        try:
            future.result()
        except KilledWorker:
            raise self._failed("lost a job's worker each time it ran the job (killed, or out of memory?)") from None
        except CancelledError:
            raise self._failed("lost a job") from None

    def _cluster(self, call: Callable, *args: Any, **kwargs: Any) -> Any:
        """``call`` into Dask; its failure (say, after its processes were killed) as one line."""
        try:
            return call(*args, **kwargs)
        except Exception as e:
            said = " ".join(str(e).split())[:200]
            raise self._failed(f"failed ({type(e).__name__}{': ' + said if said else ''})") from None

    def _failed(self, what: str) -> GamedpError:
        return GamedpError(f"{self._where()} {what}, so the work cannot go on; it stopped, and what was finished "
                           "is kept: run the same command again to resume")

    def _where(self) -> str:
        if self._workers is not None:
            return "the local cluster"
        return f"the scheduler at {self._address}" if self._address else \
            f"the scheduler of {self._scheduler_file}"

    def slots(self) -> int:
        """How many jobs run at once: a local cluster's workers (one thread each), else the cluster's worker
        threads now (a round trip to the scheduler; at least 1)."""
        if self._workers is not None:
            return max(1, self._workers)
        return max(1, sum(self.client.nthreads().values()))

    def close(self) -> None:
        # Closing a cluster whose processes were killed can fail in Dask's own ways: nothing left to say then.
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
            self._client = None
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()
            self.cluster = None
        if self._settings is not None:
            self._settings.__exit__(None, None, None)
            self._settings = None
            _quiet_forks(False)

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: Whether a process forked from this one now is a local cluster's worker (see :func:`_quiet_forks`).
_forks_quiet = False


def _quiet_forks(on: bool) -> None:
    """While ``on``, a process forked from this one (a local cluster's worker: the cluster forks nothing else) writes
    its Python stderr nowhere. A worker whose nanny is gone fails as it closes, and the process that ran it prints
    that traceback to stderr, past Dask's loggers (seen when workers are killed again and again); a job's own
    error reaches the solver through its future, not through a worker's stderr."""
    global _forks_quiet
    _forks_quiet = on


def _silence_if_quiet() -> None:
    global _forks_quiet
    if _forks_quiet:
        _forks_quiet = False
        sys.stderr = open(os.devnull, "w")  # the process's stream, open until it ends


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_silence_if_quiet)


def _unread_report(record: Any) -> bool:
    """Whether Dask's client logs ``record``: not the traceback of a scheduler message its report handler could not
    read (say, a job's failure that was no exception), since :meth:`DaskExecutor.run` finds the job that message
    ended and stops in one line."""
    return not (record.exc_info and record.funcName == "_handle_report")


def _wait_some(futures: set) -> tuple[set, set]:
    """Those of ``futures`` done within a second (none, if none is), and the others."""
    from distributed import wait

    try:
        done = wait(futures, timeout=1.0, return_when="FIRST_COMPLETED")
    except TimeoutError:
        return set(), futures
    return done.done, done.not_done


def _prompt_worker(dask_worker: Any = None) -> None:
    """A worker's half of :meth:`DaskExecutor._prompt` (``client.run`` passes the worker)."""
    stream = getattr(dask_worker, "batched_stream", None)
    if hasattr(stream, "interval"):
        stream.interval = PROMPT


def most_workers() -> tuple[int, str]:
    """How many local workers this machine can hold (at least 1), and what bounds it, in words: the memory
    available (:data:`WORKER_MEMORY` each) or the open files this process may have (:data:`WORKER_FILES` each)."""
    import resource

    from gamedp.memory import available_memory

    have = available_memory()
    by_memory = have // WORKER_MEMORY
    files, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    by_files = (files - FILES_RESERVE) // WORKER_FILES if files != resource.RLIM_INFINITY else by_memory
    if by_files < by_memory:
        return max(1, by_files), f"each takes {WORKER_FILES} open files and `ulimit -n` allows {files:,}"
    return max(1, by_memory), (f"each takes about {WORKER_MEMORY >> 20} MB and {have >> 20:,} MB are available")


def read_scheduler_file(path: str, deadline: float, timeout: float) -> str:
    """The scheduler's address in Dask scheduler file ``path``, waiting until ``deadline`` (time.monotonic) for the
    file to appear (a scheduler that is starting writes it). Only a regular file is read, and at most
    :data:`SCHEDULER_FILE_LIMIT` bytes of it: never a device (``/dev/zero``), never a FIFO (which would wait for a
    writer). Only a file this user owns and no one else may write is read (:func:`gamedp.trust.untrusted`): a
    cluster is trusted with this process, since what its scheduler and workers send back is unpickled here, so
    code another user planted there would run as this user."""
    import json
    import stat

    from gamedp.database import kind_of
    from gamedp.trust import refusal, untrusted

    where = f"--scheduler-file {path}"
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            if time.monotonic() < deadline:
                time.sleep(0.1)
                continue
            raise GamedpError(f"no scheduler file at {path} after {timeout:g} s: check the path, or start the "
                              f"scheduler with --scheduler-file {path}") from None
        except OSError as e:
            raise GamedpError(f"cannot read {where}: {e.strerror or e}") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise GamedpError(f"{where} is {kind_of(st.st_mode)}, not a regular file: give the file a Dask "
                                  "scheduler wrote (dask scheduler --scheduler-file PATH)")
            why = untrusted(st)
            if why is not None:  # its scheduler's workers would run code in this process (see the docstring)
                raise GamedpError(f"--scheduler-file {refusal(path, why, 'give the file of a scheduler you started')}")
            data = os.read(fd, SCHEDULER_FILE_LIMIT + 1) if st.st_size <= SCHEDULER_FILE_LIMIT else b""
            size = max(st.st_size, len(data))
        finally:
            os.close(fd)
        if size > SCHEDULER_FILE_LIMIT:
            raise GamedpError(f"{where} is not a Dask scheduler file: it holds {size:,} bytes, and those hold a "
                              "few hundred")
        if data or time.monotonic() >= deadline:
            break
        time.sleep(0.1)  # empty: its scheduler may be writing it
    not_one = f"{where} is not a Dask scheduler file"
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise GamedpError(f"{not_one}: not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise GamedpError(f"{not_one}: not JSON (line {e.lineno}, column {e.colno}: {e.msg[:1].lower()}"
                          f"{e.msg[1:]})") from None
    address = doc.get("address") if isinstance(doc, dict) else None
    if not isinstance(address, str):
        raise GamedpError(f'{not_one}: no "address" of a scheduler in it')
    return address


def connect(address: str, where: str, deadline: float, timeout: float) -> Any:
    """A Dask client of the scheduler at ``address`` by ``deadline`` (time.monotonic), else one line naming why
    (``where`` names the address for the user; ``timeout`` is the time allowed, as said). Dask's own connect
    waits past its timeout on a listener that accepts and stays silent, and reads an HTTP server's answer as a
    message of gigabytes: so it runs in a thread of its own, given up at the deadline."""
    from distributed.comm import parse_address

    try:
        scheme, location = parse_address(address)
    except ValueError as e:
        raise GamedpError(f"{where}: not a scheduler address ({e}); give tcp://HOST:PORT") from None
    if scheme == "tls":
        from distributed.security import Security

        if Security().get_connection_args("client").get("ssl_context") is None:
            raise GamedpError(f"{where}: tls:// needs Dask's TLS settings (distributed.comm.tls: a CA file, and "
                              "the client's certificate and key, in Dask's configuration); or use tcp://")
    elif scheme != "tcp":
        raise GamedpError(f"{where}: gamedp reaches Dask schedulers over tcp:// (or tls://), not {scheme}://")
    _probe(location, where, deadline, timeout)
    return _client_by(address, where, deadline, timeout)


def _probe(location: str, where: str, deadline: float, timeout: float) -> None:
    """Open and close a TCP connection to ``location``: no listener there, or no route, is said at once (Dask
    would retry it until its timeout and then say only that it timed out)."""
    import socket

    from distributed.comm.addressing import parse_host_port

    try:
        host, port = parse_host_port(location, 8786)
        socket.create_connection((host, port), timeout=max(deadline - time.monotonic(), 0.01)).close()
    except ValueError as e:
        raise GamedpError(f"{where}: not a scheduler address ({e}); give tcp://HOST:PORT") from None
    except ConnectionRefusedError:
        raise GamedpError(f"{where}: connection refused: nothing listens there; check the host and port, and "
                          "that the scheduler runs") from None
    except TimeoutError:
        raise GamedpError(f"{where}: no answer within {timeout:g} s (is the host up, and the port open?)") from None
    except OSError as e:
        raise GamedpError(f"{where}: cannot connect: {e.strerror or e}") from None


def _client_by(address: str, where: str, deadline: float, timeout: float) -> Any:
    from distributed import Client

    done: dict[str, Any] = {}
    late = threading.Event()

    def reach() -> None:
        try:
            client = Client(address, timeout=max(deadline - time.monotonic(), 0.1))
        except BaseException as e:
            done["error"] = e
            return
        done["client"] = client
        if late.is_set():  # given up on meanwhile: nobody else will close it
            client.close()

    thread = threading.Thread(target=reach, name="gamedp-connect", daemon=True)
    thread.start()
    thread.join(max(deadline - time.monotonic(), 0) + 0.5)
    late.set()
    if "client" in done:
        return done["client"]
    error = done.get("error")
    if error is None:
        raise GamedpError(f"{where}: no answer as a Dask scheduler within {timeout:g} s: something accepts "
                          "connections there, but it is not a Dask scheduler, or a busy one; check the address")
    if isinstance(error, (OSError, TimeoutError)):
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise GamedpError(f"{where}: cannot reach a Dask scheduler within {timeout:g} s ({first})")
    raise GamedpError(f"{where}: the server there answered, but not as a Dask scheduler ({type(error).__name__}); "
                      "check the address")


def cluster_option(workers: int | None, address: str | None, scheduler_file: str | None) -> str | None:
    """The option that names where to run (``--workers``, ``--cluster`` or ``--scheduler-file``), None where none
    does; more than one is an error.

    >>> cluster_option(None, "tcp://h:8786", None), cluster_option(None, None, None)
    ('--cluster', None)
    """
    given = [name for name, v in (("--workers", workers), ("--cluster", address),
                                  ("--scheduler-file", scheduler_file)) if v is not None]
    if len(given) > 1:
        raise InputError(f"{' and '.join(given)} cannot be used together: choose one place to run the work")
    return given[0] if given else None


def make_executor(workers: int | None = None, address: str | None = None, scheduler_file: str | None = None,
                  preload: Callable[[], None] | None = None) -> LocalExecutor | DaskExecutor:
    """The executor the options ask for (at most one of them); ``preload`` as for :class:`DaskExecutor`."""
    if cluster_option(workers, address, scheduler_file) is None:
        return LocalExecutor()
    return DaskExecutor(workers, address, scheduler_file, preload=preload)
