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

from game.bitsets import bits, component, diagonal, kept, meet, union
from game.puzzle import Cell, Hint, fleet_text, plural, ship_name
from game.ships import segments
from solvers.propagation.model import Line, Model, State

try:
    from mypy_extensions import mypyc_attr
except ImportError:             # it only speaks to the compiler (see ``game.compiled``)
    def mypyc_attr(*_args: object, **_kwargs: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls

Log = list[tuple[int, Cell, str]]
"""A propagation's log: per step, its cells, their value and what it says (a :class:`Said`;
a failure is logged as ``(0, Cell.UNKNOWN, said)``)."""


# -- what a logged step says ------------------------------------------------------------------

@mypyc_attr(native_class=False)      # a str subclass: compiled code may not define one natively
class Said(str):
    """What a logged step says: the string itself is its short sentence (what a trace shows);
    :meth:`sentence` is the whole sentence a player reads, built when the step is shown, from
    what the rule named when it fired: the ship's length, the line, the cells it read
    (``evidence``), the placements it read (``places``), the ships left to place then
    (``counts``), the ship and water cells known then, and for the water around a ship
    placed, the step that placed it (``cause``)."""

    rule: str
    part: int
    length: int
    line: Line | None
    evidence: int
    places: int
    counts: tuple[int, ...]
    ship: int
    water: int
    model: Model
    cause: Said | None

    @property
    def level(self) -> int:
        return self.cause.level if self.cause is not None else LEVELS[self.rule]

    def tallied(self) -> tuple[str, int]:
        """The name and the tally of the line a line rule's step is about."""
        line = self.line
        assert line is not None, self.rule
        return line_name(line), line[3]

    def sentence(self, ship: int = 0, water: int = 0) -> str:
        """The sentence of this step setting ``ship`` and ``water`` cells (a failure: none)."""
        if self.cause is not None:
            return self.cause.sentence(ship, water)
        return EXPLAINS[self.rule](self, ship, water)


# -- the state being built --------------------------------------------------------------------

class Work:
    """A propagation in progress: the state's fields, the cells set but not yet looked at by
    the cell rules (``fresh_*``), the batch the cell rules are looking at (``new_*``) and the
    placements queued to be placed, each with the reason it is logged with."""

    __slots__ = ("model", "geo", "memo", "ship", "water", "placed", "alive", "counts", "fresh_ship", "fresh_water",
                 "new_ship", "new_water", "touched", "line_ship", "all_lines", "to_place", "log", "blame",
                 "cover_check", "cover_alive", "covers", "settled_ship", "settled_water",
                 "killed", "killed_cells", "fill_seen", "every_halo")

    def __init__(self, model: Model, state: State, log: Log | None = None, blame: list | None = None,
                 all_lines: bool = False) -> None:
        self.model = model
        self.geo = model.geo
        self.memo = model.memo
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
        # The segments and their covers last found (``segment_covers``), with the unplaced ship
        # cells and alive placements they were found for: the segment rules read them in turn.
        self.covers: tuple[int, int, list[tuple[int, int]]] = (-1, -1, [])
        # What the line fill last looked at (ship, water, alive): a start not itself a fixpoint
        # has every line looked at.
        self.fill_seen = None if all_lines else (state.ship, state.water, state.alive)
        self.every_halo = False                  # the last ship's halos looked at however many places it has

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

    def says(self, rule: str, part: int = 0, length: int = 0, line: Line | None = None, evidence: int = 0,
             places: int = 0, cause: str = "") -> str:
        """What ``rule`` says (its ``part``: see the table, ``RULES``) about the ship of
        ``length``, ``line``, the cells ``evidence`` and the placements ``places``, when a log
        is kept: a :class:`Said`, whose string is the table's short sentence ("" without a
        log: a search without one makes no sentences, nor the names in them)."""
        if self.log is None:
            return ""
        short = SAYS[rule]
        said = Said(short[min(part, len(short) - 1)].format(
            ship=ship_name(length) if length else "", line=line_name(line) if line else ""))
        said.rule, said.part, said.length, said.line, said.evidence, said.places = (
            rule, part, length, line, evidence, places)
        said.counts, said.ship, said.water, said.model = tuple(self.counts), self.ship, self.water, self.model
        said.cause = cause if isinstance(cause, Said) else None
        return said

    def fail(self, kind: str, value: int, said: str = "") -> bool:
        """A contradiction, blamed on ``("row", index)``, ``("col", index)``, ``("cells", mask)``
        or ``("length", length index)``, and logged with what ``said`` says (see :meth:`broke`)."""
        if self.blame is not None:
            self.blame.append((kind, value))
        return self.broke(said)

    def broke(self, said: str) -> bool:
        """A contradiction logged (with a log) as what ``said`` says, blamed on nothing."""
        if said and self.log is not None:
            self.log.append((0, Cell.UNKNOWN, said))
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
            work.add_water(new, work.says("place_queued", length=geo.p_length[p], cause=detail))
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
    geo = work.geo
    around = diagonal(new_ship, geo.stride, geo.board)
    if around & work.ship:
        return work.fail("cells", around & work.ship, work.says("diagonals_are_water", 1, evidence=around & work.ship))
    new = around & ~work.water
    if new:
        # The sentence names the ship cells that made new water, not every new ship cell.
        evidence = new_ship & diagonal(new, geo.stride, geo.board) if work.log is not None else new_ship
        work.add_water(new, work.says("diagonals_are_water", evidence=evidence))
    return True


def tally_within_reach(work: Work, line: Line) -> bool:
    """A line over its tally, or unable to reach it with its unknown cells, is a contradiction."""
    is_row, index, mask, tally, _ = line
    ship = work.ship
    ships = (ship & mask).bit_count()
    if ships > tally or ships + (mask & ~(ship | work.water)).bit_count() < tally:
        return work.fail("row" if is_row else "col", index,
                         work.says("tally_within_reach", ships < tally, line=line, evidence=mask))
    return True


def tally_met(work: Work, line: Line) -> bool:
    """A line whose tally is met: the rest of the line is water."""
    _, _, mask, tally, _ = line
    ship = work.ship
    unknown = mask & ~(ship | work.water)
    if unknown and (ship & mask).bit_count() == tally:
        work.add_water(unknown, work.says("tally_met", line=line, evidence=mask))
    return True


def needs_every_unknown(work: Work, line: Line) -> bool:
    """A line that needs every one of its unknown cells to reach its tally: they are ship."""
    _, _, mask, tally, _ = line
    ship = work.ship
    unknown = mask & ~(ship | work.water)
    if unknown and (ship & mask).bit_count() + unknown.bit_count() == tally:
        work.add_ship(unknown, work.says("needs_every_unknown", line=line, evidence=mask))
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
        key = (line_ship, room, index, is_row)
        dead = memo.get(key)
        if dead is None:
            p_cells = work.geo.p_cells
            dead = 0
            m = placements & work.model.longer[room]
            while m:
                i = m.bit_length() - 1
                bit = 1 << i
                m ^= bit
                if (p_cells[i] & ~line_ship).bit_count() > room:
                    dead |= bit
            kept(memo, key, dead, work.memo.limit)
        work.alive &= ~dead
    return True


def line_tallies(work: Work) -> bool:
    """The line rules on every tallied line the batch touched, rows then columns, line by
    line; each is called only where it can fire, so the other lines cost no call."""
    # The tally rules: a tight tally (met, over, or needing at least every unknown cell) on a
    # line not complete and right. The room rule: new ship cells, room for some of a longest ship.
    touched, line_ship = work.touched, work.line_ship
    geo, model = work.geo, work.model
    lengths = geo.lengths
    longest = lengths[0] if lengths else 0
    board = geo.board
    ship = work.ship
    unknown = board ^ (ship | work.water)
    lines = model.lines
    reach = union(model.cell_lines, touched)     # the lines the batch touched (bits over ``lines``)
    while reach:
        low = reach & -reach
        reach ^= low
        line = lines[low.bit_length() - 1]
        mask = line[2]
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
            return work.fail("length", li, work.says("fleet_count", 1, work.geo.lengths[li], places=options))
        if found == left:
            why = work.says("fleet_count", length=work.geo.lengths[li], places=options,
                            evidence=work.ship & union(work.geo.p_cells, options) if work.log is not None else 0)
            for p in bits(options):
                work.to_place[p] = why
    return True


def segment_covers(work: Work) -> list[tuple[int, int]]:
    """Every ship segment not yet part of a placed ship, with the alive placements over all of it
    (kept on the work for the rules after, while the cells and placements stay)."""
    unplaced, alive = work.ship & ~work.placed, work.alive
    found = work.covers
    if found[0] == unplaced and found[1] == alive:
        return found[2]
    geo, model = work.geo, work.model
    segments = model.segment_memo.get(unplaced)
    if segments is None:
        segments, rest = [], unplaced
        while rest:
            segment = component(rest & -rest, rest, geo.stride)
            rest &= ~segment
            segments.append(segment)
        segments = kept(model.segment_memo, unplaced, tuple(segments), SEGMENTS_KEPT)
    covering = geo.covering
    covers = [(segment, meet(covering, segment, alive)) for segment in segments]
    work.covers = (unplaced, alive, covers)
    return covers


SEGMENTS_KEPT = 50_000  # sets of unplaced ship cells whose segments a model keeps


def segments_need_a_ship(work: Work) -> bool:
    """An unplaced ship segment needs exactly one placement over it: with none it is a
    contradiction, with one that one is placed, with several the cells they all cover are
    ship and the cells all their halos hold are water."""
    geo = work.geo
    for segment, cover in segment_covers(work):
        if not cover:
            return work.fail("cells", segment, work.says("segments_need_a_ship", 3, evidence=segment))
        if not cover & (cover - 1):
            p = cover.bit_length() - 1
            work.to_place[p] = work.says("segments_need_a_ship", length=geo.p_length[p], evidence=segment,
                                         places=cover)
            continue
        cells, halo = common(work.model, cover)
        if cells & ~work.ship or halo & ~work.water:
            if not work.add_common(cells, halo, work.says("segments_need_a_ship", 1, evidence=segment, places=cover),
                                   work.says("segments_need_a_ship", 2, evidence=segment, places=cover)):
                return False
    return True


def distinct_segments(work: Work) -> bool:
    """Segments no one placement can cover together need different ships: for every length
    k, the segments that need a ship of length >= k cannot outnumber the ships of length >= k
    left (a counting check, when no two segments share a placement)."""
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
            return work.broke(work.says("distinct_segments", length=length))
    return True


def uncovered_is_water(work: Work) -> bool:
    """An unknown cell that no alive placement covers is water. Only the cells of the
    placements that died since the last look can have lost their last one (for those that
    placing a ship killed, the cells come from a table: a few more cells looked at, in one go);
    when more placements died than cells are unknown, every unknown cell is looked at."""
    geo = work.geo
    m = geo.board & ~(work.ship | work.water)
    if work.cover_check:
        work.cover_check = False
    else:
        dead = work.cover_alive & ~work.alive & ~work.killed
        if dead.bit_count() < m.bit_count():
            m &= union(geo.p_cells, dead) | work.killed_cells
    work.killed = work.killed_cells = 0
    alive = work.cover_alive = work.alive
    covering = geo.covering
    empty = 0
    while m:
        i = m.bit_length() - 1
        bit = 1 << i
        m ^= bit
        if not alive & covering[i]:
            empty |= bit
    if empty:
        work.add_water(empty, work.says("uncovered_is_water"))
    return True


def last_ship_of_a_length(work: Work) -> bool:
    """The last ship of a length: the cells its every placement covers are ship, the cells
    every one's halo holds are water."""
    # A cell lies in at most 2 * length placements of a length and in the halo of at most
    # 4 * length + 12: with more, nothing is in common (the search reads only the first bound,
    # with ``Work.every_halo`` the second).
    geo = work.geo
    for li, left in enumerate(work.counts):
        if left != 1:
            continue
        options = work.alive & geo.length_sets[li]
        if options.bit_count() > (4 * geo.lengths[li] + 12 if work.every_halo else 2 * geo.lengths[li]):
            continue                         # more placements than can share a cell: nothing in common
        cells, halo = common(work.model, options)
        if cells & ~work.ship or halo & ~work.water:
            length = geo.lengths[li]
            evidence = work.ship & union(geo.p_cells, options) if work.log is not None else 0
            if not work.add_common(cells, halo, work.says("last_ship_of_a_length", 0, length, places=options,
                                                          evidence=evidence),
                                   work.says("last_ship_of_a_length", 1, length, places=options, evidence=evidence)):
                return False
    return True


# -- glance rules: what a person sees at a glance, run only for the steps a player reads ----------
# A propagation that logs steps by level (``propagate(..., level=...)``) runs these too. They
# read the board alone, not the placements: the placement rules above conclude all they do
# (a segment's placements all end where it ends, a piece's all lie one way), so a propagation
# without them reaches the same board; with them, the first steps are the simplest a person
# can take. (The cells beside a segment need no rule: they are diagonal to its cells.)

PIECE_PARTS = {Hint.SUB: 0, Hint.MIDDLE: 1, Hint.SHIP: 2, Hint.TOP: 3, Hint.BOTTOM: 4, Hint.LEFT: 5, Hint.RIGHT: 6}


def hint_shape(work: Work) -> bool:
    """A given ship piece: the cells every ship through it covers are ship, those all their
    halos hold water (``game.ships.hint_reach``). A middle piece lies across when it cannot
    lie down (a border or water above or below) or a ship is beside it, and down likewise."""
    ship, water = work.ship, work.water
    unknown = work.geo.board & ~(ship | water)
    for index, hint, ship_around, water_around, across, down in work.model.pieces:
        if hint is Hint.MIDDLE:
            across_open = across.bit_count() == 2 and not across & water
            down_open = down.bit_count() == 2 and not down & water
            if (across & ship or not down_open) and across_open:
                ship_around, water_around = across, down
            elif (down & ship or not across_open) and down_open:
                ship_around, water_around = down, across
            else:
                continue
        new_ship, new_water = ship_around & unknown, water_around & unknown
        if new_ship | new_water:
            said = work.says("hint_shape", PIECE_PARTS[hint], evidence=1 << index)
            if new_ship:
                work.add_ship(new_ship, said)
            if new_water:
                work.add_water(new_water, said)
            ship, water = work.ship, work.water
            unknown &= ~(new_ship | new_water)
    return True


def ship_complete(work: Work) -> bool:
    """An open segment as long as the longest ship still missing (the fleet less the whole
    ships on the board): its ends are water."""
    geo = work.geo
    found = segments(geo, work.ship, work.water)
    missing = dict(work.model.puzzle.fleet)
    for segment in found:
        if segment.closed and segment.length in missing:
            missing[segment.length] -= 1
    longest = max((length for length, count in missing.items() if count > 0), default=0)
    for segment in found:
        if segment.straight and not segment.closed and segment.length == longest:
            new = segment.ends & ~(work.ship | work.water)
            if new:
                work.add_water(new, work.says("ship_complete", length=longest, evidence=segment.cells))
    return True


def line_fill(work: Work) -> bool:
    """Every way a tallied line can still hold its tally, in runs that are ships along it or
    cells of ships crossing it (:func:`fill_line`): the unknown cells ship in every way are
    ship, those ship in none water; a line with no way is a contradiction."""
    # The nonogram line solver, with the fleet deciding the runs. Run once every other rule is
    # quiet, so every unknown cell is one an alive placement covers.
    model = work.model
    ship, water, alive, placed = work.ship, work.water, work.alive, work.placed
    seen, work.fill_seen = work.fill_seen, (ship, water, alive)
    if seen is None:
        moved, gone = work.geo.board, -1
    else:
        moved, gone = (ship ^ seen[0]) | (water ^ seen[1]), alive ^ seen[2]
    k = -1
    for line in model.lines:
        k += 1
        mask = line[2]
        if not (moved & mask or gone & line[4]):
            continue                         # as when last looked at, where it found nothing new
        new_ship, new_water = fill_line(model, k, ship, water, alive, placed)
        if new_ship is None:
            return work.fail("row" if line[0] else "col", line[1], work.says("line_fill", 1, line=line, evidence=mask))
        if new_ship | new_water:
            said = work.says("line_fill", line=line, evidence=mask & ship)
            if new_ship:
                work.add_ship(new_ship, said)
                ship = work.ship
            if new_water:
                work.add_water(new_water, said)
                water = work.water
    return True


def fill_line(model: Model, k: int, ship: int, water: int, alive: int, whole: int) -> tuple[int | None, int]:
    """The line fill (:func:`line_fill`) of line ``k`` of ``model.lines``, with the places
    ``alive`` and the ships ``whole`` (their cells) on the board: (cells ship in every way,
    cells ship in none), or (None, 0) when the line cannot be filled. Every cell not water may
    be a run of one. Kept per line state (``Model.fill_memo``, a table per line)."""
    _, _, mask, _, along = model.lines[k]
    if not mask & ~(ship | water):
        return 0, 0
    memo = model.fill_memo[k]
    key = (ship & mask, water & mask, alive & along, whole & mask)
    answer = memo.get(key)
    if answer is None:
        answer = kept(memo, key, _fill(model, k, ship, water, alive & along, whole), FILL_KEPT // len(model.lines))
    return answer


def segments_claim_a_length(work: Work) -> bool:
    """Segments only ships of one length fit, as many as that length has ships left, no
    placement over two of them: they are those ships, so its other placements die."""
    if not work.ship & ~work.placed:
        return True                          # no segment left to claim a length
    length_sets, p_length_index = work.geo.length_sets, work.geo.p_length_index
    # Per length index, the segments whose placements are all of that length: how many, and
    # all their placements, or None when one placement covers two of them (they may be one ship).
    found: dict[int, tuple[int, int | None]] = {}
    for _, cover in segment_covers(work):
        if not cover:
            continue
        li = p_length_index[cover.bit_length() - 1]    # the one length it can be, if any
        if not cover & ~length_sets[li]:
            count, together = found.get(li, (0, 0))
            found[li] = (count + 1, None if together is None or together & cover else together | cover)
    for li, (count, together) in found.items():
        if count == work.counts[li] and together is not None:
            work.alive &= ~(length_sets[li] & ~together)
    return True


def fleet_room(work: Work) -> bool:
    """A length with two or more ships left that the lines cannot hold (:func:`room_for`) is
    a contradiction."""
    geo, model, ship, alive = work.geo, work.model, work.ship, work.alive
    for li, left in enumerate(work.counts):
        if left > 1 and room_for(model, li, ship, alive & geo.length_sets[li], left) < left:
            return work.fail("length", li, work.says("fleet_room", length=geo.lengths[li]))
    return True


def room_for(model: Model, li: int, ship: int, options: int, wanted: int) -> int:
    """How many ships of length index ``li`` the lines can hold with the placements
    ``options``, or any number of at least ``wanted`` once that many are sure to fit. Each
    ship lies along one line (a submarine along its row); along a line fit as many as its
    placements hold one after another without touching, and no more than its tally allows
    (the ship cells it still needs plus those its placements cover already, a ship's length
    each)."""
    length, lines = model.geo.lengths[li], model.along[li]
    sure = 0
    for tallied, by_line in lines:           # most often one place in each of a few lines is enough
        if options & by_line and (tallied is None or tallied[1] - (ship & tallied[0]).bit_count() >= length):
            sure += 1
            if sure >= wanted:
                return sure
    p_cells, p_start = model.geo.p_cells, model.p_start
    room = 0
    for tallied, by_line in lines:
        here = options & by_line
        most, free_from, covered = 0, -2, 0
        while here:                          # along the line, by where they start
            low = here & -here
            here ^= low
            p = low.bit_length() - 1
            covered |= p_cells[p]
            start = p_start[p]
            if start >= free_from:
                most += 1
                free_from = start + length + 1
        if most and tallied is not None:
            mask, tally = tallied
            most = min(most, (tally - (ship & mask).bit_count() + (ship & covered).bit_count()) // length)
        room += most
    return room


FILL_KEPT = 50_000      # line states whose fill a model keeps (a share of it per line)


def _fill(model: Model, k: int, ship: int, water: int, along: int, placed: int) -> tuple[int | None, int]:
    """:func:`line_fill` on line ``k``: (cells ship in every way, cells ship in none), or
    (None, 0) when the line cannot be filled. Along the line, cells are bits by position."""
    cells, tally = model.line_cells[k], model.lines[k][3]
    n = len(cells)
    first, step = cells[0], cells[-1] - cells[0]
    if step == n - 1:                        # a row: its cells in a run of bits
        full = (1 << n) - 1
        s, w, pl = (ship >> first) & full, (water >> first) & full, (placed >> first) & full
    else:                                    # a column: every ``step // (n - 1)``-th bit
        step //= n - 1
        mask = model.lines[k][2]
        s, w, pl = (_gather(on & mask, first, step) for on in (ship, water, placed))
    run_at: list[list[int]] = [[] if (w >> i) & 1 else [1] for i in range(n)]
    p_start, p_length = model.p_start, model.geo.p_length
    starts = set()
    while along:
        p = along.bit_length() - 1
        along ^= 1 << p
        starts.add((p_start[p], p_length[p]))
    i = 0
    while pl >> i:                           # placed ships of two or more cells along the line
        if (pl >> i) & 3 == 3:
            j = i
            while (pl >> j) & 1:
                j += 1
            starts.add((i, j - i))
            i = j
        else:
            i += 1
    for start, length in starts:
        if not (w >> start) & ((1 << length) - 1):
            run_at[start].append(length)
    limit = (1 << (tally + 1)) - 1
    # free[i]: counts of ship cells before i when a run may start at i; sealed[i]: when cell i
    # follows a run and must be water (or the line ends there).
    free, sealed = [0] * (n + 1), [0] * (n + 1)
    free[0] = 1
    for i in range(n):
        here = free[i]
        if not (s >> i) & 1:
            free[i + 1] |= here | sealed[i]
        if here:
            for length in run_at[i]:
                sealed[i + length] |= (here << length) & limit
    if not ((free[n] | sealed[n]) >> tally) & 1:
        return None, 0
    # What the rest of the line can still hold, as the counts the line start may bring: bit k
    # of ``rest_free[i]`` (``rest_sealed[i]``, when cell i must be water) means that with k
    # ship cells before i the line from i can make up the tally. On the way back, which cells
    # can be water (a way reaches the cell and goes on after it) and which ship (in a run that does).
    rest_free = [0] * (n + 1)
    rest_sealed = [0] * (n + 1)
    rest_free[n] = rest_sealed[n] = 1 << tally
    can_ship = can_water = 0
    for i in range(n - 1, -1, -1):
        here = free[i]
        if (s >> i) & 1:
            reach = rest_sealed[i] = 0
        else:
            reach = rest_sealed[i] = rest_free[i + 1]
            if (here | sealed[i]) & reach:
                can_water |= 1 << i
        for length in run_at[i]:
            after = rest_sealed[i + length] >> length
            reach |= after
            if here & after:
                can_ship |= ((1 << length) - 1) << i
        rest_free[i] = reach
    unknown = ((1 << n) - 1) & ~(s | w)
    ship_here = unknown & ~can_water
    water_here = unknown & can_water & ~can_ship
    new_ship = new_water = 0
    while ship_here:
        i = ship_here.bit_length() - 1
        ship_here ^= 1 << i
        new_ship |= 1 << cells[i]
    while water_here:
        i = water_here.bit_length() - 1
        water_here ^= 1 << i
        new_water |= 1 << cells[i]
    return new_ship, new_water


def _gather(cells: int, first: int, step: int) -> int:
    """The set bits of ``cells`` at ``first``, ``first + step``, ... as bits 0, 1, ..."""
    found = 0
    while cells:
        i = cells.bit_length() - 1
        cells ^= 1 << i
        found |= 1 << (i - first) // step
    return found


def common(model: Model, placements: int) -> tuple[int, int]:
    """The cells every placement of the set covers, and the cells every one's halo holds.
    Kept per set (``Memo.common``): a segment or the last ship of a length keeps its
    placements through many states."""
    memo = model.memo
    found = memo.common.get(placements)
    if found is None:
        geo = model.geo
        found = kept(memo.common, placements,
                     (meet(geo.p_cells, placements, geo.board), meet(geo.p_halo, placements, geo.board)), memo.limit)
    return found


# -- the sentences a player reads --------------------------------------------------------------

def line_name(line: Line) -> str:
    return f"{'row' if line[0] else 'column'} {line[1] + 1}"


def _cells(said: Said, ship: int, water: int, verb: bool = True) -> str:
    """The cells a step sets: "row 2, column 3 is ship and r1c1, r4c4 are water", or without
    the verb, after "makes": "row 2, column 3 ship and r1c1, r4c4 water"."""
    where, parts = said.model.geo.where, []
    for cells, value in ((ship, "ship"), (water, "water")):
        if cells:
            parts.append(f"{where(cells)} {('is ' if cells.bit_count() == 1 else 'are ') if verb else ''}{value}")
    return " and ".join(parts)


def _places(said: Said, places: int | None = None, limit: int = 3) -> str:
    """Where the ships of a step can lie (``places``, or those it read), said after "can only":
    "lie in row 2, columns 3-5 or in ...", "be the cruiser in ... or the destroyer at ...",
    "lie in one of 5 places"."""
    found = list(said.model.geo.members(said.places if places is None else places))
    if len(found) > limit:
        return f"lie in one of {len(found)} places"
    several = len({p.length for p in found}) > 1
    return ("be " if several else "lie ") + " or ".join(
        f"{'the ' + ship_name(p.length) + ' ' if several else ''}{'at' if p.length == 1 else 'in'} {p.describe()}"
        for p in found)


def _hint_shape(said: Said, ship: int, water: int) -> str:
    where, part = said.model.geo.where(said.evidence), said.part
    if part == 0:
        return f"The submarine at {where} is a whole ship: the cells around it are water"
    if part == 1:
        return (f"The middle piece at {where} cannot lie the other way (border, water or a ship beside it): "
                f"{_cells(said, ship, water)}")
    if part == 2:
        return f"Every ship that can cover the ship piece at {where} makes {_cells(said, ship, water, verb=False)}"
    end, way = (("top", "down"), ("bottom", "up"), ("left", "right"), ("right", "left"))[part - 3]
    return (f"The {end} end at {where} continues {way}, and no other ship may touch its ship: "
            f"{_cells(said, ship, water)}")


def _tally_met(said: Said, ship: int, water: int) -> str:
    name, tally = said.tallied()
    name = name.capitalize()
    if tally == 0:
        return f"{name} has a tally of 0: all its cells are water"
    return f"{name} has {'its 1 ship cell' if tally == 1 else f'all its {tally} ship cells'}: its other cells are water"


def _needs_every_unknown(said: Said, ship: int, water: int) -> str:
    n = ship.bit_count()
    return (f"{said.tallied()[0].capitalize()} needs {plural(n, 'more ship cell')} and has exactly "
            f"{plural(n, 'unknown cell')} left")


def _tally_within_reach(said: Said, ship: int, water: int) -> str:
    name, tally = said.tallied()
    if said.part:
        return f"{name} could not reach its tally of {tally}"
    return f"{name} would have more than {plural(tally, 'ship cell')}"


def _last_ship(said: Said, ship: int, water: int, places: int | None = None) -> str:
    name = ship_name(said.length)
    last = f"The last {name}" if dict(said.model.puzzle.fleet).get(said.length, 0) > 1 else f"The {name}"
    return f"{last} can only {_places(said, places)}: {_cells(said, ship, water)}"


def _fleet_count(said: Said, ship: int, water: int) -> str:
    name, found = ship_name(said.length), said.places.bit_count()
    if said.part:
        missing = said.counts[said.model.geo.length_index[said.length]]
        if not found:
            return f"the {name} would have nowhere to go"
        return f"the {missing} missing {name}s would have only {plural(found, 'place')}"
    # The places of ships the board shows whole already (cells ship, halo water) are not
    # missing to the player, though the engine has not placed them yet: the rest are.
    geo = said.model.geo
    missing = said.places
    for p in bits(said.places):
        if not geo.p_cells[p] & ~said.ship and not geo.p_halo[p] & ~said.water:
            missing &= ~(1 << p)
    left = missing.bit_count()
    if left == 1:
        return _last_ship(said, ship, water, missing)
    return f"The {left} missing {name}s have exactly {left} places left: {_cells(said, ship, water)}"


def _segments_need_a_ship(said: Said, ship: int, water: int) -> str:
    where = said.model.geo.where(said.evidence)
    if said.part == 3:
        missing = fleet_text(zip(said.model.geo.lengths, said.counts))
        return f"no ship still missing ({missing}) fits the segment at {where}"
    return f"The ship through {where} can only {_places(said, _not_whole(said))}: {_cells(said, ship, water)}"


def _not_whole(said: Said) -> int:
    """The places a segment's step read, but for those of a length whose every ship the board
    shows whole elsewhere (cells ship, ends water): the engine places the whole ships one
    segment at a time, so a segment read before them may still count them missing."""
    geo = said.model.geo
    whole: dict[int, int] = {}
    for segment in segments(geo, said.ship, said.water):
        if segment.closed and segment.cells != said.evidence:
            whole[segment.length] = whole.get(segment.length, 0) + 1
    fleet = dict(said.model.puzzle.fleet)
    kept = said.places
    for p in bits(said.places):
        if whole.get(geo.p_length[p], 0) >= fleet.get(geo.p_length[p], 0):
            kept &= ~(1 << p)
    return kept or said.places


def _uncovered_is_water(said: Said, ship: int, water: int) -> str:
    model = said.model
    geo = model.geo
    subs = dict(model.puzzle.fleet).get(1, 0)
    if subs and not said.counts[geo.length_index[1]] and not geo.orthogonal(water) & ~said.water:
        return (f"{f'All {subs} submarines are' if subs > 1 else 'The submarine is'} placed: "
                f"{'these single cells are' if water.bit_count() > 1 else 'this single cell is'} water "
                f"({geo.where(water)})")
    return f"No ship still missing ({fleet_text(zip(geo.lengths, said.counts))}) fits through {geo.where(water)}: water"


def _line_fill(said: Said, ship: int, water: int) -> str:
    name, tally = said.tallied()
    if said.part:
        return f"{name} cannot hold {tally} ship cells in ships that still fit"
    return (f"Every way to fit {tally} ship cells into {name} (runs that are ships still missing, water between "
            f"them) makes {_cells(said, ship, water, verb=False)}")


def _distinct_segments(said: Said, ship: int, water: int) -> str:
    return f"the segments need more ships of {said.length} cells or more than are still missing"


def _fleet_room(said: Said, ship: int, water: int) -> str:
    missing = said.counts[said.model.geo.length_index[said.length]]
    return f"the {missing} missing {ship_name(said.length)}s would not fit"


# -- the table: every rule once, in the order the driver runs them ------------------------------

class Entry(NamedTuple):
    """One rule of the table: its name (its function's), its stage, its level, its function,
    the short sentences its logged steps say (``{ship}``: a ship's name, ``{line}``: a
    line's; a trace shows them) and the whole sentence a player reads (``explains``, from the
    step's :class:`Said` and cells).

    Stages, in the driver's order: ``place``, ``cell`` (per line ``tally`` and ``room``),
    ``board``, then ``fill``, run only for the deduction engine; within a stage, in the
    table's order. Rules marked ``glance`` run only for the steps a player reads (the search
    sets the hints' shapes once, at its root: :func:`root_state`). Level: what a step by the
    rule counts as for a player and for a puzzle's grade (1 at a glance, 2 fleet reasoning;
    0 sets no cell, or only what the step that placed a ship says)."""

    name: str
    stage: str
    level: int
    run: Callable
    says: tuple[str, ...] = ()
    explains: Callable[[Said, int, int], str] | None = None
    glance: bool = False


def _entry(stage: str, level: int, run: Callable, explains: Callable | None = None, *says: str,
           glance: bool = False) -> Entry:
    return Entry(run.__name__, stage, level, run, says, explains, glance)


RULES: tuple[Entry, ...] = (
    _entry("place", 0, place_queued, None, "water around the {ship}"),
    _entry("cell", 1, hint_shape, _hint_shape, "the hint's shape", glance=True),
    _entry("cell", 0, water_kills_placements),
    _entry("cell", 0, ship_kills_placements),
    _entry("cell", 1, diagonals_are_water,
           lambda said, ship, water: (f"Ships never touch, not even diagonally: the cells diagonal to "
                                      f"{said.model.geo.where(said.evidence)} are water") if not said.part else
           f"ships would touch at {said.model.geo.where(said.evidence)}",
           "water diagonal to a ship", "ships touching"),
    _entry("tally", 1, tally_within_reach, _tally_within_reach, "{line} over its tally", "{line} short of its tally"),
    _entry("tally", 1, tally_met, _tally_met, "{line} tally met"),
    _entry("tally", 1, needs_every_unknown, _needs_every_unknown, "{line} needs all its unknown cells"),
    _entry("room", 0, longer_than_room),
    _entry("board", 1, ship_complete,
           lambda said, ship, water: (f"The {said.evidence.bit_count()}-cell ship at "
                                      f"{said.model.geo.where(said.evidence)} is as long as the longest ship still "
                                      f"missing ({ship_name(said.length)}): its ends are water"),
           "a ship as long as the longest still missing ends here", glance=True),
    _entry("board", 2, fleet_count, _fleet_count, "every remaining {ship} placement is needed",
           "too few {ship} placements"),
    _entry("board", 2, segments_need_a_ship, _segments_need_a_ship, "the only {ship} that fits this segment",
           "every ship that fits this segment covers it", "every ship that fits this segment ends here",
           "no ship fits this segment"),
    _entry("board", 2, distinct_segments, _distinct_segments, "too many segments"),
    _entry("board", 2, uncovered_is_water, _uncovered_is_water, "no ship fits here"),
    _entry("board", 2, last_ship_of_a_length, _last_ship, "every placement of the last {ship} covers it",
           "water around every placement of the last {ship}"),
    _entry("fill", 2, segments_claim_a_length),
    _entry("fill", 2, fleet_room, _fleet_room, "the {ship}s do not fit"),
    _entry("fill", 2, line_fill, _line_fill, "every way to fill {line} with the ships still missing",
           "{line} cannot be filled"),
)
SAYS: dict[str, tuple[str, ...]] = {entry.name: entry.says for entry in RULES}
EXPLAINS: dict[str, Callable[[Said, int, int], str]] = {entry.name: entry.explains for entry in RULES if entry.explains}
LEVELS: dict[str, int] = {entry.name: entry.level for entry in RULES}
TALLY_RULES: tuple[LineRule, ...] = tuple(entry.run for entry in RULES if entry.stage == "tally")
# The cell rules, then the line rules on the lines the batch touched (``line_tallies``).
CELL_RULES: tuple[Rule, ...] = (*(entry.run for entry in RULES if entry.stage == "cell" and not entry.glance),
                                line_tallies)
BOARD_RULES: tuple[Rule, ...] = tuple(entry.run for entry in RULES if entry.stage == "board" and not entry.glance)
# The deduction engine's closure: the board rules, then the costlier fill rules.
DEDUCTION_RULES: tuple[Rule, ...] = BOARD_RULES + tuple(entry.run for entry in RULES if entry.stage == "fill")
# The steps a player reads (``propagate(..., level=...)``): the glance rules too, and at level 1
# only those of level 1 among the board rules.
STEP_CELL_RULES: tuple[Rule, ...] = (*(entry.run for entry in RULES if entry.stage == "cell"), line_tallies)
STEP_RULES: dict[int, tuple[Rule, ...]] = {
    level: tuple(entry.run for entry in RULES if entry.stage in ("board", "fill") and entry.level <= level)
    for level in (1, 2)}
# A probe (the forward search's shaving) asks only whether a placement breaks the board. The
# coverage rule, the costliest after a placement, seldom decides that, so a probe leaves it
# out while ships are left to place (docs/design/search.md); with none left it runs, so a
# board a probe completes is complete.
PROBE_RULES: tuple[Rule, ...] = tuple(rule for rule in BOARD_RULES if rule is not uncovered_is_water)


# -- the driver -------------------------------------------------------------------------------

def propagate(model: Model, state: State, *, ship: int = 0, water: int = 0,
              places: Iterable[int] = (), kill: int = 0, log: Log | None = None,
              all_lines: bool = False,
              blame: list | None = None, probe: bool = False, fill: bool = False, level: int = 0) -> State | None:
    """Set ``ship``/``water`` cells, place ``places`` and remove the placements in ``kill``
    (a placement set), then apply the rules to a fixpoint. The caller logs its own changes;
    ``log`` receives the deductions, ``blame`` what failed (see :meth:`Work.fail`).
    ``all_lines``: look at every line's tally and every cell's coverage, not only what
    changed (for a state that is not itself a fixpoint, like the start). ``probe``: the
    rules of a probe (``PROBE_RULES``), a fixpoint of those. ``fill``: the deduction
    engine's rules (``DEDUCTION_RULES``: the line fill too), and the last ship's halos
    however many places it has (``Work.every_halo``). ``level`` (1 or 2): the steps a player
    reads, simplest first: the glance rules too, and with 1 only the rules of level 1 (those
    of level 0 keep the placements up to date); 2 is ``fill`` with the glance rules.
    """
    if ship & water or ship & state.water or water & state.ship:
        return None
    work = Work(model, state, None, blame, all_lines)
    work.every_halo = fill = fill or level == 2
    work.alive &= ~kill
    if ship & ~state.ship:
        work.add_ship(ship & ~state.ship, "")
    if water & ~state.water:
        work.add_water(water & ~state.water, "")
    work.log = log
    if places:
        work.to_place = dict.fromkeys(places, "decision")
    while True:
        if work.to_place and not place_queued(work):
            return None
        while work.next_batch():
            for rule in STEP_CELL_RULES if level else CELL_RULES:
                if not rule(work):
                    return None
        for rule in (STEP_RULES[level] if level else DEDUCTION_RULES if fill else
                     PROBE_RULES if probe and any(work.counts) else BOARD_RULES):
            alive = work.alive
            if not rule(work):
                return None
            if work.to_place or work.fresh_ship or work.fresh_water or work.alive != alive:
                break                            # back to the cheap rules (a fill rule may kill placements)
        else:
            return work.state()


def root_state(model: Model, log: Log | None = None, fill: bool = False) -> State | None:
    """The start of a search: hints and their shapes applied, then everything they imply
    (``fill``: by the deduction engine's rules, see :func:`propagate`)."""
    if model.broken:
        return None
    fleet_cells = model.puzzle.ship_cells
    for tallies in (model.puzzle.row_tallies, model.puzzle.col_tallies):
        known = [tally for tally in tallies if tally is not None]
        total = sum(known)
        if total > fleet_cells or (len(known) == len(tallies) and total != fleet_cells):
            return None                          # the tallies cannot add up to the fleet
    if log is not None:
        if model.shape_ship & ~model.hint_ship:
            log.append((model.shape_ship & ~model.hint_ship, Cell.SHIP, SAYS["hint_shape"][0]))
        if model.shape_water & ~model.hint_water:
            log.append((model.shape_water & ~model.hint_water, Cell.WATER, SAYS["hint_shape"][0]))
    # Hint cells are already on the initial board, so they are set without a log entry;
    # every line is looked at once, even one where nothing is set (e.g. a tally of 0).
    return propagate(model, model.start, ship=model.hint_ship | model.shape_ship,
                     water=model.hint_water | model.shape_water, log=log, all_lines=True, fill=fill)
