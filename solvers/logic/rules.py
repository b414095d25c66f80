"""The catalogue of deductions a person can follow, simplest first.

Each rule reads an :class:`~solvers.logic.analysis.Analysis` and yields :class:`Finding` values:
cells it proves ship or water, the cells that prove it (evidence), and a sentence. The
sentence is built only when asked for (``Finding.text()``), because the contradiction search
runs the rules thousands of times without showing them.

Level 1 (a glance): hint shapes, ship diagonals, segment sides, tallies met or needing every
unknown cell, a segment as long as the longest missing ship.
Level 2 (fleet reasoning): where each segment's ship can lie, where the last ship of a length
can lie, cells no missing ship can reach (fleet counting).
Levels 3 and 4 (contradictions of depth 1 and 2) live in :mod:`solvers.logic.probe`.
"""

from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

from game.puzzle import Hint, ship_name
from game.ships import Placement
from solvers.logic.analysis import Analysis, bits, fleet_text
from solvers.logic.lines import line_fill
from solvers.propagation.rules import common


class Finding(NamedTuple):
    rule: str
    level: int
    ship: int          # cells proved ship (all unknown before)
    water: int         # cells proved water
    evidence: int      # cells the reasoning reads
    text: Callable[[], str]


def _cells_phrase(an: Analysis, ship: int, water: int) -> str:
    model, parts = an.model, []
    if ship:
        parts.append(f"{model.where(ship)} {'is' if ship.bit_count() == 1 else 'are'} ship")
    if water:
        parts.append(f"{model.where(water)} {'is' if water.bit_count() == 1 else 'are'} water")
    return " and ".join(parts)


_DIRECTION = {Hint.TOP: "down", Hint.BOTTOM: "up", Hint.LEFT: "right", Hint.RIGHT: "left"}


def hint_shape(an: Analysis) -> Iterator[Finding]:
    model, unknown = an.model, an.unknown
    for index, hint, ship_around, water_around in model.hint_rules:
        ship, water = ship_around & unknown, water_around & unknown
        if hint is Hint.MIDDLE:
            ship, water = _middle(an, index)
        if ship | water:
            where = model.where(1 << index)
            if hint is Hint.SUB:
                text = f"The submarine at {where} is a whole ship: the cells around it are water"
            elif hint is Hint.MIDDLE:
                text = (f"The middle piece at {where} cannot lie the other way (border, water or a ship "
                        f"beside it): {_cells_phrase(an, ship, water)}")
            elif hint is Hint.SHIP:
                text = f"Every ship that can cover the ship piece at {where} makes {_cells_phrase(an, ship, water)}"
            else:
                text = (f"The {hint.value} end at {where} continues {_DIRECTION[hint]}, and no other ship may "
                        f"touch its ship: {_cells_phrase(an, ship, water)}")
            yield Finding("hint-shape", 1, ship, water, 1 << index, lambda t=text: t)


def _middle(an: Analysis, index: int) -> tuple[int, int]:
    model = an.model
    r, c = model.coord(index)
    across = model.mask_of([(r, c - 1), (r, c + 1)])
    down = model.mask_of([(r - 1, c), (r + 1, c)])
    across_open = across.bit_count() == 2 and not across & an.water
    down_open = down.bit_count() == 2 and not down & an.water
    if (across & an.ship or not down_open) and across_open:
        return across & an.unknown, down & an.unknown
    if (down & an.ship or not across_open) and down_open:
        return down & an.unknown, across & an.unknown
    return 0, 0


def ship_diagonals(an: Analysis) -> Iterator[Finding]:
    model = an.model
    if not model.shared.diagonal(an.ship) & an.unknown:
        return
    for i in bits(an.ship):
        water = model.diag[i] & an.unknown
        if water:
            yield Finding("ship-diagonals", 1, 0, water, 1 << i,
                          lambda i=i, w=water: f"Ships never touch, not even diagonally: the cells diagonal to "
                                               f"{model.where(1 << i)} are water")


def segment_sides(an: Analysis) -> Iterator[Finding]:
    model = an.model
    for seg in an.segments:
        if seg.length < 2 or not seg.straight:
            continue
        water = model.shared.orthogonal(seg.cells) & ~seg.cells & ~seg.ends & an.unknown
        if water:
            way = "across" if seg.horizontal else "down"
            yield Finding("segment-sides", 1, 0, water, seg.cells,
                          lambda s=seg, w=water, way=way: f"The ship at {model.where(s.cells)} runs {way}: the cells "
                                                         f"beside it are water")


def tally_met(an: Analysis) -> Iterator[Finding]:
    for k in bits(an.met):
        axis, index, mask, _, _ = an.lines[k]
        tally = (an.model.row_tallies if axis == "row" else an.model.col_tallies)[index]
        yield Finding("tally-met", 1, 0, mask & an.unknown, mask, lambda a=axis, i=index, t=tally: _met_text(a, i, t))


def _met_text(axis: str, index: int, tally: int) -> str:
    name = f"{axis.capitalize()} {index + 1}"
    if tally == 0:
        return f"{name} has a tally of 0: all its cells are water"
    if tally == 1:
        return f"{name} has its 1 ship cell: its other cells are water"
    return f"{name} has all its {tally} ship cells: its other cells are water"


def tally_fill(an: Analysis) -> Iterator[Finding]:
    for k in bits(an.filled):
        axis, index, mask, need, _ = an.lines[k]
        yield Finding("tally-fill", 1, mask & an.unknown, 0, mask,
                      lambda a=axis, i=index, n=need: f"{a.capitalize()} {i + 1} needs {n} more ship cell"
                                                      f"{'s' if n > 1 else ''} and has exactly {n} unknown "
                                                      f"cell{'s' if n > 1 else ''} left")


def ship_complete(an: Analysis) -> Iterator[Finding]:
    for seg in an.open_segments:
        water = seg.ends & an.unknown
        if water and seg.length == an.longest_remaining:
            yield Finding("ship-complete", 1, 0, water, seg.cells,
                          lambda s=seg: f"The {s.length}-cell ship at {an.model.where(s.cells)} is as long as the "
                                        f"longest ship still missing ({ship_name(s.length)}): its ends are water")


def _place_list(places: list[Placement], limit: int = 3) -> str:
    if len(places) > limit:
        return f"{len(places)} places"
    named = [f"{'the ' + ship_name(p.length) + ' ' if len({q.length for q in places}) > 1 else ''}"
             f"{'at' if p.length == 1 else 'in'} {p.describe()}" for p in places]
    return " or ".join(named)


def segment_places(an: Analysis) -> Iterator[Finding]:
    model = an.model
    _ = an.places  # computes an.segment_places
    for seg, through in an.segment_places:
        if not through:
            continue
        inside, union = common(model.engine, through)[0], model.cells_of(through)
        around = model.shared.orthogonal(seg.cells)
        ship = inside & an.unknown
        water = around & ~union & an.unknown
        if ship | water:
            yield Finding("segment-places", 2, ship, water, seg.cells,
                          lambda s=seg, ps=through, sh=ship, w=water:
                          f"The ship through {model.where(s.cells)} can only lie {_place_list(model.members(ps))}: "
                          f"{_cells_phrase(an, sh, w)}")


def fleet_places(an: Analysis) -> Iterator[Finding]:
    model, valid = an.model, an.places
    for length in model.lengths:
        missing, own = an.remaining.get(length, 0), model.of_length(valid, length)
        if missing <= 0 or not own or missing > 1 and own.bit_count() != missing:
            continue
        if missing == 1:
            every_ship, every_water = common(model.engine, own)
            ship, water = every_ship & an.unknown, every_water & an.unknown
            if not ship | water:
                continue
            places = model.members(own)
        else:
            places = model.members(own)
            if not _apart(places):
                continue
            ship, water = _union(places) & an.unknown, 0
        if ship | water:
            name = ship_name(length)
            if missing == 1:
                lead = f"The last {name}" if model.fleet[length] > 1 else f"The {name}"
                text = f"{lead} can only lie {_place_list(places)}: {_cells_phrase(an, ship, water)}"
            else:
                text = f"The {missing} missing {name}s have exactly {missing} places left: {model.where(ship)} are ship"
            yield Finding("fleet-places", 2, ship, water, _union(places) & an.ship,
                          lambda t=text: t)


def _union(places: list[Placement]) -> int:
    mask = 0
    for p in places:
        mask |= p.cells
    return mask


def _apart(places: list[Placement]) -> bool:
    for k, p in enumerate(places):
        for q in places[k + 1:]:
            if p.cells & (q.cells | q.halo):
                return False
    return True


def unreachable(an: Analysis) -> Iterator[Finding]:
    water = an.unknown & ~an.reachable
    if not water:
        return
    model = an.model
    subs = model.fleet.get(1, 0)
    if subs and an.remaining.get(1) == 0 and all(not model.orth[i] & ~an.water for i in bits(water)):
        yield Finding("unreachable", 2, 0, water, 0,
                      lambda: f"{f'All {subs} submarines are' if subs > 1 else 'The submarine is'} placed: "
                              f"{'these single cells are' if water.bit_count() > 1 else 'this single cell is'} "
                              f"water ({model.where(water)})")
        return
    yield Finding("unreachable", 2, 0, water, 0,
                  lambda: f"No ship still missing ({fleet_text(an.remaining)}) fits through "
                          f"{model.where(water)}: water")


def line_runs(an: Analysis) -> Iterator[Finding]:
    for name, tally, mask, ship, water in line_fill(an):
        yield Finding("line-fill", 2, ship, water, mask & an.ship,
                      lambda n=name, t=tally, s=ship, w=water:
                      f"Every way to fit {t} ship cells into {n.lower()} (runs that are ships still missing, "
                      f"water between them) makes {_cells_phrase(an, s, w)}")


LEVEL_ONE = (hint_shape, ship_diagonals, segment_sides, tally_met, tally_fill, ship_complete)
LEVEL_TWO = (segment_places, fleet_places, unreachable, line_runs)
RULES_BY_LEVEL = {1: LEVEL_ONE, 2: LEVEL_TWO}
RULE_LEVELS = {"hint-shape": 1, "ship-diagonals": 1, "segment-sides": 1, "tally-met": 1, "tally-fill": 1,
               "ship-complete": 1, "segment-places": 2, "fleet-places": 2, "unreachable": 2, "line-fill": 2,
               "contradiction": 3, "deep-contradiction": 4}
