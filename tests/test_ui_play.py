"""The window, headless: real pygame events in, the session's model and pixels out."""

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.puzzle import Cell  # noqa: E402
from game.session import TallyState  # noqa: E402
from solvers.events import Progress, Reason, Result, SetCell, Status  # noqa: E402
from tests.conftest import ROOT, resize, wait_until, watch_text  # noqa: E402
from window import solver_panel  # noqa: E402
from window.app import DEFAULT_LEVEL, DEFAULT_WINDOW, App  # noqa: E402
from window.panel_views import fleet_placement  # noqa: E402


def cell_center(app, r, c):
    return app.play.layout.cell_rect(r, c).center


def click(app, pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.pump()


def drag(app, start, path):
    """Press at ``start``, move through ``path`` with the left button held, release at its end."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for pos in path:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=path[-1], button=1))
    app.pump()


def run_to_end(app, panel, seconds=5.0):
    """Press the solver panel's Run and pump the window until the run ends (at most ``seconds``)."""
    click(app, panel.run_button.rect.center)
    deadline = time.perf_counter() + seconds
    while panel.running and time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.001)               # as the window's clock waits: a loop that never does starves the worker


def press(app, key, mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    app.pump()


def colours_in(surface, rect):
    return {tuple(surface.get_at((x, y)))[:3] for x in range(rect.left, rect.right, 1)
            for y in range(rect.top, rect.bottom, 1)}


def test_clicks_cycle_and_hints_stay(app):
    click(app, cell_center(app, 3, 3))
    assert app.play.session.grid[3][3] == Cell.WATER
    click(app, cell_center(app, 3, 3))
    assert app.play.session.grid[3][3] == Cell.SHIP
    click(app, cell_center(app, 3, 3), button=3)
    assert app.play.session.grid[3][3] == Cell.WATER
    click(app, cell_center(app, 0, 4))                # the given submarine
    assert app.play.session.grid[0][4] == Cell.SHIP and "cannot" in app.play.status.message


class HeldKeys:
    """The keyboard's state as SDL reports it (``pygame.key.get_pressed``): the keys in ``down``."""

    def __init__(self, monkeypatch):
        self.down = set()
        monkeypatch.setattr(pygame.key, "get_pressed", lambda: self)
        monkeypatch.setattr(pygame.key, "get_mods", lambda: 0)

    def __getitem__(self, key):
        return key in self.down


def test_a_held_arrow_repeats_after_a_delay_and_a_held_h_asks_one_hint(app, monkeypatch):
    """No key repeated: holding Backspace in a path or a code took one character off, holding
    an arrow moved the cursor one cell. The moving and erasing keys repeat; H, G, R do not."""
    held = HeldKeys(monkeypatch)
    held.down.add(pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)                      # shows the cursor at the first cell
    assert app.play.board_input.cursor == (0, 0)
    app.pump(dt=0.3)
    assert app.play.board_input.cursor == (0, 0)    # not yet: a key pressed a moment is pressed once
    app.pump(dt=0.2)
    app.pump(dt=0.05)
    assert app.play.board_input.cursor == (0, 2)
    held.down.clear()
    app.pump(dt=1.0)
    assert app.play.board_input.cursor == (0, 2)
    held.down.add(pygame.K_h)
    press(app, pygame.K_h)
    for _ in range(5):
        app.pump(dt=1.0)
    assert app.play.coach.asked["hint"] == 1


def test_drag_paints_and_undoes_in_one_step(app):
    drag(app, cell_center(app, 4, 0), [cell_center(app, 4, c) for c in range(1, 6)])
    assert all(v == Cell.WATER for v in app.play.session.grid[4])
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert all(v == Cell.UNKNOWN for v in app.play.session.grid[4])
    press(app, pygame.K_y, pygame.KMOD_CTRL)
    assert all(v == Cell.WATER for v in app.play.session.grid[4])


def test_a_quick_drag_paints_every_cell_it_crosses_in_one_step(app):
    """The mouse reports a quick drag's positions far apart: the cells between them are painted too."""
    drag(app, cell_center(app, 4, 0), [cell_center(app, 4, 5)])
    assert all(v == Cell.WATER for v in app.play.session.grid[4])
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert all(v == Cell.UNKNOWN for v in app.play.session.grid[4])


def test_keyboard_cursor_marks_and_restart_is_undoable(app):
    press(app, pygame.K_DOWN)                      # first arrow shows the cursor at the top left
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_s)
    assert app.play.board_input.cursor == (0, 1) and app.play.session.grid[0][1] == Cell.SHIP
    press(app, pygame.K_DOWN)
    press(app, pygame.K_w)                         # (1, 1) is a given water: unchanged
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_w)
    assert app.play.session.grid[1][2] == Cell.WATER
    press(app, pygame.K_r)
    assert app.play.session.grid == app.play.session.start
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.play.session.grid[0][1] == Cell.SHIP and app.play.session.grid[1][2] == Cell.WATER


def test_tally_click_fills_met_line_and_tally_pixels_show_state(app):
    layout = app.play.layout
    met_rect = layout.row_tally_rect(1)            # tally 0: met from the start
    assert app.theme.met in colours_in(app.screen, met_rect)
    click(app, met_rect.center)
    assert all(v == Cell.WATER for v in app.play.session.grid[1])
    assert app.play.session.tally_states()[0][1] is TallyState.COMPLETE
    assert app.theme.complete in colours_in(app.screen, met_rect)
    # A ship in column 4 (tally 0) is provably wrong: red, with a glyph.
    click(app, cell_center(app, 3, 3))
    click(app, cell_center(app, 3, 3))
    col_rect = layout.col_tally_rect(3)
    assert app.play.session.tally_states()[1][3] is TallyState.ERROR
    assert app.theme.error in colours_in(app.screen, col_rect)
    assert app.theme.error not in colours_in(app.screen, layout.col_tally_rect(0))


def test_a_tally_click_that_fills_nothing_says_why(app):
    layout = app.play.layout
    click(app, layout.row_tally_rect(1).center)          # tally 0, met: filled with water
    click(app, layout.row_tally_rect(1).center)          # again: nothing left to fill
    assert app.play.status.message == "Row 2 is already complete: no unknown cell left to fill"
    click(app, layout.col_tally_rect(0).center)          # tally 3, the given ship only
    assert app.play.status.message == "Column 1's ship count is not met yet (1 of 3)"
    click(app, cell_center(app, 3, 3), button=3)          # a ship in column 4, whose tally is 0
    click(app, layout.col_tally_rect(3).center)
    assert app.play.status.message == "Column 4 has 1 ship cell, more than its count of 0"


def test_shapes_follow_neighbours(app):
    theme = app.theme
    session = app.play.session
    # A submarine of the player's: a circle once all four sides are water.
    for r, c in ((5, 0), (5, 2), (4, 1)):
        session.set_cell(r, c, Cell.WATER)
    session.set_cell(5, 1, Cell.SHIP)
    # Under the hinted top end at (2, 0): a ship cell, then water below it makes a bottom end.
    session.set_cell(3, 0, Cell.SHIP)
    session.set_cell(4, 0, Cell.WATER)
    app.draw()
    sub = app.play.layout.cell_rect(5, 1)
    pad = sub.width // 8
    assert tuple(app.screen.get_at(sub.center))[:3] == theme.ship
    assert tuple(app.screen.get_at((sub.x + pad + 2, sub.y + pad + 2)))[:3] == theme.unknown   # round corner
    end = app.play.layout.cell_rect(3, 0)
    assert tuple(app.screen.get_at((end.x + pad + 2, end.y + 2)))[:3] == theme.ship          # joins upwards
    assert tuple(app.screen.get_at((end.x + pad + 2, end.bottom - pad - 2)))[:3] == theme.unknown  # rounded


def test_a_solved_board_draws_its_ships_whole_beside_undecided_water(app):
    # Solved with only the ship cells marked: the cells left unknown are water by the rules, so
    # the cruiser's right end is rounded and the lone cell a submarine's circle.
    theme, session = app.theme, app.play.session
    for r, c in ((0, 0), (0, 1), (0, 2), (2, 2), (2, 5), (3, 0), (3, 2), (5, 1)):
        session.set_cell(r, c, Cell.SHIP)
    app.pump()
    app.draw()
    assert session.solved and session.grid[0][3] == Cell.UNKNOWN
    end = app.play.layout.cell_rect(0, 2)
    pad = end.width // 8
    assert tuple(app.screen.get_at((end.right - pad - 2, end.y + pad + 2)))[:3] == theme.unknown   # round corner
    sub = app.play.layout.cell_rect(5, 1)
    assert tuple(app.screen.get_at((sub.x + pad + 2, sub.centery)))[:3] == theme.ship             # a circle


def test_fleet_checklist_ticks_a_closed_ship(app):
    session = app.play.session
    for r, c in ((0, 3), (0, 5), (1, 4)):
        session.set_cell(r, c, Cell.WATER)
    app.draw()
    placed, _ = fleet_placement(app.play.view.fleet(), app.play.view.fleet_area(app.play.layout))
    subs = [(rect, state) for length, _, rect, state in placed if length == 1]
    assert [state for _, state in subs] == ["done", "open", "open"]
    done = colours_in(app.screen, subs[0][0])
    assert app.theme.ship in done and app.theme.on(app.theme.ship) in done     # the tick, legible on the ship
    assert app.theme.ship not in colours_in(app.screen, subs[1][0])


def test_a_board_solved_by_its_ships_alone_ticks_the_whole_fleet(app):
    for cell in [(0, 0), (0, 1), (0, 2), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)]:
        click(app, cell_center(app, *cell), button=3)     # the ships; every other cell left unknown
    assert app.play.session.solved
    placed, _ = fleet_placement(app.play.view.fleet(), app.play.view.fleet_area(app.play.layout))
    assert [state for *_, state in placed] == ["done"] * 6
    assert all(line.done for line in app.play.view.fleet())


def slow_solver(puzzle, cells=30, pause=0.01):
    """A stand-in solver: one move every ``pause`` seconds, with heartbeats."""
    def events():
        for i in range(cells):
            r, c = divmod(i, puzzle.cols)
            yield SetCell(r, c, Cell.WATER if (r, c) not in puzzle.hints else Cell.SHIP, Reason.FORCED, "test")
            yield Progress({"nodes": i})
            time.sleep(pause)
        yield Result(Status.STOPPED, None, {}, (), "done")
    return events


def test_run_is_stopped_and_reset_midway(app, monkeypatch):
    monkeypatch.setattr(solver_panel, "make_stream", lambda name, puzzle, options, seed: slow_solver(puzzle))
    panel = app.play.solver
    before = app.play.session.grid
    click(app, panel.run_button.rect.center)
    assert panel.running
    deadline = time.perf_counter() + 2
    while panel.watch.moves < 3 and time.perf_counter() < deadline:
        app.pump(1 / 60)
        time.sleep(0.01)
    assert 0 < panel.watch.moves < 30
    # The board shows the run's copy; the player's marks are untouched and edits are held back.
    assert app.play.view.shown().grid[0][0] == Cell.WATER and app.play.session.grid == before
    click(app, cell_center(app, 5, 5))
    assert app.play.session.grid == before and "Stop or Reset" in app.play.status.message
    started = time.perf_counter()
    click(app, panel.stop_button.rect.center)
    assert time.perf_counter() - started < 0.5
    assert panel.watch.finished and not panel.watch._run.running
    moves = panel.watch.moves
    app.pump()
    assert panel.watch.moves == moves                 # nothing arrives after a stop
    assert panel.keep_button.enabled
    click(app, panel.reset_button.rect.center)
    assert panel.watch is None and app.play.view.shown().grid == before
    # Reset in the middle of a second run is safe too.
    click(app, panel.run_button.rect.center)
    app.pump()
    watch = panel.watch
    click(app, panel.reset_button.rect.center)
    assert panel.watch is None and not watch._run.running


def test_a_run_without_a_solution_says_why_once_and_within_the_panel(app, monkeypatch):
    """The status of a run that found no solution: the verdict, then the solver's reason
    without its repeat of the verdict, cut short (bold) at the panel's edge."""
    reason = "column 3 could not reach its tally of 4, whatever the ships around it do"

    def impossible():
        yield Result(Status.NO_SOLUTION, None, {}, (), f"no solution: {reason}")
    monkeypatch.setattr(solver_panel, "make_stream", lambda name, puzzle, options, seed: impossible)
    panel = app.play.solver
    run_to_end(app, panel)
    assert panel.watch.status_text() == f"{panel.watch.name}: no solution exists - {reason}"
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    status = [rect for text, rect in drawn if text.startswith(f"{panel.watch.name}: no solution exists")]
    assert status and status[0].right <= panel.stats_area.right


def test_reset_after_a_run_says_the_player_s_marks_are_back(app):
    panel = app.play.solver
    run_to_end(app, panel)
    assert "Keep its board, or Reset" in app.play.status.message
    click(app, panel.reset_button.rect.center)
    assert not panel.showing
    assert app.play.status.message == "Solver reset: your own marks are back"


def test_a_genetic_run_done_in_one_generation_no_longer_waits_for_generations(app, monkeypatch):
    panel = app.play.solver
    panel.choose("genetic")
    panel.set_speed(0)
    run_to_end(app, panel, seconds=20)
    assert panel.watch.solved and len(panel.watch.generations) == 1
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    notes = [text for text, _ in drawn if text.startswith("fitness plot")]
    assert notes == ["fitness plot: one generation, no curve"]


def test_pause_step_and_keep_the_solver_board(app, monkeypatch):
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=6, pause=0))
    panel = app.play.solver
    click(app, panel.step_button.rect.center)      # starts paused, one move
    deadline = time.perf_counter() + 10
    while panel.watch.moves < 1 and time.perf_counter() < deadline:
        app.pump()
    assert panel.watch.moves == 1 and panel.watch.paused
    app.pump()
    assert panel.watch.moves == 1
    click(app, panel.run_button.rect.center)       # resume
    panel.set_speed(0)
    deadline = time.perf_counter() + 10               # the run's end, not only its moves, must arrive
    while panel.running and time.perf_counter() < deadline:
        app.pump()
    assert panel.watch.moves == 6 and not panel.running
    click(app, panel.keep_button.rect.center)
    assert panel.watch is None and app.play.session.grid[0][:4] == (Cell.WATER,) * 4
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.play.session.grid[0][0] == Cell.UNKNOWN


def test_backtracking_s_counts_move_with_each_move_a_learner_steps_through(app, monkeypatch):
    """The backtracking said its nodes and backtracks only in a heartbeat every 256 nodes:
    watched move by move, the panel said "-" for them for the first hundreds of moves."""
    drawn = watch_text(monkeypatch)
    panel = app.play.solver
    panel.choose("backtracking")
    said = []
    for step in range(1, 7):
        click(app, panel.step_button.rect.center)
        assert wait_until(lambda step=step: panel.watch.moves >= step, between=app.pump)
        del drawn[:]
        app.full_redraw = True
        app.draw()
        texts = [text for text, _ in drawn]
        nodes = texts[texts.index("nodes") + 1]
        assert nodes != "-" and texts[texts.index("backtracks") + 1] != "-"
        said.append(int(nodes.replace(",", "")))
    assert panel.watch.paused and said == sorted(said) and said[0] < said[-1] < 256


@pytest.mark.parametrize("name, propagates", [("backtracking", False), ("forward", True)])
def test_the_panel_shows_no_propagated_row_for_a_solver_that_never_counts_it(app, monkeypatch, name, propagates):
    """The panel said "propagated -" for the whole of a backtracking run, which sets no cell
    by deduction and never counts one."""
    drawn = watch_text(monkeypatch)
    panel = app.play.solver
    panel.choose(name)
    click(app, panel.step_button.rect.center)
    assert wait_until(lambda: panel.watch.moves >= 1, between=app.pump)
    del drawn[:]
    app.full_redraw = True
    app.draw()
    texts = [text for text, _ in drawn]
    assert "nodes" in texts and ("propagated" in texts) is propagates and "-" not in texts


def test_counts_a_solver_says_in_words_are_shown_as_0_not_a_crash(app, monkeypatch):
    """A solver of one's own may say its nodes in words (a heartbeat's or a move's line): the
    panel's drawing raised ValueError on int("many")."""
    drawn = watch_text(monkeypatch)
    panel = app.play.solver
    panel.choose("forward")
    click(app, panel.step_button.rect.center)
    assert wait_until(lambda: panel.watch.moves >= 1, between=app.pump)
    panel.watch.tally.add(Progress({"nodes": "many", "backtracks": 2.5}))
    del drawn[:]
    app.full_redraw = True
    app.draw()
    texts = [text for text, _ in drawn]
    assert [texts[texts.index(key) + 1] for key in ("nodes", "backtracks")] == ["0", "2"]


def test_forward_s_counts_are_shown_from_its_first_move(app, monkeypatch):
    """The forward checking said its counts only in a heartbeat (every 256 nodes or 20 ms):
    stepped through, the panel said "-" for nodes, backtracks and propagated."""
    drawn = watch_text(monkeypatch)
    panel = app.play.solver
    panel.choose("forward")
    click(app, panel.step_button.rect.center)
    assert wait_until(lambda: panel.watch.moves >= 1, between=app.pump)
    app.full_redraw = True
    app.draw()
    texts = [text for text, _ in drawn]
    assert panel.watch.paused and [texts[texts.index(key) + 1] for key in ("nodes", "backtracks")] == ["0", "0"]
    assert int(texts[texts.index("propagated") + 1]) > 0


def test_moves_shown_by_step_are_not_counted_in_moves_per_second(app, monkeypatch):
    """Stepped through while paused, a run's clock stands still: its moves/s counted the
    stepped moves over almost no time (27 steps of the logic solver said 20,679 moves/s)."""
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=6, pause=0))
    panel = app.play.solver
    for _ in range(4):
        click(app, panel.step_button.rect.center)
        deadline = time.perf_counter() + 10
        while panel.watch.paused and panel.watch._steps and time.perf_counter() < deadline:
            app.pump()
        app.pump()
    watch = panel.watch
    assert watch.paused and watch.moves >= 3
    assert watch.moves_per_second == 0


def test_stepping_the_genetic_algorithm_never_shows_negative_moves_per_second(app):
    """A step of the genetic algorithm is a generation, which changes no cell: the steps
    were taken off its moves and its moves/s said -3,700."""
    assert app.open_level(ROOT / "levels/10x10/expert/01.bs")
    panel = app.play.solver
    panel.choose("genetic")
    deadline = time.perf_counter() + 10
    while (panel.watch is None or panel.watch.generation is None or panel.watch.generation.number < 3) \
            and time.perf_counter() < deadline:
        click(app, panel.step_button.rect.center)
        time.sleep(0.01)
    watch = panel.watch
    assert watch.paused and watch.generation.number >= 3 and watch.moves == 0
    assert watch.moves_per_second == 0


def test_a_step_pressed_before_the_solver_has_its_move_ready_is_not_lost(app, monkeypatch):
    """A step was used up by the next frame whether or not a move had arrived: while a
    solver prepared (a giant's tables, a generation of the genetic algorithm) Step did nothing."""
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=6, pause=0.2))
    panel = app.play.solver
    click(app, panel.step_button.rect.center)      # starts paused, one step
    click(app, panel.step_button.rect.center)
    click(app, panel.step_button.rect.center)
    deadline = time.perf_counter() + 5
    while panel.watch.moves < 3 and time.perf_counter() < deadline:
        app.pump(1 / 60)
        time.sleep(0.01)
    for _ in range(30):                            # and no more than the steps asked for
        app.pump(1 / 60)
        time.sleep(0.01)
    assert panel.watch.paused and panel.watch.moves == 3


def test_the_time_a_run_is_paused_is_not_its_elapsed_time(app, monkeypatch):
    """Elapsed and moves/s stand still while a run is paused (Pause, Step, or a race opened
    over it): the solver waits for the window then."""
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=6, pause=0))
    panel = app.play.solver
    click(app, panel.step_button.rect.center)      # starts paused
    before = panel.watch.elapsed
    time.sleep(0.5)
    click(app, panel.step_button.rect.center)
    assert panel.watch.elapsed - before < 0.25
    click(app, panel.run_button.rect.center)       # resume: the clock goes on from there
    time.sleep(0.1)
    assert 0.1 <= panel.watch.elapsed < 0.35
    assert panel.hold()
    time.sleep(0.5)
    click(app, panel.stop_button.rect.center)       # stopped while held: the pause stays out
    assert panel.watch.elapsed < 0.45


def test_the_slowest_speed_says_one_move_a_second(app, monkeypatch):
    panel = app.play.solver
    panel.set_speed(1)
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    assert [text for text, _ in drawn if text.startswith("Speed")] == ["Speed: 1 move/s"]


def test_a_solve_by_the_solvers_board_kept_is_not_the_players_record(app):
    """A level solved by keeping a solver's board records no time, no streak, no tick (the
    player saw the answer), also when the play is opened again."""
    panel = app.play.solver
    panel.set_speed(0)
    click(app, panel.run_button.rect.center)
    deadline = time.perf_counter() + 10
    while panel.running and time.perf_counter() < deadline:
        app.pump()
    click(app, panel.keep_button.rect.center)
    session, key = app.play.session, app.play.key
    assert session.solved and session.solver_helped
    assert "not recorded" in app.play.status.message
    assert not app.storage.is_solved(key) and app.storage.solved() == {}
    app.open_level(ROOT / "levels" / "6x6" / "easy" / "02.bs")
    app.open_level(DEFAULT_LEVEL)
    assert app.play.session.solver_helped and not app.storage.is_solved(key)
    assert "recorded" not in app.play.status.message


def test_the_play_clock_stops_while_the_board_shows_a_solver_s_run(app):
    """Watching a run is not playing: the player's marks are off the board, so their clock waits."""
    panel, session = app.play.solver, app.play.session
    panel.set_speed(0)
    run_to_end(app, panel)
    assert panel.showing
    before = session.elapsed
    app.play.update(5.0)
    assert session.elapsed == before
    panel.put_away()
    app.play.update(1.0)
    assert session.elapsed == before + 1.0


def test_a_solve_after_a_solver_showed_the_solution_is_not_the_players_record(app):
    """A run that reached the solution on the board showed it to the player: a solve after
    it, with the player's own marks back, records no time, no streak, no tick; also when the
    play is opened again."""
    panel, session, key = app.play.solver, app.play.session, app.play.key
    panel.set_speed(0)
    run_to_end(app, panel)
    assert panel.watch.solved
    solution = panel.watch.grid()
    panel.put_away()
    app.pump()
    assert session.solver_helped and session.asked == {"hint": 0, "check": 0, "solver": 0, "shown": 1}
    assert app.play.board.change(lambda s: s.replace_board(solution, "by hand"))
    assert session.solved
    assert "after a solver showed the solution: not recorded" in app.play.status.message
    assert not app.storage.is_solved(key) and app.storage.solved() == {}
    app.open_level(ROOT / "levels" / "6x6" / "easy" / "02.bs")
    app.open_level(DEFAULT_LEVEL)
    assert app.play.session.solver_helped and not app.storage.is_solved(key)


def test_a_run_stopped_before_the_solution_leaves_the_play_the_player_s(app):
    panel, session = app.play.solver, app.play.session
    panel.set_speed(1)
    click(app, panel.run_button.rect.center)
    app.pump()
    panel.stop()
    app.pump()
    assert not panel.watch.solved
    panel.put_away()
    app.pump()
    assert not session.solver_helped


def test_closing_during_a_run_exits_promptly(app, monkeypatch):
    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=36, pause=0.05))
    click(app, app.play.solver.run_button.rect.center)
    watch = app.play.solver.watch
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    started = time.perf_counter()
    code = app.run()
    assert code == 0 and time.perf_counter() - started < 1.0
    assert not watch._run.running


def test_progress_is_saved_and_restored(app):
    click(app, cell_center(app, 5, 5))
    app.shutdown()
    again = App(window=(900, 700))
    try:
        assert again.open_level(DEFAULT_LEVEL)
        assert again.play.session.grid[5][5] == Cell.WATER and again.play.session.can_undo
    finally:
        again.shutdown()


def test_bad_level_shows_error_and_keeps_game(app, tmp_path):
    click(app, cell_center(app, 5, 5))
    bad = tmp_path / "broken.bs"
    bad.write_text('{"size": 6, "board": {}, "row_numbers": [1]}')
    assert not app.open_level(bad)
    assert "broken.bs" in app.play.status.message and app.play.session.grid[5][5] == Cell.WATER


def test_dropping_a_file_opens_it(app, tmp_path):
    level = tmp_path / "dropped.bs"
    level.write_text('{"size": 6, "board": {"0,0": "ss"}, "row_numbers": [4,0,3,2,0,1],'
                     ' "col_numbers": [3,2,3,0,1,1]}')
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(level)))
    app.pump()
    assert app.play.path == level and app.play.puzzle.hints[(0, 0)].value == "sub"


def test_browser_lists_and_opens_levels(app, tmp_path):
    app.open_browser()
    app.pump()
    rows = app.overlay.list.rows
    index = next(i for i, row in enumerate(rows) if row.value == DEFAULT_LEVEL)
    first = app.play
    rect = app.overlay.list.rect
    click(app, (rect.x + 60, rect.y + index * 30 + 15))
    assert app.overlay is None and app.play is not first and app.play.path == DEFAULT_LEVEL


def test_file_dialog_opens_a_typed_path(app, tmp_path):
    level = tmp_path / "typed.bs"
    level.write_text(DEFAULT_LEVEL.read_text())
    app.open_files()
    app.overlay.typed = str(level)
    press(app, pygame.K_RETURN)
    assert app.overlay is None and app.play.path == level


def test_file_dialog_lists_folders_first_then_levels_and_skips_hidden_and_broken_links(app, tmp_path):
    (tmp_path / "b-folder").mkdir()
    (tmp_path / "A-folder").mkdir()
    (tmp_path / ".hidden").mkdir()
    for name in ("z.bs", "a.TXT", "notes.md", ".secret.bs"):
        (tmp_path / name).write_text("")
    (tmp_path / "loop.bs").symlink_to(tmp_path / "loop.bs")           # cannot be followed: not a folder
    (tmp_path / "to-folder").symlink_to(tmp_path / "A-folder")
    app.last_folder = tmp_path
    app.open_files()
    labels = [row.label for row in app.overlay.list.rows]
    assert labels == [".. (parent folder)", "A-folder/", "b-folder/", "to-folder/", "a.TXT", "loop.bs", "z.bs"]


def test_resize_scales_the_board(app):
    before = app.play.layout.cell
    for size in ((760, 520), (1600, 1000)):
        app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        app.pump()
        if size[0] < 1000:
            assert app.play.layout.cell < before
            assert app.play.layout.board.right < app.play.layout.panel.left
    assert app.play.layout.cell > before


@pytest.mark.parametrize("size", [(480, 1000), (640, 1000), (480, 800)])
def test_a_tall_narrow_window_puts_the_panel_below_the_board_for_larger_cells(app, size):
    """Beside the panel, a 480x1000 window gave the 6x6 board 26-pixel cells and left half its
    height to the panel's empty statistics; below the board, the panel leaves it 56."""
    resize(app, size)
    layout = app.play.layout
    board = layout.board.union(layout.row_tally_rect(0)).union(layout.col_tally_rect(0))
    assert layout.cell >= 40
    assert board.bottom < layout.panel.top and layout.panel.bottom < layout.status.top
    assert layout.toolbar.bottom < board.top and board.left >= 0 and board.right <= size[0]
    click(app, cell_center(app, 3, 3))
    assert app.play.session.grid[3][3] == Cell.WATER
    assert all(layout.panel.contains(widget.rect) for widget in app.play.solver.widgets if widget.rect.width)


def test_solving_by_hand_stops_the_clock_and_marks_the_level(app):
    ships = [(0, 0), (0, 1), (0, 2), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)]   # plus the given ones
    app.pump(dt=3.0)
    for cell in ships:
        click(app, cell_center(app, *cell), button=3)     # right click: unknown -> ship
    session = app.play.session
    assert session.solved and "Solved" in app.play.status.message
    assert app.storage.is_solved(app.play.key)
    assert app.theme.solved in colours_in(app.screen, app.play.layout.board.inflate(-200, -200))   # banner
    clock = session.elapsed
    app.pump(dt=5.0)
    assert session.elapsed == clock
    app.open_browser()
    row = next(row for row in app.overlay.list.rows if row.value == DEFAULT_LEVEL)
    assert row.ticked


def test_a_board_changed_after_its_solve_is_not_shown_solved_and_its_record_stays(app, monkeypatch):
    # After a solve the board may still be changed (as in the classic puzzle collections): the
    # status line said SOLVED and the banner stayed while the board no longer showed the
    # solution. The attempt's solve stays recorded once, its clock stopped; put back, the
    # board is shown solved again, celebrated and recorded no second time.
    ships = [(0, 0), (0, 1), (0, 2), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)]
    for cell in ships:
        click(app, cell_center(app, *cell), button=3)
    play, session = app.play, app.play.session
    record = dict(app.storage.solved()[play.key])
    assert play.board.celebrate_until and "Solved!" in play.message
    click(app, cell_center(app, 0, 0), button=3)          # ship -> water: no longer the solution
    assert session.solved and not session.solved_now
    assert not play.board.celebrate_until                 # the banner went with the solution
    drawn = watch_text(monkeypatch)
    app.full_redraw = app.dirty = True
    app.pump()
    texts = [text for text, _ in drawn]
    assert not any(text.startswith("SOLVED") for text in texts), texts
    assert any(text.startswith("solved, then changed") for text in texts), texts
    assert app.theme.solved not in colours_in(app.screen, play.layout.board.inflate(-200, -200))
    assert "Solved! " in play.message and play.message.endswith("The board has changed since (R: play again).")
    click(app, cell_center(app, 0, 0))                    # water -> ship: the solution again
    assert session.solved_now and not play.board.celebrate_until    # celebrated once
    drawn.clear()
    app.full_redraw = app.dirty = True
    app.pump()
    assert any(text.startswith("SOLVED") for text, _ in drawn)
    assert "changed since" not in play.message
    assert app.storage.solved()[play.key] == record        # recorded once


def test_a_solve_s_finish_comes_back_to_the_status_line_after_a_later_message(app, monkeypatch):
    # A later message ("Given cells cannot be changed", a hint's word) replaced the finish's
    # time and record for good; it now gives way to them after its time on the line.
    from window.play_view import MESSAGE_SECONDS

    for cell in [(0, 0), (0, 1), (0, 2), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)]:
        click(app, cell_center(app, *cell), button=3)
    play = app.play
    finish = play.message
    assert finish.startswith("Solved! ")
    press(app, pygame.K_h)
    assert play.message.startswith("The board is solved: no hint is needed")
    play.status.said_at -= MESSAGE_SECONDS                # the hint's word has had its time
    drawn = watch_text(monkeypatch)
    app.pump()                                            # redrawn without an event
    assert play.message == finish and any(text == finish for text, _ in drawn), [t for t, _ in drawn]


def test_the_play_clock_stops_while_a_dialog_or_view_is_over_the_play(app):
    session = app.play.session
    app.pump(dt=2.0)
    clock = session.elapsed
    assert clock >= 2.0
    app.open_browser()
    app.pump(dt=30.0)
    assert session.elapsed == clock
    app.close_overlay()
    app.pump(dt=2.0)
    assert session.elapsed >= clock + 2.0


def test_hint_shows_where_then_which_rule_then_applies(app):
    pytest.importorskip("solvers.logic")
    session = app.play.session

    def wait_for_answer():
        deadline = time.perf_counter() + 20
        while app.play.coach.hints.thinking and time.perf_counter() < deadline:
            app.pump()
            time.sleep(0.005)

    press(app, pygame.K_h)
    wait_for_answer()
    assert app.play.coach.hints.stage == 1 and app.play.view.picture().highlight
    press(app, pygame.K_h)
    assert app.play.status.message.startswith("Hint: ")
    before = session.grid
    press(app, pygame.K_h)
    assert session.grid != before and not rules_problems(session)
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.grid == before


def rules_problems(session):
    from game import rules

    return rules.provable_violations(session.puzzle, session.grid)


def test_only_changed_areas_are_sent_to_the_screen(app):
    app.draw()
    app.play.session.set_cell(4, 4, Cell.WATER)
    areas = app.play.draw(app.screen)
    board = app.play.layout.board
    on_board = [rect for rect in areas if rect.colliderect(board)]
    assert on_board and all(rect.width < board.width for rect in on_board)
    assert any(rect.collidepoint(cell_center(app, 4, 4)) for rect in on_board)
    assert not any(rect.collidepoint(cell_center(app, 0, 0)) for rect in on_board)


# (640x500: a window narrower than 1000 px gives the status line's message a second line, and at
# 480 px high the panel then has no room left for the idle words.)
@pytest.mark.parametrize("size", [(640, 500), (1000, 683), (1100, 720)])
def test_the_idle_panel_s_words_stay_inside_the_panel(app, monkeypatch, size):
    drawn = watch_text(monkeypatch)
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    panel = app.play.layout.panel
    inside = [content for content, rect in drawn if rect.colliderect(panel)]
    assert any(content.startswith("Run a solver") for content in inside)
    assert [(content, rect) for content, rect in drawn if rect.colliderect(panel) and not panel.contains(rect)] == []


@pytest.mark.parametrize("size", [(640, 480), (760, 520), (800, 600)])
@pytest.mark.parametrize("level", ["levels/10x10/easy/01.bs", "levels/15x15/easy/01.bs"])
def test_the_statistics_stay_inside_a_short_panel_idle_and_after_a_run(app, monkeypatch, size, level):
    # A larger fleet leaves the statistics less of the panel: they show what fits whole.
    drawn = watch_text(monkeypatch)
    assert app.open_level(ROOT / level)
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    panel = app.play.solver
    panel.set_speed(0)
    run_to_end(app, panel, seconds=30)
    assert panel.showing and not panel.running
    app.pump()
    box = app.play.layout.panel
    assert [(content, rect) for content, rect in drawn if rect.colliderect(box) and not box.contains(rect)] == []
    assert not any(rect.colliderect(app.play.layout.status) for content, rect in drawn
                   if content in ("forced", "guess", "backtracked", "tried", "Statistics"))


def test_the_window_system_is_told_the_smallest_size_the_window_lays_out_for(app):
    # Smaller than 480x360 the window shows the top left of that layout: its status line (the
    # clock, the message) and the panel's right side were off the window, and nothing stopped
    # a player from making it so. The window's minimum size says so to the window manager.
    import warnings

    from window.settings import MIN_WINDOW

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert pygame.Window.from_display_module().minimum_size == MIN_WINDOW


def test_the_solver_s_controls_a_short_panel_has_no_room_for_are_left_out_not_drawn_past_it(app):
    size = (480, 360)
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    panel, box = app.play.solver, app.play.layout.panel
    shown = [widget for widget in panel.widgets if widget.rect.width > 0]
    assert panel.choices[0] in shown and len(shown) < len(panel.widgets)   # Run too, before the message's lines
    assert all(box.contains(widget.rect) for widget in shown)
    left_out = [widget for widget in panel.widgets if widget.rect.width == 0 and widget is not panel.slider]
    click(app, (2, 2))                                   # a hidden control takes no click
    assert all(not widget.rect.collidepoint((2, 2)) for widget in left_out)
    listed = [action.button for action in app.play.solver_actions]
    labels = [button.label for button in listed]
    # M still lists them, with their keys: a solver's button left out is reached by Next solver (Tab)
    assert all(widget in listed for widget in left_out if widget not in panel.choices)
    assert "Next solver" in labels and "Load a solver..." in labels


@pytest.mark.parametrize("size", [(480, 360), (800, 600), (1600, 1000)])
def test_run_step_and_stop_are_on_the_panel_at_every_size(app, size):
    """At the smallest window the solvers' buttons took the panel's room and Run, Step and
    Stop were left out (M alone reached them); a taller panel keeps the solvers' buttons first."""
    resize(app, size)
    panel, box = app.play.solver, app.play.layout.panel
    controls = (panel.run_button, panel.step_button, panel.stop_button)
    assert all(widget.rect.width > 0 and box.contains(widget.rect) for widget in controls), size
    if size != (480, 360):
        assert all(button.rect.bottom < panel.run_button.rect.top for button in panel.choices)
    click(app, panel.run_button.rect.center)
    assert panel.running and panel.stop_button.enabled
    click(app, panel.stop_button.rect.center)
    assert not panel.running


def test_a_giant_s_fleet_leaves_the_solver_s_controls_on_the_panel(app):
    giant = ROOT / "docs/bench/giants/giant-60-1.bs"
    for level, per_ship in ((giant, False), (ROOT / "levels/10x10/hard/01.bs", True)):
        assert app.open_level(level)
        app.pump()
        view, panel = app.play.view, app.play.layout.panel
        fleet = view.fleet_area(app.play.layout)
        lines = app.play.board.session.report.fleet
        placed, height = fleet_placement(lines, fleet, fleet.height)
        ships = sum(line.wanted for line in lines)
        assert len(placed) == (ships if per_ship else len(lines))      # one per ship, or one per length
        assert all(panel.contains(rect) and rect.bottom <= fleet.y + height for *_, rect, _ in placed)
        solver = app.play.solver
        assert solver.area.top >= fleet.y + height
        assert all(panel.contains(button.rect) for button in (solver.run_button, solver.keep_button))


def test_a_giant_s_fleet_stays_on_the_panel_in_the_smallest_window(app, monkeypatch):
    # One row per length, 20 px each: a 60x60 giant's ten lengths ran past the panel's bottom
    # at 480x360, where the status line's message has its further lines.
    assert app.open_level(ROOT / "docs/bench/giants/giant-60-1.bs")
    resize(app, (480, 360))
    drawn = watch_text(monkeypatch)
    app.full_redraw = app.dirty = True
    app.pump()
    view, panel = app.play.view, app.play.layout.panel
    fleet = view.fleet_area(app.play.layout)
    lines = app.play.board.session.report.fleet
    placed, height = fleet_placement(lines, fleet, fleet.height)
    assert len(placed) == len(lines)
    assert all(panel.contains(rect) for *_, rect, _ in placed)
    labels = [rect for text, rect in drawn if "/" in text and rect.colliderect(panel)]
    assert len(labels) == len(lines) and all(panel.contains(rect) for rect in labels)
    assert not [(a, b) for n, a in enumerate(labels) for b in labels[n + 1:] if a.colliderect(b)]


@pytest.mark.parametrize("level", sorted((ROOT / "levels/giants").glob("*.bs")))
def test_a_giant_s_search_depth_plot_has_its_room_on_the_panel_at_the_default_size(app, level, monkeypatch):
    resize(app, DEFAULT_WINDOW)
    assert app.open_level(level)
    app.pump()
    plots, draw_depth = [], solver_panel.draw_depth
    monkeypatch.setattr(solver_panel, "draw_depth", lambda surface, area, *rest: (plots.append(area),
                                                                                  draw_depth(surface, area, *rest)))
    panel = app.play.solver
    panel.choose("backtracking")
    panel.set_speed(0)
    assert panel.start()
    deadline = time.perf_counter() + 30
    while panel.watch.depth.top == 0 and time.perf_counter() < deadline:    # a guess made
        app.pump()
        time.sleep(0.001)
    panel.stop()
    app.full_redraw = True
    app.draw()
    assert plots and app.play.layout.panel.contains(plots[-1])
    fleet = app.play.view.fleet_area(app.play.layout)
    assert fleet.y + fleet_placement(app.play.view.fleet(), fleet, fleet.height)[1] <= panel.area.top
    panel.reset()


@pytest.mark.parametrize("size", [(900, 615), (1000, 683), (1200, 820)])
def test_the_toolbar_s_labels_are_whole_in_a_window_of_ordinary_size(app, size):
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    bar = app.play.layout.toolbar
    for button in app.play.toolbar:
        assert bar.contains(button.rect) and app.play.layout.board.top > button.rect.bottom
        assert button.shown()[0] == button.label, (size, button.label, button.shown())
    assert app.play.layout.toolbar_rows == (1 if size[0] >= 1000 else 2)


@pytest.mark.parametrize("size", [(640, 480), (1000, 683), (1200, 820)])
def test_the_solvers_names_are_whole_in_a_narrow_panel(app, size):
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
    app.pump()
    panel, choices = app.play.layout.panel, app.play.solver.choices
    assert all(button.shown()[0] == button.label and panel.contains(button.rect) for button in choices)
    rows = sorted({button.rect.y for button in choices})
    per_row = [sum(button.rect.y == y for button in choices) for y in rows]
    assert max(per_row) - min(per_row) <= 1                     # the rows evenly filled
    assert app.play.solver.run_button.rect.top > max(button.rect.bottom for button in choices)


def test_a_solver_of_ones_own_that_says_no_solution_on_a_solvable_level_is_refuted_in_the_panel(app, tmp_path):
    mine = tmp_path / "quitter.py"
    mine.write_text("def solve(puzzle, report, options):\n    return None\n")
    panel = app.play.solver
    assert panel.add_solver(str(mine))
    run_to_end(app, panel, seconds=30)
    assert panel.watch.result.status is Status.ERROR and not panel.watch.solved
    assert panel.watch.status_text().startswith(f"{panel.watch.name}: error - said there is no solution, "
                                                "but the level has one: ")


def test_the_guesses_in_force_name_their_cells():
    """The panel listed backtracking's guesses as "try water" and forward's as "try a cruiser
    here", with no cell: the list of guesses in force said nothing of where they were."""
    from window.solver_watch import Guess

    assert solver_panel._said(Guess(((14, 10),), Cell.SHIP, 1, "try a cruiser here")) == \
        " 1. row 15, column 11: try a cruiser here"
    assert solver_panel._said(Guess(((0, 2), (0, 3)), Cell.WATER, 12, "")) == "12. row 1, column 3: water (2 cells)"
