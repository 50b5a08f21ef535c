"""What a tier's barrier costs on Dask, with nothing to compute: the floor under the tier solver's speed-up.

A tier solve on a cluster is a chain of barriers (each tier's pieces need the whole tier above them). This runs
``--tiers`` barriers of one trivial task per worker on a local cluster (the tier solver's own, with its settings:
forked workers, 1 ms message batches, a quiet event loop) three ways, rounds interleaved, and prints the medians
per barrier:

- the client maps each tier's tasks after the last tier's finish (what the tier solver does);
- the whole chain submitted at once as one graph: each tier's tasks, then a seal task depending on them, then the
  next tier's tasks depending on the seal (the scheduler starts each as soon as what it needs is there);
- Dask actors, one per worker, called directly by the client (no scheduler in between, but a dead worker's calls
  are not run again, which the tier solver's retries rest on).

    python bench/bench_dask_barriers.py --workers 2 --tiers 25 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time


def piece(i: int, *after: object) -> None:
    return None


class Runner:
    """An actor: one lives on each worker."""

    def run(self, i: int) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tiers", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    from gamedp.executors import DaskExecutor

    with DaskExecutor(workers=args.workers) as executor:
        client = executor.client
        slots = range(executor.slots())
        actors = [client.submit(Runner, actor=True, workers=[w], pure=False).result()
                  for w in client.scheduler_info()["workers"]]

        def mapped() -> None:
            for _ in range(args.tiers):
                executor.run(piece, list(slots), lambda job: None)

        def one_graph() -> None:
            seal = None
            for _ in range(args.tiers):
                tier = [client.submit(piece, i, *([seal] if seal is not None else []), pure=False) for i in slots]
                seal = client.submit(piece, -1, *tier, pure=False)
            seal.result()

        def direct() -> None:
            for _ in range(args.tiers):
                for call in [a.run(i) for i, a in zip(slots, actors)]:
                    call.result()

        ways = {"client maps each tier (the tier solver)": mapped, "one graph, a seal task per tier": one_graph,
                "actors, called directly": direct}
        times: dict[str, list[float]] = {label: [] for label in ways}
        for _ in range(args.rounds):
            for label, way in ways.items():
                began = time.perf_counter()
                way()
                times[label].append((time.perf_counter() - began) / args.tiers)
    print(f"\n## {args.tiers} barriers of {args.workers} trivial tasks on a local cluster of {args.workers} workers "
          f"({args.rounds} rounds, medians)")
    print(f"{'way':<44}{'ms a barrier':>14}{'min':>8}")
    for label, seconds in times.items():
        print(f"{label:<44}{1000 * statistics.median(seconds):>14.2f}{1000 * min(seconds):>8.2f}")


if __name__ == "__main__":
    main()
