"""The deduction engine: solves by reasoning a person can follow, never by guessing.

``next_deduction(puzzle, grid)`` gives the simplest next step from any board (the hint
button), optionally within a time budget, and ``think_ahead`` searches for the steps after
it while the player reads; ``reveal(puzzle, grid, solution)`` is the hint button's last
resort, one cell of the solution, for a board where no short deduction is found;
``events(puzzle)`` is the solver protocol (every move FORCED, its detail the sentence);
``solve(puzzle)`` is the fast form the grader and the generator use.

Rules are tried simplest first (see :mod:`solvers.logic.steps`): level 1 (a glance), level 2
(fleet reasoning), level 3 (a depth-1 contradiction: assume a cell, apply levels 1-2, watch a
rule break), level 4 (depth 2: the same with depth-1 contradictions inside). Every rule is
sound, so a board the engine completes is the puzzle's only solution.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Generator, Iterator, Sequence

from game import rules
from game.bitsets import bits
from game.puzzle import Cell, Coord, Grid, Move, Puzzle, cell_said, initial_grid
from game.ships import prepared
from game.slices import Cancelled, drain
from solvers.common import beating, elapsed, verified
from solvers.events import Progress, Reason, Result, SetCell, Status, Stream
from solvers.logic import probe
from solvers.logic.analysis import Bank, DeductionModel, Finding, Kept, model_of
from solvers.logic.probe import Clock, Closures, Valid, find_contradiction, find_deep_contradiction, propagate
from solvers.logic.steps import Steps, settle_steps

MAX_DEPTH = 2
THINK_SECONDS = 2.0     # how long ``think_ahead`` searches for the next hints while the player reads one
PLACES_SECONDS = 0.3    # a hint starts (another) pass of depth-2 trials of places until then
FALLBACK_SECONDS = 1.0  # a hint whose depth-2 cell trials find nothing by then tries places again
LONGEST_SECONDS = 0.45  # a hint's depth-2 trials of the longest ships' places go on until then
MORE_TRIES = 8          # a solver's depth-2 search tries this many more assumptions past its step, for the bank


@dataclass(frozen=True)
class Deduction:
    """One step a person can follow: which rule, the moves, the cells it reads, a sentence.

    ``level``: 1 a glance, 2 fleet reasoning, 3 a contradiction of depth 1, 4 of depth 2;
    rule ``mistake`` (level 0) means the board already holds a wrong mark; rule ``reveal``
    (level 5) is a cell of the solution given without a reason (see :func:`reveal`).
    """

    rule: str
    moves: tuple[Move, ...]
    evidence: tuple[Coord, ...]
    text: str
    level: int


@dataclass(frozen=True)
class LogicOutcome:
    """What the fast solve found: solved or stuck, and how hard it was."""

    solved: bool
    grid: Grid
    level: int                    # hardest rule level used (0 if nothing was needed)
    rules: dict = field(default_factory=dict)
    steps: int = 0
    probes: int = 0
    contradiction: str | None = None   # the puzzle itself is broken
    held: tuple[probe.Held, ...] = ()  # its depth-1 sweeps' records (see ``solve``)


def _masks(model: DeductionModel, grid: Sequence[Sequence[Cell]]) -> tuple[int, int]:
    ship, water = model.shared.masks(grid)
    return ship | model.hint_ship, water | model.hint_water


class Banks:
    """A solver's steps proved on earlier boards (see :class:`~solvers.logic.analysis.Bank`),
    those of level 3 kept apart from the deeper ones, and taken first.

    A solver's board takes a banked step once the rules of levels 1-2 find nothing, before
    any trial of its own: the trials would be run again only to find steps the bank would
    find later all the same (a step stays proved on every board that extends its own), and
    each sweep of trials on a board where none breaks costs as much as one that finds a step.
    """

    def __init__(self, board: int) -> None:
        self.shallow, self.deep = Bank(board), Bank(board)

    def add(self, ship: int, water: int, findings: list[Finding]) -> None:
        self.shallow.add(ship, water, [found for found in findings if found.level <= 3])
        self.deep.add(ship, water, [found for found in findings if found.level > 3])

    def find(self, ship: int, water: int) -> Finding | None:
        return self.shallow.find(ship, water) or self.deep.find(ship, water)


def _first_finding(model: DeductionModel, ship: int, water: int, valid: Valid, max_depth: int, clock: Clock,
                   solution: Callable[[], Grid | None] | None = None, hint_started: float | None = None,
                   bank: Banks | None = None, carried: list[probe.Dropped] | None = None,
                   ) -> Generator[None, None, tuple[Finding | None, Steps]]:
    """The simplest finding on this board (heartbeats yielded while searching), and the
    board settled by the rules of level 1, or of levels 1-2 when those of level 1 find
    nothing (its places, or why it breaks, and its steps, simplest first: the finding is the
    first of them, if any).

    ``solution`` (asked for only if a depth-2 search starts) orders that search; see
    :func:`solvers.logic.probe.deep_order`. Places are ruled out before a depth-2 search
    (see :func:`solvers.logic.probe.rule_out_places`): by depth-1 trials, then by depth-2
    trials. ``hint_started`` (a hint, started then): depth-2 steps proved on an earlier board
    of this puzzle are used before a new search (see :class:`~solvers.logic.analysis.Bank`),
    the depth-2 trials of places have their times (``PLACES_SECONDS``, ``LONGEST_SECONDS``),
    and a new search stops at its first step and is kept to go on with between hints
    (see :meth:`DeductionModel.keep`). Without it (the solver), the cell trials assume every cell ship
    before any water (see :func:`solvers.logic.probe.find_contradiction`), and every place
    left is tried at depth 2 as a last resort. ``bank`` (a solver's): the depth-2 search goes
    on for ``MORE_TRIES`` assumptions past its step, and the cell trials go on to the end of
    their sweep; both keep the steps they give there, and a later board takes one of those
    once the rules of levels 1-2 find nothing, before any trial of its own (see :class:`Banks`).
    ``carried`` (a solver's): the places its last pass ruled out (this function keeps it up
    to date); a later board tries the level-2 rules and its cell trials with those ruled out
    by depth-1 trials still ruled out (they stay so on every board that extends theirs), and
    its level-4 steps with all of them ruled out.
    """
    hint = hint_started is not None
    places_until = hint_started + PLACES_SECONDS if hint_started is not None else None
    for level in (1, 2):
        an = settle_steps(model, ship, water, valid, level)
        if an.broken:
            return None, an
        if an.found:
            return an.found[0], an
    places = an.places
    assert places is not None       # (only a board that breaks is left without the places the engine settled)
    closures: Closures = {}
    swept = places                  # the places of the board the cell trials were swept on
    if max_depth >= 1:
        live = [d for d in carried if d[2] == 1 and places >> d[0].index & 1] if carried else []
        found = bank.find(ship, water) if bank is not None else None
        if found:
            return found, an
        if live:
            # Places ruled out on an earlier board stay ruled out (as cells stay set): the level-2
            # rules and the cell trials without them. A cell that breaks on the board itself
            # breaks without them too, so this one sweep stands for both. (A place one of these
            # trials settles whole holds on the board too: its closures serve the pass below.)
            swept = probe.without(places, live)
            found = yield from _after_places(model, ship, water, swept, live, clock, closures, bank, not hint)
        else:
            swept_steps: list[Finding] | None = [] if bank is not None else None   # a solver's sweep goes to the end
            found = yield from find_contradiction(model, ship, water, places, clock, closures, not hint,
                                                  swept_steps)
            if bank is not None and swept_steps and len(swept_steps) > 1:
                bank.add(ship, water, swept_steps[1:])
        if found:
            return found, an
    if max_depth >= 2:
        if hint_started is not None:
            found = model.bank.find(ship, water)
            kept = model.kept
            if not found and kept is not None and (kept.ship, kept.water) == (ship, water):
                # A kept search of this very board (started between earlier hints);
                # past FALLBACK_SECONDS a new search below turns to the places at once.
                give_up = hint_started + FALLBACK_SECONDS
                yield from _go_on(model, lambda: bool(kept.steps) or time.perf_counter() > give_up, kept)
                found = model.bank.find(ship, water)
            if found:
                return found, an
        # Places ruled out by depth-2 trials on an earlier board stay ruled out too: the steps
        # below are of level 4 with them or without them.
        dropped = [d for d in carried if d[2] == 2 and places >> d[0].index & 1] if carried else []
        valid = probe.without(places, dropped)

        def enough(left: int) -> bool:             # the simple rules settle a cell with these places
            narrowed = probe.settle(model, ship, water, left)
            return not narrowed.contradiction and (narrowed.ship, narrowed.water) != (ship, water)

        # Rule out places first: it finds what cell trials miss, and it makes the
        # depth-2 search below stronger. Depth-1 trials of every place, then (while they
        # rule out more and time allows) depth-2 trials: for hints those of the longest
        # ships first, a length at a time, otherwise the likeliest places first.
        known = solution() if solution is not None else None
        truth = _masks(model, known)[0] if known is not None else None
        deeper = False
        lengths = sorted(model.lengths, reverse=True)

        while True:
            if deeper and hint_started is not None:
                new: list[probe.Dropped] = []
                until = hint_started + LONGEST_SECONDS
                while lengths and not new and time.perf_counter() <= until:
                    valid, new = yield from probe.rule_out_longest(model, ship, water, valid, clock, lengths.pop(0),
                                                                   truth, until, model.held)
            else:
                valid, new = yield from probe.rule_out_places(
                    model, ship, water, valid, clock, places_until if deeper else None, truth, enough,
                    closures if not dropped else None)
            dropped += new
            if carried is not None:
                carried[:] = dropped
            if dropped and valid != swept:           # (the same places: swept above, to no avail)
                closures = {}
                found = yield from _after_places(model, ship, water, valid, dropped, clock, closures, bank, not hint)
                if found:
                    return found, an
            elif bank is not None:
                found = bank.find(ship, water)
                if found:
                    return found, an
            if places_until is None or (deeper and not new) or time.perf_counter() > places_until:
                break
            deeper = True
        if hint_started is not None:
            model.truth = truth
            # A hint stops at the first step and keeps the search to go on with later.
            steps: list[Finding] = []
            search = find_deep_contradiction(model, ship, water, valid, clock, closures, truth, steps, model.held,
                                             clash_first=True)
            searching = model.keep(ship, water, search, steps, dropped)
            give_up = hint_started + FALLBACK_SECONDS
            yield from _go_on(model, lambda: bool(steps) or time.perf_counter() > give_up, searching)
            found = model.bank.find(ship, water)
            if found:
                return found, an
            # No cell trial breaks soon: depth-2 trials of places, the longest ships first.
            for length in sorted(model.lengths, reverse=True):
                valid, new = yield from probe.rule_out_longest(model, ship, water, valid, clock, length, truth, None,
                                                               model.held)
                if new:
                    dropped = dropped + new
                    found = yield from _after_places(model, ship, water, valid, dropped, clock)
                    if found:
                        return found, an
            return None, an
        steps = []
        found = yield from find_deep_contradiction(model, ship, water, valid, clock, closures, truth,
                                                   steps if bank is not None else None, model.held, more=MORE_TRIES)
        if bank is not None and len(steps) > 1:
            bank.add(ship, water, [probe.after_ruling_out(step, dropped) if dropped else step for step in steps[1:]])
        if found:
            return probe.after_ruling_out(found, dropped) if dropped else found, an
        # The solver's last resorts: every place left tried at depth 2; then again the
        # longest ships' first, each on the board the places ruled out before narrowed.
        for longest in (None, *sorted(model.lengths, reverse=True)):
            if longest is None:
                valid, new = yield from probe.rule_out_places(model, ship, water, valid, clock, float("inf"), None,
                                                              enough)
            else:
                valid, new = yield from probe.rule_out_longest(model, ship, water, valid, clock, longest)
            if new:
                dropped += new
                if carried is not None:
                    carried[:] = dropped
                found = yield from _after_places(model, ship, water, valid, dropped, clock, None, bank, True)
                if found:
                    return found, an
    return None, an


def _keep_search(model: DeductionModel, settled: probe.Outcome) -> None:
    """Keep a depth-2 search of ``settled`` (a board the simple rules have settled), to go on
    with between hints (see :func:`think_ahead`): none if a depth-1 trial breaks there (the
    next hint finds that itself); else places ruled out first, by depth-1 trials, then by
    depth-2 trials of the longest ships', then depth-2 cell trials."""
    if settled.contradiction or not model.all & ~settled.ship & ~settled.water:
        return
    ship, water, places = settled.ship, settled.water, settled.places
    assert places is not None       # (only a board that breaks is left without the places the engine settled)
    steps: list[Finding] = []
    dropped: list[probe.Dropped] = []

    def search() -> Generator[None, None, None]:
        clock = Clock()
        closures: Closures = {}
        if (yield from find_contradiction(model, ship, water, places, clock, closures)) is not None:
            return
        # The solution's ship cells, if a hint has asked for them already (the exact solver
        # can take half a second on a hard level: no time between hints is spent on it).
        truth = model.truth
        valid, new = yield from probe.rule_out_places(model, ship, water, places, clock, None, truth)
        dropped.extend(new)
        found = None
        if new:                                  # the simple rules or depth 1 with those places gone
            closures = {}
            found = yield from _after_places(model, ship, water, valid, [], clock, closures)
        # Then depth-2 trials of places, the longest ships first, while they rule out more.
        for length in sorted(model.lengths, reverse=True):
            if found:
                break
            valid, new = yield from probe.rule_out_longest(model, ship, water, valid, clock, length, truth, None,
                                                           model.held)
            if not new:
                break
            dropped.extend(new)
            closures = {}
            found = yield from _after_places(model, ship, water, valid, [], clock, closures)
        if found:
            steps.append(found)
            return
        yield from find_deep_contradiction(model, ship, water, valid, clock, closures, truth, steps, model.held,
                                           clash_first=True)
    model.keep(ship, water, search(), steps, dropped)


def _go_on(model: DeductionModel, stop: Callable[[], bool], kept: Kept | None = None) -> Generator[None, None, None]:
    """Go on with the kept depth-2 search until ``stop()`` (asked at each heartbeat) or its end,
    banking the steps it finds (each proved on the board it started from)."""
    kept = kept or model.kept
    if kept is None or not kept.take():
        return
    try:
        while not stop():
            next(kept.search)
            yield None
    except StopIteration:
        if model.kept is kept:
            model.kept = None
    finally:
        if kept.steps:
            model.bank.add(kept.ship, kept.water, [probe.after_ruling_out(step, kept.dropped) if kept.dropped else step
                                                   for step in kept.steps])
            del kept.steps[:]
        kept.give_back()


def _after_places(model: DeductionModel, ship: int, water: int, places: int, dropped: list[probe.Dropped],
                  clock: Clock, closures: Closures | None = None, bank: Banks | None = None, ship_first: bool = False,
                  ) -> Generator[None, None, Finding | None]:
    """A step of the simple rules or of depth 1 once ``dropped`` places are ruled out (said
    first; with ``dropped`` empty, the caller says it); before the depth-1 search, a step of
    ``bank`` (as it was proved, with what it ruled out said). With ``bank`` and places ruled
    out, the depth-1 search goes on to the end of its sweep and banks the steps past its first."""
    narrowed = settle_steps(model, ship, water, places)
    found: Finding | None
    if narrowed.found and not narrowed.broken:
        found = narrowed.found[0]
        return probe.after_ruling_out(found, dropped) if dropped else found
    found = bank.find(ship, water) if bank is not None else None
    if found:
        return found
    steps: list[Finding] | None = [] if bank is not None and dropped else None
    found = yield from find_contradiction(model, ship, water, places, clock, closures, ship_first, steps)
    if bank is not None and steps and len(steps) > 1:
        bank.add(ship, water, [probe.after_ruling_out(step, dropped) for step in steps[1:]])
    return found and probe.after_ruling_out(found, dropped) if dropped else found


def _deduction(model: DeductionModel, found: Finding) -> Deduction:
    moves = tuple(Move(*model.shared.coord(i), Cell.SHIP) for i in bits(found.ship))
    moves += tuple(Move(*model.shared.coord(i), Cell.WATER) for i in bits(found.water))
    return Deduction(found.rule, tuple(sorted(moves, key=lambda m: (m.row, m.col))),
                     tuple(model.shared.coord(i) for i in bits(found.evidence)), found.text(), found.level)


def _mistake(text: str, cells: Sequence[Coord]) -> Deduction:
    return Deduction("mistake", tuple(Move(r, c, Cell.UNKNOWN) for r, c in cells), tuple(cells), text, 0)


def prepare(puzzle: Puzzle) -> None:
    """Make ready what the first trial on ``puzzle`` needs (the puzzle compiled for the one
    engine, its geometry's tables, the hints' board settled): the window calls it while the
    player looks at a new level, so that the first hint does not wait."""
    model = model_of(puzzle)
    probe.base_of(model, model.hint_ship, model.hint_water, None)


def next_deduction(puzzle: Puzzle, grid: Sequence[Sequence[Cell]], max_depth: int = MAX_DEPTH,
                   seconds: float | None = None,
                   solution: Callable[[], Grid | None] | None = None) -> Deduction | None:
    """The simplest next step from ``grid``; a ``mistake`` Deduction if the board is provably wrong.

    ``None`` means no rule up to ``max_depth`` applies (or the board is complete), or, with
    ``seconds``, that none was found within that many seconds: on the hardest boards a
    depth-2 search can take a minute, longer than anyone waits for a hint. ``solution``
    (the level's one solution, asked for only when a depth-2 search starts) tells that search
    which assumptions can break; the step it finds is proved all the same.
    """
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    problems = rules.provable_violations(puzzle, grid)
    if problems:
        return _mistake(problems[0].message, problems[0].cells)
    model = model_of(puzzle)
    ship, water = _masks(model, grid)
    search = _first_finding(model, ship, water, None, max_depth, Clock(), solution, started)
    try:
        while True:
            next(search)                         # a heartbeat: about every 20 ms
            if deadline is not None and time.perf_counter() > deadline:
                search.close()
                return None
    except StopIteration as stop:
        found, an = stop.value
    if found is not None:
        # Only what must happen now: let go of a search the player has left or finished.
        for _ in _search_ahead(model, ship, water, found.ship, found.water, lambda: True):
            pass
    if an.broken:
        return _mistake(f"Something is wrong already: {an.broken}", [model.shared.coord(i) for i in bits(an.cells)])
    return _deduction(model, found) if found else None


def think_ahead(puzzle: Puzzle, grid: Sequence[Sequence[Cell]], step: Deduction,
                seconds: float = THINK_SECONDS) -> Iterator[None]:
    """Search ahead for the hints after ``step`` (the hint just given on ``grid``), in the time
    the player spends reading it: go on with the kept depth-2 search, or start one on the board
    the step leads to. Yields at every heartbeat (about every 20 ms), so the caller can stop it
    there; ends after ``seconds`` or when there is nothing left to search."""
    if step.rule in ("mistake", "reveal") or not step.moves:
        return
    model = model_of(puzzle)
    ship, water = _masks(model, grid)
    step_ship = model.shared.mask_of((m.row, m.col) for m in step.moves if m.value == Cell.SHIP)
    step_water = model.shared.mask_of((m.row, m.col) for m in step.moves if m.value == Cell.WATER)
    until = time.perf_counter() + seconds
    yield from _search_ahead(model, ship, water, step_ship, step_water, lambda: time.perf_counter() > until)


def _search_ahead(model: DeductionModel, ship: int, water: int, step_ship: int, step_water: int,
                  stop: Callable[[], bool]) -> Generator[None, None, None]:
    """After a hint's step on (``ship``, ``water``), until ``stop()``: go on with the kept
    depth-2 search, or start one on the board the step leads to, settled by the simple rules,
    when the last one has ended. While the player's board lies under the kept search's (the
    simple steps on the way to it are still to be given), the search goes on; a search from a
    board the player has left (an undo, then another way) or of a finished board is let go."""
    kept = model.kept
    if kept is not None and (kept.ship & ~ship or kept.water & ~water) and (ship & ~kept.ship or water & ~kept.water):
        model.kept = model.ahead_of = None
    yield from _go_on(model, stop)
    ship, water = ship | step_ship, water | step_water
    if not model.all & ~ship & ~water:
        model.kept = None
        model.held.clear()
    if model.kept is None and not stop():
        after = propagate(model, ship, water)
        # Searched once per settled board: the hints of the simple steps that lead to it
        # come back here with the same board.
        if (after.ship, after.water) != model.ahead_of:
            model.ahead_of = (after.ship, after.water)
            _keep_search(model, after)
            yield from _go_on(model, stop)


def reveal(puzzle: Puzzle, grid: Sequence[Sequence[Cell]], solution: Grid) -> Deduction | None:
    """One unknown cell of ``solution``, for when no short deduction leads on (None if the
    board is complete). A ship cell is worth more than water, and a cell in a nearly finished
    line helps most, so the pick is the ship cell whose row or column has fewest unknowns."""
    unknown_in_row = [sum(value == Cell.UNKNOWN for value in row) for row in grid]
    unknown_in_col = [sum(row[c] == Cell.UNKNOWN for row in grid) for c in range(puzzle.cols)]
    cells = [(r, c) for r, row in enumerate(grid) for c, value in enumerate(row) if value == Cell.UNKNOWN]
    if not cells:
        return None
    r, c = min(cells, key=lambda rc: (solution[rc[0]][rc[1]] != Cell.SHIP,
                                      min(unknown_in_row[rc[0]], unknown_in_col[rc[1]]), rc))
    value = solution[r][c]
    text = (f"No short chain of reasoning leads on from here, so here is one cell of the solution: "
            f"{cell_said(r, c)} is {'ship' if value == Cell.SHIP else 'water'}")
    return Deduction("reveal", (Move(r, c, value),), ((r, c),), text, 5)


def events(puzzle: Puzzle, *, trace: bool = True, rng: random.Random | None = None, limit: int = 1,
           max_depth: int = MAX_DEPTH) -> Stream:
    """Solver protocol: one deduction at a time, simplest first; SOLVED or STUCK at the end.

    Simplest first on each board, with one exception that saves most trials: once the rules
    of levels 1-2 find nothing, a step of level 3 or 4 proved on an earlier board (banked by
    the sweep or the depth-2 search that found it, see :class:`Banks`) comes before any new
    trial, so a level-4 step may come where a new sweep would have found one of level 3.
    ``rng`` and ``limit`` are accepted for the common protocol: deduction needs neither.
    """
    start = time.perf_counter()
    yield from beating(prepared(puzzle))
    model = model_of(puzzle).for_a_run()
    clock = Clock()
    ship, water = _masks(model, initial_grid(puzzle))
    valid: Valid = None
    stats: dict = {"seconds": 0.0, "steps": 0, "nodes": 0, "backtracks": 0, "propagated": 0,
                   "rules": {}, "deepest": 0}

    def snapshot() -> dict:
        stats["seconds"] = elapsed(start)
        stats["nodes"] = clock.probes
        return dict(stats, rules=dict(stats["rules"]))

    bank = Banks(model.all)
    carried: list[probe.Dropped] = []
    while True:
        search = _first_finding(model, ship, water, valid, max_depth, clock, bank=bank, carried=carried)
        try:
            while True:
                next(search)
                yield Progress(snapshot())
        except StopIteration as stop:
            found, an = stop.value
        if an.broken:
            yield Result(Status.NO_SOLUTION, model.shared.grid(ship, water), snapshot(), (),
                         f"no solution: {an.broken}")
            return
        valid = an.places
        if found is None:
            break
        for step in an.found or (found,):       # every step of levels 1-2 that settles the board, in turn
            stats["steps"] += 1
            stats["rules"][step.rule] = stats["rules"].get(step.rule, 0) + 1
            stats["deepest"] = max(stats["deepest"], step.level - 2)
            detail = step.text() if trace else ""
            for value, mask in ((Cell.SHIP, step.ship), (Cell.WATER, step.water)):
                for i in bits(mask):
                    stats["propagated"] += 1
                    if trace:
                        yield SetCell(*model.shared.coord(i), value, Reason.FORCED, detail)
            ship |= step.ship
            water |= step.water
        if clock.due(probe=False):
            yield Progress(snapshot())
    board = model.shared.grid(ship, water)
    if not (model.all & ~ship & ~water):
        yield verified(puzzle, board, snapshot())
    else:
        yield Result(Status.STUCK, board, snapshot(), (), "no deduction applies")


def solve(puzzle: Puzzle, max_depth: int = MAX_DEPTH, grid: Grid | None = None,
          deadline: float | None = None, max_level: int = 4, solution: Grid | None = None,
          held: Sequence[probe.Held] = (), cancelled: Callable[[], bool] | None = None) -> LogicOutcome:
    """Fast solve for grading: simple rules in bulk, a contradiction only when they stall.

    ``max_level`` limits the rules (1: level one only, 2: no contradictions, 3: depth 1, 4: depth 2);
    ``grid`` starts from a board already partly deduced; ``deadline`` (a ``time.perf_counter()``
    value) ends the search early as stuck, at the trials' next heartbeat (about every 20 ms)
    once it has passed: the board is then sound but need not be where the rules stop.
    ``solution`` (a solution of the puzzle that ``grid`` agrees with, when the caller knows
    one) only saves work: the trials that assume its values cannot break, so they are not run
    (see :func:`solvers.logic.probe.find_contradiction`); the steps, the level and the board
    are those found without it. ``held``: the records of the depth-1 sweeps
    (``LogicOutcome.held``) of a solve of this puzzle, or of one with more hints and the same
    solution; the assumptions that held on a board there hold on every board below it here,
    so they are not tried again (the same steps, fewer trials).
    ``cancelled``: asked before each round of the rules and at every heartbeat of the trials
    (``game.slices.drain``); once it says stop, ``game.slices.Cancelled`` ends the solve.
    """
    max_depth = min(max_depth, max_level - 2)

    def stop() -> bool:
        return (deadline is not None and time.perf_counter() > deadline) or (cancelled is not None and cancelled())

    model = model_of(puzzle)
    truth = _masks(model, solution)[0] if solution is not None else None
    ship, water = _masks(model, grid if grid is not None else initial_grid(puzzle))
    clock, level, steps = Clock(), 0, 0
    used: dict[str, int] = {}
    valid: Valid = None
    records: list[probe.Held] = []
    while True:
        if cancelled is not None and cancelled():
            raise Cancelled()
        chain: list[Finding] = []
        outcome = propagate(model, ship, water, valid, chain, max_level=min(max_level, 2))
        for step in chain:
            used[step.rule] = used.get(step.rule, 0) + 1
            level = max(level, step.level)
        steps += len(chain)
        if outcome.contradiction:       # (said in words already: the rules wrote the chain)
            return LogicOutcome(False, model.shared.grid(ship, water), level, used, steps, clock.probes,
                                str(outcome.contradiction), tuple(records))
        ship, water, valid = outcome.ship, outcome.water, outcome.places
        if not model.all & ~ship & ~water or max_depth < 1:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        closures: Closures = {}
        found_all: list[Finding] = []     # every step of the sweep, each proved on this board
        # A whole sweep finds the same steps in any order; every cell as ship first leaves more
        # water assumptions known to hold untried. A depth-2 search orders by the closures it
        # leaves, which differ with the order: there the order stays as the hint button's.
        known, held_ship, held_water = probe.places_mask(model, valid), 0, 0
        for board_ship, board_water, board_known, ship_held, water_held in held:
            if not (ship & ~board_ship or water & ~board_water or board_known & ~known):
                held_ship |= ship_held
                held_water |= water_held
        try:
            found = drain(find_contradiction(model, ship, water, valid, clock, closures, ship_first=max_depth < 2,
                                             every=found_all, truth=truth, held=(held_ship, held_water),
                                             record=records), stop)
            if found is None and max_depth >= 2:
                found = drain(find_deep_contradiction(model, ship, water, valid, clock, closures, truth,
                                                      held=model.held), stop)
                found_all = [found] if found is not None else []
        except Cancelled:
            if cancelled is not None and cancelled():
                raise
            break                        # the deadline: stuck where the trials were
        if found is None:
            break
        for found in found_all:
            used[found.rule] = used.get(found.rule, 0) + 1
            level = max(level, found.level)
            steps += 1
            ship |= found.ship
            water |= found.water
    board = model.shared.grid(ship, water)
    solved = not model.all & ~ship & ~water and rules.is_solved(puzzle, board)
    return LogicOutcome(solved, board, level, used, steps, clock.probes, held=tuple(records))
