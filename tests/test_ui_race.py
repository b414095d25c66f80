"""The race scene: lanes side by side, equal pace, a ranked table of verified results."""

import csv
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

import main  # noqa: E402
from game import rules  # noqa: E402
from tests.conftest import resize, run_to_the_end, watch_text  # noqa: E402
from tests.test_ui_play import click, press  # noqa: E402
from window import fonts  # noqa: E402
from window.app import DEFAULT_LEVEL  # noqa: E402
from window.scenes.race import RaceScene  # noqa: E402


def run_to_end(app, scene, seconds=30.0):
    """Frames until the race ends. Each frame waits a millisecond, as the window's clock does
    (for longer): a loop that never waits starves the workers of the interpreter, and a lane
    whose first run imports numba then takes minutes."""
    deadline = time.perf_counter() + seconds
    while scene.running and time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.001)
    assert scene.finished


def test_v_opens_a_race_and_every_lane_finishes_verified(app, tmp_path, capsys):
    press(app, pygame.K_v)
    scene = app.overlay
    assert isinstance(scene, RaceScene) and len(scene.chosen) == 4
    click(app, scene.toggles["genetic"].rect.center)         # three lanes
    assert "genetic" not in scene.chosen
    click(app, scene.start_button.rect.center)
    assert len(scene.lanes) == 3          # at "instant" a small level may be done already
    run_to_end(app, scene)
    records = scene.records()
    assert [r["rank"] for r in records] == [1, 2, 3]
    assert all(r["solution"] and r["verdict"] == "solved" for r in records)
    backtracking = next(r for r in records if r["solver"] == "backtracking")
    assert backtracking["guesses"] > 0 and backtracking["moves"] >= backtracking["guesses"]
    for lane in scene.lanes:
        assert rules.judge(app.play.puzzle, lane.grid()).solved
    assert [r["time_s"] for r in records] == sorted(r["time_s"] for r in records)
    path = scene.save_csv()
    with open(path, newline="") as table:
        rows = list(csv.DictReader(table))
    assert [row["solver"] for row in rows] == [r["solver"] for r in records]
    # The command line's race of the same solvers writes the same columns, naming them alike.
    cli = tmp_path / "race.csv"
    main.main(["race", str(DEFAULT_LEVEL), "--solvers", ",".join(scene.chosen), "--csv", str(cli)])
    with open(cli, newline="") as table:
        theirs = list(csv.DictReader(table))
    assert list(theirs[0]) == list(rows[0]) and sorted(row["solver"] for row in theirs) == sorted(scene.chosen)
    assert sorted(row["solver"] for row in rows) == sorted(scene.chosen)


def test_at_an_animation_speed_lanes_move_at_the_same_pace(app):
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.speed.set_index(2)                                # 20 moves a second
    scene.start()
    deadline = time.perf_counter() + 10
    while min(lane.moves for lane in scene.lanes) < 10 and time.perf_counter() < deadline:
        app.pump(1 / 30)                                    # 20 moves/s: two thirds of a move a frame
        time.sleep(1 / 60)                                  # let the workers fill their queues
    moves = [lane.moves for lane in scene.lanes]
    # the same pace: neither lane runs ahead (a worker starved by a busy machine may lag a little)
    assert min(moves) >= 10 and max(moves) - min(moves) <= 2 + max(moves) // 5
    press(app, pygame.K_ESCAPE)                             # closing stops every lane at once
    assert app.overlay is None
    assert all(lane.finished and not lane.working for lane in scene.lanes)   # every worker has ended


def test_one_solver_is_not_a_race(app):
    app.open_race(["forward"])
    scene = app.overlay
    scene.start()
    assert not scene.lanes and "two to four" in scene.status


def test_a_lane_board_redraws_only_the_cells_that_changed(monkeypatch):
    from game.puzzle import Cell
    from window.mini_board import MiniBoard
    from window.theme import make_theme

    surface = pygame.Surface((200, 200))
    board, theme, drawn = MiniBoard(), make_theme(), []
    original = MiniBoard._draw_cells
    monkeypatch.setattr(MiniBoard, "_draw_cells", lambda self, *a: (drawn.extend(a[2]), original(self, *a)))
    grid = [[Cell.UNKNOWN] * 6 for _ in range(6)]
    board.draw(surface, theme, (0, 0), 20, grid, {})
    assert len(drawn) == 36
    drawn.clear()
    board.draw(surface, theme, (0, 0), 20, grid, {})
    assert drawn == []                                       # nothing changed: nothing redrawn
    grid[0][0] = Cell.SHIP
    board.draw(surface, theme, (0, 0), 20, grid, {})
    assert sorted(drawn) == [(0, 0), (0, 1), (1, 0), (1, 1)]   # the cell and its neighbours


def test_the_lanes_build_one_board_picture_and_each_shows_its_own_board(app, monkeypatch):
    from window.mini_board import MiniBoard
    from window.scenes.race import SPEEDS

    def lane_picture(scene, lane, board):
        grid, colours = scene._lane_board(lane)
        puzzle = scene.puzzle
        board.draw(pygame.Surface((1, 1)), app.theme, (0, 0), scene.pictures[0]._key[1], grid, puzzle.hints,
                   (puzzle.row_tallies, puzzle.col_tallies), colours)
        return pygame.image.tobytes(board._picture, "RGBA")

    drawn = []
    original = MiniBoard._draw_cells
    monkeypatch.setattr(MiniBoard, "_draw_cells", lambda self, *a: (drawn.append(len(a[2])), original(self, *a)))
    assert app.open_level("levels/15x15/expert/04.bs")
    app.open_race(["backtracking", "forward", "genetic", "logic"])
    scene = app.overlay
    scene.speed.index = SPEEDS.index(1)                     # a move a second
    scene.start()
    app.draw()
    assert drawn == [scene.puzzle.rows * scene.puzzle.cols, 0, 0, 0]      # built once, not four times
    deadline = time.perf_counter() + 10
    while min(lane.tally.moves for lane in scene.lanes) < 1 and time.perf_counter() < deadline:
        scene.update(1.0)                                    # the lanes part ways
        time.sleep(0.01)
    for lane in scene.lanes:
        lane.pause(True)
    assert len({scene._lane_board(lane)[0] for lane in scene.lanes}) > 1
    for lane in scene.lanes:           # started from the first lane's picture, each shows its own board
        copied = MiniBoard()
        copied.start_from(scene.pictures[0])
        assert lane_picture(scene, lane, copied) == lane_picture(scene, lane, MiniBoard())
    scene.stop()


def test_the_depth_sketch_keeps_its_size_and_the_deepest_point():
    from window.depth_plot import BACKTRACK, BUCKETS, GUESS, DepthSketch

    sketch = DepthSketch()
    for n in range(100_000):
        depth = n % 97                                      # a sawtooth
        sketch.add(depth, GUESS if n % 97 else BACKTRACK)
    assert len(sketch.deepest) <= BUCKETS and sketch.count == 100_000
    assert sketch.top == 96 and max(sketch.deepest) == 96
    assert all(mark & GUESS for mark in sketch.marks) and any(mark & BACKTRACK for mark in sketch.marks)
    assert sketch.guesses_at[5] == len(range(5, 100_000, 97))


def test_a_finished_race_with_a_status_line_and_a_finished_search_panel_draw(app, monkeypatch):
    from window import solver_panel

    drawn = []
    real = solver_panel.draw_per_depth
    monkeypatch.setattr(solver_panel, "draw_per_depth", lambda *args: (drawn.append(args[2]), real(*args)))
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.start()
    run_to_end(app, scene)
    scene.status = "Saved somewhere"
    app.draw()                                               # the table and the status line
    app.close_overlay()
    panel = app.play.solver
    run_to_the_end(app, "backtracking")
    assert panel.watch.depth.top > 0 and panel.watch.depth.guesses_at
    app.screen = pygame.display.set_mode((1280, 1000))       # a panel tall enough for both plots
    app.play.relayout(app.window_size)
    app.full_redraw = True
    app.draw()                                               # the depth plot and the per-depth bars
    assert drawn and drawn[-1] is panel.watch.depth


def test_a_race_drawn_change_by_change_shows_what_a_whole_drawing_shows(monkeypatch):
    """During a race the lanes draw only what changed and name those areas: every pixel that
    changed lies in them, and the screen ends up as a whole drawing of the same state."""
    import numpy as np

    from window.app import App
    from window.scenes import race as race_scene

    app = App(window=(1100, 720))
    try:
        assert app.open_level("levels/15x15/expert/04.bs")
        app.open_race(["backtracking", "genetic", "logic"])
        scene = app.overlay
        scene.start()
        app.draw()                                           # the whole scene, once
        partial = 0
        for _ in range(40):
            scene.update(1 / 60)
            before = pygame.surfarray.array3d(app.screen)
            areas = scene.draw(app.screen, False)
            after = pygame.surfarray.array3d(app.screen)
            if areas is None:                                # a lane finished: the scene drew everything
                continue
            partial += 1
            covered = np.zeros(before.shape[:2], dtype=bool)
            for area in areas:
                covered[area.left:area.right, area.top:area.bottom] = True
            assert not (np.any(before != after, axis=2) & ~covered).any()
            time.sleep(0.002)
        assert partial > 0
        for lane in scene.lanes:
            lane.pause(True)                                 # the state holds still from here
        monkeypatch.setattr(race_scene, "STATS_EVERY", 1e9)  # and so do the figures' texts
        scene.update(1 / 60)
        scene.draw(app.screen, False)
        whole = pygame.Surface(app.screen.get_size())
        assert scene.draw(whole, True) is None
        assert (pygame.surfarray.array3d(whole) == pygame.surfarray.array3d(app.screen)).all()
        app.full_redraw = True                               # something drew over the window
        assert scene.draw(app.screen, app.full_redraw) is None
        scene.stop()
    finally:
        app.shutdown()


def test_a_quiet_race_draws_nothing_again(app):
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.start()
    for lane in scene.lanes:
        lane.pause(True)
    app.draw()
    scene.draw(app.screen, False)                            # the lanes' parts as they are now
    assert scene.draw(app.screen, False) == []
    scene.stop()


def test_a_mini_board_puts_only_the_box_of_changed_cells_on_the_screen():
    from game.puzzle import Cell
    from window.mini_board import MiniBoard
    from window.theme import make_theme

    surface = pygame.Surface((200, 200))
    board, theme = MiniBoard(), make_theme()
    grid = [[Cell.UNKNOWN] * 6 for _ in range(6)]
    assert board.draw(surface, theme, (10, 20), 20, grid, {}, only_changes=True) == pygame.Rect(10, 20, 140, 140)
    assert board.draw(surface, theme, (10, 20), 20, grid, {}, only_changes=True) is None
    grid[2][3] = Cell.WATER
    assert board.draw(surface, theme, (10, 20), 20, grid, {}, only_changes=True) == pygame.Rect(50, 40, 60, 60)
    assert board.draw(surface, theme, (10, 20), 20, grid, {}) == pygame.Rect(10, 20, 140, 140)


def test_closing_the_window_during_a_race_ends_every_lane_and_a_solver_of_ones_own(app, tmp_path):
    import subprocess

    loop = tmp_path / "endless_lane.py"
    loop.write_text("def solve(puzzle, report, options):\n    while True:\n        pass\n")
    app.open_race(["forward", str(loop)])
    scene = app.overlay
    scene.speed.set_index(0)                                 # one move a second: still running at the close
    scene.start()
    deadline = time.perf_counter() + 10
    while not subprocess.run(["pgrep", "-f", str(loop)], capture_output=True).stdout and \
            time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.01)
    assert scene.running
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    started = time.perf_counter()
    assert app.run() == 0 and time.perf_counter() - started < 1.0
    assert not any(lane.working for lane in scene.lanes)
    assert subprocess.run(["pgrep", "-f", str(loop)], capture_output=True).stdout == b""   # its process ended too


def test_a_lane_whose_statistics_are_no_counts_shows_its_figures_and_ranks(app):
    from solvers.engine import race
    from solvers.events import Progress, Result, Status
    from window.scenes.race import lane_record
    from window.solver_watch import SolverWatch

    app.open_race(["forward", "backtracking"])
    scene = app.overlay
    said = [Progress({"nodes": "lots", "backtracks": None, "generations": {"n": 1}}), Result(Status.NO_SOLUTION)]
    lane = SolverWatch(scene.puzzle, "boast", lambda: iter(said), speed=0)
    deadline = time.perf_counter() + 5
    while not lane.finished and time.perf_counter() < deadline:
        lane.pump(0.01)
        time.sleep(0.001)
    assert lane.finished and "moves: 0" in scene._stat_lines(lane)
    assert race.rank([lane_record(lane)])[0]["nodes"] == 0


def test_at_the_smallest_window_the_controls_and_a_long_solver_label_stay_in_place(tmp_path, monkeypatch):
    from window.app import DEFAULT_LEVEL, App
    from window.settings import MIN_WINDOW

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    wide = tmp_path / "wide.py"
    wide.write_text(f'LABEL = "{"W" * 40}"\n\ndef solve(puzzle, report, options):\n    return None\n')
    app = App(window=MIN_WINDOW)
    drawn = watch_text(monkeypatch, only=app.screen)          # (a mini board draws its tallies apart)
    window = pygame.Rect((0, 0), MIN_WINDOW)
    try:
        assert app.open_level(DEFAULT_LEVEL)
        app.open_race(["forward", "backtracking", "logic", str(wide)])
        scene = app.overlay
        scene.speed.set_index(0)                             # one move a second: the lanes run while drawn
        scene.start()
        drawn.clear()
        app.full_redraw = True
        app.draw()
        assert drawn and [text for text, rect in drawn if not window.contains(rect)] == []
        assert window.contains(scene.speed.rect.inflate(16, 16))
        for lane in scene.lane_rects:
            assert [text for text, rect in drawn if rect.colliderect(lane) and not lane.contains(rect)] == []
        controls = [scene.start_button.rect, scene.stop_button.rect, scene.speed.rect]
        assert not any(button.rect.colliderect(c) for button in scene.toggles.values() for c in controls)
        scene.stop()
        drawn.clear()
        scene._draw_table(app.screen)                        # the table of the finished race
        assert drawn and [text for text, rect in drawn if not window.contains(rect)] == []
        assert [(a, b) for n, (a, r) in enumerate(drawn) for b, q in drawn[n + 1:] if r.colliderect(q)] == []
    finally:
        app.shutdown()


def test_load_in_the_frame_that_starts_the_race_leaves_the_race_running(app):
    """Enter, then L before the next frame: L loads a solver only while no race runs, so the
    race stays on screen and Esc still stops every lane (the file picker took its place, and
    its lanes ran on unseen, never stopped)."""
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.speed.set_index(0)                                 # one move a second: still running
    for key in (pygame.K_RETURN, pygame.K_l):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.pump()
    assert app.overlay is scene and scene.running
    press(app, pygame.K_ESCAPE)
    assert not any(lane.working for lane in scene.lanes)


def test_a_race_started_again_shows_its_own_figures_and_table(app, monkeypatch):
    """Races one after another (new lanes, which Python may place where the last race's were)
    each draw their own times, in the lanes and in the table, not the race's before."""
    from window.scenes.race import SPEEDS

    app.open_race(["backtracking", "forward", "logic"])
    scene = app.overlay
    drawn = watch_text(monkeypatch, only=app.screen)
    for n in range(6):                  # a third of a second for the 33 moves, then instant, ...
        scene.speed.set_index(SPEEDS.index(100) if n % 2 == 0 else len(SPEEDS) - 1)
        drawn.clear()
        press(app, pygame.K_RETURN)
        run_to_end(app, scene)
        app.draw()
        texts = {text for text, _ in drawn}
        for lane in scene.lanes:
            assert scene._stat_lines(lane)[0] == f"time: {lane.elapsed:.2f} s"
        assert {f"{record['time_s']:.2f}" for record in scene.records()} <= texts


def test_the_status_line_keeps_clear_of_the_lanes_running_and_finished(app, monkeypatch):
    """The line that says what happened (Ctrl+S during a race, then once the table is saved)
    has its own room under the lanes: no text crosses a lane's edge."""
    drawn = watch_text(monkeypatch, only=app.screen)
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.speed.set_index(0)                                 # one move a second: still running
    press(app, pygame.K_RETURN)
    for finished in (False, True):
        if finished:
            scene.speed.set_index(len(scene.speed.values) - 1)
            run_to_end(app, scene)
        drawn.clear()
        press(app, pygame.K_s, pygame.KMOD_CTRL)            # "The table is ready when ...", then "Saved ..."
        assert scene.status and scene.finished == finished
        app.full_redraw = True
        app.draw()
        size = 15 if finished else 16                       # over the table, or at the foot
        status = [rect for text, rect in drawn if text == fonts.fit_text(scene.status, size, app.window_size[0] - 40)]
        assert status and not any(rect.colliderect(lane) for rect in status for lane in scene.lane_rects)


def test_a_solver_loaded_in_the_panel_is_raced_with_v_as_the_panel_says(app, tmp_path):
    """Load... in the side panel says "Run it, or race it (V)": V then opens a race with it in
    a lane of its own beside three of ours (it opened ours alone, with no toggle for it)."""
    mine = tmp_path / "mine.py"
    mine.write_text('LABEL = "Mine"\n\ndef solve(puzzle, report, options):\n    return None\n')
    assert app.play.solver.add_solver(str(mine))
    assert "race it (V)" in app.play.status.message
    press(app, pygame.K_v)
    scene = app.overlay
    assert isinstance(scene, RaceScene) and len(scene.chosen) == 4 and scene.chosen[-1] == str(mine)
    assert scene.toggles[str(mine)].label == "Mine"
    run_to_end(app, scene.start() or scene)
    mine_said = [r for r in scene.records() if r["solver"] == str(mine)]   # "no solution": refuted by the search
    assert [r["verdict"] for r in mine_said] == ["error"]
    assert "said there is no solution, but the level has one" in mine_said[0]["message"]


def test_a_solver_that_cannot_run_on_the_level_is_not_chosen_by_its_key_either(app):
    """A solver whose spec says it cannot read unknown tallies has its button greyed on such a
    level; its key (1 to 9) leaves it out too (the key chose it all the same)."""
    import dataclasses

    assert app.open_level("levels/variants/06-8x8.bs")           # two tallies not given
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.specs["logic"] = dataclasses.replace(scene.specs["logic"], unknown_tallies=False)
    app.draw()
    assert not scene.toggles["logic"].enabled
    press(app, pygame.K_1 + scene.order.index("logic"))
    assert scene.chosen == ["backtracking", "forward"]
    press(app, pygame.K_1 + scene.order.index("forward"))   # a solver that can run still toggles
    assert scene.chosen == ["backtracking"]


@pytest.mark.parametrize("size, level, stop", [((1100, 481), "levels/15x15/expert/04.bs", True),
                                               ((640, 480), "levels/giants/09-40x40.bs", False),
                                               ((480, 360), "levels/10x10/hard/01.bs", False)])
def test_a_lane_keeps_its_board_and_figures_inside_it(app, monkeypatch, size, level, stop):
    """A finished race in a short window (the table takes the foot), a 40x40 board in the
    narrowest one: each lane's board and figures are drawn inside the lane (the figures ran
    over its foot, the board into the next lane and off the window). The boards are drawn
    alike, whatever each lane's figures (a lane with fewer had a larger board beside them)."""
    from window.mini_board import MiniBoard

    boards = []
    real = MiniBoard.draw
    monkeypatch.setattr(MiniBoard, "draw", lambda self, surface, theme, origin, cell, grid, *a, **k: (
        boards.append(pygame.Rect(origin, ((len(grid[0]) + 1) * cell, (len(grid) + 1) * cell))),
        real(self, surface, theme, origin, cell, grid, *a, **k))[1])
    assert app.open_level(level)
    resize(app, size)
    app.open_race(["backtracking", "forward", "genetic", "logic"])
    scene = app.overlay
    scene.start()                                            # at instant speed
    deadline = time.perf_counter() + 10
    while max(len(scene._stat_lines(lane)) for lane in scene.lanes) < 5 and time.perf_counter() < deadline:
        app.pump()                                           # until a lane has five lines of figures
        time.sleep(0.002)
    if stop:
        click(app, scene.stop_button.rect.center)            # the table comes: the lanes shorten
        assert scene.finished
    drawn = watch_text(monkeypatch, only=app.screen)
    boards.clear()
    app.full_redraw = True
    app.draw()
    assert len(boards) == len(scene.lanes) == 4
    assert len({board.size for board in boards}) == 1, boards
    for lane, board in zip(scene.lane_rects, boards):
        assert lane.contains(board), (lane, board)
        assert [text for text, rect in drawn if rect.colliderect(lane) and not lane.contains(rect)] == []
    scene.stop()


def test_the_load_picker_cancelled_or_refused_goes_back_to_the_race_as_it_was(app, tmp_path):
    """Load... (L) over a finished race, then Esc, or Enter on a file that is no solver: the race
    comes back with its table, the second time saying why (it went back to the play scene, the
    race and its table lost, the reason said in the play scene's status line)."""
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    press(app, pygame.K_RETURN)
    run_to_end(app, scene)
    records = scene.records()
    press(app, pygame.K_l)
    assert app.overlay is not scene
    resize(app, (900, 640))                                  # the window changed meanwhile
    press(app, pygame.K_ESCAPE)
    assert app.overlay is scene and scene.records() == records and scene.size == (900, 640)
    press(app, pygame.K_l)
    picker = app.overlay
    picker.typed = str(tmp_path / "nothing-here.py")
    press(app, pygame.K_RETURN)
    assert app.overlay is scene and scene.records() == records
    assert "no such file" in scene.status


def test_a_race_opened_over_a_running_solver_pauses_it(app, monkeypatch):
    """The side panel's run does not compete with the race's lanes: opening the race pauses it
    (the player resumes it after), and a run already paused, or none, is left as it is."""
    from tests.test_ui_play import slow_solver
    from window import solver_panel

    monkeypatch.setattr(solver_panel, "make_stream",
                        lambda name, puzzle, options, seed: slow_solver(puzzle, cells=36, pause=0.05))
    panel = app.play.solver
    panel.start()
    app.pump()
    assert panel.running and not panel.watch.paused
    app.open_race(["backtracking", "forward"])
    assert panel.watch.paused and "paused for the race" in app.play.status.message
    app.close_overlay()
    panel.run_or_pause()                                     # Resume
    assert not panel.watch.paused
    assert panel.hold() and not panel.hold()                 # a paused run is left as it is
    panel.stop()
    assert not panel.hold()                                  # and so is none


def test_a_solver_of_ones_own_loaded_into_a_race_keeps_its_speed(app, tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text('LABEL = "Mine"\n\ndef solve(puzzle, report, options):\n    return None\n')
    app.open_race(["backtracking", "forward"])
    scene = app.overlay
    scene.speed.set_index(1)
    assert scene.add_solver(str(mine))
    again = app.overlay
    assert again is not scene and again.chosen[-1] == str(mine) and again.speed.index == 1


def test_a_genetic_lane_done_in_one_generation_says_so_in_its_plot(app, monkeypatch):
    press(app, pygame.K_v)
    scene = app.overlay
    for name in ("backtracking", "logic"):
        click(app, scene.toggles[name].rect.center)           # genetic and forward
    click(app, scene.start_button.rect.center)
    run_to_end(app, scene)
    genetic = next(lane for lane in scene.lanes if lane.name == scene.specs["genetic"].label)
    assert len(genetic.generations) == 1                      # the built-in first level: the first fleet is it
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    assert "fitness plot: one generation, no curve" in [text for text, _ in drawn]


def test_a_level_s_tables_are_built_once_when_its_hints_and_four_lanes_ask_for_them_together(app, monkeypatch):
    # The hints' warm-up starts as the level opens and every lane starts at once: each table
    # of the level's geometry is built by one of them, the others wait and find it built
    # (they each built their own copy, a transient 28 MB apiece on a 60x60 board).
    from game import ships
    from tests.conftest import slow_table_builds

    builds = slow_table_builds(monkeypatch)
    assert app.open_level("levels/giants/01-20x20.bs")
    app.open_race(["backtracking", "forward", "genetic", "logic"])
    scene = app.overlay
    scene.start()
    geo = ships.geometry_of(scene.puzzle)
    deadline = time.perf_counter() + 60
    while not all(name in geo.__dict__ for name in ships.TABLES) and time.perf_counter() < deadline:
        app.pump()
        time.sleep(0.001)
    scene.stop()
    built = [(name, thread) for name, geometry, thread in builds if geometry == id(geo)]
    assert sorted(name for name, _ in built) == sorted(ships.TABLES), built


def test_a_lane_that_says_no_solution_beside_a_judged_solution_says_it_was_refuted(app, tmp_path, monkeypatch):
    # The table calls it an error (``race.rank``); the lane's own line said "no solution exists"
    # (the exact search that checks it is given no time to decide here: its claim stands, unchecked).
    from solvers.engine.verdict import Kind, Verdict
    from solvers.own import process

    monkeypatch.setattr(process, "decide",
                        lambda puzzle, timeout, cancelled: Verdict(Kind.UNDECIDED, (), {}, "out of time"))
    nothing = tmp_path / "nothing.py"
    nothing.write_text("def solve(puzzle, report, options):\n    return None\n")
    app.open_race(["forward", str(nothing)])
    scene = app.overlay
    scene.start()
    run_to_end(app, scene)
    lane = next(lane for lane in scene.lanes if lane.solver == str(nothing))
    assert lane.result.status.value == "no_solution" and any(other.solved for other in scene.lanes)
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    said = [text for text, _ in drawn if text.startswith(f"{lane.name}: ")]
    assert said and all("no solution exists" not in text for text in said)
    assert any("said there is no solution, but forward found one the rules accept" in text for text in said)


def test_at_the_smallest_window_the_solver_buttons_are_told_apart(app):
    # Each toggle too narrow for its name: its first letter, not an ellipsis like every other.
    from window.settings import MIN_WINDOW

    resize(app, MIN_WINDOW)
    app.open_race(["backtracking", "forward", "genetic", "logic"])
    scene = app.overlay
    app.draw()
    shown = [button.shown()[0] for button in scene.toggles.values()]
    assert fonts.ELLIPSIS not in shown and len(set(shown)) == len(shown) >= 4, shown
    for button, label in zip(scene.toggles.values(), shown):
        assert button.label.startswith(label) or button.label.startswith(label.removesuffix(fonts.ELLIPSIS))


@pytest.mark.parametrize("size", [(1100, 720), (800, 600)])
def test_the_results_table_shows_its_headings_and_verdicts_whole(app, monkeypatch, size):
    # Equal columns cut the verdict to "solved (judg..." below about 1,000 pixels.
    resize(app, size)
    app.open_race(["backtracking", "forward", "genetic", "logic"])
    scene = app.overlay
    scene.start()                                            # at instant speed
    run_to_end(app, scene)
    drawn = watch_text(monkeypatch, only=app.screen)
    scene._draw_table(app.screen)
    box = scene.table_box()
    cells = [text for text, rect in drawn if box.contains(rect)]
    assert {"rank", "solver", "verdict", "time (s)", "generations", "moves"} <= set(cells)
    assert cells.count("solved (judged)") == 4 and not any(text.endswith(fonts.ELLIPSIS) for text in cells), cells
