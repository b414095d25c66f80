"""``main.py bench --boundary LEVEL``: what the process boundary costs a solver per event.

The same run on both sides of the boundary: a built-in solver's moves drained in this process,
then the same solver run inside a process of its own (``solvers.own.relay``), each move
written as a trace line and read back through the contract checker; and, to tell the reading
side's share, a program (``cat``) that only copies the first run's lines, recorded
beforehand. Each is timed as events per second; the difference of the per-event times is the
boundary's cost. The two processes work at once on two cores, so the slower side sets the pace.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Iterable

from game.puzzle import Puzzle
from solvers.engine import registry, trace
from solvers.events import Event, Result, SetCell, Status

SOLVER = "backtracking"


def _drain(stream: Iterable[Event]) -> tuple[int, float, Result]:
    started = time.perf_counter()
    count, result = 0, None
    for event in stream:
        if type(event) is SetCell:
            count += 1
        elif isinstance(event, Result):
            result = event
    if result is None:                      # (every run ends with one: the protocol)
        raise RuntimeError(f"the run ended without a result, after {count} moves")
    return count, time.perf_counter() - started, result


def measure(puzzle: Puzzle) -> dict:
    """Events per second in process, out of process (a Python solver) and read from a program."""
    figures: dict = {"solver": SOLVER}
    moves, seconds, result = _drain(registry.get(SOLVER).events(puzzle, trace=True))
    figures.update(moves=moves, in_process_s=round(seconds, 3), in_process_per_s=round(moves / seconds))
    relay = registry.get(str(Path(__file__).with_name("relay.py")))
    index = registry.NAMES.index(SOLVER)
    count, seconds, answer = _drain(relay.events(puzzle, options={"solver": index, "time_limit": 3600}))
    if count != moves or answer.status is not Status.SOLVED:
        raise RuntimeError(f"the relayed run differs: {count} moves, {answer.status.value} {answer.message}")
    figures.update(python_process_s=round(seconds, 3), python_process_per_s=round(count / seconds))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.jsonl"
        trace.record_run(puzzle, SOLVER, path)
        lines = Path(folder) / "events.jsonl"
        with open(path, encoding="utf-8") as source, open(lines, "w", encoding="utf-8") as target:
            next(source)
            target.writelines(source)
        count, seconds, answer = _drain(registry.get(f"cmd:cat {lines}").events(puzzle, options={"time_limit": 3600}))
    if count != moves or answer.status is not Status.SOLVED:
        raise RuntimeError(f"the copied run differs: {count} moves, {answer.status.value} {answer.message}")
    figures.update(reading_s=round(seconds, 3), reading_per_s=round(count / seconds))
    per_event = (figures["python_process_s"] - figures["in_process_s"]) / moves
    figures["boundary_us_per_event"] = round(per_event * 1e6, 2)
    figures["reading_us_per_event"] = round(figures["reading_s"] / moves * 1e6, 2)
    return figures


def main(puzzle: Puzzle) -> int:
    figures = measure(puzzle)
    print(", ".join(f"{key} {value}" for key, value in figures.items()))
    return 0
