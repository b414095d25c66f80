"""The play model against a plain model of it: a stateful property test.

A hypothesis state machine drives a :class:`game.session.Session` on small puzzles (hints of
every kind) with every operation a play has: clicks, drags, tally clicks, kept solver boards,
restarts, a solved play played again, undo/redo/undo_to, trials opened, kept and abandoned,
folding of old steps, the clock, saving and reopening (as data, and through a :class:`window.storage.Storage` in a
folder of its own). Beside it the test keeps its own model, written from the documented
behaviour (the module's docstrings and docs/design/trial-layers.md), not from the code: the
history is a list of whole states (board and trial layers) with a cursor, so undo is "go back
one state" and folding is "drop states".

After every step the session must agree with the model (board, trials, depth, the trial each
mark belongs to, every state undo and redo can reach), given cells must be as given, the judge's
verdict must be the report's, a solved play must stay solved until it is played again, and the
play must save and read back whole. The default run is small; ``pytest -m slow`` runs a long campaign.
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from game import rules
from game.puzzle import Cell, Hint, Puzzle, grid_from_strings, initial_grid
from game.session import CELL_KINDS, CYCLE, MAX_TRIALS, Session, TallyState
from window import storage as storage_module
from window.storage import Storage, check_progress

U, W, S = Cell.UNKNOWN, Cell.WATER, Cell.SHIP

# (puzzle, a solution): between them the hints are of every kind, and two tallies are not given.
PUZZLES = (
    (Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
            {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP}),
     ("###.#.", "......", "#.#..#", "#.#...", "......", ".#....")),
    (Puzzle(5, 5, (3, 0, 2, 1, 1), (3, 1, 2, 0, 1), ((3, 1), (2, 1), (1, 2)),
            {(0, 1): Hint.MIDDLE, (0, 2): Hint.RIGHT, (3, 0): Hint.BOTTOM, (2, 4): Hint.SHIP, (1, 1): Hint.WATER}),
     ("###..", ".....", "#...#", "#....", "..#..")),
    (Puzzle(4, 4, (2, None, 2, 1), (2, 1, None, 2), ((2, 2), (1, 1)),
            {(0, 0): Hint.LEFT, (2, 0): Hint.SUB, (2, 3): Hint.TOP}),
     ("##..", "....", "#..#", "...#")),
)
KINDS = ("", "open", "keep", "abandon", "restart")
WORK = tempfile.TemporaryDirectory(prefix="session-model-")


def judged(puzzle: Puzzle, board: dict) -> rules.Judgement:
    return rules.judge(puzzle, as_grid(puzzle, board))


def as_grid(puzzle: Puzzle, board: dict) -> tuple:
    return tuple(tuple(board[r, c] for c in range(puzzle.cols)) for r in range(puzzle.rows))


def as_board(grid) -> dict:
    return {(r, c): Cell(v) for r, row in enumerate(grid) for c, v in enumerate(row)}


class State:
    """One point of the model's history: the board, the open trials (each a dict of the cells
    it changed with the value they had when it first did, outermost first), and the kind of
    the step that led here ("" for a plain step)."""

    def __init__(self, board: dict, trials: list[dict], kind: str = "") -> None:
        self.board = dict(board)
        self.trials = [dict(t) for t in trials]
        self.kind = kind


class Model:
    """The play as the docs describe it, kept as whole states."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.start = as_board(initial_grid(puzzle))
        self.states = [State(self.start, [])]
        self.cursor = 0
        self.merge_open = False          # a drag may still extend the last step
        self.solved = False
        self.elapsed = 0.0

    @property
    def now(self) -> State:
        return self.states[self.cursor]

    def _arrive(self, board: dict) -> None:
        """A board is put in force: a solution solves the play for good."""
        if not self.solved and judged(self.puzzle, board).solved:
            self.solved = True

    def _push(self, state: State) -> None:
        del self.states[self.cursor + 1:]
        self.states.append(state)
        self.cursor += 1
        self._arrive(state.board)

    def change(self, cells: dict, merge: bool = False) -> bool:
        """Set ``cells`` (in order) as one step, or as part of the last step when ``merge`` and a
        drag is still open. Given cells and cells already so are left alone."""
        board = dict(self.now.board)
        trials = [dict(t) for t in self.now.trials]
        changed = False
        for cell, value in cells.items():
            if cell in self.puzzle.hints or board[cell] == value:
                continue
            if trials and cell not in trials[-1]:
                trials[-1][cell] = board[cell]
            board[cell] = value
            changed = True
        if not changed:
            return False
        if merge and self.merge_open and self.cursor == len(self.states) - 1 and self.cursor > 0:
            self.states[self.cursor] = State(board, trials, self.now.kind)
            self._arrive(board)
        else:
            self._push(State(board, trials))
        self.merge_open = True
        return True

    def layer(self, kind: str, board: dict, trials: list[dict]) -> bool:
        self.merge_open = False
        self._push(State(board, trials, kind))
        return True

    def open_trial(self) -> bool:
        if len(self.now.trials) >= MAX_TRIALS:
            return False
        return self.layer("open", self.now.board, self.now.trials + [{}])

    def keep_trial(self) -> bool:
        if not self.now.trials:
            return False
        *rest, top = [dict(t) for t in self.now.trials]
        if rest:
            for cell, origin in top.items():
                rest[-1].setdefault(cell, origin)
        return self.layer("keep", self.now.board, rest)

    def abandon_trial(self) -> bool:
        if not self.now.trials:
            return False
        board = dict(self.now.board)
        board.update(self.now.trials[-1])
        return self.layer("abandon", board, self.now.trials[:-1])

    def restart(self) -> bool:
        if self.now.trials:
            return self.layer("restart", self.start, [])
        return self.change(self.start)

    def play_again(self) -> bool:
        """A solved play starts over as a new attempt: the start alone, nothing to undo or redo,
        the clock at zero, not solved (an unsolved play is left as it is)."""
        if not self.solved:
            return False
        self.states, self.cursor, self.merge_open = [State(self.start, [])], 0, False
        self.solved, self.elapsed = False, 0.0
        return True

    def undo(self) -> bool:
        if self.cursor == 0:
            return False
        self.merge_open = False
        self.cursor -= 1
        self._arrive(self.now.board)
        return True

    def redo(self) -> bool:
        if self.cursor == len(self.states) - 1:
            return False
        self.merge_open = False
        self.cursor += 1
        self._arrive(self.now.board)
        return True

    def fold_oldest(self) -> bool:
        """The older half of the steps before the cursor, up to the latest point in it with no
        trial open, becomes one step from the start to that point's board (none when that
        board is the start): the states in between can no longer be reached."""
        points = [k for k in range(1, self.cursor // 2 + 1) if not self.states[k].trials]
        if not points:
            return False
        point = points[-1]
        kept = [State(self.states[point].board, [])] if self.states[point].board != self.start else []
        states = [self.states[0]] + kept + self.states[point + 1:]
        if len(states) == len(self.states):
            return False
        self.cursor -= len(self.states) - len(states)
        self.states = states
        return True

    def fold_all(self) -> None:
        """The history becomes: the committed board, then each open trial opened and its marks
        made (a trial notes only the cells whose value it changed)."""
        boards = [self.board_below(depth) for depth in range(len(self.now.trials) + 1)]
        states, trials = [self.states[0]], []
        for depth, board in enumerate(boards):
            if depth:
                trials = trials + [{}]
                states.append(State(states[-1].board, trials, "open"))
            below = states[-1].board
            if board != below:
                if trials:
                    trials[-1] = {cell: below[cell] for cell in board if board[cell] != below[cell]}
                states.append(State(board, trials))
        self.states, self.cursor, self.merge_open = states, len(states) - 1, False

    def board_below(self, depth: int) -> dict:
        """The board with only the trials up to ``depth``: each trial above puts its cells back."""
        board = dict(self.now.board)
        for trial in reversed(self.now.trials[depth:]):
            board.update(trial)
        return board

    def cell_depth(self, cell) -> int:
        """The innermost trial whose origin for the cell differs from the cell's value."""
        for depth in range(len(self.now.trials), 0, -1):
            trial = self.now.trials[depth - 1]
            if cell in trial and trial[cell] != self.now.board[cell]:
                return depth
        return 0


def tally_state(puzzle: Puzzle, board: dict, problems, axis: str, index: int) -> TallyState:
    """The state a tally shows, from the judge's problems and the line's cells."""
    tally = puzzle.tally(axis, index)
    if tally is None:
        return TallyState.UNKNOWN
    if any(v.kind == axis and v.index == index for v in problems):
        return TallyState.ERROR
    cells = [board[index, c] for c in range(puzzle.cols)] if axis == "row" else \
        [board[r, index] for r in range(puzzle.rows)]
    if cells.count(S) != tally:
        return TallyState.NEUTRAL
    return TallyState.MET if U in cells else TallyState.COMPLETE


def reachable(session: Session) -> list[tuple[tuple, list[dict], str]]:
    """(board, trials, kind of the step that led there) at every cursor of ``session``'s history,
    found by undoing to the start and redoing to the end on a copy read back from its data
    (the copy's history is checked equal to the session's first)."""
    copy = Session.restore(session.puzzle, session.to_dict())
    assert copy.history == session.history and copy.cursor == session.cursor and copy.grid == session.grid
    while copy.undo():
        pass
    found = [(copy.grid, [dict(t.origin) for t in copy.trials], "")]
    while copy.redo():
        found.append((copy.grid, [dict(t.origin) for t in copy.trials], copy.history[copy.cursor - 1].kind))
    return found


class SessionMachine(RuleBasedStateMachine):
    """A session and the model, driven side by side."""

    def __init__(self) -> None:
        super().__init__()
        self.folder: Path | None = None
        self.storage: Storage | None = None

    @initialize(which=st.integers(0, len(PUZZLES) - 1))
    def start(self, which: int) -> None:
        self.puzzle, solution = PUZZLES[which]
        self.solution = as_board(grid_from_strings(solution))
        self.session = Session(self.puzzle)
        self.model = Model(self.puzzle)

    def teardown(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def cell_of(self, r: int, c: int) -> tuple[int, int]:
        return r % self.puzzle.rows, c % self.puzzle.cols

    # ----- moves ---------------------------------------------------------------------------

    @rule(r=st.integers(0, 5), c=st.integers(0, 5), value=st.sampled_from([U, W, S]))
    def set_cell(self, r, c, value):
        cell = self.cell_of(r, c)
        assert self.session.set_cell(*cell, value) == self.model.change({cell: value})

    @rule(r=st.integers(0, 5), c=st.integers(0, 5))
    def set_solution_cell(self, r, c):
        cell = self.cell_of(r, c)
        value = self.solution[cell]
        assert self.session.set_cell(*cell, value) == self.model.change({cell: value})

    @rule(r=st.integers(0, 5), c=st.integers(0, 5), forward=st.booleans())
    def cycle(self, r, c, forward):
        cell = self.cell_of(r, c)
        got = self.session.cycle(*cell, forward)
        if cell in self.puzzle.hints:
            assert got is None
            return
        value = CYCLE[(CYCLE.index(self.model.now.board[cell]) + (1 if forward else -1)) % 3]
        assert got == value and self.model.change({cell: value})

    @rule(r=st.integers(0, 5), c=st.integers(0, 5), value=st.sampled_from([U, W, S]))
    def paint(self, r, c, value):
        """A drag passes over a cell: water paints unknown cells only."""
        cell = self.cell_of(r, c)
        expected = False
        if cell not in self.puzzle.hints and (value != W or self.model.now.board[cell] == U):
            expected = self.model.change({cell: value}, merge=True)
        assert self.session.paint(*cell, value) == expected

    @rule()
    def end_merge(self):
        self.session.end_merge()
        self.model.merge_open = False

    @rule(axis=st.sampled_from(["row", "col"]), index=st.integers(0, 5))
    def fill_line(self, axis, index):
        """A tally click on a line whose ship count is met: its unknown cells become water."""
        index %= self.puzzle.rows if axis == "row" else self.puzzle.cols
        cells = [(index, c) for c in range(self.puzzle.cols)] if axis == "row" else \
            [(r, index) for r in range(self.puzzle.rows)]
        board = self.model.now.board
        expected = False
        if self.puzzle.tally(axis, index) == sum(board[cell] == S for cell in cells):
            expected = self.model.change({cell: W for cell in cells if board[cell] == U})
        assert self.session.fill_line_with_water(axis, index) == expected

    @rule(data=st.data(), which=st.sampled_from(["random", "solution", "start"]))
    def replace_board(self, data, which):
        """Keep a solver's board (which may disagree with the hints: they stay as given)."""
        cells = list(self.puzzle.cells())
        if which == "random":
            values = data.draw(st.lists(st.sampled_from([U, W, S]), min_size=len(cells), max_size=len(cells)))
            board = dict(zip(cells, values))
        else:
            board = self.solution if which == "solution" else self.model.start
        grid = as_grid(self.puzzle, board)
        assert self.session.replace_board(grid) == self.model.change(board)

    @rule()
    def restart(self):
        assert self.session.restart() == self.model.restart()

    @rule()
    def play_again(self):
        assert self.session.play_again() == self.model.play_again()

    # ----- trials --------------------------------------------------------------------------

    @rule()
    def open_trial(self):
        assert self.session.open_trial() == self.model.open_trial()

    @rule()
    def keep_trial(self):
        assert self.session.keep_trial() == self.model.keep_trial()

    @rule()
    def abandon_trial(self):
        assert self.session.abandon_trial() == self.model.abandon_trial()

    # ----- history -------------------------------------------------------------------------

    @rule()
    def undo(self):
        assert self.session.undo() == self.model.undo()

    @rule()
    def redo(self):
        assert self.session.redo() == self.model.redo()

    @rule(k=st.integers(-1, 12))
    def undo_to(self, k):
        """undo_to(k) is the single undos that bring the cursor back to k (none when it is there)."""
        expected = False
        while self.model.cursor > max(0, k):
            expected = self.model.undo()
        assert self.session.undo_to(k) == expected

    @precondition(lambda self: self.session.can_undo)
    @rule()
    def undo_then_redo(self):
        """Undo then redo gives back the same board, trials and cursor."""
        before = (self.session.grid, self.session.trials, self.session.cursor, self.session.layer_depths())
        assert self.session.undo() and self.session.redo()
        assert (self.session.grid, self.session.trials, self.session.cursor, self.session.layer_depths()) == before
        self.model.merge_open = False

    @rule()
    def fold_oldest(self):
        assert self.session.fold_oldest() == self.model.fold_oldest()

    @rule()
    def fold_all(self):
        self.session.fold_all()
        self.model.fold_all()

    @rule(seconds=st.sampled_from([0.25, 1.0, 7.123456]))
    def tick(self, seconds):
        self.session.tick(seconds)
        if not self.model.solved:
            self.model.elapsed += seconds

    # ----- saving --------------------------------------------------------------------------

    def _reopened(self, session: Session) -> None:
        """Go on with ``session``, read back from the saved play (no drag is in progress)."""
        self.session = session
        self.model.merge_open = False
        self.model.elapsed = round(self.model.elapsed, 3)

    @rule()
    def reopen(self):
        """The play saved as data and read back goes on as the same play."""
        data = json.loads(json.dumps(self.session.to_dict()))
        self._reopened(Session.restore(self.puzzle, data))

    @rule(squeeze=st.booleans())
    def save_and_reopen(self, squeeze):
        """Saved through the storage and read back; ``squeeze``: a file limit so small that
        saving folds the oldest steps (as a long play's save does)."""
        if self.storage is None:
            self.folder = Path(tempfile.mkdtemp(dir=WORK.name))
            self.storage = Storage(self.folder)
        limit = storage_module.MAX_FILE_BYTES
        if squeeze:
            storage_module.MAX_FILE_BYTES = len(json.dumps(self.session.to_dict(), indent=1)) // 2
        try:
            assert self.storage.save_play("level", self.session)
        finally:
            storage_module.MAX_FILE_BYTES = limit
        # Saving may have folded the session's oldest steps (the model folds as often), or,
        # when that was not enough, its whole history.
        snapshot = copy.deepcopy(self.model)
        while len(self.model.states) > len(self.session.history) + 1 and self.model.fold_oldest():
            pass
        if reachable(self.session) != [(as_grid(self.puzzle, s.board), s.trials, s.kind) for s in self.model.states]:
            self.model = snapshot
            self.model.fold_all()
        restored = self.storage.restore_play("level", self.puzzle)
        assert restored is not None and self.storage.take_messages() == []
        assert restored.history == self.session.history
        self._reopened(restored)

    # ----- what must hold after every step ---------------------------------------------------

    @invariant()
    def agrees_with_the_model(self):
        session, model, puzzle = self.session, self.model, self.puzzle
        assert session.grid == as_grid(puzzle, model.now.board)
        assert all(session.cell(*cell) == value for cell, value in model.now.board.items())
        assert [dict(t.origin) for t in session.trials] == model.now.trials
        assert session.depth == len(model.now.trials)
        assert session.cursor == model.cursor and len(session.history) == len(model.states) - 1
        depths = {cell: model.cell_depth(cell) for cell in puzzle.cells()}
        assert {cell: session.cell_depth(*cell) for cell in puzzle.cells()} == depths
        assert session.layer_depths() == {cell: d for cell, d in depths.items() if d}
        for depth in range(session.depth + 1):
            assert session.board_below(depth) == as_grid(puzzle, model.board_below(depth))
        assert session.boards() == [as_grid(puzzle, s.board) for s in model.states[:model.cursor + 1]]
        assert [step.kind for step in session.history] == [s.kind for s in model.states[1:]]
        assert session.solved == model.solved
        assert session.elapsed == pytest.approx(model.elapsed, abs=1e-9)

    @invariant()
    def every_state_undo_and_redo_reach_is_the_models(self):
        found = reachable(self.session)
        expected = [(as_grid(self.puzzle, s.board), s.trials, s.kind) for s in self.model.states]
        assert found == expected

    @invariant()
    def given_cells_are_as_given(self):
        start = self.model.start
        for grid in self.session.boards():
            assert all(grid[r][c] == start[r, c] for r, c in self.puzzle.hints)

    @invariant()
    def the_report_is_the_judges(self):
        session, puzzle, board = self.session, self.puzzle, self.model.now.board
        judgement = judged(puzzle, board)
        report = session.report
        assert report.judgement == judgement and session.solved_now == judgement.solved
        assert report.wrong_cells == {cell for v in judgement.problems if v.kind in CELL_KINDS for cell in v.cells}
        assert report.rows == tuple(tally_state(puzzle, board, judgement.problems, "row", i)
                                    for i in range(puzzle.rows))
        assert report.cols == tuple(tally_state(puzzle, board, judgement.problems, "col", i)
                                    for i in range(puzzle.cols))
        wanted = puzzle.fleet_counts
        lengths = sorted(set(wanted) | set(judgement.closed), reverse=True)
        assert [(f.length, f.wanted, f.closed) for f in report.fleet] == \
            [(n, wanted.get(n, 0), judgement.closed.get(n, 0)) for n in lengths]
        if session.solved_now:
            assert session.solved

    @invariant()
    def a_wrong_trial_is_named(self):
        """The outermost trial whose board breaks a provable rule while the board below does not;
        asked only when the board in force has a problem."""
        expected = None
        if self.model.now.trials and self.session.report.judgement.problems:
            for depth in range(self.session.depth + 1):
                if rules.provable_violations(self.puzzle, as_grid(self.puzzle, self.model.board_below(depth))):
                    expected = depth or None
                    break
        assert self.session.trial_breaking_rules() == expected

    @invariant()
    def saves_and_reads_back_whole(self):
        session = self.session
        data = json.loads(json.dumps(session.to_dict()))
        assert check_progress(data, self.puzzle) is data
        copy = Session.restore(self.puzzle, data)
        assert copy.to_dict() == data
        assert (copy.grid, copy.history, copy.cursor, copy.trials, copy.layer_depths(), copy.solved) == \
            (session.grid, session.history, session.cursor, session.trials, session.layer_depths(), session.solved)
        assert copy.elapsed == round(session.elapsed, 3)


# ----- defects the model found, kept as they were shrunk --------------------------------------


def test_a_drag_after_the_play_is_read_back_is_a_step_of_its_own():
    """A play read back has no drag going on: the next painted cell is not merged into the
    last saved step (it was, so one undo took back a step of the earlier play with it)."""
    puzzle = PUZZLES[0][0]
    session = Session(puzzle)
    session.paint(0, 0, W)
    session = Session.restore(puzzle, session.to_dict())
    session.paint(0, 0, U)
    assert session.cursor == 2 and len(session.history) == 2
    assert session.undo() and session.cell(0, 0) == W


BIG = Puzzle(60, 60, (None,) * 60, (None,) * 60, ((10, 1), (1, 10)))


CHEQUERED = tuple(tuple(S if (r + c) % 2 else W for c in range(60)) for r in range(60))
ALL_WATER = tuple((W,) * 60 for _ in range(60))


@pytest.mark.parametrize("case", ["in a trial from the start", "on the redo side"])
def test_a_play_too_long_to_fold_is_saved_with_its_board_and_trials(tmp_path, case):
    """A history that folding the oldest steps cannot bring within the file limit (a long play
    inside a trial opened first, or a long redo side) was saved whole and refused, set aside as
    damaged, at the next start: the player found a fresh board. Its board and trials are kept."""
    session = Session(BIG)
    in_trial = case.startswith("in a trial")
    if in_trial:
        session.open_trial()
    for number in range(40):                   # each step changes half of the 3,600 cells
        session.replace_board(CHEQUERED if number % 2 else ALL_WATER)
    if in_trial:
        session.open_trial()
        session.set_cell(0, 0, U)
    else:
        session.undo_to(1)
    grid, trials, depths = session.grid, session.depth, session.layer_depths()
    assert len(json.dumps(session.to_dict(), indent=1)) > storage_module.MAX_FILE_BYTES
    storage = Storage(tmp_path)
    assert storage.save_play("level", session)
    restored = storage.restore_play("level", BIG)
    assert storage.take_messages() == [] and restored is not None
    assert (restored.grid, restored.depth, restored.layer_depths()) == (grid, trials, depths)
    assert (session.grid, session.depth, session.layer_depths()) == (grid, trials, depths)
    while restored.depth:
        restored.abandon_trial()
    assert restored.grid == session.board_below(0)


def test_the_whole_history_folded_fits_the_file_limit_on_the_largest_board():
    """The committed board and six trials, each changing every cell: still within the limit."""
    session = Session(BIG)
    session.replace_board(CHEQUERED)
    for depth in range(MAX_TRIALS):
        session.open_trial()
        session.replace_board(ALL_WATER if depth % 2 == 0 else CHEQUERED)
    grid, depths = session.grid, session.layer_depths()
    session.fold_all()
    assert len(session.history) == 1 + 2 * MAX_TRIALS and session.cursor == len(session.history)
    assert (session.grid, session.layer_depths()) == (grid, depths)
    assert len(json.dumps(session.to_dict(), indent=1)) <= storage_module.MAX_FILE_BYTES


FAST = settings(max_examples=80, stateful_step_count=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SLOW = settings(max_examples=2_000, stateful_step_count=80, deadline=None, suppress_health_check=list(HealthCheck))


def test_the_session_agrees_with_its_model():
    run_state_machine_as_test(SessionMachine, settings=FAST)


@pytest.mark.slow
def test_the_session_agrees_with_its_model_long():
    run_state_machine_as_test(SessionMachine, settings=SLOW)
