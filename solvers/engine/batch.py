"""Running solvers over many levels: what ``main.py solve``, ``check`` and ``bench`` do.

A PATH is a ``.bs`` file, a folder (every ``.bs`` below it, sorted) or a corpus ``.jsonl``
file (one level per line). A bad level becomes a record with status ``error`` and the rest
still run. Every answer is judged again by ``game.rules`` here, independently of the solver.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from game import codes, formats, levels, rules
from game.files import shown
from game.puzzle import Grid, Puzzle, grid_to_strings
from solvers import compiling
from solvers.common import count, elapsed, run_to_result
from solvers.engine import registry
from solvers.engine.verdict import Kind, decide
from solvers.events import Result, Status
from solvers.own import spec as own


@dataclass(frozen=True)
class LevelRef:
    """One level to run: its label (path, or path#id for corpus lines) and the puzzle or its error."""

    label: str
    puzzle: Puzzle | None
    error: str | None = None


def expand(paths: Iterable[str]) -> Iterator[LevelRef]:
    for raw in paths:
        path = Path(raw)
        if not str(raw):                   # Path("") would be the current folder
            yield LevelRef("''", None, f"'': {formats.EMPTY_NAME}")
        elif codes.is_code(raw):             # never looked up as a file: a code may be too long a name
            yield from _load_one(path)
        elif os.path.isdir(path):          # False, not an error, for a name the system refuses
            files = levels.level_files(path)
            if not files:
                yield LevelRef(shown(raw), None, f"{shown(raw)}: folder holds no .bs levels")
            for file in files:
                if isinstance(file, levels.LevelError):
                    yield LevelRef(shown(file.source), None, str(file))
                else:
                    yield from _load_one(file)
        elif formats.is_corpus(path):
            empty = True
            try:
                for ident, item in levels.iter_corpus(path):
                    empty = False
                    if isinstance(item, levels.LevelError):  # labelled file:line
                        yield LevelRef(item.source, None, str(item))
                    else:
                        yield LevelRef(f"{shown(raw)}#{ident}", item)
            except levels.LevelError as error:
                yield LevelRef(shown(raw), None, str(error))
            else:
                if empty:
                    yield LevelRef(shown(raw), None, str(levels.LevelError(path, levels.EMPTY_CORPUS)))
        else:
            yield from _load_one(path)


def unopened(names: Iterable[str], what: str = "a level file") -> list[str]:
    """The one-line problem of each name given as an input that cannot be opened, found before
    any work starts: an empty name, a share code that does not decode, a folder without a level,
    a file (of a label ``FILE#ID``: its file) that is missing, not a regular file or unreadable.
    What the files hold is judged level by level as they are read (a corpus of millions is
    never read twice); ``what`` names what a file should be, in the message for a folder."""
    problems = []
    for raw in names:
        if not raw:                         # Path("") would be the current folder
            problems.append(f"'': {formats.EMPTY_NAME}")
            continue
        try:
            if codes.is_code(raw):
                codes.decode(raw)
            elif os.path.isdir(raw):        # False, not an error, for a name the system refuses
                found = levels.level_files(raw)
                if not any(isinstance(item, Path) for item in found):   # unreadable, or without a level
                    raise next((item for item in found if isinstance(item, levels.LevelError)),
                               levels.LevelError(raw, "folder holds no .bs levels"))
            else:
                levels.open_regular(formats.file_of(raw), what).close()
        except levels.LevelError as error:
            problems.append(str(error))
    return problems


def input_files(paths: Iterable[str]) -> list[str]:
    """Every file ``paths`` name, the levels of a folder among them too (``levels.level_files``),
    and the file of a label ``FILE#ID`` (``formats.file_of``): what an output given beside them
    must not be."""
    found = [formats.file_of(raw) if raw and not codes.is_code(raw) else raw for raw in paths]
    for raw in list(found):
        if raw and not codes.is_code(raw) and os.path.isdir(raw):
            found += (str(file) for file in levels.level_files(raw) if isinstance(file, Path))
    return found


def _load_one(path: Path) -> Iterator[LevelRef]:
    """The levels in one file of any format the converter reads (a CSPLib file holds several)."""
    try:
        found = formats.read(path)
    except levels.LevelError as error:
        # a code that does not open is labelled short: it may be 100,000 characters long
        yield LevelRef(codes.label(str(path)) if codes.is_code(str(path)) else shown(path), None, str(error))
        return
    if len(found) == 1:
        yield LevelRef(shown(path), found[0])
        return
    for ident, puzzle in zip(formats.board_ids(found), found):
        yield LevelRef(f"{shown(path)}#{ident}", puzzle)


def run_solver(puzzle: Puzzle, solver: str, *, timeout: float | None = None, seed: int = 0) -> Result:
    """Run one solver quietly to its Result, within ``timeout`` seconds."""
    started = time.perf_counter()
    spec = registry.get(solver)
    result = run_to_result(spec.events(puzzle, trace=False, seed=seed, options=own.within(spec, timeout)),
                           timeout=timeout)
    stats = dict(result.stats)
    stats.setdefault("seconds", elapsed(started))
    return replace(result, stats=stats)


def judge(puzzle: Puzzle, result: Result) -> Result:
    """Re-check a ``solved`` answer with the rules; a wrong answer becomes an ``error``."""
    if result.status is Status.SOLVED:
        problems = ["no board"] if result.grid is None else [p.message for p in rules.violations(puzzle, result.grid)]
        if problems:
            return Result(Status.ERROR, result.grid, result.stats, result.solutions,
                          f"answer rejected by the rules: {problems[0]}")
    return result


def solution_lines(result: Result) -> list[str] | None:
    """A judged result's solution as lines of text (``judge``), None unless it is solved."""
    if result.status is not Status.SOLVED:
        return None
    assert result.grid is not None      # (judged: a solved result without a board is an error)
    return list(grid_to_strings(result.grid))


def solve_record(ref: LevelRef, solver: str, timeout: float | None, seed: int) -> dict:
    failed: dict[str, object] = {"level": ref.label, "solver": solver, "status": "error", "solution": None,
                                 "stats": {}}
    if ref.puzzle is None:
        return {**failed, "error": ref.error}
    try:
        result = judge(ref.puzzle, run_solver(ref.puzzle, solver, timeout=timeout, seed=seed))
    except Exception as error:  # noqa: BLE001 - one broken level must not end a batch
        return {**failed, "error": f"{type(error).__name__}: {error}"}
    return result_record(ref, solver, result)


def result_record(ref: LevelRef, solver: str, result: Result) -> dict:
    """The record of one judged run (see ``judge``) of ``solver`` on ``ref``'s level."""
    status = result.status.value
    record = {"level": ref.label, "solver": solver, "status": status, "solution": solution_lines(result),
              "stats": _clean_stats(result.stats)}
    if status == "stuck" and result.grid is not None:
        record["board"] = list(grid_to_strings(result.grid))
    if status == "error":
        record["error"] = result.message
    elif result.message:                # why a run ended without an answer: stuck, gave up, out of time
        record["message"] = result.message
    return record


def checked(ref: LevelRef, timeout: float | None, jobs: int | None = 1) -> tuple[dict, Grid | None]:
    """The level's verdict as a record (see ``solvers.engine.verdict``) with ``jobs`` searches
    on as many cores (``None``: every core), and the level's one solution when it is unique
    (else None)."""
    failed = {"level": ref.label, "status": "error", "solutions": None}
    if ref.puzzle is None:
        return {**failed, "error": ref.error}, None
    try:
        verdict = decide(ref.puzzle, limit=2, timeout=timeout, jobs=jobs)
    except Exception as error:  # noqa: BLE001 - one broken level must not end a batch
        return {**failed, "error": f"{type(error).__name__}: {error}"}, None
    record = {"level": ref.label, "status": verdict.kind.value,
              "solutions": len(verdict.solutions) if verdict.decided else None,
              "seconds": verdict.stats.get("seconds")}
    if verdict.kind is Kind.UNDECIDED:
        record.update(found=len(verdict.solutions), error=verdict.message)
    return record, verdict.solution


def _clean_stats(stats: Mapping[str, object]) -> dict[str, object]:
    clean: dict[str, object] = {}
    for key, value in stats.items():
        if isinstance(value, float):
            clean[key] = round(value, 6)
        elif isinstance(value, (int, str, bool)) or value is None:
            clean[key] = value
        elif isinstance(value, dict):
            clean[key] = _clean_stats(value)
    return clean


def board_text(puzzle: Puzzle, grid_lines: list[str] | None) -> str:
    """The board with its tallies, for terminals: '#' ship, '.' water, '?' unknown."""
    def tally(value: int | None) -> str:
        return "?" if value is None else str(value)

    width = max(len(tally(t)) for t in puzzle.col_tallies) + 1
    header = " " * 4 + "".join(tally(t).rjust(width) for t in puzzle.col_tallies)
    lines = [header]
    for r in range(puzzle.rows):
        row = grid_lines[r] if grid_lines else "?" * puzzle.cols
        cells = "".join(ch.rjust(width) for ch in row)
        lines.append(f"{tally(puzzle.row_tallies[r]):>3} {cells}")
    return "\n".join(lines)


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


def summarise(records: list[dict]) -> dict[str, float]:
    """The bench table's figures for one solver's records."""
    seconds = [r["stats"].get("seconds", 0.0) for r in records if r.get("stats")]
    return {
        "levels": len(records),
        "solved": sum(r["status"] == "solved" for r in records),
        "verified": sum(bool(r.get("verified")) for r in records),
        "median_s": percentile(seconds, 0.5),
        "p90_s": percentile(seconds, 0.9),
        "max_s": max(seconds, default=0.0),
        "total_s": sum(seconds),
        "nodes": sum(count(r["stats"], "nodes") for r in records if r.get("stats")),
        "backtracks": sum(count(r["stats"], "backtracks") for r in records if r.get("stats")),
    }


def status_counts(records: list[dict]) -> dict[str, int]:
    return dict(Counter(record["status"] for record in records))


def summary_table(solver: str, summary: dict[str, float]) -> str:
    heads = ["solver", "levels", "solved", "verified", "median s", "p90 s", "max s", "total s", "nodes", "backtracks"]
    seconds = [f"{summary[key]:.4f}" for key in ("median_s", "p90_s", "max_s", "total_s")]   # one precision: in order
    values = [solver, summary["levels"], summary["solved"], summary["verified"], *seconds,
              summary["nodes"], summary["backtracks"]]
    return table(heads, [[str(v) for v in values]])


def table(heads: list[str], rows: list[list[str]]) -> str:
    """The rows under their heads, each column right-aligned to its widest entry, two spaces apart."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads)]
    return "\n".join("  ".join(v.rjust(w) for v, w in zip(line, widths)) for line in [heads, *rows])


class ProgressBar:
    """A one-line progress bar on stderr (redrawn in place when stderr is a terminal).

    With a ``total``, a bar that :meth:`advance` moves (when stderr is not a terminal, a line
    at each tenth of the way). Without one, a line saying the stage a long step is at
    (:meth:`stage`) and the time spent, on a terminal only: elsewhere it stays silent. Either
    says when this process waits for compiled code being built (``compiling.notice``)."""

    REDRAW = 0.2            # seconds between redraws of the same text (the clock moving)
    FRESH = 0.05            # seconds between redraws of a stage that changed (a terminal is slow)

    def __init__(self, total: int | None, label: str) -> None:
        self.total, self.label, self.done = None if total is None else max(total, 1), label, 0
        self.stream = sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.started = time.perf_counter()
        self.last_status = ""
        self.drawn = ""                 # the text on the terminal's line now
        self.drawn_status = ""          # the status it shows
        self.drawn_at = 0.0

    def advance(self, status: str) -> None:
        assert self.total is not None
        self.done += 1
        self.last_status = status
        if self.tty or self.done == self.total or self.done % max(1, self.total // 10) == 0:
            self._draw()

    def stage(self, text: str) -> None:
        """The stage a long step is at now (drawn within ``FRESH`` seconds, by it or :meth:`tick`)."""
        self.last_status = text
        self.tick()

    def tick(self) -> None:
        """Redraw the line when it is due: a stage that changed, or the clock (and the compiler's
        notice) every ``REDRAW`` seconds. Often called, seldom drawn."""
        due = self.REDRAW if self.drawn_status == self.last_status else self.FRESH
        if self.tty and time.perf_counter() - self.drawn_at >= due:
            self._draw()

    def _draw(self) -> None:
        spent = time.perf_counter() - self.started
        notice = compiling.notice()
        if self.total is None:
            if not self.tty:
                return
            text = f"{self.label}: {self.last_status}  {spent:.1f}s" + (f"  ({notice})" if notice else "")
        else:
            width = 30
            filled = int(width * self.done / self.total)
            text = (f"{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                    f"{spent:6.1f}s  last: {self.last_status}" + (f"  ({notice})" if notice else ""))
        self.drawn_at, self.drawn_status = time.perf_counter(), self.last_status
        if not self.tty:
            self.stream.write(text + "\n")
        else:
            text = text[:max(10, self._columns() - 1)]    # a wrapped line is not redrawn in place
            self.stream.write("\r" + text.ljust(len(self.drawn)))
            self.drawn = text
        self.stream.flush()

    def _columns(self) -> int:
        """The width of stderr's terminal (stdout may go elsewhere)."""
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
        return columns or shutil.get_terminal_size().columns

    def above(self, line: str) -> None:
        """Print ``line`` on stdout above the progress line (which is drawn again below it)."""
        self._erase()
        print(line, flush=True)
        if self.tty and self.drawn_at:
            self._draw()

    def _erase(self) -> None:
        if self.tty and self.drawn:
            self.stream.write("\r" + " " * len(self.drawn) + "\r")
            self.stream.flush()
            self.drawn = ""

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.close()

    def close(self) -> None:
        """End the line: a bar stays on the screen, a stage line is wiped (what it led to follows)."""
        if self.total is None:
            self._erase()
        elif self.tty:
            self.stream.write("\n")
            self.stream.flush()
