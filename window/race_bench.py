"""``main.py bench --window LEVEL``: the race at full speed in the real window, its frame times.

Runs the window's own loop (``App.run``) with the race scene at "instant" until every lane has
finished or the time is up, headless when there is no display. Frame time is the interval
between the starts of two frames, so it counts drawing, the solvers' share and the wait for
the next tick alike.
"""

from __future__ import annotations

import os
import time
from typing import Sequence

from solvers.engine.batch import percentile


class _Until:
    """App.run's script: end when the race is over or after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.perf_counter() + seconds
        self.moves = 0
        self.lanes = 0

    def check(self, app) -> int | None:
        scene = app.overlay
        over = scene is None or not scene.running or time.perf_counter() > self.deadline
        if over and scene is not None:
            scene.stop()
            self.moves = sum(lane.moves for lane in scene.lanes)
            self.lanes = len(scene.lanes)
        return 0 if over else None


def run(level: str, solvers: Sequence[str] | None = None, seconds: float = 30.0) -> dict:
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from window.app import App
    from window.scenes.race import RaceScene

    app = App()
    if not app.open_level(level):
        app.shutdown()
        raise ValueError(app.startup_message)
    app.open_race(solvers)
    scene = app.overlay
    assert isinstance(scene, RaceScene)         # the level is open (above), so open_race opened the race
    scene.start()
    script = _Until(seconds)
    started = time.perf_counter()
    app.run(script)
    elapsed = time.perf_counter() - started
    starts = [start for start, _ in app.frame_times]
    gaps = [(b - a) * 1000 for a, b in zip(starts, starts[1:])]
    span = starts[-1] - starts[0] if len(starts) > 1 else elapsed
    return {"level": level, "solvers": list(scene.chosen), "lanes": script.lanes, "frames": len(starts),
            "fps": round((len(starts) - 1) / span, 1) if span > 0 else 0.0,
            "frame_p50_ms": round(percentile(gaps, 0.5), 1), "frame_p95_ms": round(percentile(gaps, 0.95), 1),
            "frame_max_ms": round(max(gaps, default=0.0), 1), "events_per_s": round(script.moves / elapsed),
            "seconds": round(elapsed, 2)}
