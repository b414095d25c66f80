"""Races: every solver on one puzzle, judged, counted, ranked; the table as CSV and JSON."""

import csv
import dataclasses
import json
from pathlib import Path

import pytest

import main
from game import levels, rules
from game.puzzle import Puzzle, grid_from_strings
from solvers.engine import race, registry
from solvers.events import Reason, SetCell

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "10x10" / "easy" / "01.bs"


def test_a_race_of_complete_solvers_agrees_on_the_judged_solution():
    puzzle = levels.load(LEVEL)
    complete = [name for name, spec in registry.SOLVERS.items() if spec.complete]
    assert len(complete) >= 2
    records = race.race(puzzle, complete, timeout=30)
    assert [r["rank"] for r in records] == list(range(1, len(complete) + 1))
    assert {r["solver"] for r in records} == set(complete)
    solutions = {tuple(r["solution"]) for r in records}
    assert len(solutions) == 1 and all(r["verdict"] == "solved" for r in records)
    assert rules.is_solved(puzzle, grid_from_strings(solutions.pop()))
    backtracking = next(r for r in records if r["solver"] == "backtracking")
    assert backtracking["moves"] > backtracking["guesses"] > 0 and backtracking["backtracks"] > 0


def test_ranking_puts_answers_first_then_the_faster():
    records = [{"solver": "a", "verdict": "timeout", "time_s": 0.1},
               {"solver": "b", "verdict": "solved", "time_s": 2.0},
               {"solver": "c", "verdict": "solved", "time_s": 1.0},
               {"solver": "d", "verdict": "stopped", "time_s": 0.5},
               {"solver": "e", "verdict": "no_solution", "time_s": 1.5}]
    assert [(r["rank"], r["solver"]) for r in race.rank(records)] == [(1, "c"), (2, "b"), (None, "a"), (None, "d"),
                                                                     (None, "e")]
    unsolvable = [records[0], records[3], records[4]]            # no lane has a board: "no solution" is an answer
    assert [(r["rank"], r["solver"]) for r in race.rank(unsolvable)] == [(1, "e"), (None, "a"), (None, "d")]


def test_runs_without_an_answer_are_unranked_whenever_they_ended():
    stopped = [{"solver": "slow", "verdict": "stopped", "time_s": 3.0, "solution": None},
               {"solver": "quick", "verdict": "stopped", "time_s": 0.2, "solution": None}]
    records = race.rank(stopped)
    assert [(r["rank"], r["solver"]) for r in records] == [(None, "slow"), (None, "quick")]
    assert [race.shown_rank(r) for r in records] == ["–", "–"]


def test_a_no_solution_beside_a_board_the_judge_accepted_is_refuted_and_ranked_as_an_error():
    records = race.rank([{"solver": "liar", "verdict": "no_solution", "time_s": 0.01},
                         {"solver": "forward", "verdict": "solved", "time_s": 0.5}])
    assert [(r["rank"], r["solver"], r["verdict"]) for r in records] == \
        [(1, "forward", "solved"), (None, "liar", "error")]
    assert "forward found one the rules accept" in records[1]["message"]


def test_the_table_names_each_solver_once_in_its_line(tmp_path):
    mine = tmp_path / "crash.py"
    mine.write_text("def solve(puzzle, report, options):\n    return 1 / 0\n")
    puzzle = levels.load(LEVEL)
    records = race.race(puzzle, [str(mine)], timeout=30)
    records.append({"rank": None, "solver": "forward", "verdict": "timeout", "time_s": 0.1, "nodes": 0,
                    "backtracks": 0, "guesses": 0, "generations": 0, "moves": 0, "solution": None,
                    "message": "no answer within 0.1 s"})
    lines = race.text(puzzle, records).splitlines()
    assert f"{mine}: raised ZeroDivisionError: division by zero (crash.py, line 2)" in lines
    assert "forward: no answer within 0.1 s" in lines


def test_a_solver_past_its_timeout_is_stopped_and_loses():
    record = race.run_one(levels.load(LEVEL), "backtracking", timeout=0)
    assert record["verdict"] == "timeout" and record["solution"] is None and "within" in record["message"]


def test_guesses_count_decisions_not_moves():
    tally = race.Tally()
    # one placement guessed at depth 1 (three cells), a forced move, then two guesses deeper
    for depth, reason in ((1, Reason.GUESS), (1, Reason.GUESS), (1, Reason.GUESS), (1, Reason.FORCED),
                          (2, Reason.GUESS), (3, Reason.GUESS), (3, Reason.BACKTRACK)):
        tally.add(SetCell(0, 0, 2, reason, depth=depth))
    assert tally.moves == 7 and tally.guesses == 3


def test_the_default_field_is_every_solver_that_can_run_on_the_level(monkeypatch):
    plain = levels.load(LEVEL)
    unknown = Puzzle(1, 3, (1,), (None, None, None), {1: 1}, {})
    assert race.choose(plain) == list(registry.NAMES)
    narrow = dataclasses.replace(registry.SOLVERS["genetic"], unknown_tallies=False)
    monkeypatch.setitem(registry.SOLVERS, "genetic", narrow)
    assert "genetic" not in race.choose(unknown) and "genetic" in race.choose(plain)
    with pytest.raises(ValueError, match="cannot run"):
        race.choose(unknown, ["genetic"])
    with pytest.raises(ValueError, match="unknown solver"):
        race.choose(plain, ["forward", "nope"])


def test_the_csv_table_has_one_row_per_solver(tmp_path):
    records = race.race(levels.load(LEVEL), ["forward", "logic"], timeout=30)
    path = tmp_path / "race.csv"
    race.write_csv(path, records)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [row["solver"] for row in rows] == [r["solver"] for r in records]
    assert list(rows[0]) == list(race.FIELDS)
    assert rows[0]["solution"].split("/") == records[0]["solution"]


def test_race_json_prints_one_ranked_record_per_solver(capsys):
    assert main.main(["race", str(LEVEL), "--solvers", "forward,logic", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["rank"] for r in records] == [1, 2]
    assert all(set(race.FIELDS) <= set(r) for r in records)


def test_race_text_shows_the_table_and_the_solution_once(capsys):
    assert main.main(["race", str(LEVEL), "--solvers", "forward,logic"]) == 0
    out = capsys.readouterr().out
    assert out.count("solution (verified) of") == 1 and "forward" in out.splitlines()[1] + out.splitlines()[2]


@pytest.mark.parametrize("argv, words", [
    (["--solvers", "forward,nope"], "unknown solver"),
    (["--solvers", ","], "unknown solver"),
])
def test_race_usage_errors_are_one_line_and_exit_2(capsys, argv, words):
    assert main.main(["race", str(LEVEL), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_race_on_a_bad_level_names_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.bs"
    bad.write_text("{}")
    assert main.main(["race", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(str(bad))
