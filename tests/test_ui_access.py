"""Accessibility: every scene used from the keyboard alone, states told by more than colour,
readable contrast in both themes, every action reachable in the smallest window."""

import datetime
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.editor import Mode  # noqa: E402
from game.puzzle import Cell  # noqa: E402
from tests.conftest import resize, watch_text  # noqa: E402
from window.app import DEFAULT_LEVEL, LEVELS_DIR  # noqa: E402
from window.scenes.actions import ActionsScene  # noqa: E402
from window.scenes.browser import BrowserScene  # noqa: E402
from window.scenes.daily import DailyScene  # noqa: E402
from window.scenes.files import FileScene  # noqa: E402
from window.scenes.new_level import DIFFICULTIES, SIZES  # noqa: E402
from window.scenes.share import ShareScene  # noqa: E402
from window.scenes.stats import StatsScene  # noqa: E402


def press(app, key, mod=0, unicode=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))
    app.pump()


def test_the_level_browser_opens_a_level_from_the_keyboard(app):
    press(app, pygame.K_l)
    scene = app.overlay
    assert isinstance(scene, BrowserScene)
    first = next(row for row in scene.list.rows if row.value is not None)
    assert scene.list.rows[scene.list.selected] is first      # the level in play, the first
    press(app, pygame.K_DOWN)
    press(app, pygame.K_UP)                                   # back on the first level
    assert scene.list.rows[scene.list.selected] is first
    press(app, pygame.K_END)
    last = scene.list.rows[scene.list.selected]
    assert last.value is not None and scene.list.rect.height >= (scene.list.selected + 1) * 30 - scene.list.scroll
    press(app, pygame.K_HOME)
    assert scene.list.rows[scene.list.selected] is first and scene.list.scroll == 0
    press(app, pygame.K_DOWN)
    chosen = scene.list.rows[scene.list.selected].value
    press(app, pygame.K_RETURN)
    assert app.overlay is None and app.play.path == chosen


def test_the_level_browser_opens_on_the_level_in_play_so_down_and_enter_open_the_next(app):
    # It opened at the top: the next level of the pack was a long walk down from the tutorial.
    here = LEVELS_DIR / "10x10" / "hard" / "03.bs"
    assert app.open_level(here)
    press(app, pygame.K_l)
    scene = app.overlay
    rows, at = scene.list.rows, scene.list.selected
    assert at is not None and rows[at].value.resolve() == here.resolve()
    assert scene.list.scroll <= at * 30 < scene.list.scroll + scene.list.rect.height     # in sight
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert app.play.path.resolve() == (LEVELS_DIR / "10x10" / "hard" / "04.bs").resolve()


def test_the_level_browser_closes_with_escape_and_goes_to_the_file_dialog(app):
    press(app, pygame.K_l)
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None
    press(app, pygame.K_l)
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    assert isinstance(app.overlay, FileScene)


def test_the_file_dialog_picks_a_listed_file_from_the_keyboard(app):
    app.last_folder = DEFAULT_LEVEL.parent
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    scene = app.overlay
    assert isinstance(scene, FileScene)
    rows = scene.list.rows
    press(app, pygame.K_DOWN)                                 # the parent folder
    press(app, pygame.K_DOWN)
    picked = rows[scene.list.selected].value
    assert picked.suffix == ".bs"
    press(app, pygame.K_RETURN)
    assert app.overlay is None and app.play.path == picked


def test_typing_in_the_file_dialog_makes_enter_open_what_was_typed(app, tmp_path):
    app.last_folder = DEFAULT_LEVEL.parent
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    scene = app.overlay
    press(app, pygame.K_DOWN)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="x"))
    app.pump()
    assert scene.list.selected is None
    before = app.play.path
    press(app, pygame.K_RETURN)                               # the typed path, not the row left behind
    assert app.play.path == before


@pytest.mark.parametrize("typed", ["/tmp/x/level.bs", "~/level.bs"])
def test_a_path_from_the_root_or_home_typed_over_the_folder_s_path_takes_its_place(app, typed):
    """The dialog opens with its folder's path typed: a path from the root typed after it made
    ".../tutorial//tmp/x/level.bs", which opened nothing, unless 40 Backspaces came first."""
    app.last_folder = DEFAULT_LEVEL.parent
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    for char in typed:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
    app.pump()
    assert app.overlay.typed == typed
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="/"))   # not at the start: typed on
    app.pump()
    assert app.overlay.typed == typed + "/"


def test_a_mistyped_path_is_said_in_the_file_dialog_which_stays_to_mend_it(app):
    """The dialog closed on a path to nothing, its error on the status line behind: the path
    had to be typed again from the start."""
    app.last_folder = DEFAULT_LEVEL.parent
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    scene = app.overlay
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="firts.bs"))
    app.pump()
    press(app, pygame.K_RETURN)
    assert app.overlay is scene and scene.error.endswith("tutorial/firts.bs: No such file or directory")
    for _ in "rts.bs":
        press(app, pygame.K_BACKSPACE)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="rst.bs"))
    app.pump()
    press(app, pygame.K_RETURN)
    assert app.overlay is None and app.play.path == DEFAULT_LEVEL


@pytest.mark.parametrize("key, mod, scene", [(pygame.K_d, 0, DailyScene), (pygame.K_i, 0, StatsScene),
                                             (pygame.K_x, 0, ShareScene), (pygame.K_m, 0, ActionsScene)])
def test_every_dialog_of_the_toolbar_opens_by_a_key_and_closes_with_escape(app, key, mod, scene):
    press(app, key, mod)
    assert isinstance(app.overlay, scene)
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_theme_and_palette_have_keys(app):
    press(app, pygame.K_b)
    assert app.theme.name == "dark"
    press(app, pygame.K_p)
    assert app.theme.palette == "colourblind"


def test_the_theme_and_palette_chosen_are_those_of_the_next_window(app):
    from window.app import App

    press(app, pygame.K_b)
    press(app, pygame.K_p)
    app.shutdown()
    again = App(window=(800, 600))
    assert (again.theme.name, again.theme.palette) == ("dark", "colourblind")
    again.open_level(DEFAULT_LEVEL)
    press(again, pygame.K_b)
    again.shutdown()
    assert App(window=(800, 600)).theme.name == "light"


def test_a_choice_made_over_another_setting_gives_way_to_the_settings(app, tmp_path):
    from window.app import App

    app.storage.choices_path.parent.mkdir(parents=True, exist_ok=True)
    app.storage.choices_path.write_text('{"theme": ["light", "dark"], "palette": ["colourblind", "standard"]}')
    app.shutdown()
    fresh = App(window=(800, 600))                       # the settings say light and standard
    assert (fresh.theme.name, fresh.theme.palette) == ("light", "colourblind")
    fresh.shutdown()
    settings = tmp_path / "settings.yaml"
    settings.write_text("ui:\n  palette: colourblind\n")
    assert App(settings, window=(800, 600)).theme.palette == "colourblind"


@pytest.mark.parametrize("content", ["{not json", '{"theme": ["pink", "light"]}', '{"theme": "dark"}', "[]"])
def test_a_damaged_choices_file_or_choice_is_set_aside_and_the_settings_hold(app, content):
    from window.app import App

    path = app.storage.choices_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    app.shutdown()
    fresh = App(window=(800, 600))
    assert (fresh.theme.name, fresh.theme.palette) == ("light", "standard")
    # A file that cannot be read is set aside; a choice refused is dropped from it, the file as
    # it was kept aside (see tests/test_ui_choices.py).
    assert (not path.exists() or path.read_text() == "{}") and len(list(path.parent.glob("choices.damaged-*"))) == 1
    assert any("of window choices" in m for m in fresh.storage.take_messages())
    fresh.open_level(DEFAULT_LEVEL)
    press(fresh, pygame.K_b)
    assert App(window=(800, 600)).theme.name == "dark"


def test_a_choice_that_cannot_be_kept_is_said_and_holds_in_the_window(app):
    path = app.storage.choices_path
    path.mkdir(parents=True)                             # a folder where the file goes
    press(app, pygame.K_b)
    assert app.theme.name == "dark" and path.is_dir()
    app.pump()
    assert "for this window only" in app.play.message + " ".join(app.storage.take_messages())


def test_every_toolbar_action_has_a_key_of_its_own(app):
    keys = [action.key for action in app.play.actions]
    assert len(set(keys)) == len(keys) == len(app.play.toolbar)
    assert all(app.play.keys[action.chord] is action for action in app.play.actions)
    board = {pygame.K_w, pygame.K_s, pygame.K_SPACE, pygame.K_DELETE, pygame.K_BACKSPACE, pygame.K_UP, pygame.K_DOWN,
             pygame.K_LEFT, pygame.K_RIGHT}
    assert not board & {code for code, ctrl in app.play.keys if not ctrl}
    every = [*app.play.actions, *app.play.solver_actions, *app.play.key_actions]
    keyed = [action.key for action in every if action.key]
    assert len(set(keyed)) == len(keyed)


def test_the_solver_runs_from_the_keyboard(app):
    panel = app.play.solver
    names, start = list(panel.labels), panel.solver
    press(app, pygame.K_TAB)
    assert len(names) > 1 and panel.solver == names[(names.index(start) + 1) % len(names)]
    press(app, pygame.K_TAB, pygame.KMOD_SHIFT)
    chosen = panel.solver
    assert chosen == start
    index = panel.slider.index
    press(app, pygame.K_MINUS)
    assert panel.slider.index == index - 1 and panel.speed == panel.slider.value
    press(app, pygame.K_EQUALS)
    assert panel.slider.index == index
    press(app, pygame.K_PERIOD)                               # one step of a paused run
    assert panel.showing and panel.watch.paused
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_RETURN)
    assert panel.showing and panel.solver == chosen
    press(app, pygame.K_ESCAPE)
    assert not panel.showing


def test_the_action_list_runs_an_action_by_keyboard(app):
    press(app, pygame.K_m)
    scene = app.overlay
    labels = [row.label for row in scene.list.rows]
    every = [*app.play.actions, *app.play.solver_actions, *app.play.key_actions]
    assert labels == [action.label for action in every]
    assert {"Step", "Keep solver's board", "Rewind", "Pause"} <= set(labels)
    assert [row.note for row in scene.list.rows] == [action.key for action in every]
    # Every key the play scene answers is listed: the trial's K and A, U and T too.
    assert {"K", "A", "U", "T", "F", "G"} <= {row.note for row in scene.list.rows}
    for _ in range(labels.index("Stats")):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert isinstance(app.overlay, StatsScene)


@pytest.mark.parametrize("size", [(640, 480), (480, 360), (800, 500)])
def test_a_small_window_reaches_every_action_with_a_whole_label(app, size):
    resize(app, size)
    play = app.play
    bar = play.layout.toolbar
    shown = play.shown_toolbar
    assert shown[-1] is play.more_button and len(shown) >= 4
    for button in shown:
        assert bar.contains(button.rect) and button.shown()[0] == button.label, (size, button.label)
    assert "Undo" in [button.label for button in shown] and "Hint" in [button.label for button in shown]
    hidden = [action for action in play.actions if action.button not in shown]
    assert hidden and all(action.button.rect.width == 0 for action in hidden)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=play.more_button.rect.center, button=1))
    app.pump()
    scene = app.overlay
    assert isinstance(scene, ActionsScene)
    assert [row.label for row in scene.list.rows] == [action.label for action in hidden]
    assert scene.box.right <= size[0] and scene.box.bottom <= size[1]
    press(app, pygame.K_END)                                  # the last one: Palette
    press(app, pygame.K_RETURN)
    assert app.overlay is None and app.theme.palette == "colourblind"


@pytest.mark.parametrize("size", [(480, 1000), (560, 700), (640, 600), (800, 600), (1100, 720), (480, 360)])
def test_every_toolbar_label_is_whole_on_one_row_or_two(app, size):
    # A narrow window tall enough for two rows cut its labels ("Ope...", "Rest...", "Pale...").
    resize(app, size)
    play = app.play
    assert all(button.shown()[0] == button.label for button in play.shown_toolbar), size
    hidden = [action.label for action in play.actions if action.button not in play.shown_toolbar]
    assert (play.more_button in play.shown_toolbar) == bool(hidden)


def test_a_wide_or_tall_window_has_no_more_button(app):
    for size in ((1100, 720), (900, 615)):
        resize(app, size)
        assert app.play.more_button not in app.play.shown_toolbar and app.play.shown_toolbar == app.play.toolbar


def test_the_daily_calendar_plays_a_past_day_from_the_keyboard(app, monkeypatch):
    played = []
    monkeypatch.setattr(app, "play_daily", lambda day=None: played.append(day))
    press(app, pygame.K_d)
    scene = app.overlay
    today = scene.today
    press(app, pygame.K_RIGHT)                                # tomorrow cannot be played
    press(app, pygame.K_RETURN)
    assert played == [] and app.overlay is scene
    for _ in range(6):                                        # back 42 days: another month
        press(app, pygame.K_UP)
    press(app, pygame.K_LEFT)
    day = today - datetime.timedelta(days=42)
    assert scene.selected == day and scene.month == day.replace(day=1)
    app.draw()
    press(app, pygame.K_RETURN)
    assert played == [day] and app.overlay is None


def test_the_race_is_set_up_and_run_from_the_keyboard(app):
    press(app, pygame.K_v)
    scene = app.overlay
    first = scene.order[0]
    was = first in scene.chosen
    press(app, pygame.K_1)
    assert (first in scene.chosen) != was
    index = scene.speed.index
    press(app, pygame.K_LEFT)
    assert scene.speed.index == index - 1
    press(app, pygame.K_RIGHT)
    assert scene.speed.index == index
    press(app, pygame.K_l)                                    # a solver of one's own: the file picker
    assert isinstance(app.overlay, FileScene)
    press(app, pygame.K_ESCAPE)                               # cancelled: back to the race
    assert app.overlay is scene
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_the_new_puzzle_dialog_chooses_size_and_difficulty_from_the_keyboard(app):
    press(app, pygame.K_n)
    scene = app.overlay
    scene.choose_size(SIZES[0])
    scene.choose_difficulty(DIFFICULTIES[0])
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)
    assert (scene.choice.size, scene.choice.difficulty) == (SIZES[1], DIFFICULTIES[2])
    assert [b.active for b in scene.size_buttons] == [size == SIZES[1] for size in SIZES]
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)                                 # stays at the smallest
    assert scene.choice.size == SIZES[0]
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_the_replay_jumps_and_exports_from_the_keyboard(app, tmp_path, capsys, monkeypatch):
    from tests.test_ui_replay import saved_run

    assert app.open_replay(saved_run(tmp_path, capsys))
    scene = app.overlay
    press(app, pygame.K_HOME)
    press(app, pygame.K_g)
    guess = scene.at
    assert scene.event()["kind"] == "guess"
    press(app, pygame.K_g)
    press(app, pygame.K_g, pygame.KMOD_SHIFT)
    assert scene.at == guess
    press(app, pygame.K_s)
    assert scene.board() == scene.run.solution
    exported = []
    monkeypatch.setattr(scene, "export_gif", lambda: exported.append(True))
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    assert exported == [True]


# ----- colour is never the only sign; legible contrast --------------------------------------

def wcag(a, b):
    """The WCAG 2 contrast ratio, written out here apart from the theme's own."""
    def lum(colour):
        linear = [v / 255 / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# (text colour, background) as the views draw them
TEXT_PAIRS = [("text", "background"), ("text", "panel"), ("text", "button"), ("text", "button_hover"),
              ("text", "unknown"), ("button_text", "button"), ("button_text", "button_hover"),
              ("muted", "panel"), ("muted", "background"), ("muted", "unknown"),
              ("error", "panel"), ("error", "unknown"), ("solved", "panel"), ("met", "panel"), ("met", "background")]
# glyphs, outlines and the greyed tally of a complete line (3:1)
GLYPH_PAIRS = [("complete", "background"), ("cursor", "unknown"), ("cursor", "panel"), ("guess", "unknown"),
               ("forced", "unknown"), ("backtrack", "unknown"), ("best_fleet", "unknown"), ("water_glyph", "water"),
               ("error", "background"), ("ship", "unknown"), ("hint_ship", "unknown")]
THEMES = [(name, palette) for name in ("light", "dark") for palette in ("standard", "colourblind")]


@pytest.mark.parametrize("name, palette", THEMES)
def test_the_themes_text_and_glyphs_are_legible(name, palette):
    from window.theme import make_theme

    theme = make_theme(name, palette)
    poor = [(a, b, round(wcag(getattr(theme, a), getattr(theme, b)), 2)) for a, b in TEXT_PAIRS
            if wcag(getattr(theme, a), getattr(theme, b)) < 4.5]
    poor += [(a, b, round(wcag(getattr(theme, a), getattr(theme, b)), 2)) for a, b in GLYPH_PAIRS
             if wcag(getattr(theme, a), getattr(theme, b)) < 3.0]
    poor += [(f"trial {k}", "unknown") for k, colour in enumerate(theme.trials, 1) if wcag(colour, theme.unknown) < 3.0]
    # Text on a coloured fill: a trial's chip and number, an active button, the banner, a mark.
    fills = [*theme.trials, theme.solved, theme.error, theme.button_active, theme.ship, theme.forced, theme.guess]
    poor += [("on", fill) for fill in fills if wcag(theme.on(fill), fill) < 4.5]
    assert poor == []


def test_a_wrong_mark_has_a_glyph_as_well_as_its_outline(app, monkeypatch):
    from tests.conftest import watch_text

    press(app, pygame.K_RIGHT)                                # the cursor on (0, 0)
    session = app.play.session
    r, c = next((r, c) for r in range(session.puzzle.rows) for c in range(session.puzzle.cols)
                if (r, c) not in session.puzzle.hints and session.puzzle.col_tallies[c] == 0)
    session.set_cell(r, c, Cell.SHIP)                         # a ship in a column that has none
    assert (r, c) in session.report.wrong_cells
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    cell = app.play.layout.cell_rect(r, c)
    assert [text for text, rect in drawn if text == "!" and cell.contains(rect)] == ["!"]
    cursor = app.play.layout.cell_rect(*app.play.board_input.cursor)
    assert [text for text, rect in drawn if text == "!" and cursor.contains(rect)] == [] or cursor == cell


@pytest.mark.parametrize("cell", [40, 8])
def test_a_guess_and_a_deduction_have_glyphs_on_a_mini_board(app, cell):
    """At every cell size a race lane draws, down to the smallest that shows a glyph (a 60x60
    board in a lane of a four-lane race); a small cell's corner is in black or white."""
    from window.board_view import SMALLEST_MARKED
    from window.mini_board import MiniBoard

    theme = app.theme
    assert cell >= SMALLEST_MARKED
    corner_ink = theme.guess if cell >= 14 else theme.on(theme.guess)
    grid = ((Cell.SHIP,) * 3, (Cell.UNKNOWN,) * 3, (Cell.SHIP, Cell.SHIP, Cell.UNKNOWN))
    ink = theme.on(theme.forced)
    # A deduction's square sits in the middle of its cell, inside the piece whatever its shape:
    # a ship's middle (0, 1) and its rounded end (0, 2).
    middles = [pygame.Rect(c * cell, 0, cell, cell).center for c in (1, 2)]
    for colours in ({(0, 0): theme.guess, (0, 1): theme.forced, (0, 2): theme.forced}, {}):
        surface = pygame.Surface((4 * cell, 4 * cell))
        MiniBoard().draw(surface, theme, (0, 0), cell, grid, {}, None, colours)
        corner = {tuple(surface.get_at((x, y)))[:3] for x in range(1, 1 + cell // 5) for y in range(1, 1 + cell // 5)}
        assert (corner_ink in corner) == bool(colours)           # the guess's corner
        for middle in middles:                                   # the deduction's square
            assert (tuple(surface.get_at(middle))[:3] == ink) == bool(colours)


def test_the_editor_marks_an_impossible_tally_with_a_glyph(app, monkeypatch):
    from tests.conftest import watch_text

    app.open_editor(blank=True)
    scene = app.overlay
    scene.set_mode(Mode.TRANSCRIBE)
    scene.focus = ("row", 0)
    for char in "99":
        press(app, ord(char), unicode=char)
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    tally = scene.cell_rect(0, scene.draft.cols)
    assert "!" in [text for text, rect in drawn if tally.contains(rect)]


def test_the_daily_calendar_ticks_a_solved_day(app):
    today = datetime.date.today()
    assert app.storage.mark_daily(today.isoformat(), 60.0)
    press(app, pygame.K_d)
    scene = app.overlay
    app.full_redraw = True
    app.draw()
    for day, solved in ((today, True), (next(d for d in scene.cells if d != today), False)):
        rect = scene.cells[day]
        tick = pygame.Rect(rect.right - 20, rect.y + 6, 13, 10)
        inked = {tuple(app.screen.get_at((x, y)))[:3] for x in range(tick.left, tick.right + 1)
                 for y in range(tick.top, tick.bottom + 1)}
        assert (app.theme.on(app.theme.solved) in inked if solved else len(inked) == 1), day


@pytest.mark.parametrize("size", [(640, 480), (800, 600)])
def test_a_solved_day_s_tick_stays_clear_of_its_time_in_a_short_calendar(app, monkeypatch, size):
    today = datetime.date.today()
    assert app.storage.mark_daily(today.isoformat(), 12.0)
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    press(app, pygame.K_d)
    scene = app.overlay
    drawn = watch_text(monkeypatch)
    ticks = []
    lines = pygame.draw.lines
    monkeypatch.setattr(pygame.draw, "lines", lambda surface, colour, closed, points, width=1:
                        ticks.append(pygame.Rect(points[0], (0, 0)).unionall([pygame.Rect(p, (1, 1)) for p in points]))
                        or lines(surface, colour, closed, points, width))
    scene.draw(app.screen)
    day = scene.cells[today]
    time = next(rect for text, rect in drawn if text == "0:12")
    assert day.contains(time)
    assert [tick for tick in ticks if day.contains(tick)]             # the tick is there
    assert not [tick for tick in ticks if tick.inflate(2, 2).colliderect(time)]


def test_the_editor_is_used_from_the_keyboard(app):
    press(app, pygame.K_e, pygame.KMOD_SHIFT)                 # a blank board
    scene = app.overlay
    assert scene.draft.mode is Mode.DESIGN
    press(app, pygame.K_DOWN)                                 # the cursor appears on (0, 0)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_SPACE)                                # paint a ship at (0, 1)
    assert scene.cursor == (0, 1) and scene.draft.layout[0][1] == Cell.SHIP
    press(app, pygame.K_SPACE, pygame.KMOD_SHIFT)             # as a right click: given
    assert (0, 1) in scene.draft.hints
    rows = scene.draft.rows
    press(app, pygame.K_DOWN, pygame.KMOD_SHIFT)
    assert scene.draft.rows == rows + 1
    press(app, pygame.K_n)
    for char in "Ab":
        press(app, ord(char.lower()), unicode=char)
    assert scene.draft.name.endswith("Ab")
    press(app, pygame.K_ESCAPE)                               # leaves the field, not the editor
    assert scene.focus is None and app.overlay is scene
    press(app, pygame.K_t)
    assert scene.draft.mode is Mode.TRANSCRIBE
    press(app, pygame.K_TAB)                                  # the cursor's row tally
    press(app, pygame.K_BACKSPACE)
    press(app, pygame.K_3, unicode="3")
    assert scene.draft.typed_rows[0] == 3
    press(app, pygame.K_2)
    press(app, pygame.K_DOWN)                                 # out of the tally, onto the board
    press(app, pygame.K_2)                                    # a ship of length 2
    press(app, pygame.K_2)
    press(app, pygame.K_2, pygame.KMOD_SHIFT)                 # one fewer
    assert dict(scene.draft.typed_fleet).get(2) == 1
    assert "Tab: a tally" in scene.key_help
    press(app, pygame.K_ESCAPE)
    assert app.overlay is None


def test_a_key_in_a_long_list_reads_only_the_rows_it_moves_over():
    """The replay's steps are rows made as they are read (a file read each): a key reads the
    rows from where the keyboard is to where it goes, never the whole list."""
    from collections.abc import Sequence

    from window.list_view import ListView, Row

    class Counted(Sequence):
        def __init__(self, n):
            self.n, self.reads = n, 0

        def __len__(self):
            return self.n

        def __getitem__(self, k):
            if not 0 <= k < self.n:
                raise IndexError(k)
            self.reads += 1
            return Row(f"step {k}", None if k % 3 == 2 else k)      # every third row is a heading

    rows = Counted(100_000)
    view = ListView([])
    view.rows = rows
    view.rect = pygame.Rect(0, 0, 300, 10 * 30)
    view.select(49_998)
    for key, expected in ((pygame.K_DOWN, 49_999), (pygame.K_DOWN, 50_001), (pygame.K_UP, 49_999),
                          (pygame.K_PAGEDOWN, 50_013)):
        rows.reads = 0
        assert view.key(pygame.event.Event(pygame.KEYDOWN, key=key)) == (True, None)
        assert view.selected == expected
        assert rows.reads < 100, rows.reads
    assert view.key(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN)) == (True, 50_013)


# ----- select all in the text fields ---------------------------------------------------------------


def select_all(app):
    press(app, pygame.K_a, pygame.KMOD_CTRL, "\x01")


def type_keys(app, text):
    for char in text:
        press(app, ord(char), 0, char)


def test_ctrl_a_selects_the_path_in_the_open_dialog_typing_replaces_it_backspace_clears_it(app):
    app.last_folder = DEFAULT_LEVEL.parent
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    scene = app.overlay
    select_all(app)
    assert scene.selected and scene.typed.endswith("tutorial" + os.sep)
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=str(DEFAULT_LEVEL)[:3]))
    app.pump()
    assert (scene.typed, scene.selected) == (str(DEFAULT_LEVEL)[:3], False)
    select_all(app)
    press(app, pygame.K_BACKSPACE)
    assert scene.typed == ""
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="ab"))
    app.pump()
    select_all(app)
    press(app, pygame.K_LEFT)                                # the selection given up: typing goes on
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="c"))
    app.pump()
    assert scene.typed == "abc"


def test_ctrl_a_selects_the_code_typed_in_the_share_dialog(app):
    app.open_share()
    scene = app.overlay
    type_keys(app, "abc")
    select_all(app)
    assert scene.selected
    app.full_redraw = True
    app.pump()
    mark = (scene.paste_field.x + 5, scene.paste_field.centery)           # left of the text
    assert tuple(app.screen.get_at(mark))[:3] == app.theme.button_active    # drawn selected
    type_keys(app, "x")
    assert (scene.typed, scene.selected) == ("x", False)
    select_all(app)
    press(app, pygame.K_BACKSPACE)
    assert scene.typed == ""


def test_ctrl_a_selects_the_new_puzzle_seed_and_the_editor_s_name(app):
    press(app, pygame.K_n)
    scene = app.overlay
    type_keys(app, "12")
    select_all(app)
    type_keys(app, "5")
    assert (scene.choice.seed, scene.choice.random_seed) == ("5", False)
    select_all(app)
    press(app, pygame.K_BACKSPACE)
    assert scene.choice.seed == ""
    press(app, pygame.K_ESCAPE)
    app.open_editor()
    editor = app.overlay
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=editor.text_rects["name"].center, button=1))
    app.pump()
    assert editor.focus == "name" and editor.draft.name
    select_all(app)
    type_keys(app, "Reef")
    assert editor.draft.name == "Reef"
    select_all(app)
    press(app, pygame.K_BACKSPACE)
    assert editor.draft.name == ""
