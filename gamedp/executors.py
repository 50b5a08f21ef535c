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

import importlib.util
import sys
from typing import Any, Callable, Sequence

from gamedp.errors import GamedpError, InputError

#: Seconds to wait for an existing scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 10
#: How a local cluster starts its workers: forked from this process (0.2 s, and with what ``preload`` loaded)
#: where that is safe, rather than spawned (a fresh interpreter each: 1.7 s, then numba and the kernels loaded
#: again in every worker, seconds of a 6x4 solve's 16).
START_METHOD = "fork" if sys.platform == "linux" else "spawn"
#: What a local cluster's processes do besides the tasks, turned down: a shard's kernel holds the GIL for up to a
#: second, and a worker's sampling profiler every 10 ms and event-loop checks every 20 ms only wait on it, or take
#: it from the task in between (the kernels of a 6x4 solve on 1 worker ran 3-5% slower than in this process, and
#: as fast without them).
QUIET_CLUSTER = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
                 "distributed.admin.system-monitor.interval": "5s"}
#: Seconds between a local cluster's batches of messages (client to scheduler, scheduler to workers and back):
#: Dask's 2-10 ms suit many tasks over a network, but a tier is a barrier of a few tasks, so each tier waited on
#: them (a barrier of 4 trivial tasks on 2 workers took 15 ms, 9 ms with this; a 6x4 solve has 25 barriers).
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
                 timeout: float = CONNECT_TIMEOUT, preload: Callable[[], None] | None = None):
        if importlib.util.find_spec("distributed") is None:
            raise GamedpError("--workers, --cluster and --scheduler-file need Dask: pip install 'dask[distributed]'")
        self.cluster = self._client = None
        self._last: list = []
        self._workers, self._address, self._scheduler_file = workers, address, scheduler_file
        self._timeout, self._preload = timeout, preload
        if workers is None:
            self.start()

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
        logging.getLogger("distributed").setLevel(logging.ERROR if self._workers is None else logging.CRITICAL)
        try:
            if self._workers is not None:
                if self._preload is not None:
                    self._preload()
                # One task at a time per worker thread (Dask's default sends 2 to each of its 1-thread workers,
                # which can give one worker both pieces of a tier while the other waits).
                with dask.config.set({"distributed.worker.multiprocessing-method": START_METHOD,
                                      "distributed.scheduler.worker-saturation": 1.0, **QUIET_CLUSTER}):
                    # No dashboard: the scheduler's HTTP server (health and metrics only) on a free port of this
                    # machine; Dask's default, 8787 on every address, warned on four lines wherever it was taken.
                    self.cluster = LocalCluster(n_workers=self._workers, threads_per_worker=1, processes=True,
                                                dashboard_address=None,
                                                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
                self._client = Client(self.cluster)
                self._prompt()
            elif self._scheduler_file is not None:
                self._client = Client(scheduler_file=self._scheduler_file, timeout=self._timeout)
            else:
                self._client = Client(self._address, timeout=self._timeout)
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            where = f"the scheduler at {self._address}" if self._address else \
                f"the scheduler file {self._scheduler_file}" if self._scheduler_file else "a local cluster"
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise InputError(f"cannot reach {where} within {self._timeout:g} s ({first}); check the address, or "
                             "use --workers N for a local cluster") from None

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
        from distributed import as_completed

        futures = self.client.map(fn, list(jobs), pure=False)
        # The last batch's futures are released only now: releasing them sends the scheduler a message, and the
        # client sends at most one batch of messages per 10 ms, so a release just before this map held it back
        # ~10 ms (a tier's start, 25 times in a 6x4 solve).
        self._last = futures
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future in as_completed(futures):
                if future.status != "finished":
                    future.result()  # raises the job's error
                on_done(jobs[index[future.key]])
        except BaseException:
            self.client.cancel(futures)
            raise

    def slots(self) -> int:
        """How many jobs run at once: a local cluster's workers (one thread each), else the cluster's worker
        threads now (a round trip to the scheduler; at least 1)."""
        if self._workers is not None:
            return max(1, self._workers)
        return max(1, sum(self.client.nthreads().values()))

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _prompt_worker(dask_worker: Any = None) -> None:
    """A worker's half of :meth:`DaskExecutor._prompt` (``client.run`` passes the worker)."""
    stream = getattr(dask_worker, "batched_stream", None)
    if hasattr(stream, "interval"):
        stream.interval = PROMPT


def make_executor(workers: int | None = None, address: str | None = None, scheduler_file: str | None = None,
                  preload: Callable[[], None] | None = None) -> LocalExecutor | DaskExecutor:
    """The executor the options ask for (at most one of them); ``preload`` as for :class:`DaskExecutor`."""
    given = [name for name, v in (("--workers", workers), ("--cluster", address),
                                  ("--scheduler-file", scheduler_file)) if v is not None]
    if len(given) > 1:
        raise InputError(f"{' and '.join(given)} cannot be used together: choose one place to run the shards")
    if not given:
        return LocalExecutor()
    return DaskExecutor(workers, address, scheduler_file, preload=preload)
