"""Rewinding and replaying a recorded run, checked against a plain model: real runs of the
built-in solvers are recorded, then random goto / step / jump sequences drive the timeline and
the replay scene; after each one the board, depth, statistics, line and decisions in force must
be those the model computes from the trace's own lines, however the event was reached.

The default run tries a few dozen sequences; ``pytest -m slow`` runs a longer campaign.
"""

import atexit
import json
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from game import levels, rules  # noqa: E402
from game.puzzle import Cell, grid_from_strings  # noqa: E402
from game.session import Session  # noqa: E402
from solvers.common import unknown_as_water  # noqa: E402
from solvers.engine import trace  # noqa: E402
from window.scenes.replay import ReplayScene, Timeline  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MADE_UP = {
    "two-solutions": {"size": 3, "fleet": {"1": 2}, "board": {}, "row_numbers": [1, 0, 1], "col_numbers": [1, 0, 1]},
    "no-solution": {"size": 3, "fleet": {"1": 2}, "board": {}, "row_numbers": [1, 1, 0], "col_numbers": [2, 0, 0]},
    "one-ship": {"size": 4, "fleet": {"2": 1}, "board": {}, "row_numbers": [0, 2, 0, 0],
                 "col_numbers": [0, 1, 1, 0]},
}
LEVELS = ("6x6/easy/01", "6x6/hard/01", "6x6/expert/02", "8x8/easy/01", "8x8/medium/01", "8x8/expert/01")
SOLVERS = (("backtracking", 0), ("forward", 0), ("logic", 0), ("genetic", 1), ("genetic", 7))
RUNS = [(level, solver, seed) for level in LEVELS + tuple(MADE_UP) for solver, seed in SOLVERS]
JUMPS = ("guess", "backtrack", "dead end", "solution")
KEYS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_HOME: "home", pygame.K_END: "end",
        pygame.K_g: "guess", pygame.K_b: "backtrack", pygame.K_d: "dead end", pygame.K_s: "solution"}


def puzzle_of(level: str):
    if level in MADE_UP:
        return levels.from_dict(MADE_UP[level], level)
    return levels.load(ROOT / "levels" / f"{level}.bs")


@cache
def folder() -> Path:
    # Kept for the session (the replay reads the trace files again), removed at its end.
    path = Path(tempfile.mkdtemp(prefix="replay-model-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


class Model:
    """What each event of a trace is, computed from its lines alone (no reader, no timeline)."""

    def __init__(self, path: Path) -> None:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        header, self.result, self.lines = lines[0], lines[-1], [{}] + lines[1:-1]
        self.events = len(self.lines) - 1
        board = [list(row) for row in grid_from_strings(header["start"])]
        state = {"ship": Cell.SHIP, "water": Cell.WATER, "unknown": Cell.UNKNOWN}
        self.boards = [tuple(map(tuple, board))]
        self.depths, self.stats, self.in_force = [0], [{}], [()]
        stack: list[tuple[int, tuple[int, int], bool]] = []
        previous: dict = {}
        self.fleets: list = [[]]
        self.steps: list[int] = []              # an explained step starts where its sentence changes
        self.marks: dict[str, list[int]] = {"guess": [], "backtrack": []}
        sentence = ""
        explains = header["solver"] == "logic"
        for n, line in enumerate(self.lines[1:], 1):
            for cell in line["cells"]:
                board[cell["row"]][cell["col"]] = state[cell["state"]]
            self.boards.append(tuple(map(tuple, board)))
            depth = line.get("depth", self.depths[-1])
            self.depths.append(depth)
            self.stats.append(line["stats"] if line.get("stats") else self.stats[-1])
            # The decisions in force: one per depth; a guess starts one unless the event before
            # was a guess at the same depth (a ship placed cell by cell is one decision).
            del stack[depth:]
            # A guess or backtrack event starts a step unless the event before was one of its
            # kind at the same depth (a ship placed or taken back cell by cell is one step).
            starts = line["kind"] in ("guess", "backtrack") and not (
                previous.get("kind") == line["kind"] and previous.get("depth") == depth)
            if starts:
                self.marks[line["kind"]].append(n)
            if line["kind"] == "guess" and starts:
                first = line["cells"][0] if line["cells"] else {"row": 0, "col": 0, "state": "water"}
                del stack[depth - 1:]
                stack.append((n, (first["row"], first["col"]), first["state"] == "ship"))
            self.in_force.append(tuple(stack))
            self.fleets.append(line["fleet"] if line["kind"] == "generation" else self.fleets[-1])
            if explains and line.get("detail") and line["detail"] != sentence:
                self.steps.append(n)
                sentence = line["detail"]
            if "depth" in line:                 # a heartbeat between two cells of a guess does not part them
                previous = line
        kinds = [line.get("kind") for line in self.lines]
        self.marks["dead end"] = [n for n in range(1, self.events)
                                  if kinds[n + 1] == "backtrack" and kinds[n] != "backtrack"]
        self.marks["found"] = [n for n in range(1, self.events + 1) if kinds[n] == "found"]
        self.solution_at = (self.marks["found"] or [self.events])[0]
        if self.result["stats"]:
            self.stats[-1] = self.result["stats"]   # at the last event, the run's final figures
        if self.result["solution"] is not None:
            self.fleets[-1] = []                # at the end of a solved run the board is its answer

    def jump(self, now: int, what: str, forward: bool) -> int:
        if what == "solution":
            return self.solution_at
        marks = self.marks[what]
        later = [n for n in marks if n > now] if forward else [n for n in marks if n < now]
        return (later[0] if forward else later[-1]) if later else now


@cache
def recorded(level: str, solver: str, seed: int):
    """The run saved as a trace, read back: (trace, timeline, model)."""
    path = folder() / f"{level.replace('/', '-')}-{solver}-{seed}.jsonl"
    trace.record_run(puzzle_of(level), solver, path, seed=seed, timeout=1.0)
    run, timeline = Timeline.read(path)
    return run, timeline, Model(path)


def check_run_end(run, model) -> None:
    """The last event's board is the run's result; a solved one is accepted by the judge."""
    assert run.events == model.events == model.result["events"]
    last = trace.board_at(run, run.events)
    assert last == model.boards[-1]
    if run.verdict == "solved":
        assert unknown_as_water(last) == run.solution == grid_from_strings(model.result["solution"])
        assert rules.judge(run.puzzle, run.solution).solved
    else:
        assert run.solution is None and model.result["solution"] is None


def check_at(scene: ReplayScene, model: Model) -> None:
    n = scene.at
    assert 0 <= n <= model.events
    assert scene.board() == model.boards[n] == trace.board_at(scene.run, n)
    assert scene.timeline.depths[n] == model.depths[n]
    assert scene.stats_at() == model.stats[n]
    assert scene.event() == model.lines[n]
    assert [(e, cell, ship) for e, cell, ship, _ in scene.guesses_in_force()] == list(model.in_force[n])
    assert [tuple(ship) for ship in scene.fleet_at()] == [tuple(ship) for ship in model.fleets[n]]
    timeline = scene.timeline
    for what in JUMPS:                          # from here, every jump lands where the model says
        for forward in (True, False):
            assert timeline.jump(n, what, forward) == model.jump(n, what, forward), (what, forward)
    if timeline.explains:
        assert list(timeline.steps.events) == model.steps
        k = timeline.steps.current(n)
        assert k == sum(1 for first in model.steps if first <= n) - 1


operations = st.lists(st.one_of(
    st.tuples(st.just("goto"), st.integers(-3, 10 ** 6)),
    st.tuples(st.just("goto-near-end"), st.integers(-3, 3)),
    st.tuples(st.just("goto-near-mark"), st.tuples(st.sampled_from(["guess", "backtrack", "dead end", "found"]),
                                                   st.integers(0, 10 ** 6), st.integers(-2, 2))),
    st.tuples(st.just("step"), st.sampled_from([-100, -1, 1, 100])),
    st.tuples(st.just("jump"), st.tuples(st.sampled_from(JUMPS), st.booleans())),
    st.tuples(st.just("end"), st.sampled_from([0, 1])),
    st.tuples(st.just("slider"), st.floats(-0.1, 1.1)),
    st.tuples(st.just("step list"), st.integers(0, 10 ** 6)),
    st.tuples(st.just("key"), st.tuples(st.sampled_from(sorted(KEYS)), st.booleans())),
), max_size=25)


def drive(app, run, timeline, model, ops) -> None:
    scene = ReplayScene(app, run, timeline)
    check_at(scene, model)
    for op, arg in ops:
        before = scene.at
        if op == "goto":
            scene.goto(arg % (model.events + 1) if arg >= 0 else arg)
        elif op == "goto-near-end":
            scene.goto(model.events + arg)
        elif op == "goto-near-mark":
            what, k, offset = arg
            marks = model.marks[what] or [0]
            scene.goto(marks[k % len(marks)] + offset)
        elif op == "step":
            scene.goto(scene.at + arg)
        elif op == "jump":
            what, forward = arg
            scene.jump(what, forward)
            assert scene.at == model.jump(before, what, forward)
            assert timeline.jump(before, what, forward) == scene.at
        elif op == "end":
            scene.goto(model.events if arg else 0)
        elif op == "slider":
            x = scene.track.x + round(arg * scene.track.width)
            scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, scene.track.centery)))
            scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x, scene.track.centery)))
        elif op == "step list" and len(timeline.steps):
            k = arg % len(timeline.steps)
            n, text = timeline.steps[k]
            scene.goto(n)
            assert text == model.lines[n]["detail"] and timeline.steps.current(n) == k
        elif op == "key":
            key, shift = arg
            scene.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=pygame.KMOD_SHIFT if shift else 0,
                                            unicode="", scancode=0))
            meaning = KEYS[key]
            if isinstance(meaning, int):
                expected = max(0, min(model.events, before + meaning * (100 if shift else 1)))
            elif meaning in ("home", "end"):
                expected = 0 if meaning == "home" else model.events
            else:
                expected = model.jump(before, meaning, meaning == "solution" or not shift)
            assert scene.at == expected
        check_at(scene, model)
        # Going there from the start gives the same as going there from wherever it was.
        fresh = ReplayScene(app, run, timeline)
        fresh.goto(0)
        fresh.goto(scene.at)
        assert fresh.board() == scene.board() and fresh.stats_at() == scene.stats_at()
        assert fresh.guesses_in_force() == scene.guesses_in_force()
    for n in (0, model.events):                 # nothing raises at the ends
        scene.goto(n)
        scene.draw(app.screen)
        assert not scene.problem


def test_every_recorded_run_ends_on_its_result():
    for level, solver, seed in RUNS:
        run, _, model = recorded(level, solver, seed)
        check_run_end(run, model)
    verdicts = {level: recorded(level, "backtracking", 0)[0].verdict for level in MADE_UP}
    assert verdicts == {"two-solutions": "solved", "no-solution": "no_solution", "one-ship": "solved"}


def test_the_model_sees_every_jump_kind():
    """The runs exercise what the jumps look for: guesses, backtracks, dead ends, solutions."""
    seen = set()
    for level, solver, seed in RUNS:
        model = recorded(level, solver, seed)[2]
        seen |= {what for what in ("guess", "backtrack", "dead end") if model.marks[what]}
        seen |= {"solution"} if model.marks["found"] else set()
    assert seen == set(JUMPS)


def test_every_jump_from_every_event_of_the_short_runs():
    for level, solver, seed in RUNS:
        _, timeline, model = recorded(level, solver, seed)
        if model.events <= 1000:
            for n in range(model.events + 1):
                for what in JUMPS:
                    for forward in (True, False):
                        assert timeline.jump(n, what, forward) == model.jump(n, what, forward), (level, solver, n)


def replay_property(app, data) -> None:
    level, solver, seed = data.draw(st.sampled_from(RUNS))
    run, timeline, model = recorded(level, solver, seed)
    drive(app, run, timeline, model, data.draw(operations))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_replay_agrees_with_the_model(app, data):
    replay_property(app, data)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_replay_agrees_with_the_model_long(app, data):
    replay_property(app, data)


plays = st.lists(st.one_of(
    st.tuples(st.just("set"), st.tuples(st.integers(0, 5), st.integers(0, 5),
                                        st.sampled_from([Cell.SHIP, Cell.WATER, Cell.UNKNOWN]))),
    st.sampled_from([("open", None), ("keep", None), ("abandon", None), ("undo", None), ("redo", None),
                     ("restart", None)]),
), max_size=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(play=plays, data=st.data())
def test_a_replayed_play_agrees_with_the_model(app, play, data):
    """A player's play saved as a trace (moves, trials opened, kept and abandoned, undone)
    replays to the board the play ended on, through any goto, step and jump."""
    puzzle = puzzle_of("6x6/easy/01")
    session = Session(puzzle)
    for op, arg in play:
        if op == "set":
            session.set_cell(*arg)
        else:
            getattr(session, {"open": "open_trial", "keep": "keep_trial", "abandon": "abandon_trial"}.get(op, op))()
    path = folder() / "play.jsonl"
    trace.record_play(path, puzzle, session.history[:session.cursor], session.solved_now)
    run, timeline = Timeline.read(path)
    model = Model(path)
    check_run_end(run, model)
    assert model.boards[-1] == tuple(tuple(session.cell(r, c) for c in range(puzzle.cols)) for r in range(puzzle.rows))
    drive(app, run, timeline, model, data.draw(operations))
