"""The New puzzle dialog: a generation in a worker thread, Cancel, the saved level, the browser."""

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import levels, rules  # noqa: E402
from tests.conftest import wait_until  # noqa: E402
from tests.test_ui_play import click, press  # noqa: E402
from window.app import DEFAULT_LEVEL  # noqa: E402
from window.scenes import new_level as scene_new  # noqa: E402
from window.scenes.new_level import NewLevelScene  # noqa: E402
from window.settings import user_dir  # noqa: E402

pytest.importorskip("solvers.authoring.generator")


def button(scene, label):
    return next(b for b in scene.buttons if b.label == label)


def type_text(app, text):
    for char in text:
        key = pygame.K_BACKSPACE if char == "\b" else ord(char)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="" if char == "\b" else char,
                                             scancode=0))
    app.pump()


def test_new_button_opens_the_dialog_and_a_6x6_easy_level_opens_unique(app):
    from solvers.engine.verdict import Kind, decide

    click(app, next(b for b in app.play.toolbar if b.label == "New").rect.center)
    dialog = app.overlay
    assert isinstance(dialog, NewLevelScene)
    click(app, button(dialog, "6x6").rect.center)
    click(app, button(dialog, "Easy").rect.center)
    type_text(app, "12\b34")                     # typing a seed turns "random" off
    assert dialog.choice.seed == "134" and not dialog.choice.random_seed
    first = app.play
    click(app, button(dialog, "Generate").rect.center)
    assert dialog.busy and app.animating and button(dialog, "Cancel")
    wait_until(lambda: app.overlay is not dialog, 20, app.pump)     # the window keeps running meanwhile
    assert app.overlay is None and app.play is not first
    puzzle = app.play.puzzle
    assert (puzzle.rows, puzzle.cols, puzzle.difficulty) == (6, 6, "easy")
    assert decide(puzzle).kind is Kind.UNIQUE
    assert "easy" in app.play.title and "easy" in pygame.display.get_caption()[0]
    assert app.play.status.message.startswith("New 6x6 level, graded easy, seed 134")
    saved = user_dir() / "generated" / "6x6-easy-134.bs"
    assert app.play.path == saved and levels.load(saved) == puzzle
    assert not rules.provable_violations(puzzle, app.play.session.grid)
    app.open_browser()                           # the browser lists it under "Generated"
    rows = app.overlay.list.rows
    index = next(i for i, row in enumerate(rows) if row.value == saved)
    assert any(row.value is None and row.label.startswith("Generated") for row in rows[:index])


def test_cancel_drops_the_generation_and_the_game_stays(app, monkeypatch):
    calls = []

    def slow(size, difficulty, seed, cancelled=None, progress=None):
        calls.append((size, difficulty, seed))
        time.sleep(0.4)
        calls.append(cancelled())                  # by now the worker has been told to stop
        return levels.load(DEFAULT_LEVEL)

    monkeypatch.setattr(scene_new, "generate_level", slow)
    first = app.play
    app.open_new_level()
    dialog = app.overlay
    press(app, pygame.K_RETURN)                  # Enter generates (a random seed by default)
    assert dialog.busy and dialog.choice.seed.isdigit()
    started = time.perf_counter()
    click(app, button(dialog, "Cancel").rect.center)
    assert time.perf_counter() - started < 0.2 and not dialog.busy
    assert app.overlay is dialog and "Cancelled" in dialog.error and "Cancelled" in app.play.status.message
    time.sleep(0.6)                              # the stand-in finishes: its answer is not read
    for _ in range(3):
        app.pump()
    assert app.play is first and calls[-1] is True and not (user_dir() / "generated").exists()
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_closing_the_window_during_a_generation_tells_the_generator_to_stop(app, monkeypatch):
    told = []

    def slow(size, difficulty, seed, cancelled=None, progress=None):
        wait_until(cancelled, 5, pause=0.01)
        told.append(cancelled())
        return levels.load(DEFAULT_LEVEL)

    monkeypatch.setattr(scene_new, "generate_level", slow)
    app.open_new_level()
    dialog = app.overlay
    press(app, pygame.K_RETURN)
    run = dialog._run
    assert dialog.busy and run is not None
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.run() == 0
    started = time.perf_counter()
    while run.running and time.perf_counter() - started < 6:
        time.sleep(0.01)
    assert not run.running and time.perf_counter() - started < 0.5 and told == [True]


def test_generator_errors_show_in_the_status_line(app, monkeypatch):
    from solvers.authoring.generator import GeneratorError

    def broken(size, difficulty, seed, cancelled=None, progress=None):
        raise GeneratorError("no room for that fleet")

    monkeypatch.setattr(scene_new, "generate_level", broken)
    app.open_new_level()
    dialog = app.overlay
    dialog.generate()
    wait_until(lambda: not dialog.busy, 20, app.pump, 0)
    assert "no room for that fleet" in app.play.status.message and app.overlay is dialog


def test_the_first_compile_of_clause_learning_is_shown_and_not_counted_against_the_limit(app, monkeypatch):
    """A fresh install: numba's cache is empty, and its build in the background takes longer
    than the generator's limit. The generation that meets it waits for the build, saying so,
    then makes the level with its whole limit."""
    from solvers import compiling
    from solvers.authoring.generator import GeneratorCancelled, GeneratorTimeout
    from solvers.search import learning
    from tests.conftest import watch_text

    limit, build = 0.5, 1.5                      # seconds: the stand-in's limit, the build's length
    built_at: list[float] = []
    monkeypatch.setattr(compiling, "_ready", {})
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: bool(built_at) and time.perf_counter() > built_at[0])
    monkeypatch.setattr(compiling, "compile_in_background",
                        lambda module: built_at.append(time.perf_counter() + build))
    calls = []

    def needing_clause_learning(size, difficulty, seed, cancelled=None, progress=None):
        # As the generator does: its limit counts the time the learner waits for the build.
        calls.append(seed)
        started = time.perf_counter()
        for _ in learning.built():
            if cancelled():
                break                                # the learner's wait cut short
            if time.perf_counter() - started > limit:
                raise GeneratorTimeout(f"no {difficulty} level finished in {limit} s")
        if cancelled():                              # asked again once the wait is over, as the generator does
            raise GeneratorCancelled()
        return levels.load(DEFAULT_LEVEL)

    monkeypatch.setattr(scene_new, "generate_level", needing_clause_learning)
    drawn = watch_text(monkeypatch)
    app.open_new_level()
    dialog = app.overlay
    dialog.generate()
    wait_until(lambda: not dialog.busy, 20, lambda: (app.pump(), app.draw()), 0.02)
    assert app.overlay is None, dialog.error
    assert app.play.status.message.startswith("New ")
    assert len(calls) == 2 and calls[0] == calls[1]          # the same seed again, once compiled
    assert time.perf_counter() > built_at[0]
    assert any("clause learning is being compiled, once" in text for text, _ in drawn)


def test_a_generated_level_s_toolbar_shows_undo_and_redo_as_they_are(app):
    # The level opens in the dialog's frame, after the play's own: the frames after it draw
    # the new play's Undo and Redo as they are (greyed: nothing to undo yet).
    press(app, pygame.K_n)
    dialog = app.overlay
    click(app, button(dialog, "6x6").rect.center)
    click(app, button(dialog, "Easy").rect.center)
    first = app.play
    press(app, pygame.K_RETURN)
    wait_until(lambda: app.overlay is not dialog, 20, app.pump)
    assert app.play is not first
    for _ in range(3):
        app.pump()
    drawn = dict((look[0], look[1]) for look in app.play.view.looks.keys["toolbar"][1])
    assert drawn["Undo"] is False and drawn["Redo"] is False


@pytest.mark.parametrize("size", [(1100, 720), (640, 480), (480, 360)])
def test_the_fleet_line_reads_whole_inside_the_dialog_at_every_size(app, monkeypatch, size):
    from tests.conftest import resize, watch_text
    from window import fonts

    resize(app, size)
    app.open_new_level()
    dialog = app.overlay
    for board in scene_new.SIZES:
        dialog.choose_size(board)
        drawn = watch_text(monkeypatch)
        app.full_redraw = True
        app.draw()
        fleet = [(text, rect) for text, rect in drawn if text.startswith("Fleet:")]
        assert fleet and not fleet[0][0].endswith(fonts.ELLIPSIS), fleet
        assert dialog.box.contains(fleet[0][1])
        assert not any(fleet[0][1].colliderect(button.rect) for button in dialog.buttons)
