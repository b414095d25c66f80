"""Traces: a solver's run saved as JSON lines, and read back to rebuild the board at any event.

A trace is self-contained: line 1 (the header) holds the level as its ``.bs`` object, the
solver, its options and seed and the starting board; then one line per event of the solver's
stream (``solvers.events``), numbered from 1, each with the cells it changes; the last line
is the judged result. Replaying the cell changes of events 1..n onto the starting board gives
the board at event n. README, "Traces", documents every key so that other programs can read
traces without this code.

``read_trace`` validates a whole file in one pass with bounded memory: it keeps the header,
the result and a board every ``CHECKPOINT_EVERY`` events with the file offset that follows,
so ``board_at`` replays at most that many lines from the nearest checkpoint. Every problem is
a ``LevelError`` naming the file and the line.
"""

from __future__ import annotations

import json
import os
import time
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator, Mapping, Union

from game import levels, rules
from game.levels import LevelError
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_SIDE
from game.puzzle import Cell, Grid, Puzzle, grid_to_strings, initial_grid
from solvers.common import run_to_result, settle
from solvers.engine import registry
from solvers.engine.batch import judge
from solvers.events import Event, Failure, Found, Generation, Progress, Reason, Result, SetCell, Status

FORMAT = "battleship-solitaire-trace"
VERSION = 1
CHECKPOINT_EVERY = 1024
MAX_LINE_BYTES = MAX_FILE_BYTES     # a line holds at most a level and some statistics

STATE_OF_CELL = {Cell.UNKNOWN: "unknown", Cell.WATER: "water", Cell.SHIP: "ship"}
CELL_OF_STATE = {name: cell for cell, name in STATE_OF_CELL.items()}
CELL_KINDS = tuple(reason.value for reason in Reason)            # forced, guess, backtrack, fill
KINDS = CELL_KINDS + ("generation", "progress", "found", "failure")
VERDICTS = tuple(status.value for status in Status)

_EVENT_KEYS = {"n", "kind", "cells", "depth", "detail", "stats", "fleet", "solution", "message"}
_RESULT_KEYS = {"kind", "verdict", "solution", "stats", "message", "events"}
_HEADER_KEYS = {"format", "version", "solver", "options", "seed", "limit", "level", "start"}


# --------------------------------------------------------------------------- writing


def _json(value: Any) -> str:
    # Statistics may hold numpy numbers; they are written as plain numbers.
    return json.dumps(value, separators=(",", ":"), default=float, ensure_ascii=False)


class TraceWriter:
    """Writes one run to an open text file: the header at once, then ``event`` for each event
    of the stream and ``result`` once at the end. Cell events are formatted by hand, with their
    constant parts cached: they are most of a trace, and recording must stay cheap."""

    def __init__(self, handle: IO[str], puzzle: Puzzle, solver: str, options: Mapping[str, Any],
                 seed: int, limit: int = 1) -> None:
        self.handle = handle
        self.puzzle = puzzle
        self.count = 0
        self._details: dict[str, str] = {}
        self._reasons = {reason: reason.value for reason in Reason}
        header = {"format": FORMAT, "version": VERSION, "solver": solver, "options": dict(options),
                  "seed": seed, "limit": limit, "level": levels.to_dict(puzzle),
                  "start": list(grid_to_strings(initial_grid(puzzle)))}
        handle.write(_json(header) + "\n")

    def event(self, event: Event) -> None:
        """Write one event (a ``Result`` is written by ``result``, after it is judged)."""
        if isinstance(event, SetCell):
            self.count += 1
            detail = self._details.get(event.detail)
            if detail is None:
                detail = self._details[event.detail] = json.dumps(event.detail, ensure_ascii=False)
            self.handle.write(
                f'{{"n":{self.count},"kind":"{self._reasons[event.reason]}","cells":[{{"row":{event.row},'
                f'"col":{event.col},"state":"{STATE_OF_CELL[event.value]}"}}],"depth":{event.depth},'
                f'"detail":{detail}}}\n')
            return
        if isinstance(event, Result):
            return
        self.count += 1
        line: dict[str, Any] = {"n": self.count}
        if isinstance(event, Generation):
            line.update(kind="generation", cells=[],
                        stats={"generation": event.number, "best": event.best, "mean": event.mean,
                               "restarts": event.restarts},
                        fleet=[[s.row, s.col, s.length, "h" if s.horizontal else "v"] for s in event.best_fleet])
        elif isinstance(event, Progress):
            line.update(kind="progress", cells=[], stats=dict(event.stats))
        elif isinstance(event, Found):
            line.update(kind="found", cells=[], solution=list(grid_to_strings(event.grid)))
        elif isinstance(event, Failure):
            line.update(kind="failure", cells=[], message=event.message)
        else:
            raise TypeError(f"not a solver event: {event!r}")
        self.handle.write(_json(line) + "\n")

    def result(self, result: Result) -> None:
        solution = list(grid_to_strings(result.grid)) if result.status is Status.SOLVED else None
        line = {"kind": "result", "verdict": result.status.value, "solution": solution,
                "stats": dict(result.stats), "message": result.message, "events": self.count}
        self.handle.write(_json(line) + "\n")


def recorded(stream: Iterator[Event], writer: TraceWriter) -> Iterator[Event]:
    """The events of ``stream``, each written to the trace as it passes."""
    try:
        for event in stream:
            writer.event(event)
            yield event
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()


def record_run(puzzle: Puzzle, solver: str, path: Union[str, os.PathLike], *, seed: int = 0,
               timeout: float | None = None, options: Mapping[str, Any] | None = None,
               limit: int = 1) -> Result:
    """Run ``solver`` on ``puzzle`` and save the run as a trace at ``path``. The result is
    judged by the rules (``batch.judge``) before it is written, and returned. The file is
    written beside ``path`` and renamed at the end, so a crash never leaves half a trace."""
    spec = registry.get(solver)
    chosen = spec.resolve(options)
    path = Path(path)
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as handle:
            writer = TraceWriter(handle, puzzle, solver, chosen, seed, limit)
            started = time.perf_counter()
            stream = spec.events(puzzle, trace=True, seed=seed, limit=limit, options=chosen)
            result = run_to_result(recorded(stream, writer), timeout=timeout)
            stats = dict(result.stats)
            stats.setdefault("seconds", round(time.perf_counter() - started, 6))
            result = judge(puzzle, Result(result.status, result.grid, stats, result.solutions, result.message))
            writer.result(result)
        os.replace(temporary, path)
    except BaseException:
        if temporary.exists():
            temporary.unlink()
        raise
    return result


# --------------------------------------------------------------------------- reading


@dataclass
class Trace:
    """A validated trace: what its header and result say, and checkpoints for ``board_at``."""

    path: str
    puzzle: Puzzle
    solver: str
    options: dict
    seed: int
    limit: int
    start: Grid
    events: int
    verdict: str
    solution: Grid | None
    stats: dict
    message: str
    _checkpoints: list[tuple[int, int, bytes]] = field(default_factory=list, repr=False)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number has more than {MAX_DIGITS} digits")
    return int(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _decode(raw: bytes, where: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"), parse_int=_parse_int, parse_constant=_refuse_constant)
    except UnicodeDecodeError as error:
        raise LevelError(where, f"is not UTF-8 text (bad byte at offset {error.start})") from None
    except json.JSONDecodeError as error:
        raise LevelError(where, f"is not valid JSON: {error.msg} at column {error.colno}") from None
    except RecursionError:
        raise LevelError(where, "is not valid JSON: nested too deeply") from None
    except ValueError as error:
        raise LevelError(where, str(error)) from None


def _lines(handle: IO[bytes], path: str, first: int = 1) -> Iterator[tuple[int, int, Any]]:
    """(line number, offset after the line, decoded JSON) of each line, at most
    ``MAX_LINE_BYTES`` long; blank lines are refused (a trace never has them)."""
    number = first - 1
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        where = f"{path}:{number}"
        if len(raw) > MAX_LINE_BYTES:
            raise LevelError(where, f"line is longer than {MAX_LINE_BYTES:,} bytes")
        if not raw.strip():
            raise LevelError(where, "is blank (a trace has no blank lines)")
        yield number, handle.tell(), _decode(raw, where)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _plain_stats(value: Any, where: str, key: str = "stats") -> dict:
    """Statistics: names to numbers, text, true/false or null, with one level of grouping."""
    if not isinstance(value, dict):
        raise LevelError(where, f"{key} must be an object")
    for name, item in value.items():
        if isinstance(item, dict) and key == "stats":
            _plain_stats(item, where, f"stats.{name}")
        elif not (item is None or isinstance(item, (int, float, str, bool))):
            raise LevelError(where, f"{key}.{name} must be a number, text, true/false or null")
    return value


def _board_lines(value: Any, puzzle: Puzzle, where: str, key: str, allowed: str) -> Grid:
    if (not isinstance(value, list) or len(value) != puzzle.rows
            or any(not isinstance(line, str) or len(line) != puzzle.cols or set(line) - set(allowed)
                   for line in value)):
        raise LevelError(where, f"{key} must be {puzzle.rows} rows of {puzzle.cols} characters "
                                f"from {allowed!r}")
    chars = {".": Cell.WATER, "#": Cell.SHIP, "?": Cell.UNKNOWN}
    return tuple(tuple(chars[ch] for ch in line) for line in value)


def _header(data: Any, path: str) -> tuple[Puzzle, dict]:
    where = f"{path}:1"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LevelError(where, f"is not a trace (line 1 has no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if not _is_int(version) or version < 1:
        raise LevelError(where, f"version must be a whole number >= 1, not {version!r}")
    if version > VERSION:
        raise LevelError(where, f"trace format version {version} is newer than this program reads ({VERSION})")
    unknown = sorted(set(data) - _HEADER_KEYS)
    if unknown:
        raise LevelError(where, f"unknown key {unknown[0]!r} in the header")
    missing = sorted(_HEADER_KEYS - set(data))
    if missing:
        raise LevelError(where, f"the header lacks {missing[0]!r}")
    if not isinstance(data["solver"], str) or not data["solver"]:
        raise LevelError(where, "solver must be a name")
    _plain_stats(data["options"], where, "options")
    for key in ("seed", "limit"):
        if not _is_int(data[key]):
            raise LevelError(where, f"{key} must be a whole number")
    puzzle = levels.from_dict(data["level"], f"{where} (level)")
    if max(puzzle.rows, puzzle.cols) > MAX_SIDE:
        raise LevelError(where, f"the level is {puzzle.rows}x{puzzle.cols}; a side is at most {MAX_SIDE}")
    start = _board_lines(data["start"], puzzle, where, "start", ".#?")
    if start != initial_grid(puzzle):
        raise LevelError(where, "start is not the level's starting board (its hints, the rest unknown)")
    return puzzle, data


def _event(data: Any, expected: int, puzzle: Puzzle, where: str) -> list[tuple[int, int, int]]:
    """Check one event line; its cell changes as (row, col, cell value)."""
    if not isinstance(data, dict):
        raise LevelError(where, "an event line is a JSON object")
    unknown = sorted(set(data) - _EVENT_KEYS)
    if unknown:
        raise LevelError(where, f"unknown key {unknown[0]!r} in an event")
    if data.get("n") != expected or not _is_int(data.get("n")):
        raise LevelError(where, f"event number is {data.get('n')!r}, expected {expected} "
                                "(a line is missing, repeated or out of order)")
    if data.get("kind") not in KINDS:
        raise LevelError(where, f"kind {data.get('kind')!r} is not one of {', '.join(KINDS)}")
    cells = data.get("cells")
    if not isinstance(cells, list):
        raise LevelError(where, "cells must be a list")
    changes = []
    for cell in cells:
        if not isinstance(cell, dict) or set(cell) != {"row", "col", "state"}:
            raise LevelError(where, "each cell change is an object with row, col and state")
        row, col, state = cell["row"], cell["col"], cell["state"]
        if not (_is_int(row) and _is_int(col) and puzzle.inside(row, col)):
            raise LevelError(where, f"cell {row!r},{col!r} is outside the {puzzle.rows}x{puzzle.cols} board")
        if state not in CELL_OF_STATE:
            raise LevelError(where, f"state {state!r} is not ship, water or unknown")
        changes.append((row, col, int(CELL_OF_STATE[state])))
    if "depth" in data and (not _is_int(data["depth"]) or data["depth"] < 0):
        raise LevelError(where, "depth must be a whole number >= 0")
    for key in ("detail", "message"):
        if key in data and not isinstance(data[key], str):
            raise LevelError(where, f"{key} must be text")
    if "stats" in data:
        _plain_stats(data["stats"], where)
    if "solution" in data:
        _board_lines(data["solution"], puzzle, where, "solution", ".#")
    if "fleet" in data and not (isinstance(data["fleet"], list) and all(
            isinstance(s, list) and len(s) == 4 and all(_is_int(v) for v in s[:3]) and s[3] in ("h", "v")
            for s in data["fleet"])):
        raise LevelError(where, "fleet must be a list of [row, col, length, \"h\" or \"v\"]")
    return changes


def read_trace(path: Union[str, os.PathLike]) -> Trace:
    """Read and check a whole trace; ``LevelError`` ("<file>:<line>: <problem>") if it is
    damaged or not a trace. A solved trace's solution is judged by the rules, and replaying
    its events must reach it."""
    name = str(path)
    try:
        handle = open(path, "rb")
    except IsADirectoryError:
        raise LevelError(name, "is a folder, not a trace") from None
    except FileNotFoundError:
        raise LevelError(name, "no such file") from None
    except OSError as error:
        raise LevelError(name, f"cannot be read ({error.strerror or error})") from None
    with handle:
        lines = _lines(handle, name)
        first = next(lines, None)
        if first is None:
            raise LevelError(name, "is empty")
        _, offset, data = first
        puzzle, header = _header(data, name)
        start = initial_grid(puzzle)
        board = bytearray(value for row in start for value in row)
        cols = puzzle.cols
        checkpoints = [(0, offset, bytes(board))]
        count, result, result_line = 0, None, 0
        for number, offset, data in lines:
            where = f"{name}:{number}"
            if result is not None:
                raise LevelError(where, "a line follows the result line")
            if isinstance(data, dict) and data.get("kind") == "result":
                result, result_line = data, number
                continue
            count += 1
            for row, col, value in _event(data, count, puzzle, where):
                board[row * cols + col] = value
            if count % CHECKPOINT_EVERY == 0:
                checkpoints.append((count, offset, bytes(board)))
    if result is None:
        raise LevelError(f"{name}:{count + 2}", "the trace ends without a result line (cut short?)")
    verdict, solution = _result(result, count, puzzle, board, f"{name}:{result_line}")
    return Trace(name, puzzle, header["solver"], header["options"], header["seed"], header["limit"], start,
                 count, verdict, solution, result["stats"], result["message"], checkpoints)


def _result(data: dict, count: int, puzzle: Puzzle, board: bytearray, where: str) -> tuple[str, Grid | None]:
    unknown = sorted(set(data) - _RESULT_KEYS)
    missing = sorted(_RESULT_KEYS - set(data))
    if unknown or missing:
        raise LevelError(where, f"the result line has an unknown key {unknown[0]!r}" if unknown
                         else f"the result line lacks {missing[0]!r}")
    if data["verdict"] not in VERDICTS:
        raise LevelError(where, f"verdict {data['verdict']!r} is not one of {', '.join(VERDICTS)}")
    if data["events"] != count:
        raise LevelError(where, f"the result counts {data['events']!r} events, the trace has {count}")
    _plain_stats(data["stats"], where)
    if not isinstance(data["message"], str):
        raise LevelError(where, "message must be text")
    if data["verdict"] != Status.SOLVED.value:
        if data["solution"] is not None:
            raise LevelError(where, f"a {data['verdict']} result has no solution (null)")
        return data["verdict"], None
    solution = _board_lines(data["solution"], puzzle, where, "solution", ".#")
    problems = rules.violations(puzzle, solution)
    if problems:
        raise LevelError(where, f"the solution breaks the rules: {problems[0].message}")
    cols = puzzle.cols
    final = settle(tuple(tuple(Cell(board[r * cols + c]) for c in range(cols)) for r in range(puzzle.rows)))
    if final != solution:
        raise LevelError(where, "replaying the events does not reach the solution")
    return data["verdict"], solution


def events(trace: Trace, first: int = 1) -> Iterator[tuple[int, dict]]:
    """(n, event line) for the events from ``first`` on, read from the file again."""
    index = max(0, bisect_right([c[0] for c in trace._checkpoints], first - 1) - 1)
    count, offset, _ = trace._checkpoints[index]
    with open(trace.path, "rb") as handle:
        handle.seek(offset)
        for _, _, data in _lines(handle, trace.path, first=count + 2):
            if not isinstance(data, dict) or data.get("kind") == "result":
                return
            count += 1
            if count >= first:
                yield count, data


def board_at(trace: Trace, n: int) -> Grid:
    """The board after events 1..n (n = 0: the starting board), rebuilt from the file by
    replaying forward from the nearest checkpoint."""
    if not 0 <= n <= trace.events:
        raise ValueError(f"event {n} is outside 0..{trace.events}")
    checkpoints = trace._checkpoints
    index = bisect_right([c[0] for c in checkpoints], n) - 1
    count, offset, saved = checkpoints[index]
    board = bytearray(saved)
    cols = trace.puzzle.cols
    if n > count:
        with open(trace.path, "rb") as handle:
            handle.seek(offset)
            for number, _, data in _lines(handle, trace.path, first=count + 2):
                count += 1
                for row, col, value in _event(data, count, trace.puzzle, f"{trace.path}:{number}"):
                    board[row * cols + col] = value
                if count == n:
                    break
    return tuple(tuple(Cell(board[r * cols + c]) for c in range(cols)) for r in range(trace.puzzle.rows))
