"""CP-SAT reference times for the exact search (a comparison only; the game never imports it).

Usage, from the repository's top folder:

    python docs/bench/cpsat_reference.py PATH.jsonl [--limit 1|2] [--workers 1] [--timeout S]
                                         [--no-relaxation]

The first run creates ``.venv-ref`` beside the repository's files with ``ortools`` in it (the
game's own requirements never hold it) and runs itself again there. The model is the game's
placement model (``game.ships``): one Boolean per compatible placement, one per cell; a cell
is ship exactly when one placement covers it; a placed ship's halo is water; each length has
its count of ships; each tallied line its tally. ``--limit 1`` finds a solution, ``--limit 2``
also proves it unique (a second search with the first solution excluded). ``--no-relaxation``
turns off CP-SAT's linear relaxation (``linearization_level=0``), its fastest setting on the
dense boards without hints, where the relaxation costs far more than it prunes. Prints one line
per level, then the totals; the times are CP-SAT's own wall times (model building excluded).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
VENV = TOP / ".venv-ref"


def _in_reference_venv() -> None:
    """Run this script again in ``.venv-ref`` (created with ortools on first use)."""
    try:
        import ortools  # noqa: F401
        return
    except ImportError:
        pass
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "ortools"], check=True)
    os.execv(str(python), [str(python), *sys.argv])


def solve(puzzle, limit: int, workers: int, timeout: float,
          relaxation: bool = True) -> tuple[str, int, float]:
    from ortools.sat.python import cp_model

    from game.puzzle import Hint
    from game.ships import compatible, geometry_of

    geo = geometry_of(puzzle)
    alive = compatible(puzzle, geo)
    model = cp_model.CpModel()
    chosen = {p: model.NewBoolVar(f"p{p}") for p in range(len(geo.placements)) if (alive >> p) & 1}
    cells = {}
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            i = r * geo.stride + c
            var = cells[r, c] = model.NewBoolVar(f"c{r}_{c}")
            over = [v for p, v in chosen.items() if (geo.p_cells[p] >> i) & 1]
            model.Add(sum(over) == var)
            for p, v in chosen.items():
                if (geo.p_halo[p] >> i) & 1:
                    model.AddImplication(v, var.Not())
    for (r, c), hint in puzzle.hints.items():
        model.Add(cells[r, c] == (0 if hint is Hint.WATER else 1))
    for length, count in puzzle.fleet:
        model.Add(sum(v for p, v in chosen.items() if geo.p_length[p] == length) == count)
    for r, tally in enumerate(puzzle.row_tallies):
        if tally is not None:
            model.Add(sum(cells[r, c] for c in range(puzzle.cols)) == tally)
    for c, tally in enumerate(puzzle.col_tallies):
        if tally is not None:
            model.Add(sum(cells[r, c] for r in range(puzzle.rows)) == tally)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = timeout
    if not relaxation:
        solver.parameters.linearization_level = 0
    found = 0
    seconds = 0.0
    status = "no_solution"
    for _ in range(limit):
        outcome = solver.Solve(model)
        seconds += solver.WallTime()
        if outcome not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if outcome == cp_model.UNKNOWN:
                status = "timeout"
            break
        found += 1
        status = "solved"
        ship = [v for v in cells.values() if solver.Value(v)]
        model.AddBoolOr([v.Not() for v in ship])          # the next search must differ
    return status, found, seconds


def main() -> int:
    _in_reference_venv()
    sys.path.insert(0, str(TOP))
    from game.levels import LevelError, iter_corpus

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--limit", type=int, default=1, choices=(1, 2))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--no-relaxation", action="store_true", help="linearization_level=0")
    args = parser.parse_args()
    total = 0.0
    counts: dict[str, int] = {}
    started = time.perf_counter()
    for ident, puzzle in iter_corpus(args.path):
        if isinstance(puzzle, LevelError):
            print(f"{ident}: skipped ({puzzle})")
            continue
        status, found, seconds = solve(puzzle, args.limit, args.workers, args.timeout,
                                       relaxation=not args.no_relaxation)
        total += seconds
        counts[status] = counts.get(status, 0) + 1
        print(f"{ident}\t{status}\tsolutions={found}\t{seconds:.3f} s", flush=True)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"total CP-SAT time {total:.2f} s ({summary}; wall {time.perf_counter() - started:.1f} s, "
          f"limit {args.limit}, {args.workers} worker(s){', no relaxation' if args.no_relaxation else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
