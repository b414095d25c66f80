"""The replay window: a saved trace's timeline, its jumps, and a damaged trace refused."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402

import main  # noqa: E402
from solvers.engine import trace  # noqa: E402
from tests.test_ui_play import click, press  # noqa: E402
from window.scenes.replay import ReplayScene  # noqa: E402

LEVEL = "levels/10x10/expert/01.bs"


def saved_run(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    assert main.main(["solve", LEVEL, "--solver", "backtracking", "--trace", str(path)]) == 0
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
