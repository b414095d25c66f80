"""The status line's message whole (F, or a click on the status line): a long hint's reason is
cut on the status line at any window width, and read whole in a dialog."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from tests.conftest import resize  # noqa: E402
from tests.test_ui_play import click, colours_in, press  # noqa: E402
from window import fonts  # noqa: E402
from window.scenes.message import MessageScene  # noqa: E402

# The widest hint on the pack's hard levels (15x15 expert 03, its 42nd hint): 3,803 px at 18 px.
LONGEST = ("Hint: A ship placed whole at some places breaks a rule, so none lies there: the battleship in row 3, "
           "columns 3-6 (the 3 missing cruisers would have only 1 place); the battleship in row 3, columns 4-7 "
           "(the 3 missing cruisers would have only 1 place); the battleship in row 9, columns 10-13 (the 2 "
           "missing battleships would have only 1 place), and 15 more places. With those ruled out: if row 13, "
           "column 8 were ship: ships never touch, not even diagonally: the cells diagonal to (row 1, column 5), "
           "(row 1, column 6), (row 1, column 8), (row 3, column 13), (row 6, column 2), (row 7, column 2) and 10 "
           "more are water (and 9 more steps); then the 3 missing cruisers would have "
           "only 2 places. So it is water")


@pytest.mark.parametrize("size", [(1600, 1000), (1100, 720), (640, 480), (480, 360)])
def test_a_long_hint_cut_on_the_status_line_is_read_whole_with_f(app, size):
    resize(app, size)
    app.play.notify(LONGEST)
    app.pump()
    layout = app.play.layout
    width, lines = layout.status.width, layout.status_lines
    # Even with the whole width of each of its lines, the status line cannot hold it.
    cut = fonts.shrink_to_fit(LONGEST, 18, width)[0] if lines == 1 else fonts.fill(LONGEST, 18, [width] * lines)[-1]
    assert cut.endswith(fonts.ELLIPSIS)
    press(app, pygame.K_f)
    scene = app.overlay
    assert isinstance(scene, MessageScene)
    assert " ".join(scene.lines) == LONGEST                  # every word, in order
    window = pygame.Rect((0, 0), size)
    assert window.contains(scene.box)
    for line in scene.lines:
        assert fonts.font(scene.size).size(line)[0] <= scene.box.width - 40
    for theme in ("light", "dark"):
        assert app.theme.name == theme
        app.draw()
        assert app.theme.text in colours_in(app.screen, scene.box.inflate(-30, -100))
        assert app.theme.panel in colours_in(app.screen, scene.box.inflate(-30, -100))
        press(app, pygame.K_ESCAPE)
        assert app.overlay is None
        press(app, pygame.K_b)                               # the other theme, and the dialog again
        press(app, pygame.K_f)
    press(app, pygame.K_ESCAPE)


def test_a_click_on_the_status_line_opens_its_message_and_m_lists_f(app):
    app.play.notify(LONGEST)
    click(app, (app.play.layout.status.x + 40, app.play.layout.status.centery))
    assert isinstance(app.overlay, MessageScene) and app.overlay.message == LONGEST
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_m)
    rows = {row.label: row.note for row in app.overlay.list.rows}
    assert rows["Whole message"] == "F"


def test_a_message_longer_than_the_smallest_window_holds_is_cut_on_its_last_line_in_order(app):
    # The box holds as many lines as the window allows at the smallest size; the rest is cut
    # with an ellipsis on the last one, the words before it whole and in order.
    resize(app, (480, 360))
    message = " ".join([LONGEST, "levels/giants/" + "x" * 300 + ".bs"] * 3)
    scene = MessageScene(app, message)
    assert scene.size == fonts.SMALLEST
    assert (len(scene.lines) + 1) * (scene.size + 6) > 360 - 40 - 96 >= len(scene.lines) * (scene.size + 6)
    assert scene.lines[-1].endswith(fonts.ELLIPSIS)
    assert message.replace(" ", "").startswith("".join(scene.lines[:-1]).replace(" ", ""))
    assert scene.lines[-1].removesuffix(fonts.ELLIPSIS).replace(" ", "") in message.replace(" ", "")
    for line in scene.lines:
        assert fonts.font(scene.size).size(line)[0] <= scene.box.width - 40


@pytest.mark.parametrize("size", [(1600, 1000), (1100, 720), (800, 600), (640, 480), (480, 360)])
def test_a_message_cut_on_the_status_line_ends_in_a_cue_to_read_it_whole(app, monkeypatch, size):
    from tests.conftest import watch_text
    from window.play_view import MORE

    resize(app, size)
    status = app.play.layout.status
    drawn = watch_text(monkeypatch)
    for message, cut in ((LONGEST, True), ("Hint applied", False)):
        app.play.notify(message)
        drawn.clear()
        app.draw()
        cues = [rect for text, rect in drawn if text == MORE]
        if not cut:
            assert not cues
            continue
        # Once, inside the status line, after the message's cut line and clear of the clock.
        (cue,) = cues
        assert status.contains(cue)
        said = [rect for text, rect in drawn if text.endswith(fonts.ELLIPSIS) and status.contains(rect)]
        assert said and said[-1].right < cue.left and abs(said[-1].centery - cue.centery) <= 1
        clock = next(rect for text, rect in drawn if text.startswith("time "))
        assert not cue.colliderect(clock)


@pytest.mark.parametrize("opening", ["message", "stats"])
def test_each_read_only_dialog_closes_on_esc_enter_keypad_enter_and_its_close_button(app, opening):
    from window.scenes.stats import StatsScene

    def show():
        if opening == "message":
            app.play.notify(LONGEST)
            press(app, pygame.K_f)
        else:
            app.open_stats()
            app.pump()
        assert isinstance(app.overlay, MessageScene if opening == "message" else StatsScene)
        return app.overlay

    for key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
        show()
        press(app, key)
        assert app.overlay is None, pygame.key.name(key)
    scene = show()
    press(app, pygame.K_w)                       # a key of the play scene: the dialog keeps it
    assert app.overlay is scene
    click(app, scene.close_button.rect.center)
    assert app.overlay is None
