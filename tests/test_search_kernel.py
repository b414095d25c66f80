"""The forward search's compiled propagation (``solvers.search.kernel``) against the rules it
mirrors (``solvers.search.propagate``): the same state, the same failure and the same blame
on every propagation a search runs, and on random boards."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import levels
from game.puzzle import Puzzle
from solvers.search import forward, kernel
from solvers.search import propagate as rules
from solvers.search.bitboard import State, compile_puzzle
from tests.test_logic_kernel import small_puzzles

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def by_rules(model, state, **options):
    """``propagate`` by the rules in Python (with a blame list when one is asked for)."""
    saved, rules.COMPILED = rules.COMPILED, False
    try:
        assert rules.kernel_of(model) is None      # the rules in Python, even for a model that has a kernel
        return rules.propagate(model, state, **options)
    finally:
        rules.COMPILED = saved


def compared_propagations(puzzle: Puzzle, monkeypatch, **search) -> list[int]:
    """Search ``puzzle`` with ``forward``; every propagation is run by the rules in Python too
    and must end the same. Returns [boards that held, boards that failed]."""
    model_kernel = []
    compared = [0, 0]
    settle = rules.propagate

    def both(model, state, **options):
        outcome = settle(model, state, **options)
        if options.get("log") is None:
            model_kernel.append(rules.kernel_of(model))
            reference_blame: list | None = None if options.get("blame") is None else []
            reference = by_rules(model, state, **{**options, "blame": reference_blame})
            assert outcome == reference
            assert options.get("blame") == reference_blame
            compared[reference is None] += 1
        return outcome

    monkeypatch.setattr(forward, "propagate", both)
    for _ in forward.events(puzzle, trace=False, **search):
        pass
    assert model_kernel and all(found is not None for found in model_kernel)
    return compared


@pytest.mark.parametrize("name", ["10x10/expert/01.bs", "8x8/expert/04.bs", "15x15/hard/03.bs",
                                  "6x6/expert/01.bs", "giants/01-20x20.bs"])
def test_compiled_propagation_ends_every_propagation_of_a_search_as_the_rules_do(name, monkeypatch):
    held, failed = compared_propagations(levels.load(LEVELS / name), monkeypatch, limit=2)
    assert held > 10 and failed > 0


def test_compiled_propagation_blames_the_same_lines_and_cells_on_corpus_puzzles(corpus_dir, monkeypatch):
    from game.levels import iter_corpus

    blamed = 0
    for k, (_, puzzle) in enumerate(iter_corpus(corpus_dir / "csplib_prob014_rubin.jsonl")):
        if k % 50 == 3:
            blamed += compared_propagations(puzzle, monkeypatch)[1]
    assert blamed > 100


def test_a_failure_blames_the_row_cells_or_length_that_failed():
    puzzle = Puzzle(4, 4, (0, 2, 1, 1), (1, 1, 1, 1), ((2, 1), (1, 2)))
    model = compile_puzzle(puzzle)
    assert rules.kernel_of(model) is not None
    geo = model.geo
    for ship, expected in ((geo.bit(0, 0), [("row", 0)]),                       # a row whose tally is 0
                           (geo.bit(1, 0) | geo.bit(2, 1), [("cells", geo.bit(1, 0) | geo.bit(2, 1))])):
        blame: list = []
        assert rules.propagate(model, model.start, ship=ship, blame=blame) is None
        assert blame == expected


def searched(puzzle: Puzzle) -> tuple:
    *_, result = forward.events(puzzle, trace=False, limit=2)
    return result.solutions, result.stats["nodes"], result.stats["probes"], result.stats["backtracks"]


@pytest.mark.parametrize("name", ["10x10/expert/07.bs", "15x15/expert/04.bs", "8x8/hard/02.bs"])
def test_a_search_takes_the_same_steps_with_the_compiled_code_or_without(name, monkeypatch):
    """The compiled propagation and the compiled branching choice (``Kernel.best_cell``)
    change nothing in the search: the same solutions after the same nodes and probes."""
    puzzle = levels.load(LEVELS / name)
    compiled = searched(puzzle)
    monkeypatch.setattr(rules, "COMPILED", False)
    assert rules.kernel_of(compile_puzzle(puzzle)) is None
    assert searched(puzzle) == compiled


def test_boards_too_large_for_the_compiled_propagation_search_the_same(monkeypatch):
    puzzle = levels.load(LEVELS / "8x8/expert/01.bs")
    compiled = searched(puzzle)
    monkeypatch.setattr(kernel, "LARGEST_BOARD", 63)
    assert rules.kernel_of(compile_puzzle(puzzle)) is None
    assert searched(puzzle) == compiled


def test_a_process_propagates_by_the_rules_until_the_compiled_code_pays_for_its_loading(monkeypatch):
    """Until the compiled code is loaded, a process's first ``PYTHON_FIRST`` propagations run
    the rules in Python (a short search ends before numba would have loaded), then it loads."""
    model = compile_puzzle(levels.load(LEVELS / "6x6/easy/01.bs"))
    monkeypatch.setattr(rules, "loaded", lambda: False)
    monkeypatch.setattr(rules, "_asked", 0)
    monkeypatch.setattr(rules, "PYTHON_FIRST", 3)
    assert [rules.kernel_of(model) for _ in range(3)] == [None, None, None]
    assert rules.kernel_of(model) is not None
    assert rules.kernel_of(model) is model.memo["kernel"]


@st.composite
def decisions(draw):
    """A small puzzle of any shape (fleet, tallies or hidden ones, given pieces) and a
    decision from its start or from the state its root settles to: cells set to ship or
    water, placements placed or removed, all lines looked at or not, a probe's rules or not."""
    puzzle = draw(small_puzzles(most_hints=3))
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    model = compile_puzzle(puzzle)
    state: State | None = model.start
    if draw(st.booleans()):
        state = by_rules(model, model.start, ship=model.hint_ship | model.shape_ship,
                         water=model.hint_water | model.shape_water, all_lines=True)
    if state is None:
        state = model.start
    geo = model.geo
    marks = draw(st.lists(st.sampled_from("??#."), min_size=len(cells), max_size=len(cells)))
    ship = geo.mask_of(cell for cell, mark in zip(cells, marks) if mark == "#") & ~state.ship
    water = geo.mask_of(cell for cell, mark in zip(cells, marks) if mark == ".") & ~state.water & ~ship
    count = len(geo.placements)
    random = draw(st.randoms(use_true_random=False))
    places = [p for p in range(count) if random.random() < 1.5 / count]
    kill = state.alive & random.getrandbits(count) & random.getrandbits(count)
    options = {"ship": ship & ~state.water, "water": water & ~state.ship, "places": places, "kill": kill,
               "all_lines": draw(st.booleans()), "probe": draw(st.booleans())}
    return model, state, options


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decisions())
def test_compiled_propagation_ends_any_decision_on_a_small_board_as_the_rules_do(decision):
    model, state, options = decision
    blame: list = []
    reference_blame: list = []
    outcome = rules.propagate(model, state, blame=blame, **options)
    assert outcome == by_rules(model, state, blame=reference_blame, **options)
    assert blame == reference_blame


def test_cells_only_the_placements_a_placed_ship_killed_covered_become_water():
    """Placing a ship kills the placements over its halo; a cell only those covered is water
    (the coverage rule finds it from the placements' table of cells, not from the dead
    placements). No tallies, so no line rule sets it first."""
    model = compile_puzzle(Puzzle(1, 4, (None,), (None,) * 4, ((2, 1),)))
    geo = model.geo
    placed = geo.placement(2, True, 0, 0)
    for propagate in (rules.propagate, by_rules):
        state = propagate(model, model.start, ship=placed.cells, places=(placed.index,))
        assert state is not None
        assert state.water == geo.mask_of([(0, 2), (0, 3)])
