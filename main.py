"""Battleship Solitaire: play, solve, check, generate and benchmark levels.

    python main.py                      play the built-in first level
    python main.py play LEVEL.bs        play a level (--solver S --autorun to watch a solver)
    python main.py solve PATH...        solve levels (.bs files, folders, corpus .jsonl)
    python main.py check PATH...        validate levels and count their solutions (0, 1, 2+)
    python main.py generate ...         make a new level with a unique solution
    python main.py bench PATH...        solve, verify and time a set of levels
    python main.py print PATH... -o F   printable sheets (PDF, or PNG pages), with solutions if asked
    python main.py convert IN OUT       convert a level between .bs and the formats in circulation
    python main.py race LEVEL           run several solvers on one level and rank them
    python main.py replay TRACE.jsonl   show the board at any event of a saved run
    python main.py solvers              list every solver and its options
    python main.py new-solver PATH.py   write a solver of your own to start from, and its test
    python main.py code PATH...         print each level's share code (bs1-...), which any command takes as a level
    python main.py daily [--date D]     the day's puzzle, the same for everyone on that date

Exit status: 0 all levels loaded and decided; 1 something timed out or failed; 2 usage or
level errors. This file parses arguments and prints; the work is in game/ and solvers/.
"""

from __future__ import annotations

import argparse
import errno
import json
import math
import os
import signal
import sys
from typing import Iterable, Iterator


def _stops() -> tuple[int, ...]:
    """The signals that end a command as Ctrl-C does: SIGINT, SIGTERM (a session logging out),
    and SIGHUP (its terminal closed) unless the program was started to ignore it (``nohup``)."""
    hang_up = getattr(signal, "SIGHUP", None)
    return (signal.SIGINT, signal.SIGTERM) + (
        (hang_up,) if hang_up is not None and signal.getsignal(hang_up) is not signal.SIG_IGN else ())


def _said(signum: int) -> bytes:
    """The line a command ended by ``signum`` leaves."""
    return b"interrupted\n" if signum == signal.SIGINT else b"terminated\n"


def _interrupted_loading(signum: int, frame) -> None:
    """Ctrl-C (or another of ``_stops``) while the program is still loading, or once it is done:
    nothing is being written, so it ends at once with the line and status of any interrupt,
    not a traceback from whichever import the signal fell in."""
    try:
        os.write(2, _said(signum))
    finally:
        os._exit(128 + signum)


if __name__ == "__main__":
    for _signum in _stops():
        signal.signal(_signum, _interrupted_loading)

from game.limits import MAX_DIGITS, MAX_SECONDS, MAX_SIDE  # noqa: E402 (after the handler: Ctrl-C while loading)
from solvers.engine.registry import NAMES as SOLVER_CHOICES  # noqa: E402

COMMANDS = ("play", "solve", "check", "generate", "bench", "print", "convert", "race", "replay", "solvers",
            "new-solver", "code", "daily")
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MAX_JOBS = 1024

# ----------------------------------------------------------------- flag values
# Every flag is checked as it is parsed, so a bad value is a usage error (exit 2) with one
# line, never a traceback or a run that cannot mean anything (a NaN timeout, -3 jobs).


def _shown(text: str) -> str:
    """A flag's value as its one-line error shows it: quoted, cut when it is long, with its length."""
    from game.levels import short_repr

    return short_repr(text, size=True)


def _named(path) -> str:
    """A file's name as a one-line message shows it (``game.files.shown``)."""
    from game.files import shown

    return shown(path)


def _whole(low: int, high: int):
    def whole(text: str) -> int:
        digits = text.strip()
        if not (digits.isascii() and digits.lstrip("-").isdigit()) or len(digits) > MAX_DIGITS + 1:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number from {low} to {high}")
        value = int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not a whole number from {low} to {high}")
        return value
    return whole


def _one_of(*options):
    """A flag that takes one of ``options`` (argparse's own ``choices`` would repeat a value of
    any length in its error)."""
    def one_of(text: str):
        for option in options:
            if text == str(option):
                return option
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not one of {', '.join(map(str, options))}")
    return one_of


def _choices(*options) -> dict:
    """The ``type`` and ``metavar`` of a flag that takes one of ``options``, shown as ``choices`` shows them."""
    return {"type": _one_of(*options), "metavar": "{" + ",".join(map(str, options)) + "}"}


DIFFICULTIES = ("easy", "medium", "hard", "expert")
_seed = _whole(0, 10 ** MAX_DIGITS - 1)
_side = _whole(1, MAX_SIDE)


def _seconds(text: str) -> float:
    try:
        value = float(text) if len(text) <= 4 * MAX_DIGITS else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number of seconds from 0 to {MAX_SECONDS:,}")
    return value


def _solver(text: str) -> str:
    """A solver's name: built in, installed, a Python file (mine.py) or a program (cmd:./mine)."""
    from solvers.engine import registry

    try:
        registry.get(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


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
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not ROWSxCOLS (e.g. 10x10)")
    try:
        rows, cols = (_side(part) for part in parts)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not ROWSxCOLS: {error}") from None
    return f"{rows}x{cols}"


def _add_play(sub) -> None:
    play = sub.add_parser("play", help="open the window (the default command)")
    play.add_argument("level", nargs="?", help="a level file or a share code (default: the built-in first level)")
    play.add_argument("--solver", type=_solver, help="solver selected in the window")
    play.add_argument("--autorun", action="store_true", help="start the solver at once, at full speed")
    play.add_argument("--exit-after-solve", action="store_true",
                      help="close when the run ends; exit 0 only if it solved the level")
    play.add_argument("--screenshot", metavar="PNG", help="save the final window to this file")
    play.add_argument("--settings", metavar="YAML", help="a settings file to use instead of the user's")


def _add_solve(sub) -> None:
    solve = sub.add_parser("solve", help="solve levels and print the boards (or JSON lines)")
    solve.add_argument("paths", nargs="+", metavar="PATH")
    solve.add_argument("--solver", type=_solver, default="forward",
                       help=f"{', '.join(SOLVER_CHOICES)}, an installed one, a file mine.py or cmd:PROGRAM "
                            "(default forward)")
    solve.add_argument("--seed", type=_seed, default=0, help="random seed (genetic; default 0)")
    solve.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS", help="per level (default 60)")
    solve.add_argument("--json", action="store_true", help="one JSON object per level")
    solve.add_argument("--trace", metavar="FILE.jsonl", help="save the run (one level) as a trace")


def _add_check(sub) -> None:
    check = sub.add_parser("check", help="validate levels and count solutions up to two")
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS",
                       help="per level: its verdict, then its redundant hints (default 60)")
    check.add_argument("--jobs", type=_whole(1, MAX_JOBS), default=None, metavar="N",
                       help="searches racing on N cores for a level that takes time (default: every core)")
    check.add_argument("--json", action="store_true",
                       help="one JSON object per level, with its grade and redundant hints")


def _add_bench(sub) -> None:
    bench = sub.add_parser("bench", help="solve, verify and time every level; write a CSV")
    bench.add_argument("paths", nargs="*", metavar="PATH")
    bench.add_argument("--solver", type=_solver, default="forward", help="as solve's (default forward)")
    bench.add_argument("--seed", type=_seed, default=0, help="random seed (genetic; with --generate, the first "
                                                               "level's; default 0)")
    bench.add_argument("--timeout", type=_seconds, default=60.0, metavar="SECONDS", help="per level (default 60)")
    bench.add_argument("--csv", metavar="FILE", help="where to write the rows (default bench-<solver>.csv)")
    bench.add_argument("--runner", action="store_true",
                       help="measure the thread runner instead: stop latency and memory over a million events")
    bench.add_argument("--boundary", action="store_true",
                       help="measure instead what a solver's own process costs per event, on LEVEL")
    bench.add_argument("--generate", metavar="RxC", type=_shape, help="measure the generator instead, e.g. 10x10")
    bench.add_argument("--count", type=_whole(1, 1_000_000), default=10,
                       help="levels to generate (with --generate; default 10)")
    bench.add_argument("--window", action="store_true",
                       help="measure the window instead: race the solvers at full speed on LEVEL, frame times")
    bench.add_argument("--solvers", help="with --window: solvers to race, comma-separated (default: all that can)")
    bench.add_argument("--hints", action="store_true",
                       help="measure hints instead: play each level from the start by hints alone")
    bench.add_argument("--reading", type=_seconds, metavar="SECONDS",
                       help="with --hints: the time a player spends on a hint, in which the engine searches "
                            "ahead for the next ones, not counted as a hint's (default 0.25)")
    bench.add_argument("--json", action="store_true", help="with --hints or --window: JSON")
    bench.add_argument("--difficulty", **_choices(*DIFFICULTIES), help="with --generate")
    bench.add_argument("--fleet", type=_fleet, help="with --generate: ship length -> count as JSON")


def _add_generate(sub) -> None:
    gen = sub.add_parser("generate", help="make a level with a unique solution")
    gen.add_argument("--rows", type=_side, default=None, help="default: 10")
    gen.add_argument("--cols", type=_side, default=None, help="default: same as --rows")
    gen.add_argument("--fleet", type=_fleet, help='ship length -> count as JSON, e.g. \'{"4":1,"3":2}\'')
    gen.add_argument("--difficulty", **_choices(*DIFFICULTIES))
    gen.add_argument("--seed", type=_seed, default=0, help="the same seed gives the same level (default 0)")
    gen.add_argument("--minimal", action="store_true", help="remove every redundant hint")
    gen.add_argument("--timeout", type=_seconds, default=120.0, metavar="SECONDS",
                     help="for the whole command; a level finished within it is the one the seed gives "
                          "(default 120)")
    gen.add_argument("-o", "--output", metavar="FILE", help="write the level here (default: print it)")
    gen.add_argument("--pack", metavar="FOLDER", help="build the whole shipped level pack into FOLDER")


def _add_print(sub) -> None:
    sheet = sub.add_parser("print", help="lay levels out on A4 pages as a PDF or PNG pages")
    sheet.add_argument("paths", nargs="+", metavar="PATH", help=".bs files, folders or corpus .jsonl")
    sheet.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.pdf, or FILE.png (one per page)")
    sheet.add_argument("--per-page", type=_one_of(1, 2, 4, 6, 9), default=1, metavar="N",
                       help="puzzles per page: 1, 2, 4, 6 or 9 (default 1)")
    sheet.add_argument("--solutions", action="store_true", help="add the solutions on the last pages")
    sheet.add_argument("--timeout", type=_seconds, default=30.0, metavar="SECONDS",
                       help="per level, to prove the solution unique (with --solutions; default 30)")


def _add_race(sub) -> None:
    race = sub.add_parser("race", help="run several solvers on one level, one after another, and rank them")
    race.add_argument("level", metavar="LEVEL", help="a level file or a share code")
    race.add_argument("--solvers", metavar="A,B,...",
                      help="solvers to race (default: every solver that can run on the level)")
    race.add_argument("--solver", action="append", metavar="SOLVER",
                      help="one more solver to race, may be repeated (a name with a comma, e.g. 'cmd:PROG A,B')")
    race.add_argument("--timeout", type=_seconds, default=10.0, metavar="SECONDS", help="per solver (default 10)")
    race.add_argument("--seed", type=_seed, default=0, help="random seed (genetic; default 0)")
    race.add_argument("--json", action="store_true", help="one JSON object per solver, ranked")
    race.add_argument("--csv", metavar="FILE", help="also write the ranked table to this CSV file")


def _add_replay(sub) -> None:
    replay = sub.add_parser("replay", help="the board at any event of a saved trace")
    replay.add_argument("trace", metavar="TRACE.jsonl")
    replay.add_argument("--at", type=_seed, metavar="N", help="event number (default: the last)")
    replay.add_argument("--print", action="store_true", help="print the board as text (no window)")
    replay.add_argument("--screenshot", metavar="PNG", help="save the window at event N to this file and exit")
    replay.add_argument("--gif", metavar="GIF", help="save the run as an animated GIF and exit")


def parser() -> argparse.ArgumentParser:
    prog = os.path.basename(sys.argv[0]) or "main.py"
    top = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog=f"Run '{prog} COMMAND --help' for a command's options.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for add in (_add_play, _add_solve, _add_check, _add_generate, _add_bench, _add_print, _add_convert,
                _add_race, _add_replay, _add_solvers, _add_new_solver, _add_code, _add_daily):
        add(sub)
    return top


# Options that cannot both be meant: a mode and what it never uses (it would be dropped
# without a word: a file asked for and never written, a pack built for minutes in place of
# one level). Given together they are a usage error naming both.
CLASHES: dict[str, dict[str, tuple[str, ...]]] = {
    "generate": {"--pack": ("-o", "--rows", "--cols", "--fleet", "--difficulty", "--minimal")},
    "replay": {"--print": ("--screenshot", "--gif")},
    "daily": {"--code": ("-o",)},
    "bench": {"--runner": ("--generate", "--window", "--boundary", "--hints", "--csv"),
              "--generate": ("--window", "--boundary", "--hints", "--csv"),
              "--window": ("--boundary", "--hints", "--csv"), "--boundary": ("--hints", "--csv"),
              "--hints": ("--csv",)},
}


def _clash(args) -> str | None:
    """The line saying which two options given cannot go together, or None."""
    def given(flag: str) -> bool:
        value = getattr(args, "output" if flag == "-o" else flag[2:].replace("-", "_"))
        return value is not None and value is not False
    for mode, others in CLASHES.get(args.command, {}).items():
        for other in others:
            if given(mode) and given(other):
                return f"{args.command}: {mode} and {other} cannot be given together"
    return None


def _refused(path, inputs=(), parents: bool = False) -> bool:
    """Check an output place before the work (``game.files.check``); print why it is refused."""
    from game import files

    try:
        files.check(path, inputs, parents)
    except files.OutputError as error:
        print(error, file=sys.stderr)
        return True
    return False


def _inputs(args) -> list[str]:
    """Every file the command reads: its levels (a folder's too), a solver of one's own and the
    files its command names, a settings file, the trace replayed; what an output given beside
    them must not be."""
    from solvers.engine import batch
    from solvers.own import spec

    found = batch.input_files([name for name in _levels_named(args) if name])
    solver = getattr(args, "solver", None)                  # race: a list (--solver repeated)
    names = [*(solver if isinstance(solver, list) else [solver]), *(getattr(args, "solvers", None) or "").split(",")]
    for name in names:
        found += spec.files_of(name.strip()) if name else []
    found += [name for name in (getattr(args, "settings", None),) if name]
    if args.command == "replay":                # its --trace is what it reads; solve's is what it writes
        found.append(args.trace)
    return found


def _levels_named(args) -> list[str]:
    """The levels (files, folders, corpora, codes) the command's arguments name."""
    return [*(getattr(args, "paths", None) or ()), *(name for name in (getattr(args, "level", None),
                                                                   getattr(args, "input", None)) if name is not None)]


def _unopened(args) -> bool:
    """Check every input the command names before any of its work or output
    (``batch.unopened``); print one line for each that cannot be opened."""
    from solvers.engine import batch

    problems = batch.unopened(_levels_named(args))
    if args.command == "replay":
        problems += batch.unopened([args.trace], "a trace")
    for problem in problems:
        print(problem, file=sys.stderr)
    return bool(problems)


def _not_written(error: OSError, path) -> int:
    from game import files

    print(files.why(error, path), file=sys.stderr)
    return EXIT_USAGE


def cmd_play(args) -> int:
    if args.screenshot and _refused(args.screenshot, _inputs(args)):
        return EXIT_USAGE
    from window.app import main as run_window

    return run_window(level=args.level, solver=args.solver, autorun=args.autorun,
                      exit_after_solve=args.exit_after_solve, screenshot=args.screenshot,
                      settings_path=args.settings)


def _exit_code(records: Iterable[dict], decided: tuple[str, ...]) -> int:
    """2 when a level could not be read, else 0 when every verdict is one of ``decided``, else 1;
    ``records`` taken one at a time, as they come (a corpus of millions is never held)."""
    unreadable = undecided = False
    for r in records:
        unreadable = unreadable or (r["status"] == "error" and bool(r.get("level_error")))
        undecided = undecided or r["status"] not in decided
    return EXIT_USAGE if unreadable else EXIT_FAILED if undecided else EXIT_OK


def cmd_solve(args) -> int:
    from solvers.engine import batch

    if args.trace:
        return cmd_solve_trace(args)
    def records() -> Iterator[dict]:
        for ref in batch.expand(args.paths):
            record = batch.solve_record(ref, args.solver, args.timeout, args.seed)
            record["level_error"] = ref.puzzle is None
            if args.json:
                print(json.dumps({k: v for k, v in record.items() if k != "level_error"}), flush=True)
            else:
                # a solver's failure (its one line) goes to stderr; a level's own error stays with the boards
                solver_failed = record["status"] == "error" and not record["level_error"]
                print(_solve_text(ref, record), flush=True, file=sys.stderr if solver_failed else sys.stdout)
            yield record
    return _exit_code(records(), ("solved", "no_solution", "stuck"))


def cmd_solve_trace(args) -> int:
    """``solve LEVEL --trace FILE``: one run, recorded; printed as ``solve`` prints it."""
    from solvers.engine import batch, trace

    if _refused(args.trace, _inputs(args)):
        return EXIT_USAGE
    refs = list(batch.expand(args.paths))
    if len(refs) != 1:
        print(f"solve: --trace records one run; {len(refs)} levels were given", file=sys.stderr)
        return EXIT_USAGE
    ref = refs[0]
    if ref.puzzle is None:
        print(ref.error, file=sys.stderr)
        return EXIT_USAGE
    failure = None
    try:
        result = trace.record_run(ref.puzzle, args.solver, args.trace, seed=args.seed, timeout=args.timeout,
                                  inputs=_inputs(args))
    except OSError as error:
        computed = getattr(error, "result", None)        # files.OutputError's: the run, when only its copy failed
        if computed is None:                             # refused before the run
            return _not_written(error, args.trace)
        failure, result = error, computed
    record = batch.result_record(ref, args.solver, result)
    failed = record["status"] == "error" and not args.json
    print(json.dumps(record) if args.json else _solve_text(ref, record), flush=True,
          file=sys.stderr if failed else sys.stdout)
    if failure is not None:                              # the result is printed; only its copy is lost
        return _not_written(failure, args.trace)
    return _exit_code([record], ("solved", "no_solution", "stuck"))


def _solve_text(ref, record: dict) -> str:
    from solvers.engine import batch
    from solvers.events import Status, verdict_said

    head = f"{record['level']}: {verdict_said(Status(record['status']))}"
    if record["status"] == "error":
        return f"{head}: {_problem(record)}\n"
    stats = ", ".join(f"{k} {v}" for k, v in record["stats"].items() if not isinstance(v, dict))
    board = record.get("solution") or record.get("board")
    why = f": {record['message']}" if record.get("message") else ""
    return f"{head} ({record['solver']}; {stats}){why}\n{batch.board_text(ref.puzzle, board)}\n"


def _problem(record: dict) -> str:
    """A record's error for a line that already starts with the level's name."""
    error = record.get("error") or ""
    name = f"{record['level']}: "
    return error[len(name):] if error.startswith(name) else error


def cmd_check(args) -> int:
    from game.puzzle import seconds_said
    from solvers.engine import batch

    def records() -> Iterator[dict]:
        for ref in batch.expand(args.paths):
            record, solution = batch.checked(ref, args.timeout, args.jobs)
            if ref.puzzle is not None and solution is not None:
                record.update(_check_extras(ref.puzzle, solution, args.timeout))
            record["level_error"] = ref.puzzle is None
            shown = {k: v for k, v in record.items() if k != "level_error"}
            if args.json:
                print(json.dumps(shown), flush=True)
            else:
                extra = f": {_problem(record)}" if record.get("error") else ""
                grade = f", {record['difficulty']}" if record.get("difficulty") else ""
                if record.get("difficulty") and record["redundant_hints"] is None:
                    grade += f" (redundant hints not settled within {seconds_said(args.timeout)})"
                elif record.get("redundant_hints"):
                    grade += "; " + _could_go(ref.puzzle, record["redundant_hints"])
                print(f"{record['level']}: {record['status']}{grade}{extra}", flush=True)
            yield record
    return _exit_code(records(), ("impossible", "unique", "ambiguous"))


def _could_go(puzzle, cells) -> str:
    """The redundant hints as ``check`` says them: how many, and where (1-based, as the window names cells)."""
    from game.puzzle import plural
    from game.ships import geometry_of

    geo = geometry_of(puzzle)
    return f"{plural(len(cells), 'hint')} could go: " + geo.where(geo.mask_of(tuple(cell) for cell in cells))


def _check_extras(puzzle, solution, timeout: float) -> dict:
    """Grade (by the deduction engine) and redundant hints of a unique level (its ``solution``);
    the redundant hints are None when they are not all settled within ``timeout`` seconds."""
    from solvers.authoring import grading

    redundant = grading.redundant_hints(puzzle, timeout)
    return {"difficulty": grading.grade(puzzle, solution),
            "redundant_hints": None if redundant is None else [list(cell) for cell in redundant]}


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
    if args.window:
        return _bench_window(args)
    if args.boundary:
        from game import formats, levels
        from solvers.own import bench as own_bench

        if len(args.paths) != 1:
            print("bench --boundary: give one LEVEL", file=sys.stderr)
            return EXIT_USAGE
        try:
            return own_bench.main(formats.load_any(args.paths[0]))
        except levels.LevelError as error:
            print(error, file=sys.stderr)
            return EXIT_USAGE
    from game import files

    # a solver's name may be a path (sub/mine.py, cmd:./mine): its slug names the file; --csv "" names none: refused
    path = f"bench-{files.slug(args.solver)}.csv" if args.csv is None else args.csv
    if not args.hints and _refused(path, _inputs(args)):
        return EXIT_USAGE
    refs = list(batch.expand(args.paths))
    if args.hints:
        return _bench_hints(refs, args.json, args.reading)
    bad = _bad_levels(refs)
    records = []
    bar = batch.ProgressBar(len(refs), f"bench {args.solver}")
    for ref in refs:
        record = batch.solve_record(ref, args.solver, args.timeout, args.seed)
        record["verified"] = record["status"] == "solved" and record["solution"] is not None
        records.append(record)
        bar.advance(record["status"])
    bar.close()
    summary = batch.summarise(records)
    print(batch.summary_table(args.solver, summary))
    statuses = ", ".join(f"{s} {n}" for s, n in batch.status_counts(records).items())
    print(f"statuses: {statuses}", flush=True)
    print(_engine_line())
    try:
        _write_csv(path, records)
    except OSError as error:
        return _not_written(error, path)
    print(f"rows written to {_named(path)}")
    if bad:
        return EXIT_USAGE
    return EXIT_OK if summary["solved"] == summary["levels"] else EXIT_FAILED


def _bad_levels(refs) -> bool:
    """Print the error of each level that could not be read (one line each); whether there was one."""
    bad = [ref for ref in refs if ref.puzzle is None]
    for ref in bad:
        print(ref.error, file=sys.stderr)
    return bool(bad)


def _bench_window(args) -> int:
    from solvers.engine import race
    from window import race_bench

    if len(args.paths) != 1:
        print("bench --window: give one LEVEL", file=sys.stderr)
        return EXIT_USAGE
    try:
        from game import formats

        puzzle = formats.load_any(args.paths[0])
        names = race.choose(puzzle, args.solvers.split(",") if args.solvers else None)
        record = race_bench.run(args.paths[0], names, seconds=args.timeout)
    except ValueError as error:
        print(f"bench --window: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(json.dumps(record) if args.json else ", ".join(f"{k} {v}" for k, v in record.items()))
    return EXIT_OK


def _engine_line() -> str:
    """How the rules ran, for a benchmark's reader: compiled, or as Python (and why)."""
    from solvers.propagation import ENGINE

    if ENGINE == "compiled":
        return "engine: compiled (mypyc)"
    return "engine: python (uncompiled: `make setup` or `pip install .` compiles it, unless BATTLESHIPS_ENGINE=python)"


def _bench_hints(refs, as_json: bool, reading: float | None) -> int:
    from game.puzzle import plural
    from solvers.engine import hints

    bad = _bad_levels(refs)
    reading = hints.READING_SECONDS if reading is None else reading
    runs = [hints.play_by_hints(ref.puzzle, ref.label, reading=reading) for ref in refs if ref.puzzle is not None]
    summary = {**hints.summary(runs), "reading_s": reading}
    worst = sorted(runs, key=lambda run: -max(run.seconds, default=0.0))
    if as_json:
        for run in runs:
            print(json.dumps(run.record()))
        print(json.dumps({"summary": True, **summary}))
    else:
        for run in worst[:10]:
            record = run.record()
            print(f"{run.label}: {plural(record['hints'], 'hint')}, slowest {record['max_ms']} ms, "
                  f"{record['without_reason']} without a reason" + (f", {run.error}" if run.error else ""))
        print(", ".join(f"{key} {value}" for key, value in summary.items()))
        print(_engine_line())
    if bad:
        return EXIT_USAGE
    return EXIT_OK if summary["unfinished"] == 0 else EXIT_FAILED


def _write_csv(path: str, records: list[dict]) -> None:
    from game import files

    files.write_csv(path, ["level", "solver", "status", "verified", "seconds", "nodes", "backtracks", "error"],
                    ([r["level"], r["solver"], r["status"], int(bool(r.get("verified"))),
                      (r.get("stats") or {}).get("seconds", ""), (r.get("stats") or {}).get("nodes", ""),
                      (r.get("stats") or {}).get("backtracks", ""), r.get("error", "")] for r in records))


def cmd_race(args) -> int:
    from game import formats, levels
    from solvers.engine import race

    try:
        puzzle = formats.load_any(args.level)
        given = (args.solvers.split(",") if args.solvers else []) + (args.solver or [])
        names = race.choose(puzzle, given or None)
    except (levels.LevelError, ValueError) as error:
        print(f"race: {error}" if not isinstance(error, levels.LevelError) else str(error), file=sys.stderr)
        return EXIT_USAGE
    if args.csv is not None and _refused(args.csv, _inputs(args)):    # --csv "" too: no file
        return EXIT_USAGE
    records = race.race(puzzle, names, timeout=args.timeout, seed=args.seed)
    if args.json:
        for record in records:
            print(json.dumps(record), flush=True)
    else:
        print(race.text(puzzle, records), flush=True)
    if args.csv is not None:
        try:
            race.write_csv(args.csv, records)
        except OSError as error:
            return _not_written(error, args.csv)
    return EXIT_OK if all(r["verdict"] in ("solved", "no_solution", "stuck") for r in records) else EXIT_FAILED


def cmd_replay(args) -> int:
    from game.levels import LevelError
    from solvers.engine import batch, trace

    if not args.print:
        if any(out and _refused(out, _inputs(args)) for out in (args.screenshot, args.gif)):
            return EXIT_USAGE
        from window.app import replay

        return replay(args.trace, args.at, args.screenshot, args.gif)
    try:
        run = trace.read_trace(args.trace)
        at = run.events if args.at is None else args.at
        if not 0 <= at <= run.events:
            print(f"replay: --at {at} is outside 0..{run.events} (the events of {_named(args.trace)})", file=sys.stderr)
            return EXIT_USAGE
        board = trace.board_at(run, at)
    except LevelError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    from game.puzzle import grid_to_strings
    from solvers.events import Status, verdict_said

    said = verdict_said(Status(run.verdict), run.message)
    print(f"{_named(args.trace)}: event {at} of {run.events} ({run.solver}, {said})"
          + (f"; the run's first {run.dropped} events are not in the trace" if run.dropped else ""))
    print(batch.board_text(run.puzzle, list(grid_to_strings(board))))
    return EXIT_OK


def cmd_generate(args) -> int:
    from game import levels
    from game.puzzle import plural, seconds_said
    from solvers.authoring import generator
    from solvers.engine.batch import ProgressBar

    if args.output is not None and _refused(args.output):    # -o "" too: it names no file
        return EXIT_USAGE
    # The stage the generator is at, on stderr when it is a terminal; the clock moves at each
    # step it polls (the compiler's wait too, with its notice).
    bar = ProgressBar(None, "generate")

    def ticking() -> bool:
        bar.tick()
        return False

    if args.pack:
        if _refused(generator.first_of_pack(args.pack), parents=True):
            return EXIT_USAGE
        try:
            with bar:                   # wiped before anything below is said
                written = generator.build_pack(args.pack, seed=args.seed, progress=bar.stage, log=bar.above,
                                               cancelled=ticking)
        except OSError as error:
            return _not_written(error, args.pack)
        print(f"wrote {len(written)} levels under {_named(args.pack)}")
        return EXIT_OK
    try:
        fleet = json.loads(args.fleet) if args.fleet else None  # checked by _fleet
        rows = args.rows or 10
        with bar:
            puzzle = generator.generate(rows, args.cols or rows, fleet=fleet, difficulty=args.difficulty,
                                        seed=args.seed, minimal=args.minimal, timeout=args.timeout,
                                        cancelled=ticking, progress=bar.stage)
    except generator.GeneratorTimeout as error:
        print(f"generate: {error}; raise --timeout", file=sys.stderr)
        return EXIT_USAGE
    except (ValueError, levels.LevelError) as error:
        print(f"generate: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.difficulty and puzzle.difficulty != args.difficulty:    # the closest level found in time
        print(f"generate: no {args.difficulty} {puzzle.rows}x{puzzle.cols} level found in {seconds_said(args.timeout)} "
              f"(the closest was {puzzle.difficulty}); try another fleet, seed or --timeout", file=sys.stderr)
        return EXIT_USAGE
    if args.output is not None:
        try:
            levels.save(puzzle, args.output)
        except OSError as error:
            sys.stdout.write(levels.dumps(puzzle))      # the level made is not lost
            return _not_written(error, args.output)
        print(f"wrote {_named(args.output)} ({puzzle.rows}x{puzzle.cols}, {puzzle.difficulty}, "
              f"{plural(len(puzzle.hints), 'hint')})")
    else:
        sys.stdout.write(levels.dumps(puzzle))
    return EXIT_OK


def cmd_print(args) -> int:
    from pathlib import Path

    from game.puzzle import plural, seconds_said
    from solvers.engine.batch import expand
    from solvers.engine.verdict import Kind, decide
    from window import sheets

    output = Path(args.output)
    if output.suffix.lower() not in (".pdf", ".png"):
        print(f"print: {_named(args.output)}: the output must end in .pdf or .png", file=sys.stderr)
        return EXIT_USAGE
    if _refused(args.output, _inputs(args)):       # the name as given: Path() drops a final slash
        return EXIT_USAGE
    puzzles, solutions = [], []
    for ref in expand(args.paths):
        if ref.puzzle is None:
            print(ref.error, file=sys.stderr)
            return EXIT_USAGE
        title = sheets.title_of(ref.puzzle, Path(ref.label).stem)
        puzzles.append(sheets.Item(ref.puzzle, title))
        most = sheets.most_per_page(puzzles[-1])
        if most < args.per_page:
            print(f"{ref.label}: a {ref.puzzle.rows}x{ref.puzzle.cols} board cannot be read {args.per_page} to a page "
                  f"(its cells would be under {sheets.LEAST_CELL:g} mm); "
                  + (f"at most {most} to a page" if most else "it is too large to print legibly"), file=sys.stderr)
            return EXIT_USAGE
        if args.solutions:
            verdict = decide(ref.puzzle, timeout=args.timeout)
            if verdict.kind is not Kind.UNIQUE:
                why = (f"not decided within --timeout {seconds_said(args.timeout)}" if verdict.kind is Kind.UNDECIDED
                       else verdict.kind.value)
                print(f"{ref.label}: has no single solution to print ({why})", file=sys.stderr)
                return EXIT_USAGE
            solutions.append(sheets.Item(ref.puzzle, f"Solution: {title}", verdict.solution))
    try:
        printed = sheets.write(puzzles + solutions, output, args.per_page)
    except OSError as error:
        return _not_written(error, args.output)
    print(f"wrote {_listed(printed.pages)}: {plural(len(puzzles), 'puzzle')}"
          + ((" and its solution" if len(solutions) == 1 else " and their solutions") if solutions else "")
          + (f"; removed {_listed(printed.removed)} of the earlier print" if printed.removed else ""))
    if printed.left:
        left = printed.left
        print(f"print: left {plural(len(left), 'file')} named as further pages of this book as they were: "
              + ", ".join(f"{_named(path)} ({why})" for path, why in left[:3])
              + (f" and {len(left) - 3} more" if len(left) > 3 else ""), file=sys.stderr)
    return EXIT_OK


def _listed(paths: list) -> str:
    """PNG pages as a message names them: up to three, or the first and the last and how many."""
    if len(paths) <= 3:
        return ", ".join(_named(p) for p in paths)
    return f"{_named(paths[0])} ... {_named(paths[-1])} ({len(paths)} pages)"


def _add_convert(sub) -> None:
    from game.formats import FORMATS, WRITABLE

    convert = sub.add_parser("convert", help="convert a level between .bs and the formats in circulation",
                             description="Read a level in any known format (recognised from its content) and "
                                         "write it in another (chosen by OUT's suffix: .bs, .txt for the "
                                         "assignment text, .dzn). OUT '-' prints it. A file of several boards "
                                         "(CSPLib, a corpus .jsonl) gives a folder OUT with one file per board, or "
                                         "--board picks one; IN may also be one board's label FILE#ID.")
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    convert.add_argument("--from", dest="source_format", **_choices(*FORMATS), help="read IN as this format")
    convert.add_argument("--to", dest="target_format", **_choices(*WRITABLE), help="write this format")
    convert.add_argument("--board", metavar="ID", help="the board to take from a file of several")


def cmd_convert(args) -> int:
    from pathlib import Path

    from game import files, formats, levels
    from game.puzzle import plural

    def boards():                   # read again at each pass: a corpus is never in memory whole
        return formats.each(args.input, args.source_format)

    first: list = []
    out = Path(args.output)
    # a folder's boards are held open until the last is written: refused once there are more
    # than the system lets a program open, counted as they are read
    most = files.most_at_once() if args.board is None and args.output != "-" else None

    def noted(puzzles):
        for count, puzzle in enumerate(puzzles, start=1):
            first[:] = first or [puzzle]
            if most is not None and count > max(most, 1):
                raise files.too_many(count, out, counting=True)
            yield puzzle

    try:                            # a first pass: every level sound, and its id
        ids = formats.board_ids(noted(boards()))
    except levels.LevelError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        return _not_written(error, args.output)
    if len(ids) == 1:               # a level alone is named after its file, label or code, as in a folder
        ids = [formats.level_id(args.input, first[0])]
    wanted = dict(enumerate(ids))   # the levels written, by their place in the file: their ids
    if args.board is not None:
        if args.board not in ids:
            print(f"{_named(args.input)}: no board {_shown(args.board)} (boards: {', '.join(ids[:10])}"
                  f"{', ...' if len(ids) > 10 else ''})", file=sys.stderr)
            return EXIT_USAGE
        wanted = {ids.index(args.board): args.board}
    folder = len(wanted) > 1 or args.output.endswith(("/", os.sep)) or os.path.isdir(args.output)
    target = args.target_format or ("bs" if folder or args.output == "-" else formats.format_for(args.output))
    if target is None:
        print(f"convert: cannot tell the format to write from {args.output!r}; give --to "
              f"({', '.join(formats.WRITABLE)})", file=sys.stderr)
        return EXIT_USAGE
    if folder and args.output == "-":
        print(f"{_named(args.input)}: holds {len(wanted)} boards; give a folder as OUT or pick one with --board",
              file=sys.stderr)
        return EXIT_USAGE
    suffix = {"bs": ".bs", "assignment": ".txt", "bimaru": ".txt", "dzn": ".dzn"}[target]
    lost: set[str] = set()

    def place(index: int) -> Path:  # where the board at ``index`` of the file is written
        return out / f"{wanted[index]}{suffix}" if folder else out

    def texts():                    # (where, text) for each level written, one at a time
        for index, puzzle in enumerate(boards()):
            if index in wanted:
                lost.update(formats.left_out(puzzle, target))
                try:
                    text = formats.dumps(puzzle, target)
                except levels.LevelError as error:          # which of several boards it is
                    raise levels.LevelError(error.source, f"board {wanted[index]}: {error.reason}"
                                            if len(ids) > 1 else error.reason) from None
                yield place(index), text

    def noting() -> None:
        said = [what for what in formats.ABOUT if what in lost]
        if said:
            print(f"note: the {target} format has no place for the level's {', '.join(said)}: "
                  f"{'they are' if len(said) > 1 else 'it is'} not written", file=sys.stderr)

    try:
        for _ in texts():           # every level fits the format before a file or a folder is made
            pass
        if args.output == "-":
            sys.stdout.write(next(texts())[1])
            noting()
            return EXIT_OK
        inputs = _inputs(args)
        if _refused(place(min(wanted)), inputs, parents=folder):
            return EXIT_USAGE
        with files.Outputs(len(wanted), out) as outputs:     # every board or none
            for path, text in texts():
                outputs.add(path, binary=False, inputs=inputs, parents=folder).handle.write(text)
    except levels.LevelError as error:
        print(f"{_named(args.output)}: cannot be written as {_named(error.source)}: {error.reason}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        return _not_written(error, args.output)
    print(f"wrote {plural(len(wanted), 'level')} under {_named(out)}" if folder else f"wrote {_named(out)}")
    noting()
    return EXIT_OK


def _add_solvers(sub) -> None:
    sub.add_parser("solvers", help="list every solver (built in, installed) with its options")


def cmd_solvers(args) -> int:
    from solvers.engine import registry
    from solvers.own import spec as own

    for name, spec in registry.every().items():
        print(f"{name}: {spec.label} - {spec.summary}")
        for option in spec.options:
            span = ""
            if option.low is not None and option.high is not None:
                ends = [f"{int(end):,}" if option.kind is int else f"{end:g}" for end in (option.low, option.high)]
                span = f", {ends[0]} to {ends[1]}"            # an int's range in digits: 1,000,000,000, not 1e+09
            print(f"    {option.name} ({option.kind.__name__}, default {option.default}{span})"
                  + (f": {option.help}" if option.help else ""))
    for problem in own.problems():
        print(problem, file=sys.stderr)
    print(f"\nAny Python file (--solver mine.py) or program (--solver '{own.COMMAND_PREFIX}./mine --fast') is a "
          f"solver too; each takes the limits {', '.join(o.name for o in own.LIMITS)}. "
          f"Installed packages add solvers under the entry-point group {own.GROUP}.")
    return EXIT_OK


def _add_new_solver(sub) -> None:
    new = sub.add_parser("new-solver", help="write a working solver of your own to start from, and a test for it")
    new.add_argument("path", metavar="PATH.py")


def cmd_new_solver(args) -> int:
    import shlex
    from pathlib import Path

    from solvers.own import template

    try:
        written = template.write(args.path)
    except ValueError as error:                     # names the file already
        print(error, file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:                        # an OutputError names which of the two files
        return _not_written(error, args.path)
    here = Path(__file__).resolve().parent

    def near(path: Path, relative: bool = True) -> str:
        """From the folder it was run in, quoted as a shell reads it back: a name holding a
        character a terminal must not be sent raw (a control character, a byte that is not
        UTF-8) in bash's $'...' with that character escaped, as ``ls`` and ``printf %q`` say it."""
        text = os.path.relpath(path) if relative else str(path)
        text = str(path) if text.startswith("..") else text
        if text.isprintable():
            return shlex.quote(text)
        escaped = (("\\" if char in "\\'" else "") + char if char.isprintable()
                   else "".join(f"\\x{byte:02x}" for byte in os.fsencode(char)) for char in text)
        return f"$'{''.join(escaped)}'"

    program = "battleships" if os.path.basename(sys.argv[0]) == "battleships" else f"python {near(here / 'main.py')}"
    print(f"wrote {_named(written[0])} and {_named(written[1])}\n"
          f"try it: {program} solve {near(here / 'levels/6x6/easy/01.bs')} --solver {near(written[0], False)}")
    return EXIT_OK


def _add_code(sub) -> None:
    code = sub.add_parser("code", help="print each level's share code (one line each)",
                          description="Print one share code per level (bs1-...): the whole puzzle in a line "
                                      "of URL- and chat-safe text with a checksum. Every command that takes "
                                      "a level takes a code in its place.")
    code.add_argument("paths", nargs="+", metavar="PATH", help="levels, folders, corpus .jsonl or codes")
    code.add_argument("--name", action="store_true", help="put the level's name in the code too (longer)")


def cmd_code(args) -> int:
    from game import codes
    from solvers.engine.batch import expand

    bad = False
    for ref in expand(args.paths):
        if ref.puzzle is None:
            print(ref.error, file=sys.stderr)
            bad = True
        else:
            print(codes.encode(ref.puzzle, name=args.name), flush=True)
            if args.name and codes.kept_name(ref.puzzle.name) != (ref.puzzle.name or None):
                print(f"note: {ref.label}: the code holds the first {codes.MAX_NAME_BYTES} bytes of the name",
                      file=sys.stderr)
    return EXIT_USAGE if bad else EXIT_OK


def _date(text: str):
    """A calendar date written YYYY-MM-DD (not a week date 2026-W01-1), year 1 to 9999."""
    import datetime
    import re

    shown = _shown(text)
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text, re.ASCII) is None:
        raise argparse.ArgumentTypeError(f"{shown} is not a date YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{shown} is not a date YYYY-MM-DD ({error})") from None


def _add_daily(sub) -> None:
    daily = sub.add_parser("daily", help="the day's puzzle: the same level for everyone on the same date",
                           description="Print (or write with -o) the daily puzzle of a date (default: today, "
                                       "local time). It is made from the date alone, unique and graded; its "
                                       "difficulty follows the weekday. Its solution is not given: "
                                       "`solve` finds it.")
    daily.add_argument("--date", type=_date, metavar="YYYY-MM-DD", help="the day (default: today)")
    daily.add_argument("-o", "--output", metavar="FILE", help="write the level here (default: print it)")
    daily.add_argument("--code", action="store_true", help="print its share code instead of the level")


def cmd_daily(args) -> int:
    import datetime

    from game import codes, levels
    from solvers.authoring import daily

    if args.output is not None and _refused(args.output):    # -o "" too: it names no file
        return EXIT_USAGE
    day = args.date or datetime.date.today()
    puzzle = daily.puzzle_of(day).replace(solution=None)    # a puzzle to solve, not its answer
    if args.output is not None:
        try:
            levels.save(puzzle, args.output)
        except OSError as error:
            sys.stdout.write(levels.dumps(puzzle))          # the level is made; only its copy is lost
            return _not_written(error, args.output)
        print(f"wrote {_named(args.output)} ({puzzle.name}, {puzzle.rows}x{puzzle.cols}, {puzzle.difficulty})")
    elif args.code:
        print(codes.encode(puzzle))
    else:
        sys.stdout.write(levels.dumps(puzzle))
    return EXIT_OK


# ----------------------------------------------------------------- Ctrl-C, SIGTERM and SIGHUP
# Python raises KeyboardInterrupt at the next bytecode, but an interrupt raised inside a
# compiled function's call (numba's dispatcher converts arguments in Python and clears any
# error it meets there) is lost. So the signal is raised again every AGAIN seconds until it is
# seen being handled (a KeyboardInterrupt in the chain of the exception being handled: then the
# program is on its way out, and its cleanup is left alone). One raised inside a callback from
# compiled code (llvmlite's, while numba writes its cache) cannot leave it: Python reports it
# as "ignored" and goes on; that report is not printed (``_lost``), the timer raises it again.
AGAIN = 0.1
_caught: list[int] = []


def _handling_interrupt() -> bool:
    error = sys.exc_info()[1]
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__context__
    return False


def _interrupt(signum: int, frame) -> None:
    if signum != signal.SIGALRM:
        _caught.append(signum)
    if not _caught:
        return
    signal.setitimer(signal.ITIMER_REAL, AGAIN)
    if not _handling_interrupt():
        raise KeyboardInterrupt


def _lost(unraisable) -> None:
    if not (_caught and isinstance(unraisable.exc_value, KeyboardInterrupt)):
        sys.__unraisablehook__(unraisable)


def _catch_interrupts() -> dict:
    """Install the handlers; the ones they replace, to put back."""
    _caught.clear()
    handlers = {signum: signal.signal(signum, _interrupt) for signum in (*_stops(), signal.SIGALRM)}
    sys.unraisablehook = _lost
    return handlers


def _interrupted() -> int:
    """One line, and the status a shell gives a program ended by the signal (130 for Ctrl-C)."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    signum = _caught[0] if _caught else signal.SIGINT
    try:
        print(_said(signum).decode(), end="", file=sys.stderr, flush=True)
    except OSError:                 # the terminal is gone (SIGHUP): the status says it
        pass
    return 128 + signum


# What writing to a full disk or past the file size limit raises (on standard output, without a
# file name: the commands name their own files).
FULL = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO)


def _unwritable_stream(error: OSError) -> int:
    """Standard output (or error) cannot be written (a full disk, /dev/full): one line where it
    can still go, as for a file, and exit 2. What stdout still holds is dropped, so that the
    exit does not fail on it again."""
    try:
        sys.stdout.flush()
    except OSError:
        pass
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    try:
        return _not_written(error, "standard output")
    except OSError:                     # standard error cannot be written either: the status says it
        return EXIT_USAGE


def _may_be_a_level(text: str) -> bool:
    """Whether ``text``, given where a command is expected, may name what ``play`` opens: a
    file or folder there, a name with a level's suffix, or a share code."""
    from game import codes
    from game.formats import SUFFIXES

    return os.path.lexists(text) or os.path.splitext(text)[1].lower() in (*SUFFIXES, ".jsonl") or codes.is_code(text)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        if argv and not _may_be_a_level(argv[0]):
            import difflib

            close = difflib.get_close_matches(argv[0], COMMANDS, n=1)
            parser().error(f"{_shown(argv[0])} is neither a command nor a level file or share code"
                           + (f" (did you mean {close[0]}?)" if close else ""))
        argv = ["play", *argv]
    try:
        previous = _catch_interrupts()
    except ValueError:              # not the main thread (tests call main from others too)
        previous = {}
    try:
        try:
            try:
                args = parser().parse_args(argv)
            except SystemExit as leaving:       # --help: argparse drops a failure to write it
                if leaving.code == 0 and sys.stdout is not None:
                    try:
                        sys.stdout.flush()
                    except OSError as error:
                        return _unwritable_stream(error)
                raise
            clash = _clash(args)
            if sys.stdout is None and args.command not in (None, "play"):     # started with `>&-`
                clash = "standard output: cannot be written (it is closed)"
            if clash:
                print(clash, file=sys.stderr)
                return EXIT_USAGE
            return _run(args)
        finally:
            if previous:
                signal.setitimer(signal.ITIMER_REAL, 0)
                for signum, handler_before in previous.items():
                    signal.signal(signum, handler_before)
                sys.unraisablehook = sys.__unraisablehook__
    except KeyboardInterrupt:
        return _interrupted()


def _run(args) -> int:
    """The command's handler, run as :func:`main` sets it up (Ctrl-C caught around it)."""
    handler = {"play": cmd_play, "solve": cmd_solve, "check": cmd_check,
               "generate": cmd_generate, "bench": cmd_bench, "print": cmd_print,
               "convert": cmd_convert, "race": cmd_race, "replay": cmd_replay, "solvers": cmd_solvers,
               "new-solver": cmd_new_solver, "code": cmd_code, "daily": cmd_daily}[args.command or "play"]
    try:
        if _unopened(args):
            return EXIT_USAGE
        status = handler(args)
        if sys.stdout is not None:  # the window needs none (pythonw gives none)
            sys.stdout.flush()      # what is still buffered fails here, where it can be said
        return status
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except OSError as error:
        if error.filename is not None or error.errno not in FULL:  # not a full stream: a bug to see
            raise
        return _unwritable_stream(error)


if __name__ == "__main__":
    sys.exit(main())
