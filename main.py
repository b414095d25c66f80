"""Battleship Solitaire: play, solve, check, generate and benchmark levels.

    python main.py                      play the built-in first level
    python main.py play LEVEL.bs        play a level (--solver S --autorun to watch a solver)
    python main.py solve PATH...        solve levels (.bs files, folders, corpus .jsonl)
    python main.py check PATH...        validate levels and count their solutions (0, 1, 2+)
    python main.py generate ...         make a new level with a unique solution
    python main.py bench PATH...        solve, verify and time a set of levels

Exit status: 0 all levels loaded and decided; 1 something timed out or failed; 2 usage or
level errors. This file parses arguments and prints; the work is in game/ and solvers/.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys

from game.limits import MAX_DIGITS, MAX_SECONDS, MAX_SIDE
from solvers.engine.registry import NAMES as SOLVER_CHOICES

COMMANDS = ("play", "solve", "check", "generate", "bench")
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
MAX_JOBS = 1024

# ----------------------------------------------------------------- flag values
# Every flag is checked as it is parsed, so a bad value is a usage error (exit 2) with one
# line, never a traceback or a run that cannot mean anything (a NaN timeout, -3 jobs).


def _whole(low: int, high: int):
    def whole(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.lstrip("-").isdigit()) or len(digits) > MAX_DIGITS + 1:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low} to {high}")
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not a whole number from {low} to {high}")
        return value
    return whole


_seed = _whole(0, 10 ** MAX_DIGITS - 1)
_side = _whole(1, MAX_SIDE)


def _seconds(text: str) -> float:
    try:
        value = float(text) if len(text) <= 4 * MAX_DIGITS else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 to {MAX_SECONDS:,}")
    return value


def _fleet(text: str) -> str:
    """A fleet as JSON, checked like a level's fleet; returned as canonical JSON text."""
    from game import levels

    try:
        fleet = levels.parse_fleet(text, "--fleet")
    except levels.LevelError as error:
        raise argparse.ArgumentTypeError(error.reason) from None
    return json.dumps({str(length): count for length, count in fleet})


def _shape(text: str) -> str:
    """ROWSxCOLS, each side from 1 to MAX_SIDE."""
    parts = text.lower().split("x")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not ROWSxCOLS (e.g. 10x10)")
    try:
        rows, cols = (_side(part) for part in parts)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not ROWSxCOLS: {error}") from None
    return f"{rows}x{cols}"


def _add_play(sub) -> None:
    play = sub.add_parser("play", help="open the window (the default command)")
    play.add_argument("level", nargs="?", help="a .bs level (default: the built-in first level)")
    play.add_argument("--solver", choices=SOLVER_CHOICES, help="solver selected in the window")
    play.add_argument("--autorun", action="store_true", help="start the solver at once, at full speed")
    play.add_argument("--exit-after-solve", action="store_true",
                      help="close when the run ends; exit 0 only if it solved the level")
    play.add_argument("--screenshot", metavar="PNG", help="save the final window to this file")
    play.add_argument("--settings", metavar="YAML", help="a settings file to use instead of the user's")


def _add_solve(sub) -> None:
    solve = sub.add_parser("solve", help="solve levels and print the boards (or JSON lines)")
    solve.add_argument("paths", nargs="+", metavar="PATH")
    solve.add_argument("--solver", choices=SOLVER_CHOICES, default="forward")
    solve.add_argument("--seed", type=_seed, default=0, help="random seed (genetic)")
    solve.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS", help="per level (default 60)")
    solve.add_argument("--json", action="store_true", help="one JSON object per level")


def _add_check(sub) -> None:
    check = sub.add_parser("check", help="validate levels and count solutions up to two")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS")
    check.add_argument("--jobs", type=_whole(1, MAX_JOBS), default=None, metavar="N",
                       help="searches racing on N cores for a level that takes time (default: every core)")
    check.add_argument("--json", action="store_true")


def _add_bench(sub) -> None:
    bench = sub.add_parser("bench", help="solve, verify and time every level; write a CSV")
    bench.add_argument("paths", nargs="*", metavar="PATH")
    bench.add_argument("--solver", choices=SOLVER_CHOICES, default="forward")
    bench.add_argument("--seed", type=_seed, default=0)
    bench.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS")
    bench.add_argument("--csv", metavar="FILE", help="where to write the rows (default bench-<solver>.csv)")
    bench.add_argument("--runner", action="store_true",
                       help="measure the thread runner instead: stop latency and memory over a million events")
    bench.add_argument("--generate", metavar="RxC", type=_shape, help="measure the generator instead, e.g. 10x10")
    bench.add_argument("--count", type=_whole(1, 1_000_000), default=10, help="levels to generate (with --generate)")
    bench.add_argument("--difficulty", choices=("easy", "medium", "hard", "expert"), help="with --generate")
    bench.add_argument("--fleet", type=_fleet, help="with --generate: ship length -> count as JSON")


def _add_generate(sub) -> None:
    gen = sub.add_parser("generate", help="make a level with a unique solution")
    gen.add_argument("--rows", type=_side, default=10)
    gen.add_argument("--cols", type=_side, default=None, help="default: same as --rows")
    gen.add_argument("--fleet", type=_fleet, help='ship length -> count as JSON, e.g. \'{"4":1,"3":2}\'')
    gen.add_argument("--difficulty", choices=("easy", "medium", "hard", "expert"))
    gen.add_argument("--seed", type=_seed, default=0)
    gen.add_argument("--minimal", action="store_true", help="remove every redundant hint")
    gen.add_argument("-o", "--output", metavar="FILE", help="write the level here (default: print it)")
    gen.add_argument("--pack", metavar="FOLDER", help="build the whole shipped level pack into FOLDER")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="main.py", description=__doc__.split("\n\n")[0],
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog="Run 'main.py COMMAND --help' for a command's options.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for add in (_add_play, _add_solve, _add_check, _add_generate, _add_bench):
        add(sub)
    return top


def cmd_play(args) -> int:
    from window.app import main as run_window

    return run_window(level=args.level, solver=args.solver, autorun=args.autorun,
                      exit_after_solve=args.exit_after_solve, screenshot=args.screenshot,
                      settings_path=args.settings)


def _exit_code(records: list[dict], decided: tuple[str, ...]) -> int:
    if any(r["status"] == "error" and r.get("level_error") for r in records):
        return EXIT_USAGE
    if all(r["status"] in decided for r in records):
        return EXIT_OK
    return EXIT_FAILED


def cmd_solve(args) -> int:
    from solvers.engine import batch

    records = []
    for ref in batch.expand(args.paths):
        record = batch.solve_record(ref, args.solver, args.timeout, args.seed)
        record["level_error"] = ref.puzzle is None
        records.append(record)
        if args.json:
            print(json.dumps({k: v for k, v in record.items() if k != "level_error"}), flush=True)
        else:
            print(_solve_text(ref, record), flush=True)
    return _exit_code(records, ("solved", "no_solution", "stuck"))


def _solve_text(ref, record: dict) -> str:
    from solvers.engine import batch

    head = f"{record['level']}: {record['status'].replace('_', ' ')}"
    if record["status"] == "error":
        return f"{head}: {_problem(record)}\n"
    stats = ", ".join(f"{k} {v}" for k, v in record["stats"].items() if not isinstance(v, dict))
    board = record.get("solution") or record.get("board")
    return f"{head} ({record['solver']}; {stats})\n{batch.board_text(ref.puzzle, board)}\n"


def _problem(record: dict) -> str:
    """A record's error for a line that already starts with the level's name."""
    error = record.get("error") or ""
    name = f"{record['level']}: "
    return error[len(name):] if error.startswith(name) else error


def cmd_check(args) -> int:
    from solvers.engine import batch

    records = []
    for ref in batch.expand(args.paths):
        record = batch.check_record(ref, args.timeout, args.jobs)
        if ref.puzzle is not None and record["status"] == "unique":
            record.update(_check_extras(ref.puzzle))
        record["level_error"] = ref.puzzle is None
        records.append(record)
        shown = {k: v for k, v in record.items() if k != "level_error"}
        if args.json:
            print(json.dumps(shown), flush=True)
        else:
            extra = f": {_problem(record)}" if record.get("error") else ""
            grade = f", {record['difficulty']}" if record.get("difficulty") else ""
            print(f"{record['level']}: {record['status']}{grade}{extra}", flush=True)
    return _exit_code(records, ("impossible", "unique", "ambiguous"))


def _check_extras(puzzle) -> dict:
    """Grade (by the deduction engine) and redundant hints of a unique level."""
    from solvers.authoring import grading

    return {"difficulty": grading.grade(puzzle),
            "redundant_hints": [list(cell) for cell in grading.redundant_hints(puzzle)]}


def cmd_bench(args) -> int:
    from solvers.engine import batch

    if args.runner:
        from solvers.engine import runner_bench

        return runner_bench.main()
    if args.generate:
        from solvers.authoring import generator_bench

        return generator_bench.main(args.generate, args.count, args.difficulty, args.fleet, args.seed)
    if not args.paths:
        print("bench: give at least one PATH (or --runner)", file=sys.stderr)
        return EXIT_USAGE
    refs = list(batch.expand(args.paths))
    records = []
    bar = batch.ProgressBar(len(refs), f"bench {args.solver}")
    for ref in refs:
        record = batch.solve_record(ref, args.solver, args.timeout, args.seed)
        record["verified"] = record["status"] == "solved" and record["solution"] is not None
        records.append(record)
        bar.advance(record["status"])
    bar.close()
    path = args.csv or f"bench-{args.solver}.csv"
    try:
        _write_csv(path, records)
    except OSError as error:
        print(f"{path}: cannot be written ({error.strerror or error})", file=sys.stderr)
        return EXIT_USAGE
    summary = batch.summarise(records)
    print(batch.summary_table(args.solver, summary))
    statuses = ", ".join(f"{s} {n}" for s, n in batch.status_counts(records).items())
    print(f"statuses: {statuses}\nrows written to {path}")
    return EXIT_OK if summary["solved"] == summary["levels"] else EXIT_FAILED


def _write_csv(path: str, records: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["level", "solver", "status", "verified", "seconds", "nodes", "backtracks", "error"])
        for r in records:
            stats = r.get("stats") or {}
            writer.writerow([r["level"], r["solver"], r["status"], int(bool(r.get("verified"))),
                             stats.get("seconds", ""), stats.get("nodes", ""), stats.get("backtracks", ""),
                             r.get("error", "")])


def cmd_generate(args) -> int:
    from game import levels
    from solvers.authoring import generator

    if args.pack:
        try:
            written = generator.build_pack(args.pack, seed=args.seed)
        except OSError as error:
            print(f"{args.pack}: cannot be written ({error.strerror or error})", file=sys.stderr)
            return EXIT_USAGE
        print(f"wrote {len(written)} levels under {args.pack}")
        return EXIT_OK
    try:
        fleet = json.loads(args.fleet) if args.fleet else None  # checked by _fleet
        puzzle = generator.generate(args.rows, args.cols or args.rows, fleet=fleet, difficulty=args.difficulty,
                                    seed=args.seed, minimal=args.minimal)
    except (ValueError, levels.LevelError) as error:
        print(f"generate: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.output:
        try:
            levels.save(puzzle, args.output)
        except OSError as error:
            print(f"{args.output}: cannot be written ({error.strerror or error})", file=sys.stderr)
            return EXIT_USAGE
        print(f"wrote {args.output} ({puzzle.rows}x{puzzle.cols}, {puzzle.difficulty}, {len(puzzle.hints)} hints)")
    else:
        sys.stdout.write(levels.dumps(puzzle))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        argv = ["play", *argv]
    args = parser().parse_args(argv)
    handler = {"play": cmd_play, "solve": cmd_solve, "check": cmd_check,
               "generate": cmd_generate, "bench": cmd_bench}[args.command or "play"]
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
