"""The replay window: a saved trace's timeline, its jumps, and a damaged trace refused."""

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

import main  # noqa: E402
from game.puzzle import Cell  # noqa: E402
from solvers.engine import trace  # noqa: E402
from tests.conftest import resize, run_to_the_end, wait_until, watch_text  # noqa: E402
from tests.test_ui_play import click, drag, press  # noqa: E402
from window.scenes.replay import ReplayScene  # noqa: E402

LEVEL = "levels/10x10/expert/01.bs"


def saved_run(tmp_path, capsys, level=LEVEL, solver="backtracking"):
    path = tmp_path / f"{solver}.jsonl"
    assert main.main(["solve", level, "--solver", solver, "--trace", str(path)]) == 0
    capsys.readouterr()
    return path


def test_scrubbing_and_jumping_show_the_board_of_that_event(app, tmp_path, capsys):
    path = saved_run(tmp_path, capsys)
    assert app.open_replay(path)
    scene = app.overlay
    assert isinstance(scene, ReplayScene) and scene.at == scene.run.events
    press(app, pygame.K_HOME)
    assert scene.at == 0 and scene.board() == scene.run.start
    click(app, next(b for b in scene.buttons if b.label == "guess >").rect.center)
    first_guess = scene.at
    assert scene.event()["kind"] == "guess" and all(
        scene.timeline.kinds[n] != scene.timeline.kinds[first_guess] for n in range(1, first_guess))
    click(app, next(b for b in scene.buttons if b.label == "dead end >").rect.center)
    dead_end = scene.at
    press(app, pygame.K_RIGHT)
    assert scene.event()["kind"] == "backtrack" and scene.at == dead_end + 1
    for n in (dead_end, 1, scene.run.events // 2):
        scene.goto(n)
        assert scene.board() == trace.board_at(scene.run, n)
    click(app, next(b for b in scene.buttons if b.label == "solution").rect.center)
    assert scene.board() == scene.run.solution
    middle = (scene.track.x + scene.track.width // 2, scene.track.centery)
    click(app, middle)                                      # a click on the timeline goes there
    assert abs(scene.at - scene.run.events // 2) <= scene.run.events // scene.track.width + 1
    app.draw()


def test_the_knob_is_grabbed_where_the_replay_opens(app, tmp_path, capsys):
    """The replay opens at the last event, its knob centred on the track's right end: a drag
    from there did nothing (the track's rect ends one pixel before it)."""
    assert app.open_replay(saved_run(tmp_path, capsys))
    scene = app.overlay
    knob = (scene.track.right, scene.track.centery)
    middle = (scene.track.centerx, scene.track.centery)
    drag(app, (knob[0] + 4, knob[1]), [(knob[0] - 50, knob[1]), middle])
    assert abs(scene.at - scene.run.events // 2) <= scene.run.events // scene.track.width + 1
    drag(app, (scene.track.x - 4, knob[1]), [(scene.track.x - 4, knob[1])])
    assert scene.at == 0


def test_replay_screenshot_at_an_event_and_a_damaged_trace(tmp_path, capsys):
    path = saved_run(tmp_path, capsys)
    shot = tmp_path / "at.png"
    assert main.main(["replay", str(path), "--at", "5", "--screenshot", str(shot)]) == 0
    assert shot.read_bytes()[:4] == b"\x89PNG"
    lines = path.read_text().splitlines()
    lines[3] = lines[3][: len(lines[3]) // 2]
    path.write_text("\n".join(lines) + "\n")
    assert main.main(["replay", str(path), "--screenshot", str(shot)]) == 2
    out = capsys.readouterr()
    assert f"{path}:4" in out.out + out.err


def test_a_trace_refused_by_the_replay_window_is_one_line_on_stderr_as_with_print(tmp_path, capsys):
    path = saved_run(tmp_path, capsys, level="levels/6x6/easy/01.bs", solver="forward")
    shot = tmp_path / "at.png"
    assert main.main(["replay", str(path), "--at", "99999", "--screenshot", str(shot)]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1 and "--at 99999 is outside" in out.err
    path.write_text(path.read_text()[:-20])
    for flags in (["--screenshot", str(shot)], ["--print"]):
        assert main.main(["replay", str(path), *flags]) == 2
        out = capsys.readouterr()
        assert out.out == "" and out.err.count("\n") == 1 and str(path) in out.err
    assert not shot.exists()


def test_a_run_exported_as_an_animated_gif(tmp_path, capsys):
    from PIL import Image

    path = saved_run(tmp_path, capsys)
    gif = tmp_path / "run.gif"
    assert main.main(["replay", str(path), "--gif", str(gif)]) == 0
    with Image.open(gif) as image:
        assert image.n_frames == 120
        image.seek(image.n_frames - 1)
        last = image.convert("RGB")
    with Image.open(gif) as image:
        first = image.convert("RGB")
    assert first.tobytes() != last.tobytes()              # the board fills in as the run goes


def test_a_gif_colours_the_guesses_in_force_as_the_replay_does(tmp_path, capsys):
    """A lecture's GIF of a search tells its guesses from its deductions as the replay's
    board does: the guesses in force in the guess colour (every cell was drawn alike)."""
    from PIL import Image

    from window.theme import make_theme

    path = saved_run(tmp_path, capsys)
    gif = tmp_path / "run.gif"
    assert main.main(["replay", str(path), "--gif", str(gif)]) == 0
    guess = make_theme().guess

    def near(pixel):
        return sum(abs(a - b) for a, b in zip(pixel, guess)) < 30
    with Image.open(gif) as image:
        middle = []
        for k in range(image.n_frames):
            image.seek(k)
            middle.append(sum(count for count, colour in image.convert("RGB").getcolors(1 << 16) if near(colour)))
    assert middle[0] == 0 and sum(1 for count in middle if count > 100) > len(middle) // 2


def test_jumps_to_what_a_run_never_has_are_greyed(app, tmp_path, capsys):
    """A genetic run out of time has no guess, backtrack, dead end or solution: those buttons
    did nothing when pressed; a backtracking run that solved has them all."""
    assert app.open_replay(genetic_out_of_time(tmp_path, capsys))
    enabled = {button.label: button.enabled for button in app.overlay.buttons}
    assert not any(enabled[label] for label in ("< guess", "guess >", "< backtrack", "backtrack >",
                                                "< dead end", "dead end >", "solution"))
    assert enabled["Export GIF"] and enabled["Close"]
    app.close_overlay()
    assert app.open_replay(saved_run(tmp_path, capsys))
    assert all(button.enabled for button in app.overlay.buttons)


def test_a_genetic_run_s_gif_shows_its_best_fleet_generation_by_generation(tmp_path, capsys):
    """A genetic run sets no cell until its answer: its GIF draws each frame's best fleet, as
    the replay does (it was the starting board 120 times, one still frame)."""
    from PIL import Image

    gif = tmp_path / "run.gif"
    assert main.main(["replay", str(genetic_out_of_time(tmp_path, capsys)), "--gif", str(gif)]) == 0
    with Image.open(gif) as image:
        assert image.n_frames > 1           # consecutive frames alike are merged: one, without the fleets


def test_a_logic_run_lists_its_deductions_and_a_click_goes_there(app, tmp_path, capsys):
    assert app.open_replay(saved_run(tmp_path, capsys, "levels/10x10/hard/01.bs", "logic"))
    scene = app.overlay
    steps = list(scene.timeline.steps)
    assert len(steps) >= 5 and all(text for _, text in steps)
    assert steps == sorted(steps) and steps[0][0] == 1
    press(app, pygame.K_HOME)                               # the starting board: the list from its top
    n, text = steps[3]
    row_y = scene.steps.rect.y + 3 * 30 + 15
    click(app, (scene.steps.rect.x + 60, row_y))
    assert scene.at == n and scene.event()["detail"] == text
    app.draw()


def test_the_event_s_whole_sentence_is_shown_where_a_trial_says_its_conclusion_last(app, tmp_path, capsys,
                                                                                    monkeypatch):
    # "If row 3, column 1 were ship: ... then the battleship would have nowhere to go. So it
    # is water": one line cut it before its conclusion, which the list of steps cuts too.
    from tests.conftest import watch_text

    assert app.open_replay(saved_run(tmp_path, capsys, "levels/10x10/hard/01.bs", "logic"))
    scene = app.overlay
    n, detail = max(((n, scene._line(n).get("detail") or "") for n in range(1, scene.run.events + 1)),
                    key=lambda pair: len(pair[1]))
    assert fonts_width(detail) > scene.size[0] - 600               # longer than a line beside the board
    scene.goto(n)
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    shown = " ".join(text for text, _ in drawn)
    assert f"{scene.event()['kind']}: {detail}" in shown


def fonts_width(text: str) -> int:
    from window import fonts

    return fonts.font(17).size(text)[0]


def test_the_step_in_force_stays_in_sight_as_the_timeline_moves(app, tmp_path, capsys):
    """The replay opens at the run's end and moves by keys, jumps and drags: the list of steps
    scrolls to the one ticked (it stayed at the first steps, the ticked one out of sight)."""
    from window.list_view import ROW_HEIGHT

    assert app.open_replay(saved_run(tmp_path, capsys, "levels/10x10/hard/01.bs", "logic"))
    scene = app.overlay
    steps = scene.timeline.steps
    assert len(steps) * ROW_HEIGHT > scene.steps.rect.height           # more steps than the list shows

    def in_sight(k):
        top = k * ROW_HEIGHT - scene.steps.scroll
        return 0 <= top and top + ROW_HEIGHT <= scene.steps.rect.height

    assert steps.current(scene.at) == len(steps) - 1 and in_sight(len(steps) - 1)
    press(app, pygame.K_HOME)
    assert scene.steps.scroll == 0
    scene.goto(steps.events[len(steps) // 2])
    assert in_sight(len(steps) // 2)
    press(app, pygame.K_DOWN)                                # the keyboard goes on from the step in force
    press(app, pygame.K_RETURN)
    assert steps.current(scene.at) == len(steps) // 2 + 1 and in_sight(len(steps) // 2 + 1)


def test_a_logic_run_s_replay_shows_all_its_statistics_beside_its_steps(app, tmp_path, capsys, monkeypatch):
    """At the run's end, its final statistics (this run has no heartbeat: none were shown),
    sharing lines, as the list of steps leaves five above it (one a line, alphabetical, a
    logic run showed backtracks and deepest, not its steps, nodes or propagated cells)."""
    from tests.conftest import watch_text

    assert app.open_replay(saved_run(tmp_path, capsys, "levels/10x10/hard/01.bs", "logic"))
    scene = app.overlay
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    shown = " ".join(text for text, rect in drawn if rect.x >= scene.steps.rect.x and rect.y < scene.steps.rect.y)
    for key in ("steps", "nodes", "propagated", "backtracks"):
        assert f"{key}: {scene.run.stats[key]:,}" in shown, key


def decisions_by_walking(path):
    """The decisions in force after each event, walked through the trace file by the format
    alone (a guess at depth d ends the decisions at d and deeper, unless it continues the
    previous board change's decision; any other board change at depth d ends those deeper
    than d; events without a depth change nothing)."""
    import json

    stack, after, previous_guess = [], [()], None
    for line in path.read_text().splitlines()[1:]:
        data = json.loads(line)
        if data.get("kind") == "result":
            break
        depth = data.get("depth")
        if depth is None:                                   # no board change: nothing ends
            pass
        elif data["kind"] == "guess":
            if previous_guess != depth:
                while stack and stack[-1][0] >= depth:
                    stack.pop()
                stack.append((depth, data["n"]))
            previous_guess = depth
        else:
            while stack and stack[-1][0] > depth:
                stack.pop()
            previous_guess = None
        after.append(tuple(n for _, n in stack))
    return after


def test_the_decisions_in_force_at_every_event_and_a_click_on_one_goes_there(app, tmp_path, capsys):
    path = saved_run(tmp_path, capsys)
    assert app.open_replay(path)
    scene = app.overlay
    expected = decisions_by_walking(path)
    assert len(expected) == scene.run.events + 1 and max(map(len, expected)) >= 5
    for n in range(scene.run.events + 1):
        scene.goto(n)
        assert tuple(event for event, *_ in scene.guesses_in_force()) == expected[n]
    deep = next(n for n, found in enumerate(expected) if len(found) >= 4)
    scene.goto(deep)
    app.draw()                                              # draws the list, one row per decision
    rect, first = scene._guess_rows[0]
    assert first in expected[deep]
    click(app, rect.center)
    assert scene.at == first and scene.event()["kind"] == "guess"


def test_every_window_run_is_recorded_and_can_be_rewound_and_saved(app):
    panel = app.play.solver
    watch = run_to_the_end(app, "backtracking")
    assert watch.solved and watch.trace_path is not None
    run = trace.read_trace(watch.trace_path)
    assert run.solver == "backtracking" and run.events >= watch.moves > 0     # moves, and heartbeats
    assert run.solution == watch.result.grid
    saved = panel.save_run()
    assert saved is not None and saved.read_bytes() == watch.trace_path.read_bytes()
    click(app, panel.rewind_button.rect.center)
    assert isinstance(app.overlay, ReplayScene) and app.overlay.run.events == run.events


def test_save_run_refuses_a_trace_that_is_no_longer_a_regular_file(app):
    # It copied whatever was there: a FIFO's bytes (or waited for a writer), /dev/zero until
    # the disk was full.
    import threading

    panel = app.play.solver
    watch = run_to_the_end(app, "backtracking")
    os.unlink(watch.trace_path)
    os.mkfifo(watch.trace_path)

    def feed():
        try:
            with open(watch.trace_path, "wb") as writer:
                writer.write(b"not a trace\n")
        except BrokenPipeError:          # the reader (the save's check, or ours below) closed first
            pass
    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    saved = panel.save_run()
    reader = os.open(watch.trace_path, os.O_RDONLY | os.O_NONBLOCK)     # lets a feeder still waiting go
    feeder.join(5)
    os.close(reader)
    assert saved is None and "Could not save the run: is not a regular file" in app.play.message
    assert [p.name for p in watch.trace_path.parent.iterdir() if p.name != watch.trace_path.name] == []


def test_a_long_window_run_keeps_its_latest_events_and_its_replay_says_the_start_was_dropped(app, monkeypatch):
    from tests.conftest import watch_text
    from window import solver_panel

    monkeypatch.setattr(solver_panel, "KEPT_EVENTS", 10_000)
    assert app.open_level(LEVEL)                            # backtracking: some 32,000 events
    panel = app.play.solver
    run_to_the_end(app, "backtracking", 60)
    watch = panel.watch
    run = trace.read_trace(watch.trace_path)
    assert watch.solved and run.solution == watch.result.grid
    assert run.dropped > 0 and run.events <= 10_000 + trace.HELD + 4096 and run.dropped + run.events > 30_000
    click(app, panel.rewind_button.rect.center)
    scene = app.overlay
    assert isinstance(scene, ReplayScene) and scene.run.events == run.events
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    assert any(f"first {run.dropped:,} events are not in the trace" in text for text, _ in drawn)
    scene.goto(0)
    assert scene.board() == trace.board_at(run, 0) != trace.board_at(run, run.events)


@pytest.mark.parametrize("solver", ["logic", "genetic"])
def test_a_window_run_records_what_solve_trace_records_with_its_seed_run_after_run(app, tmp_path, solver):
    from tests.test_trace import recorded

    assert app.open_level(LEVEL)
    panel = app.play.solver
    panel.choose(solver)
    for k in range(2):                                      # the second run: its seed is the next one
        run_to_the_end(app)
        run = trace.read_trace(panel.watch.trace_path)
        path = tmp_path / f"cli-{k}.jsonl"
        assert main.main(["solve", LEVEL, "--solver", solver, "--seed", str(run.seed), "--trace", str(path)]) == 0
        assert recorded(panel.watch.trace_path) == recorded(path)


def test_a_stopped_run_is_recorded_as_stopped(app):
    panel = app.play.solver
    panel.choose("backtracking")
    panel.set_speed(1)                                      # one move a second: it will be stopped
    assert panel.start()
    for _ in range(5):
        app.pump(0.5)
        time.sleep(0.05)
    panel.stop()
    run = trace.read_trace(panel.watch.trace_path)
    assert run.verdict == "stopped"
    # The solver ran ahead of the board (a queue of its events): the trace ends where the run
    # was seen, so Rewind opens on the board the window showed at the stop.
    assert panel.watch.moves > 0 and trace.board_at(run, run.events) == panel.watch.grid()
    assert run.events == panel.watch.events_shown


def test_the_players_own_play_rewinds_on_the_timeline(app):
    session = app.play.session
    free = [(r, c) for r in range(app.play.puzzle.rows) for c in range(app.play.puzzle.cols)
            if (r, c) not in app.play.puzzle.hints][:3]
    for r, c in free:
        click(app, app.play.layout.cell_rect(r, c).center)
    assert session.cursor == 3
    press(app, pygame.K_t)
    scene = app.overlay
    assert isinstance(scene, ReplayScene) and scene.run.solver == "player"
    assert scene.run.events == 3 and scene.run.verdict == "stopped"
    assert scene.board() == session.grid
    scene.goto(0)
    assert scene.board() == scene.run.start


def test_a_play_solved_by_its_ships_alone_rewinds_on_the_timeline(app):
    # The judge accepts a board whose ships are all marked, the rest left unknown: its
    # recording must read back, its solution with those cells as water.
    ships = [(0, 0), (0, 1), (0, 2), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)]
    for r, c in ships:
        click(app, app.play.layout.cell_rect(r, c).center, button=3)
    session = app.play.session
    assert session.solved and any(Cell.UNKNOWN in row for row in session.grid)
    press(app, pygame.K_t)
    scene = app.overlay
    assert isinstance(scene, ReplayScene), app.play.status.message
    assert scene.run.verdict == "solved" and scene.run.events == len(ships)


def test_a_genetic_run_replays_its_fitness_plot_and_best_fleet_as_they_were(app, tmp_path, capsys):
    assert app.open_replay(saved_run(tmp_path, capsys, "levels/10x10/expert/03.bs", "genetic"))
    scene = app.overlay
    generations = scene.timeline.generations
    assert len(generations) >= 2
    n, number, best, mean = generations[1]
    scene.goto(n)
    assert scene.stats_at()["generation"] == number and scene.stats_at()["best"] == best
    fleet = scene.fleet_at()
    cells = sum(size * count for size, count in scene.run.puzzle.fleet)
    assert fleet and sum(length for _, _, length, _ in fleet) == cells
    scene.goto(scene.run.events)
    assert scene.fleet_at() == [] and scene.board() == scene.run.solution
    app.draw()


def genetic_out_of_time(tmp_path, capsys):
    """A genetic run on the 30x20 giant stopped by its time-out: generations, no solution."""
    path = tmp_path / "genetic.jsonl"
    main.main(["solve", "levels/giants/02-30x20.bs", "--solver", "genetic", "--timeout", "1", "--trace", str(path)])
    capsys.readouterr()
    return path


def test_a_genetic_run_out_of_time_keeps_its_best_fleet_at_its_last_event(app, tmp_path, capsys):
    """Rewind opens a run at its end: one stopped or out of time has no solution to show
    there, so its last best fleet stays on the board (as the solver panel showed it)."""
    path = genetic_out_of_time(tmp_path, capsys)
    assert app.open_replay(path)
    scene = app.overlay
    assert scene.run.solution is None and scene.timeline.generations
    at_end = scene.fleet_at()
    assert scene.at == scene.run.events and at_end
    scene.goto(scene.timeline.generations[-1][0])          # the last generation's own fleet
    assert scene.fleet_at() == at_end
    app.draw()


def test_a_paused_run_rewinds_to_where_it_has_got(app):
    panel = app.play.solver
    panel.choose("backtracking")
    panel.set_speed(5)
    assert panel.start()
    for _ in range(10):
        app.pump(0.2)
        time.sleep(0.01)
    panel.run_or_pause()                                    # pause
    assert panel.watch.paused and panel.rewind_button.enabled
    click(app, panel.rewind_button.rect.center)
    scene = app.overlay
    assert isinstance(scene, ReplayScene) and scene.run.verdict == "stopped"
    assert panel.watch.moves > 0 and scene.at == scene.run.events
    assert scene.board() == panel.watch.grid() and scene.run.events == panel.watch.events_shown   # what was shown
    app.close_overlay()
    panel.stop()
    assert trace.read_trace(panel.watch.trace_path).verdict == "stopped"   # the recording went on to the stop


def test_a_paused_run_rewound_says_paused_and_a_stopped_one_stopped(app, monkeypatch):
    """The replay of a paused run's trace so far said "stopped", though the run went on."""
    panel = app.play.solver
    panel.choose("backtracking")
    panel.set_speed(5)
    assert panel.start()
    assert wait_until(lambda: panel.watch.moves >= 3, between=lambda: app.pump(0.2))
    panel.run_or_pause()                                    # pause
    drawn = watch_text(monkeypatch)
    click(app, panel.rewind_button.rect.center)
    app.draw()
    titles = [text for text, _ in drawn if text.startswith("Replay: ")]
    assert titles and titles[-1].endswith("events, paused") and panel.watch.status_text().endswith("paused")
    app.close_overlay()
    panel.stop()
    del drawn[:]
    click(app, panel.rewind_button.rect.center)
    app.draw()
    assert [text for text, _ in drawn if text.startswith("Replay: ")][-1].endswith("events, stopped")


def tally_bands(labels, rows, cols):
    """The centres of the tallies' labels of a board as (the rows' band, the columns' band): the
    rows' labels share one x, the columns' one y."""
    xs = {rect.centerx for rect in labels}
    rows_x = next(x for x in xs if sum(rect.centerx == x for rect in labels) == rows)
    rows_band = [rect.center for rect in labels if rect.centerx == rows_x]
    return rows_band, [rect.center for rect in labels if rect.centerx != rows_x][-cols:]


def test_the_replay_draws_the_tallies_on_the_sides_the_play_view_does(app, tmp_path, capsys, monkeypatch):
    """The replay (and the race's lanes, the same board) had the rows' tallies right of the
    cells and the columns' below, the play view left and above."""
    puzzle = app.play.puzzle
    tallies = {str(t) for t in (*puzzle.row_tallies, *puzzle.col_tallies)}
    drawn = watch_text(monkeypatch, only=app.screen)
    app.full_redraw = True
    app.draw()
    layout = app.play.layout
    played = [rect for text, rect in drawn if text in tallies and not layout.panel.colliderect(rect)]
    rows, cols = tally_bands(played, puzzle.rows, puzzle.cols)
    assert all(x < layout.board.left for x, _ in rows) and all(y < layout.board.top for _, y in cols)
    assert app.open_replay(saved_run(tmp_path, capsys))
    scene = app.overlay
    puzzle = scene.run.puzzle
    tallies = {str(t) for t in (*puzzle.row_tallies, *puzzle.col_tallies)}
    drawn = watch_text(monkeypatch, only=lambda: scene.picture._picture)
    resize(app, (640, 480))                                   # a new cell size: the board's picture drawn anew
    rows, cols = tally_bands([rect for text, rect in drawn if text in tallies], puzzle.rows, puzzle.cols)
    assert len(rows) == puzzle.rows and len(cols) == puzzle.cols
    assert max(x for x, _ in rows) < min(x for x, _ in cols)     # the rows' tallies left of the columns'
    assert max(y for _, y in cols) < min(y for _, y in rows)     # the columns' tallies above the rows'


@pytest.mark.parametrize("size", [(640, 480), (1000, 683), (1280, 860)])
def test_the_replay_s_buttons_stay_in_the_window_clear_of_each_other_and_the_plot(app, tmp_path, capsys, size):
    assert app.open_replay(saved_run(tmp_path, capsys))
    scene = app.overlay
    app.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    scene.relayout(size)
    window = pygame.Rect((0, 0), size)
    rects = [button.rect for button in scene.buttons]
    assert all(window.contains(rect) for rect in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(not rect.colliderect(scene.plot) and not rect.colliderect(scene.steps.rect) for rect in rects)
    assert all(button.shown()[0] == button.label for button in scene.buttons)      # every label whole


def test_exporting_a_gif_is_said_in_the_replay_itself(app, tmp_path, capsys, monkeypatch):
    # The replay covers the window, the play's status line with it: it says the outcome itself.
    from tests.conftest import watch_text

    pytest.importorskip("PIL")
    assert app.open_replay(saved_run(tmp_path, capsys, "levels/tutorial/first.bs"))
    scene = app.overlay
    drawn = watch_text(monkeypatch)
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    app.pump()
    said = [text for text, _ in drawn if text.startswith("Saved ") and text.endswith(".gif")]
    assert said and scene.said == said[-1]


def test_a_replay_whose_start_was_dropped_counts_the_decisions_taken_before_it(app, tmp_path, monkeypatch):
    # The depth at an event counts every decision in force; those taken before the trace's
    # first event are not in the file, and the list says how many they are, not fewer.
    from tests.conftest import watch_text
    from tests.test_trace import ROOT, kept_run
    from window.scenes.replay import Timeline

    level = ROOT / LEVEL
    whole_path, kept_path = tmp_path / "whole.jsonl", tmp_path / "kept.jsonl"
    kept_run(whole_path, level, None)
    kept = kept_run(kept_path, level, 10_000)
    assert kept.dropped > 0
    _, whole = Timeline.read(whole_path)
    _, timeline = Timeline.read(kept_path)
    deep = [n for n in range(1, kept.events + 1) if timeline.taken_before(n) > 0]
    assert deep                                            # some events sit on decisions taken before the drop
    for n in deep[:: max(1, len(deep) // 50)] + [kept.events]:
        before = [d for d in whole.guesses_at(kept.dropped + n) if d[0] <= kept.dropped]
        listed = timeline.guesses_at(n)
        assert timeline.taken_before(n) == len(before) and len(before) + len(listed) == timeline.depths[n]
        assert [(e + kept.dropped, *rest) for e, *rest in listed] == [
            d for d in whole.guesses_at(kept.dropped + n) if d[0] > kept.dropped]
    assert app.open_replay(kept_path)
    scene = app.overlay
    n = deep[len(deep) // 2]
    scene.goto(n)
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    earlier = timeline.taken_before(n)
    said = [text for text, _ in drawn if "taken before the trace begins" in text]
    assert len(said) == 1 and f"{earlier:,} taken before the trace begins" in said[0]
    shown = [text for text, _ in drawn if text.startswith("row ") and "(event " in text]
    hidden = len(timeline.guesses_at(n)) - len(shown)
    assert said[0] == (f"... {hidden + earlier:,} shallower ({earlier:,} taken before the trace begins)"
                       if shown else f"{earlier:,} taken before the trace begins")


@pytest.mark.parametrize("size", [(1100, 720), (800, 600)])
def test_the_replay_s_keys_read_whole_on_two_lines_at_the_window_s_foot(app, tmp_path, capsys, monkeypatch, size):
    # One line cut them at "Up, Down, Enter: th..." below about 1,000 pixels.
    from tests.conftest import resize, watch_text
    from window.scenes.replay import KEYS

    resize(app, size)
    assert app.open_replay(saved_run(tmp_path, capsys))
    drawn = watch_text(monkeypatch)
    app.full_redraw = True
    app.draw()
    lines = [(text, rect) for text, rect in drawn if rect.top > app.overlay.track.bottom]
    assert " ".join(text for text, _ in lines) == KEYS
    window = pygame.Rect((0, 0), size)
    assert all(window.contains(rect) for _, rect in lines)


def test_t_before_any_move_says_there_is_nothing_to_rewind(app):
    # It opened a replay of 0 events, its jump buttons and depth plot doing nothing.
    press(app, pygame.K_t)
    assert app.overlay is None and app.play.status.message.startswith("No moves yet")
    click(app, app.play.layout.cell_rect(0, 0).center)
    press(app, pygame.K_t)
    assert isinstance(app.overlay, ReplayScene) and app.overlay.run.events == 1
