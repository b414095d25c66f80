"""The classic backtracking solver: same answers as brute force, judged by game.rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game import rules
from game.puzzle import Hint, Puzzle, initial_grid
from solvers.common import replay, run_to_result
from solvers.engine.verdict import decide
from solvers.events import Found, Result, SetCell, Status
from solvers.search import backtracking, forward
from tests import brute
from tests.test_forward import SIX_LAYOUT, puzzle_from_layout, random_puzzles

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DEFAULT_SIX = ((3, 1), (2, 2), (1, 3))


def run(puzzle: Puzzle, **options) -> tuple[Result, list]:
    stream = list(backtracking.events(puzzle, **options))
    assert isinstance(stream[-1], Result)
    assert not any(isinstance(event, Result) for event in stream[:-1])
    return stream[-1], stream


def test_small_hand_made_puzzle_is_solved():
    puzzle = puzzle_from_layout(("#.#.", "#...", "...#", "#..."), ((2, 1), (1, 3)))
    result, _ = run(puzzle, trace=False)
    assert result.status is Status.SOLVED
    assert rules.is_solved(puzzle, result.grid)


def test_six_by_six_with_default_fleet_and_shape_hints():
    hints = {(0, 1): Hint.MIDDLE, (2, 5): Hint.TOP, (4, 0): Hint.SUB, (1, 1): Hint.WATER}
    puzzle = puzzle_from_layout(SIX_LAYOUT, DEFAULT_SIX, hints)
    result, _ = run(puzzle, trace=False, limit=100)
    assert result.status is Status.SOLVED
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
    assert len(result.solutions) == len(decide(puzzle, limit=100).solutions)


def test_no_solution():
    puzzle = puzzle_from_layout(("#.#.", "#...", "...#", "#..."), ((2, 1), (1, 3)), {(0, 0): Hint.SUB})
    result, _ = run(puzzle, trace=False, limit=2)
    assert result.status is Status.NO_SOLUTION
    assert result.grid is None


def test_clashing_hints_have_no_solution():
    puzzle = Puzzle(4, 4, (None,) * 4, (None,) * 4, ((2, 1),), {(0, 0): Hint.TOP, (1, 0): Hint.WATER})
    assert run(puzzle, trace=False)[0].status is Status.NO_SOLUTION


@pytest.mark.parametrize("seed", range(3))
def test_counts_agree_with_brute_force(seed):
    for puzzle in random_puzzles(100 + seed, 8):
        expected = brute.count(puzzle)
        result, stream = run(puzzle, trace=False, limit=1000)
        assert len(result.solutions) == expected, puzzle
        # each solution is announced once, as it is met, in the result's order
        assert [event.grid for event in stream if isinstance(event, Found)] == list(result.solutions)
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
        assert result.status is (Status.SOLVED if expected else Status.NO_SOLUTION)


@pytest.mark.parametrize("limit", [1, 2])
def test_replaying_the_trace_gives_the_final_board(limit):
    # Unknown tallies leave several answers, so the search has to go back and forth.
    puzzle = puzzle_from_layout(SIX_LAYOUT, DEFAULT_SIX, {(2, 2): Hint.LEFT}, hide={("row", 2), ("col", 2)})
    result, stream = run(puzzle, trace=True, limit=limit)
    assert result.status is Status.SOLVED
    assert len(result.solutions) == limit
    assert replay(initial_grid(puzzle), stream) == result.grid
    reasons = {event.reason.value for event in stream if isinstance(event, SetCell)}
    assert {"guess", "backtrack", "forced"} <= reasons


def test_stats_are_consistent():
    puzzle = puzzle_from_layout(SIX_LAYOUT, DEFAULT_SIX)
    result, stream = run(puzzle, trace=False, limit=2)
    assert {"seconds", "nodes", "backtracks"} <= set(result.stats)
    assert 0 <= result.stats["backtracks"] <= result.stats["nodes"]
    assert not any(isinstance(event, SetCell) for event in stream)


def test_a_csc384_puzzle_from_the_corpus():
    path = CORPUS / "csc384_battle.jsonl"
    if not path.exists():
        pytest.skip("corpus folder not present")
    from game.levels import read_corpus
    for _, puzzle in list(read_corpus(path))[:2]:
        result = run_to_result(backtracking.events(puzzle, trace=False), timeout=20)
        assert result.status is Status.SOLVED
        assert rules.is_solved(puzzle, result.grid)


def test_column_pair_counts_follow_the_touching_rule():
    one_row = backtracking.column_pair_counts(0, 1)
    assert one_row == {(0, 0), (1, 0), (0, 1), (1, 1)}
    for height in range(2, 8):
        counts = backtracking.column_pair_counts(0, height)
        # a full column of ship (a vertical ship) leaves the neighbouring column empty
        assert (height, 0) in counts and (height, 1) not in counts
        # horizontal pairs on every other row hold the most
        assert max(left + right for left, right in counts) == height + (height % 2)
    # under a horizontal ship (start 3) the first row of the pair is water
    assert (2, 0) not in backtracking.column_pair_counts(3, 2)
    assert (1, 0) in backtracking.column_pair_counts(3, 2)
    # under a vertical ship in the left column the right one cannot start at once
    assert (0, 1) in backtracking.column_pair_counts(1, 2) and (1, 2) not in backtracking.column_pair_counts(1, 3)


def test_column_pair_counts_are_the_same_whatever_height_is_asked_first(monkeypatch):
    """The counts are worked out row by row, every lower height kept on the way (a 60x60
    search asked each height afresh: 3.7 s in all, 0.2 s at a time between two of its
    events); asked from the top down, as the search asks, or from the bottom up, the same."""
    monkeypatch.setattr(backtracking, "_pair_counts", {})
    top_down = {(start, height): backtracking.column_pair_counts(start, height)
                for start in range(4) for height in range(12, -1, -1)}
    monkeypatch.setattr(backtracking, "_pair_counts", {})
    assert top_down == {(start, height): backtracking.column_pair_counts(start, height)
                        for start in range(4) for height in range(13)}


def random_layout(rng, rows: int, cols: int, fleet) -> set | None:
    """A random fleet placement (no touching), or None if the tries ran out."""
    cells: set = set()
    for length, count in fleet:
        for _ in range(count):
            for _ in range(200):
                across = rng.random() < 0.5
                r = rng.randrange(rows - (0 if across else length - 1))
                c = rng.randrange(cols - (length - 1 if across else 0))
                ship = {(r + (0 if across else i), c + (i if across else 0)) for i in range(length)}
                halo = {(a + dr, b + dc) for a, b in ship for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
                if not halo & cells:
                    cells |= ship
                    break
            else:
                return None
    return cells


@pytest.mark.parametrize("seed", range(4))
def test_row_end_checks_and_memory_lose_no_solution(seed):
    """The row-end look-ahead and the remembered dead ends must agree with forward on every
    solution (boards big enough for both to fire, some tallies hidden, some broken)."""
    from tests.test_forward import puzzle_around
    rng = random.Random(seed)
    remembered = 0
    checked = 0
    while checked < 15:
        rows, cols = rng.choice([(6, 6), (7, 7), (8, 6), (7, 5)])
        fleet = rng.choice([((3, 1), (2, 2), (1, 3)), ((4, 1), (2, 2), (1, 2)), ((2, 3), (1, 2))])
        layout = random_layout(rng, rows, cols, fleet)
        if layout is None:
            continue
        puzzle = puzzle_around(layout, rows, cols, fleet, rng)
        if rng.random() < 0.2:                      # move a ship cell's worth of tally: often no solution
            tallies = list(puzzle.row_tallies)
            i = rng.randrange(rows)
            j = (i + 1) % rows
            if tallies[i] is not None and tallies[j]:
                tallies[i] += 1
                tallies[j] -= 1
                puzzle = puzzle.replace(row_tallies=tuple(tallies))
        result, _ = run(puzzle, trace=False, limit=40)
        expected = run_to_result(forward.events(puzzle, trace=False, limit=40))
        found, wanted = sorted(result.solutions), sorted(expected.solutions)
        if len(wanted) < 40:                        # past the limit the two may stop at different ones
            assert found == wanted, puzzle
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
        remembered += result.stats["remembered"]
        checked += 1
    assert remembered > 0                           # the memory did take part
