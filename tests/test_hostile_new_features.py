"""Hostile input to the newest commands (share codes, the daily puzzle, solvers of your own,
new-solver): each gives one line naming the input and the problem, exit 2, no traceback, and
replaces nothing that is not the program's own."""

import contextlib
import io
import json
import os
import stat
from pathlib import Path

import pytest

import main
from game import codes, levels
from solvers.own import spec

ROOT = Path(__file__).resolve().parents[1]
LEVEL = str(ROOT / "levels" / "6x6" / "easy" / "01.bs")
TOO_LONG = "a" * 10_000 + ".py"         # longer than any file name the system takes


def run(*argv) -> tuple[int, str, str]:
    """main() in this process: its status (a usage error's too), its output and its errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main.main([str(a) for a in argv])
        except SystemExit as leaving:       # argparse's usage errors
            status = leaving.code
    return status, out.getvalue(), err.getvalue()


def one_error(err: str) -> str:
    """The one error line (argparse puts its usage lines before it)."""
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("usage:", " "))]
    assert len(lines) == 1 and "Traceback" not in err, err[:500]
    return lines[0]


# ---------------------------------------------------------------- share codes

@pytest.mark.parametrize("command", [["code"], ["solve"], ["check"], ["bench", "--boundary"]])
def test_a_code_of_100_000_characters_is_one_short_line_not_a_file_name_error(command):
    status, out, err = run(*command, "bs1-" + "a" * 100_000)
    line = one_error(err + out)            # solve and check keep a level's error with the boards
    assert status == 2 and "at most 8,000" in line and len(line) < 200, line[:300]


@pytest.mark.parametrize("command", [["code"], ["check"], ["bench", "--boundary"]])
def test_a_path_longer_than_the_system_takes_is_one_line(command):
    status, out, err = run(*command, "x" * 100_000 + ".bs")
    line = one_error(err + out)
    assert status == 2 and "too long" in line.lower()


def test_bench_boundary_reads_a_level_as_every_command_does_a_code_too():
    good = codes.encode(levels.load(LEVEL))
    damaged = good[:-1] + ("0" if good[-1] != "0" else "1")
    status, out, err = run("bench", "--boundary", damaged)
    assert status == 2 and "checksum" in one_error(err)


# ---------------------------------------------------------------- the daily puzzle

@pytest.mark.parametrize("date, problem", [
    ("2026-W01-1", ""),                       # an ISO week date: Python reads it, the flag does not
    ("0000-01-01", "year 0 is out of range"),
    ("2026-02-30", "day is out of range"),
    ("", ""),
    ("9" * 100_000, "100,000 characters"),
])
def test_a_bad_daily_date_is_a_usage_error_of_one_short_line(date, problem):
    status, out, err = run("daily", "--date", date, "--code")
    line = one_error(err)
    assert status == 2 and "is not a date YYYY-MM-DD" in line and problem in line and len(line) < 200
    assert out == ""


def test_the_last_day_of_the_calendar_has_a_puzzle():
    status, out, err = run("daily", "--date", "9999-12-31", "--code")
    assert status == 0 and codes.is_code(out.strip()) and err == ""


def test_an_output_name_with_a_nul_is_refused_before_anything_is_made(tmp_path):
    status, out, err = run("daily", "--date", "2026-11-26", "-o", str(tmp_path / "a\0b.bs"))
    assert status == 2 and "NUL" in one_error(err) and out == "" and list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- --solver

@pytest.mark.parametrize("solver, problem", [
    (TOO_LONG, "cannot be read (File name too long)"),
    ("a\0b.py", "NUL"),
    ("cmd:./mine\0 --fast", "NUL"),
    ("cmd:", "give a program after"),
    ("cmd:./mine 'unclosed", "No closing quotation"),
])
def test_a_solver_that_cannot_be_is_a_usage_error(solver, problem):
    status, out, err = run("solve", LEVEL, "--solver", solver)
    line = one_error(err)
    assert status == 2 and problem in line and "\0" not in line


def test_a_solver_folder_or_fifo_is_not_a_file_and_is_never_read(tmp_path):
    (tmp_path / "folder.py").mkdir()
    os.mkfifo(tmp_path / "pipe.py")               # opening it to read would wait for a writer
    for name in ("folder.py", "pipe.py"):
        with pytest.raises(ValueError, match="not a file"):
            spec.from_name(str(tmp_path / name))


# ---------------------------------------------------------------- new-solver

def test_new_solver_names_the_file_once_and_leaves_what_is_there(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text("keep me\n")
    status, out, err = run("new-solver", str(mine))
    assert status == 2 and one_error(err) == f"{mine}: cannot be written (exists already; it is not replaced)"
    assert mine.read_text() == "keep me\n" and not (tmp_path / "test_mine.py").exists()


def test_new_solver_never_replaces_a_file_made_while_it_writes(tmp_path, monkeypatch):
    # it looked before writing, then renamed over whatever was made there meanwhile
    theirs = tmp_path / "sub" / "test_mine.py"
    sync = os.sync

    def another_program_writes():
        theirs.write_text("theirs\n")
        sync()
    monkeypatch.setattr(os, "sync", another_program_writes)     # between the look and the rename
    status, out, err = run("new-solver", str(tmp_path / "sub" / "mine.py"))
    assert status == 2 and one_error(err) == f"{theirs}: cannot be written (exists already; it is not replaced)"
    assert [p.name for p in (tmp_path / "sub").iterdir()] == ["test_mine.py"] and theirs.read_text() == "theirs\n"


def test_new_solver_onto_a_dangling_link_a_device_or_a_folder_creates_nothing(tmp_path):
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "folder.py").mkdir()
    places = ["dangling.py", "folder.py"]
    if os.geteuid() == 0:                          # a device node of the test's own, never /dev's
        os.mknod(tmp_path / "device.py", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        places.append("device.py")
    before = sorted(os.listdir(tmp_path))
    for name in places:
        status, out, err = run("new-solver", str(tmp_path / name))
        assert status == 2 and "exists already" in one_error(err)
    assert sorted(os.listdir(tmp_path)) == before


def test_new_solver_writes_both_files_or_neither(tmp_path):
    """A name the system takes for the solver but not for its test (five characters more)."""
    name = tmp_path / ("b" * 250 + ".py")
    status, out, err = run("new-solver", str(name))
    assert status == 2 and "test_b" in one_error(err) and "too long" in one_error(err).lower()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["a\\x.py", 'q""".py', "it's mine.py", "\u00e9t\u00e9.py",
                                  os.fsdecode(b"\xff\xfe.py")])
def test_new_solver_writes_python_whatever_the_name(tmp_path, name):
    # a\x.py and q""".py were written as files that were not Python (their names in the
    # docstring as they were); a name that is not UTF-8 failed with no file named
    import ast
    import shlex

    status, out, err = run("new-solver", str(tmp_path / name))
    assert status == 0, err
    said = {tmp_path / name: f"--solver {shlex.quote(str(tmp_path / name))}\n", tmp_path / f"test_{name}": name}
    for written, text in said.items():
        docstring = ast.get_docstring(ast.parse(written.read_bytes()))
        assert docstring is not None and text in docstring


def test_new_solver_names_a_file_on_one_line(tmp_path):
    for name in ("x\n.txt", "e\x1b[31mred.py"):
        (tmp_path / name).write_text("keep me\n")
        status, out, err = run("new-solver", str(tmp_path / name))
        line = one_error(err)
        assert status == 2 and "\x1b" not in line and "\n" not in line and repr(str(tmp_path / name)) in line


def test_new_solver_refuses_a_nul_in_the_name(tmp_path):
    status, out, err = run("new-solver", str(tmp_path / "a\0b.py"))
    line = one_error(err)
    assert status == 2 and "NUL" in line and "\0" not in line and list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- progress edited by hand

def test_a_restart_step_edited_by_hand_is_kept_aside_not_saved_over(tmp_path):
    from tests.test_trials import tutorial_like
    from window.storage import Storage, level_key

    puzzle = tutorial_like()
    data = {"history": [{"label": "open", "moves": [], "trial": "open"},
                        {"label": "r0c0", "moves": ["r0c0=#"]},
                        {"label": "restart", "moves": ["r0c0=?", "r5c5=."], "trial": "restart"}],
            "cursor": 3, "elapsed": 1.0, "solved": False}
    storage = Storage(tmp_path)
    key = level_key(puzzle)
    storage.progress_path(key).parent.mkdir(parents=True, exist_ok=True)
    storage.progress_path(key).write_text(json.dumps(data))
    assert storage.restore_play(key, puzzle) is None
    assert [m for m in storage.take_messages() if "step 3 (restart) does not fit" in m]
    kept = [p for p in storage.progress_path(key).parent.iterdir() if p.name != f"{key}.json"]
    assert [json.loads(p.read_text()) for p in kept] == [data] and not storage.progress_path(key).exists()


# ---------------------------------------------------------------- empty names

@pytest.mark.parametrize("command", [["code"], ["check"], ["race"], ["convert", "-"], ["bench", "--boundary"]])
def test_an_empty_name_is_no_level_not_the_current_folder(command):
    argv = [command[0], "", *command[1:]]
    status, out, err = run(*argv)
    line = one_error(err + out)
    assert status == 2 and line.startswith("'': ") and "an empty name is no level" in line


@pytest.mark.parametrize("argv", [("daily", "--date", "2026-11-26", "-o", ""),
                                  ("race", str(ROOT / "levels/6x6/easy/01.bs"), "--solvers", "logic", "--csv", ""),
                                  ("bench", str(ROOT / "levels/6x6/easy/01.bs"), "--solver", "logic", "--csv", "")])
def test_an_empty_output_name_is_refused_not_ignored(argv):
    status, out, err = run(*argv)
    assert status == 2 and one_error(err) == "'': cannot be written (an empty name is not a file name)"
    assert out == ""


def test_bench_window_races_the_solvers_named_from_the_command_line(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    status, out, err = run("bench", "--window", LEVEL, "--solvers", "forward,logic", "--timeout", "1", "--json")
    record = json.loads(out)
    assert status == 0 and err == "" and record["solvers"] == ["forward", "logic"] and record["lanes"] == 2
    assert record["frames"] > 0
