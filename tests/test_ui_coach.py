"""Check (C), the hint ladder with mistakes first, undo to the first mistake, and the end of a run."""

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import rules  # noqa: E402
from game.puzzle import Cell  # noqa: E402
from tests.conftest import wait_until  # noqa: E402
from tests.test_ui_play import cell_center, click, colours_in, press, run_to_end, slow_solver  # noqa: E402
from window import solver_panel  # noqa: E402

pytest.importorskip("solvers.logic")

# The built-in level's answer: the ship cells (the given ones included).
SHIPS = {(0, 0), (0, 1), (0, 2), (0, 4), (2, 0), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)}


def wait_for_answer(app, seconds=10.0):
    deadline = time.perf_counter() + seconds
    while app.play.coach.hints.thinking and time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.005)
    app.pump()
    assert not app.play.coach.hints.thinking


def mark(app, cells, value):
    """Each cell is one click's step, the way a player makes them."""
    for r, c in cells:
        assert app.play.session.set_cell(r, c, value)
        app.play.session.end_merge()
    app.pump()


def outlined(app):
    return app.play.view.picture().error_cells


def test_check_outlines_a_planted_mistake_only(app):
    mark(app, [(0, 0)], Cell.SHIP)
    mark(app, [(5, 5)], Cell.SHIP)              # wrong, yet no rule is broken on the board yet
    assert not rules.provable_violations(app.play.puzzle, app.play.session.grid)
    press(app, pygame.K_c)
    wait_for_answer(app)
    assert outlined(app) == {(5, 5)}
    assert "cannot be right" in app.play.status.message and "(outlined)" in app.play.status.message
    assert app.theme.error in colours_in(app.screen, app.play.layout.cell_rect(5, 5))
    assert app.theme.error not in colours_in(app.screen, app.play.layout.cell_rect(0, 0).inflate(-4, -4))
    # Nothing of the answer leaks: no unknown cell changed, no other cell outlined.
    assert sum(v == Cell.UNKNOWN for row in app.play.session.grid for v in row) == 36 - 5
    mark(app, [(5, 5)], Cell.WATER)             # any edit makes the check stale
    assert outlined(app) == set()


def test_check_says_nothing_is_wrong_on_a_correct_partial_board(app):
    mark(app, [(0, 0), (2, 2)], Cell.SHIP)
    mark(app, [(1, 0), (4, 4), (5, 5)], Cell.WATER)
    click(app, next(b for b in app.play.toolbar if b.label == "Check").rect.center)
    wait_for_answer(app)
    assert app.play.status.message == "No mistakes found so far" and outlined(app) == set()
    assert not app.play.coach.offering_undo


def test_hint_names_the_mistake_first_then_undoes_to_before_it(app):
    session = app.play.session
    mark(app, [(0, 0)], Cell.SHIP)
    good = session.grid
    mark(app, [(5, 5)], Cell.SHIP)              # the first mistake
    mark(app, [(0, 1)], Cell.SHIP)              # right, made on top of it
    mark(app, [(4, 0), (4, 1)], Cell.WATER)
    press(app, pygame.K_h)
    wait_for_answer(app)
    assert app.play.status.message.startswith("There is a mistake") and outlined(app) == set()
    assert app.play.coach.offering_undo
    press(app, pygame.K_h)                       # second rung: where
    assert outlined(app) == {(5, 5)} and app.play.status.message.startswith("Mistake")
    app.draw()
    button = app.play.mistake_button.rect
    assert app.play.layout.status.contains(button)
    click(app, button.center)                    # the status-line button
    assert session.grid == good and session.cursor == 1
    assert "before the first mistake" in app.play.status.message and not app.play.coach.offering_undo
    assert all(session.grid[r][c] in (Cell.UNKNOWN, Cell.SHIP if (r, c) in SHIPS else Cell.WATER)
               for r in range(6) for c in range(6))
    press(app, pygame.K_y, pygame.KMOD_CTRL)     # redo keeps the rest, one step at a time
    assert session.grid[5][5] == Cell.SHIP and session.can_redo


def test_third_hint_press_undoes_to_the_mistake(app):
    session = app.play.session
    mark(app, [(3, 3)], Cell.SHIP)               # column 4 has no ships: the judge proves it wrong
    mark(app, [(0, 0)], Cell.SHIP)
    for _ in range(3):
        press(app, pygame.K_h)
        wait_for_answer(app)
    assert session.grid == session.start and session.cursor == 0


def test_u_alone_finds_the_first_mistake_and_undoes_back_to_it(app):
    session = app.play.session
    mark(app, [(0, 0)], Cell.SHIP)
    good = session.grid
    mark(app, [(5, 5)], Cell.SHIP)               # the first mistake, no Check or Hint asked
    mark(app, [(0, 1)], Cell.SHIP)
    press(app, pygame.K_u)
    wait_for_answer(app)
    assert session.grid == good and session.cursor == 1
    assert "before the first mistake" in app.play.status.message
    press(app, pygame.K_u)                       # a board without a mistake: said so
    wait_for_answer(app)
    assert session.grid == good and "No mistakes found so far" in app.play.status.message


def test_when_the_engine_finds_no_step_in_time_the_hint_reveals_a_cell(app, monkeypatch):
    from solvers.logic import deduction as logic
    monkeypatch.setattr(logic, "next_deduction", lambda *args, **kwargs: None)   # as if it gave up
    session = app.play.session
    before = session.grid
    press(app, pygame.K_h)
    wait_for_answer(app)
    assert app.play.status.message.startswith("Hint: look at the highlighted cells")
    press(app, pygame.K_h)                       # which rule: none short, so a cell of the solution
    assert "one cell of the solution" in app.play.status.message
    press(app, pygame.K_h)                       # the move
    changed = [(r, c) for r in range(6) for c in range(6) if session.grid[r][c] != before[r][c]]
    assert len(changed) == 1
    (r, c), = changed
    assert session.grid[r][c] == (Cell.SHIP if (r, c) in SHIPS else Cell.WATER)
    assert session.grid[r][c] == Cell.SHIP       # a ship cell is revealed while one is unknown


def test_after_a_run_the_first_click_restores_the_marks_and_acts(app, monkeypatch):
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=6, pause=0))
    session = app.play.session
    mark(app, [(5, 5)], Cell.WATER)
    panel = app.play.solver
    panel.set_speed(0)
    run_to_end(app, panel)
    assert panel.showing and not panel.running
    click(app, cell_center(app, 4, 4))           # one click: marks back and the cell marked
    assert not panel.showing and session.grid[4][4] == Cell.WATER and session.grid[5][5] == Cell.WATER
    run_to_end(app, panel)
    press(app, pygame.K_z, pygame.KMOD_CTRL)      # likewise Undo
    assert not panel.showing and session.grid[4][4] == Cell.UNKNOWN


def test_after_its_answer_a_hint_searches_ahead_until_the_next_question(app, monkeypatch):
    from window import hints as window_hints

    searches = []

    def endless(puzzle, grid, step, seconds=0.0):      # a search ahead that never ends by itself
        searches.append("running")
        mine = len(searches) - 1
        try:
            while True:
                time.sleep(0.005)
                yield None
        finally:
            searches[mine] = "ended"
    monkeypatch.setattr(window_hints, "think_ahead", endless)
    helper = app.play.coach.hints
    press(app, pygame.K_h)
    wait_for_answer(app)
    assert "Hint: look at the highlighted cells" in app.play.status.message
    wait_until(lambda: searches)
    assert searches == ["running"] and not helper.thinking     # answered, and searching on
    for _ in range(3):
        app.pump()
    assert helper.stage == 1 and not app.play.coach.poll()     # the search ahead announces nothing
    helper.ask(app.play.session.grid)                          # the next question ends it
    wait_for_answer(app)
    assert wait_until(lambda: searches[0] == "ended", 1.0)
    app.play.coach.cancel()                                    # so does leaving the level
    wait_until(lambda: searches[-1] == "ended", 1.0)
    assert searches == ["ended", "ended"]


def test_the_levels_solution_is_worked_out_before_the_first_question(app):
    judge = app.play.coach.hints.judge
    assert wait_until(lambda: judge.known) and not app.play.coach.thinking   # worked out before anyone asked
    assert {(r, c) for r, row in enumerate(judge.solution()) for c, v in enumerate(row) if v == Cell.SHIP} == SHIPS


def test_a_hint_on_the_solved_board_says_it_is_solved_and_counts_no_hint(app):
    # It counted a hint and said "No hint: the deduction engine finds no next step from this
    # board", as if the engine had failed.
    for r, c in SHIPS - set(app.play.puzzle.hints):
        mark(app, [(r, c)], Cell.SHIP)
    assert app.play.session.solved
    asked = dict(app.play.session.asked)
    press(app, pygame.K_h)
    assert app.play.status.message == "The board is solved: no hint is needed (R: play it again)"
    assert app.play.session.asked == asked and not app.play.coach.hints.thinking


def test_a_hint_taken_to_its_move_counts_once_for_the_records(app, monkeypatch):
    """A hint's three rungs (where, which rule, the move) are one hint asked: each press used to
    count, so the Stats said 3 hints for one move; a press while the answer is being worked
    out asks nothing new either."""
    from solvers.logic import deduction as logic
    found = logic.next_deduction
    monkeypatch.setattr(logic, "next_deduction", lambda *args, **kwargs: time.sleep(0.5) or found(*args, **kwargs))
    session = app.play.session
    before = session.grid
    press(app, pygame.K_h)
    assert app.play.coach.hints.thinking
    press(app, pygame.K_h)                       # still looking: the same question
    wait_for_answer(app)
    assert app.play.status.message.startswith("Hint: look at the highlighted cells")
    press(app, pygame.K_h)                       # which rule
    press(app, pygame.K_h)                       # the move
    assert session.grid != before and app.play.status.message.startswith("Hint applied")
    assert app.play.coach.asked["hint"] == 1
    press(app, pygame.K_h)                       # a new board: a new hint
    assert app.play.coach.asked["hint"] == 2
