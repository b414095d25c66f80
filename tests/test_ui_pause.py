"""Pause: away from the window, the player's clock stops and the board is hidden until the
player comes back; a gap in which the program did not run is not counted as play."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402

from tests.conftest import watch_text  # noqa: E402
from window import app as app_module  # noqa: E402
from window.scenes.pause import PauseScene  # noqa: E402


def post(app, kind, **fields):
    pygame.event.post(pygame.event.Event(kind, **fields))
    app.pump()


def cell_center(app, r, c):
    return app.play.layout.cell_rect(r, c).center


def test_leaving_the_window_stops_the_clock_and_hides_the_board_until_a_click(app, monkeypatch):
    session = app.play.session
    post(app, pygame.WINDOWFOCUSGAINED)
    app.pump(dt=2.0)
    clock = session.elapsed
    post(app, pygame.WINDOWFOCUSLOST)
    assert isinstance(app.overlay, PauseScene)
    drawn = watch_text(monkeypatch)
    app.pump(dt=600.0)
    app.draw()
    assert session.elapsed == clock
    texts = [text for text, _ in drawn]
    assert "Paused" in texts and "The clock stopped at 0:02." in texts
    # The board is not drawn under the pause: no tally, no cell.
    assert not any(text.isdigit() for text in texts)
    assert app.screen.get_at(cell_center(app, 0, 0))[:3] == app.theme.background
    # The click that comes back closes the pause and marks nothing.
    grid = session.grid
    post(app, pygame.MOUSEBUTTONDOWN, pos=cell_center(app, 0, 0), button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=cell_center(app, 0, 0), button=1)
    assert app.overlay is None and session.grid == grid
    app.pump(dt=1.0)
    assert clock + 1.0 <= session.elapsed < clock + 1.1     # the clock runs again


def test_a_minimized_window_pauses_and_a_key_goes_on(app):
    post(app, pygame.WINDOWMINIMIZED)
    assert isinstance(app.overlay, PauseScene)
    post(app, pygame.KEYDOWN, key=pygame.K_h, mod=0, unicode="h", scancode=0)
    assert app.overlay is None and not app.play.coach.hints.thinking   # the key asked for no hint


def test_a_focus_never_given_is_not_lost(app):
    """A desktop without a window manager may say the focus is lost without giving it first."""
    app.focused = False                         # as such a desktop leaves it
    post(app, pygame.WINDOWFOCUSLOST)
    assert app.overlay is None


def test_nothing_pauses_a_solved_level_a_view_or_a_watched_run(app, monkeypatch):
    post(app, pygame.WINDOWFOCUSGAINED)
    app.open_stats()
    post(app, pygame.WINDOWFOCUSLOST)
    assert app.overlay.__class__.__name__ == "StatsScene"
    app.close_overlay()
    monkeypatch.setattr(type(app.play.solver), "running", property(lambda panel: True))
    post(app, pygame.WINDOWFOCUSGAINED)
    post(app, pygame.WINDOWFOCUSLOST)
    assert app.overlay is None                 # a class may be watching the run
    assert app.pause()                         # asked for, it pauses all the same
    app.close_overlay()
    monkeypatch.setattr(app.play.session, "solved", True)
    app.play.pause()
    assert app.overlay is None
    assert app.play.status.message == "Nothing to pause: the clock stopped at the solve (R: play again)"


def test_the_pause_action_is_on_the_pause_key(app):
    post(app, pygame.KEYDOWN, key=pygame.K_PAUSE, mod=0, unicode="", scancode=0)
    assert isinstance(app.overlay, PauseScene)


def test_a_gap_in_which_the_program_did_not_run_counts_one_second(app, monkeypatch):
    """A machine asleep or a stopped process: the frame after it counts GAP_COUNTED at most."""
    session = app.play.session
    start = session.elapsed
    now = [1000.0]

    def perf_counter():
        now[0] += 3600.0                       # an hour between any two readings
        return now[0]

    frames = []

    class TwoFrames:
        def check(self, window):
            frames.append(session.elapsed)
            return 0 if len(frames) == 2 else None

    monkeypatch.setattr(app_module.time, "perf_counter", perf_counter)
    assert app.run(TwoFrames()) == 0
    assert 0 < frames[-1] - start <= 2 * app_module.GAP_COUNTED


def test_m_lists_pause_last_and_enter_pauses(app):
    post(app, pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m", scancode=0)
    scene = app.overlay
    assert scene.list.rows[-1].label == "Pause" and scene.actions[-1].key == "Pause"
    post(app, pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="", scancode=0)
    post(app, pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
    assert isinstance(app.overlay, PauseScene)


def test_ctrl_c_or_sigterm_keeps_the_clock_and_the_checks_since_the_last_move(app, monkeypatch):
    # Ctrl+C, or SIGTERM when the session logs out, ends the loop as the close box does: the
    # time thought since the last move and a check asked meanwhile are saved, or the record
    # would be faster than the play and the Stats' checks fewer.
    from game.puzzle import Cell
    from window.storage import Storage

    play = app.play
    assert play.board.change(lambda session: session.set_cell(2, 3, Cell.WATER))
    play.session.elapsed = 300.0                     # five minutes of thought since that move
    post(app, pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c", scancode=0)
    assert play.session.asked["check"] == 1

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "pump", interrupted)
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interrupt did not end the loop")
    saved = Storage().load_progress(play.key)
    assert saved is not None and saved["elapsed"] >= 300.0 and saved["asked"]["check"] == 1


def test_the_time_thought_without_a_move_is_saved_every_half_minute_of_play(app):
    # A program killed (SIGKILL, a crash, the power) keeps the clock of its last save: thinking
    # without a move is saved as the clock goes, or the record would be faster than the play.
    from game.puzzle import Cell
    from window.player_board import CLOCK_SAVE_SECONDS
    from window.storage import Storage

    play = app.play
    post(app, pygame.WINDOWFOCUSGAINED)
    assert play.board.change(lambda session: session.set_cell(2, 3, Cell.WATER))
    for _ in range(CLOCK_SAVE_SECONDS + 1):
        app.pump(dt=1.0)
    saved = Storage().load_progress(play.key)
    assert saved is not None and saved["elapsed"] >= CLOCK_SAVE_SECONDS
