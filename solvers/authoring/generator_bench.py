"""``main.py bench --generate RxC``: how long the generator takes, each level checked unique."""

from __future__ import annotations

import json
import statistics
import sys
import time

from game.puzzle import plural
from solvers.authoring import generator, grading
from solvers.engine.verdict import Kind, decide


def main(shape: str, count: int, difficulty: str | None, fleet_json: str | None, seed: int) -> int:
    try:
        rows, cols = (int(part) for part in shape.lower().split("x"))
        fleet = json.loads(fleet_json) if fleet_json else None
    except ValueError:
        print(f"bench: --generate takes ROWSxCOLS (e.g. 10x10), not {shape!r}; --fleet takes JSON", file=sys.stderr)
        return 2
    try:                                # a fleet that cannot be laid on the board: before any work
        generator.checked_request(rows, cols, fleet)
    except generator.GeneratorError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    times, solve_times, failures = [], [], 0
    for index in range(count):
        started = time.perf_counter()
        try:
            puzzle = generator.generate(rows, cols, fleet=fleet, difficulty=difficulty, seed=seed + index)
        except generator.GeneratorError as error:     # e.g. a fleet that cannot fit without touching
            print(f"bench: {error}", file=sys.stderr)
            return 2
        seconds = time.perf_counter() - started
        times.append(seconds)
        verdict = decide(puzzle, timeout=60)
        unique = verdict.kind is Kind.UNIQUE
        said = verdict.stats.get("seconds", 0.0)
        solve_times.append(float(said) if isinstance(said, (int, float)) else 0.0)
        graded = grading.grade(puzzle, verdict.solution) if unique else "-"
        failures += not unique or (difficulty is not None and graded != difficulty)
        print(f"seed {seed + index}: {seconds:6.2f} s, {plural(len(puzzle.hints), 'hint')}, grade {graded}, "
              f"{verdict.kind.value.upper()} (decided in {solve_times[-1] * 1000:.1f} ms)", flush=True)
    asked = f" ({difficulty})" if difficulty else ""
    made = plural(count, f"{rows}x{cols} level")
    print(f"generated {made}{asked}: median {statistics.median(times):.2f} s, "
          f"max {max(times):.2f} s; verdict median {statistics.median(solve_times) * 1000:.1f} ms, "
          f"max {max(solve_times) * 1000:.1f} ms; {failures} not unique or off-grade")
    return 0 if failures == 0 else 1
