"""Level generator: a random fleet layout, its tallies, and just enough hints.

1. Lay the fleet at random (seeded ``random.Random(seed)``): longest ships first, each in a
   place that touches no ship already laid; start again on a dead end.
2. Tallies come from the layout (``hide_tallies`` of them can be left unknown).
3. Hints are added from the cells the deduction engine could not settle (one for every
   ``HINT_PER_UNKNOWN`` of them at once, at least one) until the puzzle is solvable with the
   rules of the requested grade. For ``expert`` and no grade: until the engine without
   contradictions finishes it, or, once few cells are open, until the verdict proves it
   unique; then each hint goes where the second solution the verdict met differs from the
   layout.
4. Hints are then removed, in random order, while the puzzle stays solvable at that grade
   (``expert``: stays unique), and the result is graded by the engine (``solvers.authoring.grading``).
   ``minimal``: then while it stays unique, so no hint is redundant (the rules of a grade may
   need a hint that uniqueness does not). A layout that lands on another grade is dropped and
   the next one is tried.

Same arguments and seed, same level. ``build_pack(folder, seed)`` writes the shipped pack.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Callable, Iterator, Mapping

from game import files, levels
from game.limits import MAX_SIDE
from game.puzzle import (
    Cell,
    Coord,
    Fleet,
    Grid,
    Hint,
    Puzzle,
    default_fleet,
    grid_to_strings,
    plural,
    seconds_said,
    ship_counts,
    wrong_marks,
)
from game.ships import geometry, hint_at
from game.slices import Cancelled
from solvers.authoring.grading import GRADE_LEVEL, GRADES, GradeError, grade, without_hints
from solvers.engine.verdict import Kind, Verdict, VerdictError, decide
from solvers.logic import deduction as logic

MAX_LAYOUT_NODES = 200_000     # places a search for a tight fleet's layout may try
MAX_LAYOUT_TRIES = 2000
COUNT_WORK = 50_000      # nodes and probes of an exact count; one that needs more is "not shown unique"
# Removing an expert level's hints: a count is first asked of the forward search within
# COUNT_FIRST, then of clause learning within COUNT_CONFLICTS, then as above (_removal_count).
COUNT_FIRST = 2_000
COUNT_CONFLICTS = 50_000
HINT_PER_UNKNOWN = 100   # hints added at once: one for each this many cells the engine left open
FEW_UNKNOWN_SHARE = 8    # the verdict is asked once at most 1/this of the cells are open (40 at least)
REMOVE_GROUP = 2         # hints asked together when removing them below level 4 (see remove_hints)
# A grade is out of reach when this many layouts, the first ones, all came out at one lower
# grade (docs/design/generator.md: a board that gives two grades is let run on).
REACH_LAYOUTS = 1000
# A fleet with at most this many layouts is searched whole for a level of the grade, asking
# the engine about at most this many hint sets (proved_out_of_reach).
PROOF_LAYOUTS = 10_000
PROOF_HINT_SETS = 60_000


class GeneratorCancelled(Exception):
    """The caller's ``cancelled()`` said stop: no level."""


class GeneratorError(ValueError):
    """The request cannot be met (a fleet that cannot fit...)."""


class GeneratorTimeout(GeneratorError):
    """The time given ran out before any level was finished: no level."""


class GeneratorOutOfReach(GeneratorError):
    """The grade asked is out of reach of the board and fleet (``REACH_LAYOUTS``): no level."""


Stage = Callable[[str], None]      # told the stage a long step is at, as a line for a user


def _unheard(text: str) -> None:
    """The ``progress`` of a caller that asked for none."""


class _OutOfTime(Exception):
    """The deadline passed during a step: what the step gave is dropped."""


def checked_request(rows, cols, fleet: Mapping[int, int] | Fleet | None) -> Fleet:
    """The fleet to lay, once the board and the fleet are within ``game.limits`` (checked by the
    loader's own rules, so every level generated loads back); :class:`GeneratorError` otherwise."""
    for name, value in (("rows", rows), ("columns", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
            raise GeneratorError(f"a board has 1 to {MAX_SIDE} {name}, not {value!r}")
    if not fleet:
        return default_fleet(rows, cols)
    pairs = fleet.items() if isinstance(fleet, Mapping) else fleet
    try:
        made = levels.read_fleet({str(length): count for length, count in pairs}, "fleet")
        levels.check_consistency(Puzzle(rows, cols, (None,) * rows, (None,) * cols, made), "fleet")
    except levels.LevelError as error:
        raise GeneratorError(error.reason) from None
    return made


def random_layout(rows: int, cols: int, fleet: Fleet, rng: random.Random,
                  deadline: float | None = None) -> frozenset[Coord]:
    """Ship cells of a random valid layout of ``fleet``; :class:`_OutOfTime` once ``deadline``
    (a ``time.perf_counter()`` value) has passed."""
    geo = geometry(rows, cols, tuple(length for length, _ in fleet))
    by_length = {length: [p for p in geo.placements if p.length == length] for length, _ in fleet}
    ships = [length for length, count in fleet for _ in range(count)]
    for _ in range(MAX_LAYOUT_TRIES):
        taken = blocked = 0
        for length in ships:
            _in_time(deadline)
            places = [p for p in by_length[length] if not p.cells & blocked]
            if not places:
                break
            place = rng.choice(places)
            taken |= place.cells
            blocked |= place.cells | place.halo
        else:
            return frozenset(geo.coords(taken))
    # A tight fleet that random tries miss: search the places in a random order, a ship of a
    # length after the one before it, up to MAX_LAYOUT_NODES places tried.
    searched = _searched_layout(ships, by_length, rng, deadline)
    if searched is None:
        raise GeneratorError(f"could not lay the fleet {dict(fleet)} on a {rows}x{cols} board")
    return frozenset(geo.coords(searched))


def _searched_layout(ships: list[int], by_length: dict, rng: random.Random, deadline: float | None) -> int | None:
    orders = {length: rng.sample(places, len(places)) for length, places in by_length.items()}
    return next(_each_layout(ships, orders, MAX_LAYOUT_NODES, deadline), None)


def _each_layout(ships: list[int], orders: Mapping[int, list], nodes: int,
                 deadline: float | None) -> Iterator[int | None]:
    """Every layout of ``ships`` (the mask of its ship cells): each ship in a place of
    ``orders[its length]`` that touches none laid before it, a ship of the same length after
    the one before it in that order. None, then no more, once ``nodes`` places have been tried."""
    tried = 0

    def lay(k: int, first: int, taken: int, blocked: int) -> Iterator[int | None]:
        nonlocal tried
        if k == len(ships):
            yield taken
            return
        order = orders[ships[k]]
        same = k + 1 < len(ships) and ships[k + 1] == ships[k]
        for i in range(first, len(order)):
            place = order[i]
            if place.cells & blocked:
                continue
            tried += 1
            if tried > nodes:
                yield None
                return
            if tried % 1000 == 0:
                _in_time(deadline)
            yield from lay(k + 1, i + 1 if same else 0, taken | place.cells, blocked | place.cells | place.halo)
            if tried > nodes:
                return

    return lay(0, 0, 0, 0)


def _tallies(solution: Grid, hide: int, rng: random.Random) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    rows_shown, cols_shown = ship_counts(solution)
    rows, cols = len(rows_shown), len(cols_shown)
    row_tallies: list[int | None] = list(rows_shown)
    col_tallies: list[int | None] = list(cols_shown)
    lines = [("row", i) for i in range(rows)] + [("col", i) for i in range(cols)]
    for axis, index in rng.sample(lines, min(hide, len(lines))):
        (row_tallies if axis == "row" else col_tallies)[index] = None
    return tuple(row_tallies), tuple(col_tallies)


def _pick_cell(grid, ships: frozenset[Coord], hints: Mapping[Coord, Hint], rng: random.Random) -> Coord | None:
    """A cell the engine could not settle."""
    return _pick([(r, c) for r, row in enumerate(grid) for c, v in enumerate(row)
                  if v == Cell.UNKNOWN and (r, c) not in hints], ships, rng)


def _pick(cells: list[Coord], ships: frozenset[Coord], rng: random.Random) -> Coord | None:
    """One of ``cells``; ship pieces are the more telling hints."""
    if not cells:
        return None
    ship_cells = [cell for cell in cells if cell in ships]
    if ship_cells and rng.random() < 0.6:
        return rng.choice(ship_cells)
    return rng.choice(cells)


def _grid_of(rows: int, cols: int, ships: frozenset[Coord]) -> Grid:
    """The solved board of a layout."""
    return tuple(tuple(Cell.SHIP if (r, c) in ships else Cell.WATER for c in range(cols)) for r in range(rows))


def _add_hints(base: Puzzle, ships: frozenset[Coord], solution: Grid, level: int, rng: random.Random,
               cancelled: Callable[[], bool], deadline: float | None = None,
               progress: Stage = _unheard) -> tuple[Puzzle, tuple]:
    """Hints until the engine finishes the puzzle at ``level`` (4: until it is unique); with
    the records of the engine's finished run (``deduction.solve``'s ``held``), if any.
    ``deadline`` (a ``time.perf_counter()`` value): :class:`_OutOfTime` once it has passed.
    ``progress`` is told the hints added so far."""
    puzzle, grid = base, None
    while True:
        if cancelled():
            raise GeneratorCancelled()
        progress(_adding(puzzle))
        outcome = logic.solve(puzzle, max_level=level if level < 4 else 2, grid=grid, solution=solution,
                              deadline=deadline, cancelled=cancelled)
        _in_time(deadline)
        if outcome.solved:
            return puzzle, outcome.held
        if outcome.contradiction:
            raise GeneratorError(f"generator bug: {outcome.contradiction}")
        unknown = sum(v == Cell.UNKNOWN for row in outcome.grid for v in row)
        if level >= 4 and unknown <= max(40, base.rows * base.cols // FEW_UNKNOWN_SHARE):
            return _tell_apart(puzzle, solution, ships, outcome.grid, rng, cancelled, deadline, progress), ()
        board = [list(row) for row in outcome.grid]
        for _ in range(max(1, unknown // HINT_PER_UNKNOWN)):
            cell = _pick_cell(board, ships, puzzle.hints, rng)
            if cell is None:
                return puzzle, ()
            puzzle = with_hint(puzzle, solution, cell)
            board[cell[0]][cell[1]] = solution[cell[0]][cell[1]]
        grid = tuple(tuple(row) for row in board)


def _adding(puzzle: Puzzle) -> str:
    return f"adding hints, {len(puzzle.hints)} so far"


def with_hint(puzzle: Puzzle, solution: Grid, cell: Coord) -> Puzzle:
    """``puzzle`` with the hint ``solution`` shows at ``cell``."""
    return puzzle.replace(hints={**puzzle.hints, cell: hint_at(solution, cell)})


def _tell_apart(puzzle: Puzzle, solution: Grid, ships: frozenset[Coord], grid: Grid, rng: random.Random,
                cancelled: Callable[[], bool], deadline: float | None = None, progress: Stage = _unheard) -> Puzzle:
    """Hints until the verdict shows ``solution`` is the only one (step 3 of the module
    docstring); when the verdict is undecided, a cell the engine left open in ``grid``.
    ``progress`` is told the hints added so far."""
    while True:
        if cancelled():
            raise GeneratorCancelled()
        progress(_adding(puzzle))
        verdict = _count(puzzle, deadline, cancelled)
        _in_time(deadline)
        if verdict.kind is Kind.UNIQUE:
            return puzzle
        other = next((found for found in verdict.solutions if found != solution), None)
        if other is None:
            cell = _pick_cell(grid, ships, puzzle.hints, rng)
        else:
            cell = _pick(wrong_marks(other, solution), ships, rng)
        if cell is None:
            return puzzle
        puzzle = with_hint(puzzle, solution, cell)


def remove_hints(puzzle: Puzzle, level: int, rng: random.Random, deadline: float | None,
                 cancelled: Callable[[], bool], solution: Grid | None = None, held: tuple = (),
                 progress: Stage = _unheard) -> Puzzle:
    """Remove hints in ``rng``'s order while the puzzle stays solvable at ``level`` (4: unique;
    below, the engine alone decides: it finishes only a puzzle with one solution).
    ``solution``: the board the hints were taken from, when known (it spares trials).

    Below level 4 the hints are asked in pairs, the same answers as one by one: the engine
    first runs on the puzzle without both. A step it proves stays true with more hints, so
    when it finishes that puzzle, it finishes each with one of the two back, and both go.
    Otherwise the board it stopped on is sound for the puzzle without either one alone, and
    each of the two is asked from there, most of the way done; when the first went, the
    puzzle without the second is the pair's, known unfinished (docs/design/generator.md).

    ``held``: the records of the engine's finished run on ``puzzle`` (``deduction.solve``). Every
    puzzle asked about has fewer hints than the last one finished, so what held there holds
    on its boards: each run is given the records of the last finished run (with ``solution``).

    ``deadline`` (a ``time.perf_counter()`` value): past it, the hints removed so far; a run
    or a verdict it cuts short keeps its hint. ``progress`` is told the hints removed so far."""
    order = list(puzzle.hints)
    rng.shuffle(order)
    size = REMOVE_GROUP if level < 4 else 1
    for start in range(0, len(order), size):
        progress(f"removing hints, {len(order) - len(puzzle.hints)} of {len(order)} gone, "
                 f"{len(order) - start} to ask")
        group = order[start:start + size]
        board = None
        if len(group) > 1:
            if _stop(cancelled, deadline):
                break
            outcome = logic.solve(without_hints(puzzle, group), max_level=level, solution=solution, held=held,
                                  deadline=deadline, cancelled=cancelled)
            if outcome.solved:
                puzzle, held = without_hints(puzzle, group), outcome.held
                continue
            board = outcome.grid
        for index, cell in enumerate(group):
            if board is not None and index == len(group) - 1 and not any(c in puzzle.hints for c in group[:-1]):
                break                      # the pair's own puzzle: unfinished
            if _stop(cancelled, deadline):
                return puzzle
            candidate = without_hints(puzzle, [cell])
            if level >= 4:
                if _removal_count(candidate, deadline, cancelled).kind is Kind.UNIQUE:
                    puzzle = candidate
                continue
            outcome = logic.solve(candidate, max_level=level, grid=board, solution=solution, held=held,
                                  deadline=deadline, cancelled=cancelled)
            if outcome.solved:
                puzzle, held = candidate, outcome.held
    return puzzle


def _stop(cancelled: Callable[[], bool], deadline: float | None) -> bool:
    """True when the deadline has passed; :class:`GeneratorCancelled` when the caller said stop."""
    if cancelled():
        raise GeneratorCancelled()
    return _past(deadline)


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() > deadline


def _in_time(deadline: float | None) -> None:
    """:class:`_OutOfTime` when ``deadline`` has passed: the step just run may have been cut short."""
    if _past(deadline):
        raise _OutOfTime()


def _count(puzzle: Puzzle, deadline: float | None, cancelled: Callable[[], bool], work: int | None = None) -> Verdict:
    """The verdict within ``work`` (``COUNT_WORK``: the same on any machine), and before ``deadline``."""
    left = None if deadline is None else max(0.0, deadline - time.perf_counter())
    verdict = decide(puzzle, timeout=left, work=COUNT_WORK if work is None else work, cancelled=cancelled)
    if cancelled():
        raise GeneratorCancelled()
    return verdict


def proved_out_of_reach(rows: int, cols: int, fleet: Fleet, level: int, cancelled: Callable[[], bool],
                        deadline: float | None = None) -> int | None:
    """The number of layouts of ``fleet`` when none of them, whatever hints make it unique,
    gives a puzzle the rules below ``level`` leave unfinished: then no level of that grade
    exists (tallies all shown). None when one does, or when the fleet has more than
    ``PROOF_LAYOUTS`` layouts or the hint sets to ask pass ``PROOF_HINT_SETS``, or at ``deadline``.

    The hints that make a layout's puzzle unique are the sets meeting, for every other layout
    with the same tallies, a cell where the two show different hints. More hints never leave
    the engine stuck where fewer let it finish (a step it proves stays true), and never raise
    the grade, so the minimal such sets are the ones to ask (docs/design/generator.md)."""
    geo = geometry(rows, cols, tuple(length for length, _ in fleet))
    ships = [length for length, count in fleet for _ in range(count)]
    orders = {length: [p for p in geo.placements if p.length == length] for length, _ in fleet}
    every: list[int] = []
    try:
        for taken in _each_layout(ships, orders, PROOF_LAYOUTS * len(ships), deadline):
            if taken is None or len(every) == PROOF_LAYOUTS:
                return None
            every.append(taken)
    except _OutOfTime:
        return None
    by_tallies: dict[tuple, list[Grid]] = {}
    for taken in every:
        grid = _grid_of(rows, cols, frozenset(geo.coords(taken)))
        by_tallies.setdefault(ship_counts(grid), []).append(grid)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    asked = 0
    for (row_tallies, col_tallies), solutions in by_tallies.items():
        base = Puzzle(rows, cols, row_tallies, col_tallies, fleet, {})
        shown = [{cell: hint_at(solution, cell) for cell in cells} for solution in solutions]
        for solution, hints in zip(solutions, shown):
            if _stop(cancelled, deadline):
                return None
            apart = [frozenset(cell for cell in cells if other[cell] != hints[cell])
                     for other in shown if other is not hints]
            hint_sets = _minimal_hitting_sets(apart, PROOF_HINT_SETS - asked)
            if hint_sets is None:
                return None
            asked += len(hint_sets)
            for chosen in hint_sets:
                puzzle = base.replace(hints={cell: hints[cell] for cell in chosen})
                try:
                    finished = logic.solve(puzzle, max_level=level - 1, solution=solution, cancelled=cancelled).solved
                except Cancelled:                  # said inside the engine
                    raise GeneratorCancelled() from None
                if not finished:
                    return None
    return len(every)


def _minimal_hitting_sets(sets: list[frozenset[Coord]], most: int) -> list[frozenset[Coord]] | None:
    """The minimal sets of cells that meet every one of ``sets``; None when there would be more than ``most``."""
    found: set[frozenset[Coord]] = set()
    branches = 0

    def meet(chosen: frozenset[Coord], i: int) -> bool:
        nonlocal branches
        while i < len(sets) and sets[i] & chosen:
            i += 1
        if i == len(sets):
            found.add(chosen)
            return True
        for cell in sorted(sets[i]):
            branches += 1
            if branches > most * 8 or not meet(chosen | {cell}, i + 1):
                return False
        return True

    if not meet(frozenset(), 0):
        return None
    minimal = [chosen for chosen in found if not any(other < chosen for other in found)]
    return None if len(minimal) > most else minimal


def _removal_count(puzzle: Puzzle, deadline: float | None, cancelled: Callable[[], bool]) -> Verdict:
    """The verdict on a puzzle with one hint fewer, each step bounded by a count of work: the
    forward search within ``COUNT_FIRST`` (it meets most second solutions at once), then clause
    learning within ``COUNT_CONFLICTS`` (it proves most such boards unique far sooner), then
    :func:`_count`. Every answer is exact, so it differs from :func:`_count`'s only where that
    one is undecided (docs/design/generator.md)."""
    verdict = _count(puzzle, deadline, cancelled, COUNT_FIRST)
    if verdict.decided:
        return verdict
    left = None if deadline is None else max(0.0, deadline - time.perf_counter())
    try:
        verdict = decide(puzzle, timeout=left, conflicts=COUNT_CONFLICTS, cancelled=cancelled)
    except VerdictError:                   # clause learning still being compiled after its wait
        verdict = Verdict(Kind.UNDECIDED)
    if cancelled():
        raise GeneratorCancelled()
    return verdict if verdict.decided else _count(puzzle, deadline, cancelled)


def generate(rows: int, cols: int, fleet: Mapping[int, int] | Fleet | None = None,
             difficulty: str | None = None, seed: int = 0, minimal: bool = False,
             timeout: float | None = None, hide_tallies: int = 0,
             cancelled: Callable[[], bool] | None = None, layouts: int | None = None,
             progress: Stage | None = None) -> Puzzle:
    """A unique, graded level. Same arguments, same level, on any machine: every bound that
    shapes the level is a count of work (``COUNT_WORK``, ``MAX_LAYOUT_TRIES``...), never a clock.

    ``difficulty`` None: hints are added until the puzzle is unique, then it is graded as it
    is. ``minimal`` removes every redundant hint, with a difficulty too. With a difficulty,
    layouts are tried until one lands on that grade, or ``layouts`` of them have been tried:
    then the closest level is returned, with its true grade in ``difficulty``.

    ``timeout``: seconds for the whole call. A level finished before it is the level the same
    arguments give without it. When it passes, the layout being worked on is dropped (never a
    level with hints added or removed halfway, so a ``minimal`` level is minimal); with a
    difficulty, the closest level finished so far is returned with its true grade in
    ``difficulty``, and with none finished :class:`GeneratorTimeout` is raised.
    :class:`GeneratorOutOfReach` when, at the first layout below ``difficulty``, every layout of
    the fleet is shown to give no level of it (:func:`proved_out_of_reach`), or when the first
    ``REACH_LAYOUTS`` layouts all came out at one grade below it.
    ``cancelled`` is polled between steps (a fraction of a second apart on boards up to
    15x15); when it returns True the generator raises :class:`GeneratorCancelled`.
    ``progress`` is told the stage the work is at, as a line for a user ("layout 3: removing
    hints, 12 of 40 gone, 28 to ask"), each time it moves on; it changes nothing made.
    """
    cancelled = cancelled or (lambda: False)
    told = progress or _unheard
    if difficulty is not None and difficulty not in GRADE_LEVEL:
        raise GeneratorError(f"unknown difficulty {difficulty!r}; choose from {', '.join(GRADES)}")
    fleet = checked_request(rows, cols, fleet)
    rng = random.Random(seed)
    deadline = time.perf_counter() + timeout if timeout is not None else None
    level = GRADE_LEVEL[difficulty] if difficulty else 4      # 4: until unique
    best: tuple[int, Puzzle, str, Grid] | None = None
    tried = 0
    grades: set[str] = set()
    proof_asked = False
    while True:
        tried += 1
        closest = f" (closest so far: {best[2]})" if best is not None and difficulty else ""
        stage = _prefixed(told, f"layout {tried}{closest}: ")
        try:
            puzzle, measured, solution = _level(rows, cols, fleet, level, difficulty, minimal, hide_tallies, rng,
                                                cancelled, deadline, stage)
        except Cancelled:                  # said inside the engine or the grade
            raise GeneratorCancelled() from None
        except _OutOfTime:
            if best is None:
                assert timeout is not None
                raise GeneratorTimeout(f"no {difficulty + ' ' if difficulty else ''}{rows}x{cols} level "
                                       f"finished in {seconds_said(timeout)}") from None
            break
        miss = abs(GRADE_LEVEL[measured] - level) if difficulty else 0
        if best is None or miss < best[0]:
            best = (miss, puzzle, measured, solution)
        grades.add(measured)
        if miss and not proof_asked and not hide_tallies:
            proof_asked = True
            told(f"asking whether any layout of the fleet gives a {difficulty} level")
            layouts_all = proved_out_of_reach(rows, cols, fleet, level, cancelled, deadline)
            if layouts_all is not None:
                raise GeneratorOutOfReach(f"no {difficulty} {rows}x{cols} level with the fleet {dict(fleet)}: the "
                                          f"{GRADES[level - 2]} rules finish every one of its {layouts_all:,} layouts, "
                                          "whatever hints make it unique; a larger board or more ships makes "
                                          "harder levels")
        if tried == REACH_LAYOUTS and grades == {measured} and GRADE_LEVEL[measured] < level:
            raise GeneratorOutOfReach(f"no {difficulty} {rows}x{cols} level with the fleet {dict(fleet)}: "
                                      f"its first {REACH_LAYOUTS:,} layouts all came out {measured}; "
                                      "a larger board or more ships makes harder levels")
        if miss == 0 or tried == layouts or _past(deadline):
            break
    _, puzzle, measured, solution = best
    name = f"Generated {rows}x{cols} {measured} #{seed}"
    puzzle = puzzle.replace(name=name, difficulty=measured, source=f"generated (seed {seed})",
                            solution=grid_to_strings(solution))
    try:                                   # what is written must read back: the loader has the last word
        levels.loads(levels.dumps(puzzle), name)
    except levels.LevelError as error:
        raise GeneratorError(f"generator bug: the level would not load ({error.reason})") from None
    return puzzle


def _prefixed(progress: Stage, prefix: str) -> Stage:
    """``progress``, told each stage after ``prefix``."""
    return lambda text: progress(prefix + text)


def _level(rows: int, cols: int, fleet: Fleet, level: int, difficulty: str | None, minimal: bool,
           hide_tallies: int, rng: random.Random, cancelled: Callable[[], bool],
           deadline: float | None, progress: Stage = _unheard) -> tuple[Puzzle, str, Grid]:
    """One layout's level, its grade and its solution (steps 1-4 of the module docstring);
    :class:`_OutOfTime` when ``deadline`` passes on the way. ``progress`` is told each step."""
    progress("laying the fleet")
    ships = random_layout(rows, cols, fleet, rng, deadline)
    solution = _grid_of(rows, cols, ships)
    row_tallies, col_tallies = _tallies(solution, hide_tallies, rng)
    base = Puzzle(rows, cols, row_tallies, col_tallies, fleet, {})
    _in_time(deadline)
    puzzle, held = _add_hints(base, ships, solution, level, rng, cancelled, deadline, progress)
    if difficulty or minimal:
        puzzle = remove_hints(puzzle, level, rng, deadline, cancelled, solution, held, progress)
    if minimal and level < 4:     # the grade's rules need hints that uniqueness does not
        puzzle = remove_hints(puzzle, 4, rng, deadline, cancelled, solution, progress=progress)
    _in_time(deadline)            # (a removal the deadline cut short returns the hints it had)
    progress(f"grading ({plural(len(puzzle.hints), 'hint')})")
    try:
        measured = grade(puzzle, solution, deadline=deadline, cancelled=cancelled)
    except GradeError:
        _in_time(deadline)        # undecided for lack of time
        raise
    _in_time(deadline)
    return puzzle, measured, solution


PACK_SIZES = (6, 8, 10, 15)
PACK_PER_GRADE = 10
PACK_ATTEMPTS = 2
PACK_LAYOUTS = 10_000    # layouts a pack level may try (the 6x6 expert levels of seed 0 need up to 4,013)
PACK_SECONDS = 600       # a safety net only: a level it cuts short depends on the machine's speed


def build_pack(folder: str | Path, seed: int = 0, progress: Stage | None = None,
               log: Callable[[str], None] = print, cancelled: Callable[[], bool] | None = None) -> list[Path]:
    """Write the level pack: ``<folder>/<n>x<n>/<grade>/NN.bs`` plus giants and variants, all
    put in place together at the end (a failure or Ctrl-C on the way leaves the folder as it
    was). Its levels are bounded by layouts, not by time, so the same seed gives the same pack on
    any machine (a level that ``PACK_SECONDS`` cuts short says so). ``log`` is given a line for
    each level written or missed, ``progress`` the stage (``generate``) of the level being made,
    and ``cancelled`` is polled as ``generate`` polls it."""
    total = len(GRADES) * len(PACK_SIZES) * PACK_PER_GRADE + len(EXTRAS)
    with files.Outputs(total, folder) as outputs:      # every level or none: never a pack half replaced
        return _build_pack(Path(folder), outputs, total, seed, progress or _unheard, log, cancelled)


def _build_pack(folder: Path, outputs: files.Outputs, total: int, seed: int, told: Stage,
                log: Callable[[str], None], cancelled: Callable[[], bool] | None) -> list[Path]:
    written = []
    place = 0

    def emit(puzzle: Puzzle, path: Path) -> None:
        outputs.add(path, binary=False, parents=True).handle.write(levels.dumps(puzzle))   # its folders made
        written.append(path)
        log(f"{path}: {puzzle.name} ({plural(len(puzzle.hints), 'hint')})")

    # Expert levels are the slowest to find (most layouts land on "hard"): they come last.
    for difficulty in GRADES:
        for size in PACK_SIZES:
            for number in range(1, PACK_PER_GRADE + 1):
                place += 1
                for attempt in range(PACK_ATTEMPTS):
                    level_seed = seed * 100_000 + size * 1000 + GRADE_LEVEL[difficulty] * 100 + number
                    level_seed += attempt * 10_000_000
                    start = time.perf_counter()
                    try:
                        puzzle = generate(size, size, difficulty=difficulty, seed=level_seed, layouts=PACK_LAYOUTS,
                                          timeout=PACK_SECONDS, cancelled=cancelled,
                                          progress=_prefixed(told, f"level {place} of {total} ({size}x{size} "
                                                                   f"{difficulty} #{number}), "))
                    except GeneratorTimeout as error:
                        log(f"  seed {level_seed}: {error} (cut short: a faster machine may find one)")
                        continue
                    seconds = time.perf_counter() - start
                    late = " (cut short: a faster machine may find another)" if seconds > PACK_SECONDS else ""
                    log(f"  {seconds:.1f} s{late}")
                    if puzzle.difficulty == difficulty:
                        emit(puzzle, _graded(folder, size, difficulty, number))
                        break
                    log(f"  seed {level_seed} gave {puzzle.difficulty}, not {difficulty}")
                else:
                    log(f"  no {size}x{size} {difficulty} level #{number}")
    for number, (rows, cols, fleet, hide) in enumerate(EXTRAS, start=1):
        place += 1
        puzzle = generate(rows, cols, fleet=fleet, seed=seed * 100_000 + 90_000 + number, hide_tallies=hide,
                          cancelled=cancelled, progress=_prefixed(told, f"level {place} of {total} ({rows}x{cols}), "))
        kind = "giants" if rows * cols >= 400 else "variants"
        emit(puzzle, folder / kind / f"{number:02d}-{rows}x{cols}.bs")
    return written


def _graded(folder: str | Path, size: int, difficulty: str, number: int) -> Path:
    """Where the pack's ``number``-th ``size``x``size`` level of ``difficulty`` is written."""
    return Path(folder) / f"{size}x{size}" / difficulty / f"{number:02d}.bs"


def first_of_pack(folder: str | Path) -> Path:
    """The first file :func:`build_pack` writes under ``folder``: the place an output check tries."""
    return _graded(folder, PACK_SIZES[0], GRADES[0], 1)


EXTRAS: tuple[tuple[int, int, dict[int, int] | None, int], ...] = (
    (20, 20, {5: 2, 4: 3, 3: 4, 2: 6, 1: 6}, 0),
    (30, 20, {5: 7, 4: 9, 3: 12, 2: 29, 1: 23}, 0),
    (8, 12, {4: 1, 3: 2, 2: 3, 1: 4}, 0),
    (6, 10, {3: 1, 2: 2, 1: 3}, 0),
    (10, 10, None, 3),
    (8, 8, None, 2),
    (12, 12, {6: 1, 4: 2, 3: 2, 2: 3, 1: 3}, 0),
    (9, 9, {5: 1, 3: 2, 2: 2, 1: 3}, 0),
    (40, 40, {5: 10, 4: 15, 3: 20, 2: 25, 1: 35}, 0),
)
