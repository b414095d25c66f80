"""The runner: bounded queue, prompt stop, failures as events, end marker, flat memory."""

import threading
import time
import tracemalloc

from solvers.engine.runner import SolverRun
from solvers.events import Failure, Progress, Result, Status


def endless(counter=None):
    n = 0
    while True:
        n += 1
        if counter is not None:
            counter.append(n)
        yield Progress({"nodes": n})


def slow_heartbeats():
    while True:
        time.sleep(0.01)
        yield Progress({})


def drained(run):
    """Every event of the run, polled until its end marker."""
    events = []
    while not run.finished:
        events += run.poll()
        time.sleep(0.001)
    return events


def test_events_arrive_in_order_and_end_is_marked():
    def stream():
        for i in range(5):
            yield Progress({"nodes": i})
        yield Result(Status.SOLVED)

    with SolverRun(stream, maxsize=2) as run:
        events = drained(run)
    assert [e.stats["nodes"] for e in events[:-1]] == [0, 1, 2, 3, 4]
    assert isinstance(events[-1], Result)
    assert run.finished


def test_bounded_queue_makes_a_fast_solver_wait():
    produced = []
    run = SolverRun(lambda: endless(produced), maxsize=8).start()
    time.sleep(0.2)
    # the worker can be at most one event ahead of a full queue
    assert len(produced) <= 8 + 2
    assert run.stop()


def test_stop_is_honoured_quickly_while_consumer_is_not_draining():
    run = SolverRun(endless, maxsize=4).start()
    time.sleep(0.05)
    started = time.perf_counter()
    assert run.stop(timeout=0.2)
    assert time.perf_counter() - started < 0.2
    assert not run.running


def test_stop_while_draining_a_slow_generator():
    run = SolverRun(slow_heartbeats).start()
    run.poll(10)
    started = time.perf_counter()
    assert run.stop()
    assert time.perf_counter() - started < 0.2


def test_an_exception_becomes_a_failure_event_then_the_end():
    def broken():
        yield Progress({})
        raise ZeroDivisionError("boom")

    with SolverRun(broken) as run:
        events = drained(run)
    assert isinstance(events[0], Progress)
    assert isinstance(events[1], Failure) and "ZeroDivisionError: boom" in events[1].message
    assert run.finished


def test_generator_is_closed_in_its_own_thread_on_stop():
    closed_in = []

    def stream():
        try:
            yield from endless()
        finally:
            closed_in.append(threading.current_thread().name)

    run = SolverRun(stream, name="worker-x").start()
    time.sleep(0.02)
    run.stop()
    assert closed_in == ["worker-x"]


def test_poll_never_blocks_and_stop_twice_is_safe():
    run = SolverRun(slow_heartbeats).start()
    started = time.perf_counter()
    run.poll(1000)
    assert time.perf_counter() - started < 0.05
    assert run.stop() and run.stop()


def test_memory_stays_flat_over_many_events():
    tracemalloc.start()
    with SolverRun(lambda: (Progress({"n": i}) for i in range(50_000)), maxsize=256) as run:
        peak_seen = 0
        count = 0
        while not run.finished:
            count += len(run.poll(512))
            peak_seen = max(peak_seen, tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    assert count == 50_000
    assert peak_seen < 5_000_000


def test_polls_hand_out_every_event_once_in_order_then_the_end():
    with SolverRun(lambda: (Progress({"n": i}) for i in range(2000)), maxsize=16) as run:
        seen = []
        while not run.finished:
            batch = run.poll(5)
            assert len(batch) <= 5
            seen += [event.stats["n"] for event in batch]
            time.sleep(0.0002)
        assert run.poll(5) == []
    assert seen == list(range(2000))


def test_runs_sharing_their_preparation_do_it_one_at_a_time_and_a_stop_ends_the_wait():
    # Two runs started together that need the same tables: the second waits for the first
    # to build them and then finds them built, instead of building a copy of its own beside.
    busy, most, built = [0], [0], []
    release = threading.Event()

    def prepare():
        busy[0] += 1
        most[0] = max(most[0], busy[0])
        try:
            while not built:
                time.sleep(0.002)             # a slice of the work; the other worker may run meanwhile
                yield
                if release.is_set():
                    built.append(threading.current_thread().name)
        finally:
            busy[0] -= 1

    def stream():
        yield Result(Status.SOLVED if built else Status.FAILED)

    runs = [SolverRun(stream, name=f"run {k}", prepare=prepare).start() for k in range(2)]
    time.sleep(0.1)
    waiting = SolverRun(stream, name="stopped", prepare=prepare).start()
    time.sleep(0.05)
    assert waiting.stop(timeout=0.2) and drained(waiting) == []     # stopped while it waited its turn
    release.set()
    results = [drained(run) for run in runs]
    assert most[0] == 1 and len(built) == 1
    assert [[event.status for event in events] for events in results] == [[Status.SOLVED]] * 2
