"""Traces: a solver's run saved as JSON lines, and read back to rebuild the board at any event.

A trace is self-contained: line 1 (the header) holds the level as its ``.bs`` object, the
solver, its options and seed and the starting board; then one line per event of the solver's
stream (``solvers.events``), numbered from 1, each with the cells it changes; the last line
is the judged result. Replaying the cell changes of events 1..n onto the starting board gives
the board at event n. docs/guide/racing-and-replay.md, "Traces", documents every key so that
other programs can read traces without this code.

``read_trace`` validates a whole file in one pass with bounded memory: it keeps the header,
the result and a board every ``CHECKPOINT_EVERY`` events with the file offset that follows,
so ``board_at`` replays at most that many lines from the nearest checkpoint. Every problem is
a ``LevelError`` naming the file and the line. It holds the level reader's contract: a regular
file only (a pipe is refused, never waited on), every value's type and range checked (texts up
to ``MAX_TRACE_TEXT`` characters, a genetic fleet's ships on the board), and a file changed or
replaced after it was read is refused when it is read again, never half-read.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from bisect import bisect_right
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Callable, ContextManager, Iterable, Iterator, Mapping, Union

from game import files, levels, rules
from game.levels import LevelError, json_problem
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_FLEET_SHIPS, MAX_SIDE, MAX_TRACE_STATS, MAX_TRACE_TEXT
from game.puzzle import Cell, Grid, Puzzle, grid_from_strings, grid_to_strings, initial_grid
from game.session import Step
from solvers.common import elapsed, replay, run_to_result, unknown_as_water
from solvers.engine import registry
from solvers.engine.batch import judge, solution_lines
from solvers.events import Event, Failure, Found, Generation, Progress, Reason, Result, SetCell, Ship, Status
from solvers.own import spec as own

FORMAT = "battleship-solitaire-trace"
VERSION = 1
CHECKPOINT_EVERY = 1024
MAX_CHECKPOINTS = 4096
HELD = 2048     # event lines a writer keeps in memory, unwritten: more than a window's run is recorded
                # ahead of what it has shown (its queue and a poll), so the trace can end where the run was seen
TAILS_KEPT = 4096   # a writer's cached line ends (depth and detail), each of at most 1,000 characters of detail
MAX_LINE_BYTES = MAX_FILE_BYTES     # a line holds at most a level and some statistics

STATE_OF_CELL = {Cell.UNKNOWN: "unknown", Cell.WATER: "water", Cell.SHIP: "ship"}
CELL_OF_STATE = {name: cell for cell, name in STATE_OF_CELL.items()}
CELL_KINDS = tuple(reason.value for reason in Reason)            # forced, guess, backtrack, fill
KINDS = CELL_KINDS + ("generation", "progress", "found", "failure")
VERDICTS = tuple(status.value for status in Status)

_EVENT_KEYS = {"n", "kind", "cells", "depth", "detail", "stats", "fleet", "solution", "message"}
_RESULT_KEYS = {"kind", "verdict", "solution", "stats", "message", "events"}
_HEADER_KEYS = {"format", "version", "solver", "options", "seed", "limit", "level", "start"}
_HEADER_MAY = {"dropped"}       # keys a header may have besides those


# --------------------------------------------------------------------------- writing


def _json(value: Any) -> str:
    # Statistics may hold numpy numbers; they are written as plain numbers.
    return json.dumps(_finite(value), separators=(",", ":"), default=float, ensure_ascii=False)


def _finite(value: Any) -> Any:
    """JSON has no infinity or NaN (e.g. the fitness of a generation with no valid fleet): null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value


class TraceWriter:
    """Writes one run to an open text file: the header at once, then ``event`` for each event
    of the stream and ``result`` once at the end. Cell events are formatted by hand, with their
    constant parts cached: they are most of a trace, and recording must stay cheap.

    ``most``: the events the file keeps, the latest (None: all). A file (seekable) that reaches
    ``most`` is rewritten from a point about halfway: its header then starts from the board at
    that point and says how many events were ``dropped`` before it; the events keep their
    numbers."""

    def __init__(self, handle: IO[str], puzzle: Puzzle, solver: str, options: Mapping[str, Any], seed: int,
                 most: int | None = None) -> None:
        self.handle = handle
        self.puzzle = puzzle
        self.count = 0
        self.most = most
        self.dropped = 0                        # the run's first events, no longer in the file
        self._pending: list[str] = []
        self._changes: list[int] = []           # with ``most``: each pending line's cell change (-1: none)
        self._written = 0                       # events written to the file, the dropped ones included
        self._mark: tuple[int, int, bytes] | None = None   # (events, file offset, board) to keep from
        cols = puzzle.cols
        # '"cells":[...]' for each (cell, state), indexed by (row * cols + col) * 3 + state
        self._cells = [f'"cells":[{{"row":{index // 3 // cols},"col":{index // 3 % cols},'
                       f'"state":"{STATE_OF_CELL[Cell(index % 3)]}"}}]' for index in range(puzzle.rows * cols * 3)]
        self._tails: dict[tuple[str, int, str], str] = {}
        header = {"format": FORMAT, "version": VERSION, "solver": solver, "options": dict(options),
                  "seed": seed, "limit": 1, "level": levels.to_dict(puzzle),  # a recorded run asks for one solution
                  "start": list(grid_to_strings(initial_grid(puzzle)))}
        self._header = header
        line = _json(header) + "\n"
        self._bytes = len(line.encode("utf-8"))     # the file's length
        self._board = bytearray(value for row in initial_grid(puzzle) for value in row)   # after the written events
        handle.write(line)

    def event(self, event: Event) -> None:
        """Write one event (a ``Result`` is written by ``result``, after it is judged)."""
        if type(event) is SetCell:
            self.count += 1
            key = (event.reason._value_, event.depth, event.detail)
            tail = self._tails.get(key)
            if tail is None:
                if len(self._tails) >= TAILS_KEPT:      # a solver whose every detail differs: the cache starts again
                    self._tails.clear()
                tail = self._tails[key] = f'"depth":{key[1]},"detail":{json.dumps(key[2], ensure_ascii=False)}}}\n'
            pending = self._pending
            index = (event.row * self.puzzle.cols + event.col) * 3 + event.value
            pending.append(f'{{"n":{self.count},"kind":"{key[0]}",{self._cells[index]},{tail}')
            if self.most is not None:
                self._changes.append(index)
            if len(pending) >= HELD + 4096:
                self.flush(HELD)
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
            line.update(kind="failure", cells=[], message=event.message[:MAX_TRACE_TEXT])
        else:
            raise TypeError(f"not a solver event: {event!r}")
        self._pending.append(_json(line) + "\n")
        if self.most is not None:
            self._changes.append(-1)

    def flush(self, keep: int = 0) -> None:
        """Write the lines held in memory, all but the last ``keep``."""
        pending = self._pending
        upto = len(pending) - keep
        if upto > 0:
            chunk = "".join(pending[:upto])
            self.handle.write(chunk)
            del pending[:upto]
            self._written += upto
            if self.most is not None:
                self._bytes += len(chunk) if chunk.isascii() else len(chunk.encode("utf-8"))
                board = self._board
                for index in self._changes[:upto]:
                    if index >= 0:
                        board[index // 3] = index % 3
                del self._changes[:upto]
                self._keep_latest(self.most)

    def _keep_latest(self, most: int) -> None:
        """Past half of ``most`` events in the file, mark where the file may restart; at
        ``most``, restart it there (the events before it dropped)."""
        kept = self._written - self.dropped
        if self._mark is None and kept >= most // 2:
            self._mark = (self._written, self._bytes, bytes(self._board))
        elif self._mark is not None and kept >= most:
            self._restart(*self._mark)
            self._mark = None

    def _restart(self, events: int, offset: int, board: bytes) -> None:
        """The file from ``offset`` on (event ``events`` + 1 on), moved to its start under a
        header whose board is ``board`` and which says ``events`` were dropped."""
        handle = self.handle
        try:
            handle.flush()
            fd = handle.fileno()
            os.lseek(fd, 0, os.SEEK_CUR)        # a pipe or a device cannot be rewritten: kept whole
        except (OSError, ValueError, AttributeError):
            self.most = None
            self._changes.clear()
            return
        start = list(grid_to_strings(_grid(board, self.puzzle)))
        head = (_json({**self._header, "dropped": events, "start": start}) + "\n").encode("utf-8")
        source, target = offset, len(head)      # the header grows by a few bytes; an event line is longer
        while source < self._bytes:
            block = os.pread(fd, min(1 << 20, self._bytes - source), source)
            if not block:
                break
            os.pwrite(fd, block, target)
            source, target = source + len(block), target + len(block)
        os.pwrite(fd, head, 0)
        os.ftruncate(fd, target)
        handle.seek(0, os.SEEK_END)
        self._bytes, self.dropped = target, events

    def held(self, events: int | None = None) -> tuple[list[str], int]:
        """The lines still in memory up to event ``events`` (all when None; those after it
        dropped as far back as memory goes, at least ``HELD``), and the event they end at."""
        lines = self._pending
        drop = 0 if events is None else max(0, min(len(lines), self.count - events))
        return lines[:len(lines) - drop], self.count - drop

    def cut(self, events: int) -> None:
        """End the trace at event ``events``: the events after it are dropped (see ``held``)."""
        self._pending[:], self.count = self.held(events)
        del self._changes[len(self._pending):]

    def result(self, result: Result) -> None:
        self.flush()
        self.handle.write(self.result_line(result))

    def result_line(self, result: Result, events: int | None = None) -> str:
        line = {"kind": "result", "verdict": result.status.value, "solution": solution_lines(result),
                "stats": dict(result.stats), "message": result.message[:MAX_TRACE_TEXT],
                "events": self.count if events is None else events}
        return _json(line) + "\n"


class Recording:
    """A run saved as it goes, by ``game.files.Output``: the trace is written to a temporary
    file of a unique name beside ``path`` and moved there by :meth:`finish`, so a crash never
    leaves half a trace and two runs never share a temporary file. ``wrap`` a stream factory
    to record what the stream yields (in whichever thread runs it). A failed write ends the
    recording (``failure``), never the run; :meth:`finish` then raises ``OutputError``."""

    def __init__(self, path: Union[str, os.PathLike], puzzle: Puzzle, solver: str, options: Mapping[str, Any],
                 seed: int, inputs: Iterable[Union[str, os.PathLike]] = (), most: int | None = None) -> None:
        """``most``: the events the trace keeps, the latest (see ``TraceWriter``)."""
        self.path = Path(path)
        self.output = files.Output(self.path, inputs=inputs, buffering=1 << 20)
        self.handle = self.output.handle
        self.failure: files.OutputError | None = None
        try:
            self.writer = TraceWriter(self.handle, puzzle, solver, options, seed, most)
        except OSError as error:
            raise self.fail(error) from None
        except BaseException:
            self.output.discard()
            raise

    def fail(self, error: OSError) -> files.OutputError:
        """Stop recording: the run goes on, the trace is dropped, ``failure`` (returned) says why."""
        if self.failure is None:
            self.failure = files.failure(self.path, error)
            self.output.discard()
        return self.failure

    def wrap(self, make: Callable[[], Iterator[Event]], guard: ContextManager | None = None
             ) -> Callable[[], Iterator[Event]]:
        """``make``'s stream, each event written to the trace as it passes (inside ``guard``, a
        lock the caller holds while it takes a snapshot of a run still going)."""
        return lambda: self._recorded(make(), guard or nullcontext())

    def _recorded(self, stream: Iterator[Event], guard: ContextManager) -> Iterator[Event]:
        try:
            for event in stream:
                if self.failure is None:
                    try:
                        with guard:
                            self.writer.event(event)
                    except OSError as error:
                        self.fail(error)
                yield event
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()

    def snapshot(self, path: Union[str, os.PathLike], result: Result, events: int | None = None) -> Path:
        """The run so far as a whole trace at ``path``, ended by ``result`` after event
        ``events`` (a window's run is recorded ahead of what it has shown: the events after
        it are left out; see ``TraceWriter.held``). The caller makes sure no event is being
        written meanwhile; the recording goes on."""
        if self.failure is not None:
            raise self.failure
        staged = self.output.staged
        if staged is None:                      # written through: a device or a FIFO
            raise files.OutputError(self.path, "is not a file that can be read back")
        self.handle.flush()
        lines, count = self.writer.held(events)

        def fill(handle) -> None:
            with open(staged, "rb") as source:
                shutil.copyfileobj(source, handle)
            handle.write("".join(lines).encode("utf-8"))
            handle.write(self.writer.result_line(result, count).encode("utf-8"))
        return files.write_with(path, fill)

    def finish(self, result: Result, events: int | None = None) -> Path:
        """Write the (judged) result after event ``events`` (all when None; see ``snapshot``)
        and move the trace into place (``OutputError`` when the recording failed or the last
        write fails: the old file is then as it was)."""
        if self.failure is not None:
            raise self.failure
        try:
            if events is not None:
                self.writer.cut(events)
            self.writer.result(result)
            return self.output.commit()
        except OSError as error:
            raise self.fail(error) from None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        self.output.discard()


def record_play(path: Union[str, os.PathLike], puzzle: Puzzle, steps: Iterable[Step],
                solved: bool, seconds: float = 0.0) -> Path:
    """A player's play as a trace (solver ``player``): each move a ``move`` event, in the
    order played, its depth the trials open after its step and its detail the step's label
    when the step opened, kept or abandoned a trial (an abandon's moves put cells back);
    the result ``solved`` when the judge accepts the last board, else ``stopped``."""
    recording = Recording(path, puzzle, "player", {}, 0)
    try:
        moves = [SetCell(move.row, move.col, move.value, Reason.MOVE, step.label if step.kind else "", step.depth)
                 for step in steps for move in step.moves]
        for move in moves:
            recording.writer.event(move)
        grid = replay(initial_grid(puzzle), moves)
        status = Status.SOLVED if solved and rules.judge(puzzle, grid).solved else Status.STOPPED
        # A board the judge accepts may leave cells unknown: the solution has them as water.
        solution = unknown_as_water(grid) if status is Status.SOLVED else None
        result = Result(status, solution, {"seconds": round(seconds, 3)})
    except BaseException:
        recording.discard()
        raise
    return recording.finish(result)


def record_run(puzzle: Puzzle, solver: str, path: Union[str, os.PathLike], *, seed: int = 0,
               timeout: float | None = None, options: Mapping[str, Any] | None = None,
               inputs: Iterable[Union[str, os.PathLike]] = ()) -> Result:
    """Run ``solver`` on ``puzzle`` and save the run as a trace at ``path``. The result is
    judged by the rules (``batch.judge``) before it is written, and returned. When the trace
    cannot be saved, ``game.files.OutputError`` is raised with the run's ``result`` on it."""
    spec = registry.get(solver)
    chosen = spec.resolve({**own.within(spec, timeout), **(options or {})})
    recording = Recording(path, puzzle, solver, chosen, seed, inputs=inputs)
    try:
        started = time.perf_counter()
        stream = recording.wrap(lambda: spec.events(puzzle, trace=True, seed=seed, options=chosen))
        try:
            result = run_to_result(stream(), timeout=timeout)
        except Exception as error:  # noqa: BLE001 - a solver bug is recorded as the run's end
            message = f"solver failed: {type(error).__name__}: {error}"
            recording.writer.event(Failure(message))
            result = Result(Status.ERROR, None, {}, (), message)
        stats = dict(result.stats)
        stats.setdefault("seconds", elapsed(started))
        result = judge(puzzle, replace(result, stats=stats))
    except BaseException:
        recording.discard()
        raise
    try:
        recording.finish(result)
    except files.OutputError as error:
        error.result = result          # the run is not lost with its copy on disk
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
    dropped: int = 0        # the run's first events, left out of the file (its events 1.. are the run's dropped + 1..)
    _checkpoints: list[tuple[int, int, bytes]] = field(default_factory=list, repr=False)
    _stamp: tuple = field(default=(), repr=False)    # the file as it was read: device, inode, size, time


class _Bad(ValueError):
    """A problem with one line; the reader adds the file and the line number."""


def _refuse_constant(name: str) -> Any:
    raise _Bad(f"{name} is not a number JSON allows")


def decode_line(raw: bytes) -> Any:
    """One line of JSON (at most ``MAX_LINE_BYTES``), or ``ValueError`` saying what is wrong
    (trace lines and a solver's own lines alike)."""
    if len(raw) > MAX_LINE_BYTES:
        raise _Bad(f"line is longer than {MAX_LINE_BYTES:,} bytes")
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as error:
        raise _Bad(f"is not UTF-8 text (bad byte at offset {error.start})") from None
    except json.JSONDecodeError as error:
        raise _Bad(json_problem(error, line=False)) from None
    except RecursionError:
        raise _Bad("is not valid JSON: nested too deeply") from None
    except ValueError as error:     # e.g. an integer with thousands of digits
        raise _Bad(f"is not valid JSON: {error}") from None


def _lines(handle: IO[bytes], path: str, first: int = 1) -> Iterator[tuple[int, int, Any]]:
    """(line number, offset after the line, decoded JSON) of each line, at most
    ``MAX_LINE_BYTES`` long; blank lines are refused (a trace never has them)."""
    number = first - 1
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):     # a byte order mark, as an editor may save one
            raw = raw[3:]
        try:
            if len(raw) <= MAX_LINE_BYTES and not raw.strip():
                raise _Bad("is blank (a trace has no blank lines)")
            data = decode_line(raw)
        except _Bad as error:
            raise LevelError(f"{path}:{number}", str(error)) from None
        yield number, handle.tell(), data


def _number(value: Any, key: str) -> None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= _TOO_BIG:
        raise _Bad(f"{key} has more than {MAX_DIGITS} digits")


_TOO_BIG = 10 ** MAX_DIGITS


def _text(value: Any, key: str) -> None:
    if type(value) is not str:
        raise _Bad(f"{key} must be text")
    if len(value) > MAX_TRACE_TEXT:
        raise _Bad(f"{key} is {len(value):,} characters; at most {MAX_TRACE_TEXT:,} are allowed")


def _plain_stats(value: Any, key: str = "stats") -> dict:
    """Statistics: names to numbers, text, true/false or null, with one level of grouping."""
    if not isinstance(value, dict):
        raise _Bad(f"{key} must be an object")
    if len(value) > MAX_TRACE_STATS:
        raise _Bad(f"{key} has {len(value):,} entries; at most {MAX_TRACE_STATS} are allowed")
    for name, item in value.items():
        if len(name) > MAX_TRACE_TEXT:
            raise _Bad(f"a name in {key} is {len(name):,} characters; at most {MAX_TRACE_TEXT:,} are allowed")
        label = f"{key}.{name if len(name) <= 40 else name[:37] + '...'}"    # a message stays one short line
        if isinstance(item, dict) and key == "stats":
            _plain_stats(item, label)
        elif isinstance(item, str):
            _text(item, label)
        elif not (item is None or isinstance(item, (int, float, bool))):
            raise _Bad(f"{label} must be a number, text, true/false or null")
        _number(item, label)
    return value


def _board_lines(value: Any, rows: int, cols: int, key: str, allowed: str) -> Grid:
    if (not isinstance(value, list) or len(value) != rows
            or any(not isinstance(line, str) or len(line) != cols or set(line) - set(allowed) for line in value)):
        raise _Bad(f"{key} must be {rows} rows of {cols} characters from {allowed!r}")
    return grid_from_strings(value)


def _header(data: Any, path: str) -> tuple[Puzzle, dict]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _Bad(f"is not a trace (line 1 has no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise _Bad(f"version must be a whole number >= 1, not {levels.short_repr(version)}")
    if version > VERSION:
        raise _Bad(f"trace format version {levels.short_repr(version)} is newer than this program reads ({VERSION})")
    unknown = sorted(set(data) - _HEADER_KEYS - _HEADER_MAY)
    if unknown:
        raise _Bad(f"unknown key {levels.short_repr(unknown[0])} in the header")
    missing = sorted(_HEADER_KEYS - set(data))
    if missing:
        raise _Bad(f"the header lacks {levels.short_repr(missing[0])}")
    _text(data["solver"], "solver")
    if not data["solver"]:
        raise _Bad("solver must be a name")
    _plain_stats(data["options"], "options")
    for key in ("seed", "limit"):
        if type(data[key]) is not int:
            raise _Bad(f"{key} must be a whole number")
        _number(data[key], key)
    puzzle = levels.from_dict(data["level"], f"{path}:1 (level)")
    if max(puzzle.rows, puzzle.cols) > MAX_SIDE:
        raise _Bad(f"the level is {puzzle.rows}x{puzzle.cols}; a side is at most {MAX_SIDE}")
    start = _board_lines(data["start"], puzzle.rows, puzzle.cols, "start", ".#?")
    dropped = data.get("dropped", 0)
    if type(dropped) is not int or dropped < 0:
        raise _Bad(f"dropped must be a whole number >= 0, not {levels.short_repr(dropped)}")
    _number(dropped, "dropped")
    first = initial_grid(puzzle)
    if not dropped and start != first:
        raise _Bad("start is not the level's starting board (its hints, the rest unknown)")
    if any(was != Cell.UNKNOWN and now != was for row, given in zip(start, first) for now, was in zip(row, given)):
        raise _Bad("start does not keep the level's hints")
    return puzzle, {**data, "dropped": dropped, "start": start}


_CELL_KEYS = {"row", "col", "state"}
_KIND_SET = frozenset(KINDS)
_VALUE_OF_STATE = {name: int(cell) for name, cell in CELL_OF_STATE.items()}


def _event(data: Any, expected: int, rows: int, cols: int) -> list[tuple[int, int, int]]:
    """Check one event line; its cell changes as (row, col, cell value). The common case (a
    well-formed line) takes the first branch of each test, so reading stays fast."""
    if type(data) is not dict:
        raise _Bad("an event line is a JSON object")
    if not data.keys() <= _EVENT_KEYS:
        raise _Bad(f"unknown key {levels.short_repr(sorted(set(data) - _EVENT_KEYS)[0])} in an event")
    number = data.get("n")
    if number != expected or type(number) is not int:
        raise _Bad(f"event number is {levels.short_repr(number)}, expected {expected} "
                   "(a line is missing, repeated or out of order)")
    kind = data.get("kind")
    if type(kind) is not str or kind not in _KIND_SET:
        raise _Bad(f"kind {levels.short_repr(kind)} is not one of {', '.join(KINDS)}")
    cells = data.get("cells")
    if type(cells) is not list:
        raise _Bad("cells must be a list")
    changes = []
    for cell in cells:
        if type(cell) is not dict or cell.keys() != _CELL_KEYS:
            raise _Bad("each cell change is an object with row, col and state")
        state = cell["state"]
        row, col, value = cell["row"], cell["col"], _VALUE_OF_STATE.get(state) if type(state) is str else None
        if type(row) is not int or type(col) is not int or not (0 <= row < rows and 0 <= col < cols):
            where = f"{levels.short_repr(row, 16)},{levels.short_repr(col, 16)}"
            raise _Bad(f"cell {where} is outside the {rows}x{cols} board")
        if value is None:
            raise _Bad(f"state {levels.short_repr(state)} is not ship, water or unknown")
        changes.append((row, col, value))
    depth = data.get("depth", 0)
    if type(depth) is not int or not 0 <= depth <= rows * cols:
        raise _Bad(f"depth must be a whole number from 0 to {rows * cols}")
    detail = data.get("detail", "")
    if type(detail) is not str or len(detail) > MAX_TRACE_TEXT:
        _text(detail, "detail")
    if len(data) > 5 or "depth" not in data:     # anything but a plain cell change
        _event_extras(data, rows, cols)
    return changes


def _event_extras(data: dict, rows: int, cols: int) -> None:
    if "message" in data:
        _text(data["message"], "message")
    if "stats" in data:
        _plain_stats(data["stats"])
    if data["kind"] == "generation":
        _generation(data.get("stats"))
    if "solution" in data:
        _board_lines(data["solution"], rows, cols, "solution", ".#")
    if "fleet" in data:
        _fleet(data["fleet"], rows, cols)


def _generation(stats: Any) -> None:
    """A generation's statistics: its number and restarts so far, and its best and mean
    fitness (null when no fleet of the generation was valid)."""
    if not isinstance(stats, dict):
        raise _Bad("a generation has stats (its number, best and mean)")
    for key in ("generation", "restarts"):
        number = stats.get(key, 0)
        if type(number) is not int or number < 0:
            raise _Bad(f"stats.{key} must be a whole number >= 0, not {levels.short_repr(number)}")
    for key in ("best", "mean"):
        value = stats.get(key)
        if value is not None and (type(value) not in (int, float) or not math.isfinite(value)):
            raise _Bad(f"stats.{key} must be a number or null, not {levels.short_repr(value)}")


def _fleet(fleet: Any, rows: int, cols: int) -> None:
    """A genetic fleet: at most ``MAX_FLEET_SHIPS`` ships [row, col, length, "h" or "v"], each
    wholly on the board."""
    if not isinstance(fleet, list) or len(fleet) > MAX_FLEET_SHIPS:
        raise _Bad(f"fleet must be a list of at most {MAX_FLEET_SHIPS} ships")
    for ship in fleet:
        if not (isinstance(ship, list) and len(ship) == 4 and all(type(v) is int for v in ship[:3])
                and ship[3] in ("h", "v")):
            raise _Bad("fleet must be a list of [row, col, length, \"h\" or \"v\"]")
        row, col, length, way = ship
        end_row, end_col = (row, col + length - 1) if way == "h" else (row + length - 1, col)
        if not (0 <= row and 0 <= col and length >= 1 and end_row < rows and end_col < cols):
            raise _Bad(f"fleet ship {levels.short_repr(ship)} is not on the {rows}x{cols} board")


def read_trace(path: Union[str, os.PathLike], each: Callable[[int, dict, int], None] | None = None) -> Trace:
    """Read and check a whole trace; ``LevelError`` ("<file>:<line>: <problem>") if it is
    damaged or not a trace. A solved trace's solution is judged by the rules, and replaying
    its events must reach it. ``each(n, line, offset)`` sees the header (n = 0) and every
    event line, with the offset where it starts in the file (for ``line_at``), as it is read
    (the window's timeline indexes the run in this one pass)."""
    name = str(path)
    handle = levels.open_regular(path, "a trace")
    stamp = _stamp_of(handle)
    number = 1
    with handle:
        lines = _lines(handle, name)
        first = next(lines, None)
        if first is None:
            raise LevelError(name, "is empty")
        _, offset, data = first
        try:
            puzzle, header = _header(data, name)
            if each is not None:
                each(0, header, 0)
            rows, cols = puzzle.rows, puzzle.cols
            start, dropped = header["start"], header["dropped"]
            board = bytearray(value for row in start for value in row)
            checkpoints = [(0, offset, bytes(board))]
            every = CHECKPOINT_EVERY
            count, result = 0, None
            for number, end, data in lines:
                start_of_line, offset = offset, end
                if result is not None:
                    raise _Bad("a line follows the result line")
                if type(data) is dict and data.get("kind") == "result":
                    result, result_line = data, number
                    continue
                count += 1
                for row, col, value in _event(data, dropped + count, rows, cols):
                    board[row * cols + col] = value
                if each is not None:
                    each(count, data, start_of_line)
                if count % every == 0:
                    checkpoints.append((count, offset, bytes(board)))
                    if len(checkpoints) > MAX_CHECKPOINTS:
                        # A very long trace: keep half the checkpoints, twice as far apart.
                        checkpoints[1:] = checkpoints[2::2]
                        every *= 2
            if result is None:
                number += 1
                raise _Bad("the trace ends without a result line (cut short?)")
            number = result_line
            verdict, solution = _result(result, dropped + count, puzzle, board)
        except _Bad as error:
            raise LevelError(f"{name}:{number}", str(error)) from None
    return Trace(name, puzzle, header["solver"], header["options"], header["seed"], header["limit"], start,
                 count, verdict, solution, result["stats"], result["message"], dropped, checkpoints, stamp)


def _stamp_of(handle: IO[bytes]) -> tuple:
    status = os.fstat(handle.fileno())
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def reopen(trace: Trace) -> IO[bytes]:
    """The trace's file open for reading again, or a ``LevelError`` if it is no longer the
    file that was read (changed, replaced, removed): its offsets would point elsewhere."""
    handle = levels.open_regular(trace.path, "a trace")
    if trace._stamp and _stamp_of(handle) != trace._stamp:
        handle.close()
        raise LevelError(trace.path, "changed since it was read; open it again")
    return handle


def line_at(trace: Trace, offset: int) -> dict:
    """The event line that starts at ``offset`` (as passed to ``read_trace``'s ``each``),
    read from the file again."""
    with reopen(trace) as handle:
        handle.seek(offset)
        for _, _, data in _lines(handle, trace.path):
            if type(data) is dict:
                return data
            break
    raise LevelError(trace.path, "changed since it was read; open it again")


def _result_fields(data: dict, complete: bool) -> tuple[dict, str]:
    """The checks of a result line, a trace's last (``complete``: every key present) or a
    solver's own answer: its keys, verdict, statistics and message."""
    unknown = sorted(set(data) - _RESULT_KEYS)
    missing = sorted(_RESULT_KEYS - set(data)) if complete else []
    if unknown or missing:
        raise _Bad(f"the result line has an unknown key {levels.short_repr(unknown[0])}" if unknown
                   else f"the result line lacks {levels.short_repr(missing[0])}")
    if data.get("verdict") not in VERDICTS:
        raise _Bad(f"verdict {levels.short_repr(data.get('verdict'))} is not one of {', '.join(VERDICTS)}")
    stats = _plain_stats(data.get("stats", {}))
    message = data.get("message", "")
    _text(message, "message")
    return stats, message


def _result(data: dict, count: int, puzzle: Puzzle, board: bytearray) -> tuple[str, Grid | None]:
    _result_fields(data, complete=True)
    if data["events"] != count:
        raise _Bad(f"the result counts {levels.short_repr(data['events'])} events, the trace has {count}")
    if data["verdict"] != Status.SOLVED.value:
        if data["solution"] is not None:
            raise _Bad(f"a {data['verdict']} result has no solution (null)")
        return data["verdict"], None
    solution = _board_lines(data["solution"], puzzle.rows, puzzle.cols, "solution", ".#")
    problems = rules.violations(puzzle, solution)
    if problems:
        raise _Bad(f"the solution breaks the rules: {problems[0].message}")
    if unknown_as_water(_grid(board, puzzle)) != solution:
        raise _Bad("replaying the events does not reach the solution")
    return data["verdict"], solution


def _grid(board: bytes | bytearray, puzzle: Puzzle) -> Grid:
    cols = puzzle.cols
    return tuple(tuple(Cell(board[r * cols + c]) for c in range(cols)) for r in range(puzzle.rows))


def _from_checkpoint(trace: Trace, n: int) -> Iterator[tuple[int, Any, bytearray]]:
    """Seek to the last checkpoint at or before event n; yield (count, event line, board)
    for each event after it, the board already changed by that event."""
    checkpoints = trace._checkpoints
    index = bisect_right([c[0] for c in checkpoints], n) - 1
    count, offset, saved = checkpoints[index]
    board = bytearray(saved)
    rows, cols = trace.puzzle.rows, trace.puzzle.cols
    yield count, None, board
    with reopen(trace) as handle:
        handle.seek(offset)
        for number, _, data in _lines(handle, trace.path, first=count + 2):
            if count == trace.events:
                return
            count += 1
            try:
                changes = _event(data, trace.dropped + count, rows, cols)
            except _Bad as error:
                raise LevelError(f"{trace.path}:{number}", f"{error} (the file changed since it was read)") from None
            for row, col, value in changes:
                board[row * cols + col] = value
            yield count, data, board


def events(trace: Trace, first: int = 1) -> Iterator[tuple[int, dict]]:
    """(n, event line) for the events from ``first`` on, read from the file again."""
    for count, data, _ in _from_checkpoint(trace, max(0, first - 1)):
        if count >= first:
            yield count, data


def board_at(trace: Trace, n: int) -> Grid:
    """The board after events 1..n (n = 0: the starting board), rebuilt from the file by
    replaying forward from the nearest checkpoint."""
    if not 0 <= n <= trace.events:
        raise ValueError(f"event {n} is outside 0..{trace.events}")
    for count, _, board in _from_checkpoint(trace, n):
        if count == n:
            return _grid(board, trace.puzzle)
    raise LevelError(trace.path, f"the file ends before event {n} (it changed since it was read)")


# --------------------------------------------------------------------------- a solver's own lines


def events_of(data: Any, expected: int, puzzle: Puzzle) -> list[Event]:
    """The solver events that one event line stands for, checked as the reader checks a trace
    (``ValueError`` naming the problem): each cell change of a cell kind is one ``SetCell``.
    ``n`` may be left out (it is then ``expected``), and so may ``cells`` of a line that
    changes no cell (``progress``, ``found``, ``failure``, ``generation``: it is then empty).
    Solvers of other programs speak in these lines (see ``solvers.own``)."""
    if type(data) is dict:
        if "n" not in data:
            data = {"n": expected, **data}
        if "cells" not in data and data.get("kind") not in CELL_KINDS:
            data = {**data, "cells": []}
    _event(data, expected, puzzle.rows, puzzle.cols)
    kind = data["kind"]
    if kind in CELL_KINDS:
        reason, depth, detail = Reason(kind), data.get("depth", 0), data.get("detail", "")
        return [SetCell(cell["row"], cell["col"], CELL_OF_STATE[cell["state"]], reason, detail, depth)
                for cell in data["cells"]]
    if kind == "progress":
        return [Progress(dict(data.get("stats", {})))]
    if kind == "failure":
        return [Failure(data.get("message", ""))]
    if kind == "found":
        if "solution" not in data:
            raise _Bad("a found event carries its solution")
        return [Found(_board_lines(data["solution"], puzzle.rows, puzzle.cols, "solution", ".#"))]
    stats = data.get("stats", {})
    fleet = tuple(Ship(r, c, n, way == "h") for r, c, n, way in data.get("fleet", []))
    return [Generation(int(stats.get("generation") or 0), _fitness(stats.get("best")), _fitness(stats.get("mean")),
                       fleet, int(stats.get("restarts") or 0))]


def _fitness(value: Any) -> float:
    return math.inf if value is None else float(value)


def result_of(data: Any, puzzle: Puzzle) -> Result:
    """A solver's own result line (``kind`` and ``verdict``; ``solution`` when solved; ``stats``
    and ``message`` if it likes) as an unjudged ``Result``, or ``ValueError``."""
    if type(data) is not dict or data.get("kind") != "result":
        raise _Bad("a result line is an object with \"kind\": \"result\"")
    stats, message = _result_fields(data, complete=False)
    grid = None
    if data["verdict"] == Status.SOLVED.value:
        grid = _board_lines(data.get("solution"), puzzle.rows, puzzle.cols, "solution", ".#")
    return Result(Status(data["verdict"]), grid, stats, (grid,) if grid else (), message)
