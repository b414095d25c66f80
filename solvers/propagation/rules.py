"""Constraint propagation on the bitboard model (``solvers.propagation.model``), shared by the exact solvers.

``propagate(model, state, ...)`` applies a decision, then the named deduction rules below
until none of them changes anything, and returns the new :class:`State`, or ``None`` when
the board has become impossible (failure is a value: no exceptions).

A rule is a small function of a :class:`Work` (the state being built) that returns False on
a contradiction, listed once in ``RULES`` with its stage (its place in the order) and the
sentences its logged steps say; the driver's order comes from that table alone. A log and a
blame list only record: a run with them reaches the same states as one without. Cells a
rule sets stay *fresh* until the cell rules have looked at them; placements a rule decides
are *queued* for :func:`place_queued`. The cheap rules run first:
the board rules run only once the cell rules are quiet, and any change sends the driver back
to the cheap ones. With a ``log`` list every deduction is recorded as ``(mask, value,
detail)``; with a ``blame`` list a failure appends what failed, for conflict-directed
branching (see :meth:`Work.fail`).
"""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

from game.limits import MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import Cell, ship_name
from game.ships import Geometry, bits, kept, meet, union
from solvers.propagation.model import Line, Memo, Model, State

Log = list[tuple[int, Cell, str]]
# The room rule's memo key packs a line's ship cells, its room, its index and its axis in one int.
ROOM_BITS = MAX_SHIP_LENGTH.bit_length()
LINE_BITS = MAX_SIDE.bit_length()


# -- the state being built --------------------------------------------------------------------

class Work:
    """A propagation in progress: the state's fields, the cells set but not yet looked at by
    the cell rules (``fresh_*``), the batch the cell rules are looking at (``new_*``) and the
    placements queued to be placed, each with the reason it is logged with."""

    __slots__ = ("model", "geo", "memo", "ship", "water", "placed", "alive", "counts", "fresh_ship", "fresh_water",
                 "new_ship", "new_water", "touched", "line_ship", "all_lines", "to_place", "log", "blame",
                 "cover_check", "cover_alive", "covers", "settled_ship", "settled_water",
                 "killed", "killed_cells")

    def __init__(self, model: Model, state: State, log: Log | None = None, blame: list | None = None,
                 all_lines: bool = False) -> None:
        self.model = model
        self.geo = model.geo
        self.memo: Memo = model.memo
        self.ship, self.water, self.placed, self.alive = state.ship, state.water, state.placed, state.alive
        self.counts = list(state.counts)
        self.fresh_ship = self.fresh_water = self.new_ship = self.new_water = self.touched = self.line_ship = 0
        self.all_lines = all_lines               # the next batch looks at every line, changed or not
        self.to_place: dict[int, str] = {}
        self.log = log
        self.blame = blame
        self.cover_check = all_lines             # the coverage rule looks at every unknown cell
        self.cover_alive = state.alive           # the placements alive when the coverage rule last looked
        self.settled_ship = self.settled_water = 0   # cells whose placements to kill are dead already
        self.killed = self.killed_cells = 0     # placements placing killed since the coverage rule looked, their cells
        self.covers: list[tuple[int, int]] | None = None   # the segment rule's segments and covers

    def add_ship(self, mask: int, why: str) -> None:
        """Set unknown cells to ship (the caller knows they are unknown)."""
        self.ship |= mask
        self.fresh_ship |= mask
        if self.log is not None:
            self.log.append((mask, Cell.SHIP, why))

    def add_water(self, mask: int, why: str) -> None:
        """Set unknown cells to water (the caller knows they are unknown)."""
        self.water |= mask
        self.fresh_water |= mask
        if self.log is not None:
            self.log.append((mask, Cell.WATER, why))

    def add_common(self, ship: int, water: int, ship_why: str, water_why: str) -> bool:
        """Cells every candidate agrees on: ``ship`` cells become ship, then ``water`` cells
        water; False on a clash with what is known."""
        new = ship & ~self.ship
        if new:
            if new & self.water:
                return False
            self.add_ship(new, ship_why)
        new = water & ~self.water
        if new:
            if new & self.ship:
                return False
            self.add_water(new, water_why)
        return True

    def says(self, rule: str, part: int = 0, length: int = 0, line: Line | None = None) -> str:
        """The sentence ``part`` of ``rule`` in the table (``RULES``), its ``{ship}`` the ship
        of ``length``, its ``{line}`` the name of ``line``, when a log is kept ("" otherwise: a
        search without a log makes no sentences, nor the names in them)."""
        if self.log is None:
            return ""
        return SAYS[rule][part].format(ship=ship_name(length) if length else "",
                                       line=f"{'row' if line[0] else 'column'} {line[1] + 1}" if line else "")

    def fail(self, kind: str, value: int) -> bool:
        """A contradiction, blamed on ``("row", index)``, ``("col", index)``, ``("cells", mask)``
        or ``("length", length index)``."""
        if self.blame is not None:
            self.blame.append((kind, value))
        return False

    def next_batch(self) -> bool:
        """Hand the fresh cells to the cell rules; False when there are none."""
        if not (self.fresh_ship or self.fresh_water or self.all_lines):
            return False
        self.new_ship, self.new_water = self.fresh_ship, self.fresh_water
        self.fresh_ship = self.fresh_water = 0
        if self.all_lines:
            self.touched = self.line_ship = self.geo.board
            self.all_lines = False
        else:
            self.touched = self.new_ship | self.new_water
            self.line_ship = self.new_ship
        return True

    def state(self) -> State:
        return State(self.ship, self.water, self.placed, self.alive, tuple(self.counts))


Rule = Callable[[Work], bool]
LineRule = Callable[[Work, Line], bool]


# -- placing ----------------------------------------------------------------------------------

def place_queued(work: Work) -> bool:
    """A queued placement is placed: its cells are ship, its halo water, and its length has
    one ship fewer to place. The placements its cells and halo kill die at once, from
    the model's per-placement memo, so the cell rules skip those cells (``settled_*``)."""
    geo = work.geo
    kills_of, p_cells, p_halo, p_length_index = geo.kills, geo.p_cells, geo.p_halo, geo.p_length_index
    counts = work.counts
    for p, detail in work.to_place.items():
        if not (work.alive >> p) & 1:
            return False
        cells = p_cells[p]
        halo = p_halo[p]
        if cells & work.water or halo & work.ship:
            return False
        new = cells & ~work.ship
        if new:
            work.add_ship(new, detail)
        new = halo & ~work.water
        if new:
            work.add_water(new, work.says("place_queued", length=geo.p_length[p]))
        work.placed |= cells
        kills, kill_cells = kills_of(p)
        work.killed |= kills
        work.killed_cells |= kill_cells
        work.settled_ship |= cells
        work.settled_water |= halo
        li = p_length_index[p]
        left = counts[li] - 1
        if left < 0:
            return False
        counts[li] = left
        work.alive &= ~(kills | geo.length_sets[li]) if left == 0 else ~kills
    work.to_place = {}
    return True


# -- cell rules: what the cells set since the last batch imply --------------------------------

def water_kills_placements(work: Work) -> bool:
    """A water cell: every placement over it dies."""
    new = work.new_water & ~work.settled_water
    if new:
        work.alive &= ~union(work.geo.covering, new)
    return True


def ship_kills_placements(work: Work) -> bool:
    """A ship cell: every placement whose halo holds it dies."""
    new = work.new_ship & ~work.settled_ship
    if new:
        work.alive &= ~union(work.geo.surrounding, new)
    return True


def diagonals_are_water(work: Work) -> bool:
    """A ship cell's diagonal neighbours are water; a ship there is a contradiction.
    (A placed ship's cells are skipped: its halo, which holds their diagonals, is water.)"""
    new_ship = work.new_ship & ~work.settled_ship
    if not new_ship:
        return True
    around = work.geo.diagonal(new_ship)
    if around & work.ship:
        return work.fail("cells", around & work.ship)
    new = around & ~work.water
    if new:
        work.add_water(new, work.says("diagonals_are_water"))
    return True


def tally_within_reach(work: Work, line: Line) -> bool:
    """A line over its tally, or unable to reach it with its unknown cells, is a contradiction."""
    is_row, index, mask, tally, _ = line
    ship = work.ship
    ships = (ship & mask).bit_count()
    if ships > tally or ships + (mask & ~(ship | work.water)).bit_count() < tally:
        return work.fail("row" if is_row else "col", index)
    return True


def tally_met(work: Work, line: Line) -> bool:
    """A line whose tally is met: the rest of the line is water."""
    _, _, mask, tally, _ = line
    ship = work.ship
    unknown = mask & ~(ship | work.water)
    if unknown and (ship & mask).bit_count() == tally:
        work.add_water(unknown, work.says("tally_met", line=line))
    return True


def needs_every_unknown(work: Work, line: Line) -> bool:
    """A line that needs every one of its unknown cells to reach its tally: they are ship."""
    _, _, mask, tally, _ = line
    ship = work.ship
    unknown = mask & ~(ship | work.water)
    if unknown and (ship & mask).bit_count() + unknown.bit_count() == tally:
        work.add_ship(unknown, work.says("needs_every_unknown", line=line))
    return True


def longer_than_room(work: Work, line: Line) -> bool:
    """A line with new ship cells: a placement along it that would put more new ship cells
    in it than its tally has room for dies. (With no room left the line is water, which
    kills the rest.) Only the placements longer than the room can (``Model.longer``); which
    of the line's placements those are depends on its ship cells alone (kept in ``Memo.room``)."""
    is_row, index, mask, tally, placements = line
    line_ship = work.ship & mask
    if not work.line_ship & mask:
        return True
    room = tally - line_ship.bit_count()
    lengths = work.geo.lengths
    if 0 < room < (lengths[0] if lengths else 0):
        memo = work.memo.room
        key = ((line_ship << ROOM_BITS | room) << LINE_BITS | index) << 1 | is_row
        dead = memo.get(key)
        if dead is None:
            p_cells = work.geo.p_cells
            dead = 0
            m = placements & work.model.longer[room]
            while m:
                low = m & -m
                m ^= low
                if (p_cells[low.bit_length() - 1] & ~line_ship).bit_count() > room:
                    dead |= low
            kept(memo, key, dead, work.memo.limit)
        work.alive &= ~dead
    return True


def line_tallies(work: Work) -> bool:
    """The line rules on every tallied line the batch touched, rows then columns, line by
    line; each is called only where it can fire, so the other lines cost no call."""
    # The tally rules: a tight tally (met, over, or needing at least every unknown cell) on a
    # line not complete and right. The room rule: new ship cells, room for some of a longest ship.
    touched, line_ship = work.touched, work.line_ship
    geo = work.geo
    lengths = geo.lengths
    longest = lengths[0] if lengths else 0
    board = geo.board
    ship = work.ship
    unknown = board ^ (ship | work.water)
    for line in work.model.lines:
        mask = line[2]
        if not touched & mask:
            continue
        ships, tally = (ship & mask).bit_count(), line[3]
        free = (mask & unknown).bit_count()
        if (ships >= tally or ships + free <= tally) and (free or ships != tally):
            for rule in TALLY_RULES:
                if not rule(work, line):
                    return False
            ship = work.ship
            unknown = board ^ (ship | work.water)
        if line_ship & mask and 0 < tally - ships < longest:
            longer_than_room(work, line)
    return True


# -- board rules: whole-board deductions, once the cell rules are quiet -------------------------

def fleet_count(work: Work) -> bool:
    """A length with fewer alive placements than ships left is a contradiction; with exactly
    as many, every one of them is placed."""
    alive, length_sets = work.alive, work.geo.length_sets
    li = -1
    for left in work.counts:
        li += 1
        if not left:
            continue
        options = alive & length_sets[li]
        found = options.bit_count()
        if found < left:
            return work.fail("length", li)
        if found == left:
            why = work.says("fleet_count", length=work.geo.lengths[li])
            for p in bits(options):
                work.to_place[p] = why
    return True


def segment_covers(work: Work) -> list[tuple[int, int]]:
    """Every ship segment not yet part of a placed ship, with the alive placements over all of it."""
    geo = work.geo
    unplaced = work.ship & ~work.placed
    found = []
    while unplaced:
        segment = geo.component(unplaced & -unplaced, unplaced)
        unplaced &= ~segment
        found.append((segment, meet(geo.covering, segment, work.alive)))
    return found


def segments_need_a_ship(work: Work) -> bool:
    """An unplaced ship segment needs exactly one placement over it: with none it is a
    contradiction, with one that one is placed, with several the cells they all cover are
    ship and the cells all their halos hold are water."""
    geo = work.geo
    work.covers = covers = segment_covers(work)
    for segment, cover in covers:
        if not cover:
            return work.fail("cells", segment)
        if not cover & (cover - 1):
            p = cover.bit_length() - 1
            work.to_place[p] = work.says("segments_need_a_ship", length=geo.p_length[p])
            continue
        cells, halo = common(work, cover)
        if (cells & ~work.ship or halo & ~work.water) and not work.add_common(
                cells, halo, work.says("segments_need_a_ship", 1), work.says("segments_need_a_ship", 2)):
            return False
    return True


def distinct_segments(work: Work) -> bool:
    """Segments no one placement can cover together need different ships: for every length
    k, the segments that need a ship of length >= k cannot outnumber the ships of length >= k
    left (a counting check, when no two segments share a placement)."""
    covers, work.covers = work.covers, None     # what the segment rule just found, if it ran last
    if covers is None:
        covers = segment_covers(work)
    if len(covers) < 2:
        return True
    geo = work.geo
    lengths, length_sets = geo.lengths, geo.length_sets
    seen = 0
    needs = []                               # per segment: the shortest ship that can cover it
    for _, cover in covers:
        if cover & seen:
            return True
        seen |= cover
        li = len(lengths) - 1                # lengths run longest first: find the shortest
        while not cover & length_sets[li]:
            li -= 1
        needs.append(lengths[li])
    ships_left = 0
    for li, length in enumerate(lengths):
        ships_left += work.counts[li]
        if sum(1 for need in needs if need >= length) > ships_left:
            return False
    return True


def uncovered_is_water(work: Work) -> bool:
    """An unknown cell that no alive placement covers is water. Only the cells of the
    placements that died since the last look can have lost their last one (for those that
    placing a ship killed, the cells come from a table: a few more cells looked at, in one go)."""
    geo = work.geo
    known = work.ship | work.water
    if work.cover_check:
        m = geo.board & ~known
        work.cover_check = False
    else:
        dead = work.cover_alive & ~work.alive & ~work.killed
        m = (union(geo.p_cells, dead) | work.killed_cells) & ~known
    work.killed = work.killed_cells = 0
    alive = work.cover_alive = work.alive
    covering = geo.covering
    empty = 0
    while m:
        low = m & -m
        m ^= low
        if not alive & covering[low.bit_length() - 1]:
            empty |= low
    if empty:
        work.add_water(empty, work.says("uncovered_is_water"))
    return True


def last_ship_of_a_length(work: Work) -> bool:
    """The last ship of a length: the cells its every placement covers are ship, the cells
    every one's halo holds are water."""
    geo = work.geo
    for li, left in enumerate(work.counts):
        if left != 1:
            continue
        options = work.alive & geo.length_sets[li]
        if options.bit_count() > 2 * geo.lengths[li]:
            continue                         # more placements than can share a cell: nothing in common
        cells, halo = common(work, options)
        if cells & ~work.ship or halo & ~work.water:
            length = geo.lengths[li]
            if not work.add_common(cells, halo, work.says("last_ship_of_a_length", 0, length),
                                   work.says("last_ship_of_a_length", 1, length)):
                return False
    return True


def common(work: Work, placements: int) -> tuple[int, int]:
    """The cells every placement of the set covers, and the cells every one's halo holds
    (the two meets in one pass over the set; kept in ``Memo.common``)."""
    memo = work.memo.common
    found = memo.get(placements)
    if found is None:
        geo = work.geo
        p_cells, p_halo = geo.p_cells, geo.p_halo
        cells = halo = geo.board
        rest = placements
        while rest:
            low = rest & -rest
            p = low.bit_length() - 1
            rest ^= low
            cells &= p_cells[p]
            halo &= p_halo[p]
        found = kept(memo, placements, (cells, halo), work.memo.limit)
    return found


# -- the table: every rule once, in the order the driver runs them ------------------------------

class Entry(NamedTuple):
    """One rule of the table: its name (its function's), its stage (``start``, then
    ``place``, ``cell``, per line ``tally`` and ``room``, then ``board``; within a stage, in
    the table's order), its function, and the sentences its logged steps say (``{ship}``: a
    ship's name, ``{line}``: a line's). The hints' shapes (``game.ships.hint_reach``) are
    set by :func:`root_state`, before the rest: that rule has no function here."""

    name: str
    stage: str
    run: Callable | None
    says: tuple[str, ...] = ()


def _entry(stage: str, run: Callable, *says: str) -> Entry:
    return Entry(run.__name__, stage, run, says)


RULES: tuple[Entry, ...] = (
    Entry("hint_shape", "start", None, ("the hint's shape continues here", "the hint's shape ends here")),
    _entry("place", place_queued, "water around the {ship}"),
    _entry("cell", water_kills_placements),
    _entry("cell", ship_kills_placements),
    _entry("cell", diagonals_are_water, "water diagonal to a ship"),
    _entry("tally", tally_within_reach),
    _entry("tally", tally_met, "{line} tally met"),
    _entry("tally", needs_every_unknown, "{line} needs all its unknown cells"),
    _entry("room", longer_than_room),
    _entry("board", fleet_count, "every remaining {ship} placement is needed"),
    _entry("board", segments_need_a_ship, "the only {ship} that fits this segment",
           "every ship that fits this segment covers it", "every ship that fits this segment ends here"),
    _entry("board", distinct_segments),
    _entry("board", uncovered_is_water, "no ship fits here"),
    _entry("board", last_ship_of_a_length, "every placement of the last {ship} covers it",
           "water around every placement of the last {ship}"),
)
SAYS: dict[str, tuple[str, ...]] = {entry.name: entry.says for entry in RULES}
TALLY_RULES: tuple[LineRule, ...] = tuple(entry.run for entry in RULES if entry.stage == "tally")
# The cell rules, then the line rules on the lines the batch touched (``line_tallies``).
CELL_RULES: tuple[Rule, ...] = (*(entry.run for entry in RULES if entry.stage == "cell"), line_tallies)
BOARD_RULES: tuple[Rule, ...] = tuple(entry.run for entry in RULES if entry.stage == "board")
# A probe (the forward search's shaving) asks only whether a placement breaks the board. The
# coverage rule, the costliest after a placement, seldom decides that, so a probe leaves it
# out while ships are left to place (docs/design/search.md); with none left it runs, so a
# board a probe completes is complete.
PROBE_RULES: tuple[Rule, ...] = tuple(rule for rule in BOARD_RULES if rule is not uncovered_is_water)


# -- the driver -------------------------------------------------------------------------------

def propagate(model: Model, state: State, *, ship: int = 0, water: int = 0,
              places: Iterable[int] = (), kill: int = 0, log: Log | None = None,
              place_detail: str = "decision", all_lines: bool = False,
              blame: list | None = None, probe: bool = False) -> State | None:
    """Set ``ship``/``water`` cells, place ``places`` and remove the placements in ``kill``
    (a placement set), then apply the rules to a fixpoint. The caller logs its own changes;
    ``log`` receives the deductions, ``blame`` what failed (see :meth:`Work.fail`).
    ``all_lines``: look at every line's tally and every cell's coverage, not only what
    changed (for a state that is not itself a fixpoint, like the start). ``probe``: the
    rules of a probe (``PROBE_RULES``), a fixpoint of those.
    """
    if ship & water or ship & state.water or water & state.ship:
        return None
    work = Work(model, state, None, blame, all_lines)
    work.alive &= ~kill
    if ship & ~state.ship:
        work.add_ship(ship & ~state.ship, "")
    if water & ~state.water:
        work.add_water(water & ~state.water, "")
    work.log = log
    if places:
        work.to_place = dict.fromkeys(places, place_detail)
    while True:
        if work.to_place and not place_queued(work):
            return None
        while work.next_batch():
            for rule in CELL_RULES:
                if not rule(work):
                    return None
        for rule in PROBE_RULES if probe and any(work.counts) else BOARD_RULES:
            if not rule(work):
                return None
            if work.to_place or work.fresh_ship or work.fresh_water:
                break                            # back to the cheap rules
        else:
            return work.state()


def root_state(model: Model, log: Log | None = None) -> State | None:
    """The start of a search: hints and their shapes applied, then everything they imply."""
    if model.broken:
        return None
    fleet_cells = model.puzzle.ship_cells
    for tallies in (model.row_tallies, model.col_tallies):
        known = [tally for tally in tallies if tally is not None]
        total = sum(known)
        if total > fleet_cells or (len(known) == len(tallies) and total != fleet_cells):
            return None                          # the tallies cannot add up to the fleet
    if log is not None:
        if model.shape_ship & ~model.hint_ship:
            log.append((model.shape_ship & ~model.hint_ship, Cell.SHIP, SAYS["hint_shape"][0]))
        if model.shape_water & ~model.hint_water:
            log.append((model.shape_water & ~model.hint_water, Cell.WATER, SAYS["hint_shape"][1]))
    # Hint cells are already on the initial board, so they are set without a log entry;
    # every line is looked at once, even one where nothing is set (e.g. a tally of 0).
    return propagate(model, model.start, ship=model.hint_ship | model.shape_ship,
                     water=model.hint_water | model.shape_water, log=log, all_lines=True)
