"""Clause learning: counts checked by brute force, every answer judged by game.rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game import rules
from game.levels import iter_corpus
from game.puzzle import Hint, grid_from_strings
from solvers import common
from solvers.engine import portfolio
from solvers.events import Found, Progress, Result, Status
from solvers.search import forward, learning, learning_core
from tests import brute
from tests.test_forward import SIX_LAYOUT, puzzle_from_layout, random_puzzles

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def run(puzzle, limit=1, **options) -> tuple[Result, list]:
    stream = list(learning.events(puzzle, limit=limit, **options))
    assert isinstance(stream[-1], Result)
    assert not any(isinstance(event, Result) for event in stream[:-1])
    return stream[-1], stream


@pytest.mark.parametrize("options", [{}, {"every_variable": True}, {"every_variable": True, "best_phase": True},
                                     {"every_variable": True, "best_phase": True, "restart_unit": 2}],
                         ids=["cells", "every variable", "best phase", "restarts of 2"])
def test_counts_match_brute_force(options):
    """Random small puzzles (hidden tallies, true hints of every shape, broken tallies): the
    count up to 3 is the brute-force count, and every solution is a different judged board."""
    for puzzle in random_puzzles(7, 40):
        expected = brute.count(puzzle)
        result, stream = run(puzzle, limit=3, **options)
        assert len(result.solutions) == min(3, expected)
        assert len(set(result.solutions)) == len(result.solutions)
        for grid in result.solutions:
            assert rules.is_solved(puzzle, grid)
        found = [event.grid for event in stream if isinstance(event, Found)]
        assert found == list(result.solutions)
        assert result.status is (Status.SOLVED if expected else Status.NO_SOLUTION)


def test_hints_and_uniqueness():
    puzzle = puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3)), {(0, 0): Hint.LEFT, (3, 5): Hint.BOTTOM})
    result, _ = run(puzzle, limit=2)
    assert len(result.solutions) == min(2, brute.count(puzzle))
    assert rules.is_solved(puzzle, result.grid)


def test_a_contradiction_at_the_root():
    puzzle = puzzle_from_layout(("##..", "....", "..#.", "...."), ((2, 1), (1, 1)))
    broken = puzzle.replace(row_tallies=(2, 0, 1, 1))         # one ship cell too many
    result, _ = run(broken, limit=2)
    assert result.status is Status.NO_SOLUTION and brute.count(broken) == 0


def test_luby_sequence_in_python_and_compiled():
    expected = [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    assert [common.luby(i) for i in range(1, 16)] == expected
    assert [learning_core.luby(i) for i in range(1, 16)] == expected


def _dense(ident: str):
    path = CORPUS / "csplib_prob014_minizinc.jsonl"
    if not path.exists():
        pytest.skip("the shared corpus is not here")
    for name, puzzle in iter_corpus(path):
        if name.endswith(ident):
            return puzzle
    pytest.skip(f"{ident} is not in the corpus")


@pytest.mark.parametrize("best_phase", [False, True])
def test_a_dense_board_learns_and_agrees_with_forward(best_phase, monkeypatch):
    """A 12x12 MiniZinc board with many solutions: clause learning meets conflicts,
    sends heartbeats and finds the same number of solutions (up to 6) as the forward search
    (with ``best_phase``, each solution after the first is found led towards the one before).
    (Its whole run can take less than a heartbeat's interval: a heartbeat after every slice.)"""
    monkeypatch.setattr(learning, "HEARTBEAT_SECONDS", 0.0)
    puzzle = _dense("sb_12_12_5_2")
    result, stream = run(puzzle, limit=6, best_phase=best_phase)
    assert result.status is Status.SOLVED
    assert result.stats["conflicts"] > 0 and result.stats["decisions"] > 0
    assert any(isinstance(event, Progress) for event in stream)
    for grid in result.solutions:
        assert rules.is_solved(puzzle, grid)
    reference = [e for e in forward.events(puzzle, trace=False, limit=6) if isinstance(e, Result)][0]
    assert len(result.solutions) == len(reference.solutions)


def test_a_heartbeat_comes_long_before_the_answer():
    """The runner and the portfolio stop a solver between two events: the hardest board's run
    yields a heartbeat first (the compiled search runs in slices of a few milliseconds; its
    answer takes over a second)."""
    puzzle = _dense("sb_15_15_7_0")
    stream = learning.events(puzzle, limit=2)
    assert isinstance(next(stream), Progress)
    stream.close()


def test_the_hardest_proof_forgets_learnt_clauses_and_stays_exact():
    """15_15_7_0 proved unique: thousands of conflicts, so the learnt clauses are halved (and
    the arena and watch lists laid out again) on the way, and the count stays exact: one
    solution, judged, the corpus's own."""
    puzzle = _dense("sb_15_15_7_0")
    result, _ = run(puzzle, limit=2)
    assert result.status is Status.SOLVED and len(result.solutions) == 1
    assert result.stats["conflicts"] > learning_core.REDUCE_FIRST
    assert result.stats["learnt"] < result.stats["conflicts"] // 2
    assert rules.is_solved(puzzle, result.grid)
    if puzzle.solution is not None:
        assert result.grid == grid_from_strings(puzzle.solution)


def test_slices_of_any_size_make_the_same_search(monkeypatch):
    """The compiled search stops between slices and goes on where it stopped: cut into slices
    of a few conflicts or a few hundred steps of work, it makes the very same conflicts and
    decisions and finds the same solutions as in its usual slices."""
    puzzle = _dense("sb_13_13_6_0")
    usual, _ = run(puzzle, limit=2, every_variable=True, best_phase=True)
    monkeypatch.setattr(learning, "SLICE_CONFLICTS", 3)
    monkeypatch.setattr(learning, "SLICE_DECISIONS", 50)
    monkeypatch.setattr(learning, "SLICE_WORK", 300)
    slices = []
    run_slice = learning_core.Search.run_slice
    monkeypatch.setattr(learning_core.Search, "run_slice", lambda self, *budget: slices.append(budget) or
                        run_slice(self, *budget))
    sliced, _ = run(puzzle, limit=2, every_variable=True, best_phase=True)
    assert usual.stats["conflicts"] > 100
    assert len(slices) > usual.stats["conflicts"] // 3            # cut at least as often as the conflicts ask
    for key in ("conflicts", "decisions", "learnt", "restarts"):
        assert sliced.stats[key] == usual.stats[key]
    assert sliced.solutions == usual.solutions and len(usual.solutions) == 2


def test_the_bands_give_a_second_solution_near_the_first(monkeypatch):
    """The portfolio's learning member: after its first solution the forward search looks in
    the bands around it, and its answer (two judged solutions) ends the member. (Their time
    is made ample: on a loaded machine one second may not be. The board is a learners' one,
    where the bands are left out: here it is taken for another.)"""
    monkeypatch.setattr(portfolio, "BANDS_SECONDS", 60.0)
    monkeypatch.setattr(portfolio, "learners_board", lambda puzzle: False)
    puzzle = _dense("sb_12_12_5_1")
    stream = portfolio._learning_then_bands(puzzle, 2, {})
    events = list(stream)
    result = events[-1]
    assert isinstance(result, Result) and result.status is Status.SOLVED and len(result.solutions) == 2
    assert result.stats["bands"] > 0                        # the forward search's answer, not the learning's
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)


def test_the_restart_unit_sets_how_often_the_search_restarts():
    """Conflicts per unit of the Luby sequence: with a unit of 1 a search with conflicts
    restarts, with a unit larger than its conflicts it never does; the count is the same."""
    puzzle = max(random_puzzles(11, 30), key=lambda p: run(p, limit=3)[0].stats["conflicts"])
    often, _ = run(puzzle, limit=3, restart_unit=1)
    never, _ = run(puzzle, limit=3, restart_unit=10**6)
    usual, _ = run(puzzle, limit=3)
    assert usual.stats["conflicts"] > 0 and often.stats["restarts"] > 0 and never.stats["restarts"] == 0
    assert len(often.solutions) == len(never.solutions) == len(usual.solutions)


def test_the_watch_pool_grows_between_rounds_and_every_clause_stays_watched_twice():
    """The compiled search never replaces an array inside its loops (where numba would count the
    references of a replaced array at every turn): the watch lists' pool is made roomy enough
    for a whole round of propagation before each round. On the proof of 15_15_7_0 the pool
    grows several times; after every slice it has the room a round may take, every list lies
    within what is in use, and every clause kept is in the lists of its first two literals."""
    puzzle = _dense("sb_15_15_7_0")
    clauses = learning._Clauses(puzzle)
    search = learning_core.Search(clauses.n, len(clauses.cells), len(clauses.cells), False, 2, clauses.clauses,
                                  clauses._arrays())
    assert search.assume(clauses.units)
    first_pool = search.state[23].shape[0]
    sizes = set()
    solutions = []
    while not search.done:
        found = search.run_slice(learning.SLICE_CONFLICTS, learning.SLICE_DECISIONS, learning.SLICE_WORK)
        if found is not None:
            solutions.append(found.copy())
        regs, pool = search.regs, search.state[23]
        wstart, wlen, wcap = search.state[20:23]
        sizes.add(pool.shape[0])
        assert regs[learning_core.WTOP] <= pool.shape[0]
        assert (wlen <= wcap).all() and (wstart + wcap <= regs[learning_core.WTOP]).all()
    assert len(solutions) == 1 and max(sizes) > first_pool and len(sizes) > 2
    regs, lits, start, learnt = search.regs, search.state[15], search.state[16], search.state[18]
    wstart, wlen, pool = search.state[20], search.state[21], search.state[23]
    watched = {lit: set(pool[wstart[lit]:wstart[lit] + wlen[lit]].tolist()) for lit in range(2 * clauses.n)}
    kept = [ci for ci in range(regs[learning_core.NCL]) if learnt[ci] != 2]
    assert len(kept) > 1000
    for ci in kept:
        assert ci in watched[lits[start[ci]]] and ci in watched[lits[start[ci] + 1]]


def test_a_walk_paused_for_room_makes_the_same_search():
    """When a round of propagation finds the watch pool without room for a list it moves, the
    walk pauses, the pool grows, and the literal is walked again: with no room made ahead
    (``ROOM`` 0) some walks pause, and the search makes the very same conflicts and decisions
    and finds the same solutions as with the usual room, where none pauses."""
    puzzle = _dense("sb_13_13_6_1")
    runs = []
    for room in (learning_core.POOL_ROOM, 0):
        clauses = learning._Clauses(puzzle)
        search = learning_core.Search(clauses.n, len(clauses.cells), clauses.n, True, 2, clauses.clauses,
                                      clauses._arrays())
        search.regs[learning_core.ROOM] = room
        assert search.assume(clauses.units)
        solutions = []
        while not search.done:
            found = search.run_slice(learning.SLICE_CONFLICTS, learning.SLICE_DECISIONS, learning.SLICE_WORK)
            if found is not None:
                solutions.append(found.tobytes())
        runs.append((search.stats(), solutions, int(search.regs[learning_core.PAUSES])))
    (usual, usual_solutions, usual_pauses), (tight, tight_solutions, tight_pauses) = runs
    assert usual_pauses == 0 < tight_pauses
    assert tight == usual and usual["conflicts"] > 1000
    assert tight_solutions == usual_solutions and len(usual_solutions) == 2
    for ship in usual_solutions:
        cells = np.frombuffer(ship, np.int8)
        grid = learning._Clauses(puzzle).geo.grid(sum(1 << clauses.cells[v] for v in np.flatnonzero(cells)))
        assert rules.is_solved(puzzle, grid)
