"""The compiled rules (``solvers.logic.compiled``) against the rules they mirror: the same verdict
and the same settled board on every trial a solve runs, and the same steps and sentences."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import levels
from game.puzzle import Hint, Puzzle
from solvers.events import SetCell
from solvers.logic import compiled as compiled_module
from solvers.logic import deduction, probe
from solvers.logic.analysis import model_of
from solvers.logic.compiled import compiled_of

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def compared_trials(puzzle: Puzzle, monkeypatch) -> int:
    """Solve ``puzzle`` by deduction; every trial the compiled rules settle is settled by the
    rules of ``solvers.logic.rules`` too and must end the same. Returns how many were compared."""
    model = model_of(puzzle)
    compiled = compiled_of(model)
    assert compiled is not None
    compared = [0, 0]
    settle = probe.propagate

    def both(model, ship, water, valid=None, chain=None, max_level=2, base=None, below=None):
        outcome = settle(model, ship, water, valid, chain, max_level, base, below)
        if chain is None and max_level >= 2:
            reference = probe._by_rules(model, ship, water, valid, None, 2, None, None)
            assert bool(outcome.contradiction) == bool(reference.contradiction)
            if reference.contradiction is None:
                assert (outcome.ship, outcome.water, outcome.places, outcome.reach) == \
                       (reference.ship, reference.water, reference.places, reference.reach)
            else:
                assert str(outcome.contradiction) == reference.contradiction
            compared[bool(reference.contradiction)] += 1
        return outcome

    monkeypatch.setattr(probe, "propagate", both)
    monkeypatch.setattr(deduction, "propagate", both)
    for _ in deduction.events(puzzle):
        pass
    assert compared[0] and compared[1], "the solve tried boards that hold and boards that break"
    return sum(compared)


@pytest.mark.parametrize("name", ["10x10/expert/01.bs", "10x10/expert/07.bs", "8x8/expert/04.bs",
                                  "15x15/hard/03.bs", "giants/01-20x20.bs"])
def test_compiled_rules_settle_every_trial_of_a_pack_level_as_the_rules_do(name, monkeypatch):
    assert compared_trials(levels.load(LEVELS / name), monkeypatch) > 100


def test_compiled_rules_settle_every_trial_with_hidden_tallies_as_the_rules_do(monkeypatch):
    puzzle = levels.load(LEVELS / "10x10/expert/01.bs")
    rows, cols = list(puzzle.row_tallies), list(puzzle.col_tallies)
    rows[2] = rows[7] = cols[4] = None
    assert compared_trials(replace(puzzle, row_tallies=tuple(rows), col_tallies=tuple(cols)), monkeypatch) > 100


def test_compiled_rules_settle_every_trial_of_corpus_puzzles_as_the_rules_do(corpus_dir, monkeypatch):
    from game.levels import iter_corpus

    for k, (_, puzzle) in enumerate(iter_corpus(corpus_dir / "csplib_prob014_rubin.jsonl")):
        if k % 60 == 7:
            compared_trials(puzzle, monkeypatch)


def test_a_middle_piece_and_hidden_tallies_are_read_by_the_compiled_rules():
    """The middle piece's own rule on a small board: across, since the border closes it up
    and down (the pack levels above hold middle pieces too)."""
    puzzle = Puzzle(3, 5, (0, 3, 0), (None, 1, 1, 1, None), ((3, 1),), {(1, 2): Hint.MIDDLE})
    model = model_of(puzzle)
    settled = compiled_of(model).settle(model.hint_ship, model.hint_water, None)
    reference = probe._by_rules(model, model.hint_ship, model.hint_water, None, None, 2, None, None)
    assert settled == (True, reference.ship, reference.water, reference.places, reference.reach)
    assert reference.ship == model.mask_of([(1, 1), (1, 2), (1, 3)])


def steps(puzzle: Puzzle) -> list[tuple]:
    return [(event.row, event.col, event.value, event.detail) for event in deduction.events(puzzle, trace=True)
            if isinstance(event, SetCell)]


def test_boards_too_large_for_the_compiled_rules_are_settled_by_the_rules_with_the_same_steps(monkeypatch):
    puzzle = levels.load(LEVELS / "8x8/expert/01.bs")
    by_compiled = steps(puzzle)
    model_of.cache_clear()
    monkeypatch.setattr(compiled_module, "LARGEST_BOARD", 63)
    assert compiled_of(model_of(puzzle)) is None
    assert steps(puzzle) == by_compiled
    model_of.cache_clear()


@st.composite
def small_puzzles(draw, most_hints: int = 4) -> Puzzle:
    """A small puzzle of any shape: up to 7x7, one to three ship lengths up to 5, tallies or
    hidden ones, given pieces of every kind (they may contradict each other)."""
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    lengths = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3, unique=True))
    fleet = tuple((length, draw(st.integers(1, 3))) for length in lengths)
    row_tallies = tuple(draw(st.one_of(st.none(), st.integers(0, cols))) for _ in range(rows))
    col_tallies = tuple(draw(st.one_of(st.none(), st.integers(0, rows))) for _ in range(cols))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    hints = draw(st.dictionaries(st.sampled_from(cells), st.sampled_from(list(Hint)), max_size=most_hints))
    return Puzzle(rows, cols, row_tallies, col_tallies, fleet, hints)


@st.composite
def boards(draw):
    """A small puzzle and a board on it: the hints, some cells marked, the places reduced at
    random or not."""
    puzzle = draw(small_puzzles())
    rows, cols = puzzle.rows, puzzle.cols
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    model = model_of(puzzle)
    marks = draw(st.lists(st.sampled_from("?#."), min_size=len(cells), max_size=len(cells)))
    ship = model.hint_ship | model.mask_of(cell for cell, mark in zip(cells, marks) if mark == "#")
    water = (model.hint_water | model.mask_of(cell for cell, mark in zip(cells, marks) if mark == ".")) & ~ship
    valid = None
    if draw(st.booleans()):
        valid = model.alive & draw(st.randoms(use_true_random=False)).getrandbits(len(model.by_index) or 1)
    return model, ship, water, valid


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_compiled_rules_settle_any_small_board_as_the_rules_do(board):
    model, ship, water, valid = board
    outcome = probe.propagate(model, ship, water, valid)
    reference = probe._by_rules(model, ship, water, valid, None, 2, None, None)
    if reference.contradiction is None:
        assert outcome.contradiction is None
        assert (outcome.ship, outcome.water, outcome.places, outcome.reach) == \
               (reference.ship, reference.water, reference.places, reference.reach)
    else:
        assert str(outcome.contradiction) == reference.contradiction
