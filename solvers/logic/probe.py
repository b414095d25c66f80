"""Contradictions: assume a cell, apply the simple rules, and see the board break.

Depth 1: assume one cell is ship (or water), apply the simple rules (levels 1-2, as the one
engine states them: :mod:`solvers.propagation`) until nothing changes; if a rule is broken,
the cell is the other value. Depth 2: after the assumption,
also use depth-1 contradictions inside, until the assumed board breaks.

The searches are generators: they yield ``None`` every ~20 ms so the caller can send a
heartbeat or stop, and return their answer (a Finding or ``None``) as the generator's value.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Callable, Generator, NamedTuple, TypeVar, overload

from game.bitsets import bits, union, within
from game.puzzle import ship_name
from game.ships import Placement
from solvers.logic.analysis import DeductionModel, Finding
from solvers.logic.steps import UNSAID, settle_steps, start_of
from solvers.propagation.model import State
from solvers.propagation.rules import propagate as propagate_state

T = TypeVar("T")
Valid = int | None      # the places still possible, as a mask over their indices (None: all the hints allow)
Search = Generator[None, None, Finding | None]
HEARTBEAT_SECONDS = 0.02


class Why:
    """Why a board breaks, put into words when first read (``str(why)``, or in an f-string):
    the engine only says that it breaks, and most reasons are never shown."""

    __slots__ = ("_say", "_text")

    def __init__(self, say: Callable[[], str]) -> None:
        self._say = say
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            self._text = str(self._say())
        return self._text


class Outcome(NamedTuple):
    ship: int
    water: int
    places: Valid
    contradiction: str | Why | None


class Clock:
    """Counts probes and says when a heartbeat is due."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.probes = 0

    def due(self, probe: bool = True) -> bool:
        self.probes += probe
        now = time.perf_counter()
        if now - self.last >= HEARTBEAT_SECONDS:
            self.last = now
            return True
        return False


def propagate(model: DeductionModel, ship: int, water: int, valid: Valid = None,
              chain: list[Finding] | None = None, max_level: int = 2, base: State | None = None) -> Outcome:
    """Apply the level 1-2 rules (or only level 1) until nothing changes or the board breaks.

    Without ``chain`` the one engine (:mod:`solvers.propagation`) settles the board, from
    ``base`` when given (the settled state of a board this one extends, see :func:`base_of`);
    a board that breaks says why only when its reason is read (a :class:`Why`). With
    ``chain``, the steps that settle it go there, simplest first (:mod:`solvers.logic.steps`)."""
    if chain is None and max_level >= 2:
        return settle(model, ship, water, valid, base)
    settled = settle_steps(model, ship, water, valid, max_level)
    if chain is not None:
        chain.extend(settled.found)
    return Outcome(settled.ship, settled.water, settled.places, settled.broken)


def settle(model: DeductionModel, ship: int, water: int, valid: Valid, start: State | None = None) -> Outcome:
    """The board (``ship``, ``water``, places ``valid``) settled by the one engine, from
    ``start`` (the settled state of a board this one extends) when given."""
    state = base_of(model, ship, water, valid, start)
    if state is None:
        return Outcome(ship, water, valid, Why(partial(_why_broken, model, ship, water, valid)))
    return Outcome(state.ship, state.water, state.alive, None)


def base_of(model: DeductionModel, ship: int, water: int, valid: Valid, start: State | None = None,
            blame: list | None = None) -> State | None:
    """The board settled by the one engine, for the trials on it to start from (None if it
    breaks, with what failed in ``blame`` when given), from ``start`` as :func:`settle`."""
    engine = model.engine
    if start is not None:
        kill = start.alive & ~valid if valid is not None else 0
        if kill:                             # the ships the board holds whole stay (see steps.with_whole)
            geo = model.shared
            kill &= ~within(geo.p_cells, kill & union(geo.covering, ship), ship)
        return propagate_state(engine, start, ship=ship & ~start.ship, water=water & ~start.water,
                               kill=kill, fill=True, blame=blame)
    return propagate_state(engine, start_of(model, ship, valid), ship=ship | engine.shape_ship,
                           water=water | engine.shape_water, all_lines=True, fill=True, blame=blame)


def _why_broken(model: DeductionModel, ship: int, water: int, valid: Valid) -> str:
    """Why the board breaks, in the words of the rule that found it (:mod:`solvers.logic.steps`),
    or else by what the engine blames."""
    said = settle_steps(model, ship, water, valid).broken
    if said is not None and said != UNSAID:
        return said
    blame: list = []
    base_of(model, ship, water, valid, None, blame)
    kind, value = blame[-1] if blame else ("", 0)
    if kind in ("row", "col"):
        name, tallies = ("row", model.puzzle.row_tallies) if kind == "row" else ("column", model.puzzle.col_tallies)
        return f"{name} {value + 1} could not hold its {tallies[value]} ship cells in ships that still fit"
    if kind == "cells":
        return f"no ship still missing could take the ship cells at {model.shared.where(value)}"
    if kind == "length":
        return f"the {ship_name(model.lengths[value])}s still missing would not fit"
    return UNSAID


def probe_order(model: DeductionModel, ship: int, water: int) -> list[int]:
    """Unknown cells, most promising first: beside ship cells, then in the tightest lines."""
    geo, puzzle = model.shared, model.puzzle
    unknown = model.all & ~ship & ~water
    near_ship = geo.orthogonal(ship)
    # A line's slack: its unknown cells past those it still needs (99 without a tally: no line
    # holds that many cells); a cell's, the smaller of its row's and its column's.
    rows, cols = ([99 if tally is None else (unknown & mask).bit_count() - tally + (ship & mask).bit_count()
                   for mask, tally in zip(masks, tallies)]
                  for masks, tallies in ((geo.row_masks, puzzle.row_tallies), (geo.col_masks, puzzle.col_tallies)))
    stride = geo.stride
    return sorted(bits(unknown), key=lambda i: (not (near_ship >> i) & 1, min(rows[i // stride], cols[i % stride]), i))


def _assuming(ship: int, water: int, index: int, as_ship: bool) -> tuple[int, int]:
    return (ship | (1 << index), water) if as_ship else (ship, water | (1 << index))


def _chain_text(chain: list[Finding]) -> str:
    if not chain:
        return ""
    first = chain[0].text()
    first = first[0].lower() + first[1:]
    more = f" (and {len(chain) - 1} more step{'s' if len(chain) > 2 else ''})" if len(chain) > 1 else ""
    return f"{first}{more}; then "


def _forced(index: int, as_ship: bool, rule: str, level: int, say: Callable[[], str],
            retell: Callable[[int, int], Callable[[], str]] | None = None) -> Finding:
    bit = 1 << index
    return Finding(rule, level, 0 if as_ship else bit, bit if as_ship else 0, bit, say, retell)


def _step_text(model: DeductionModel, index: int, was: str, now: str, how: str, why: Why | str) -> str:
    """The sentence of a step whose assumption (cell ``index`` ``was``) breaks ``how``, ``why``."""
    return f"If {model.shared.where(1 << index)} were {was}, {how}{why}. So it is {now}"


def _trial_told(model: DeductionModel, valid: Valid, index: int, as_ship: bool, ship: int, water: int
                ) -> Callable[[], str]:
    """The sentence of a depth-1 step (:func:`_trial_text`) told on the board (``ship``,
    ``water``), with the places ``valid`` it was proved with: a step proved on a board holds on
    every board that extends it, and the simple steps after its assumption are that board's."""
    return partial(_trial_text, model, ship, water, valid, index, as_ship)


def _trial_text(model: DeductionModel, ship: int, water: int, valid: Valid, index: int, as_ship: bool) -> str:
    """The sentence of a depth-1 step: the assumption, the simple steps after it and the rule
    that breaks, from the assumption alone on the board (``ship``, ``water``, places ``valid``)."""
    chain: list[Finding] = []
    outcome = propagate(model, *_assuming(ship, water, index, as_ship), valid, chain)
    was, now = ("ship", "water") if as_ship else ("water", "ship")
    where = model.shared.where(1 << index)
    return f"If {where} were {was}: {_chain_text(chain)}{outcome.contradiction}. So it is {now}"


Literal = tuple[int, bool]             # (cell index, assumed ship)
Closures = dict[Literal, Outcome]      # what the simple rules make of each assumption that held
Places = int                           # the places still possible, as a mask over their indices
Dropped = tuple[Placement, Callable[[], str], int]
"""A place ruled out, the rule its ship would break (the sentence built when shown), the trial's depth."""


def places_mask(model: DeductionModel, valid: Valid) -> int:
    """The places ``valid`` stands for (all the hints allow if None)."""
    return valid if valid is not None else model.alive


Record = tuple[int, int, int, "Outcome", int]
"""An assumption that held: on which board (ship, water, places as by :func:`places_mask`),
and the board it settled to with its places."""
Settled = dict[object, list[Record]]
"""Assumptions that held, by key (a literal, or :func:`place_key`): the last ``RECORDS``
records of each, newest first."""
RECORDS = 3
Held = tuple[int, int, int, int, int]
"""A sweep's record (:func:`find_contradiction`): its board (ship, water, places as by
:func:`places_mask`) and the cells whose assumption, as ship and as water, held there. An
assumption that held on a board holds on every board below it (less known, more places)
of the same puzzle or of one with fewer hints: the rules only add knowledge."""


def place_key(p: Placement) -> Literal:
    """The key of the assumption "a ship lies whole at ``p``" in a :data:`Settled` store."""
    return (-1 - p.index, True)


def extends(ship: int, water: int, known: int, record: tuple) -> bool:
    """Whether the board (``ship``, ``water``, places ``known``) extends the board a store's
    ``record`` was made on (its first three items: ship, water, places)."""
    return not (record[0] & ~ship or record[1] & ~water or known & ~record[2])


def settled_before(store: Settled, key: object, ship: int, water: int, known: int) -> Outcome | None:
    """What an assumption settled to on an earlier board, if it settles to that on this one
    (``ship``, ``water``, places ``known`` as by :func:`places_mask`), else None.

    The rules only ever add knowledge, so what they settle a board to lies between what they
    settle any board below it and any board above it to (for the simple rules and for depth-1
    trials alike). An assumption that held on a board this one extends, whose settled board
    already holds everything this one knows (with no place this one lacks and none the
    settled board dropped), settles to the very same board: it holds again.
    """
    for record in store.get(key, ()):
        if extends(ship, water, known, record):
            outcome, outcome_known = record[3:]
            if not (ship & ~outcome.ship or water & ~outcome.water or outcome_known & ~known):
                return outcome
    return None


def remember_settled(model: DeductionModel, store: Settled, key: object, ship: int, water: int, known: int,
                     outcome: Outcome) -> None:
    """Keep ``outcome``, what the assumption ``key`` settled to on the board (``ship``, ``water``,
    places ``known``), in ``store`` (see :func:`settled_before`)."""
    record = (ship, water, known, outcome, places_mask(model, outcome.places))
    kept = store.setdefault(key, [])
    kept.insert(0, record)
    del kept[RECORDS:]


def trial(model: DeductionModel, store: Settled, key: object, ship: int, water: int, valid: Valid, known: int,
           assumed: tuple[int, int], base: State | None, explain: bool = True) -> Outcome:
    """What the simple rules settle the board (``ship``, ``water``, places ``valid``, or
    ``known`` as a mask) to with the assumption ``key`` (its ship and water cells
    ``assumed``); kept in ``store`` if it holds (see :func:`settled_before`).

    When the assumption held on a board this one extends, the search starts from the board
    it settled to there, joined with this one: what the rules settle a board to lies above
    what they settle any board below it to, so both starts settle to the same board, and the
    joined one is most of the way there. When the joined board breaks, the assumption alone
    breaks too; its ``contradiction`` says why from the assumption alone (the reason a fresh
    trial gives), unless ``explain`` is False: then it says why the joined board breaks, and
    the caller finds the fresh reason when it must.
    """
    start_ship, start_water = ship | assumed[0], water | assumed[1]
    outcome = None
    for record in store.get(key, ()):
        if extends(ship, water, known, record):
            before, before_known = record[3:]
            joined_ship, joined_water = start_ship | before.ship, start_water | before.water
            if joined_ship & joined_water:
                outcome = Outcome(joined_ship, joined_water, known, "a cell would be both ship and water")
            else:
                outcome = propagate(model, joined_ship, joined_water, known & before_known, base=base)
            break
    if outcome is None:
        outcome = propagate(model, start_ship, start_water, valid, base=base)
    elif outcome.contradiction and explain:
        why = Why(partial(_why_broken, model, start_ship, start_water, valid))
        outcome = Outcome(start_ship, start_water, valid, why)
    if not outcome.contradiction:
        remember_settled(model, store, key, ship, water, known, outcome)
    return outcome


def deep_trial(model: DeductionModel, held: Settled | None, key: object, ship: int, water: int, known: int,
                outcome: Outcome, clock: Clock, closures: Closures | None = None) -> Generator[None, None, Outcome]:
    """A depth-2 trial of the assumption ``key`` on the board (``ship``, ``water``, places
    ``known``): ``outcome``, what the simple rules make of it here, settled with depth-1
    trials (see :func:`_breaks_at_depth_one`, which ``closures`` of this board orders).

    When it held on an earlier board this one extends (a record of ``held``), the trial
    starts from the board it settled to there, joined with ``outcome``: depth-1 trials only
    ever add knowledge, as the simple rules do, so both starts settle to the same board (see
    :func:`trial`), and the joined one is most of the way there. A trial that breaks is run
    again from ``outcome``, for the reason a fresh trial gives; one that holds is kept in
    ``held`` (when given).
    """
    start = outcome
    for record in (held or {}).get(key, ()):
        if extends(ship, water, known, record):
            before, before_known = record[3:]
            joined_ship, joined_water = outcome.ship | before.ship, outcome.water | before.water
            if not joined_ship & joined_water:
                joined = propagate(model, joined_ship, joined_water, places_mask(model, outcome.places) & before_known)
                start = outcome if joined.contradiction else joined
            break
    settled = yield from _breaks_at_depth_one(model, start, clock, closures)
    if settled.contradiction and start is not outcome:
        settled = yield from _breaks_at_depth_one(model, outcome, clock, closures)
    if not settled.contradiction and held is not None:
        remember_settled(model, held, key, ship, water, known, settled)
    return settled


def clashes_first(store: Settled, ship: int, water: int, order: list[Literal]) -> list[Literal]:
    """``order`` with first the assumptions that held on a board this one extends and whose
    settled board clashes with a cell known now: they will break."""
    clash, rest = [], []
    for key in order:
        if any(not (record[0] & ~ship or record[1] & ~water)
               and (ship & record[3].water or water & record[3].ship) for record in store.get(key, ())):
            clash.append(key)
        else:
            rest.append(key)
    return clash + rest


class _Steps:
    """The steps a search finds: its first, or with ``every`` each one, about another cell."""

    def __init__(self, every: list[Finding] | None) -> None:
        self.every, self.decided = every, 0
        self.first: Finding | None = None

    def add(self, index: int, found: Finding) -> bool:
        """Take ``found``, about cell ``index``; True when the search ends with it."""
        self.first = self.first or found
        if self.every is None:
            return True
        self.decided |= 1 << index
        self.every.append(found)
        return False


def _assumed(model: DeductionModel, store: Settled, index: int, as_ship: bool, ship: int, water: int, valid: Valid,
             known: int, base: State | None, clock: Clock) -> Generator[None, None, tuple[Outcome, State | None]]:
    """What assuming cell ``index`` ship (or water) settles the board to: recalled from
    ``store`` (see :func:`settled_before`), else a :func:`trial` from ``base`` (the board
    settled, settled now when None); with the base, for the trials after it."""
    outcome = settled_before(store, (index, as_ship), ship, water, known)
    if outcome is None:
        base = base or base_of(model, ship, water, valid)
        outcome = trial(model, store, (index, as_ship), ship, water, valid, known,
                        _assuming(0, 0, index, as_ship), base)
        if clock.due():
            yield None
    return outcome, base


def find_contradiction(model: DeductionModel, ship: int, water: int, valid: Valid, clock: Clock,
                       closures: Closures | None = None, ship_first: bool = False,
                       every: list[Finding] | None = None, truth: int | None = None,
                       held: tuple[int, int] = (0, 0), record: list | None = None) -> Search:
    """Depth 1: the first cell one of whose values breaks the board after the simple rules.

    ``closures``, when given, collects the settled board of every assumption that held: the
    depth-2 search starts from them instead of settling them again, and orders by them.
    The cells are tried in :func:`probe_order`, each as ship and then as water; with
    ``ship_first`` every cell as ship before any as water: a ship's consequences take in the
    water around it, so more of the water assumptions are known to hold untried (a hint
    keeps a cell's two values together, to speak of the likeliest cell). With ``every``, the
    sweep goes on to the end and every step goes there (the first too), each about another
    cell of this board. ``truth`` (the solution's ship cells, when known, on a board the
    solution extends) skips the assumptions of the solution's own values: they cannot break,
    since every step is sound. Nothing else changes: what such a trial settles to holds only
    values of the solution, so the assumptions it would let the sweep skip are of those values
    too; only ``closures`` lacks them, which matters only to a depth-2 search that tries them
    (given ``truth`` too, it does not: see :func:`deep_order`). ``held``: the assumptions,
    as ship and as water cells, known to hold on this board (see :data:`Held`): skipped too.
    ``record``, when given, gets this sweep's board and the assumptions it found to hold.
    """
    # A probe that holds proves every cell it set can be assumed without breaking the board
    # either (it would reach a part of the same board): those probes are skipped.
    held_ship, held_water = held
    steps = _Steps(every)
    known = places_mask(model, valid)
    base = None
    cells = probe_order(model, ship, water)
    order = ([(index, True) for index in cells] + [(index, False) for index in cells] if ship_first else
             [(index, as_ship) for index in cells for as_ship in (True, False)])
    if truth is not None:
        order = [(index, as_ship) for index, as_ship in order if bool(truth >> index & 1) != as_ship]
    for index, as_ship in order:
        if ((held_ship if as_ship else held_water) >> index) & 1 or (steps.decided >> index) & 1:
            continue
        outcome, base = yield from _assumed(model, model.settled, index, as_ship, ship, water, valid, known, base,
                                            clock)
        if not outcome.contradiction:
            held_ship |= outcome.ship
            held_water |= outcome.water
            if closures is not None:
                closures[(index, as_ship)] = outcome
        else:
            told = partial(_trial_told, model, valid, index, as_ship)
            if steps.add(index, _forced(index, as_ship, "contradiction", 3, told(ship, water), told)):
                break
    if record is not None:
        record.append((ship, water, known, held_ship, held_water))
    return steps.first


def _breaks_at_depth_one(model: DeductionModel, start: Outcome, clock: Clock,
                         closures: Closures | None = None) -> Generator[None, None, Outcome]:
    """Settle ``start`` with depth-1 contradictions: the board it settles to, with the reason
    it breaks as its ``contradiction`` (None if it holds).

    Each trial starts from what its assumption settled to on the sweeps' boards this one
    extends (``DeductionModel.settled``, see :func:`trial`), and the assumptions are tried
    in :func:`deep_order` of ``closures`` (what they settled to on the board the depth-2
    search is on): the likeliest to break first, and those that hold there set most cells,
    which are then not tried. The order comes from the board alone, not from what earlier
    boards remembered, so the step found (and its reason) is the one a fresh search finds.
    After a step the round goes on with the new board; rounds are run until one finds no
    step (the depth-1 closure of a board is one board, in whatever order its steps are found).
    """
    ship, water, valid = start.ship, start.water, start.places
    store: Settled = {(index, as_ship): list(model.settled.get((index, as_ship), ()))
                      for index in bits(model.all & ~ship & ~water) for as_ship in (True, False)}
    literals = deep_order(model, ship, water, closures)
    base = None                      # the settled state of the board, which the trials start from
    changed = True
    while changed:
        changed = False
        held_ship = held_water = 0
        known = places_mask(model, valid)
        for index, as_ship in literals:
            if ((held_ship if as_ship else held_water) >> index) & 1 or not ((model.all & ~ship & ~water) >> index) & 1:
                continue
            outcome, base = yield from _assumed(model, store, index, as_ship, ship, water, valid, known, base, clock)
            if not outcome.contradiction:
                held_ship |= outcome.ship
                held_water |= outcome.water
                continue
            base = base or base_of(model, ship, water, valid)
            other = _assuming(ship, water, index, not as_ship)
            after = base_of(model, *other, valid, base)
            if after is None:
                if_not = Why(partial(_why_broken, model, *other, valid))
                if_ship, if_water = (outcome.contradiction, if_not) if as_ship else (if_not, outcome.contradiction)
                return Outcome(ship, water, valid, Why(partial(_neither, model.shared.where(1 << index),
                                                               if_ship, if_water)))
            ship, water, valid, base = after.ship, after.water, after.alive, after   # the trials after it start here
            known = places_mask(model, valid)
            changed = True
    return Outcome(ship, water, valid, None)


def _neither(where: str, if_ship: Why | str, if_water: Why | str) -> str:
    return f"{where} could be neither ship ({if_ship}) nor water ({if_water})"


def deep_order(model: DeductionModel, ship: int, water: int, closures: Closures | None,
               truth: int | None = None) -> list[Literal]:
    """The assumptions a depth-2 search tries, likeliest to break first.

    An assumption after whose simple consequences the missing ships have fewest places left
    has most to break: those come first, then those that fill most cells (both read from the
    depth-1 search's settled boards, ``closures``).
    With ``truth`` (the solution's ship cells) only the value the solution does not have is
    tried: the other cannot break, since every step is sound.
    """
    known = (ship | water).bit_count()
    literals = [(index, as_ship) for index in probe_order(model, ship, water) for as_ship in (True, False)
                if truth is None or bool(truth >> index & 1) != as_ship]
    if not closures:
        return literals
    score = {lit: (o.places.bit_count() if o.places is not None else 0, known - (o.ship | o.water).bit_count())
             for lit, o in closures.items()}
    last = (float("inf"), 0)
    return sorted(literals, key=lambda lit: score.get(lit, last))


def find_deep_contradiction(model: DeductionModel, ship: int, water: int, valid: Valid, clock: Clock,
                            closures: Closures | None = None, truth: int | None = None,
                            every: list[Finding] | None = None, held: Settled | None = None,
                            clash_first: bool = False, more: int | None = None) -> Search:
    """Depth 2: assume a cell, settle the board with depth-1 contradictions, watch it break.

    Returns the first step found. ``closures`` and ``truth`` only order the search and save
    work (see :func:`deep_order`); every step found is proved the same way. With ``every``,
    the search goes on to the end and every step goes there as it is found (the first too),
    each about another cell of this board: a hint reads them between heartbeats and may pause
    the search there; with ``more`` as well, the search ends once it has tried that many more
    assumptions after the first step, and those that held on an earlier board (in ``held``)
    are tried last: they most likely hold again, and a depth-2 trial that holds costs about
    what three that break do. ``held`` keeps the assumptions that held, from board to
    board (see :func:`settled_before`): one that holds again is not tried, one that held on
    an earlier board starts from there (see :func:`deep_trial`). With ``clash_first`` those
    that will break are tried first (see :func:`clashes_first`).
    """
    held_ship = held_water = 0
    closures = closures or {}
    steps = _Steps(every)
    order = deep_order(model, ship, water, closures, truth)
    known = places_mask(model, valid)
    if held is not None and more is not None:
        order = [key for key in order if key not in held] + [key for key in order if key in held]
    if held is not None and clash_first:
        order = clashes_first(held, ship, water, order)
    for index, as_ship in order:
        if ((held_ship if as_ship else held_water) >> index) & 1 or (steps.decided >> index) & 1:
            continue
        if steps.first is not None and more is not None:
            if more <= 0:
                break
            more -= 1
        settled = held and settled_before(held, (index, as_ship), ship, water, known)
        if settled:
            held_ship |= settled.ship
            held_water |= settled.water
            continue
        outcome = closures.get((index, as_ship))
        if outcome is None:
            outcome = propagate(model, *_assuming(ship, water, index, as_ship), valid)
        was, now = ("ship", "water") if as_ship else ("water", "ship")
        if outcome.contradiction:
            found = _forced(index, as_ship, "contradiction", 3,
                            partial(_step_text, model, index, was, now, "", outcome.contradiction))
        else:
            settled = yield from deep_trial(model, held, (index, as_ship), ship, water, known, outcome, clock,
                                            closures)
            if not settled.contradiction:
                held_ship |= settled.ship
                held_water |= settled.water
                continue
            found = _forced(index, as_ship, "deep-contradiction", 4,
                            partial(_step_text, model, index, was, now,
                                    "then after the simple rules and one level of trial ", settled.contradiction))
        if steps.add(index, found):
            break
    return steps.first


def rule_out_places(model: DeductionModel, ship: int, water: int, valid: Places, clock: Clock,
                    deeper_until: float | None = None, truth: int | None = None,
                    enough: Callable[[Places], bool] | None = None, closures: Closures | None = None,
                    ) -> Generator[None, None, tuple[Places, list[Dropped]]]:
    """Trials over placements: put a missing ship at one of its places (its cells ship, the
    cells around it water), apply the simple rules, and see the board break.

    Returns the places that survive and those ruled out with the reason and the
    depth of the trial. A placement is a stronger assumption than one cell (the ship's length
    and direction come with it), so this finds what assuming cells does not. With
    ``deeper_until`` (a ``time.perf_counter()`` value) the places that survive are then
    tried at depth 2 (the placed board settled with depth-1 cell trials) until then, those
    leaving the missing ships fewest places first; ``truth`` (the solution's ship cells)
    skips the places where the solution has its ships, which cannot break; ``enough`` (asked
    with the places left after each one ruled out at depth 2) stops the trials early.
    ``closures``: what the cell trials that held on this very board settled to (see
    :func:`find_contradiction`); a place one of them settles whole, its cells ship and its
    halo water, holds too (its trial would settle to a part of that board), so it is not
    tried at depth 1.
    """
    dropped: list[Dropped] = []
    survivors: list[tuple[int, Placement, Outcome]] = []
    known = places_mask(model, valid)
    base = None
    for p in model.shared.members(valid):
        if p.cells & ~ship:
            if broke_before(model.broken, place_key(p), ship, water, known):
                dropped.append((p, partial(_breaks_with, model, ship, water, valid, p), 1))
                continue
            outcome = settled_before(model.settled, place_key(p), ship, water, known)
            if outcome is None and closures and deeper_until is None and _settled_whole(closures, p, ship):
                continue
            if outcome is None:
                base = base or base_of(model, ship, water, valid)
                outcome = trial(model, model.settled, place_key(p), ship, water, valid, known,
                                 (p.cells, p.halo), base, explain=False)
                if clock.due():
                    yield None
            if outcome.contradiction:
                model.broken[place_key(p)] = (ship, water, known)
                dropped.append((p, partial(_breaks_with, model, ship, water, valid, p), 1))
            elif _may_break(p, truth):
                survivors.append((outcome.places.bit_count() if outcome.places is not None else 0, p, outcome))
    if deeper_until is not None:
        survivors.sort(key=lambda item: item[0])
        for _, p, outcome in survivors:
            if time.perf_counter() > deeper_until:
                break
            if settled_before(model.held, place_key(p), ship, water, known):
                continue
            reason = yield from _place_breaks_deeply(model, model.held, p, ship, water, known, outcome, clock)
            if reason is not None:
                dropped.append((p, reason, 2))
                if enough is not None and enough(without(valid, dropped)):
                    break
    return without(valid, dropped), dropped


def _settled_whole(closures: Closures, p: Placement, ship: int) -> bool:
    """Whether a cell trial of ``closures`` settled a ship whole at ``p`` (one of its cells not
    yet ship assumed ship)."""
    cells, halo = p.cells, p.halo
    for i in bits(cells & ~ship):
        outcome = closures.get((i, True))
        if outcome is not None and not (cells & ~outcome.ship or halo & ~outcome.water):
            return True
    return False


def rule_out_longest(model: DeductionModel, ship: int, water: int, valid: Places, clock: Clock, length: int,
                     truth: int | None = None, until: float | None = None, held: Settled | None = None,
                     ) -> Generator[None, None, tuple[Places, list[Dropped]]]:
    """Depth-2 trials of the places of the ships of ``length`` (a hint tries the longest first):
    each on the board with the places ruled out so far taken away, so each one ruled out makes
    the next trials stronger. A long ship placed whole settles most of the board, so its
    trials break soonest. ``truth`` and ``until`` as in :func:`rule_out_places`; ``held`` as in
    :func:`find_deep_contradiction` (a place under :func:`place_key`), those that will break first."""
    dropped: list[Dropped] = []
    geo = model.shared
    places = [p for p in geo.members(valid & geo.length_sets[geo.length_index[length]])
              if p.cells & ~ship and _may_break(p, truth)]
    if held is not None:
        keys = {place_key(p): p for p in places}
        places = [keys[key] for key in clashes_first(held, ship, water, list(keys))]
    for p in places:
        if until is not None and time.perf_counter() > until:
            break
        known = places_mask(model, valid)
        if held is not None and settled_before(held, place_key(p), ship, water, known):
            continue
        outcome = propagate(model, ship | p.cells, water | p.halo, valid)
        if clock.due():
            yield None
        reason: Callable[[], str] | None
        if outcome.contradiction:
            reason = partial(str, outcome.contradiction)
        else:
            reason = yield from _place_breaks_deeply(model, held, p, ship, water, known, outcome, clock)
        if reason is not None:
            dropped.append((p, reason, 2))
            valid = without(valid, dropped[-1:])
    return valid, dropped


def broke_before(store: dict, key: object, ship: int, water: int, known: int) -> bool:
    """Whether the assumption ``key`` broke on a board this one (``ship``, ``water``, places
    ``known``) extends: then it breaks here too, since the rules only ever add knowledge."""
    record = store.get(key)
    return record is not None and extends(ship, water, known, record)


def _place_breaks_deeply(model: DeductionModel, held: Settled | None, p: Placement, ship: int, water: int, known: int,
                         outcome: Outcome, clock: Clock) -> Generator[None, None, Callable[[], str] | None]:
    """The depth-2 trial of a whole ship at ``p`` (``outcome``, its simple consequences on the
    board): why it breaks (a function that builds the sentence), or None if it holds. A place
    whose trial broke on a board this one extends breaks here too (``DeductionModel.broken_deep``, see
    :func:`broke_before`): its trial is not run again, only to say why when that is shown."""
    key = place_key(p)
    if broke_before(model.broken_deep, key, ship, water, known):
        return partial(_breaks_deeply, model, outcome)
    settled = yield from deep_trial(model, held, key, ship, water, known, outcome, clock)
    if not settled.contradiction:
        return None
    model.broken_deep[key] = (ship, water, known)
    return partial(_after_one_level, settled.contradiction)


def _after_one_level(why: Why | str | None) -> str:
    return f"then after one level of trial {why or ''}"


def _breaks_deeply(model: DeductionModel, outcome: Outcome) -> str:
    """Why a place whose simple consequences are ``outcome`` breaks after one level of trial:
    the trial run again, for a place :func:`broke_before` ruled out at depth 2 without running
    it (see :func:`_breaks_with`)."""
    settled = drain(_breaks_at_depth_one(model, outcome, Clock()))
    return _after_one_level(settled.contradiction)


@overload
def drain(search: Generator[None, None, T]) -> T: ...
@overload
def drain(search: Generator[None, None, T], deadline: float | None) -> T | None: ...
def drain(search: Generator[None, None, T], deadline: float | None = None) -> T | None:
    """The value a search returns, its heartbeats passed over; with ``deadline`` (a
    ``time.perf_counter()`` value), None once a heartbeat comes after it (the search closed)."""
    try:
        while True:
            next(search)
            if deadline is not None and time.perf_counter() > deadline:
                search.close()
                return None
    except StopIteration as stop:
        return stop.value


def _breaks_with(model: DeductionModel, ship: int, water: int, valid: Valid, p: Placement) -> str:
    """Why a ship at ``p`` breaks the board (``ship``, ``water``, places ``valid``): the
    trial run again, for a place :func:`broke_before` ruled out without running it."""
    return str(propagate(model, ship | p.cells, water | p.halo, valid).contradiction or "")


def _may_break(p: Placement, truth: int | None) -> bool:
    """Whether a trial of place ``p`` can break: not if the solution (``truth``, its ship
    cells, when known) has a ship exactly there, since every step is sound."""
    return truth is None or bool(p.cells & ~truth or p.ends & truth)


def without(valid: Places, dropped: list[Dropped]) -> Places:
    for p, _, _ in dropped:
        valid &= ~(1 << p.index)
    return valid


def ruled_out_text(dropped: list[Dropped], limit: int = 3) -> str:
    """The sentence that says which places were ruled out, and why (the first few)."""
    shown = "; ".join(f"the {ship_name(p.length)} {'at' if p.length == 1 else 'in'} {p.describe()} "
                      f"({reason()})" for p, reason, _ in dropped[:limit])
    more = f", and {len(dropped) - limit} more place{'s' if len(dropped) - limit > 1 else ''}" \
        if len(dropped) > limit else ""
    return (f"A ship placed whole at some places breaks a rule, so none lies there: {shown}{more}. "
            f"With those ruled out: ")


def after_ruling_out(found: Finding, dropped: list[Dropped]) -> Finding:
    """``found``, proved on the board with ``dropped`` places ruled out, with that said first.

    Levels count trials inside trials. A place ruled out by a depth-1 trial is known, as a cell
    is once a step has set it; a simple rule or a depth-1 cell trial on the board without such
    places is still one level of trial (``placement-trial``, level 3). A place ruled out by a
    depth-2 trial, or a step of a depth-2 search, makes it ``deep-contradiction``, level 4.
    """
    def text() -> str:
        said = found.text()
        return ruled_out_text(dropped) + said[0].lower() + said[1:]

    def retell(ship: int, water: int) -> Callable[[], str]:
        return after_ruling_out(found.told_on(ship, water), dropped).text

    rule, level = ("placement-trial", 3) if found.level <= 3 and all(depth == 1 for _, _, depth in dropped) else (
        "deep-contradiction", 4)
    return Finding(rule, level, found.ship, found.water, found.evidence, text,
                   retell if found.retell is not None else None)
