"""``main.py bench --runner``: the runner's stop latency and memory over a million events."""

from __future__ import annotations

import statistics
import time
import tracemalloc

from solvers.engine.runner import SolverRun
from solvers.events import Progress, Result, Status

MILLION = 1_000_000


def _busy_solver():
    """A solver that never ends and yields as fast as it can (the worst case for stop)."""
    nodes = 0
    while True:
        nodes += 1
        yield Progress({"nodes": nodes})


def stop_latencies(trials: int = 20) -> list[float]:
    latencies = []
    for index in range(trials):
        run = SolverRun(_busy_solver, maxsize=64).start()
        if index % 2:  # half the runs with a consumer that drains, half with one that does not
            for _ in range(50):
                run.poll(64)
        else:
            time.sleep(0.01)
        started = time.perf_counter()
        if not run.stop(timeout=1.0):
            raise RuntimeError("runner did not stop within a second")
        latencies.append(time.perf_counter() - started)
    return latencies


def million_events() -> tuple[int, float, int, int]:
    """(events received, seconds, traced memory after 100k events, peak traced memory)."""
    def stream():
        for index in range(MILLION - 1):
            yield Progress({"nodes": index})
        yield Result(Status.SOLVED)

    tracemalloc.start()
    received, early = 0, 0
    started = time.perf_counter()
    with SolverRun(stream, maxsize=1024) as run:
        while not run.finished:
            received += len(run.poll(4096))
            if not early and received >= 100_000:
                early = tracemalloc.get_traced_memory()[0]
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return received, seconds, early, peak


def main() -> int:
    latencies = stop_latencies()
    print(f"stop latency over {len(latencies)} runs: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms (target < 200 ms)")
    received, seconds, early, peak = million_events()
    print(f"{received:,} events in {seconds:.1f} s ({received / seconds:,.0f}/s); traced memory after "
          f"100k events {early / 1e6:.2f} MB, peak over the run {peak / 1e6:.2f} MB (flat: bounded queue)")
    ok = max(latencies) < 0.2 and received == MILLION and peak < early * 2 + 1_000_000
    return 0 if ok else 1
