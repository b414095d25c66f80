"""Trial layers in the play model: open, nest, keep, abandon, undo/redo, restart, saving."""

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.puzzle import Cell, Hint, Move, Puzzle, grid_from_strings
from game.session import MAX_TRIALS, Session
from window.storage import Damaged, Storage, check_progress, level_key

W, S, U = Cell.WATER, Cell.SHIP, Cell.UNKNOWN


def tutorial_like() -> Puzzle:
    return Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
                  {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP})


SOLUTION = ("###.#.", "......", "#.#..#", "#.#...", "......", ".#....")


def three_deep() -> Session:
    """Committed water at r5c5; trial 1 ship r0c0; trial 2 water r4c4 and r5c5 -> ship; trial 3 ship r2c2."""
    session = Session(tutorial_like())
    session.set_cell(5, 5, W)
    assert session.open_trial() and session.depth == 1
    session.set_cell(0, 0, S)
    assert session.open_trial() and session.depth == 2
    session.set_cell(4, 4, W)
    session.set_cell(5, 5, S)
    assert session.open_trial() and session.depth == 3
    session.set_cell(2, 2, S)
    return session


def test_marks_belong_to_the_trial_they_were_made_in():
    session = three_deep()
    assert session.layer_depths() == {(0, 0): 1, (4, 4): 2, (5, 5): 2, (2, 2): 3}
    assert session.cell_depth(5, 4) == 0 and session.cell_depth(0, 4) == 0
    assert session.board_below(0)[5][5] == W and session.board_below(0)[0][0] == U
    assert session.board_below(1)[0][0] == S and session.board_below(1)[4][4] == U
    assert session.board_below(3) == session.grid


def test_abandon_removes_every_mark_of_the_innermost_trial_at_once():
    session = three_deep()
    cursor = session.cursor
    assert session.abandon_trial()
    assert session.cursor == cursor + 1 and session.depth == 2
    assert session.grid[2][2] == U
    assert session.abandon_trial() and session.depth == 1
    # The committed water that trial 2 turned into a ship is water again.
    assert session.grid[5][5] == W and session.grid[4][4] == U and session.grid[0][0] == S
    assert session.abandon_trial() and session.depth == 0
    assert session.grid[0][0] == U and session.grid[5][5] == W
    assert not session.abandon_trial() and not session.keep_trial()


def test_keep_merges_into_the_layer_below_and_abandon_then_takes_both():
    session = three_deep()
    assert session.keep_trial() and session.depth == 2
    assert session.layer_depths() == {(0, 0): 1, (4, 4): 2, (5, 5): 2, (2, 2): 2}
    assert session.abandon_trial()
    assert session.grid[2][2] == U and session.grid[4][4] == U and session.grid[5][5] == W
    assert session.keep_trial() and session.depth == 0
    assert session.layer_depths() == {} and session.grid[0][0] == S


def test_a_cell_changed_back_in_a_trial_shows_the_layer_below():
    session = Session(tutorial_like())
    session.open_trial()
    session.set_cell(3, 3, W)
    session.open_trial()
    session.set_cell(3, 3, S)
    assert session.cell_depth(3, 3) == 2
    session.set_cell(3, 3, W)
    assert session.cell_depth(3, 3) == 1


def test_trials_nest_to_their_limit():
    session = Session(tutorial_like())
    for _ in range(MAX_TRIALS):
        assert session.open_trial()
    assert not session.open_trial() and session.depth == MAX_TRIALS
    assert MAX_TRIALS >= 3


def test_undo_and_redo_go_across_opening_keeping_and_abandoning():
    session = three_deep()
    session.keep_trial()
    session.abandon_trial()
    boards, depths = [], []
    while True:
        boards.append(session.grid)
        depths.append((session.depth, session.layer_depths()))
        if not session.undo():
            break
    assert session.grid == session.start and session.depth == 0
    for board, depth in zip(reversed(boards[:-1]), reversed(depths[:-1])):
        assert session.redo()
        assert session.grid == board and (session.depth, session.layer_depths()) == depth
    assert not session.can_redo


def test_a_drag_in_a_trial_is_one_step_of_that_trial():
    session = Session(tutorial_like())
    session.open_trial()
    for c in range(2, 6):
        session.paint(4, c, W)
    session.end_merge()
    assert session.layer_depths() == {(4, c): 1 for c in range(2, 6)}
    assert session.abandon_trial() and all(session.grid[4][c] == U for c in range(2, 6))
    assert session.undo() and session.undo() and session.depth == 1
    assert all(session.grid[4][c] == U for c in range(2, 6))


def test_restart_closes_every_trial_and_undo_brings_them_back():
    session = three_deep()
    before = session.grid, session.layer_depths()
    assert session.restart()
    assert session.grid == session.start and session.depth == 0 and session.layer_depths() == {}
    assert session.undo()
    assert (session.grid, session.layer_depths()) == before and session.depth == 3


def test_a_trial_breaking_a_rule_is_named_and_a_sound_one_is_not():
    session = Session(tutorial_like())
    session.set_cell(5, 1, S)            # right (row 5 has one ship)
    session.open_trial()
    session.set_cell(5, 3, S)            # row 5 would hold two ships: provably wrong
    assert session.trial_breaking_rules() == 1
    session.open_trial()
    session.set_cell(3, 3, W)            # sound, but trial 1 below is still wrong
    assert session.trial_breaking_rules() == 1
    session.abandon_trial()
    session.abandon_trial()
    assert session.trial_breaking_rules() is None
    session.open_trial()
    session.set_cell(2, 3, W)            # sound
    session.open_trial()
    session.set_cell(4, 2, S)            # row 4 has no ship
    assert session.trial_breaking_rules() == 2


def test_a_wrong_committed_board_is_not_blamed_on_a_trial():
    session = Session(tutorial_like())
    session.set_cell(3, 3, S)
    session.open_trial()
    session.set_cell(4, 3, S)
    assert session.report.judgement.problems and session.trial_breaking_rules() is None


def test_a_play_with_trials_saves_and_reopens_with_them(tmp_path):
    puzzle = tutorial_like()
    session = three_deep()
    session.keep_trial()
    session.set_cell(3, 3, W)
    session.abandon_trial()
    session.open_trial()
    session.set_cell(1, 0, W)
    session.undo()                       # a redo side is saved too
    storage = Storage(tmp_path)
    key = level_key(puzzle)
    storage.save_progress(key, session.to_dict())
    loaded = storage.load_progress(key, puzzle)
    assert loaded is not None and not storage.take_messages()
    restored = Session.from_dict(puzzle, loaded)
    assert restored.grid == session.grid and restored.cursor == session.cursor
    assert restored.depth == session.depth and restored.layer_depths() == session.layer_depths()
    assert [s.kind for s in restored.history] == [s.kind for s in session.history]
    assert restored.redo() and session.redo()
    assert restored.grid == session.grid and restored.layer_depths() == session.layer_depths()
    # Abandon steps keep the cells they put back, so the saved play replays cell by cell.
    saved = json.loads(storage.progress_path(key).read_text())["history"]
    abandon = [step for step in saved if step.get("trial") == "abandon"]
    assert abandon == [{"label": "abandon trial 2", "moves": ["r2c2=?", "r3c3=?", "r4c4=?", "r5c5=."],
                        "trial": "abandon"}]


def test_an_old_save_without_trials_still_opens(tmp_path):
    """A progress file as written before trials existed: no "trial" key anywhere."""
    puzzle = tutorial_like()
    old = {"history": [{"label": "r5c5", "moves": ["r5c5=."]},
                       {"label": "fill row 5", "moves": ["r5c0=.", "r5c1=#"]},
                       {"label": "restart", "moves": ["r5c0=?", "r5c1=?", "r5c5=?"]},
                       {"label": "r0c0", "moves": ["r0c0=#"]}],
           "cursor": 4, "elapsed": 12.5, "solved": False}
    storage = Storage(tmp_path)
    key = level_key(puzzle)
    storage.progress_path(key).parent.mkdir(parents=True)
    storage.progress_path(key).write_text(json.dumps(old))
    loaded = storage.load_progress(key, puzzle)
    assert loaded == old and not storage.take_messages()
    session = Session.from_dict(puzzle, loaded)
    assert session.cursor == 4 and session.depth == 0 and session.elapsed == 12.5
    assert session.grid[0][0] == S and session.grid[5][5] == U
    assert session.undo() and session.undo() and session.grid[5][1] == S
    # Saved again without a trial, the file is in the old form still.
    assert all(set(step) == {"label", "moves"} for step in session.to_dict()["history"])


def test_a_play_without_trials_saves_in_the_old_form():
    session = Session(tutorial_like())
    session.set_cell(3, 3, W)
    session.restart()
    assert all(set(step) == {"label", "moves"} for step in session.to_dict()["history"])


@pytest.mark.parametrize("history", [
    [{"label": "keep", "moves": [], "trial": "keep"}],                          # nothing to keep
    [{"label": "abandon", "moves": ["r0c0=#"], "trial": "abandon"}],             # nothing to abandon
    [{"label": "open", "moves": [], "trial": "guess"}],                          # not a kind of step
    [{"label": "open", "moves": ["r0c0=#"], "trial": "open"}],                   # opening changes no cell
    [{"label": "open", "moves": [], "trial": "open"}] * (MAX_TRIALS + 1),        # too deep
    [{"label": "r0c0", "moves": []}],                                            # a plain step must change a cell
])
def test_damaged_trial_steps_are_refused(history):
    data = {"history": history, "cursor": len(history), "elapsed": 0.0, "solved": False}
    with pytest.raises(Damaged):
        check_progress(data, tutorial_like())


def test_an_abandon_whose_saved_cells_do_not_fit_is_moved_aside_not_saved_over(tmp_path):
    """The cells an abandon puts back follow from the play; a save that disagrees (edited by
    hand) does not replay, so it is kept aside rather than replaced by a new play."""
    puzzle = tutorial_like()
    data = {"history": [{"label": "open", "moves": [], "trial": "open"},
                        {"label": "r0c0", "moves": ["r0c0=#"]},
                        {"label": "abandon", "moves": ["r0c0=."], "trial": "abandon"}],
            "cursor": 3, "elapsed": 1.0, "solved": False}
    check_progress(data, puzzle)                   # well formed...
    session = Session.from_dict(puzzle, data)      # ...but not the play's own abandon
    assert session.cursor == 0 and session.grid == session.start
    with pytest.raises(ValueError, match="step 3 .abandon. does not fit"):
        Session.restore(puzzle, data)
    storage = Storage(tmp_path)
    key = level_key(puzzle)
    storage.progress_path(key).parent.mkdir(parents=True, exist_ok=True)
    storage.progress_path(key).write_text(json.dumps(data))
    assert storage.restore_play(key, puzzle) is None
    assert any("step 3" in message for message in storage.take_messages())
    kept = [path for path in storage.progress_path(key).parent.iterdir() if path != storage.progress_path(key)]
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == data


def test_solving_inside_a_trial_solves_the_level():
    puzzle = tutorial_like()
    session = Session(puzzle)
    session.open_trial()
    solution = grid_from_strings(SOLUTION)
    session.apply([Move(r, c, solution[r][c]) for r, c in puzzle.cells()])
    assert session.solved and session.layer_depths()


OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("set"), st.integers(0, 5), st.integers(0, 5), st.sampled_from([U, W, S])),
    st.tuples(st.sampled_from(["open", "keep", "abandon", "undo", "redo", "restart", "drag"]))),
    max_size=40)


@settings(max_examples=150, deadline=None)
@given(OPERATIONS)
@example([("drag",), ("open",), ("set", 5, 0, U), ("drag",)])   # one step changes a cell twice
def test_any_play_with_trials_saves_reloads_and_undoes_to_the_start(operations):
    puzzle = tutorial_like()
    session = Session(puzzle)
    for operation in operations:
        kind = operation[0]
        if kind == "set":
            session.set_cell(*operation[1:])
        elif kind == "drag":
            session.paint(5, 0, W)
            session.paint(5, 2, W)
            session.end_merge()
        else:
            {"open": Session.open_trial, "keep": Session.keep_trial, "abandon": Session.abandon_trial,
             "undo": Session.undo, "redo": Session.redo, "restart": Session.restart}[kind](session)
        # Abandoning every trial gives the committed board; the marks of a trial differ from below.
        assert all(session.board_below(depth - 1)[r][c] != session.grid[r][c]
                   for (r, c), depth in session.layer_depths().items())
    data = json.loads(json.dumps(session.to_dict()))
    check_progress(data, puzzle)
    restored = Session.from_dict(puzzle, data)
    assert (restored.grid, restored.cursor, restored.depth, restored.layer_depths()) == \
        (session.grid, session.cursor, session.depth, session.layer_depths())
    committed = session.board_below(0)
    while session.depth:
        assert session.abandon_trial()
    assert session.grid == committed
    while session.undo():
        pass
    assert session.grid == session.start and session.depth == 0
