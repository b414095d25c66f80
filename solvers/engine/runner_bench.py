"""``main.py bench --runner``: the runner's stop latency and memory over a million events.

It reports what it measures (median and worst stop latency over many stops, traced memory
sampled every 100,000 events) and fails only on faults, never on timing noise: a stop that
takes more than a second (the runner hangs), an event lost, or traced memory that grows
with the number of events (a leak; the bounded queue keeps it flat).
"""

from __future__ import annotations

import statistics
import time
import tracemalloc

from solvers.engine.runner import SolverRun
from solvers.events import Progress, Result, Status

MILLION = 1_000_000
SAMPLE_EVERY = 100_000
STOP_TRIALS = 20
STOP_FAULT = 1.0                # seconds: a stop slower than this is a hang, not noise
LEAK_FAULT = 8_000_000          # bytes of growth from the first to the last sample: 10 bytes
                                # per event over 800,000 events; the bounded queue's own
                                # swing (up to a few thousand events in flight) is under 2 MB


def _busy_solver():
    """A solver that never ends and yields as fast as it can (the worst case for stop)."""
    nodes = 0
    while True:
        nodes += 1
        yield Progress({"nodes": nodes})


def stop_latencies() -> list[float]:
    """Seconds each of ``STOP_TRIALS`` stops took; ``inf`` for a stop not honoured within STOP_FAULT."""
    latencies = []
    for index in range(STOP_TRIALS):
        run = SolverRun(_busy_solver, maxsize=64).start()
        if index % 2:  # half the runs with a consumer that drains, half with one that does not
            for _ in range(50):
                run.poll(64)
        else:
            time.sleep(0.01)
        started = time.perf_counter()
        stopped = run.stop(timeout=STOP_FAULT)
        latencies.append(time.perf_counter() - started if stopped else float("inf"))
    return latencies


def million_events() -> tuple[int, float, list[int], int]:
    """(events received, seconds, traced memory sampled every SAMPLE_EVERY events, peak)."""
    def stream():
        for index in range(MILLION - 1):
            yield Progress({"nodes": index})
        yield Result(Status.SOLVED)

    tracemalloc.start()
    received = 0
    samples: list[int] = []
    started = time.perf_counter()
    with SolverRun(stream, maxsize=1024) as run:
        while not run.finished:
            received += len(run.poll(4096))
            if received >= SAMPLE_EVERY * (len(samples) + 1):
                samples.append(tracemalloc.get_traced_memory()[0])
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return received, seconds, samples, peak


def faults(latencies: list[float], received: int, samples: list[int]) -> list[str]:
    """What went wrong, if anything; timing and memory noise below the fault lines is not."""
    found = []
    slow = sum(latency > STOP_FAULT for latency in latencies)
    if slow:
        found.append(f"{slow} of {len(latencies)} stops not honoured within {STOP_FAULT:.0f} s")
    if received != MILLION:
        found.append(f"{received:,} events received of {MILLION:,}")
    if len(samples) >= 2 and samples[-1] - samples[0] > LEAK_FAULT:
        found.append(f"traced memory grew by {(samples[-1] - samples[0]) / 1e6:.1f} MB between the "
                     f"{SAMPLE_EVERY:,}th and the {SAMPLE_EVERY * len(samples):,}th event (a leak)")
    return found


def main() -> int:
    latencies = stop_latencies()
    honoured = [latency for latency in latencies if latency <= STOP_FAULT]
    if honoured:
        print(f"stop latency over {len(latencies)} stops: median {statistics.median(honoured) * 1000:.1f} ms, "
              f"max {max(honoured) * 1000:.1f} ms")
    received, seconds, samples, peak = million_events()
    mb = [sample / 1e6 for sample in samples] or [0.0]
    print(f"{received:,} events in {seconds:.1f} s ({received / seconds:,.0f}/s); traced memory every "
          f"{SAMPLE_EVERY:,} events: median {statistics.median(mb):.2f} MB, "
          f"first {mb[0]:.2f} MB, last {mb[-1]:.2f} MB; peak {peak / 1e6:.2f} MB")
    found = faults(latencies, received, samples)
    for fault in found:
        print(f"FAULT: {fault}")
    if not found:
        print(f"no faults (a fault is a stop over {STOP_FAULT:.0f} s, a lost event, or growth over "
              f"{LEAK_FAULT / 1e6:.0f} MB)")
    return 1 if found else 0
