"""Watching a solver: pace its events onto a copy of the board, keep its statistics.

The solver runs in the engine's runner (a worker thread and a bounded queue). Each frame the
window calls :meth:`SolverWatch.pump` with the time since the last frame; the watch takes as
many moves as the speed allows (``speed`` moves per second, 0 = instant) and never works
longer than ``frame_budget`` seconds, so frames stay short even when the solver is fast.
Because the queue is bounded, a solver faster than the animation simply waits.

The run's board is a session of its own (``Session(puzzle, player=False)``): each of the
solver's cells is a move applied by it, and the judge reads it at most once per version. The
player's board is never touched here; the window decides whether to keep the result.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Mapping

from game import files
from game.puzzle import Cell, Coord, Grid, Move, Puzzle
from game.session import Session
from game.ships import prepared
from solvers.engine import registry
from solvers.engine.batch import judge
from solvers.engine.race import Tally
from solvers.engine.runner import SolverRun
from solvers.engine.trace import Recording
from solvers.events import (
    PAUSED,
    VERDICT_WORDS,
    Event,
    Failure,
    Generation,
    Progress,
    Reason,
    Result,
    SetCell,
    Ship,
    Status,
)
from window.depth_plot import BACKTRACK, GUESS, DepthSketch

MAX_PLOT_POINTS = 600
POLL_BATCH = 256
ENDING_SECONDS = 0.2    # how long a worker that has handed over its result is waited for to end


@dataclass(frozen=True)
class Guess:
    """One decision in force: the cells it set (a ship placement sets several at once)."""

    cells: tuple[Coord, ...]
    value: Cell
    depth: int
    detail: str = ""


def make_stream(name: str, puzzle: Puzzle, options: Mapping[str, Any], seed: int) -> Callable:
    """A factory for the runner: the registered solver's traced run. Options are checked
    here, so a bad one is reported before any thread starts (``OptionError``)."""
    spec = registry.get(name)
    chosen = spec.resolve(options)
    return lambda: spec.events(puzzle, trace=True, seed=seed, options=chosen)


class SolverWatch:
    """One solver run shown on the board: its copy of the grid, reasons, guesses and stats."""

    def __init__(self, puzzle: Puzzle, name: str, make: Callable, speed: float = 60,
                 frame_budget: float = 0.006, queue_size: int = 1024, recording: Recording | None = None,
                 solver: str | None = None) -> None:
        """``name``: what the window calls the run; ``solver``: the registered solver's name
        (its records name it so, as a headless race's do; ``name`` when not given)."""
        self.puzzle = puzzle
        self.name = name
        self.solver = name if solver is None else solver
        # A solver that says its steps in words (its last one is shown whole).
        self.explains = self.solver in registry.SOLVERS and registry.get(self.solver).explains
        self.recording = recording              # the run saved as a trace as it goes
        self.trace_path: Path | None = None     # where it was saved, once the run is over
        self.recording_problem: str | None = None   # why the run could not be recorded
        self._writing = threading.Lock()       # held by the worker while it writes an event
        if recording is not None:
            make = recording.wrap(make, self._writing)
        self.board = Session(puzzle, player=False)      # the run's copy, changed by its moves
        self.reasons: dict[Coord, Reason] = {}
        self.backtracked: set[Coord] = set()
        self.guesses: list[Guess] = []
        self.tried: Coord | None = None
        self.last_detail = ""
        self.tally = Tally()                    # moves, decisions, generations, statistics
        self.depth = DepthSketch()              # the search depth over the run
        self.generations: deque = deque()      # (number, best, mean), thinned when long
        self.generation: Generation | None = None
        self.result: Result | None = None
        self.failure: str | None = None
        self.speed = speed
        self.frame_budget = frame_budget
        self.pump_seconds = 0.0                 # how long the last frame's share of events took
        self.events_shown = 0                   # the solver's events taken so far, its result left out
        self.paused = False
        self.version = 0                       # bumped whenever something visible changed
        self._credit = 0.0
        self._steps = 0
        self._stepped = 0                       # the moves shown by Step, while paused
        self._pending: deque = deque()
        self._last_guess = False        # the previous move was a guess: same-depth guesses join it
        self._started = time.perf_counter()
        self._ended: float | None = None
        self._paused_since: float | None = None     # when the pause in force began
        self._paused_for = 0.0                      # the pauses that are over, in seconds
        # A built-in solver reads the level's placement tables: built before its stream, one
        # run at a time (the hints' warm-up and every lane of a race share them).
        prepare = partial(prepared, puzzle) if self.solver in registry.SOLVERS else None
        self._run = SolverRun(make, maxsize=queue_size, prepare=prepare).start()

    # ----- state ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """The run is over (result, failure or stop) and nothing is left to show."""
        return self._ended is not None

    @property
    def running(self) -> bool:
        return not self.finished

    @property
    def solved(self) -> bool:
        """Solved per the judge, not per the solver's word."""
        # The board is the result's grid once a result arrives (see _apply).
        return (self.result is not None and self.result.status is Status.SOLVED and self.result.grid is not None
                and self.board.report.solved)

    @property
    def elapsed(self) -> float:
        """Seconds the run has been going, its pauses left out (a paused run waits for the
        window, so its time and moves per second stand still)."""
        end = self._ended or time.perf_counter()
        held = self._paused_for + (end - self._paused_since if self._paused_since is not None else 0.0)
        return max(0.0, end - self._started - held)

    @property
    def moves_per_second(self) -> float:
        """The moves shown while the run ran, per second of it (those shown one by one with
        Step, while it is paused, are in neither)."""
        return (self.moves - self._stepped) / self.elapsed if self.elapsed > 0 else 0.0

    def grid(self) -> Grid:
        """The run's board as a value."""
        return self.board.grid

    def status_text(self) -> str:
        """The run's state in one line that starts with its name (a solver's message that
        names it again, as a solver of one's own's does with its whole command, is said without
        that name, so that a narrow lane still shows the problem)."""
        if self.failure:
            return f"{self.name}: {self._unnamed(self.failure)}"
        if self.result is not None:
            text = VERDICT_WORDS[self.result.status]
            if self.result.status is Status.SOLVED and not self.solved:
                text = "claimed a solution the judge rejects"
            message = self._unnamed(self.result.message)
            said = "no solution" if self.result.status is Status.NO_SOLUTION else text
            if message.startswith(said):       # the verdict in the solver's words: only what follows it
                message = message[len(said):].lstrip(" :;-")
            extra = f" - {message}" if message else ""
            return f"{self.name}: {text}{extra}"
        if self.finished:
            return f"{self.name}: stopped"
        return f"{self.name}: {'paused' if self.paused else 'running'}"

    def _unnamed(self, message: str) -> str:
        """``message`` without the solver's own name in front of it."""
        named = f"{self.solver}: "
        return message[len(named):] if message.startswith(named) else message

    # ----- control -------------------------------------------------------------------------

    def pause(self, paused: bool | None = None) -> None:
        self._hold((not self.paused) if paused is None else paused)
        self._credit = 0.0
        self.version += 1

    def step(self) -> None:
        """Show exactly one more move (the run stays paused)."""
        self._hold(True)
        self._steps += 1

    def _hold(self, paused: bool) -> None:
        """Pause or resume, keeping the time spent paused out of :attr:`elapsed`."""
        now = time.perf_counter()
        if paused and self._paused_since is None and self._ended is None:
            self._paused_since = now
        elif not paused and self._paused_since is not None:
            self._paused_for += now - self._paused_since
            self._paused_since = None
        if not paused:
            self._steps = 0                            # steps still waiting for their moves: the run goes on
        self.paused = paused

    def stop(self, timeout: float = 0.2) -> None:
        """Immediate: the worker is told to stop (and waited for up to ``timeout`` s); whatever
        was not shown yet is dropped."""
        if not self.finished:
            self._run.stop(timeout)
            self._pending.clear()
            self._ended = time.perf_counter()
            self.version += 1
            self._close_recording()

    @property
    def working(self) -> bool:
        """The worker thread is still alive (it ends within a stop's wait)."""
        return self._run.running

    def signal_stop(self) -> None:
        """Tell the worker to stop without waiting (``stop`` then waits and tidies up)."""
        self._run.stop(timeout=0.0)

    def snapshot(self, path: Path) -> Path | None:
        """A paused run's trace so far (ended as ``stopped``), to rewind it; None if not recorded."""
        if self.recording is None:
            return None
        with self._writing:
            return self.recording.snapshot(path, Result(Status.STOPPED, None, dict(self.stats), (), PAUSED),
                                           self.events_shown)

    def _close_recording(self) -> None:
        """Finish the trace with the judged result (or ``stopped``); a worker that has not
        ended yet may still be writing, and then the trace is dropped. One that has handed
        over its result is ending: it is waited for (up to ``ENDING_SECONDS``), since the
        window may read the result before the worker's thread has had its turn to end."""
        recording, self.recording = self.recording, None
        if recording is None:
            return
        if self._run.running and not self._run.finished and (self.result is None
                                                               or not self._run.stop(ENDING_SECONDS)):
            recording.discard()
            return
        result = self.result or Result(Status.ERROR if self.failure else Status.STOPPED, None, dict(self.stats), (),
                                       self.failure or "stopped")
        try:
            # The worker records ahead of what was shown: the trace ends where the run was seen.
            self.trace_path = recording.finish(judge(self.puzzle, result), self.events_shown)
        except OSError as error:
            self.trace_path = None
            self.recording_problem = f"the run was not recorded ({files.reason(error)})"

    # ----- the frame pump ------------------------------------------------------------------

    def pump(self, dt: float) -> bool:
        """Take this frame's share of events; True if anything visible changed."""
        if self.finished:
            return False
        before = self.version
        if self.paused:
            allowance = float(self._steps)
            self._steps = 0
        elif self.speed <= 0:
            allowance = float("inf")
        else:
            # Credit carries fractions between frames but not a backlog after a stall.
            self._credit = min(self._credit + self.speed * dt, max(1.0, self.speed * 0.1))
            allowance = self._credit
        began = time.perf_counter()
        deadline = began + self.frame_budget
        used, moves = 0, self.moves
        while allowance - used >= 1 or (self.paused is False and self.speed <= 0):
            if not self._pending:
                self._pending.extend(self._run.poll(POLL_BATCH))
                if not self._pending:
                    if self._run.finished:
                        self._end()
                    break
            event = self._pending.popleft()
            if self._apply(event):
                used += 1
            if self.finished or time.perf_counter() > deadline:
                break
        if self.paused:
            self._steps += int(allowance) - used      # a step whose move is not ready yet waits for it
            self._stepped += self.moves - moves       # the cells they changed (a generation is a step, no move)
        elif self.speed > 0:
            self._credit = max(0.0, self._credit - used)
        self.pump_seconds = time.perf_counter() - began
        return self.version != before

    def _end(self) -> None:
        if self._ended is None:
            self._ended = time.perf_counter()
            self.version += 1
            self._close_recording()

    @property
    def moves(self) -> int:
        return self.tally.moves

    @property
    def stats(self) -> dict:
        return self.tally.stats

    def _apply(self, event: Event) -> bool:
        """Apply one event; True if it counts as a move for the pace."""
        self.tally.add(event)
        if not isinstance(event, Result):
            self.events_shown += 1
        if isinstance(event, SetCell):
            self._apply_set_cell(event)
            return True
        if isinstance(event, Generation):
            self.generation = event
            self.generations.append((event.number, event.best, event.mean))
            if len(self.generations) > MAX_PLOT_POINTS:
                # Keep the plot's whole history in a bounded list: drop every other point.
                self.generations = deque(list(self.generations)[::2])
            self.version += 1
            return True
        if isinstance(event, Progress):
            self.version += 1
            return False
        if isinstance(event, Result):
            self.result = event
            if event.grid is not None:
                self.board.replace_board(event.grid, "result")
            if event.status is Status.SOLVED:
                self.tried = None
            self._end()
            return False
        if isinstance(event, Failure):
            self.failure = event.message
            self._end()
            return False
        return False

    def _apply_set_cell(self, event: SetCell) -> None:
        cell = (event.row, event.col)
        self.board.apply((Move(event.row, event.col, Cell(event.value)),))
        self.depth.add(event.depth, GUESS if event.reason is Reason.GUESS else
                       BACKTRACK if event.reason is Reason.BACKTRACK else 0)
        self.last_detail = event.detail
        joins_guess = self._last_guess
        self._last_guess = event.reason is Reason.GUESS
        if event.reason is Reason.BACKTRACK:
            self.reasons.pop(cell, None)
            self.backtracked.add(cell)
            # A backtrack at depth d means the decisions deeper than d are gone.
            self._drop_guesses_deeper_than(event.depth)
            if self.tried == cell:
                self.tried = None
        else:
            self.reasons[cell] = event.reason
            self.backtracked.discard(cell)
            if event.reason is Reason.GUESS:
                # ``depth`` counts the guesses in force, this one included. Consecutive guess
                # moves at one depth are one decision (a ship and the water around it).
                last = self.guesses[-1] if self.guesses else None
                if joins_guess and last is not None and last.depth == event.depth:
                    self.guesses[-1] = Guess(last.cells + (cell,), last.value, last.depth, last.detail)
                else:
                    self._drop_guesses_deeper_than(event.depth - 1)
                    self.guesses.append(Guess((cell,), Cell(event.value), event.depth, event.detail))
                self.tried = cell
            else:
                self._drop_guesses_deeper_than(event.depth)
        self.version += 1

    def _drop_guesses_deeper_than(self, depth: int) -> None:
        # The stack is ordered by depth, so popping from the end is enough (and cheap per move).
        guesses = self.guesses
        while guesses and guesses[-1].depth > depth:
            guesses.pop()

    def best_fleet(self) -> tuple[Ship, ...]:
        if self.generation is None or self.solved:
            return ()
        return tuple(self.generation.best_fleet)
