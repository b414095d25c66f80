"""A solver of one's own in the window: loaded beside ours, run, stopped, raced."""

import os
import shutil
import subprocess
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pytest  # noqa: E402

from game import rules  # noqa: E402
from solvers.own import template  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.test_ui_play import click  # noqa: E402
from tests.test_ui_race import run_to_end  # noqa: E402
from window import fonts  # noqa: E402
from window.scenes.files import FileScene  # noqa: E402
from window.scenes.race import RaceScene  # noqa: E402


def test_a_c_solver_races_ours_in_the_window(app, tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    program = tmp_path / "placements"
    subprocess.run([compiler, "-O2", "-o", str(program), str(ROOT / "docs/examples/solvers/placements.c")], check=True)
    app.open_race(["forward"])
    scene = app.overlay
    click(app, scene.load_button.rect.center)
    picker = app.overlay
    assert isinstance(picker, FileScene)
    picker.choose(program)                                   # a program: run as cmd:PATH
    scene = app.overlay
    assert isinstance(scene, RaceScene) and scene.chosen == ["forward", f"cmd:{program}"]
    scene.start()
    run_to_end(app, scene)
    records = scene.records()
    assert {r["solver"] for r in records} == {"forward", f"cmd:{program}"}     # as the command line names them
    assert all(r["verdict"] == "solved" for r in records)
    for lane in scene.lanes:
        assert rules.judge(app.play.puzzle, lane.grid()).solved


def test_load_in_the_solver_panel_runs_a_python_solver_and_stop_ends_a_loop(app, tmp_path):
    panel = app.play.solver
    mine = tmp_path / "mine.py"
    template.write(str(mine))
    click(app, panel.choices[-1].rect.center)                # Load...
    assert isinstance(app.overlay, FileScene)
    app.overlay.choose(mine)
    assert app.overlay is None and panel.solver == str(mine)
    assert panel.choices[-2].label == "My solver" and panel.choices[-2].active
    panel.set_speed(0)
    said = []
    panel.notify = said.append
    assert panel.start()
    assert said == ["My solver started; the board shows its copy"]        # (it said "My solver solver")
    deadline = time.perf_counter() + 30
    while panel.running and time.perf_counter() < deadline:
        app.pump()
    assert panel.watch.solved and panel.watch.trace_path is not None
    loop = tmp_path / "loop.py"
    loop.write_text("def solve(puzzle, report, options):\n    while True:\n        pass\n")
    assert panel.add_solver(str(loop))
    assert panel.start()
    time.sleep(0.3)
    started = time.perf_counter()
    panel.stop()
    assert not panel.running and time.perf_counter() - started < 0.5
    assert not panel.watch.working
    broken = tmp_path / "broken.py"
    broken.write_text("def solve(:\n")
    assert not panel.add_solver(str(broken)) and panel.solver == str(loop)


def test_a_wrong_answer_in_the_window_is_one_status_line_never_solved(app, tmp_path):
    panel = app.play.solver
    liar = tmp_path / "liar.py"
    liar.write_text('LABEL = "Liar"\n\ndef solve(puzzle, report, options):\n'
                    '    return ["#" * puzzle.cols] * puzzle.rows\n')
    assert panel.add_solver(str(liar))
    panel.set_speed(0)
    assert panel.start()
    deadline = time.perf_counter() + 20
    while panel.running and time.perf_counter() < deadline:
        app.pump()
    status = panel.watch.status_text()
    assert not panel.watch.solved and "\n" not in status
    # The line starts with the solver's name, once: the message's own copy of it (the file's
    # whole path) is left out, which in a race's narrow lane left no room for the problem.
    assert status.startswith("Liar: error - claimed a wrong solution") and str(liar) not in status
    assert app.play.status.message.startswith("Liar: error")            # the status line of the window


def test_a_wrong_answer_in_a_race_lane_can_be_read_in_full(app, tmp_path):
    """In a race of four the lane's one status line cut the reason at "claimed a wrong
    solution: Ro...", and the table says only "error": the reason is now under the figures."""
    liar = tmp_path / "liar.py"
    liar.write_text('LABEL = "Liar"\n\ndef solve(puzzle, report, options):\n'
                    '    return ["#" * puzzle.cols] * puzzle.rows\n')
    app.open_race(["backtracking", "forward", "logic", str(liar)], speed=0)
    scene = app.overlay
    scene.start()
    run_to_end(app, scene)
    app.draw()
    lane, rect = scene.lanes[-1], scene.lane_rects[-1]
    status = scene.lane_status(lane)
    assert "Row 1 has" in status and "Row 1 has" not in fonts.fit_text(status, 15, rect.width - 20)
    shown = " ".join(scene._reason_lines(lane, status, rect.width))
    assert "claimed a wrong solution: Row 1 has" in shown
    assert not scene._reason_lines(scene.lanes[0], scene.lane_status(scene.lanes[0]), rect.width)
