"""The race scene under any clicks, keys, speed drags, starts, stops, solver choices, resizes,
file pickers and closes, in any order (a seeded random session of real pygame events): nothing
raises, the lanes' threads are bounded and end promptly after a stop, a close or a quit, the
queues keep their bound, every "solved" in the ranked table is the judge's, and the window draws."""

import os
import random
import subprocess
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import rules  # noqa: E402
from game.puzzle import grid_from_strings  # noqa: E402
from tests.conftest import resize, watch_text  # noqa: E402
from tests.test_ui_play import click, press  # noqa: E402
from tests.test_ui_play_fuzz import wait  # noqa: E402
from window.app import DEFAULT_LEVEL  # noqa: E402
from window.scenes.files import FileScene  # noqa: E402
from window.scenes.race import MOST_LANES, RaceScene  # noqa: E402
from window.settings import MIN_WINDOW  # noqa: E402
from window.solver_watch import POLL_BATCH  # noqa: E402

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT
# Every key the race scene handles, the window's own (copy, paste, print) and a few it does not.
KEYS = [(pygame.K_RETURN, 0), (pygame.K_KP_ENTER, 0), (pygame.K_SPACE, 0), (pygame.K_s, CTRL), (pygame.K_l, 0),
        (pygame.K_1, 0), (pygame.K_2, 0), (pygame.K_3, 0), (pygame.K_4, 0), (pygame.K_5, 0), (pygame.K_9, 0),
        (pygame.K_1, CTRL), (pygame.K_LEFT, 0), (pygame.K_RIGHT, 0), (pygame.K_ESCAPE, 0), (pygame.K_c, CTRL),
        (pygame.K_v, CTRL), (pygame.K_p, CTRL), (pygame.K_s, 0), (pygame.K_TAB, 0), (pygame.K_v, 0),
        (pygame.K_UP, 0), (pygame.K_DOWN, 0), (pygame.K_l, CTRL), (pygame.K_RETURN, SHIFT)]
LEVELS = (DEFAULT_LEVEL, "levels/8x8/hard/01.bs", "levels/10x10/hard/01.bs", "levels/15x15/expert/04.bs",
          "levels/giants/09-40x40.bs")
RESIZE_EVENTS = ((pygame.VIDEORESIZE,), (pygame.VIDEORESIZE, pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED),
                 (pygame.WINDOWSIZECHANGED,), (pygame.WINDOWRESIZED,))
WINDOW_EVENTS = (pygame.event.Event(pygame.WINDOWEXPOSED), pygame.event.Event(pygame.WINDOWSHOWN),
                 pygame.event.Event(pygame.WINDOWRESTORED), pygame.event.Event(pygame.WINDOWFOCUSLOST),
                 pygame.event.Event(pygame.WINDOWMINIMIZED), pygame.event.Event(pygame.ACTIVEEVENT, gain=0, state=2),
                 pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0),
                 pygame.event.Event(pygame.TEXTINPUT, text="1"), pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN,
                                                                                     mod=0, unicode="", scancode=0))
STOP_SECONDS = 0.5          # every lane's thread ends this soon after a stop
QUIT_SECONDS = 1.0          # and every one after the window closes
# Solvers of one's own: one that never answers, one whose answer the judge rejects.
ENDLESS = "def solve(puzzle, report, options):\n    while True:\n        pass\n"
LIAR = ('LABEL = "Liar"\n\ndef solve(puzzle, report, options):\n'
        '    report.set(0, 0, "water", "forced")\n    return ["." * puzzle.cols] * puzzle.rows\n')


class Figures:
    """What a session did (the slow run prints them)."""

    def __init__(self) -> None:
        self.steps = self.starts = self.finished = self.stops = self.closes = self.solved_rows = 0


def race_scene(app):
    return app.overlay if isinstance(app.overlay, RaceScene) else None


def new_threads(before, name=None):
    """The threads started since ``before`` still alive (those named ``name``: the lanes' are "solver")."""
    return [t for t in threading.enumerate() if t not in before and t.is_alive() and name in (None, t.name)]


def lanes_end(lanes, seconds):
    """True once no lane's worker is alive, waiting up to ``seconds`` (without frames: a stop
    needs none)."""
    deadline = time.perf_counter() + seconds
    while any(lane.working for lane in lanes):
        if time.perf_counter() > deadline:
            return False
        time.sleep(0.005)
    return True


def random_pos(app, rng, scene):
    """Anywhere in the window, or in a part of the scene: a lane (its board most often), the
    table, a button, the speed slider."""
    width, height = app.window_size
    places = [pygame.Rect(0, 0, width, height)]
    if scene is not None:
        places += [*scene.lane_rects, scene.table_box(), *(b.rect for b in scene.buttons), scene.speed.rect]
    place = rng.choice(places)
    if place in getattr(scene, "lane_rects", ()) and rng.random() < 0.6:
        place = pygame.Rect(place.x + 10, place.y + 58, place.width - 20, max(1, place.height * 3 // 5 - 58))
    return (rng.randint(place.left, max(place.left, place.right - 1)),
            rng.randint(place.top, max(place.top, place.bottom - 1)))


def check_texts(app, scene, drawn):
    """A whole drawing of the scene: every text in the window, a lane's texts in its lane,
    the lanes apart from each other, from the controls and from the table."""
    window = pygame.Rect((0, 0), app.window_size)
    assert drawn, "the scene drew no text"
    assert [text for text, rect in drawn if not window.contains(rect)] == [], "a text outside the window"
    lanes = scene.lane_rects if scene.lanes else []      # (no lanes: one place kept for the first)
    for lane in lanes:
        across = [(text, rect) for text, rect in drawn if rect.colliderect(lane) and not lane.contains(rect)]
        assert across == [], f"texts across the edge of the lane at {lane}: {across}"
    parts = [*lanes, *(button.rect for button in scene.buttons), scene.speed.rect]
    if scene.finished:
        parts.append(scene.table_box())
    assert [(a, b) for n, a in enumerate(parts) for b in parts[n + 1:] if a.colliderect(b)] == [], \
        "parts of the scene overlap"


def check_whole(app, scene, puzzle, rng, drawn):
    """The invariants after every step."""
    assert app.running
    if scene is not None:
        assert len(scene.lanes) <= MOST_LANES and len(scene.chosen) <= MOST_LANES
        assert len(set(scene.chosen)) == len(scene.chosen)
        for lane in scene.lanes:
            waiting = lane._run._queue
            assert waiting.qsize() <= waiting.maxsize, "a lane's queue is over its bound"
            assert len(lane._pending) <= POLL_BATCH, "a lane took more events than a poll's batch"
            if lane.solved:
                assert rules.judge(puzzle, lane.grid()).solved, f"{lane.name} shows a board the judge rejects"
            if lane.finished:                    # a finished lane's figures are its own, as they ended
                lines = scene._stat_lines(lane)
                assert lines[:2] == [f"time: {lane.elapsed:.2f} s", f"moves: {lane.moves:,}"], (lane.name, lines)
        for record in scene.records():
            if record["verdict"] == "solved":
                assert rules.judge(puzzle, grid_from_strings(record["solution"])).solved, \
                    f"the table calls {record['solver']}'s board solved, the judge does not"
    drawn.clear()
    if scene is not None and rng.random() < 0.2:
        app.full_redraw = True
    full = app.full_redraw or scene is None
    app.draw()
    if scene is not None and app.overlay is scene:       # the buttons' states are set as the scene draws
        if full:
            check_texts(app, scene, drawn)
        assert scene.start_button.enabled == (not scene.running)
        assert scene.stop_button.enabled == scene.running
        assert scene.save_button.enabled == scene.finished
        assert not any(button.enabled for button in scene.toggles.values()) or not scene.running
    if scene is not None and app.overlay is scene and not scene.running and rng.random() < 0.3:
        # Nothing moves: what the frames drew, part by part, is what a whole drawing shows.
        whole = pygame.Surface(app.screen.get_size())
        assert scene.draw(whole, True) is None
        assert (pygame.surfarray.array3d(whole) == pygame.surfarray.array3d(app.screen)).all(), \
            "the screen differs from a whole drawing of the scene"
    pixels = pygame.surfarray.pixels2d(app.screen)
    try:
        assert (pixels[::5, ::5] != pixels[0, 0]).any(), "the window is one colour"
    finally:
        del pixels


def own_processes(solvers, seconds):
    """The processes running the solvers of one's own among ``solvers`` after up to ``seconds``."""
    deadline = time.perf_counter() + seconds
    while True:
        running = [name for name in solvers if name.endswith(".py") and
                   subprocess.run(["pgrep", "-f", name], capture_output=True).stdout]
        if not running or time.perf_counter() > deadline:
            return running
        time.sleep(0.02)


def stopped_promptly(scene, figures):
    """After a stop every lane is over and its worker ends within STOP_SECONDS, and so does
    the process of a solver of one's own."""
    figures.stops += 1
    assert not scene.running, "a lane runs on after Stop"
    assert lanes_end(scene.lanes, STOP_SECONDS), "a lane's thread outlived Stop"
    assert own_processes(list(scene.specs), STOP_SECONDS) == [], "a solver's process ran on"


def open_race(app, rng, log, solvers):
    """V, or the toolbar's Race (a race of ``solvers`` now and then, as loading one makes)."""
    how = rng.choice(("key", "key", "button", "solvers"))
    panel = app.play.solver
    if rng.random() < 0.2 and not panel.running:       # the side panel's run goes on under the race
        log.append(("panel run", panel.solver))
        click(app, panel.run_button.rect.center)
    log.append(("open race", how))
    if how == "solvers" and solvers:
        app.open_race(rng.sample(solvers, rng.randint(1, min(4, len(solvers)))))
        app.pump()
        return
    race_button = next((b for b in app.play.shown_toolbar if b.label == "Race" and b.rect.width), None)
    if how == "button" and race_button is not None:
        click(app, race_button.rect.center)
    else:
        press(app, pygame.K_v)


def one_step(app, rng, log, figures, solvers):
    scene = race_scene(app)
    if scene is None:
        if app.overlay is not None:            # the solver's file picker, left by Load (or what a
            log.append(("overlay", type(app.overlay).__name__))    # click after a close opened)
            own = [name for name in solvers if name.endswith(".py")]
            if own and isinstance(app.overlay, FileScene) and rng.random() < 0.5:   # one's own typed, Enter
                path = rng.choice(own)
                log.append(("type", path))
                for _ in range(len(app.overlay.typed)):
                    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="",
                                                         scancode=0))
                pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=path))
                press(app, pygame.K_RETURN)
                assert race_scene(app) is not None and race_scene(app).chosen[-1] == path, "the solver was not raced"
                return
            for _ in range(rng.choice((0, 1, 2))):
                pos = (rng.randrange(app.window_size[0]), rng.randrange(app.window_size[1]))
                log.append(("poke click", pos))
                click(app, pos)
                if app.overlay is None or race_scene(app):
                    return
            from_race = isinstance(app.overlay, FileScene) and app.overlay.cancel != app.close_overlay
            press(app, pygame.K_ESCAPE)
            assert race_scene(app) is not None or not from_race, "a race's file picker, cancelled, left the race"
            if app.overlay is not None and race_scene(app) is None:
                app.close_overlay()
                app.pump()
            return
        open_race(app, rng, log, solvers)
        return
    kind = rng.choices(["toggle", "start", "stop", "key", "slider", "click", "wait", "resize", "burst", "hover",
                        "save", "load", "close", "drop", "release", "window"],
                       [14, 12, 6, 18, 8, 14, 12, 4, 6, 4, 2, 2, 3, 1, 3, 3])[0]
    was_running, lanes = scene.running, list(scene.lanes)
    if kind == "toggle":
        name = rng.choice(list(scene.toggles))
        log.append(("toggle", name))
        click(app, scene.toggles[name].rect.center)
    elif kind == "start":
        how = rng.choice(("button", pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE))
        log.append(("start", how if how == "button" else pygame.key.name(how)))
        if how == "button":
            click(app, scene.start_button.rect.center)
        elif not scene.running:
            press(app, how)
    elif kind == "stop":
        how = rng.choice(("button", pygame.K_RETURN, pygame.K_SPACE))
        log.append(("stop", how if how == "button" else pygame.key.name(how)))
        if how == "button":
            click(app, scene.stop_button.rect.center)
        elif scene.running:
            press(app, how)
        if was_running:
            stopped_promptly(scene, figures)
    elif kind == "key":
        key, mod = rng.choice(KEYS)
        log.append(("key", pygame.key.name(key), mod))
        press(app, key, mod)
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and was_running:
            stopped_promptly(scene, figures)
    elif kind == "slider":
        rect = scene.speed.rect
        xs = [rng.randint(rect.left - 20, rect.right + 20) for _ in range(rng.randint(1, 5))]
        log.append(("slider", [x - rect.left for x in xs]))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(xs[0], rect.centery), button=1))
        for x in xs[1:]:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, rect.centery + rng.randint(-30, 30)),
                                                 rel=(1, 0), buttons=(1, 0, 0)))
        if rng.random() < 0.8:
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(xs[-1], rect.centery), button=1))
        app.pump()
        assert all(lane.speed == scene.speed.value for lane in scene.lanes), "a lane kept the old speed"
    elif kind == "click":
        pos, button = random_pos(app, rng, scene), rng.choice((1, 1, 1, 2, 3))
        log.append(("click", pos, button))
        click(app, pos, button)
    elif kind == "wait":
        seconds = rng.choice((0.0, 0.02, 0.1, 0.3))
        log.append(("wait", seconds))
        wait(app, seconds)
    elif kind == "resize":
        size = (rng.randint(MIN_WINDOW[0], 1600), rng.randint(MIN_WINDOW[1], 1000))
        kinds = rng.choice(RESIZE_EVENTS)
        log.append(("resize", size, [pygame.event.event_name(k) for k in kinds]))
        resize(app, size, kinds)
    elif kind == "burst":                      # several events in one frame: a fast hand, key repeat
        events = []
        for _ in range(rng.randint(2, 4)):
            if rng.random() < 0.5:
                key, mod = rng.choice(KEYS)
                if key == pygame.K_ESCAPE:
                    continue
                events.append(("key", pygame.key.name(key), mod))
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
            else:
                pos = random_pos(app, rng, scene)
                events.append(("click", pos))
                for kind_ in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                    pygame.event.post(pygame.event.Event(kind_, pos=pos, button=1))
        log.append(("burst", events))
        app.pump()
    elif kind == "hover":
        path = [random_pos(app, rng, scene) for _ in range(3)]
        log.append(("hover", path))
        speed = scene.speed.index
        for pos in path:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0)))
        app.pump()
        assert scene.speed.index == speed, "the mouse moved with no button held and the speed changed"
    elif kind == "save":
        how = rng.choice(("button", "key"))
        log.append(("save", how))
        click(app, scene.save_button.rect.center) if how == "button" else press(app, pygame.K_s, CTRL)
    elif kind == "load":
        how = rng.choice(("button", "key"))
        log.append(("load", how))
        click(app, scene.load_button.rect.center) if how == "button" else press(app, pygame.K_l)
    elif kind == "close":
        how = rng.choice(("button", "key", "app"))
        log.append(("close", how))
        if how == "button":
            click(app, scene.close_button.rect.center)
        elif how == "key":
            press(app, pygame.K_ESCAPE)
        else:
            app.close_overlay()
            app.pump()
        assert app.overlay is None
        figures.closes += 1
        stopped_promptly(scene, figures)
    elif kind == "drop":                       # a level dropped on the window closes the race
        level = rng.choice(LEVELS)
        log.append(("drop", level))
        pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=level))
        app.pump()
        assert race_scene(app) is None
        stopped_promptly(scene, figures)
    elif kind == "window":                     # the window shown again, the wheel, typed text
        event = rng.choice(WINDOW_EVENTS)
        log.append(("window", pygame.event.event_name(event.type)))
        pygame.event.post(event)
        app.pump()
    else:                                      # a press here, its release after other steps
        pos = random_pos(app, rng, scene)
        up = rng.random() < 0.5
        log.append(("up" if up else "down", pos))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP if up else pygame.MOUSEBUTTONDOWN, pos=pos,
                                             button=1))
        app.pump()
    figures.starts += bool(scene.lanes) and scene.lanes != lanes
    figures.finished += scene.finished and was_running


def end_session(app, rng, log, before, solvers):
    """Close the window one way or another, during a run or not: every worker ends within
    QUIT_SECONDS and the window closes promptly."""
    scene = race_scene(app)
    lanes = list(scene.lanes) if scene is not None else []
    how = rng.choice(("quit", "shutdown", "escape then quit"))
    log.append(("end", how, "running" if scene is not None and scene.running else "idle"))
    started = time.perf_counter()
    if how == "escape then quit" and scene is not None:
        press(app, pygame.K_ESCAPE)
    if how == "shutdown":
        app.shutdown()
    else:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        assert app.run() == 0
    assert time.perf_counter() - started < QUIT_SECONDS + 1.0, "the window took long to close"
    assert lanes_end(lanes, QUIT_SECONDS), "a lane's thread outlived the window"
    deadline = time.perf_counter() + QUIT_SECONDS
    while new_threads(before) and time.perf_counter() < deadline:
        time.sleep(0.01)
    assert not new_threads(before), f"threads outlived the window: {new_threads(before)}"
    assert own_processes(solvers, QUIT_SECONDS) == [], "a solver's process outlived the window"


def any_session(app, seed, steps, drawn, solvers=(), figures=None):
    """``drawn``: the texts drawn on the window (``watch_text``)."""
    rng = random.Random(seed)
    figures = figures or Figures()
    before = set(threading.enumerate())
    log: list = []
    try:
        level = rng.choice(LEVELS)
        log.append(("level", level))
        assert app.open_level(level)
        app.pump()
        puzzle = app.play.puzzle
        for _ in range(steps):
            scene = race_scene(app)
            lanes = list(scene.lanes) if scene is not None else []
            one_step(app, rng, log, figures, list(solvers))
            figures.steps += 1
            current = race_scene(app)
            if scene is not None and current is not scene:          # closed, reloaded, dropped on
                assert lanes_end(scene.lanes, STOP_SECONDS), "the lanes of a race that went away run on"
            if scene is not None and current is scene and lanes and scene.lanes != lanes:   # a new race
                assert lanes_end(lanes, STOP_SECONDS), "the lanes of the race before run on"
            puzzle = app.play.puzzle
            check_whole(app, current, puzzle, rng, drawn)
            live = new_threads(before, "solver")
            assert len(live) <= MOST_LANES + 1, f"{len(live)} solver threads at once"    # and the panel's
        scene = race_scene(app)
        if scene is not None and scene.finished:
            figures.solved_rows += sum(r["verdict"] == "solved" for r in scene.records())
        end_session(app, rng, log, before, solvers)
    except AssertionError as error:
        raise AssertionError(f"seed {seed}: {error}; steps: {log[-30:]}") from error
    except Exception as error:
        raise AssertionError(f"seed {seed}: {type(error).__name__}: {error}; steps: {log[-30:]}") from error
    return figures


def own_solvers(folder):
    endless, liar = folder / "endless_lane.py", folder / "liar_lane.py"
    endless.write_text(ENDLESS)
    liar.write_text(LIAR)
    return [str(endless), str(liar), "forward", "backtracking", "genetic", "logic"]


@pytest.mark.parametrize("seed", range(4))
def test_any_clicks_keys_and_closes_keep_the_race_whole(app, seed, tmp_path, monkeypatch):
    """Solvers chosen and dropped, Start and Stop by button and key, speed drags, clicks on the
    lanes and the table, resizes, the file picker, closes and quits during a run, in a seeded
    random order: nothing raises, the threads are bounded and end promptly, the queues keep
    their bound, the table's "solved" is the judge's, and the window draws."""
    any_session(app, seed, 60, watch_text(monkeypatch, lambda: app.screen), own_solvers(tmp_path) if seed == 3 else ())


@pytest.mark.slow
def test_any_clicks_keys_and_closes_keep_the_race_whole_long(tmp_path, monkeypatch):
    from window.app import App

    figures, defects, app = Figures(), [], None
    solvers = own_solvers(tmp_path)
    drawn = watch_text(monkeypatch, lambda: app.screen if app is not None else None)
    seeds = range(1000, 1040)
    for seed in seeds:
        monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / f"home{seed}"))
        app = App(window=(1100, 720))
        try:
            any_session(app, seed, 300, drawn, solvers if seed % 4 == 0 else (), figures)
        except AssertionError as error:
            defects.append(str(error))
        finally:
            if pygame.display.get_init():
                app.shutdown()
    print(f"\nrace fuzz: {len(seeds)} sessions, {figures.steps} steps, {figures.starts} races started, "
          f"{figures.finished} finished while watched, {figures.stops} stops, {figures.closes} closes, "
          f"{figures.solved_rows} solved rows judged at the end, {len(defects)} defects found")
    assert not defects, "\n".join(defects)
