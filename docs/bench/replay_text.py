"""The window's cost of long names and of an explaining solver's long trace (figures for
docs/design/window-text.md).

Usage, from the repository's top folder (each measurement in a fresh process):

    python docs/bench/replay_text.py frames --name-length 100000 [--frames 20]
    python docs/bench/replay_text.py replay --events 1000000 [--frames 20]

``frames`` opens a level whose name is ``--name-length`` characters long (a copy of a 10x10
level in a temporary folder) in the play window, and a trace with that name in the replay,
and prints the median time of a full redraw of each. ``replay`` writes a logic trace of
``--events`` forced moves, each with its own sentence (about 63 bytes per event, as the
issue measured), opens it in the replay, and prints the process's memory before and after
(resident set, MB), its peak, and the median time of a frame while scrubbing (the timeline
moved by one event before each frame) and while still. Both run headless (SDL's dummy
driver); the figures are of this one machine and sitting, to be compared as ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
TOP = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TOP))

LEVEL = TOP / "levels" / "10x10" / "hard" / "01.bs"


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_trace(path: Path, events: int, name: str = "replay bench") -> None:
    """A logic trace of ``events`` forced moves, each with a sentence of its own."""
    level = json.loads(LEVEL.read_text())
    level["name"] = name
    from game import levels
    from game.puzzle import grid_to_strings, initial_grid

    puzzle = levels.from_dict(level, str(LEVEL))
    start = list(grid_to_strings(initial_grid(puzzle)))
    unknown = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if start[r][c] == "?"]
    header = {"format": "battleship-solitaire-trace", "version": 1, "solver": "logic", "options": {},
              "seed": 0, "limit": 1, "level": levels.to_dict(puzzle), "start": start}
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
        for n in range(1, events + 1):
            r, c = unknown[n % len(unknown)]
            state = "water" if n // len(unknown) % 2 == 0 else "unknown"
            detail = f"deduction {n:07d}: row {r + 1} is full, so its cell is water"
            out.write(f'{{"n":{n},"kind":"forced","cells":[{{"row":{r},"col":{c},"state":"{state}"}}],'
                      f'"depth":0,"detail":"{detail}"}}\n')
        out.write(json.dumps({"kind": "result", "verdict": "stopped", "solution": None, "stats": {},
                              "message": "", "events": events}) + "\n")


def frame_time(app, frames: int, move=None) -> float:
    times = []
    for k in range(frames):
        if move is not None:
            move(k)
        app.full_redraw = True
        started = time.perf_counter()
        app.draw()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cmd_frames(length: int, frames: int) -> None:
    from window.app import App

    name = ("a long level name " * (length // 18 + 1))[:length]
    folder = Path(tempfile.mkdtemp())
    level = json.loads(LEVEL.read_text())
    level["name"] = name
    (folder / "long.bs").write_text(json.dumps(level))
    write_trace(folder / "long.jsonl", 2000, name)
    app = App()
    try:
        assert app.open_level(folder / "long.bs"), app.startup_message
        play = frame_time(app, frames)
        app.open_replay(folder / "long.jsonl")
        replay = frame_time(app, frames, lambda k: app.overlay.goto(k * 7))
    finally:
        app.shutdown()
    print(f"name of {length:,} characters: play frame {play * 1000:.2f} ms, replay frame {replay * 1000:.2f} ms")


def cmd_replay(events: int, frames: int) -> None:
    from window.app import App

    path = Path(tempfile.mkdtemp()) / "logic.jsonl"
    write_trace(path, events)
    size = path.stat().st_size
    app = App()
    try:
        before = rss_mb()
        started = time.perf_counter()
        assert app.open_replay(path), app.startup_message
        opened = time.perf_counter() - started
        scene = app.overlay
        scene.goto(events // 2)
        app.draw()
        after = rss_mb()
        scrub = frame_time(app, frames, lambda k: scene.goto(events // 2 + k + 1))
        still = frame_time(app, frames)
    finally:
        app.shutdown()
    print(f"{events:,} events ({size / 1e6:.0f} MB trace): opened in {opened:.1f} s; memory {before:.0f} MB "
          f"before, {after:.0f} MB after ({(after - before) * 1e6 / events:.1f} MB per million events), "
          f"peak {peak_mb():.0f} MB; frame {scrub * 1000:.1f} ms scrubbing, {still * 1000:.1f} ms still")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("frames", "replay"))
    parser.add_argument("--name-length", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--frames", type=int, default=20)
    args = parser.parse_args()
    if args.what == "frames":
        cmd_frames(args.name_length, args.frames)
    else:
        cmd_replay(args.events, args.frames)


if __name__ == "__main__":
    main()
