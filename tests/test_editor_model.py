"""The level editor's model driven as an author drives it: a state machine of every edit the
editor scene offers (resize, paint, give, type hints, tallies, fleet, name and author, switch
mode, make unique and minimize, undo and redo, open a saved level) on boards of up to 8x8,
with what the model promises checked after every step.

What is checked comes from the model's documentation, not from its code: a draft is a level
exactly when it has no problem; a level is one the loader reads back as it was saved; a
designed level has the painted board as a solution; a level opened again is the same level;
resizing keeps what fits; undo and redo walk the history.

The default run is short; ``pytest -m slow`` runs the long campaign.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from game import editor as model
from game import levels, rules
from game.editor import Draft, Editor, Mode
from game.limits import MAX_SIDE
from game.puzzle import Cell, Grid, Hint, Puzzle
from solvers.engine.verdict import decide

SIDE = 8                     # the largest board the machine draws
MAX_TEXT = 60                # the scene's longest name or author

sides = st.integers(min_value=1, max_value=SIDE)
spots = st.tuples(st.integers(min_value=0, max_value=SIDE - 1), st.integers(min_value=0, max_value=SIDE - 1))
tallies = st.one_of(st.none(), st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=99))
letters = st.characters(codec="utf-8").filter(str.isprintable)
placements = st.tuples(spots, st.integers(min_value=1, max_value=4), st.booleans())


@st.composite
def fleets_drawn(draw, rows: int, cols: int):
    """A legal layout of ships on a rows x cols board (what a book's solution looks like): ships
    laid one by one where they fit, none touching another."""
    board = [[Cell.WATER] * cols for _ in range(rows)]
    for (r, c), length, across in draw(st.lists(placements, min_size=1, max_size=8)):
        r, c = r % rows, c % cols
        cells = [(r, c + k) if across else (r + k, c) for k in range(length)]
        if any(i >= rows or j >= cols for i, j in cells):
            continue
        if any(board[i][j] == Cell.SHIP for x, y in cells for i in range(max(0, x - 1), min(rows, x + 2))
               for j in range(max(0, y - 1), min(cols, y + 2))):
            continue
        for i, j in cells:
            board[i][j] = Cell.SHIP
    if not any(Cell.SHIP in row for row in board):
        board[0][0] = Cell.SHIP
    return tuple(tuple(row) for row in board)


def layout_text(layout) -> tuple[str, ...]:
    return tuple("".join("#" if v == Cell.SHIP else "." for v in row) for row in layout)


def legal_layout(layout) -> bool:
    """A fleet can be drawn so: some ship, and no two ship cells touching at a corner (a bend
    or two ships touching diagonally always has such a pair; a straight ship never does)."""
    rows, cols = len(layout), len(layout[0])
    ship = {(r, c) for r in range(rows) for c in range(cols) if layout[r][c] == Cell.SHIP}
    return bool(ship) and not any((r + 1, c + dc) in ship for r, c in ship for dc in (-1, 1))


def loads_back(puzzle: Puzzle) -> bool:
    """Whether the loader takes ``puzzle`` as saved."""
    try:
        levels.loads(levels.dumps(puzzle))
    except levels.LevelError:
        return False
    return True


def typed_level(draft: Draft) -> Puzzle:
    """The level a transcribed draft states, as typed (whether or not it is one)."""
    return Puzzle(draft.rows, draft.cols, draft.typed_rows, draft.typed_cols, draft.typed_fleet,
                  draft.typed_hints, name=draft.name or None, author=draft.author or None)


def check_draft(draft: Draft) -> None:
    """Everything the model says of one draft, whatever its history."""
    assert 1 <= draft.rows <= MAX_SIDE and 1 <= draft.cols <= MAX_SIDE
    assert len(draft.layout) == draft.rows and all(len(row) == draft.cols for row in draft.layout)
    assert len(draft.typed_rows) == draft.rows and len(draft.typed_cols) == draft.cols
    inside = {(r, c) for r in range(draft.rows) for c in range(draft.cols)}
    assert set(draft.given) <= inside and set(draft.typed_hints) <= inside
    problems = draft.problems()
    puzzle = draft.puzzle()
    assert (puzzle is None) == bool(problems), problems
    for problem in problems:
        assert problem.text and problem.cells <= inside
    if draft.mode is Mode.DESIGN:
        # the clues follow the painted fleet; it is a level exactly when the fleet is legal
        assert draft.row_tallies == tuple(sum(v == Cell.SHIP for v in row) for row in draft.layout)
        assert draft.col_tallies == tuple(sum(row[c] == Cell.SHIP for row in draft.layout) for c in range(draft.cols))
        assert (puzzle is not None) == legal_layout(draft.layout), (layout_text(draft.layout), problems)
        assert set(draft.hints) == set(draft.given)
        for (r, c), hint in draft.hints.items():
            assert hint.is_ship == (draft.layout[r][c] == Cell.SHIP)
    else:
        # the clues are what was typed; it is a level exactly when the loader takes them
        assert (draft.row_tallies, draft.col_tallies, draft.fleet, draft.hints) == \
            (draft.typed_rows, draft.typed_cols, draft.typed_fleet, dict(draft.typed_hints))
        assert (puzzle is not None) == loads_back(typed_level(draft)), problems
    if puzzle is None:
        return
    check_level(draft, puzzle)


def check_level(draft: Draft, puzzle: Puzzle) -> None:
    """A level the draft makes: saved, it reads back whole; it states the draft's clues; opened
    again, it is the same level."""
    assert levels.loads(levels.dumps(puzzle)) == puzzle
    assert (puzzle.rows, puzzle.cols) == (draft.rows, draft.cols)
    assert (puzzle.row_tallies, puzzle.col_tallies, puzzle.fleet, dict(puzzle.hints)) == \
        (draft.row_tallies, draft.col_tallies, draft.fleet, draft.hints)
    assert (puzzle.name, puzzle.author) == (draft.name or None, draft.author or None)
    if draft.mode is Mode.DESIGN:
        assert puzzle.solution == layout_text(draft.layout)
        assert rules.is_solved(puzzle, draft.layout), rules.violations(puzzle, draft.layout)
    else:
        assert puzzle.solution is None
    opened = model.from_puzzle(puzzle)
    assert opened.puzzle() == puzzle
    assert opened.mode is draft.mode             # a designed level opens as designed
    typed = model.from_puzzle(puzzle.replace(solution=None))
    assert typed.mode is Mode.TRANSCRIBE and typed.puzzle() == puzzle.replace(solution=None)
    if draft.mode is Mode.DESIGN:                # its solution given apart, as the play scene knows it
        assert model.from_puzzle(puzzle.replace(solution=None), draft.layout).puzzle() == puzzle


class EditingSession(RuleBasedStateMachine):
    """An editor and what the author did with it; every edit goes through ``Editor.apply``, as
    the scene's do."""

    @initialize(rows=sides, cols=sides, mode=st.sampled_from(Mode), level=st.booleans(), data=st.data())
    def start(self, rows, cols, mode, level, data):
        """A blank board, or a level opened (designed from its solution, or typed)."""
        draft = model.blank(rows, cols, mode)
        if level:
            layout = data.draw(fleets_drawn(rows, cols))
            designed = replace(model.blank(rows, cols), layout=layout).puzzle()
            assert designed is not None
            draft = model.from_puzzle(designed if mode is Mode.DESIGN else designed.replace(solution=None))
        self.editor = Editor(draft)
        self.history = [self.editor.draft]     # what undo walks back through
        self.cursor = 0

    @property
    def draft(self) -> Draft:
        return self.editor.draft

    def edit(self, new: Draft) -> None:
        before = self.draft
        changed = self.editor.apply(new)
        assert changed == (new != before)
        if changed:
            del self.history[self.cursor + 1:]
            self.history.append(new)
            self.cursor += 1
        assert self.draft == self.history[self.cursor]

    def cell(self, spot) -> tuple[int, int]:
        return spot[0] % self.draft.rows, spot[1] % self.draft.cols

    def solution(self) -> Grid | None:
        """A solution of the draft's level, as the editor's verdict reports it (None when the
        draft is no level or has none)."""
        puzzle = self.draft.puzzle()
        if puzzle is None:
            return None
        verdict = decide(puzzle, timeout=5.0)
        return verdict.solutions[0] if verdict.solutions else None

    # ----- the board's size ----------------------------------------------------------------

    @rule(rows=st.integers(-1, 1), cols=st.integers(-1, 1))
    def grow(self, rows, cols):
        before = self.draft
        rows, cols = min(SIDE, before.rows + rows), min(SIDE, before.cols + cols)
        self.edit(model.resize(before, rows, cols))
        check_resized(before, self.draft)

    @rule(rows=sides, cols=sides)
    def resize_and_back(self, rows, cols):
        before = self.draft
        there = model.resize(before, rows, cols)
        back = model.resize(there, before.rows, before.cols)
        check_resized(before, there)
        check_resized(there, back)
        if rows >= before.rows and cols >= before.cols:
            assert back == before                  # nothing was cut: all of it comes back
        self.edit(there)

    # ----- design --------------------------------------------------------------------------

    @precondition(lambda self: self.draft.mode is Mode.DESIGN)
    @rule(spot=spots, ship=st.booleans())
    def paint(self, spot, ship):
        r, c = self.cell(spot)
        before = self.draft
        self.edit(model.paint(before, (r, c), ship))
        assert self.draft.layout[r][c] == (Cell.SHIP if ship else Cell.WATER)
        assert self.draft.given == before.given
        assert all(self.draft.layout[i][j] == before.layout[i][j]
                   for i in range(before.rows) for j in range(before.cols) if (i, j) != (r, c))

    @precondition(lambda self: self.draft.mode is Mode.DESIGN)
    @rule(placement=placements, ship=st.booleans())
    def drag(self, placement, ship):
        """A drag across a row or down a column, painting ship or water."""
        (r, c), length, across = placement
        for k in range(length):
            cell = (r, c + k) if across else (r + k, c)
            if cell[0] < self.draft.rows and cell[1] < self.draft.cols:
                self.edit(model.paint(self.draft, cell, ship))

    @precondition(lambda self: self.draft.mode is Mode.DESIGN)
    @rule(spot=spots)
    def toggle_given(self, spot):
        cell = self.cell(spot)
        before = self.draft
        self.edit(model.toggle_given(before, cell))
        assert (cell in self.draft.given) != (cell in before.given)
        assert self.draft.layout == before.layout

    # ----- transcribe ----------------------------------------------------------------------

    @precondition(lambda self: self.draft.mode is Mode.TRANSCRIBE)
    @rule(spot=spots, forward=st.booleans())
    def cycle_hint(self, spot, forward):
        cell = self.cell(spot)
        before = self.draft
        self.edit(model.cycle_hint(before, cell, forward))
        back = model.cycle_hint(self.draft, cell, not forward)
        assert back.typed_hints == before.typed_hints                 # one step back undoes it
        assert {k: v for k, v in self.draft.typed_hints.items() if k != cell} == \
            {k: v for k, v in before.typed_hints.items() if k != cell}

    @precondition(lambda self: self.draft.mode is Mode.TRANSCRIBE)
    @rule(row=st.booleans(), index=st.integers(0, SIDE - 1), value=tallies)
    def set_tally(self, row, index, value):
        axis = "row" if row else "col"
        before = self.draft
        index %= before.rows if row else before.cols
        self.edit(model.set_tally(before, axis, index, value))
        typed = self.draft.typed_rows if row else self.draft.typed_cols
        assert typed[index] == value                   # never silently changed

    @precondition(lambda self: self.draft.mode is Mode.TRANSCRIBE)
    @rule(data=st.data(), hidden=st.sets(st.integers(0, 2 * SIDE - 1), max_size=4))
    def type_a_book_level(self, data, hidden):
        """The clues of a level from a book typed in, tally by tally and ship by ship (a few
        tallies not printed)."""
        layout = data.draw(fleets_drawn(self.draft.rows, self.draft.cols))
        book = replace(model.blank(self.draft.rows, self.draft.cols), layout=layout)
        for length in range(1, 10):
            while dict(self.draft.typed_fleet).get(length, 0) != dict(book.fleet).get(length, 0):
                count = dict(self.draft.typed_fleet).get(length, 0)
                step = 1 if count < dict(book.fleet).get(length, 0) else -1
                self.edit(model.set_ships(self.draft, length, count + step))
        for i, tally in enumerate(book.row_tallies):
            self.edit(model.set_tally(self.draft, "row", i, None if i in hidden else tally))
        for i, tally in enumerate(book.col_tallies):
            self.edit(model.set_tally(self.draft, "col", i, None if SIDE + i in hidden else tally))

    @precondition(lambda self: self.draft.mode is Mode.TRANSCRIBE)
    @rule(length=st.integers(1, 9), step=st.sampled_from((-1, 1)))
    def add_ship(self, length, step):
        before = self.draft
        count = dict(before.typed_fleet).get(length, 0)
        self.edit(model.set_ships(before, length, count + step))
        after = dict(self.draft.typed_fleet)
        assert after.get(length, 0) == max(0, count + step)
        assert {k: v for k, v in after.items() if k != length} == \
            {k: v for k, v in dict(before.typed_fleet).items() if k != length}

    # ----- either mode ---------------------------------------------------------------------

    @rule(key=st.sampled_from(("name", "author")), char=st.one_of(st.none(), letters))
    def type_text(self, key, char):
        text = getattr(self.draft, key)
        if char is None:
            text = text[:-1]
        elif len(text) < MAX_TEXT:
            text += char
        self.edit(replace(self.draft, **{key: text}))

    @precondition(lambda self: self.draft.mode is Mode.DESIGN)
    @rule()
    def to_transcribe(self):
        before = self.draft
        self.edit(model.switch_mode(before))
        after = self.draft
        assert after.mode is Mode.TRANSCRIBE
        # the design's clues are written out as typed
        assert (after.row_tallies, after.col_tallies, after.fleet, after.hints) == \
            (before.row_tallies, before.col_tallies, before.fleet, before.hints)
        if before.puzzle() is not None:
            assert after.puzzle() == before.puzzle().replace(solution=None)

    @precondition(lambda self: self.draft.mode is Mode.TRANSCRIBE)
    @rule(known=st.booleans())
    def to_design(self, known):
        before = self.draft
        solution = self.solution() if known else None
        self.edit(model.switch_mode(before, solution))
        after = self.draft
        assert after.mode is Mode.DESIGN and after.given == frozenset(before.typed_hints)
        if solution is None:
            return
        assert after.layout == tuple(tuple(row) for row in solution)
        puzzle = before.puzzle()
        # every clue a design can show is kept: known tallies, pieces of known shape
        if None not in before.typed_rows + before.typed_cols and \
                Hint.SHIP not in before.typed_hints.values():
            assert after.puzzle() == puzzle.replace(solution=layout_text(solution))

    @rule(extra=spots)
    def make_unique_step(self, extra):
        """What "Make unique" does: one more hint from the intended solution."""
        from solvers.authoring.generator import with_hint

        puzzle = self.draft.puzzle()
        target = self.draft.layout if self.draft.mode is Mode.DESIGN else self.solution()
        if puzzle is None or target is None:
            return
        cell = self.cell(extra)
        better = with_hint(puzzle, target, cell)
        self.edit(model.with_puzzle_hints(self.draft, better))
        assert self.draft.puzzle() == better

    @rule(which=st.integers(0, SIDE * SIDE))
    def minimize_step(self, which):
        """What "Minimize" does: fewer hints, the level otherwise the same."""
        puzzle = self.draft.puzzle()
        if puzzle is None or not puzzle.hints:
            return
        cells = sorted(puzzle.hints)
        gone = cells[which % len(cells)]
        fewer = puzzle.replace(hints={k: v for k, v in puzzle.hints.items() if k != gone})
        self.edit(model.with_puzzle_hints(self.draft, fewer))
        assert self.draft.puzzle() == fewer

    # ----- history and files ---------------------------------------------------------------

    @rule()
    def undo(self):
        assert self.editor.undo() == (self.cursor > 0)
        self.cursor = max(0, self.cursor - 1)
        assert self.draft == self.history[self.cursor]

    @rule()
    def redo(self):
        assert self.editor.redo() == (self.cursor + 1 < len(self.history))
        self.cursor = min(len(self.history) - 1, self.cursor + 1)
        assert self.draft == self.history[self.cursor]

    @rule()
    def undo_all_and_redo_all(self):
        here = self.draft
        while self.editor.undo():
            pass
        assert self.draft == self.history[0]
        while self.editor.redo():
            pass
        assert self.draft == self.history[-1]
        while self.editor.cursor > self.cursor:
            assert self.editor.undo()
        assert self.draft == here

    @rule()
    def save_and_open(self):
        """The level saved and opened again in a new editor: the same level, with the
        history starting afresh."""
        puzzle = self.draft.puzzle()
        if puzzle is None:
            return
        saved = levels.loads(levels.dumps(puzzle.replace(source="level editor")))
        self.editor = Editor(model.from_puzzle(saved))
        self.history, self.cursor = [self.editor.draft], 0
        assert self.draft.puzzle() == puzzle

    @precondition(lambda self: self.draft.mode is Mode.TRANSCRIBE)
    @rule()
    def open_with_the_board_drawn(self):
        """A typed level whose file (or whose caller) gives the board last painted as its
        solution, whether or not it is one: opened, it is the same level."""
        puzzle = self.draft.puzzle()
        if puzzle is None:
            return
        layout = self.draft.layout
        # designed from it only when it is a solution and a design can show every clue
        shown = None not in puzzle.row_tallies + puzzle.col_tallies and Hint.SHIP not in puzzle.hints.values()
        designed = rules.is_solved(puzzle, layout) and shown
        stored = puzzle.replace(solution=layout_text(layout))
        for opened in (model.from_puzzle(puzzle, layout), model.from_puzzle(stored)):
            again = opened.puzzle()
            assert again is not None, opened.problems()
            assert again.replace(solution=None) == puzzle
            assert opened.mode is (Mode.DESIGN if designed else Mode.TRANSCRIBE)
            assert again.solution == (layout_text(layout) if designed else None)

    @invariant()
    def the_draft_keeps_its_promises(self):
        if hasattr(self, "editor"):
            assert self.draft == self.history[self.cursor]
            check_draft(self.draft)
            # kept unsaved between openings of the editor, it comes back the same
            assert model.from_dict(json.loads(json.dumps(model.to_dict(self.draft)))) == self.draft


def check_resized(before: Draft, after: Draft) -> None:
    """What fits is kept; the rest of a larger board is blank; the rest of the draft is kept."""
    rows, cols = min(before.rows, after.rows), min(before.cols, after.cols)
    for r in range(after.rows):
        for c in range(after.cols):
            kept = r < rows and c < cols
            assert after.layout[r][c] == (before.layout[r][c] if kept else Cell.WATER)
            assert ((r, c) in after.given) == (kept and (r, c) in before.given)
            assert after.typed_hints.get((r, c)) == (before.typed_hints.get((r, c)) if kept else None)
    assert after.typed_rows == before.typed_rows[:after.rows] + (0,) * (after.rows - before.rows)
    assert after.typed_cols == before.typed_cols[:after.cols] + (0,) * (after.cols - before.cols)
    assert (after.mode, after.typed_fleet, after.name, after.author) == \
        (before.mode, before.typed_fleet, before.name, before.author)


QUICK = settings(max_examples=300, stateful_step_count=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
LONG = settings(max_examples=3000, stateful_step_count=80, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def test_editing_keeps_every_promise():
    run_state_machine_as_test(EditingSession, settings=QUICK)


@pytest.mark.slow
def test_editing_keeps_every_promise_long():
    run_state_machine_as_test(EditingSession, settings=LONG)


# ----- what the machine found, kept as it shrank it ----------------------------------------


def test_a_level_whose_stored_board_has_ships_touching_opens_typed_as_the_same_level():
    """Two submarines painted corner to corner and their clues written out as typed make a
    level (one without a solution); given that board as its solution, by a caller or in its
    file, it opened as a design that was no level ("ships touch diagonally")."""
    touching = model.paint(model.paint(model.blank(2, 2), (0, 1), True), (1, 0), True)
    level = model.switch_mode(touching).puzzle()
    assert level is not None and touching.puzzle() is None
    for opened in (model.from_puzzle(level, touching.layout), model.from_puzzle(level.replace(solution=(".#", "#.")))):
        assert opened.mode is Mode.TRANSCRIBE and opened.puzzle() == level


GOOD_DRAFT = model.to_dict(model.switch_mode(model.paint(model.blank(4, 5), (1, 2), True)))


@settings(max_examples=400, deadline=None)
@given(key=st.sampled_from(sorted(GOOD_DRAFT)),
       value=st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
                          lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=4),
                          max_leaves=12))
def test_a_kept_draft_changed_anyhow_is_read_back_as_a_draft_or_refused_in_words(key, value):
    """A kept draft with any one field replaced: the draft it says, or ValueError saying what
    is wrong; never another exception."""
    data = {**GOOD_DRAFT, key: value}
    try:
        draft = model.from_dict(data)
    except ValueError as error:
        assert str(error)
    else:
        assert model.from_dict(model.to_dict(draft)) == draft
        check_draft(draft)
