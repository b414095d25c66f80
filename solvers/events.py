"""What a solver says while it works: small frozen values, streamed by a generator.

A solver is a function ``events(puzzle, *, trace=True, ...) -> Stream``, a generator. It yields
:class:`SetCell` moves (only when ``trace`` is true), :class:`Generation` summaries (genetic
algorithm), :class:`Found` solutions as the exact solvers meet them, :class:`Progress`
heartbeats (at least every few milliseconds of work, so a consumer can time out or stop
it), and exactly one :class:`Result`, last (a move may carry the statistics as of it too).
It knows nothing of threads, queues, clocks of the consumer, or pixels.

Replaying every ``SetCell`` onto ``initial_grid(puzzle)`` reproduces the final board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Generator, Iterable, Mapping, Union

from game.puzzle import Cell, Coord, Grid


class Reason(str, Enum):
    """Why a cell changed; the window colours moves by it."""

    FORCED = "forced"        # a deduction: see SetCell.detail for which
    GUESS = "guess"          # a search decision
    BACKTRACK = "backtrack"  # undone after a contradiction
    FILL = "fill"            # an answer laid on the board, not deduced nor guessed: the first
                             # solution's cells, a genetic run's best fleet, an own solver's answer
    MOVE = "move"            # a player's move (a play saved as a trace)


@dataclass(frozen=True)
class SetCell:
    row: int
    col: int
    value: Cell
    reason: Reason
    detail: str = ""         # e.g. "row 3 tally met", "battleship placement"
    depth: int = 0           # number of guesses in force
    # The solver's counts as of this move, for a watcher who sees the moves one by one (as
    # ``Progress`` says them); the heartbeats say them too, and traces keep only theirs.
    stats: Mapping[str, object] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Ship:
    """One ship on the board: its top-left cell, length, and whether it lies across."""

    row: int
    col: int
    length: int
    horizontal: bool

    def cells(self) -> tuple[Coord, ...]:
        dr, dc = (0, 1) if self.horizontal else (1, 0)
        return tuple((self.row + dr * i, self.col + dc * i) for i in range(self.length))


def board_of(rows: int, cols: int, ships: Iterable[Ship]) -> Grid:
    """The finished board ``ships`` draw: their cells ship, water elsewhere (ships that overlap
    or touch simply draw over each other)."""
    board = [[Cell.WATER] * cols for _ in range(rows)]
    for ship in ships:
        for r, c in ship.cells():
            board[r][c] = Cell.SHIP
    return tuple(tuple(row) for row in board)


@dataclass(frozen=True)
class Generation:
    """Genetic algorithm: one generation's summary."""

    number: int
    best: float
    mean: float
    best_fleet: tuple[Ship, ...]
    restarts: int = 0


@dataclass(frozen=True)
class Found:
    """An exact solver met a solution and goes on if more were asked for. Its ``Result``
    lists it again; a consumer that stops the run early keeps what was found (and judges it,
    like every answer)."""

    grid: Grid


@dataclass(frozen=True)
class Progress:
    """A heartbeat with the statistics so far: numbers, and the text or groups some solvers
    add (the portfolio's ``member``, the logic's ``rules`` by name, a solver of one's own's)."""

    stats: Mapping[str, object] = field(default_factory=dict)


class Status(str, Enum):
    SOLVED = "solved"
    NO_SOLUTION = "no_solution"
    STUCK = "stuck"          # deduction only: no rule applies and the board is not solved
    GAVE_UP = "gave_up"      # incomplete solver (genetic) ran out of its own budget
    TIMEOUT = "timeout"
    STOPPED = "stopped"
    ERROR = "error"


PAUSED = "paused"       # the message that ends a paused run's trace so far (a window's snapshot)
VERDICT_WORDS = {Status.SOLVED: "solved", Status.NO_SOLUTION: "no solution exists", Status.STUCK: "stuck",
                 Status.GAVE_UP: "gave up", Status.TIMEOUT: "timed out", Status.STOPPED: "stopped",
                 Status.ERROR: "error"}


def verdict_said(status: Status, message: str = "") -> str:
    """How a run ended, in words (the window's and the command line's): a paused run's trace
    so far (ended ``stopped`` with the message ``PAUSED``) says "paused", as its run was when
    it was rewound."""
    return PAUSED if status is Status.STOPPED and message == PAUSED else VERDICT_WORDS[status]


@dataclass(frozen=True)
class Result:
    """The last event of every run.

    ``grid`` is the solved board (verified by ``game.rules``) or, for ``stuck``/``gave_up``,
    the best board reached. ``solutions`` holds every solution found (up to the count limit
    the solver was asked for), so ``len(solutions)`` answers "is it unique?"; after a
    ``timeout``, those found before the time ran out. ``stats`` as :class:`Progress` says them.
    """

    status: Status
    grid: Grid | None = None
    stats: Mapping[str, object] = field(default_factory=dict)
    solutions: tuple[Grid, ...] = ()
    message: str = ""


@dataclass(frozen=True)
class Failure:
    """A solver raised: the runner turns the exception into this event."""

    message: str


Event = Union[SetCell, Generation, Found, Progress, Result, Failure]
Stream = Generator[Event, None, None]     # a solver's events: a generator, which its consumer may close early
