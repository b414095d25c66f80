"""Large boards end to end (40x40, and 60x60: the size limit): what a player, a learner or an
author meets on them, in the window (headless, real pygame events) and on the command line.

The rest of the suite mostly plays 6x6 to 15x15 boards; each test here failed before the fix
it names (docs/design/giants-end-to-end.md says what was measured and found)."""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pytest  # noqa: E402

from game import levels, rules  # noqa: E402
from game.puzzle import Cell, initial_grid  # noqa: E402
from game.ships import Geometry, geometry_of  # noqa: E402
from tests.conftest import wait_until  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GIANT_60 = ROOT / "docs" / "bench" / "giants" / "giant-60-1.bs"     # 60x60, 200 ships, 180 hints
GIANT_40 = ROOT / "levels" / "giants" / "09-40x40.bs"                # 40x40, 105 ships, 202 hints


@pytest.fixture(scope="module")
def giant_60():
    return levels.load(GIANT_60)


# ----- the judge: every move of the player and of a watched solver is judged -----------------


def test_the_judge_of_a_giant_looks_only_at_the_placements_showing_each_given_piece(giant_60, monkeypatch):
    """On a 60x60 board about a hundred placements pass through each cell; a given piece is
    shown by a few of them. The judge read them all for every hint on every move (34 ms a
    move on a 60x60 level with 518 hints, twice on a board without problems); it now reads,
    once per level, the few that show the piece, and a second judgement walks no cell's
    placements at all."""
    grid = [list(row) for row in initial_grid(giant_60)]
    rules.judge(giant_60, grid)
    walked = []
    through = Geometry.through
    monkeypatch.setattr(Geometry, "through", lambda self, r, c: walked.append((r, c)) or through(self, r, c))
    grid[30][30] = Cell.WATER if grid[30][30] == Cell.UNKNOWN else grid[30][30]
    first = rules.judge(giant_60, grid)
    assert walked == []
    # The same verdicts as reading every placement through the cell.
    geo = geometry_of(giant_60)
    for (r, c), hint in giant_60.hints.items():
        assert set(geo.showing(r, c, hint)) == {p for p in through(geo, r, c)
                                               if hint.fits(p.length, p.horizontal, (r - p.row) + (c - p.col))}
    assert first.problems == ()


def test_a_board_without_the_fleet_s_ship_cells_is_read_once(giant_60, monkeypatch):
    """A board can be a solution only with exactly the fleet's ship cells; one without them
    is not read a second time as a finished board (that reading was half of every move's
    judgement on a large board without problems). A solution is still judged solved."""
    readings = []
    reading = rules._Reading.__init__

    def counted(self, *args, **kwargs):
        readings.append(kwargs.get("partial", args[-1] if args else None))
        reading(self, *args, **kwargs)

    monkeypatch.setattr(rules._Reading, "__init__", counted)
    judged = rules.judge(giant_60, initial_grid(giant_60))
    assert not judged.solved and readings == [True]
    from solvers.events import Result
    from solvers.search import forward

    (result,) = [event for event in forward.events(giant_60, trace=False) if isinstance(event, Result)]
    solution = result.grid
    readings.clear()
    assert rules.judge(giant_60, solution).solved and readings == [True, False]


# ----- the board inside the window at any size ------------------------------------------------

WINDOWS = [(480, 360), (640, 480), (800, 600), (1024, 600), (1024, 768), (1100, 720), (1200, 820), (1920, 1080)]


def test_a_giant_board_and_its_tallies_stay_inside_their_area_at_every_window_size():
    """Cells had a floor of 8 pixels: a 60x60 board in an 800x600 window overflowed the status
    line and its column tallies the toolbar; at 640x480 it ran under the side panel and off the
    window's left edge. The board now takes the largest cells that fit, whatever the size, beside
    the panel or above it."""
    from window.layout import compute_layout

    for size in WINDOWS:
        for rows, cols in ((60, 60), (40, 40), (60, 20), (20, 60), (10, 10)):
            layout = compute_layout(size, rows, cols)
            with_tallies = layout.board.inflate(2, 2).union(layout.row_tally_rect(0)).union(layout.col_tally_rect(0))
            room = pygame_rect(0, layout.toolbar.bottom, size[0], layout.status.top - layout.toolbar.bottom)
            assert room.contains(with_tallies), (size, rows, cols, layout)
            assert not layout.panel.colliderect(with_tallies), (size, rows, cols, layout)
            assert layout.cell >= 1


def pygame_rect(*args):
    import pygame

    return pygame.Rect(*args)


def real_click(window, pos, button=1):
    import pygame

    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    window.pump()


def test_a_giant_in_a_small_window_is_played_where_it_is_drawn_and_the_player_is_told(tmp_path, monkeypatch):
    """At 800x600 the 60x60 board fits with 7-pixel cells: a click on a cell's middle marks that
    cell (the last row and column included, once drawn below the status line), the toolbar
    still answers its own clicks, and the status line says why the cells are small."""
    import pygame

    from window.app import App

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    window = App(window=(800, 600))
    try:
        assert window.open_level(GIANT_60)
        window.pump()
        play = window.play
        assert play.layout.cell < 8 and f"{play.layout.cell}-pixel cells" in play.message
        free = [(r, c) for r, c in ((59, 59), (0, 0), (59, 0), (0, 59), (30, 31))
                if (r, c) not in play.puzzle.hints]
        for r, c in free:
            real_click(window, play.layout.cell_rect(r, c).center)
            assert play.session.grid[r][c] == Cell.WATER, (r, c)
        assert window.screen.get_rect().contains(play.layout.board)
        undo = next(button for button in play.shown_toolbar if button.label == "Undo")
        real_click(window, undo.rect.center)
        assert play.session.grid[free[-1][0]][free[-1][1]] == Cell.UNKNOWN
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(1200, 820), w=1200, h=820))
        window.screen = pygame.display.set_mode((1200, 820), pygame.RESIZABLE)
        window.pump()
        assert play.layout.cell >= 8
    finally:
        window.shutdown()


def test_the_editor_and_the_replay_keep_a_giant_board_inside_their_areas(tmp_path, monkeypatch):
    """The editor's cells had a floor of 6 pixels and the replay's of 4: a 60x60 board in a
    small window ran under the editor's panel and key help, and over the replay's controls."""
    from solvers.engine.trace import record_play
    from window.app import App

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    puzzle = levels.load(GIANT_60)
    trace = record_play(tmp_path / "run.jsonl", puzzle, (), solved=False)
    for size in ((640, 480), (800, 600), (1200, 820)):
        window = App(window=size)
        try:
            assert window.open_level(GIANT_60)
            window.open_editor()
            editor = window.overlay
            far = editor.cell_rect(puzzle.rows, puzzle.cols)          # the corner past the tallies
            assert far.right <= editor.panel.left and far.bottom <= size[1] - 20, (size, editor.cell)
            window.close_overlay()
            assert window.open_replay(trace)
            replay = window.overlay
            assert 20 + (puzzle.rows + 1) * replay.cell <= replay.controls_top + 70 - 60, (size, replay.cell)
        finally:
            window.shutdown()


# ----- numbers that can be read ---------------------------------------------------------------


def test_a_small_board_s_tallies_never_run_together(monkeypatch):
    """The race's lanes draw a 60x60 board with 4-pixel cells; its tallies were drawn at 10
    pixels whatever the cell, so two-digit numbers ran into one smear. Tallies are now drawn
    only at a size where each keeps apart from the next, and inside the board's picture."""
    import pygame

    from tests.conftest import watch_text
    from window.mini_board import MiniBoard
    from window.theme import make_theme

    pygame.font.init()
    puzzle = levels.load(GIANT_60)
    theme = make_theme("light", "standard")
    tallies = {str(t) for t in (*puzzle.row_tallies, *puzzle.col_tallies)}
    for cell in (4, 7, 9, 12, 16):
        drawn = watch_text(monkeypatch)
        picture = MiniBoard()
        surface = pygame.Surface(((puzzle.cols + 1) * cell, (puzzle.rows + 1) * cell))
        picture.draw(surface, theme, (0, 0), cell, initial_grid(puzzle), puzzle.hints,
                     (puzzle.row_tallies, puzzle.col_tallies))
        labels = [rect for text, rect in drawn if text in tallies]
        assert len(labels) in (0, puzzle.rows + puzzle.cols), cell
        top = sorted((rect for rect in labels if rect.bottom <= cell + 2), key=lambda rect: rect.x)   # the columns'
        side = sorted((rect for rect in labels if rect not in top), key=lambda rect: rect.y)
        for row in (top, side):
            assert not any(a.colliderect(b) for a, b in zip(row, row[1:])), cell
        if cell >= 12:
            assert labels, "a board drawn large enough shows its tallies"


# ----- frames while a large board changes -----------------------------------------------------


def test_the_board_draws_only_what_changed_and_shows_what_a_whole_drawing_shows():
    """A 60x60 board was drawn whole (3,600 cells) at every change: 15-25 ms a frame while a
    solver ran, beside the judge's. Now a change draws its cells and their neighbours (and the
    cells under a cursor or a guess's outline that moved), and the screen shows, pixel for
    pixel, what drawing the whole picture shows: through moves, reasons, backtracks, a guess,
    the cursor, wrong cells and highlights coming and going."""
    import random

    import pygame

    from game.session import Session
    from solvers.events import Reason
    from window import board_view
    from window.board_view import BoardPicture, BoardView
    from window.layout import compute_layout
    from window.theme import make_theme

    pygame.font.init()
    puzzle = levels.load(GIANT_40)
    layout = compute_layout((1200, 820), puzzle.rows, puzzle.cols)
    theme = make_theme("light", "standard")
    session = Session(puzzle, player=False)
    rng = random.Random(3)
    view, shown = BoardView(), pygame.Surface((1200, 820))
    area = board_view.board_area(layout)
    drawn = []
    draw_cell = board_view._draw_cell
    board_view._draw_cell = lambda *args: drawn.append(args[4:6]) or draw_cell(*args)
    try:
        reasons, backtracked = {}, set()
        for step in range(40):
            r, c = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
            value = rng.choice((Cell.SHIP, Cell.WATER, Cell.UNKNOWN))
            from game.puzzle import Move

            session.apply((Move(r, c, value),))
            reason = rng.choice(list(Reason))
            if reason is Reason.BACKTRACK:
                reasons.pop((r, c), None)
                backtracked.add((r, c))
            else:
                reasons[(r, c)] = reason
                backtracked.discard((r, c))
            report = session.report
            cells = [(rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)) for _ in range(3)]
            picture = BoardPicture(puzzle, session.grid, report.rows, report.cols, cursor=cells[0],
                                   error_cells=frozenset(cells[1:2]) if step % 3 else frozenset(),
                                   reasons=dict(reasons), backtracked=frozenset(backtracked), tried=cells[2],
                                   highlight=frozenset(cells[:2]) if step % 4 == 0 else frozenset())
            drawn.clear()
            view.draw(shown, layout, theme, step, lambda picture=picture: picture)
            if step:
                assert len(drawn) < 80, len(drawn)        # tens of cells, not the board's 1,600
            whole = pygame.Surface((1200, 820))
            whole.fill(theme.background)
            BoardView().draw(whole, layout, theme, step, lambda picture=picture: picture, full=True)
            assert pygame.image.tobytes(shown.subsurface(area), "RGB") == \
                pygame.image.tobytes(whole.subsurface(area), "RGB"), step
    finally:
        board_view._draw_cell = draw_cell


def test_a_large_board_s_drawing_does_not_starve_the_watched_solver(tmp_path, monkeypatch):
    """The solver's share of a frame shrank by 30% after every frame longer than the target
    (13 ms), down to 1 ms. On a 60x60 board drawing alone takes longer than that, so the share
    stayed at 1 ms and a run at "instant" crawled (forward on a 60x60: 36 s in the window, 13 s
    on the command line with its trace). When the rest of the frame overruns the target, the
    solver now gets as long as the rest, up to its budget; small boards are unchanged."""
    from window import app as app_module

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    window = app_module.App(window=(1200, 820))
    try:
        assert window.open_level(GIANT_60)

        class Watch:
            running = True
            frame_budget = app_module.FRAME_WORK_BUDGET
            pump_seconds = 0.002

        watch = Watch()
        window.play.solver.watch = watch
        for _ in range(30):                       # frames of 40 ms: 2 ms of events, 38 of drawing
            window._adapt_solver_budget(0.040)
        assert watch.frame_budget == app_module.FRAME_WORK_BUDGET
        for _ in range(30):                       # a small board: the events made the frame long
            watch.pump_seconds = 0.012
            window._adapt_solver_budget(0.016)
        assert watch.frame_budget < 0.002
    finally:
        window.play.solver.watch = None
        window.shutdown()


# ----- work for a level ends with the level ---------------------------------------------------


def test_closing_a_giant_level_ends_the_search_for_its_solution(tmp_path, monkeypatch):
    """Hints start from the level's solution, worked out as the level opens; on a 60x60 level
    with many solutions that search runs up to 30 s and took no stop. Opening four 60x60
    levels in a row left four searches going (max RSS 1.34 GB, above the documented 1 GB; the
    machine busy for 23 s). Closing a level now ends its search at the search's next event
    (a heartbeat while it builds its model of a fresh board too), instead of 10-30 s later."""
    import threading

    from window import hints
    from window.app import App

    searching = threading.Event()

    def long_search(puzzle, timeout, cancelled):
        """The search of a level with many solutions, as long as it takes here: how long the
        real one runs depends on the machine (``decide``'s own stop is tested below)."""
        searching.set()
        wait_until(cancelled, 30, pause=0.01)
        return None

    monkeypatch.setattr(hints, "unique_solution", long_search)
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    window = App(window=(1200, 820))
    try:
        assert window.open_level(GIANT_60)
        first = window.play.coach.hints._warm_up
        assert searching.wait(10) and first.running      # still deciding whether the level is unique
        assert window.open_level(ROOT / "docs" / "bench" / "giants" / "giant-60-2.bs")
        assert wait_until(lambda: not first.running, 6.0, pause=0.02)
    finally:
        window.shutdown()


def test_a_stopped_search_decides_nothing_and_is_asked_again(giant_60):
    """A verdict asked to stop says ``undecided`` at once, and the hints' judge, stopped while
    working out the solution, keeps no answer from it (the next question works it out)."""
    import time

    from solvers.engine.verdict import Kind, decide
    from window.hints import MistakeJudge

    began = time.perf_counter()
    verdict = decide(giant_60, timeout=30, cancelled=lambda: True)
    assert verdict.kind is Kind.UNDECIDED and time.perf_counter() - began < 5
    judge = MistakeJudge(giant_60)
    assert judge.solution(cancelled=lambda: True) is None and not judge.known


@pytest.fixture
def fresh_geometries(monkeypatch):
    """No board's geometry built yet in this process, as when a level is first opened: the
    geometries built during the test (its own, put back after it)."""
    from game import ships

    monkeypatch.setattr(ships, "_geometries", {})
    return ships._geometries


@pytest.mark.parametrize("name", ["forward", "backtracking", "logic", "genetic"])
def test_a_solver_on_a_fresh_giant_is_heard_while_it_builds_its_model(giant_60, fresh_geometries, name):
    """On a fresh 60x60 board (63,000 placements) every solver built its placement model (the
    placements, the per-cell tables, its own model) without an event: 0.3-0.7 s, up to 2.5 s
    under load, in which a Stop waited. The model is now built in slices with heartbeats
    between them: the first event comes before the geometry is whole."""
    from solvers.engine import registry
    from solvers.events import Progress

    stream = registry.get(name).events(giant_60, trace=True)
    try:
        assert isinstance(next(stream), Progress) and not fresh_geometries
    finally:
        stream.close()


def test_a_stop_of_a_solver_on_a_fresh_giant_ends_it_while_it_builds(giant_60, fresh_geometries):
    """A Stop 0.05 s after forward's start on a fresh 60x60 board took 0.6-1 s: the worker ran
    on to the end of the model. It now ends at the next heartbeat, the geometry left unbuilt."""
    import time

    from solvers.engine.runner import SolverRun
    from solvers.search import forward

    run = SolverRun(lambda: forward.events(giant_60)).start()
    time.sleep(0.05)
    assert run.stop(timeout=10) and not fresh_geometries


def test_opening_a_giant_level_builds_its_geometry_once(giant_60, tmp_path, monkeypatch, fresh_geometries):
    """The hints' worker, which works out the level's solution as the level opens, started
    before the window judged the board: on a fresh 60x60 board each built the level's geometry
    (63,000 placements, about 60 MB), both at once, one of them soon dropped (the window's peak
    memory 80 MB higher). The geometry is now built before the worker starts, and shared."""

    from game import ships
    from window import hints
    from window.app import App

    key = (giant_60.rows, giant_60.cols, tuple(length for length, _ in giant_60.fleet))
    built, there_at_start = [], []
    lay = Geometry._lay

    def counted(self, rows, cols, lengths):
        built.append((rows, cols, lengths))
        return (yield from lay(self, rows, cols, lengths))

    def search(puzzle, timeout, cancelled):
        """The search's first need: the level's geometry (the real search then runs for seconds)."""
        geometry_of(puzzle)
        return None

    class Watched(hints.SolverRun):
        def start(self):
            if self._thread.name == "solution":
                there_at_start.append(key in ships._geometries)
            return super().start()

    monkeypatch.setattr(Geometry, "_lay", counted)
    monkeypatch.setattr(hints, "unique_solution", search)
    monkeypatch.setattr(hints, "prepare", lambda puzzle: None)
    monkeypatch.setattr(hints, "SolverRun", Watched)
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    window = App(window=(1200, 820))
    try:
        assert window.open_level(GIANT_60)
        warm_up = window.play.coach.hints._warm_up
        assert wait_until(lambda: not warm_up.running, 30, pause=0.02)
        assert there_at_start == [True] and built.count(key) == 1
    finally:
        window.shutdown()


def test_a_verdict_stops_while_the_clause_learner_builds_its_clauses(giant_60, monkeypatch):
    """The clause learner (the verdict's partner of the forward search) built its clauses for a
    60x60 board in one piece, 1-2.7 s in which a stop of the verdict (a closed level, a
    closed editor) waited. Its first event now comes while it builds: the race stops there.
    (The learner alone: the forward search may decide this level in its first turn.)"""
    from solvers.engine import portfolio
    from solvers.events import Status
    from solvers.search import learning, learning_core

    heard, searched = [], []
    events = learning.events

    def watched(*args, **kwargs):
        for event in events(*args, **kwargs):
            heard.append(event)
            yield event

    class Search(learning_core.Search):
        def __init__(self, *args, **kwargs):
            searched.append(True)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(learning, "events", watched)
    monkeypatch.setattr(learning_core, "Search", Search)
    result = portfolio.race(giant_60, timeout=60, jobs=1, members=(portfolio.LEARNING_EVERY_VARIABLE,),
                            cancelled=lambda: bool(heard))
    assert result.status is Status.STOPPED and heard and not searched


def test_the_grade_of_a_giant_stops_when_asked(monkeypatch):
    """The grade (the deduction engine: 6 s on a generated 60x60 level) took no stop, so after
    the editor closed its worker ran on to the grade's end. The grade now stops at the engine's
    next round or heartbeat, and the editor's assessment says it stopped."""
    from solvers.authoring.editing import assess
    from solvers.engine.verdict import Kind
    from solvers.logic import deduction

    solves = []
    solve = deduction.solve

    def watched(*args, **kwargs):
        solves.append("started")
        outcome = solve(*args, **kwargs)
        solves.append("done")
        return outcome

    monkeypatch.setattr(deduction, "solve", watched)
    stopped = assess(levels.load(GIANT_40), 30.0, 30.0, cancelled=lambda: bool(solves))
    assert stopped.kind is Kind.UNDECIDED and solves == ["started"]


# ----- the command line on giants -------------------------------------------------------------


def test_print_refuses_a_page_layout_that_would_make_a_giant_unreadable(tmp_path, capsys):
    """``print --per-page 9`` drew a 60x60 board 60 mm wide: cells under a millimetre, its
    tallies at 1.5 points, a grey square no one can solve. It now says which level cannot be
    read that many to a page, and how many it allows; nothing is written. A page of its own
    still prints it (cells of 2.8 mm, tallies at 4.5 points)."""
    import main
    from window import sheets

    out = tmp_path / "sheet.pdf"
    code = main.main(["print", str(GIANT_60), str(ROOT / "levels" / "10x10" / "hard" / "01.bs"), "-o", str(out),
                      "--per-page", "9"])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and "giant-60-1.bs" in err and "at most 1 to a page" in err
    assert main.main(["print", str(GIANT_60), "-o", str(out)]) == 0 and out.stat().st_size > 0
    assert sheets.most_per_page(sheets.Item(levels.load(GIANT_60), "")) == 1
    assert sheets.most_per_page(sheets.Item(levels.load(ROOT / "levels" / "15x15" / "hard" / "01.bs"), "")) == 9


# ----- a long run's trace -----------------------------------------------------------------------


def test_reading_a_long_trace_shows_how_far_it_has_read(tmp_path, monkeypatch):
    """A run of a few seconds on a 60x60 board writes hundreds of thousands of events (15 s of
    backtracking: 1.5 million, 170 MB); the window read them without drawing anything, a still
    window for 14 s. It now says at its foot how many events it has read, as it reads."""
    from types import SimpleNamespace

    import pygame

    from game.puzzle import Move
    from solvers.engine.trace import record_play
    from tests.conftest import watch_text
    from window import app as app_module
    from window.scenes.replay import QUIT_CHECK_EVERY

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    puzzle = levels.load(GIANT_60)
    free = [(r, c) for r in range(60) for c in range(60) if (r, c) not in puzzle.hints]
    events = 2 * QUIT_CHECK_EVERY + 1000            # a play of as many moves, cells marked and cleared
    steps = [SimpleNamespace(moves=(Move(*free[k % len(free)], (Cell.WATER, Cell.UNKNOWN)[k // len(free) % 2]),),
                             label="", kind="", depth=0) for k in range(events)]
    trace = record_play(tmp_path / "run.jsonl", puzzle, steps, solved=False)
    window = app_module.App(window=(1200, 820))
    try:
        shown = []
        update = pygame.display.update
        monkeypatch.setattr(pygame.display, "update", lambda *args: shown.append(args) or update(*args))
        drawn = watch_text(monkeypatch)
        assert window.open_replay(trace)
        told = [text for text, _ in drawn if text.startswith("Reading the trace")]
        assert len(told) == events // QUIT_CHECK_EVERY and len(shown) >= len(told)
        assert f"{QUIT_CHECK_EVERY:,} events" in told[0]
        assert window.overlay.run.events == events
        # From the command line nothing was drawn before: the window was black above the line.
        assert window.play is None and tuple(window.screen.get_at((600, 400)))[:3] == tuple(window.theme.background)
    finally:
        window.shutdown()


def test_the_editor_s_verdict_on_a_giant_stops_when_asked():
    """The editor asks, a quarter second after each edit, for the draft's verdict, grade and
    redundant hints: 4, 6 and 3 s on a 60x60 level, none of which took a stop, so after the
    editor closed its worker ran on for 12 s. The verdict and the redundant hints now end when
    the editor stops its worker, and the grade is not asked once it has."""
    import time

    from solvers.authoring import grading
    from solvers.authoring.editing import assess
    from solvers.engine.verdict import Kind

    puzzle = levels.load(GIANT_40)
    asked = []
    graded = grading.grade
    began = time.perf_counter()
    stopped = assess(puzzle, 30.0, 30.0, cancelled=lambda: asked.append(1) or True)
    assert stopped.kind is Kind.UNDECIDED and asked and time.perf_counter() - began < 5
    calls = iter([False] * 3 + [True] * 10_000)
    assert grading.redundant_hints(puzzle, None, cancelled=lambda: next(calls)) is None
    assert grading.grade is graded


# ----- saving a long play ---------------------------------------------------------------------


def test_a_long_play_is_saved_without_encoding_its_old_steps_again(tmp_path, monkeypatch):
    """The play is saved at every move, and every save encoded the whole history again with
    the pure-Python JSON encoder: on a 40x40 level 13 ms a save after 500 steps, 90 ms after
    12,000 (a 60x60 board needs thousands of marks). A step is now encoded once; each save
    writes the same text as encoding it all (drags, undo, trials, restart, odd labels)."""
    import json
    import random

    from game.session import Session
    from window import storage as storage_module

    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    puzzle = levels.load(GIANT_40)
    store = storage_module.Storage()
    session = Session(puzzle)
    rng = random.Random(5)
    free = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if (r, c) not in puzzle.hints]
    from game import session as session_module

    encoded = []
    step_to_dict = session_module.step_to_dict
    counted = lambda step: encoded.append(step) or step_to_dict(step)       # noqa: E731
    monkeypatch.setattr(session_module, "step_to_dict", counted)
    monkeypatch.setattr(storage_module, "step_to_dict", counted, raising=False)
    path = store.progress_path("play")
    for move in range(300):
        r, c = rng.choice(free)
        action = rng.random()
        if action < 0.6:
            session.set_cell(r, c, rng.choice((Cell.WATER, Cell.SHIP, Cell.UNKNOWN)))
        elif action < 0.7:
            for dc in range(3):
                session.paint(r, min(puzzle.cols - 1, c + dc), Cell.WATER)
            session.end_merge()
        elif action < 0.8:
            session.undo()
        elif action < 0.85:
            session.open_trial()
        elif action < 0.9:
            (session.keep_trial if rng.random() < 0.5 else session.abandon_trial)()
        elif action < 0.92:
            session.restart()
        else:
            session.asked["hint"] += 1
        encoded.clear()
        assert store.save_play("play", session)
        assert len(encoded) <= 2, (move, len(encoded))      # the step made (or merged) by this move
        assert path.read_text(encoding="utf-8") == json.dumps(session.to_dict(), indent=1), move
        assert Session.restore(puzzle, storage_module.check_progress(json.loads(path.read_text()))).grid == session.grid
