"""The command line: solve / check / bench output, batches with bad levels, exit codes."""

import csv
import json
import os
import time
from pathlib import Path

import pytest

import main
from game import files, levels, rules
from game.puzzle import Hint, Puzzle, grid_from_strings
from solvers.common import run_to_result
from solvers.events import Found, Progress, Status

LEVEL = Path(__file__).resolve().parents[1] / "levels" / "6x6" / "easy" / "01.bs"
SOLUTION = ("###...", "......", "#.#..#", "#.#...", "......", "#..#..")


def six_by_six(hints) -> Puzzle:
    rows = tuple(line.count("#") for line in SOLUTION)
    cols = tuple(sum(line[c] == "#" for line in SOLUTION) for c in range(6))
    return Puzzle(6, 6, rows, cols, ((3, 1), (2, 2), (1, 3)), hints)


def every_ship_cell_given() -> Puzzle:
    return six_by_six({(r, c): Hint.SHIP for r, line in enumerate(SOLUTION) for c, ch in enumerate(line) if ch == "#"})


@pytest.fixture
def level_dir(tmp_path):
    levels.save(every_ship_cell_given(), tmp_path / "b_unique.bs")
    # one cell, fleet of one submarine, tallies unknown: three solutions
    levels.save(Puzzle(1, 3, (1,), (None, None, None), {1: 1}, {}), tmp_path / "a_three.bs")
    # two submarines on a 2x2 board can only sit diagonally, and may not touch: none
    levels.save(Puzzle(2, 2, (1, 1), (1, 1), {1: 2}, {}), tmp_path / "c_none.bs")
    return tmp_path


def run(capsys, *argv):
    code = main.main(list(argv))
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.startswith("{")], out


def test_solve_json_gives_verified_boards_in_sorted_order(capsys, level_dir):
    code, records, _ = run(capsys, "solve", str(level_dir), "--json")
    assert code == 0
    assert [r["level"].rsplit("/", 1)[-1] for r in records] == ["a_three.bs", "b_unique.bs", "c_none.bs"]
    statuses = {r["level"].rsplit("/", 1)[-1]: r["status"] for r in records}
    assert statuses == {"a_three.bs": "solved", "b_unique.bs": "solved", "c_none.bs": "no_solution"}
    unique = records[1]
    assert unique["solver"] == "forward" and tuple(unique["solution"]) == SOLUTION
    assert rules.is_solved(every_ship_cell_given(), grid_from_strings(unique["solution"]))
    assert {"seconds", "nodes", "backtracks"} <= set(unique["stats"])
    assert records[2]["solution"] is None


def test_solve_says_the_verdict_in_the_window_s_words(capsys, level_dir):
    """``solve`` said "no solution" where the window and the replay say "no solution exists"."""
    code, _, out = run(capsys, "solve", str(level_dir / "c_none.bs"))
    assert code == 0 and out.startswith(f"{level_dir / 'c_none.bs'}: no solution exists (forward; ")


@pytest.mark.parametrize("solver", ["backtracking", "forward"])
def test_each_exact_solver_from_the_command_line(capsys, level_dir, solver):
    code, records, _ = run(capsys, "solve", str(level_dir / "b_unique.bs"), "--solver", solver, "--json")
    assert code == 0 and records[0]["status"] == "solved" and records[0]["solver"] == solver


@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"], ["--jobs", "2"]])
def test_check_counts_solutions_up_to_two(capsys, level_dir, jobs, monkeypatch):
    from solvers.engine import portfolio

    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)     # let the workers race, if any
    code, records, _ = run(capsys, "check", str(level_dir), "--json", *jobs)
    assert code == 0
    assert [(r["status"], r["solutions"]) for r in records] == [("ambiguous", 2), ("unique", 1), ("impossible", 0)]


def test_a_bad_level_gets_its_own_line_and_the_rest_still_run(capsys, level_dir):
    (level_dir / "bad.bs").write_text('{"size": 6, "board": {}, "row_numbers": [1], "col_numbers": []}')
    code, records, _ = run(capsys, "solve", str(level_dir), "--json")
    assert code == 2
    bad = [r for r in records if r["level"].endswith("bad.bs")]
    assert bad[0]["status"] == "error" and "bad.bs: row_numbers has 1 entries, board has 6 rows" in bad[0]["error"]
    assert sum(r["status"] == "solved" for r in records) == 2


@pytest.mark.parametrize("command", ["solve", "check"])
def test_text_lines_name_the_level_once(capsys, tmp_path, command):
    path = tmp_path / "empty.bs"
    path.write_text("")
    code, _, out = run(capsys, command, str(path))
    assert code == 2 and out.strip() == f"{path}: error: is empty"


def test_missing_file_is_one_line_before_any_level_is_checked(capsys, tmp_path):
    code = main.main(["check", str(LEVEL), str(tmp_path / "nope.bs"), "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err == f"{tmp_path / 'nope.bs'}: no such file\n"


@pytest.mark.parametrize("argv", [
    ["bench", "LEVEL", "BAD", "--solver", "logic"], ["bench", "LEVEL", "BAD", "--hints"],
    ["bench", "BAD", "--window"], ["bench", "BAD", "--boundary"], ["solve", "LEVEL", "BAD"],
    ["check", "LEVEL", "BAD"], ["code", "LEVEL", "BAD"], ["print", "LEVEL", "BAD", "-o", "sheet.pdf"],
    ["race", "BAD"], ["convert", "BAD", "out.bs"], ["play", "BAD", "--screenshot", "shot.png"],
    ["replay", "BAD", "--print"]])
@pytest.mark.parametrize("bad", ["nope.jsonl", "empty-folder", "", "bs1-AAAA"])
def test_an_input_that_cannot_be_opened_stops_the_command_before_its_work(capsys, tmp_path, monkeypatch, argv, bad):
    if argv[0] == "replay" and bad.startswith("bs1-"):
        pytest.skip("a trace is a file, never a code")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty-folder").mkdir()
    code = main.main([{"LEVEL": str(LEVEL), "BAD": bad}.get(arg, arg) for arg in argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.splitlines()) == 1, (out, err)
    assert sorted(os.listdir(tmp_path)) == ["empty-folder"]             # no CSV, sheet, level or shot


def test_corpus_lines_are_labelled_with_their_id(capsys, tmp_path):
    line = {"id": "tiny-1", "rows": 1, "cols": 3, "row_tallies": [1], "col_tallies": [0, 1, 0],
            "fleet": {"1": 1}, "hints": []}
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(line) + "\n")
    code, records, _ = run(capsys, "solve", str(path), "--json")
    assert code == 0 and records[0]["level"] == f"{path}#tiny-1" and records[0]["solution"] == [".#."]


def test_text_output_shows_the_board_with_tallies(capsys, level_dir):
    code, _, out = run(capsys, "solve", str(level_dir / "b_unique.bs"))
    assert code == 0 and "solved" in out
    assert "  3  # # # . . .\n  0  . . . . . ." in out


def test_timeout_is_reported_and_exit_status_is_1(capsys, tmp_path):
    wide = Puzzle(10, 10, (None,) * 10, (None,) * 10, {4: 1, 3: 2, 2: 3, 1: 4}, {})
    levels.save(wide, tmp_path / "wide.bs")
    code, records, _ = run(capsys, "solve", str(tmp_path / "wide.bs"), "--solver", "genetic",
                           "--timeout", "0", "--json")
    assert records[0]["status"] in ("timeout", "solved")
    assert code == (1 if records[0]["status"] == "timeout" else 0)


def test_run_to_result_stops_an_endless_stream():
    def endless():
        while True:
            yield Progress({"nodes": 1})

    result = run_to_result(endless(), timeout=0.05)
    assert result.status is Status.TIMEOUT and "0.05" in result.message and result.solutions == ()


def test_a_timeout_keeps_the_solutions_met_before_it():
    grid = grid_from_strings(["#.", ".."])

    def one_then_endless():
        yield Found(grid)
        while True:
            yield Progress({"nodes": 1})

    result = run_to_result(one_then_endless(), timeout=0.05)
    assert result.status is Status.TIMEOUT and result.solutions == (grid,)


def test_bench_writes_a_table_and_csv(capsys, level_dir, tmp_path):
    out_csv = tmp_path / "rows.csv"
    (level_dir / "c_none.bs").unlink()
    code, _, out = run(capsys, "bench", str(level_dir), "--solver", "forward", "--csv", str(out_csv))
    assert code == 0
    assert "levels" in out and "verified" in out
    rows = list(csv.DictReader(out_csv.open()))
    assert [r["status"] for r in rows] == ["solved", "solved"] and all(r["verified"] == "1" for r in rows)


def test_the_bench_table_shows_its_times_in_their_order():
    """The largest time is never shown below the 90th percentile for want of a decimal."""
    from solvers.engine import batch

    summary = {"levels": 4, "solved": 4, "verified": 4, "median_s": 0.0003, "p90_s": 0.00048, "max_s": 0.000484,
               "total_s": 0.0013, "nodes": 0, "backtracks": 0}
    heads, row = batch.summary_table("forward", summary).splitlines()
    assert heads.split()[4:12:2] == ["median", "p90", "max", "total"]
    shown = [float(value) for value in row.split()[4:8]]
    assert shown == sorted(shown) and shown[2] > 0


def test_a_count_of_one_is_said_in_the_singular(capsys, level_dir, tmp_path, monkeypatch):
    level = str(level_dir / "b_unique.bs")
    assert run(capsys, "print", level, "-o", str(tmp_path / "one.pdf"))[2].endswith(": 1 puzzle\n")
    said = run(capsys, "convert", level, str(tmp_path / "boards") + "/")[2]
    assert said == f"wrote 1 level under {tmp_path / 'boards'}\n"
    given = levels.load(level)
    one_hint = given.replace(hints=dict(list(given.hints.items())[:1]), difficulty="easy")
    monkeypatch.setattr("solvers.authoring.generator.generate", lambda *args, **kwargs: one_hint)
    assert run(capsys, "generate", "-o", str(tmp_path / "g.bs"))[2].endswith(", easy, 1 hint)\n")
    said = run(capsys, "bench", "--generate", "6x6", "--count", "1")[2]
    assert "s, 1 hint, grade" in said and "generated 1 6x6 level:" in said


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main.main(["solve"])
    assert caught.value.code == 2


@pytest.mark.parametrize("flag", ["--boundary", "--window"])
def test_a_bench_of_one_level_refuses_more_than_one(capsys, flag):
    assert main.main(["bench", flag, str(LEVEL), str(LEVEL)]) == 2
    assert capsys.readouterr().err.strip() == f"bench {flag}: give one LEVEL"


def test_generate_is_reproducible_unique_and_graded(capsys, tmp_path):
    first, second = tmp_path / "a.bs", tmp_path / "b.bs"
    assert main.main(["generate", "--rows", "6", "--difficulty", "easy", "--seed", "5", "-o", str(first)]) == 0
    assert main.main(["generate", "--rows", "6", "--difficulty", "easy", "--seed", "5", "-o", str(second)]) == 0
    assert first.read_text() == second.read_text()
    capsys.readouterr()
    code, records, _ = run(capsys, "check", str(first), "--json")
    assert code == 0 and records[0]["status"] == "unique" and records[0]["difficulty"] == "easy"
    assert isinstance(records[0]["redundant_hints"], list)


def test_check_bounds_the_redundant_hint_questions_by_its_timeout_and_says_when_they_ran_out(
        capsys, tmp_path, monkeypatch):
    from solvers.authoring import grading

    level = tmp_path / "six.bs"
    levels.save(every_ship_cell_given(), level)
    asked = []
    monkeypatch.setattr(grading, "redundant_hints", lambda puzzle, timeout=None: asked.append(timeout))
    code, records, _ = run(capsys, "check", str(level), "--json", "--timeout", "7")
    assert code == 0 and records[0]["status"] == "unique" and records[0]["redundant_hints"] is None
    assert asked == [7.0]
    assert main.main(["check", str(level), "--timeout", "7"]) == 0
    assert "redundant hints not settled within 7 s" in capsys.readouterr().out


def test_check_says_which_hints_could_go(capsys, tmp_path):
    """``check`` worked out the redundant hints of every unique level, then showed them only in
    ``--json``: the line said "unique, expert" of a level four of whose hints could go."""
    from game.ships import hint_at

    plain = levels.load(Path(__file__).resolve().parents[1] / "levels" / "6x6" / "expert" / "02.bs")
    assert not plain.hints
    solution = grid_from_strings(plain.solution)
    level = tmp_path / "one-too-many.bs"
    levels.save(plain.replace(hints={(2, 4): hint_at(solution, (2, 4))}), level)
    code, _, out = run(capsys, "check", str(level), str(LEVEL))
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{level}: unique, ")
    assert lines[0].endswith("; 1 hint could go: row 3, column 5")
    assert lines[1] == f"{LEVEL}: unique, easy"         # none could go: nothing more said


def test_generate_without_a_fleet_for_an_odd_size_lays_the_default_one(capsys, tmp_path):
    out = tmp_path / "seven.bs"
    assert main.main(["generate", "--rows", "7", "--difficulty", "easy", "--seed", "1", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["fleet"] == {"3": 1, "2": 2, "1": 3}


def test_generate_asked_for_a_grade_no_layout_reaches_ends_with_one_line_within_its_timeout(capsys, tmp_path):
    # two submarines on a 3x3 board: the tallies alone settle every layout, so it is always easy
    out = tmp_path / "never.bs"
    code = main.main(["generate", "--rows", "3", "--fleet", '{"1": 2}', "--difficulty", "expert",
                      "--timeout", "0.5", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err.count("\n") == 1 and "no expert 3x3 level" in err and "the hard rules finish every one of its 16" in err


@pytest.mark.parametrize("argv, what", [(["--rows", "30", "--cols", "30", "--difficulty", "hard", "--timeout", "0.5"],
                                          "hard 30x30"),
                                         (["--rows", "60", "--minimal", "--timeout", "0"], "60x60")])
def test_generate_timeout_bounds_the_whole_command_and_a_level_cut_short_is_not_written(capsys, tmp_path, argv,
                                                                                        what):
    """``--timeout 5`` bounded only the layouts tried: adding and removing the first layout's
    hints went on to the end (76 s on 30x30 hard). Now the time bounds it all, and a level the
    time cut short is dropped: nothing written, one line saying so."""
    out = tmp_path / "late.bs"
    started = time.perf_counter()
    code = main.main(["generate", *argv, "-o", str(out)])
    seconds = time.perf_counter() - started
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert err == f"generate: no {what} level finished in {argv[-1]} s; raise --timeout\n"
    assert seconds < float(argv[-1]) + 10      # generous for a busy machine: the latency is about a second


# --------------------------------------------------------------------------- hostile input and flags


@pytest.mark.parametrize("argv", [
    ["check", "x.bs", "--timeout", "nan"],
    ["check", "x.bs", "--timeout", "inf"],
    ["check", "x.bs", "--timeout", "-1"],
    ["check", "x.bs", "--timeout", "-0.001"],
    ["check", "x.bs", "--timeout", "1e300"],
    ["check", "x.bs", "--jobs", "-3"],
    ["check", "x.bs", "--jobs", "0"],
    ["check", "x.bs", "--jobs", "1" * 5000],
    ["solve", "x.bs", "--seed", "-1"],
    ["solve", "x.bs", "--timeout", "NaN"],
    ["bench", "x.bs", "--seed", "1" + "0" * 20],
    ["bench", "x.bs", "--timeout", "-5"],
    ["bench", "--generate", "0x10"],
    ["bench", "--generate", "10"],
    ["bench", "--generate", "10x10", "--count", "0"],
    ["bench", "--generate", "10x10", "--fleet", "[1]"],
    ["generate", "--rows", "-4"],
    ["generate", "--rows", "100000"],
    ["generate", "--cols", "0"],
    ["generate", "--seed", "-2"],
    ["generate", "--fleet", '{"4": 1e999}'],
    ["generate", "--fleet", '{"4": -1}'],
    ["generate", "--fleet", '{"40": 1}'],
    ["generate", "--fleet", "{" * 100],
])
def test_every_flag_is_checked_when_parsed(capsys, argv):
    with pytest.raises(SystemExit) as caught:
        main.main(argv)
    err = capsys.readouterr().err
    assert caught.value.code == 2 and "Traceback" not in err and "error: argument" in err


@pytest.mark.parametrize("argv", [
    ["solve", "x.bs", "--seed", "9" * 100_000],
    ["check", "x.bs", "--jobs", "x" * 100_000],
    ["check", "x.bs", "--timeout", "9" * 100_000],
    ["bench", "--generate", "9" * 100_000 + "x6"],
    ["generate", "--rows", "-" + "1" * 100_000],
    ["solve", "x.bs", "--solver", "x" * 100_000],
    ["race", str(LEVEL), "--solvers", "forward," + "x" * 100_000],
    ["generate", "--difficulty", "x" * 100_000],
    ["print", str(LEVEL), "-o", "x.pdf", "--per-page", "1" * 100_000],
    ["convert", str(LEVEL), "x.bs", "--to", "x" * 100_000],
])
def test_a_huge_flag_value_is_one_short_line(capsys, argv):
    try:
        code = main.main(argv)
    except SystemExit as caught:        # argparse's usage errors
        code = caught.code
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("usage:", " "))]
    assert code == 2 and len(lines) == 1 and len(lines[0]) < 300, lines[0][:300]


def test_generate_pack_reports_a_count(capsys, monkeypatch, tmp_path):
    from solvers.authoring import generator

    monkeypatch.setattr(generator, "build_pack", lambda folder, seed=0, **told: [tmp_path / "a.bs", tmp_path / "b.bs"])
    assert main.main(["generate", "--pack", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote 2 levels under {tmp_path}"


def test_a_folder_batch_reports_huge_numbers_pipes_and_devices_and_runs_the_rest(capsys, level_dir):
    import os

    (level_dir / "d_huge.bs").write_text('{"size": ' + "9" * 5000 + ', "board": {}}')
    os.mkfifo(level_dir / "e_pipe.bs")
    (level_dir / "f_zero.bs").symlink_to("/dev/null")
    code, _, out = run(capsys, "check", str(level_dir))
    lines = out.splitlines()
    assert code == 2 and len(lines) == 6
    assert [line.split(": ")[1].split(",")[0] for line in lines[:3]] == ["ambiguous", "unique", "impossible"]
    assert "d_huge.bs: error: a number has 5,000 digits; at most 12 are allowed" in lines[3]
    assert lines[4].endswith("e_pipe.bs: error: is not a regular file (a pipe, device or socket); refused")
    assert lines[5].endswith("f_zero.bs: error: is not a regular file (a pipe, device or socket); refused")


def test_a_folder_batch_walks_any_depth_and_names_each_folder_it_cannot_read(capsys, level_dir, monkeypatch):
    import inspect
    import sys

    deep = level_dir / "deep"
    for _ in range(600):
        deep /= "a"
        deep.mkdir(parents=True)
    levels.save(every_ship_cell_given(), deep / "z.bs")
    (level_dir / "shut" / "in").mkdir(parents=True)
    levels.save(every_ship_cell_given(), level_dir / "shut" / "in" / "x.bs")
    scandir = os.scandir

    def refusing(path):                     # as a folder of mode 000 is to a user that is not root
        if os.path.basename(path) == "shut":
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    limit = sys.getrecursionlimit()
    # the folders deeper than the calls the check may make (a tree deeper than the default
    # limit would be one pytest's own clean-up, shutil.rmtree, cannot remove)
    sys.setrecursionlimit(len(inspect.stack()) + 400)
    try:
        code, _, out = run(capsys, "check", str(level_dir))
    finally:
        sys.setrecursionlimit(limit)
    lines = out.splitlines()
    assert code == 2 and len(lines) == 5
    assert lines[3].startswith(f"{files.shown(deep / 'z.bs')}: unique, easy")
    assert lines[4] == f"{level_dir / 'shut'}: error: cannot be read (Permission denied)"
    code = main.main(["check", str(level_dir / "shut")])        # named itself: refused before any work
    said = capsys.readouterr()
    assert code == 2 and said.out == "" and said.err == f"{level_dir / 'shut'}: cannot be read (Permission denied)\n"


def test_a_corpus_batch_reports_each_bad_line_and_runs_the_rest(capsys, tmp_path):
    good = {"id": "tiny-1", "rows": 1, "cols": 3, "row_tallies": [1], "col_tallies": [0, 1, 0],
            "fleet": {"1": 1}, "hints": []}
    lines = [json.dumps({**good, "hints": [[0, 0, []]]}), json.dumps({**good, "hints": [[0, 0, {}]]}),
             json.dumps(good).replace('"rows": 1', '"rows": ' + "1" * 5000),
             "[" * 100_000 + "]" * 100_000, json.dumps(good)]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, _, out = run(capsys, "solve", str(path))
    shown = [line for line in out.splitlines() if line.strip()]
    assert code == 2
    for number in range(1, 5):
        assert shown[number - 1].startswith(f"{path}:{number}: error: "), shown[number - 1]
    assert shown[4].startswith(f"{path}#tiny-1: solved")


def test_an_unwritable_csv_is_one_line_and_exit_2(capsys, level_dir, tmp_path):
    (level_dir / "c_none.bs").unlink()
    code = main.main(["bench", str(level_dir / "b_unique.bs"), "--csv", str(tmp_path / "no" / "such" / "x.csv")])
    err = capsys.readouterr().err
    assert code == 2 and "x.csv: cannot be written" in err and "Traceback" not in err


def test_bench_names_a_bad_level_in_one_line_and_exits_2_after_the_rest(capsys, level_dir, tmp_path):
    (level_dir / "c_none.bs").unlink()
    (level_dir / "d_cut.bs").write_text('{"size":')
    out_csv = tmp_path / "rows.csv"
    code = main.main(["bench", str(level_dir), "--csv", str(out_csv)])
    err = capsys.readouterr().err
    named = [line for line in err.splitlines() if "d_cut.bs" in line]
    assert code == 2 and "Traceback" not in err
    assert len(named) == 1 and "is not valid JSON" in named[0]
    rows = list(csv.DictReader(out_csv.open()))
    assert [r["status"] for r in rows] == ["solved", "solved", "error"]


def test_bench_names_its_default_csv_by_a_slug_of_a_solver_given_by_its_path(capsys, tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    assert main.main(["new-solver", str(tmp_path / "sub" / "mine.py")]) == 0
    monkeypatch.chdir(tmp_path)
    assert main.main(["bench", str(LEVEL), "--solver", "sub/mine.py"]) == 0
    assert "rows written to bench-sub-mine-py.csv" in capsys.readouterr().out
    rows = list(csv.DictReader((tmp_path / "bench-sub-mine-py.csv").open()))
    assert [r["status"] for r in rows] == ["solved"]


def test_runner_bench_fails_on_faults_only_not_on_timing_noise(capsys, monkeypatch):
    from solvers.engine import runner_bench

    samples = [30_000, 1_560_000, 400_000] + [400_000] * 7
    monkeypatch.setattr(runner_bench, "stop_latencies", lambda: [0.3] * 20)   # slow, but every stop honoured
    monkeypatch.setattr(runner_bench, "million_events", lambda: (runner_bench.MILLION, 12.0, samples, 1_560_000))
    assert runner_bench.main() == 0
    assert "median 300.0 ms" in capsys.readouterr().out
    monkeypatch.setattr(runner_bench, "million_events", lambda: (runner_bench.MILLION - 1, 12.0, samples, 1_560_000))
    assert runner_bench.main() == 1 and "events received" in capsys.readouterr().out
    assert runner_bench.faults([float("inf")], runner_bench.MILLION, samples) != []
    assert runner_bench.faults([0.01], runner_bench.MILLION, [1_000_000, 50_000_000]) != []


@pytest.mark.parametrize("argv, hint", [(["sovle"], "did you mean solve?"),
                                        (["chek", str(LEVEL)], "did you mean check?"), (["xyzzy"], "share code")])
def test_a_word_that_is_no_command_level_or_code_is_refused_with_the_nearest_command(capsys, argv, hint):
    with pytest.raises(SystemExit) as stop:
        main.main(argv)
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert stop.value.code == 2 and f"{argv[0]!r} is neither a command" in error and hint in error


@pytest.mark.parametrize("word", [str(LEVEL), "missing.bs", "bs1-0000", "."])
def test_a_level_a_level_name_a_code_or_a_folder_still_opens_the_window(word):
    assert main._may_be_a_level(word)


def test_every_option_with_a_default_says_it_in_its_help():
    """The defaults of docs/guide/command-line.md, each in its --help line too."""
    import argparse

    top = main.parser()
    commands = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction)).choices
    silent = [f"{name} {action.option_strings[-1]}" for name, command in commands.items() for action in command._actions
              if action.option_strings and action.default not in (None, False, argparse.SUPPRESS)
              and "default" not in (action.help or "")]
    assert silent == []


@pytest.mark.parametrize("command", ["solve", "check"])
def test_solve_and_check_do_not_hold_a_record_per_level(tmp_path, command):
    # Each record was kept until the end for the exit status alone: memory grew with the corpus
    # (a 20,000-line corpus: 10 MB more; 360 MB a million lines in).
    import contextlib
    import io
    import tracemalloc

    corpus = tmp_path / "lines.jsonl"
    corpus.write_text("{}\n" * 20_000)
    (tmp_path / "one.jsonl").write_text("{}\n")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main.main([command, str(tmp_path / "one.jsonl")]) == 2       # what the first run imports
    with open(os.devnull, "w") as nothing, contextlib.redirect_stdout(nothing), contextlib.redirect_stderr(nothing):
        tracemalloc.start()
        try:
            assert main.main([command, str(corpus)]) == 2
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 3_000_000



def test_a_vanishing_time_limit_is_echoed_as_given(capsys):
    # 1e-320 is a subnormal float: '%g' showed it as '9.99989e-321 s'.
    for argv in (["solve", str(LEVEL)], ["check", str(LEVEL)], ["generate"]):
        main.main([*argv, "--timeout", "1e-320"])
        said = capsys.readouterr()
        assert "1e-320 s" in said.out + said.err and "e-321" not in said.out + said.err, (argv, said)
