"""A memetic genetic algorithm: a population of fleet layouts, improved by local search.

An individual is one candidate placement per ship (``solvers.genetic.fleet``). Each
generation keeps an elite and breeds the rest by tournament selection, crossover (by a cut
across the board, ships kept whole), a mutation and min-conflicts repair (compiled, in
``repair_core``); a population that stops improving is rebuilt around the best winners of
earlier rounds (emptied when it stops taking new ones). The operators and their options are
described in docs/design/genetic.md.

Statistics: ``generations``, ``evaluations`` (candidate places scored), ``restarts``,
``best_fitness`` (0 when solved), ``seconds``; ``nodes`` repeats ``evaluations``.
Incomplete: it never proves a puzzle unique or impossible (except when a ship fits
nowhere), and runs until solved, until ``max_generations``, or until the consumer stops it.
"""

from __future__ import annotations

import random
import time
from typing import Any, Iterator, Mapping

import numpy as np

from game.puzzle import Cell, Puzzle, initial_grid
from solvers.common import beating, elapsed, verified
from solvers.events import Generation, Progress, Reason, Result, SetCell, Status, Stream
from solvers.genetic import GENETIC
from solvers.genetic import repair_core as core
from solvers.genetic.fleet import FleetModel, Layout

HEARTBEAT_SECONDS = 0.02
TROUBLE_FIRST = 0.8      # share of repair steps that pick a ship in conflict rather than any ship
# Fleets of this many ships or more (the 30x20 giant has 80) get, unless the options say
# otherwise, region crossover, an archive of ARCHIVE round winners and longer rounds: their
# winners are near-solutions wrong in a few places, which joining two of them can mend. On
# smaller fleets the archive only draws the population back to old minima (docs/design/genetic.md).
LARGE_FLEET = 50
ARCHIVE = 5
# Rounds in a row whose winner the archive does not take before it is emptied: by then every
# round is drawn back to the same archived minimum, and only fresh rounds find new ones.
ARCHIVE_PATIENCE = 8
STAGNATION = (20, 40)    # generations without improvement before a restart: other fleets, large ones


def _canonical(model: FleetModel, layout: Layout) -> Layout:
    """Ships of one length in increasing candidate order, so crossover lines up like with like."""
    for first, last in model.length_runs:
        layout.ids[first:last].sort()
    return layout


def _random_layout(model: FleetModel, rng: random.Random) -> list[int]:
    return [int(model.ids_by_length[n][rng.randrange(len(model.ids_by_length[n]))]) for n in model.slot_lengths]


def _build(model: FleetModel, rng: random.Random) -> tuple[Layout, int]:
    """A hint-respecting start: place the ships one by one (in random order), each where it costs least."""
    layout = Layout(model, _random_layout(model, rng))
    order = list(range(len(model.slot_lengths)))
    rng.shuffle(order)
    # Ships not yet placed sit at their random spot; greedily re-placing each in turn covers
    # the hints and fills the tallies.
    evaluations = layout.place_greedily(order, rng.getrandbits(32))
    return _canonical(model, layout), evaluations


def _tournament(population: list[Layout], size: int, rng: random.Random) -> Layout:
    return min(rng.choices(population, k=size), key=lambda layout: layout.fitness)


def _region_crossover(model: FleetModel, mother: np.ndarray, father: np.ndarray, rng: random.Random) -> np.ndarray:
    """The mother's ships on one side of a cut across the board, the father's on the other,
    length by length (``repair_core.region_crossover``)."""
    axis = rng.randrange(2)
    side = (model.puzzle.rows, model.puzzle.cols)[axis]
    if side < 2:
        return mother.copy()
    cut = 2 * rng.randrange(1, side) - 1                  # between two lines, in doubled units
    return core.region_crossover(mother, father, model.centre[axis], cut, model.run_first, model.run_last,
                                 rng.getrandbits(32))


def _archived(archive: list[Layout], winner: Layout, keep: int, stale: int) -> tuple[list[Layout], int]:
    """The archive after a round won by ``winner``: the ``keep`` best distinct winners so far,
    and how many rounds in a row it has taken none; after ``ARCHIVE_PATIENCE`` such rounds it
    is emptied, so that fresh rounds look for other near-solutions."""
    new = all(not np.array_equal(winner.ids, kept.ids) for kept in archive)
    if new:
        archive = sorted(archive + [winner.copy()], key=lambda layout: layout.fitness)[:keep]
    taken = new and any(np.array_equal(winner.ids, kept.ids) for kept in archive)
    stale = 0 if taken else stale + 1
    return ([], 0) if stale >= ARCHIVE_PATIENCE else (archive, stale)


def _child(model: FleetModel, population: list[Layout], p: Mapping[str, Any], rng: random.Random) -> tuple[Layout, int]:
    mother = _tournament(population, p["tournament"], rng)
    father = _tournament(population, p["tournament"], rng)
    slots = len(model.slot_lengths)
    if slots > 1 and rng.random() < p["crossover"]:
        if p["region"]:
            genes = _region_crossover(model, mother.ids, father.ids, rng)
        else:
            cut = rng.randrange(1, slots)
            genes = np.concatenate((mother.ids[:cut], father.ids[cut:]))
    else:
        genes = mother.ids.copy()
    if slots and rng.random() < p["mutation"]:
        slot = rng.randrange(slots)
        choices = model.ids_by_length[model.slot_lengths[slot]]
        genes[slot] = int(choices[rng.randrange(len(choices))])
    child = Layout(model, genes)
    evaluations = 1
    if p["local_search"] and child.fitness:          # min-conflicts repair (``Layout.repair``)
        evaluations += child.repair(p["local_search"], p["noise"], TROUBLE_FIRST, rng.getrandbits(32))
    return _canonical(model, child), evaluations


def events(puzzle: Puzzle, *, trace: bool = True, rng: random.Random | None = None, limit: int = 1,
           **options: Any) -> Stream:
    """Run the genetic algorithm on ``puzzle``; see the module docstring.

    ``options`` are those of ``solvers.genetic.GENETIC`` (defaults for the rest); a bad one
    raises ``OptionError`` here, at the call, not at the first event. ``limit`` is accepted
    for the common protocol: the algorithm stops at its first solution.
    """
    return _run(puzzle, trace, rng if rng is not None else random.Random(0), GENETIC.resolve(options))


def _by_fleet(p: Mapping[str, Any], ships: int) -> dict[str, Any]:
    """The options with ``region``, ``keep`` and ``stagnation`` of -1 set by the size of the fleet."""
    large = ships >= LARGE_FLEET
    chosen = dict(p)
    if chosen["region"] < 0:
        chosen["region"] = int(large)
    if chosen["keep"] < 0:
        chosen["keep"] = ARCHIVE if large else 0
    if chosen["stagnation"] < 0:
        chosen["stagnation"] = STAGNATION[large]
    return chosen


def _run(puzzle: Puzzle, trace: bool, rng: random.Random, p: Mapping[str, Any]) -> Stream:
    start = time.perf_counter()
    model = yield from beating(FleetModel.in_slices(puzzle))
    p = _by_fleet(p, len(model.slot_lengths))
    stats: dict[str, float] = {"seconds": 0.0, "nodes": 0, "backtracks": 0, "propagated": 0,
                               "generations": 0, "evaluations": 0, "restarts": 0, "best_fitness": float("inf")}

    def snapshot() -> dict[str, float]:
        stats["seconds"] = elapsed(start)
        return dict(stats)

    missing = model.impossible_length()
    if missing is not None:
        yield Result(Status.NO_SOLUTION, None, snapshot(), (), f"no place fits a ship of length {missing}")
        return

    size = p["population"]
    elite = max(1, round(p["elite"] * size)) if p["elite"] > 0 else 0
    last_beat = last_stats = time.perf_counter()
    best_ever: Layout | None = None
    population: list[Layout] = []
    since_improvement = 0
    generation = 0
    archive: list[Layout] = []
    stale = 0                      # rounds since the archive last took a winner
    while True:
        if not population:
            # A fresh (or restarted) population of greedy, hint-respecting fleets, with the
            # best winners of earlier rounds.
            population = [layout.copy() for layout in archive]
            while len(population) < size:
                layout, evaluations = _build(model, rng)
                stats["evaluations"] += evaluations
                population.append(layout)
                if time.perf_counter() - last_beat > HEARTBEAT_SECONDS:
                    yield Progress(snapshot())
                    last_beat = last_stats = time.perf_counter()
            round_best = float("inf")
        else:
            population.sort(key=lambda layout: layout.fitness)
            offspring = [layout.copy() for layout in population[:elite]]
            while len(offspring) < size:
                child, evaluations = _child(model, population, p, rng)
                stats["evaluations"] += evaluations
                offspring.append(child)
                if child.fitness == 0:
                    break
                if time.perf_counter() - last_beat > HEARTBEAT_SECONDS:
                    yield Progress(snapshot())
                    last_beat = last_stats = time.perf_counter()
            population = offspring
        population.sort(key=lambda layout: layout.fitness)
        generation += 1
        leader = population[0]
        if best_ever is None or leader.fitness < best_ever.fitness:
            best_ever = leader.copy()
        if leader.fitness < round_best:
            round_best, since_improvement = leader.fitness, 0
        else:
            since_improvement += 1
        stats["generations"] = generation
        stats["nodes"] = stats["evaluations"]
        stats["best_fitness"] = best_ever.fitness
        mean = sum(layout.fitness for layout in population) / len(population)
        yield Generation(generation, leader.fitness, mean, model.fleet(leader.ids), int(stats["restarts"]))
        if time.perf_counter() - last_stats > HEARTBEAT_SECONDS:
            yield Progress(snapshot())       # generations are quick: the counts must not go stale
            last_stats = time.perf_counter()
        last_beat = time.perf_counter()
        if best_ever.fitness == 0 or 0 < p["max_generations"] <= generation:
            break
        if since_improvement >= p["stagnation"]:
            stats["restarts"] += 1
            if p["keep"]:
                archive, stale = _archived(archive, leader, p["keep"], stale)
            population, since_improvement = [], 0
    board = model.grid(best_ever.ids)
    if trace:
        yield from _draw(puzzle, board)
    if best_ever.fitness == 0:
        yield verified(puzzle, board, snapshot())
    else:
        yield Result(Status.GAVE_UP, board, snapshot(), (),
                     f"best fleet after {generation} generations still breaks rules (penalty {best_ever.fitness:g})")


def _draw(puzzle: Puzzle, board) -> Iterator[SetCell]:
    """Moves that turn the starting board into ``board`` (ship cells first, then water)."""
    start = initial_grid(puzzle)
    changed = [(r, c) for r, c in puzzle.cells() if start[r][c] != board[r][c]]
    changed.sort(key=lambda cell: board[cell[0]][cell[1]] != Cell.SHIP)
    for r, c in changed:
        yield SetCell(r, c, board[r][c], Reason.FILL, "best individual")


def warm_up() -> None:
    """Compile the repair loop now (``repair_core``, about 5 s once), by a short run on a small
    board: numba keeps the machine code in its cache, so later processes only load it.
    ``make setup`` and the background build (``solvers.compiling``) call it."""
    from pathlib import Path

    from game.levels import load

    puzzle = load(Path(__file__).resolve().parents[2] / "levels" / "10x10" / "expert" / "01.bs")
    for _ in events(puzzle, trace=False, rng=random.Random(1), max_generations=3, region=1, keep=5):
        pass
