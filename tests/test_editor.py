"""The level editor's model: design and transcribe drafts, their problems, undo, and the
authoring answers (verdict, the most cutting hint, minimize)."""

import pytest

from game import levels
from game.editor import (
    Editor,
    Mode,
    blank,
    cycle_hint,
    from_puzzle,
    paint,
    resize,
    set_ships,
    set_tally,
    switch_mode,
    toggle_given,
    with_puzzle_hints,
)
from game.puzzle import Cell, Hint, grid_from_strings
from solvers.authoring import editing
from solvers.engine.verdict import Kind
from tests.conftest import ROOT

SOLUTION = ("###...", "......", "#.#..#", "#.#...", "......", "#..#..")


def designed():
    draft = blank(6, 6)
    for r, line in enumerate(SOLUTION):
        for c, ch in enumerate(line):
            if ch == "#":
                draft = paint(draft, (r, c), True)
    return draft


def test_design_tallies_and_fleet_follow_the_painted_layout():
    draft = designed()
    assert draft.row_tallies == (3, 0, 3, 2, 0, 2)
    assert draft.col_tallies == (4, 1, 3, 1, 0, 1)
    assert draft.fleet == ((3, 1), (2, 2), (1, 3))
    puzzle = draft.puzzle()
    assert puzzle is not None and puzzle.solution == SOLUTION and puzzle.hints == {}


def test_given_cells_show_what_the_layout_has_there():
    draft = toggle_given(toggle_given(designed(), (0, 0)), (1, 1))
    assert draft.hints == {(0, 0): Hint.LEFT, (1, 1): Hint.WATER}
    draft = paint(draft, (0, 2), False)                  # the cruiser becomes a destroyer
    assert draft.hints[(0, 0)] is Hint.LEFT and draft.fleet == ((2, 3), (1, 3))
    assert toggle_given(draft, (0, 0)).hints == {(1, 1): Hint.WATER}


def test_a_layout_that_breaks_the_rules_is_shown_on_its_cells_not_raised():
    draft = paint(paint(designed(), (1, 3), True), (1, 1), True)     # touches diagonally; a bend
    problems = draft.problems()
    assert draft.puzzle() is None
    assert any((1, 3) in p.cells for p in problems)
    assert all(p.text for p in problems)
    assert blank(4, 4).problems()[0].text.startswith("paint the fleet")


def test_transcribe_typed_clues_and_their_problems():
    draft = blank(6, 6, Mode.TRANSCRIBE)
    draft = set_ships(set_ships(draft, 2, 1), 1, 1)
    for i, tally in enumerate((2, 0, 1, 0, 0, 0)):
        draft = set_tally(draft, "row", i, tally)
    for i, tally in enumerate((1, 1, 1, 0, 0, 0)):
        draft = set_tally(draft, "col", i, tally)
    draft = cycle_hint(cycle_hint(draft, (0, 0)), (0, 0))             # none -> water -> sub
    assert draft.hints == {(0, 0): Hint.SUB}
    assert draft.puzzle() is not None
    too_big = set_tally(draft, "row", 1, 7)
    assert any("more than its 6 cells" in p.text for p in too_big.problems())
    assert too_big.puzzle() is None
    crowded = set_ships(draft, 10, 3)
    assert any("longer than a 6x6 board" in p.text for p in crowded.problems())


def typed(rows, cols, fleet, row_tallies, col_tallies, hints=()):
    draft = blank(rows, cols, Mode.TRANSCRIBE)
    for length, count in fleet.items():
        draft = set_ships(draft, length, count)
    for i, tally in enumerate(row_tallies):
        draft = set_tally(draft, "row", i, tally)
    for i, tally in enumerate(col_tallies):
        draft = set_tally(draft, "col", i, tally)
    for cell, steps in hints:
        for _ in range(steps):
            draft = cycle_hint(draft, cell)
    return draft


def test_a_fleet_that_fits_is_a_level_however_densely_it_fills_the_board():
    # a battleship on a 1x5 board: four of its five cells
    puzzle = typed(1, 5, {4: 1}, (4,), (1, 1, 1, 1, 0)).puzzle()
    assert puzzle is not None and editing.assess(puzzle).kind is Kind.UNIQUE


def test_what_the_editor_calls_a_level_is_one_the_loader_reads_back():
    three_subs_one_ship = typed(3, 3, {1: 1}, (1, 0, 0), (1, 0, 0), [((0, 0), 2), ((2, 2), 2), ((2, 0), 2)])
    too_long = blank(12, 12)
    for c in range(11):
        too_long = paint(too_long, (0, c), True)
    for draft in (three_subs_one_ship, too_long):
        puzzle = draft.puzzle()
        if puzzle is not None:
            assert levels.loads(levels.dumps(puzzle)) == puzzle
    assert "3 ship hints" in three_subs_one_ship.problems()[0].text
    assert "length 11" in too_long.problems()[0].text


def test_resizing_keeps_what_fits():
    draft = toggle_given(designed(), (5, 0))
    small = resize(draft, 4, 6)
    assert small.rows == 4 and small.layout == draft.layout[:4] and small.given == frozenset()
    assert resize(small, 6, 6).layout[4:] == ((Cell.WATER,) * 6,) * 2
    assert resize(draft, 1000, 0).rows == 60 and resize(draft, 1000, 0).cols == 1


def test_undo_and_redo_cover_every_edit_and_skip_no_ops():
    editor = Editor(blank(6, 6))
    assert editor.apply(paint(editor.draft, (0, 0), True))
    assert not editor.apply(paint(editor.draft, (0, 0), True))
    assert editor.apply(toggle_given(editor.draft, (0, 0)))
    assert editor.undo() and editor.draft.given == frozenset()
    assert editor.undo() and editor.draft.layout[0][0] == Cell.WATER
    assert not editor.undo()
    assert editor.redo() and editor.redo() and not editor.redo()
    assert editor.draft.hints == {(0, 0): Hint.SUB}


def test_modes_carry_the_clues_across():
    draft = toggle_given(designed(), (5, 0))
    typed = switch_mode(draft)
    assert typed.mode is Mode.TRANSCRIBE and typed.puzzle() == draft.puzzle().replace(solution=None)
    back = switch_mode(typed, grid_from_strings(SOLUTION))
    assert back.mode is Mode.DESIGN and back.puzzle() == draft.puzzle()
    assert from_puzzle(draft.puzzle()).layout == draft.layout


def test_a_level_opened_in_the_editor_is_the_same_level_whatever_design_cannot_show():
    solved = designed().puzzle()                     # a level with its solution stored
    hidden = solved.replace(row_tallies=(None,) + solved.row_tallies[1:])
    shapeless = solved.replace(hints={(0, 0): Hint.SHIP, (1, 1): Hint.WATER})
    for level in (solved, hidden, shapeless):
        draft = from_puzzle(level.replace(name="Six", author="Ann"))
        again = draft.puzzle()
        assert again == level.replace(name="Six", author="Ann", solution=again.solution)
        assert levels.loads(levels.dumps(again)) == again
    assert from_puzzle(solved).mode is Mode.DESIGN


def test_make_unique_then_minimize():
    draft = designed()
    target = grid_from_strings(SOLUTION)
    puzzle = draft.puzzle()
    assert editing.assess(puzzle).kind is Kind.AMBIGUOUS
    steps = 0
    while editing.assess(puzzle).kind is not Kind.UNIQUE:
        puzzle = editing.most_cutting_hint(puzzle, target)
        steps += 1
        assert puzzle is not None and steps <= 36
    assessment = editing.assess(puzzle)
    assert assessment.solution == target and assessment.grade
    minimal, finished = editing.minimize(puzzle)
    assert finished
    assert editing.assess(minimal).kind is Kind.UNIQUE and len(minimal.hints) <= len(puzzle.hints)
    assert editing.most_cutting_hint(minimal, target) is None
    assert with_puzzle_hints(draft, minimal).puzzle() == minimal


def test_redundant_hints_out_of_time_are_none_never_a_part():
    puzzle = toggle_given(toggle_given(designed(), (5, 0)), (0, 0)).puzzle()
    while editing.assess(puzzle).kind is not Kind.UNIQUE:
        puzzle = editing.most_cutting_hint(puzzle, grid_from_strings(SOLUTION))
    bounded = editing.assess(puzzle, redundant_timeout=0.0)
    assert bounded.kind is Kind.UNIQUE and bounded.grade and bounded.redundant is None
    assert editing.assess(puzzle, redundant_timeout=60.0).redundant == editing.assess(puzzle).redundant is not None


def test_a_draft_asks_the_judge_once_whatever_is_asked_of_it(monkeypatch):
    from game import editor as drafts
    from game import rules

    asked = []
    judge = rules.judge
    monkeypatch.setattr(rules, "judge", lambda *args: asked.append(1) or judge(*args))
    draft = drafts.paint(drafts.blank(6, 6), (0, 0), True)
    assert draft.problems() == draft.problems() and draft.puzzle() == draft.puzzle()
    assert len(asked) == 1
    again = drafts.paint(draft, (0, 2), True)              # another draft: judged afresh
    again.puzzle()
    assert len(asked) == 2


def test_a_merged_edit_takes_the_place_of_the_last_step_but_never_of_the_draft_opened():
    from game import editor as drafts

    opened = drafts.blank(6, 6)
    history = drafts.Editor(opened)
    first = drafts.paint(opened, (0, 0), True)
    assert history.apply(first, merge=True) and history.history == [opened, first]
    line = drafts.paint_line(first, (0, 0), (0, 2), True)
    assert history.apply(line, merge=True) and history.history == [opened, line]
    assert [line.layout[0][c] for c in range(4)] == [Cell.SHIP] * 3 + [Cell.WATER]


@pytest.mark.parametrize("met", [0, 1])
def test_make_unique_out_of_time_says_so_never_that_the_level_is_unique(monkeypatch, met):
    """A search cut short that met no solution but the one meant proves nothing: OutOfTime,
    never None (which says the level is unique already)."""
    from solvers.engine.verdict import Verdict

    target = grid_from_strings(SOLUTION)
    monkeypatch.setattr(editing, "decide", lambda *args, **kw: Verdict(Kind.UNDECIDED, (target,) * met))
    with pytest.raises(editing.OutOfTime, match="no other solution met within 5 s"):
        editing.most_cutting_hint(designed().puzzle(), target)


def test_minimize_out_of_time_says_it_did_not_finish():
    puzzle = levels.load(ROOT / "levels" / "variants" / "06-8x8.bs")
    fewer, finished = editing.minimize(puzzle, timeout=0.0)
    assert not finished and set(fewer.hints) <= set(puzzle.hints)
    fewer, finished = editing.minimize(puzzle)
    assert finished and editing.assess(fewer).redundant == ()
