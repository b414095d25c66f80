"""A play of one puzzle (the "midend"): the player's marks, the history of moves, the clock.

Glossary
- *step*: one undoable unit of history: a tuple of :class:`Move` (a click is one move, a drag,
  a line fill, a restart or "keep the solver's board" is a compound step).
- *cursor*: how many steps of the history are in force; undo moves it back, redo forward.
- *trial*: a layer of marks over the board ("what if this is a ship?"). Trials nest; the
  player's marks go into the innermost one. *Abandon* puts every cell it changed back as it
  was when the trial first changed it; *Keep* hands its cells to the layer below. Opening,
  keeping and abandoning are steps of the history like any other, so undo, redo, restart,
  saving and replaying cover them (see docs/design/trial-layers.md).

Every change of the board is a :class:`Move` applied by :meth:`Session.apply` (through
:func:`game.puzzle.apply_move`, forwards and backwards), so undo, redo, restoring saved
progress and replaying all exercise the same code. The judge (``rules.judge``) reads each
board once: :attr:`Session.report` caches its verdict per board version, and every consumer
(tallies, fleet checklist, wrong cells, "solved") reads that one.
UI-only state (keyboard cursor, drag in progress, hover) does not live here.
Nothing in this module knows about pygame, threads or files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Sequence

from game import rules
from game.puzzle import Cell, Coord, Grid, Move, Puzzle, apply_move, initial_grid

# Left click cycles forwards, right click backwards (UX.md).
CYCLE = (Cell.UNKNOWN, Cell.WATER, Cell.SHIP)
# Violations that sit on cells (row, column and fleet errors show on the tallies and fleet).
CELL_KINDS = ("touching", "bent", "too_long", "shape", "hint")


class TallyState(StrEnum):
    """How a row or column tally looks: each state has its own glyph in the window."""

    NEUTRAL = "neutral"      # still open
    MET = "met"              # the ship count is reached; unknown cells remain
    COMPLETE = "complete"    # met and no unknown cell left in the line
    ERROR = "error"          # provably wrong: too many ships, or the tally can no longer be reached
    UNKNOWN = "unknown"      # the level does not give this tally


MAX_TRIALS = 6                      # trials nest this deep (each depth has its own colour)
# The kinds of step that change the trials (a plain step has kind ""); saved as "trial".
TRIAL_STEPS = ("open", "keep", "abandon", "restart")
# The labels of the plain steps that set the whole board: a restart without trials, a solver's
# board kept.
RESTART, KEEP_SOLVER_BOARD = "restart", "keep solver board"
WHOLE_BOARD_STEPS = (RESTART, KEEP_SOLVER_BOARD)
# What a play asked for, counted for the records: hints, checks, solver's boards kept, and
# solver runs that reached the solution on the board; a play with either of the last two is
# not the player's solve (``Session.solver_helped``).
ASKED = ("hint", "check", "solver", "shown")


@dataclass(frozen=True)
class Trial:
    """One trial layer: each cell it changed, with the value the cell had when it first did."""

    origin: Mapping[Coord, Cell] = field(default_factory=lambda: MappingProxyType({}))

    def noting(self, cells: Iterable[tuple[Coord, Cell]]) -> Trial:
        """This trial after changing ``cells`` (cell, value before): the first value is kept."""
        fresh: dict[Coord, Cell] = {}
        for cell, value in cells:                 # a cell changed twice in one step: its first value
            if cell not in self.origin and cell not in fresh:
                fresh[cell] = value
        if not fresh:
            return self
        return Trial(MappingProxyType({**fresh, **self.origin}))


Trials = tuple[Trial, ...]


@dataclass(frozen=True)
class Step:
    """One undoable unit: the moves applied, the values they replaced (for undo), and the
    trials in force before and after it (``kind`` names a step that opens, keeps or abandons
    a trial, or a restart that closes them)."""

    moves: tuple[Move, ...]
    before: tuple[Cell, ...]
    label: str = ""
    kind: str = ""
    trials_before: Trials = ()
    trials_after: Trials = ()

    @property
    def depth(self) -> int:
        """The trial depth the step leaves in force (0: no trial)."""
        return len(self.trials_after)


@dataclass(frozen=True)
class FleetLine:
    """One ship length of the checklist: how many the fleet has and how many are closed."""

    length: int
    wanted: int
    closed: int

    @property
    def done(self) -> bool:
        return self.closed == self.wanted

    @property
    def too_many(self) -> bool:
        return self.closed > self.wanted


@dataclass(frozen=True)
class Report:
    """The judge's reading of one board, in the terms the window shows."""

    judgement: rules.Judgement
    rows: tuple[TallyState, ...]
    cols: tuple[TallyState, ...]
    fleet: tuple[FleetLine, ...]
    wrong_cells: frozenset[Coord]           # cells of the provable problems that sit on cells

    @property
    def solved(self) -> bool:
        return self.judgement.solved

    @classmethod
    def of(cls, puzzle: Puzzle, grid: Sequence[Sequence[Cell]]) -> Report:
        """One call of the judge, everything else derived from its verdict."""
        judgement = rules.judge(puzzle, grid)
        rows, cols = tally_states(puzzle, grid, judgement.problems)
        wrong = frozenset(cell for v in judgement.problems if v.kind in CELL_KINDS for cell in v.cells)
        return cls(judgement, rows, cols, fleet_lines(puzzle, grid, judgement.closed), wrong)


class Session:
    """A board for one puzzle changed only by moves, with undo/redo over steps and a play clock.

    ``player=False`` makes a program's copy (a solver being watched): no undo history is kept
    (a run can make millions of moves), given cells take whatever the program says (so a wrong
    solver shows as wrong), the board is judged only when someone asks, and it never counts
    as the player's solve.
    """

    def __init__(self, puzzle: Puzzle, player: bool = True) -> None:
        self.puzzle = puzzle
        self.player = player
        self.start: Grid = initial_grid(puzzle)
        self.version = 0                    # bumped on every change, so views know when to redraw
        self._report: Report | None = None
        self._report_version = -1
        self._replaying = False             # restoring saved progress: judge the last board only
        self._broken: tuple[int, int | None] = (-1, None)    # (version, trial breaking a rule)
        self.attempt = 0                    # how many times the solved play was started again (play_again)
        self._begin_attempt()

    def _begin_attempt(self) -> None:
        """What one attempt at the puzzle starts with: the hints only, no history, no trial,
        the clock at zero, nothing asked, not solved."""
        self.grid: Grid = self.start
        self.history: list[Step] = []
        self.cursor = 0
        self.elapsed = 0.0                  # seconds of play; stops once solved
        self.solved = False
        self.asked = dict.fromkeys(ASKED, 0)
        self._merge_open = False
        self.trials: Trials = ()            # the open trials, outermost first

    # ----- queries -------------------------------------------------------------------------

    def is_hint(self, row: int, col: int) -> bool:
        return (row, col) in self.puzzle.hints

    def cell(self, row: int, col: int) -> Cell:
        return self.grid[row][col]

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.history)

    @property
    def moves_made(self) -> int:
        return self.cursor

    @property
    def report(self) -> Report:
        """The judge's verdict on the board in force: computed once per board version."""
        if self._report_version != self.version or self._report is None:
            self._report = Report.of(self.puzzle, self.grid)
            self._report_version = self.version
        return self._report

    # ----- trials --------------------------------------------------------------------------

    @property
    def depth(self) -> int:
        """How many trials are open (0: the player marks the committed board)."""
        return len(self.trials)

    def cell_depth(self, row: int, col: int) -> int:
        """The trial whose mark the cell shows (1 = outermost), 0 for a committed mark."""
        value = self.grid[row][col]
        for depth in range(len(self.trials), 0, -1):
            origin = self.trials[depth - 1].origin
            if (row, col) in origin and origin[row, col] != value:
                return depth
        return 0

    def layer_depths(self) -> dict[Coord, int]:
        """Every cell showing a trial's mark, with that trial's depth."""
        found: dict[Coord, int] = {}
        for cell in {cell for trial in self.trials for cell in trial.origin}:
            depth = self.cell_depth(*cell)
            if depth:
                found[cell] = depth
        return found

    def board_below(self, depth: int) -> Grid:
        """The board with only the trials up to ``depth`` (0: the committed board)."""
        grid = self.grid
        for trial in reversed(self.trials[depth:]):
            for (r, c), value in trial.origin.items():
                if grid[r][c] != value:
                    grid = apply_move(grid, Move(r, c, value))
        return grid

    def trial_breaking_rules(self) -> int | None:
        """The outermost trial whose marks break a rule the judge can prove while the board
        below it breaks none; None when there is no such trial. Judged once per version."""
        version, found = self._broken
        if version == self.version:
            return found
        found = None
        if self.trials and self.report.judgement.problems:
            for depth in range(len(self.trials) + 1):
                board = self.grid if depth == len(self.trials) else self.board_below(depth)
                if rules.provable_violations(self.puzzle, board):
                    found = depth or None
                    break
        self._broken = (self.version, found)
        return found

    def tally_states(self) -> tuple[tuple[TallyState, ...], tuple[TallyState, ...]]:
        """(rows, cols) states; errors only where the judge proves them."""
        report = self.report
        return report.rows, report.cols

    def fleet_lines(self) -> tuple[FleetLine, ...]:
        return self.report.fleet

    def problems(self) -> list[rules.Violation]:
        return list(self.report.judgement.problems)

    # ----- changes -------------------------------------------------------------------------

    def apply(self, moves: Iterable[Move], label: str = "", merge: bool = False) -> bool:
        """Apply ``moves`` as one undoable step (hint cells and no-op moves are skipped).

        ``merge`` appends to the previous step instead while it is still open (a drag in
        progress, until :meth:`end_merge`), so a whole drag is undone at once. Returns whether anything changed.
        """
        grid = self.grid
        applied: list[Move] = []
        before: list[Cell] = []
        for move in moves:
            if (self.player and self.is_hint(move.row, move.col)) or grid[move.row][move.col] == move.value:
                continue
            before.append(grid[move.row][move.col])
            applied.append(move)
            grid = apply_move(grid, move)
        if not applied:
            return False
        if not self.player:
            self._set_grid(grid)
            return True
        trials = self.trials
        if trials:
            # The marks go into the innermost trial, which notes what each cell was.
            top = trials[-1].noting(((m.row, m.col), old) for m, old in zip(applied, before))
            trials = trials[:-1] + (top,)
        if merge and self._merge_open and self.history and self.cursor == len(self.history):
            last = self.history.pop()
            step = Step(last.moves + tuple(applied), last.before + tuple(before), last.label,
                        last.kind, last.trials_before, trials)
        else:
            step = Step(tuple(applied), tuple(before), label, "", self.trials, trials)
        self._push(step)
        # A drag may extend this step until the UI calls end_merge (on mouse release).
        self._merge_open = True
        self.trials = trials
        self._set_grid(grid)
        return True

    def _push(self, step: Step) -> None:
        del self.history[self.cursor:]      # a new step forgets the redo branch
        self.history.append(step)
        self.cursor = len(self.history)

    def _layer_step(self, kind: str, label: str, trials: Trials, target: Grid | None = None) -> bool:
        """One step that changes the trials (and, for abandon and restart, sets the board to
        ``target``: the cells that differ become its moves)."""
        grid = self.grid
        applied: list[Move] = []
        before: list[Cell] = []
        if target is not None:
            for r, c in self.puzzle.cells():
                if grid[r][c] != target[r][c]:
                    applied.append(Move(r, c, Cell(target[r][c])))
                    before.append(grid[r][c])
                    grid = apply_move(grid, applied[-1])
        self._merge_open = False
        self._push(Step(tuple(applied), tuple(before), label, kind, self.trials, trials))
        self.trials = trials
        self._set_grid(grid)
        return True

    def open_trial(self) -> bool:
        """A new trial over the board in force (at most ``MAX_TRIALS`` deep)."""
        if not self.player or len(self.trials) >= MAX_TRIALS:
            return False
        return self._layer_step("open", f"open trial {len(self.trials) + 1}", self.trials + (Trial(),))

    def keep_trial(self) -> bool:
        """The innermost trial's marks join the layer below (the committed board for trial 1)."""
        if not self.trials:
            return False
        *rest, top = self.trials
        if rest:
            rest[-1] = rest[-1].noting(top.origin.items())
        return self._layer_step("keep", f"keep trial {len(self.trials)}", tuple(rest))

    def abandon_trial(self) -> bool:
        """Every mark of the innermost trial goes, in one step: its cells are as before it."""
        if not self.trials:
            return False
        depth = len(self.trials)
        return self._layer_step("abandon", f"abandon trial {depth}", self.trials[:-1], self.board_below(depth - 1))

    def end_merge(self) -> None:
        """The drag is over: the next move starts a new step."""
        self._merge_open = False

    def set_cell(self, row: int, col: int, value: Cell, merge: bool = False) -> bool:
        return self.apply([Move(row, col, value)], f"r{row}c{col}", merge)

    def cycle(self, row: int, col: int, forward: bool = True) -> Cell | None:
        """Click: the next state in the cycle; returns the new value (None on a hint cell)."""
        if self.is_hint(row, col):
            return None
        index = CYCLE.index(self.grid[row][col])
        value = CYCLE[(index + (1 if forward else -1)) % len(CYCLE)]
        self.set_cell(row, col, value)
        return value

    def paint(self, row: int, col: int, value: Cell) -> bool:
        """A drag passes over a cell: water paints only unknown cells (UX.md)."""
        if self.is_hint(row, col):
            return False
        if value == Cell.WATER and self.grid[row][col] != Cell.UNKNOWN:
            return False
        return self.set_cell(row, col, value, merge=True)

    def fill_line_with_water(self, axis: str, index: int) -> bool:
        """Tally click: when the line's ship count is met, its unknown cells become water."""
        tally = self.puzzle.tally(axis, index)
        cells = line_cells(self.puzzle, axis, index)
        ships = sum(self.grid[r][c] == Cell.SHIP for r, c in cells)
        if tally is None or ships != tally:
            return False
        moves = [Move(r, c, Cell.WATER) for r, c in cells if self.grid[r][c] == Cell.UNKNOWN]
        return self.apply(moves, f"fill {axis} {index + 1}")

    def restart(self) -> bool:
        """Back to the hints only, every trial closed, as one undoable step."""
        if self.trials:
            return self._layer_step("restart", RESTART, (), self.start)
        return self.replace_board(self.start, RESTART)

    def play_again(self) -> bool:
        """A solved play starts over as a new attempt: the hints only, the clock at zero, nothing
        asked, and a history of its own, so undo cannot bring the solution back into it (the
        solve is in the records). False when the play is not solved: :meth:`restart`, an
        undoable step, is the way back to the hints during an attempt."""
        if not self.player or not self.solved:
            return False
        self._begin_attempt()
        self.attempt += 1
        self.version += 1
        return True

    def replace_board(self, grid: Sequence[Sequence[Cell]], label: str = KEEP_SOLVER_BOARD) -> bool:
        """Make the board equal to ``grid`` in one undoable step (restart, keeping a solver's board)."""
        moves = [Move(r, c, Cell(grid[r][c])) for r, c in self.puzzle.cells() if self.grid[r][c] != grid[r][c]]
        return self.apply(moves, label)

    def undo(self) -> bool:
        if not self.can_undo:
            return False
        self._merge_open = False
        self.cursor -= 1
        step = self.history[self.cursor]
        grid = self.grid
        for move, old in zip(reversed(step.moves), reversed(step.before)):
            grid = apply_move(grid, Move(move.row, move.col, old))
        self.trials = step.trials_before
        self._set_grid(grid)
        return True

    def redo(self) -> bool:
        if not self.can_redo:
            return False
        self._merge_open = False
        step = self.history[self.cursor]
        self.cursor += 1
        grid = self.grid
        for move in step.moves:
            grid = apply_move(grid, move)
        self.trials = step.trials_after
        self._set_grid(grid)
        return True

    def undo_to(self, cursor: int) -> bool:
        """Undo back to ``cursor`` in one action; the undone steps stay on the redo side."""
        changed = False
        while self.cursor > max(0, cursor) and self.undo():
            changed = True
        return changed

    def fold_oldest(self) -> bool:
        """Merge the older half of the steps before the cursor into one step, their net change
        from the start (at the latest point in that half where no trial is open): a long play's
        saved history stays within the file limit, and the board, its trials, its latest steps
        and the redo side are kept. False when nothing can be merged."""
        point = next((k for k in range(self.cursor // 2, 0, -1) if not self.history[k - 1].trials_after), 0)
        grid = self.start
        for step in self.history[:point]:
            for move in step.moves:
                grid = apply_move(grid, move)
        cells = [(r, c) for r, c in self.puzzle.cells() if grid[r][c] != self.start[r][c]]
        if point == 0 or (point == 1 and cells):
            return False
        folded = [Step(tuple(Move(r, c, grid[r][c]) for r, c in cells), tuple(self.start[r][c] for r, c in cells),
                       "earlier moves")] if cells else []
        self.history[:point] = folded
        self.cursor -= point - len(folded)           # (the last step, which a drag extends, stays)
        return True

    def fold_all(self) -> None:
        """The whole history becomes the fewest steps that rebuild the board and its trials:
        the committed board's change from the start, then each open trial's opening and marks.
        The last resort of a save that folding the oldest steps cannot bring within the file
        limit (a long play inside a trial, or a long redo side): the board and its trials are
        kept, the earlier steps and the redo side are not. A trial's noted cells that it did
        not change in the end are dropped, which changes nothing it shows, keeps or abandons."""
        rebuilt = Session(self.puzzle)
        rebuilt._replaying = True                   # these boards were judged when they were made
        for depth in range(self.depth + 1):
            if depth:
                rebuilt.open_trial()
            rebuilt.replace_board(self.board_below(depth), "earlier moves")
        self.history, self.cursor, self.trials = rebuilt.history, rebuilt.cursor, rebuilt.trials
        self._merge_open = False

    def boards(self) -> list[Grid]:
        """The board at every cursor from 0 to the current one (index k: after k steps).

        Computed backwards from the board in force, so nothing changes and no move is replayed
        from the start.
        """
        grid = self.grid
        found = [grid]
        for step in reversed(self.history[:self.cursor]):
            for move, old in zip(reversed(step.moves), reversed(step.before)):
                grid = apply_move(grid, Move(move.row, move.col, old))
            found.append(grid)
        found.reverse()
        return found

    def tick(self, seconds: float) -> None:
        """The play clock runs until the level is solved."""
        if not self.solved:
            self.elapsed += seconds

    def _set_grid(self, grid: Grid) -> None:
        self.grid = grid
        self.version += 1
        # Once solved, a level stays solved for the record even if the player keeps clicking.
        # (This reading is the one cached in ``report``: the judge still runs once per change.)
        if self.player and not self._replaying and not self.solved and self.report.solved:
            self.solved = True

    @property
    def solver_helped(self) -> bool:
        """Whether a solver showed this play the solution: its board kept (undone or not), or a
        run of it that reached the solution on the board (reset or not: the player saw it)."""
        return self.asked["solver"] > 0 or self.asked["shown"] > 0

    @property
    def solved_now(self) -> bool:
        """Whether the board on screen is a solution (it may have been solved earlier)."""
        return self.report.solved

    # ----- saving --------------------------------------------------------------------------

    def to_dict(self, encode: Callable[[Step], dict[str, Any]] | None = None) -> dict[str, Any]:
        """Plain data for the progress file: the history as move texts, the cursor, the clock.
        ``encode``: :func:`step_to_dict`, or one that keeps what it made (a long play is saved
        at every move)."""
        return {
            "history": [(encode or step_to_dict)(step) for step in self.history],
            "cursor": self.cursor,
            "elapsed": round(self.elapsed, 3),
            "solved": self.solved,
            **({"asked": dict(self.asked)} if any(self.asked.values()) else {}),    # (older files have none)
            **({"attempt": self.attempt} if self.attempt else {}),
        }

    @classmethod
    def from_dict(cls, puzzle: Puzzle, data: Mapping[str, Any]) -> Session:
        """Rebuild a play by redoing its saved history; anything that does not fit is dropped."""
        try:
            return cls.restore(puzzle, data)
        except ValueError:
            return cls(puzzle)

    @classmethod
    def restore(cls, puzzle: Puzzle, data: Mapping[str, Any]) -> Session:
        """Rebuild a play by redoing its saved history; ``ValueError`` naming the first step
        that does not fit (so a caller can keep the file rather than save over it)."""
        session = cls(puzzle)
        session._replaying = True
        try:
            steps = [(str(s.get("label", "")), [Move.parse(t) for t in s["moves"]], s.get("trial", ""))
                     for s in data.get("history", [])]
            cursor = int(data.get("cursor", len(steps)))
            for number, (label, moves, kind) in enumerate(steps, start=1):
                if not all(puzzle.inside(m.row, m.col) for m in moves):
                    raise ValueError(f"step {number} has a move outside the board")
                if kind:
                    session._redo_layer_step(kind, moves, number)
                else:
                    session.apply(moves, label)
            while session.cursor > max(0, cursor):
                session.undo()
            session.end_merge()                  # no drag goes on in a play read back
            session.elapsed = float(data.get("elapsed", 0.0))
            session.asked.update({kind: int(count) for kind, count in data.get("asked", {}).items()})
            session.attempt = int(data.get("attempt", 0))
            session._replaying = False
            session.solved = bool(data.get("solved", False)) or session.report.solved
        except (KeyError, TypeError, AttributeError, OverflowError) as error:
            raise ValueError(f"is not a saved play ({error.__class__.__name__})") from None
        return session


    def _redo_layer_step(self, kind: str, moves: Sequence[Move], number: int) -> None:
        """Make a saved step that opens, keeps or abandons a trial (or restarts) again; its
        saved moves must be the ones it makes."""
        action = {"open": Session.open_trial, "keep": Session.keep_trial, "abandon": Session.abandon_trial,
                  "restart": Session.restart}.get(kind)
        if action is None or not action(self) or self.history[-1].kind != kind \
                or list(self.history[-1].moves) != list(moves):
            raise ValueError(f"step {number} ({kind}) does not fit the play before it")


def step_to_dict(step: Step) -> dict[str, Any]:
    """A step as saved: its label and moves, and what it does to the trials if anything.

    A play that never opened a trial is saved as it was before trials existed.
    """
    data: dict[str, Any] = {"label": step.label, "moves": [str(m) for m in step.moves]}
    if step.kind:
        data["trial"] = step.kind
    return data


def last_clean_cursor(boards: Sequence[Grid], has_mistake: Callable[[Grid], bool]) -> int | None:
    """Where "undo to the first mistake" goes: the latest cursor before the last whose board
    has no mistake (``boards`` as from :meth:`Session.boards`).

    None when the last board has no mistake, or when no earlier board is clean. The search goes
    backwards and stops at the first clean board, so a mistake that was made and later fixed
    does not send the player further back than needed.
    """
    if not boards or not has_mistake(boards[-1]):
        return None
    for cursor in range(len(boards) - 2, -1, -1):
        if not has_mistake(boards[cursor]):
            return cursor
    return None


def line_cells(puzzle: Puzzle, axis: str, index: int) -> list[Coord]:
    if axis == "row":
        return [(index, c) for c in range(puzzle.cols)]
    return [(r, index) for r in range(puzzle.rows)]


def tally_states(puzzle: Puzzle, grid: Sequence[Sequence[Cell]],
                 problems: Sequence[rules.Violation] | None = None) -> tuple[tuple[TallyState, ...],
                                                                            tuple[TallyState, ...]]:
    """Each tally's state. Errors come from the judge's provable problems only (``problems``:
    already judged; judged here when not given)."""
    if problems is None:
        problems = rules.provable_violations(puzzle, grid)
    wrong = {(v.kind, v.index) for v in problems if v.kind in ("row", "col")}
    result = []
    for axis, tallies in (("row", puzzle.row_tallies), ("col", puzzle.col_tallies)):
        states = []
        for index, tally in enumerate(tallies):
            if tally is None:
                states.append(TallyState.UNKNOWN)
                continue
            if (axis, index) in wrong:
                states.append(TallyState.ERROR)
                continue
            values = [grid[r][c] for r, c in line_cells(puzzle, axis, index)]
            ships = sum(v == Cell.SHIP for v in values)
            if ships == tally:
                complete = all(v != Cell.UNKNOWN for v in values)
                states.append(TallyState.COMPLETE if complete else TallyState.MET)
            else:
                states.append(TallyState.NEUTRAL)
        result.append(tuple(states))
    return result[0], result[1]


def fleet_lines(puzzle: Puzzle, grid: Sequence[Sequence[Cell]],
                closed: Mapping[int, int] | None = None) -> tuple[FleetLine, ...]:
    """The checklist: per fleet length (plus any closed length the fleet lacks), wanted vs closed
    (``closed``: the judge's count when already judged)."""
    if closed is None:
        closed = rules.closed_ships(puzzle, grid)
    wanted = puzzle.fleet_counts
    lengths = sorted(set(wanted) | set(closed), reverse=True)
    return tuple(FleetLine(n, wanted.get(n, 0), closed.get(n, 0)) for n in lengths)
