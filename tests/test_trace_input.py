"""A trace read as the level reader reads a level: regular files only, every value's type and
range checked, one line ``file:line: problem`` and exit 2; a trace changed under an open replay
said on its status line; the replay's memory independent of what the sentences hold."""

import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

import main  # noqa: E402
from game import levels  # noqa: E402
from game.levels import LevelError  # noqa: E402
from game.limits import MAX_TRACE_TEXT  # noqa: E402
from game.puzzle import grid_to_strings, initial_grid  # noqa: E402
from solvers.engine import trace  # noqa: E402
from solvers.events import Generation, Result, Ship, Status  # noqa: E402
from tests.test_ui_play import press  # noqa: E402
from window.scenes.replay import Timeline  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"


def genetic_trace(path: Path) -> Path:
    """A short trace of two generations, as the genetic solver writes them."""
    puzzle = levels.load(LEVEL)
    with open(path, "w", encoding="utf-8") as handle:
        writer = trace.TraceWriter(handle, puzzle, "genetic", {}, 0)
        for number in (1, 2):
            writer.event(Generation(number, 3.0, 7.5, (Ship(0, 0, 2, True), Ship(2, 5, 3, False))))
        writer.result(Result(Status.STOPPED, None, {"seconds": 0.1}))
    return path


def edited(path: Path, line: int, edit) -> Path:
    lines = [json.loads(text) for text in path.read_text().splitlines()]
    edit(lines[line - 1])
    path.write_text("".join(json.dumps(item) + "\n" for item in lines))
    return path


def stat_of(key, value):
    return lambda line: line["stats"].__setitem__(key, value)


def ship(index, value):
    return lambda line: line["fleet"].__setitem__(index, value)


LONG = "x" * (MAX_TRACE_TEXT + 1)
BAD = [
    (2, stat_of("generation", "abc"), "stats.generation must be a whole number"),
    (2, stat_of("generation", -1), "stats.generation must be a whole number"),
    (2, stat_of("generation", 1.5), "stats.generation must be a whole number"),
    (2, stat_of("best", {"x": 1}), "stats.best must be a number or null"),
    (2, stat_of("best", "high"), "stats.best must be a number or null"),
    (2, stat_of("mean", True), "stats.mean must be a number or null"),
    (2, lambda line: line.pop("stats"), "a generation has stats"),
    (2, ship(0, [0, 0, 10 ** 15, "h"]), "is not on the 6x6 board"),
    (2, ship(0, [0, 5, 2, "h"]), "is not on the 6x6 board"),
    (2, ship(1, [5, 0, 2, "v"]), "is not on the 6x6 board"),
    (2, ship(0, [-1, 0, 1, "h"]), "is not on the 6x6 board"),
    (2, ship(0, [0, 0, 0, "h"]), "is not on the 6x6 board"),
    (2, ship(0, [0, 0, 1, "d"]), "fleet must be a list of"),
    (3, lambda line: line.__setitem__("fleet", [[0, 0, 1, "h"]] * 201), "at most 200 ships"),
    (2, lambda line: line.__setitem__("detail", LONG), "detail is 1,001 characters"),
    (2, lambda line: line.__setitem__("detail", 5), "detail must be text"),
    (1, lambda line: line.__setitem__("solver", LONG), "solver is 1,001 characters"),
    (2, stat_of("note", LONG), "stats.note is 1,001 characters"),
    (2, lambda line: line["stats"].update({f"k{i}": i for i in range(300)}), "at most 256 are allowed"),
    (4, lambda line: line.__setitem__("message", LONG), "message is 1,001 characters"),
    (2, lambda line: line.__setitem__("kind", [[0, 0, 10 ** 15, "h"]]), "is not one of"),      # found by the fuzz
    (2, lambda line: line.__setitem__("cells", [{"row": 0, "col": 0, "state": ["ship"]}]), "is not ship, water"),
    (2, lambda line: line.__setitem__("n", "9" * 100_000), "event number is '99999"),
]


@pytest.mark.parametrize("line, edit, words", BAD, ids=[f"{k}-{words}" for k, (_, _, words) in enumerate(BAD)])
def test_a_trace_value_the_window_would_trip_on_is_refused_naming_file_and_line(tmp_path, capsys, line, edit,
                                                                                words):
    path = edited(genetic_trace(tmp_path / "run.jsonl"), line, edit)
    with pytest.raises(LevelError) as error:
        trace.read_trace(path)
    assert str(error.value).startswith(f"{path}:{line}: ") and words in str(error.value)
    assert main.main(["replay", str(path), "--print"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"{path}:{line}: ") and len(err) < len(str(path)) + 200


def test_a_well_formed_genetic_trace_is_read_and_replayed(tmp_path, app):
    path = genetic_trace(tmp_path / "run.jsonl")
    edited(path, 2, stat_of("best", None))              # no valid fleet in that generation: null
    assert app.open_replay(path)
    scene = app.overlay
    scene.goto(1)
    assert scene.fleet_at() == [[0, 0, 2, "h"], [2, 5, 3, "v"]]
    app.draw()


def test_a_trace_that_is_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "run.jsonl"
    os.mkfifo(fifo)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", BATTLESHIPS_HOME=str(tmp_path / "home"))
    for extra in (["--print"], []):
        done = subprocess.run([sys.executable, str(ROOT / "main.py"), "replay", str(fifo), *extra], env=env,
                              timeout=60, capture_output=True, text=True)
        assert done.returncode == 2 and "not a regular file" in done.stdout + done.stderr
    with pytest.raises(LevelError, match="is a folder, not a trace"):
        trace.read_trace(tmp_path)


@pytest.mark.parametrize("change", ["replaced", "cut", "removed", "fifo"])
def test_a_trace_changed_under_the_open_replay_is_said_not_raised(app, tmp_path, capsys, change):
    path = tmp_path / "run.jsonl"
    assert main.main(["solve", "levels/10x10/hard/01.bs", "--solver", "logic", "--trace", str(path)]) == 0
    capsys.readouterr()
    assert app.open_replay(path)
    scene = app.overlay
    scene.goto(2)
    app.draw()
    shown = scene.board()
    text = path.read_text()
    path.unlink()
    if change == "replaced":                           # another run of the same length, written anew
        path.write_text(text.replace('"state":"water"', '"state":"ship"'))
    elif change == "cut":
        path.write_text(text[:len(text) // 3])
    elif change == "fifo":
        os.mkfifo(path)
    for key in (pygame.K_RIGHT, pygame.K_END):
        press(app, key)
        app.draw()
    assert app.overlay is scene and "run.jsonl" in scene.problem
    assert scene.board() == shown                      # the last board read stays
    for key in (pygame.K_HOME, pygame.K_RIGHT, pygame.K_LEFT):
        press(app, key)
        app.draw()
    for k in range(min(40, len(scene.timeline.steps))):   # the steps' list is drawn from what was read
        scene.steps.rows[k]
    app.draw()


def logic_trace(path: Path, events: int, detail) -> Path:
    puzzle = levels.load(ROOT / "levels" / "10x10" / "hard" / "01.bs")
    start = list(grid_to_strings(initial_grid(puzzle)))
    header = {"format": trace.FORMAT, "version": 1, "solver": "logic", "options": {}, "seed": 0, "limit": 1,
              "level": levels.to_dict(puzzle), "start": start}
    unknown = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if start[r][c] == "?"]
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for n in range(1, events + 1):
            r, c = unknown[n % len(unknown)]
            out.write(json.dumps({"n": n, "kind": "forced", "cells": [{"row": r, "col": c, "state": "water"}],
                                  "depth": 0, "detail": detail(n)}) + "\n")
        out.write(json.dumps({"kind": "result", "verdict": "stopped", "solution": None, "stats": {},
                              "message": "", "events": events}) + "\n")
    return path


def timeline_bytes(path: Path) -> int:
    tracemalloc.start()
    try:
        run, timeline = Timeline.read(path)
        return tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def test_the_replays_memory_does_not_hold_the_sentences(tmp_path):
    events = 5_000
    short = timeline_bytes(logic_trace(tmp_path / "short.jsonl", events, lambda n: f"step {n}"))
    long = timeline_bytes(logic_trace(tmp_path / "long.jsonl", events, lambda n: f"step {n} " + "y" * 900))
    assert long - short < 100 * events                 # the long sentences (900 bytes each) stay in the file


def test_a_frame_reads_only_the_sentences_it_shows(app, tmp_path, monkeypatch):
    path = logic_trace(tmp_path / "run.jsonl", 20_000, lambda n: f"deduction number {n}")
    assert app.open_replay(path)
    scene = app.overlay
    assert len(scene.timeline.steps) == 20_000 and scene.timeline.steps[19_999][1] == "deduction number 20000"
    reads = []
    real = trace.line_at
    monkeypatch.setattr(trace, "line_at", lambda run, offset: reads.append(offset) or real(run, offset))
    scene.timeline.steps._read.clear()
    scene.goto(10_000)
    app.draw()
    first = len(reads)
    assert 0 < first <= scene.steps.rect.height // 30 + 2
    app.draw()
    assert len(reads) == first                         # the next frame reads nothing again


@pytest.mark.slow
def test_sigterm_while_a_long_trace_is_read_ends_the_replay_at_once(tmp_path):
    path = logic_trace(tmp_path / "long.jsonl", 600_000, lambda n: f"deduction number {n}")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", BATTLESHIPS_HOME=str(tmp_path / "home"))
    process = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "replay", str(path)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(3)                                  # started, and reading
        assert process.poll() is None
        process.send_signal(signal.SIGTERM)
        sent = time.perf_counter()
        # Ended as every command is by SIGTERM: the status a shell reports, and one line.
        assert process.wait(timeout=30) == 128 + signal.SIGTERM
        assert time.perf_counter() - sent < 2.0
        assert process.stderr.read().decode().strip() == "terminated"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
