"""The play scene under any clicks, drags, keys, buttons, solver runs, trials and resizes, in
any order (a seeded random session of real pygame events): nothing raises, the session stays
whole, no solver thread outlives its run, and the window draws."""

import os
import random
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.puzzle import Cell  # noqa: E402
from game.session import Report  # noqa: E402
from tests.conftest import resize, wait_until  # noqa: E402
from tests.test_ui_play import click, drag, press  # noqa: E402

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT
# Every key the play scene lists (the toolbar's, the solver panel's, M) and the board's own.
KEYS = [(pygame.K_n, 0), (pygame.K_l, 0), (pygame.K_o, CTRL), (pygame.K_z, CTRL), (pygame.K_y, CTRL),
        (pygame.K_z, CTRL | SHIFT), (pygame.K_r, 0), (pygame.K_g, 0), (pygame.K_h, 0), (pygame.K_c, 0),
        (pygame.K_e, 0), (pygame.K_e, SHIFT), (pygame.K_v, 0), (pygame.K_d, 0), (pygame.K_i, 0), (pygame.K_x, 0),
        (pygame.K_b, 0), (pygame.K_p, 0), (pygame.K_RETURN, 0), (pygame.K_KP_ENTER, 0), (pygame.K_PERIOD, 0),
        (pygame.K_ESCAPE, 0), (pygame.K_TAB, 0), (pygame.K_TAB, SHIFT), (pygame.K_MINUS, 0),
        (pygame.K_EQUALS, 0), (pygame.K_m, 0), (pygame.K_k, 0), (pygame.K_a, 0), (pygame.K_u, 0),
        (pygame.K_t, 0), (pygame.K_f, 0), (pygame.K_UP, 0), (pygame.K_DOWN, 0), (pygame.K_LEFT, 0), (pygame.K_RIGHT, 0),
        (pygame.K_w, 0), (pygame.K_s, 0), (pygame.K_SPACE, 0), (pygame.K_DELETE, 0), (pygame.K_BACKSPACE, 0),
        (pygame.K_c, CTRL), (pygame.K_v, CTRL), (pygame.K_p, CTRL)]            # the window's: copy, paste, print
# Keys that open an overlay (poked only now and then: the session stays mostly on the play scene).
OVERLAY_KEYS = {pygame.K_n, pygame.K_l, pygame.K_o, pygame.K_e, pygame.K_v, pygame.K_d, pygame.K_i, pygame.K_x,
                pygame.K_m, pygame.K_t, pygame.K_f}
OVERLAY_KEYS_WITH_CTRL = {pygame.K_o}
# What the status line says when something went wrong (a save, a recording, a solver).
# What the window says when something failed ("the run was not recorded (...)"), not what it says
# of a solve the solver made ("Solved with the solver's board: not recorded as your solve.").
TROUBLE = ("Could not", "cannot be recorded", "was not recorded", ": error", "not available", "set aside")
POKES = [pygame.K_RETURN, pygame.K_DOWN, pygame.K_UP, pygame.K_TAB, pygame.K_SPACE, pygame.K_RIGHT, pygame.K_a]
OVERLAY_BUTTONS = {"New", "Levels", "Open...", "Edit", "Race", "Daily", "Stats", "Share"}


def wait(app, seconds):
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.002)


def close_overlays(app):
    """Escape, then the window's own close, until the play scene is on top again."""
    for _ in range(3):
        if app.overlay is None:
            return
        press(app, pygame.K_ESCAPE)
    if app.overlay is not None:
        app.close_overlay()
        app.pump()


def check_whole(app, play, givens):
    session = play.session
    for (r, c), value in givens.items():
        assert session.grid[r][c] == value, f"the given cell {(r, c)} changed"
    assert session.report == Report.of(session.puzzle, session.grid), "a stale report"
    assert 0 <= session.cursor <= len(session.history)
    app.pump()
    assert play.undo_button.enabled == session.can_undo
    assert play.redo_button.enabled == session.can_redo
    panel = play.solver
    assert panel.stop_button.enabled == panel.running
    assert panel.reset_button.enabled == panel.showing
    assert not (panel.keep_button.enabled and panel.running)
    assert not any(word in play.message for word in TROUBLE), play.message
    app.draw()


def one_step(app, rng, log):
    play = app.play
    puzzle, layout, panel = play.puzzle, play.layout, play.solver
    kind = rng.choices(["cell", "drag", "tally", "toolbar", "key", "panel", "trial", "wait", "resize", "more",
                        "undo-redo", "down", "up", "hover"], [30, 8, 8, 10, 25, 18, 6, 6, 3, 2, 4, 4, 3, 4])[0]
    slider = panel.slider.rect
    if kind in ("down", "up"):                 # a press and its release apart, other steps between them
        r, c = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
        pos = layout.cell_rect(r, c).center if rng.random() < 0.8 else (rng.randint(slider.left, slider.right),
                                                                         slider.centery)
        log.append((kind, pos))
        event = pygame.MOUSEBUTTONDOWN if kind == "down" else pygame.MOUSEBUTTONUP
        pygame.event.post(pygame.event.Event(event, pos=pos, button=rng.choice((1, 1, 3))))
        app.pump()
    elif kind == "hover":
        path = [layout.cell_rect(rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)).center for _ in range(3)]
        path.append((rng.randint(slider.left, slider.right), slider.centery))
        log.append(("hover", path))
        version, speed = play.session.version, panel.slider.index
        for pos in path:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0)))
        app.pump()
        assert play.session.version == version, "the mouse moved with no button held and the board changed"
        assert panel.slider.index == speed, "the mouse moved with no button held and the speed changed"
    elif kind == "undo-redo":
        session = play.session
        log.append(("undo-redo",))
        grid, cursor = [list(row) for row in session.grid], session.cursor
        if play.board.free() and session.can_undo:
            press(app, pygame.K_z, CTRL)
            assert session.cursor == cursor - 1 and session.can_redo
            press(app, pygame.K_y, CTRL)
            assert [list(row) for row in session.grid] == grid and session.cursor == cursor, "Redo lost a move"
    elif kind == "cell":
        r, c, button = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols), rng.choice((1, 3))
        log.append(("cell", r, c, button))
        before = play.session.grid[r][c]
        free = play.board.free() and not play.session.is_hint(r, c)
        click(app, layout.cell_rect(r, c).center, button)
        if free and app.play is play:
            assert play.session.grid[r][c] != before, "a click on a free cell was lost"
    elif kind == "drag":
        r, c = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
        path = [layout.cell_rect(rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)).center
                for _ in range(rng.randint(1, 5))]
        log.append(("drag", (r, c), path))
        drag(app, layout.cell_rect(r, c).center, path)
    elif kind == "tally":
        axis = rng.choice(("row", "col"))
        index = rng.randrange(puzzle.rows if axis == "row" else puzzle.cols)
        log.append(("tally", axis, index))
        rect = layout.row_tally_rect(index) if axis == "row" else layout.col_tally_rect(index)
        click(app, rect.center, rng.choice((1, 3)))
    elif kind in ("toolbar", "more"):
        buttons = [b for b in play.shown_toolbar if b.rect.width]
        if kind == "more" or not buttons:
            buttons = [play.more_button] if play.more_button.rect.width else buttons
        button = rng.choice(buttons)
        if button.label in OVERLAY_BUTTONS and rng.random() < 0.7:
            return
        log.append(("button", button.label))
        click(app, button.rect.center)
    elif kind == "key":
        key, mod = rng.choice(KEYS)
        if key in OVERLAY_KEYS and (key not in OVERLAY_KEYS_WITH_CTRL or mod & CTRL) and rng.random() < 0.7:
            return
        log.append(("key", pygame.key.name(key), mod))
        press(app, key, mod)
    elif kind == "panel":
        widgets = [w for w in [*panel.choices, panel.run_button, panel.step_button, panel.stop_button,
                               panel.reset_button, panel.keep_button, panel.rewind_button, panel.save_button]
                   if w.rect.width]
        if rng.random() < 0.15:
            x = rng.randint(panel.slider.rect.left, panel.slider.rect.right)
            log.append(("slider", x - panel.slider.rect.left))
            click(app, (x, panel.slider.rect.centery))
        elif widgets:
            widget = rng.choice(widgets)
            log.append(("panel", widget.label))
            click(app, widget.rect.center)
    elif kind == "trial":
        button = rng.choice([play.trials.open_button, *play.trials.buttons])
        log.append(("trial", button.label))
        if button.rect.width:
            click(app, button.rect.center)
        else:
            press(app, {"Trial": pygame.K_g, "Keep": pygame.K_k, "Abandon": pygame.K_a}[button.label])
    elif kind == "wait":
        seconds = rng.uniform(0.0, 0.3)
        log.append(("wait", round(seconds, 2)))
        wait(app, seconds)
    else:
        size = (rng.randint(640, 1600), rng.randint(480, 1000))
        log.append(("resize", size))
        resize(app, size)
    if app.overlay is not None:
        log.append(("overlay", type(app.overlay).__name__))
        for _ in range(rng.choice((0, 0, 1, 2, 3))):                # poke it briefly
            if app.overlay is None:
                break
            if rng.random() < 0.15:
                size = (rng.randint(640, 1600), rng.randint(480, 1000))
                log.append(("poke resize", size))
                resize(app, size)
            elif rng.random() < 0.5:
                key = rng.choice(POKES)
                log.append(("poke key", pygame.key.name(key)))
                press(app, key)
            else:
                pos = (rng.randrange(app.window_size[0]), rng.randrange(app.window_size[1]))
                log.append(("poke click", pos))
                click(app, pos)
        app.draw()
        close_overlays(app)


def givens_of(play):
    return {cell: play.session.grid[cell[0]][cell[1]] for cell in play.puzzle.hints}


def any_session(app, seed, steps):
    rng = random.Random(seed)
    threads = threading.active_count()
    log = []
    play = app.play
    givens = givens_of(play)
    try:
        for _ in range(steps):
            one_step(app, rng, log)
            assert app.overlay is None, "an overlay would not close"
            assert app.play is not None and app.running
            if app.play is not play:                          # a new level, the daily one
                play, givens = app.play, givens_of(app.play)
            check_whole(app, play, givens)
        if play.solver.showing:
            click(app, play.solver.reset_button.rect.center)
        assert not play.solver.showing
        # A hint or a check may still be thinking (its own budget is 3 s); a loaded machine gets room.
        assert wait_until(lambda: not app.animating, 20.0, app.pump, 0.01), "the scene is stuck animating"
        assert wait_until(lambda: threading.active_count() <= threads, 2.0, app.pump, 0.01), \
            "a solver thread outlived Reset"
    except AssertionError as error:
        raise AssertionError(f"seed {seed}: {error}; steps: {log[-25:]}") from error
    except Exception as error:
        raise AssertionError(f"seed {seed}: {type(error).__name__}: {error}; steps: {log[-25:]}") from error


@pytest.mark.parametrize("seed", range(6))
def test_any_clicks_and_keys_keep_the_play_scene_whole(app, seed):
    """Clicks, drags, tallies, every toolbar button and key, the solver panel, trials, resizes and
    overlays opened and closed, in a seeded random order: nothing raises, the givens never change,
    the report is the judge's, Undo and Redo and the solver's buttons say what is possible, no
    solver thread outlives its reset, the window draws, and it closes promptly."""
    any_session(app, seed, 120)
    closes_promptly_keeping_the_play(app)


def closes_promptly_keeping_the_play(app):
    """Shutdown takes well under a second or two, and the play it saves comes back as it was."""
    play = app.play
    grid, cursor = play.session.grid, play.session.cursor
    started = time.perf_counter()
    app.shutdown()
    assert time.perf_counter() - started < 2.0
    restored = app.storage.restore_play(play.key, play.puzzle)
    if play.session.history:
        assert restored is not None and restored.grid == grid and restored.cursor == cursor


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 140))
def test_any_clicks_and_keys_keep_the_play_scene_whole_long(app, seed):
    any_session(app, seed, 400)
    closes_promptly_keeping_the_play(app)


def test_a_drag_whose_release_went_to_an_overlay_is_over(app):
    """Press on a cell, open the level browser (L), release there, close it: moving the mouse
    with no button held over the board afterwards paints nothing."""
    layout = app.play.layout
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=layout.cell_rect(4, 0).center, button=1))
    app.pump()
    press(app, pygame.K_l)
    assert app.overlay is not None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1))
    app.pump()
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None
    before = app.play.session.grid
    for c in range(1, 6):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=layout.cell_rect(4, c).center, rel=(1, 0),
                                             buttons=(0, 0, 0)))
    app.pump()
    assert app.play.session.grid == before
    drag(app, layout.cell_rect(5, 0).center, [layout.cell_rect(5, c).center for c in range(1, 4)])
    assert app.play.session.grid[5][:4] == (Cell.WATER,) * 4          # a real drag still paints


def test_a_speed_drag_whose_release_went_to_an_overlay_is_over(app):
    """Press on the solver's speed slider, open the level browser (L), release there, close it:
    moving the mouse over the slider with no button held leaves the speed as it was."""
    slider = app.play.solver.slider
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(slider.rect.left, slider.rect.centery),
                                         button=1))
    app.pump()
    speed = slider.index
    press(app, pygame.K_l)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1))
    app.pump()
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(slider.rect.right, slider.rect.centery),
                                         rel=(1, 0), buttons=(0, 0, 0)))
    app.pump()
    assert slider.index == speed
