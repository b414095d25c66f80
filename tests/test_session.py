"""The play model: marks, undo/redo over compound steps, tallies, fleet checklist, saving."""

from game import rules
from game.puzzle import Cell, Hint, Move, Puzzle, grid_from_strings
from game.session import Session, TallyState, fleet_lines, tally_states

# Two submarines on a 2x3 board: "#.." over "..#", or "..#" over "#..": two valid answers.
TWO_ANSWERS = Puzzle(2, 3, (1, 1), (1, 0, 1), ((1, 2),))


def tutorial_like() -> Puzzle:
    return Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
                  {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP})


SOLUTION = ("###.#.", "......", "#.#..#", "#.#...", "......", ".#....")


def test_click_cycles_both_ways_and_hints_stay():
    session = Session(tutorial_like())
    assert session.cycle(3, 3) == Cell.WATER
    assert session.cycle(3, 3) == Cell.SHIP
    assert session.cycle(3, 3) == Cell.UNKNOWN
    assert session.cycle(3, 3, forward=False) == Cell.SHIP
    assert session.cycle(0, 4) is None and session.grid[0][4] == Cell.SHIP
    assert not session.set_cell(1, 1, Cell.SHIP) and session.grid[1][1] == Cell.WATER


def test_undo_redo_and_new_move_drops_redo_branch():
    session = Session(tutorial_like())
    session.set_cell(5, 5, Cell.WATER)
    session.set_cell(5, 4, Cell.SHIP)
    assert session.undo() and session.grid[5][4] == Cell.UNKNOWN
    assert session.redo() and session.grid[5][4] == Cell.SHIP
    session.undo()
    session.set_cell(4, 4, Cell.WATER)
    assert not session.can_redo
    while session.undo():
        pass
    assert session.grid == session.start


def test_drag_is_one_step_and_water_paints_only_unknown():
    session = Session(tutorial_like())
    session.set_cell(4, 2, Cell.SHIP)
    session.end_merge()
    session.set_cell(4, 0, Cell.WATER)          # the click that starts a drag
    for col in (1, 2, 3):
        session.paint(4, col, Cell.WATER)
    session.end_merge()
    assert session.grid[4][:4] == (Cell.WATER, Cell.WATER, Cell.SHIP, Cell.WATER)
    session.undo()
    assert session.grid[4][:4] == (Cell.UNKNOWN, Cell.UNKNOWN, Cell.SHIP, Cell.UNKNOWN)


def test_restart_and_replace_board_are_undoable():
    session = Session(tutorial_like())
    session.set_cell(5, 5, Cell.WATER)
    session.set_cell(5, 1, Cell.SHIP)
    marked = session.grid
    assert session.restart() and session.grid == session.start
    assert session.undo() and session.grid == marked
    assert session.replace_board(grid_from_strings(SOLUTION)) and session.solved
    session.undo()
    assert session.grid == marked


def test_tally_click_fills_a_met_line_only():
    session = Session(tutorial_like())
    assert not session.fill_line_with_water("row", 0)           # 1 of 4 ships
    assert session.fill_line_with_water("row", 1)               # tally 0: met already
    assert all(v == Cell.WATER for v in session.grid[1])
    session.undo()
    assert session.grid[1][0] == Cell.UNKNOWN


def test_tally_states_use_the_judge():
    puzzle = tutorial_like()
    rows, cols = tally_states(puzzle, Session(puzzle).grid)
    assert rows[1] is TallyState.MET and rows[0] is TallyState.NEUTRAL
    grid = grid_from_strings(["#?##??", "......", "??????", "??????", "??????", "??????"])
    rows, cols = tally_states(puzzle, grid)
    assert rows[0] is TallyState.NEUTRAL          # 3 ships + 2 unknown can still make 4
    assert cols[3] is TallyState.ERROR            # a ship in a column whose tally is 0
    assert rows[1] is TallyState.COMPLETE
    assert rules.provable_violations(puzzle, grid)


def test_fleet_checklist_counts_closed_ships_and_flags_too_many():
    puzzle = tutorial_like()
    grid = grid_from_strings(["#.#.#.", "......", "#.....", "......", "......", "......"])
    lines = {line.length: line for line in fleet_lines(puzzle, grid)}
    assert lines[1].closed == 4 and lines[1].too_many and not lines[1].done
    assert lines[3].closed == 0
    solved = {line.length: line for line in fleet_lines(puzzle, grid_from_strings(SOLUTION))}
    assert all(line.done for line in solved.values())


def test_a_different_valid_answer_is_accepted():
    for answer in (("#..", "..#"), ("..#", "#..")):
        session = Session(TWO_ANSWERS)
        session.replace_board(grid_from_strings(answer))
        assert rules.is_solved(TWO_ANSWERS, session.grid)
        assert session.solved


def test_clock_stops_when_solved():
    session = Session(tutorial_like())
    session.tick(2.0)
    session.replace_board(grid_from_strings(SOLUTION))
    session.tick(5.0)
    assert session.elapsed == 2.0 and session.solved


def test_a_solved_play_played_again_is_a_new_attempt_undo_cannot_solve():
    """Playing a solved play again: the hints only, the clock running from zero, nothing asked,
    and no step to undo, so the earlier solution cannot come back into the new attempt's time."""
    puzzle = tutorial_like()
    session = Session(puzzle)
    assert not session.play_again()                     # not solved: Restart is the way back
    session.set_cell(5, 5, Cell.WATER)
    session.asked["hint"] = 2
    session.asked["solver"] = 1
    session.tick(40.0)
    session.replace_board(grid_from_strings(SOLUTION))
    assert session.solved and session.solver_helped
    version = session.version
    assert session.play_again()
    assert session.grid == session.start and not session.solved and session.elapsed == 0.0
    assert not session.can_undo and not session.can_redo and not session.undo()
    assert not session.solver_helped and not any(session.asked.values())
    assert session.version > version and not session.report.solved
    session.tick(3.0)
    assert session.elapsed == 3.0
    session.replace_board(grid_from_strings(SOLUTION))
    assert session.solved and session.elapsed == 3.0
    data = session.to_dict()
    assert len(data["history"]) == 1 and "asked" not in data


def test_saved_history_round_trips_with_cursor():
    puzzle = tutorial_like()
    session = Session(puzzle)
    session.set_cell(5, 5, Cell.WATER)
    session.set_cell(5, 1, Cell.SHIP)
    session.restart()
    session.undo()
    session.tick(3.5)
    copy = Session.from_dict(puzzle, session.to_dict())
    assert copy.grid == session.grid and copy.cursor == session.cursor
    assert copy.redo() and copy.grid == session.start
    assert copy.elapsed == 3.5


def test_damaged_save_gives_a_fresh_play():
    puzzle = tutorial_like()
    for data in ({"history": [{"moves": ["nonsense"]}]}, {"history": [{"moves": ["r9c9=#"]}]}, {"history": 3}):
        assert Session.from_dict(puzzle, data).grid == Session(puzzle).grid


def test_boards_and_undo_to_the_last_board_without_a_mistake():
    from game.session import last_clean_cursor

    session = Session(tutorial_like())
    solution = grid_from_strings(SOLUTION)
    session.set_cell(0, 0, Cell.SHIP)         # right
    session.set_cell(5, 5, Cell.SHIP)         # wrong (the answer has water there)
    session.set_cell(0, 1, Cell.SHIP)         # right, on top of the mistake
    session.set_cell(4, 0, Cell.WATER)        # right
    boards = session.boards()
    assert len(boards) == 5 and boards[0] == session.start and boards[-1] == session.grid
    assert boards[2][5][5] == Cell.SHIP and boards[1][5][5] == Cell.UNKNOWN
    assert session.cursor == 4 and session.grid == boards[-1]          # nothing changed

    def wrong(grid):
        return any(v != Cell.UNKNOWN and v != solution[r][c] for r, row in enumerate(grid) for c, v in enumerate(row))

    target = last_clean_cursor(boards, wrong)
    assert target == 1
    assert session.undo_to(target) and session.grid == boards[1] and not wrong(session.grid)
    assert session.can_redo and session.redo() and session.grid == boards[2]   # the redo side keeps the rest
    # A clean board has nowhere to go; a mistake fixed later is not gone back past.
    assert last_clean_cursor(boards[:2], wrong) is None
    session.set_cell(5, 5, Cell.WATER)        # fixes it (and drops the redo branch)
    session.set_cell(3, 3, Cell.SHIP)         # a new mistake
    assert last_clean_cursor(session.boards(), wrong) == session.cursor - 1


def test_the_judge_reads_each_board_once(monkeypatch):
    calls = []
    judge = rules.judge
    monkeypatch.setattr(rules, "judge", lambda puzzle, grid: calls.append(grid) or judge(puzzle, grid))
    for name in ("violations", "provable_violations", "is_solved", "closed_ships"):
        monkeypatch.setattr(rules, name, lambda *args, name=name: calls.append(name))   # must not be used
    session = Session(tutorial_like())
    session.set_cell(5, 5, Cell.WATER)
    assert len(calls) == 1                                  # the change: is it solved?
    for _ in range(3):
        session.tally_states(), session.fleet_lines(), session.problems(), session.solved_now
        assert session.report.wrong_cells == frozenset()
    assert len(calls) == 1                                  # every other reader shares that verdict
    session.undo()
    session.redo()
    assert len(calls) == 3 and all(not isinstance(call, str) for call in calls)


def test_a_programs_copy_keeps_no_history_and_is_judged_only_when_asked(monkeypatch):
    calls = []
    judge = rules.judge
    monkeypatch.setattr(rules, "judge", lambda puzzle, grid: calls.append(grid) or judge(puzzle, grid))
    copy = Session(tutorial_like(), player=False)
    for col in range(6):
        assert copy.apply([Move(1, col, Cell.SHIP)])        # a given water too: the copy shows what it is told
    assert copy.grid[1] == (Cell.SHIP,) * 6 and not copy.history and not copy.can_undo
    assert calls == [] and not copy.solved
    assert copy.report.rows[1] is TallyState.ERROR and len(calls) == 1
    assert copy.replace_board(grid_from_strings(SOLUTION)) and copy.report.solved and not copy.solved


def test_restoring_progress_judges_the_restored_board_only(monkeypatch):
    puzzle = tutorial_like()
    session = Session(puzzle)
    for r, c in ((5, 5), (4, 4), (3, 3), (2, 2)):
        session.set_cell(r, c, Cell.WATER)
    data = session.to_dict()
    calls = []
    judge = rules.judge
    monkeypatch.setattr(rules, "judge", lambda puzzle, grid: calls.append(grid) or judge(puzzle, grid))
    copy = Session.from_dict(puzzle, data)
    assert calls == [copy.grid] and copy.grid == session.grid and not copy.solved
    solved = Session(puzzle)
    solved.replace_board(grid_from_strings(SOLUTION))
    assert Session.from_dict(puzzle, {**solved.to_dict(), "solved": False}).solved   # the board itself says so


def test_folding_the_oldest_steps_keeps_the_board_the_trials_and_the_latest_steps():
    puzzle = tutorial_like()
    session = Session(puzzle)
    session.set_cell(5, 5, Cell.WATER)
    session.set_cell(5, 1, Cell.SHIP)
    session.set_cell(5, 5, Cell.UNKNOWN)                 # back as it was: no part of the net change
    session.set_cell(4, 4, Cell.WATER)
    session.open_trial()
    session.set_cell(3, 3, Cell.SHIP)
    session.set_cell(3, 4, Cell.WATER)
    session.undo()                                       # one step on the redo side
    grid, depth, cursor, redo = session.grid, session.depth, session.cursor, session.history[-1]
    latest = session.history[3:cursor]
    assert session.fold_oldest()                         # the older half: the first three steps
    assert session.grid == grid and session.depth == depth and session.history[-1] == redo
    assert session.cursor == cursor - 2 and session.history[1:session.cursor] == latest
    assert session.history[0].moves == (Move(5, 1, Cell.SHIP),)
    copy = Session.restore(puzzle, session.to_dict())    # saved and read back whole
    assert copy.grid == grid and copy.depth == depth and copy.redo()
    while session.undo():
        pass
    assert session.grid == session.start                 # the folded step undoes to the start


def test_a_history_open_in_a_trial_from_its_first_step_has_nothing_to_fold():
    session = Session(tutorial_like())
    session.open_trial()
    for col in range(6):
        session.set_cell(5, col, Cell.WATER)
    assert not session.fold_oldest() and len(session.history) == 7
