"""Frame times while a solver streams at full speed on a 15x15 board (slow: pytest -m slow)."""

import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pytest  # noqa: E402

from game.puzzle import DEFAULT_FLEETS, Puzzle  # noqa: E402
from window import app as app_module  # noqa: E402


def random_hintless_15x15(seed: int = 0) -> Puzzle:
    """A fleet placed at random, tallies only: plenty of search for the forward solver."""
    rng = random.Random(seed)
    size, taken, blocked = 15, set(), set()
    for length, count in DEFAULT_FLEETS[15]:
        for _ in range(count):
            while True:
                across = rng.random() < 0.5
                r = rng.randrange(size - (0 if across else length - 1))
                c = rng.randrange(size - (length - 1 if across else 0))
                cells = [(r, c + i) if across else (r + i, c) for i in range(length)]
                if not any(cell in blocked for cell in cells):
                    break
            taken |= set(cells)
            blocked |= {(a + i, b + j) for a, b in cells for i in (-1, 0, 1) for j in (-1, 0, 1)}
    rows = [sum((r, c) in taken for c in range(size)) for r in range(size)]
    cols = [sum((r, c) in taken for r in range(size)) for c in range(size)]
    return Puzzle(size, size, rows, cols, DEFAULT_FLEETS[15], {}, name="random 15x15")


@pytest.mark.slow
def test_frames_stay_short_while_a_solver_streams(tmp_path, monkeypatch):
    pytest.importorskip("solvers.search.forward")
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(app_module, "SCRIPTED_RUN_LIMIT", 20.0)
    window = app_module.App(window=(1200, 820))
    window.play = app_module.PlayScene(window, random_hintless_15x15(), None)
    window.run(app_module.Script("forward", True, True, None))
    starts = [start for start, _ in window.frame_times][1:]      # the first frame imports the solver
    gaps = sorted(b - a for a, b in zip(starts, starts[1:]))
    fps = len(gaps) / (starts[-1] - starts[0])
    print(f"frames {len(gaps)}, fps {fps:.1f}, p99 {gaps[int(len(gaps) * 0.99)] * 1000:.1f} ms, "
          f"longest {gaps[-1] * 1000:.1f} ms, over 50 ms: {sum(gap > 0.050 for gap in gaps)}")
    assert fps >= 50
    assert gaps[int(len(gaps) * 0.99)] < 0.050


def test_the_window_opens_a_level_without_loading_numba(tmp_path):
    """numba (about 0.25 s and 60 MB) loads only when a solver that needs it runs: the genetic
    algorithm, or clause learning in a check. Opening the window, playing and asking for a hint do not need it."""
    import subprocess
    import sys

    script = ("import sys, time\n"
              "from window.app import App, DEFAULT_LEVEL\n"
              "app = App(window=(1000, 700))\n"
              "opened = app.open_level(DEFAULT_LEVEL)\n"
              "app.play.coach.hint()\n"
              "deadline = time.perf_counter() + 60\n"
              "while app.play.coach.hints.thinking and time.perf_counter() < deadline:\n"
              "    app.pump()\n"
              "    time.sleep(0.01)\n"
              "print(opened, not app.play.coach.hints.thinking, 'numba' in sys.modules)\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "BATTLESHIPS_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert done.stdout.split() == ["True", "True", "False"], done.stderr[-2000:]
