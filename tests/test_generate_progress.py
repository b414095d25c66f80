"""generate tells its progress: one line redrawn on a terminal's stderr, silence elsewhere,
the same level and the same stdout either way; the window's dialog shows the same stage."""

import fcntl
import io
import os
import pty
import random
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

import main
from game.levels import dumps
from solvers import compiling
from solvers.authoring import generator
from solvers.engine import batch

ROOT = Path(__file__).resolve().parents[1]
ASKED = ["--rows", "8", "--difficulty", "hard", "--seed", "3"]


def run_generate(argv: list[str], tty: bool) -> tuple[int, bytes, bytes]:
    """``main.py generate ARGV`` in a process of its own: its exit code, stdout and stderr (a
    pseudo-terminal when ``tty``)."""
    command = [sys.executable, str(ROOT / "main.py"), "generate", *argv]
    if not tty:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, timeout=120)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 200, 0, 0))     # 200 columns
    with subprocess.Popen(command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=follower) as process:
        os.close(follower)
        told = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:                  # the other end closed
                break
            if not chunk:
                break
            told += chunk
        out = process.stdout.read()
        process.wait(timeout=120)
    os.close(leader)
    return process.returncode, out, told


def test_generate_on_a_terminal_tells_its_stages_in_one_line_and_makes_the_same_level():
    code, out, told = run_generate(ASKED, tty=True)
    plain_code, plain_out, plain_err = run_generate(ASKED, tty=False)
    assert code == plain_code == 0
    assert out == plain_out                          # stdout: the level alone, as before
    assert out.decode() == dumps(generator.generate(8, 8, difficulty="hard", seed=3))
    assert plain_err == b""                          # not a terminal: not a word
    text = told.decode()
    assert "\n" not in text                          # one line, redrawn in place
    draws = [part.rstrip() for part in text.split("\r") if part.strip()]
    assert draws[0] == "generate: layout 1: laying the fleet  0.0s"
    # how many more draws follow depends on the machine's speed (a stage is drawn 0.05 s apart at most)
    assert all(draw.startswith("generate: layout ") and draw.endswith("s") for draw in draws)
    assert text.endswith("\r") and not text.rsplit("\r", 2)[-2].strip()   # wiped before the level


def test_generate_failing_on_a_terminal_wipes_the_line_before_its_one_line_error():
    code, out, told = run_generate([*ASKED, "--timeout", "0"], tty=True)
    assert code == 2 and out == b""
    last = told.decode().replace("\r\n", "\n").rsplit("\r", 1)[-1]
    assert last == "generate: no hard 8x8 level finished in 0 s; raise --timeout\n"


def test_the_stages_told_change_nothing_made():
    told: list[str] = []
    made = generator.generate(8, 8, difficulty="expert", seed=4, minimal=True, progress=told.append)
    assert dumps(made) == dumps(generator.generate(8, 8, difficulty="expert", seed=4, minimal=True))
    assert told[0] == "layout 1: laying the fleet"
    assert any(text.startswith("layout 1: removing hints, 0 of ") for text in told)
    assert any(text.startswith("layout 1: grading (") for text in told)


def test_removing_hints_tells_how_many_are_gone():
    puzzle = generator.generate(6, 6, seed=2)
    told: list[str] = []
    fewer = generator.remove_hints(puzzle, 4, random.Random(0), None, lambda: False, progress=told.append)
    total = len(puzzle.hints)
    assert told[0] == f"removing hints, 0 of {total} gone, {total} to ask"
    assert len(told) == total and told[-1].endswith(", 1 to ask")
    assert fewer.hints.keys() <= puzzle.hints.keys()


def test_the_pack_tells_each_level_and_logs_what_it_printed(monkeypatch, tmp_path, capsys):
    made = generator.generate(6, 6, difficulty="easy", seed=1)

    def recorded(rows, cols, progress=None, **options):
        progress("layout 1: grading (3 hints)")
        return made.replace(difficulty=options.get("difficulty") or "easy")

    monkeypatch.setattr(generator, "generate", recorded)
    monkeypatch.setattr(generator, "PACK_SIZES", (6,))
    monkeypatch.setattr(generator, "PACK_PER_GRADE", 1)
    monkeypatch.setattr(generator, "EXTRAS", ((6, 6, None, 0),))
    told: list[str] = []
    logged: list[str] = []
    assert len(generator.build_pack(tmp_path, progress=told.append, log=logged.append)) == 5
    assert capsys.readouterr().out == ""             # every line went to the log
    assert told[0] == "level 1 of 5 (6x6 easy #1), layout 1: grading (3 hints)"
    assert told[-1] == "level 5 of 5 (6x6), layout 1: grading (3 hints)"
    assert logged[0].startswith("  ") and logged[0].endswith(" s")      # the seconds it took
    assert logged[1] == f"{tmp_path / '6x6' / 'easy' / '01.bs'}: {made.name} (2 hints)"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_says_when_clause_learning_is_being_compiled(monkeypatch, capsys):
    """The generator waits on the compiler through the engine: its polls move the clock and
    the line says why it waits."""
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setenv("COLUMNS", "200")
    made = generator.generate(6, 6, seed=1)

    def waiting(rows, cols, cancelled=None, progress=None, **options):
        progress("layout 1: removing hints, 7 of 45 gone, 38 to ask")
        with compiling.waiting("solvers.search.learning", "clause learning"):
            for _ in range(3):
                assert cancelled() is False
        return made

    monkeypatch.setattr(batch.ProgressBar, "REDRAW", 0.0)
    monkeypatch.setattr(generator, "generate", waiting)
    assert main.main(["generate", "--rows", "6", "--seed", "1"]) == 0
    draws = [part for part in screen.getvalue().split("\r") if part.strip()]
    assert draws[0].startswith("generate: layout 1: removing hints, 7 of 45 gone") and "compiled" not in draws[0]
    assert any(draw.rstrip().endswith("(clause learning is being compiled, once (about a minute))")
               for draw in draws)
    assert compiling.notice() == ""
    assert capsys.readouterr().out == dumps(made)


def test_clause_learning_waiting_for_its_build_says_so(monkeypatch):
    from solvers.search import learning

    built = iter([False, False, True])
    monkeypatch.setattr(compiling, "ready", lambda module, dispatcher: False)
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: next(built, True))
    stream = learning.events(generator.generate(6, 6, seed=1))
    next(stream)                                     # a heartbeat while the build runs
    assert compiling.notice() == "clause learning is being compiled, once (about a minute)"
    for _ in stream:
        pass
    assert compiling.notice() == ""


def test_a_bar_not_on_a_terminal_stays_a_few_lines(monkeypatch):
    screen = io.StringIO()
    monkeypatch.setattr(sys, "stderr", screen)
    with batch.ProgressBar(None, "generate") as line:
        for index in range(1000):
            line.stage(f"layout {index}")
            line.tick()
    assert screen.getvalue() == ""
    bar = batch.ProgressBar(100, "bench")
    for _ in range(100):
        bar.advance("solved")
    bar.close()
    assert len(screen.getvalue().splitlines()) == 10


def test_the_dialog_shows_the_stage_the_generator_is_at(app, monkeypatch):
    pygame = pytest.importorskip("pygame")
    from window.scenes import new_level as scene_new

    seen = []

    def staged(size, difficulty, seed, cancelled=None, progress=None):
        progress("layout 2: removing hints, 3 of 9 gone, 6 to ask")
        seen.append(True)
        while not cancelled():
            pass
        raise generator.GeneratorCancelled()

    monkeypatch.setattr(scene_new, "generate_level", staged)
    app.open_new_level()
    dialog = app.overlay
    dialog.generate()
    deadline = time.perf_counter() + 20
    while not seen and time.perf_counter() < deadline:
        app.pump()
    shown = []
    monkeypatch.setattr(scene_new.fonts, "blit_text", lambda surface, text, *rest, **place: shown.append(text))
    dialog.draw(pygame.Surface(app.window_size))
    assert "layout 2: removing hints, 3 of 9 gone, 6 to ask" in shown
    dialog.cancel()
