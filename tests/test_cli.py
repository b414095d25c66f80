"""The command line: solve / check / bench output, batches with bad levels, exit codes."""

import csv
import json

import pytest

import main
from game import levels, rules
from game.puzzle import Hint, Puzzle, grid_from_strings
from solvers.common import run_to_result
from solvers.events import Found, Progress, Status

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


def test_missing_file_is_a_level_error_not_a_traceback(capsys, tmp_path):
    code, records, _ = run(capsys, "check", str(tmp_path / "nope.bs"), "--json")
    assert code == 2 and records[0]["status"] == "error" and "no such file" in records[0]["error"]


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


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main.main(["solve"])
    assert caught.value.code == 2


def test_generate_is_reproducible_unique_and_graded(capsys, tmp_path):
    first, second = tmp_path / "a.bs", tmp_path / "b.bs"
    assert main.main(["generate", "--rows", "6", "--difficulty", "easy", "--seed", "5", "-o", str(first)]) == 0
    assert main.main(["generate", "--rows", "6", "--difficulty", "easy", "--seed", "5", "-o", str(second)]) == 0
    assert first.read_text() == second.read_text()
    capsys.readouterr()
    code, records, _ = run(capsys, "check", str(first), "--json")
    assert code == 0 and records[0]["status"] == "unique" and records[0]["difficulty"] == "easy"
    assert isinstance(records[0]["redundant_hints"], list)


def test_generate_without_a_fleet_for_an_odd_size_is_a_usage_error(capsys):
    assert main.main(["generate", "--rows", "7"]) == 2
    assert "no default fleet for a 7x7 board" in capsys.readouterr().err
