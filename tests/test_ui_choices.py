"""What a returning player finds as left: the window's size, the solver and speed chosen in the
panel, the New puzzle dialog's choice; the command line and the settings file still win, and a
damaged or hand-edited value never stops the window from opening."""

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402

from tests.conftest import resize  # noqa: E402
from window.app import DEFAULT_LEVEL, DEFAULT_WINDOW, App, Script, fit_to_display  # noqa: E402
from window.choices import Choice  # noqa: E402
from window.scenes.new_level import NewLevelScene  # noqa: E402
from window.solver_panel import SPEEDS  # noqa: E402


def press(app, key, mod=0, unicode=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))
    app.pump()


def click(app, pos):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.pump()


def reopened(**given) -> App:
    window = App(**given)
    assert window.open_level(DEFAULT_LEVEL)
    window.pump()
    return window


def choose_in_the_window(app) -> None:
    """A size, a solver (clicked), a speed (the key), a New puzzle choice (the dialog's keys)."""
    resize(app, (900, 650))
    panel = app.play.solver
    click(app, panel.choices[list(panel.labels).index("backtracking")].rect.center)
    press(app, pygame.K_EQUALS, unicode="=")              # faster, one step
    press(app, pygame.K_n)
    assert isinstance(app.overlay, NewLevelScene)
    press(app, pygame.K_RIGHT)                             # 10x10
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)                              # hard
    for digit in "42":
        press(app, getattr(pygame, f"K_{digit}"), unicode=digit)
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_the_window_size_solver_speed_and_new_puzzle_choice_are_those_of_the_next_window(app):
    speed = app.play.solver.speed
    choose_in_the_window(app)
    faster = app.play.solver.speed
    assert faster != speed and faster in SPEEDS
    app.open_level(DEFAULT_LEVEL)                          # this window's next level starts from them too
    assert (app.play.solver.solver, app.play.solver.speed) == ("backtracking", faster)
    app.shutdown()
    again = reopened()
    assert again.screen.get_size() == (900, 650)
    assert (again.play.solver.solver, again.play.solver.speed) == ("backtracking", faster)
    assert again.play.solver.slider.value == faster
    assert again.new_level_choice == Choice(10, "hard", "42", False)
    press(again, pygame.K_n)
    scene = again.overlay
    assert [button.active for button in scene.size_buttons] == [False, False, True, False]
    assert [button.active for button in scene.grade_buttons] == [False, False, True, False]
    again.shutdown()


def test_the_command_line_and_the_settings_file_win_over_what_was_remembered(app, tmp_path):
    choose_in_the_window(app)
    app.shutdown()
    given = reopened(window=(800, 600))                    # a size given wins
    assert given.screen.get_size() == (800, 600)
    script = Script("logic", autorun=True, exit_after_solve=False, screenshot=None)   # --solver logic --autorun
    script.begin(given.play)
    assert (given.play.solver.solver, given.play.solver.speed) == ("logic", 0)
    given.play.solver.stop()
    given.shutdown()
    again = reopened()                                     # what the command line chose is not remembered
    assert (again.play.solver.solver, again.screen.get_size()) == ("backtracking", (900, 650))
    assert again.play.solver.speed != 0
    again.shutdown()
    settings = tmp_path / "mine.yaml"                      # a setting edited since wins over a choice made over another
    settings.write_text("ui:\n  solver: genetic\n  window: [700, 500]\n")
    edited = reopened(settings_path=settings)
    assert (edited.play.solver.solver, edited.screen.get_size()) == ("genetic", (700, 500))
    edited.shutdown()


def test_a_hand_edited_or_damaged_choice_falls_back_and_the_rest_hold(app):
    path = app.storage.choices_path
    app.shutdown()
    path.parent.mkdir(parents=True, exist_ok=True)
    good_theme = ["dark", "light"]
    path.write_text(json.dumps({
        "theme": good_theme, "window": [[10, 10], [1200, 820]], "solver": ["nonsense", "forward"],
        "speed": ["fast", 50], "new_puzzle": [{"size": 7, "difficulty": "easy", "seed": "", "random_seed": True}, None],
        "palette": ["colourblind"], "what": [1, 2]}))
    fresh = reopened()
    assert fresh.screen.get_size() == fit_to_display(DEFAULT_WINDOW)
    assert (fresh.play.solver.solver, fresh.play.solver.speed) == ("forward", 50)
    assert fresh.new_level_choice is None and fresh.theme.name == "dark" and fresh.theme.palette == "standard"
    assert "6 damaged records of window choices dropped" in fresh.play.message
    assert json.loads(path.read_text()) == {"theme": good_theme}           # the good one kept, the file
    assert len(list(path.parent.glob("choices.damaged-*.json"))) == 1      # as it was kept aside
    fresh.shutdown()
    path.write_text('{"new_puzzle": [{"size": 8, "difficulty": "easy", "seed": "1e9", "random_seed": false}, null]}')
    last = reopened()
    assert last.new_level_choice is None
    last.shutdown()
