"""The genetic solver: its fitness function, its event stream, and that it really solves."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import numpy as np
import pytest

from game import rules
from game.puzzle import Hint, Puzzle, initial_grid
from game.ships import geometry_of
from solvers.common import replay
from solvers.contract import OptionError
from solvers.events import Generation, Progress, Reason, Result, SetCell, Ship, Status
from solvers.genetic import GENETIC
from solvers.genetic import algorithm as genetic
from solvers.genetic import repair_core as core
from solvers.genetic.fleet import FleetModel, Layout

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

# A 6x6 layout of the standard fleet (cruiser, two destroyers, three submarines).
SIX_SHIPS = (Ship(0, 0, 3, True), Ship(2, 4, 2, False), Ship(5, 0, 2, True),
             Ship(2, 0, 1, False), Ship(3, 2, 1, False), Ship(0, 5, 1, False))


def puzzle_from_ships(rows: int, cols: int, ships, hints=None, unknown_rows=()) -> Puzzle:
    """A puzzle whose tallies are counted from ``ships`` (so the ships are one solution)."""
    row_tallies = [0] * rows
    col_tallies = [0] * cols
    fleet: dict[int, int] = {}
    for ship in ships:
        fleet[ship.length] = fleet.get(ship.length, 0) + 1
        for r, c in ship.cells():
            row_tallies[r] += 1
            col_tallies[c] += 1
    row_tallies = [None if r in unknown_rows else t for r, t in enumerate(row_tallies)]
    return Puzzle(rows, cols, tuple(row_tallies), tuple(col_tallies), tuple(fleet.items()), hints or {})


SIX = puzzle_from_ships(6, 6, SIX_SHIPS, {(0, 0): Hint.LEFT, (3, 2): Hint.SUB, (4, 4): Hint.WATER})


def layout_of(model: FleetModel, ships) -> list[int]:
    """Candidate ids for ``ships``, in the model's slot order (longest first)."""
    ordered = sorted(ships, key=lambda ship: -ship.length)
    return [model.ships.index(ship) for ship in ordered]


def run(puzzle: Puzzle, seed: int = 0, trace: bool = True, **params) -> list:
    return list(genetic.events(puzzle, trace=trace, rng=random.Random(seed), **params))


# --- the fitness function --------------------------------------------------------------------


def random_ids(model, rng):
    """A layout of random places, one per slot of the fleet (ships may overlap or touch)."""
    return [int(rng.choice(model.ids_by_length[n])) for n in model.slot_lengths]


def test_fitness_is_zero_exactly_for_a_solution():
    model = FleetModel(SIX)
    penalties = model.penalties(layout_of(model, SIX_SHIPS))
    assert penalties.total == 0
    assert rules.is_solved(SIX, model.grid(layout_of(model, SIX_SHIPS)))


def test_overlapping_ships_are_penalised():
    model = FleetModel(SIX)
    # The second destroyer lies on the first one.
    ships = SIX_SHIPS[:2] + (Ship(2, 4, 2, False),) + SIX_SHIPS[3:]
    penalties = model.penalties(layout_of(model, ships))
    assert penalties.overlap > 0 and penalties.total > 0


def test_touching_ships_are_penalised():
    model = FleetModel(SIX)
    # The submarine at (0, 5) moves to (2, 5), beside the destroyer at (2, 4)-(3, 4).
    ships = SIX_SHIPS[:5] + (Ship(2, 5, 1, False),)
    penalties = model.penalties(layout_of(model, ships))
    assert penalties.overlap == 0 and penalties.touching > 0


def test_a_tally_off_by_one_is_penalised():
    tallies = list(SIX.row_tallies)
    tallies[5] += 1
    model = FleetModel(SIX.replace(row_tallies=tuple(tallies)))
    penalties = model.penalties(layout_of(model, SIX_SHIPS))
    assert penalties.tallies == 1 and penalties.overlap == penalties.touching == penalties.hints == 0
    assert penalties.total > 0


def test_an_uncovered_hint_is_penalised():
    model = FleetModel(SIX)
    # The submarine on the given "sub" at (3, 2) moves away to (5, 5).
    ships = SIX_SHIPS[:4] + (Ship(5, 5, 1, False),) + SIX_SHIPS[5:]
    penalties = model.penalties(layout_of(model, ships))
    assert penalties.hints == 1 and penalties.total > 0


@pytest.mark.parametrize("puzzle", [SIX, SIX.replace(row_tallies=(3, None, 2, 2, None, 3), hints={})])
def test_moving_ships_keeps_the_running_fitness_exact(puzzle):
    rng = random.Random(7)
    model = FleetModel(puzzle)
    for _ in range(30):
        layout = Layout(model, random_ids(model, rng))
        for _ in range(10):
            slot = rng.randrange(len(layout.ids))
            ids, totals = layout.scores(slot)
            k = rng.randrange(len(ids))
            layout.move(slot, int(ids[k]), totals[k])
            assert layout.fitness == model.penalties(layout.ids).total


@pytest.mark.parametrize("puzzle", [SIX, SIX.replace(row_tallies=(3, None, 2, 2, None, 3), hints={})])
def test_compiled_repair_keeps_the_running_counts_exact_and_never_leaves_the_candidates(puzzle):
    model = FleetModel(puzzle)
    for seed in range(40):
        rng = random.Random(seed)
        layout = Layout(model, random_ids(model, rng))
        evaluations = layout.repair(25, 0.2, 0.8, seed)
        assert evaluations > 0 or layout.fitness == 0
        assert layout.fitness == model.penalties(layout.ids).total
        assert layout.conflict == model.penalties(layout.ids).overlap + model.penalties(layout.ids).touching
        state, lines, _ = model.counts(layout.ids)
        assert (layout.state == state).all() and (layout.lines == lines).all()
        for slot, candidate in enumerate(layout.ids):
            assert model.ships[candidate].length == model.slot_lengths[slot]


def test_compiled_repair_lowers_the_penalty_and_repeats_with_its_seed():
    model = FleetModel(SIX)
    rng = random.Random(3)
    start = random_ids(model, rng)
    runs = []
    for _ in range(2):
        layout = Layout(model, start)
        before = layout.fitness
        layout.repair(50, 0.0, 0.8, 11)
        runs.append(layout.ids.tolist())
    assert runs[0] == runs[1]
    assert layout.fitness < before       # without noise each move is to a best place: never uphill


def test_candidates_respect_hints_water_and_zero_lines():
    ships = FleetModel(SIX).ships
    cruisers = [ship for ship in ships if ship.length == 3]
    assert Ship(0, 0, 3, True) in cruisers
    # The "left" end at (0, 0) can only be covered as the left end of a horizontal ship.
    assert Ship(0, 0, 3, False) not in cruisers
    for ship in ships:
        assert (4, 4) not in ship.cells()
        for r, c in ship.cells():
            assert SIX.row_tallies[r] and SIX.col_tallies[c]


def test_candidates_are_the_shared_placements_with_their_cells_and_halo():
    model = FleetModel(SIX)
    geo = geometry_of(SIX)
    cells = SIX.rows * SIX.cols
    for i, ship in enumerate(model.ships):
        p = geo.placement(ship.length, ship.horizontal, ship.row, ship.col)
        puts = {int(k) for k in model.puts[i] if k != model.sink}
        zone = {divmod(k, SIX.cols) for k in puts if k < cells}
        cover = {divmod(k - cells, SIX.cols) for k in puts if k >= cells}
        assert cover == set(p.coords()) == set(ship.cells())
        assert zone == set(geo.coords(p.cells | p.halo))


def test_the_model_grows_with_ship_length_not_with_board_area():
    # Dense candidate x cell tables took 4 x 900 numbers per candidate here (and gigabytes at 60x60).
    puzzle = Puzzle(30, 30, (None,) * 30, (None,) * 30, ((4, 1), (3, 2), (2, 3), (1, 4)))
    model = FleetModel(puzzle)
    stored = sum(value.nbytes for value in vars(model).values() if isinstance(value, np.ndarray))
    assert len(model.ships) > 5000
    assert stored / len(model.ships) <= 64 * 8


MEASURE = """
import random
from game.puzzle import Puzzle
from solvers.genetic import algorithm
fleet = {10: 2, 9: 2, 8: 3, 7: 3, 6: 5, 5: 10, 4: 25, 3: 40, 2: 50, 1: 60}
puzzle = Puzzle(60, 60, (None,) * 60, (None,) * 60, fleet)
for event in algorithm.events(puzzle, trace=False, rng=random.Random(0), max_generations=1):
    pass
# The peak of this process's own memory: its ru_maxrss would count the parent's too, which a
# process started by vfork takes over at exec (a test run that has grown large).
print(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")))
"""


@pytest.mark.slow
def test_a_largest_board_with_a_largest_fleet_stays_well_under_a_gigabyte():
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", MEASURE], cwd=root, capture_output=True, text=True, check=True)
    assert int(done.stdout.split()[-1]) < 400 * 1024          # kilobytes (Linux)


# --- the event stream ------------------------------------------------------------------------

def test_solves_a_six_by_six_puzzle_with_a_fixed_seed():
    stream = run(SIX, seed=1)
    result = stream[-1]
    assert isinstance(result, Result) and result.status is Status.SOLVED
    assert rules.is_solved(SIX, result.grid)
    assert replay(initial_grid(SIX), stream) == result.grid
    # the best fleet is laid on the board as an answer, not painted as a deduction
    assert all(e.reason is Reason.FILL and e.detail == "best individual" for e in stream if isinstance(e, SetCell))
    for key in ("seconds", "generations", "evaluations", "restarts", "best_fitness"):
        assert key in result.stats
    assert result.stats["best_fitness"] == 0


def test_solves_a_ten_by_ten_puzzle_with_a_fixed_seed():
    ships = (Ship(0, 0, 4, True), Ship(2, 5, 3, False), Ship(9, 0, 3, True), Ship(0, 8, 2, True),
             Ship(6, 2, 2, False), Ship(5, 8, 2, False), Ship(2, 0, 1, False), Ship(2, 9, 1, False),
             Ship(8, 5, 1, False), Ship(8, 7, 1, False))
    hints = {(0, 3): Hint.RIGHT, (3, 5): Hint.MIDDLE, (8, 7): Hint.SUB, (5, 5): Hint.WATER}
    puzzle = puzzle_from_ships(10, 10, ships, hints)
    assert FleetModel(puzzle).penalties(layout_of(FleetModel(puzzle), ships)).total == 0
    result = run(puzzle, seed=0, trace=False)[-1]
    assert result.status is Status.SOLVED and rules.is_solved(puzzle, result.grid)


def test_solves_a_tiny_puzzle_with_an_unknown_tally():
    ships = (Ship(0, 0, 2, True), Ship(2, 3, 1, False), Ship(3, 0, 1, False))
    puzzle = puzzle_from_ships(4, 4, ships, unknown_rows=(1,))
    result = run(puzzle, seed=3)[-1]
    assert result.status is Status.SOLVED and rules.is_solved(puzzle, result.grid)


def test_events_are_well_formed():
    stream = run(SIX, seed=2, population=6, local_search=0, max_generations=5)
    assert isinstance(stream[-1], Result)
    assert sum(isinstance(e, Result) for e in stream) == 1
    numbers = [e.number for e in stream if isinstance(e, Generation)]
    assert numbers == list(range(1, len(numbers) + 1)) and 1 <= len(numbers) <= 5
    for event in stream:
        if isinstance(event, Generation):
            assert len(event.best_fleet) == SIX.ship_count and event.best <= event.mean
    assert replay(initial_grid(SIX), stream) == (stream[-1].grid or initial_grid(SIX))


def test_heartbeats_carry_the_counts_even_when_generations_are_quick(monkeypatch):
    # A caller that stops a run on time reports the last counts it saw: quick generations
    # must not leave them stale.
    monkeypatch.setattr(genetic, "HEARTBEAT_SECONDS", 0.0)
    stream = run(SIX.replace(row_tallies=(4, 0, 2, 2, 0, 3)), seed=0, population=4, local_search=2, max_generations=6)
    seen = [e.number if isinstance(e, Generation) else e.stats["generations"]
            for e in stream if isinstance(e, (Generation, Progress))]
    numbers = [e.number for e in stream if isinstance(e, Generation)]
    for number in numbers:
        assert seen[seen.index(number) + 1] == number       # each generation's counts follow it


def test_region_crossover_and_the_archive_are_for_large_fleets_unless_asked_for():
    defaults = GENETIC.resolve({})
    assert defaults["region"] == defaults["keep"] == defaults["stagnation"] == -1
    small, large = genetic._by_fleet(defaults, 21), genetic._by_fleet(defaults, genetic.LARGE_FLEET)
    assert (small["region"], small["keep"], small["stagnation"]) == (0, 0, 20)
    assert (large["region"], large["keep"], large["stagnation"]) == (1, genetic.ARCHIVE, 40)
    asked = genetic._by_fleet(GENETIC.resolve({"region": 1, "keep": 2}), 10)
    assert asked == {**defaults, "region": 1, "keep": 2, "stagnation": 20}


def test_the_archive_keeps_the_best_distinct_winners_and_is_emptied_when_it_stops_taking_them():
    model = FleetModel(SIX)
    rng = random.Random(3)
    layouts = sorted((Layout(model, random_ids(model, rng))
                      for _ in range(12)), key=lambda layout: layout.fitness)
    best, rest = layouts[0], layouts[1:]
    archive, stale = genetic._archived([], rest[-1], 2, 0)
    assert (len(archive), stale) == (1, 0)
    archive, stale = genetic._archived(archive, best, 2, 0)
    assert archive[0].ids.tolist() == best.ids.tolist() and archive[0] is not best and stale == 0
    for round_ in range(1, genetic.ARCHIVE_PATIENCE):
        archive, stale = genetic._archived(archive, best, 2, stale)   # the same winner again: nothing new
        assert len(archive) == 2 and stale == round_
    archive, stale = genetic._archived(archive, best, 2, stale)
    assert (archive, stale) == ([], 0)


def test_region_crossover_keeps_each_length_count_and_the_parents_sides():
    model = FleetModel(SIX)
    rng = random.Random(5)
    for _ in range(200):
        mother, father = (np.array(random_ids(model, rng))
                          for _ in range(2))
        child = genetic._region_crossover(model, mother, father, rng)
        assert [model.ships[i].length for i in child] == list(model.slot_lengths)
        assert set(child.tolist()) <= set(mother.tolist()) | set(father.tolist())


def test_a_layouts_counts_are_its_ships_cells_zones_and_lines():
    model = FleetModel(SIX)
    rng = random.Random(9)
    cells = model.cells
    for _ in range(30):
        layout = Layout(model, random_ids(model, rng))
        cover, zone = np.zeros(cells, dtype=int), np.zeros(cells, dtype=int)
        lines = np.zeros(model.lines + 1)
        for i in layout.ids:
            ship = model.ships[i]
            for r, c in ship.cells():
                cover[r * SIX.cols + c] += 1
                lines[r] += 1
                lines[SIX.rows + c] += 1
            rows = {r for r, _ in ship.cells()}
            cols = {c for _, c in ship.cells()}
            for r in range(max(0, min(rows) - 1), min(SIX.rows, max(rows) + 2)):
                for c in range(max(0, min(cols) - 1), min(SIX.cols, max(cols) + 2)):
                    zone[r * SIX.cols + c] += 1
        assert (layout.state[:cells] == zone).all() and (layout.state[cells:2 * cells] == cover).all()
        assert (layout.lines == lines).all() and layout.conflict == float(cover @ (zone - 1))


def test_region_crossover_takes_each_parents_ships_on_its_side_of_the_cut():
    model = FleetModel(SIX)
    rng = random.Random(6)
    for _ in range(200):
        mother, father = (np.array(random_ids(model, rng))
                          for _ in range(2))
        axis, cut = rng.randrange(2), 2 * rng.randrange(1, 6) - 1
        centre = model.centre[axis]
        child = core.region_crossover(mother, father, centre, cut, model.run_first, model.run_last,
                                      rng.getrandbits(32))
        for first, last in model.length_runs:
            sides = set(mother[first:last][centre[mother[first:last]] < cut].tolist()
                        + father[first:last][centre[father[first:last]] > cut].tolist())
            kept = set(child[first:last].tolist())
            assert sides <= kept if len(sides) <= last - first else kept <= sides


def test_gives_up_after_max_generations_with_the_best_board():
    impossible = SIX.replace(row_tallies=(4, 0, 2, 2, 0, 3))   # 11 ship cells for a fleet of 10
    stream = run(impossible, seed=0, population=8, local_search=2, max_generations=3)
    result = stream[-1]
    assert result.status is Status.GAVE_UP and result.grid is not None
    assert result.stats["generations"] == 3 and result.stats["best_fitness"] > 0
    assert replay(initial_grid(impossible), stream) == result.grid


def test_same_seed_same_run():
    def summaries(seed: int):
        return [(e.number, e.best, e.mean, e.best_fleet, e.restarts)
                for e in run(SIX, seed=seed, trace=False, population=8, local_search=0, max_generations=6)
                if isinstance(e, Generation)]
    assert summaries(5) == summaries(5)


def test_without_trace_only_summaries_and_heartbeats():
    stream = run(SIX, seed=1, trace=False)
    assert not any(isinstance(e, SetCell) for e in stream)
    assert all(isinstance(e, (Generation, Progress, Result)) for e in stream)


def test_a_ship_that_fits_nowhere_means_no_solution():
    puzzle = Puzzle(4, 4, (1, 1, 1, 1), (1, 1, 1, 1), ((5, 1),))
    assert run(puzzle)[-1].status is Status.NO_SOLUTION


def test_options_are_declared_checked_and_never_read_from_settings(tmp_path, monkeypatch):
    assert GENETIC.resolve({"population": 7})["population"] == 7
    assert GENETIC.resolve({"population": 7})["tournament"] == GENETIC.option("tournament").default
    with pytest.raises(OptionError, match="bogus"):
        genetic.events(SIX, bogus=1, population=7)
    with pytest.raises(OptionError, match="population must be between 2 and 500"):
        genetic.events(SIX, population=0)
    # A player's settings file has no say in a solver run: same seed, same run.
    first = run(SIX, seed=7, trace=False)
    (tmp_path / "settings.yaml").write_text("genetic:\n  population: 3\n  mutation: 1.0\n")
    monkeypatch.setenv("BATTLESHIPS_HOME", str(tmp_path))
    assert run(SIX, seed=7, trace=False)[-1].stats["evaluations"] == first[-1].stats["evaluations"]


# --- the corpus (slow) -----------------------------------------------------------------------

def unique_corpus_puzzles(sizes: set[int]):
    from game.levels import from_corpus_record
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not beside the repository")
    found = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("n_solutions") == 1 and record["hints"] and record["rows"] == record["cols"] in sizes:
                found.append((record["id"], from_corpus_record(record, path.name)))
    return found


@pytest.mark.slow
def test_solves_a_sample_of_the_corpus():
    puzzles = unique_corpus_puzzles({6, 8, 10})
    sample = random.Random(0).sample(puzzles, min(12, len(puzzles)))
    for ident, puzzle in sample:
        start = time.perf_counter()
        stream = genetic.events(puzzle, trace=False, rng=random.Random(0))
        result = None
        for event in stream:
            if isinstance(event, Result):
                result = event
                break
            if time.perf_counter() - start > 60:
                stream.close()
                break
        assert result is not None and result.status is Status.SOLVED, ident
        assert rules.is_solved(puzzle, result.grid), ident
