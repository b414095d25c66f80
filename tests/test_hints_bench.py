"""Playing a level by hints alone, as ``bench --hints`` measures it."""

import json

import pytest

import main
from game import levels
from game.puzzle import Hint, Puzzle
from solvers.engine import hints

SOLUTION = ("###...", "......", "#.#..#", "#.#...", "......", "#..#..")


def puzzle(hint_cells) -> Puzzle:
    rows = tuple(line.count("#") for line in SOLUTION)
    cols = tuple(sum(line[c] == "#" for line in SOLUTION) for c in range(6))
    return Puzzle(6, 6, rows, cols, ((3, 1), (2, 2), (1, 3)), hint_cells)


# the two ends of the cruiser and of each destroyer, and one submarine: the rest follows
UNIQUE = puzzle({(0, 0): Hint.LEFT, (0, 2): Hint.RIGHT, (2, 0): Hint.TOP, (3, 0): Hint.BOTTOM,
                 (2, 2): Hint.TOP, (3, 2): Hint.BOTTOM, (2, 5): Hint.SUB})


def test_a_unique_level_is_solved_by_hints_with_reasons():
    run = hints.play_by_hints(UNIQUE, "unique")
    assert run.solved and run.error == "" and run.without_reason == 0
    assert len(run.seconds) >= 1


def test_where_the_engine_finds_no_step_hints_reveal_cells_of_the_solution(monkeypatch):
    monkeypatch.setattr(hints.logic, "next_deduction", lambda *args, **kw: None)
    run = hints.play_by_hints(UNIQUE, "unique")
    assert run.solved and run.without_reason == len(run.seconds) >= 1


def test_an_ambiguous_level_cannot_be_finished_by_hints():
    run = hints.play_by_hints(puzzle({}), "ambiguous", seconds=0.0)
    assert not run.solved and run.error == "no hint"


def test_bench_hints_prints_a_summary_record(tmp_path, capsys):
    levels.save(UNIQUE, tmp_path / "unique.bs")
    assert main.main(["bench", "--hints", str(tmp_path), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["level"].endswith("unique.bs") and records[0]["solved"]
    summary = records[-1]
    assert summary["summary"] and summary["levels"] == 1 and summary["hints"] == records[0]["hints"]
    assert set(summary) >= {"hints", "p50_ms", "p95_ms", "max_ms", "without_reason"}
    assert summary["reading_s"] == hints.READING_SECONDS


def test_bench_hints_gives_the_engine_the_reading_time_between_hints(tmp_path, capsys, monkeypatch):
    given = []

    def think_ahead(puzzle, grid, step, seconds):
        given.append(seconds)
        yield None
    monkeypatch.setattr(hints.logic, "think_ahead", think_ahead)
    levels.save(UNIQUE, tmp_path / "unique.bs")
    assert main.main(["bench", "--hints", str(tmp_path), "--json", "--reading", "0"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["reading_s"] == 0.0 and given and set(given) == {0.0}
    assert len(given) == summary["hints"]
    with pytest.raises(SystemExit) as refused:
        main.main(["bench", "--hints", str(tmp_path), "--reading", "-1"])
    assert refused.value.code == 2
