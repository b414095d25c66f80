"""What the window draws stays readable: no label drawn over another, over a control or out of
its box, no glyph run into the next, no mark over a number (watched by wrapping the drawing calls)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.puzzle import Cell  # noqa: E402
from tests.conftest import watch_text  # noqa: E402
from tests.test_ui_play import press  # noqa: E402
from tests.test_ui_replay import saved_run  # noqa: E402
from tests.test_ui_trials import ship_click  # noqa: E402
from window import fonts  # noqa: E402
from window.list_view import ListView, Row  # noqa: E402
from window.panel_views import deepest  # noqa: E402
from window.solver_watch import Guess  # noqa: E402


def redraw(app) -> None:
    app.full_redraw = True
    app.draw()


def ink(image: pygame.Surface, at: tuple[int, int]) -> set[tuple[int, int]]:
    """The fully inked pixels of a rendered label placed with its top left at ``at``."""
    return {(at[0] + x, at[1] + y) for x in range(image.get_width()) for y in range(image.get_height())
            if image.get_at((x, y)).a == 255}


def test_a_trial_s_number_stays_readable_on_a_cell_outlined_for_a_broken_rule(app, monkeypatch):
    press(app, pygame.K_g)
    ship_click(app, 2, 1)                   # beside the given top piece at row 3: a rule broken
    press(app, pygame.K_g)
    ship_click(app, 3, 2)                   # touches the first diagonally: outlined too
    session, theme, layout = app.play.board.session, app.theme, app.play.layout
    assert session.layer_depths() == {(2, 1): 1, (3, 2): 2}
    assert {(2, 1), (3, 2)} <= session.report.wrong_cells
    drawn = watch_text(monkeypatch)
    redraw(app)
    outline = max(2, layout.cell // 14)
    for (r, c), trial in session.layer_depths().items():
        cell = layout.cell_rect(r, c)
        (rect,) = [rect for content, rect in drawn if content == str(trial) and cell.contains(rect)]
        assert cell.inflate(-2 * (1 + outline), -2 * (1 + outline)).contains(rect)     # inside the red outline
        colour = theme.trial_colour(trial)
        shade = theme.on(colour)                # black or white on a patch of the trial's colour
        image = fonts.text(str(trial), max(10, layout.cell // 4), shade, bold=True)
        digit = ink(image, rect.topleft)
        assert digit and all(tuple(app.screen.get_at(p))[:3] == shade for p in digit)    # nothing over it
        around = {(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)} - digit
        assert all(tuple(app.screen.get_at(p))[:3] not in (shade, theme.error) for p in around)   # it stands out
        assert tuple(app.screen.get_at((rect.right, rect.top)))[:3] == colour                      # on its colour


def test_the_depth_plot_s_captions_are_drawn_in_a_size_whose_glyphs_do_not_run_together(app, monkeypatch, tmp_path,
                                                                                         capsys):
    assert app.open_replay(saved_run(tmp_path, capsys))
    drawn = watch_text(monkeypatch)
    redraw(app)
    caption = next(content for content, _ in drawn if content.startswith("search depth (max "))
    sizes = {size for size in range(8, 30) if fonts.font(size).size(caption) == next(
        rect.size for content, rect in drawn if content == caption)}
    assert sizes and min(sizes) >= fonts.SMALLEST
    # At fonts.SMALLEST a digit and the ")" after it share no pixel (at 13 they did).
    face = fonts.font(fonts.SMALLEST)
    for left in "0123456789":
        pair, alone = face.render(left + ")", True, (0, 0, 0)), face.render(left, True, (0, 0, 0))
        bracket = face.render(")", True, (0, 0, 0))
        shift = pair.get_width() - bracket.get_width()
        assert not ink(alone, (0, 0)) & ink(bracket, (shift, 0))


def test_the_replay_s_cursor_line_leaves_the_depth_plot_s_caption_clear(app, monkeypatch, tmp_path, capsys):
    assert app.open_replay(saved_run(tmp_path, capsys))
    scene = app.overlay
    drawn, lines = watch_text(monkeypatch), []
    line = pygame.draw.line

    def watched_line(surface, colour, start, end, *args):
        lines.append((tuple(colour)[:3], start, end))
        return line(surface, colour, start, end, *args)

    monkeypatch.setattr(pygame.draw, "line", watched_line)
    caption = None
    for at in (0, scene.run.events // 50, scene.run.events):
        scene.goto(at)
        lines.clear()
        redraw(app)
        if caption is None:       # drawn once on the plot's own picture, which is then copied
            caption = next(rect for content, rect in drawn if content.startswith("search depth (max "))
            caption = caption.move(scene.plot.topleft)
        cursors = [(start, end) for colour, start, end in lines if colour == app.theme.cursor[:3]
                   and start[0] == end[0] and scene.plot.inflate(2, 0).collidepoint(start)]
        assert cursors
        assert not any(caption.clipline(start, end) for start, end in cursors)


def test_a_list_row_without_a_note_uses_the_list_s_width(app, monkeypatch):
    long = "forced: row 3 has its 4 ship cells, the rest of the row is water " * 3
    view = ListView([Row(long, 1), Row(long, 2, note="a note")])
    view.rect = pygame.Rect(20, 20, 900, 100)
    drawn = watch_text(monkeypatch)
    view.draw(app.screen, app.theme)
    plain, noted = [rect for content, rect in drawn if content.startswith("forced")]
    note = next(rect for content, rect in drawn if content == "a note")
    assert plain.right >= view.rect.right - 30             # the whole row, bar its margin
    assert noted.right < note.left and note.right <= view.rect.right


@pytest.mark.parametrize("room", [0, 1, 3, 9, 12])
def test_the_guesses_left_out_are_said_to_be_the_shallower_ones(room):
    guesses = [Guess(((0, depth),), Cell.SHIP, depth) for depth in range(1, 10)]
    shown, left_out = deepest(guesses, room)
    if room >= len(guesses):
        assert (list(shown), left_out) == (guesses, "")
    elif room == 0:
        assert (list(shown), left_out) == ([], "")
    elif room == 1:                                        # one row: the deepest, not a line that lists none
        assert ([g.depth for g in shown], left_out) == ([9], "")
    else:
        assert [g.depth for g in shown] == list(range(11 - room, 10))    # the deepest, and a row that says so
        hidden = [g for g in guesses if g not in shown]
        assert left_out == f"... {len(hidden)} shallower"


def test_the_solver_panel_says_the_guesses_it_leaves_out_are_the_shallower_ones(app, monkeypatch):
    from types import SimpleNamespace

    panel = app.play.solver
    guesses = [Guess(((0, depth % 6),), Cell.SHIP, depth) for depth in range(1, 10)]
    drawn = watch_text(monkeypatch)
    panel.watch = SimpleNamespace(guesses=guesses, name="backtracking")
    try:
        panel._draw_guesses(app.screen, app.theme, pygame.Rect(10, 10, 300, 22 + 4 * 18))
    finally:
        panel.watch = None
    texts = [content for content, _ in drawn]
    assert "... 6 shallower" in texts
    assert [t.split(".")[0].strip() for t in texts if t[:2].strip().isdigit()] == ["7", "8", "9"]


@pytest.mark.parametrize("size", [(1000, 614), (640, 480)])
def test_a_finished_race_s_table_leaves_every_lane_and_the_genetic_lane_s_plot_in_sight(size, tmp_path, monkeypatch):
    from tests.conftest import ROOT
    from tests.test_ui_race import run_to_end
    from window.app import App
    from window.scenes import race

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    app = App(window=size)
    try:
        assert app.open_level(ROOT / "levels/10x10/expert/01.bs")
        app.open_race(["backtracking", "forward", "genetic", "logic"])
        scene = app.overlay
        scene.start()
        run_to_end(app, scene, seconds=60.0)
        plots, legend, draw_plot = [], [], scene._draw_plot

        def watched_plot(surface, lane, area):
            plots.append((lane, area))
            before = len(drawn)
            draw_plot(surface, lane, area)
            legend.extend(drawn[before:])                     # the plot's own legend and scale

        monkeypatch.setattr(scene, "_draw_plot", watched_plot)
        drawn = watch_text(monkeypatch, only=app.screen)      # (a mini board draws its tallies apart)
        redraw(app)
        table = scene.table_box()
        assert any(content == "rank" and table.contains(rect) for content, rect in drawn)
        assert len(scene.lane_rects) == 4 and not any(lane.colliderect(table) for lane in scene.lane_rects)
        genetic = [lane for lane in scene.lanes if lane.generations]
        assert len(genetic) == 1 and [lane for lane, _ in plots] == genetic
        (lane, plot), = plots
        home = scene.lane_rects[scene.lanes.index(lane)]
        assert home.contains(plot) and plot.height >= race.PLOT_LEAST and not plot.colliderect(table)
        for home in scene.lane_rects:          # the figures stay in their lane, clear of the plot
            inside = [rect for content, rect in drawn if rect.colliderect(home) and (content, rect) not in legend]
            assert inside and all(home.contains(rect) and not rect.colliderect(plot) for rect in inside)
        assert legend and all(plot.contains(rect) for _, rect in legend)
    finally:
        app.shutdown()


def overlaps(rects: list) -> list:
    return [(a, b) for n, (a, r) in enumerate(rects) for b, q in rects[n + 1:] if r.colliderect(q)]


@pytest.mark.parametrize("size", [(900, 615), (640, 480), (1200, 820)])
@pytest.mark.parametrize("level", ["levels/tutorial/first.bs", "levels/10x10/expert/01.bs"])
def test_the_editor_s_panel_draws_nothing_over_anything_else_when_transcribing(size, level, tmp_path, monkeypatch):
    from game.editor import Mode
    from tests.conftest import ROOT
    from tests.test_ui_editor import wait_for_verdict
    from window.app import App
    from window.scenes import editor

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    app = App(window=size)
    try:
        assert app.open_level(ROOT / level)
        app.open_editor()
        scene = app.overlay
        scene.set_mode(Mode.TRANSCRIBE)
        assert wait_for_verdict(app, scene) is not None
        scene.status = "a status line as long as the panel is wide, and then some more words"
        lines, _ = scene.verdict_lines()
        assert len(lines) >= 2
        drawn, pieces = watch_text(monkeypatch, only=app.screen), []
        draw_piece = editor.draw_piece
        monkeypatch.setattr(editor, "draw_piece", lambda surface, rect, *args: (pieces.append(("ship", rect)),
                                                                               draw_piece(surface, rect, *args)))
        redraw(app)
        panel, buttons = scene.panel, scene._visible_buttons()
        assert pieces and all(panel.contains(rect) for _, rect in pieces)
        inside = [(content, rect) for content, rect in drawn if rect.colliderect(panel)]
        assert [line for line in lines[:3] if not any(content.startswith(line[:12]) for content, _ in inside)] == []
        assert [content for content, rect in inside if not panel.contains(rect)] == []
        labels = [(content, rect) for content, rect in inside
                  if not any(button.rect.contains(rect) for button in buttons)]
        assert overlaps(labels) == []
        assert [(content, rect) for content, rect in labels if rect.collidelist([r for _, r in pieces]) >= 0] == []
        assert [(content, b.label) for content, rect in labels for b in buttons if rect.colliderect(b.rect)] == []
        assert overlaps([(b.label, b.rect) for b in buttons]) == []
        assert all(panel.contains(b.rect) for b in buttons)
        rows, lengths = scene.fleet_rows(), scene.fleet_lengths()
        assert len(lengths) == min(10, max(scene.draft.rows, scene.draft.cols))
        if len(rows) < len(lengths):           # the list scrolls: the wheel brings the shortest ships in sight
            for _ in range(len(lengths)):
                pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
            app.pump()
            assert scene.fleet_rows()[-1][0] == 1 and scene.fleet_buttons[(1, 1)] in scene._visible_buttons()
            assert scene.fleet_buttons[(lengths[0], 1)] not in scene._visible_buttons()
        else:                                  # all ten lengths in sight from 615 pixels up, all six always
            assert size[1] >= 615 or len(lengths) == 6
    finally:
        app.shutdown()


def test_no_cell_divider_crosses_a_fleet_silhouette_s_tick_or_mark(app):
    from game.session import FleetLine
    from window.panel_views import draw_fleet

    theme = app.theme
    surface = pygame.Surface((340, 140))
    surface.fill(theme.panel)
    lines = (FleetLine(4, 1, 1), FleetLine(3, 2, 2), FleetLine(2, 2, 3), FleetLine(1, 3, 3))
    placed = draw_fleet(surface, pygame.Rect(5, 5, 330, 130), lines, theme)
    marked = [(length, rect) for length, _, rect, state in placed if state in ("done", "extra") and length > 1]
    assert {length for length, _ in marked} == {2, 3, 4}
    for length, rect in marked:
        # The glyph's span: the tick's box (as wide as the silhouette is high) around the middle.
        span = range(rect.centerx - rect.height // 2, rect.centerx + rect.height // 2 + 1)
        columns = {x: {tuple(surface.get_at((x, y)))[:3] for y in range(rect.y + 3, rect.bottom - 4)} for x in span}
        assert not [x for x, seen in columns.items() if seen == {theme.panel}], length   # no divider line there


def test_given_water_carries_a_dot_as_a_given_ship_piece_does():
    """Given water is told from the player's by shape, not by a thicker line alone."""
    from window.board_view import water_tile
    from window.theme import THEMES, make_theme

    for name in THEMES:
        theme = make_theme(name, "standard")
        for size in (12, 40, 64):
            dot = (size // 2, int(size * 0.77))
            given, own = water_tile(size, theme.water, theme.water_glyph, True), water_tile(
                size, theme.water, theme.water_glyph, False)
            assert tuple(given.get_at(dot))[:3] == theme.water_glyph
            assert tuple(own.get_at(dot))[:3] == theme.water


@pytest.mark.parametrize("height", [150, 92, 40, 20, 16, 12])
def test_the_fitness_plot_s_labels_leave_its_curves_clear(app, monkeypatch, height):
    from window.panel_views import PLOT_SHORTEST, draw_plot

    # The best fitness falls to its lowest at once and stays there: a line along the bottom.
    points = [(n, 12.0 if n == 0 else 3.0, 20.0 - n / 10) for n in range(60)]
    drawn, curves = watch_text(monkeypatch), pygame.Surface(app.screen.get_size())
    lines = pygame.draw.lines

    def watched_lines(surface, colour, closed, line, width=1):
        lines(curves, (255, 255, 255), closed, line, width)       # the curves' pixels, apart
        return lines(surface, colour, closed, line, width)

    monkeypatch.setattr(pygame.draw, "lines", watched_lines)
    area = pygame.Rect(40, 40, 300, height)
    draw_plot(app.screen, area, points, app.theme, more=False)
    inked = {(x, y) for x in range(area.left - 4, area.right + 4) for y in range(area.top - 4, area.bottom + 4)
             if curves.get_at((x, y))[0]}
    assert inked and all(area.collidepoint(p) for p in inked)
    labels = [rect for _, rect in drawn]
    assert not [rect for rect in labels if any(rect.collidepoint(p) for p in inked)]
    assert all(area.contains(rect) for rect in labels)
    assert height < PLOT_SHORTEST or any(content.startswith("3") for content, _ in drawn)   # the lowest shown


def test_the_solver_panel_says_an_explaining_solver_s_step_whole(app, monkeypatch):
    # Watched at 2 moves a second, the logic solver's "If row 3, column 2 were ship: ..." was
    # cut after some sixty characters, before its conclusion, above an empty panel.
    from solvers.engine import trace
    from tests.conftest import run_to_the_end

    assert app.open_level("levels/10x10/hard/01.bs")
    watch = run_to_the_end(app, "logic", 60)
    assert watch.solved
    run = trace.read_trace(watch.trace_path)
    longest = max((data.get("detail") or "" for _, data in trace.events(run)), key=len)
    watch.last_detail = longest                          # the step it shows, the longest of the run
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    assert f"last: {longest}" in " ".join(text for text, _ in drawn)


@pytest.mark.parametrize("cell, value", [(16, 1), (16, 4), (24, 7), (40, 12), (88, 1), (88, 14)])
def test_a_ticked_tally_s_number_keeps_clear_of_its_tick(monkeypatch, cell, value):
    # In a small window's cells the tick covered the number: a met "1" read as the tick alone.
    from game.session import TallyState
    from window import board_view
    from window.theme import make_theme

    surface = pygame.Surface((200, 200))
    rect = pygame.Rect(10, 10, cell, cell)
    for state in (TallyState.MET, TallyState.COMPLETE):
        drawn = watch_text(monkeypatch)
        board_view._draw_tally(surface, rect, value, state, make_theme())
        ((text, number),) = drawn
        assert text == str(value) and rect.contains(number)
        assert number.right <= board_view.tally_tick(rect).left + 1, (state, number, board_view.tally_tick(rect))
