"""The play scene's contracts: board changes are session moves, the judge reads each board
once per change, and a frame with nothing new draws nothing again."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import rules  # noqa: E402
from game.puzzle import Cell  # noqa: E402
from game.session import Session  # noqa: E402
from tests.test_ui_play import cell_center, click, drag, press, run_to_end, slow_solver  # noqa: E402
from window import solver_panel  # noqa: E402


@pytest.fixture
def judge_calls(monkeypatch):
    """Counts readings of a board by the judge, through any of its entry points (outermost only)."""
    calls = []
    depth = [0]

    def counted(function):
        def wrapper(*args, **kwargs):
            if depth[0] == 0:
                calls.append(function.__name__)
            depth[0] += 1
            try:
                return function(*args, **kwargs)
            finally:
                depth[0] -= 1
        return wrapper

    for name in ("judge", "violations", "provable_violations", "is_solved", "closed_ships"):
        monkeypatch.setattr(rules, name, counted(getattr(rules, name)))
    return calls


def replayed(session):
    """The board the session's own history gives: differs if anything set the grid directly."""
    return Session.from_dict(session.puzzle, session.to_dict()).grid


def test_the_judge_runs_once_per_click_and_once_per_drawn_change(app, judge_calls):
    for cell in ((3, 3), (4, 4), (3, 3)):
        judge_calls.clear()
        click(app, cell_center(app, *cell))            # handled, then the frame is drawn
        assert judge_calls == ["judge"]
    judge_calls.clear()
    press(app, pygame.K_DOWN)                          # the cursor moves: the board is redrawn, not judged
    app.pump()
    assert judge_calls == []
    judge_calls.clear()
    click(app, app.play.layout.row_tally_rect(1).center)  # a line fill: one change, one reading
    assert judge_calls == ["judge"]


def test_every_board_change_is_a_session_move(app, monkeypatch):
    session = app.play.session
    click(app, cell_center(app, 3, 3))
    drag(app, cell_center(app, 4, 0), [cell_center(app, 4, c) for c in range(1, 4)])
    click(app, app.play.layout.row_tally_rect(1).center)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_s)
    assert replayed(session) == session.grid and session.grid[4][:4] == (Cell.WATER,) * 4
    press(app, pygame.K_r)
    assert replayed(session) == session.grid == session.start
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert replayed(session) == session.grid != session.start
    # A solver's board, kept: one step of moves, and its run's own board was moves too.
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=8, pause=0))
    applied = []
    apply = Session.apply
    monkeypatch.setattr(Session, "apply", lambda self, moves, *args, **kwargs: applied.append(self.player)
                        or apply(self, moves, *args, **kwargs))
    panel = app.play.solver
    panel.set_speed(0)
    run_to_end(app, panel)
    assert panel.watch.moves == 8 and applied.count(False) == 8
    steps = session.cursor
    click(app, panel.keep_button.rect.center)
    assert replayed(session) == session.grid and session.cursor == steps + 1
    assert session.grid[0][:4] == (Cell.WATER,) * 4


def test_a_frame_with_nothing_new_renders_nothing_again(app):
    view = app.play.view
    app.draw()
    board, panel, toolbar = view.board_view.renders, view.renders["panel"], view.renders["toolbar"]
    for _ in range(3):
        app.draw()
    assert (view.board_view.renders, view.renders["panel"], view.renders["toolbar"]) == (board, panel, toolbar)
    # The mouse over a toolbar button: only the toolbar is drawn again.
    button = app.play.toolbar[0].rect
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=button.center, rel=(1, 0), buttons=(0, 0, 0)))
    app.pump()
    assert view.renders["toolbar"] == toolbar + 1
    assert (view.board_view.renders, view.renders["panel"]) == (board, panel)
    # A mark: the board is drawn again, once, and the screen still shows the whole scene.
    app.play.session.set_cell(4, 4, Cell.WATER)
    app.draw()
    app.draw()
    assert view.board_view.renders == board + 1
    assert tuple(app.screen.get_at(app.play.layout.cell_rect(4, 4).move(3, 3).topleft))[:3] == app.theme.water


def test_drawing_only_what_changed_leaves_the_screen_as_a_full_drawing_would(app, monkeypatch):
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=5, pause=0))
    layout = app.play.layout
    click(app, cell_center(app, 3, 3))
    click(app, layout.row_tally_rect(1).center)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=app.play.toolbar[1].rect.center, rel=(1, 0),
                                         buttons=(0, 0, 0)))
    press(app, pygame.K_DOWN)
    panel = app.play.solver
    panel.set_speed(0)
    run_to_end(app, panel)
    click(app, panel.reset_button.rect.center)
    app.play.session.tick(-app.play.session.elapsed)      # the same clock in both drawings
    app.draw()
    step_by_step = app.screen.copy()
    app.play.draw(app.screen, full=True)
    assert pygame.image.tobytes(step_by_step, "RGB") == pygame.image.tobytes(app.screen, "RGB")
