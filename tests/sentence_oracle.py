"""An independent reader of the deduction engine's sentences (tests/test_sentences_truth.py).

Every sentence a player reads (a hint, a step of the ``logic`` solver) is made from a small
set of templates. This module parses each template back into its claims and checks them
against the board the sentence was said on, with its own plain code over the board's cells
(rows, columns, tallies, placements tried one by one) and nothing of the engine's rules:
``game.puzzle`` for the level's data and ``Hint.fits`` for what a given piece means.

``check(puzzle, grid, ship, water, text)`` gives the problems found (an empty list when the
sentence tells the truth) and the name of the template it was read as; a sentence no template
reads is a problem itself. Cells are ``(row, col)``, 0-based; sentences number them from 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from game.puzzle import Cell, Hint, Puzzle, ship_name

Coord = tuple[int, int]

# -- the cells a sentence names ------------------------------------------------------------

WHERE = (r"(?:row \d+, columns? \d+(?:-\d+)?|column \d+, rows \d+-\d+|no cells"
         r"|\(row \d+, column \d+\)(?:, \(row \d+, column \d+\))*(?: and \d+ more)?)")
PLACE = r"(?:row \d+, columns? \d+(?:-\d+)?|column \d+, rows \d+-\d+)"
NAMES = {ship_name(n): n for n in range(1, 12)}
NAME = "(?:" + "|".join(sorted(map(re.escape, NAMES), key=len, reverse=True)) + ")"


@dataclass(frozen=True)
class Named:
    """Cells as a sentence names them: those shown, and how many more it leaves unnamed."""

    shown: tuple[Coord, ...]
    more: int = 0

    @property
    def count(self) -> int:
        return len(self.shown) + self.more

    def is_(self, cells: Iterable[Coord]) -> bool:
        """Whether these are exactly ``cells`` (shown in reading order, the rest counted)."""
        ordered = sorted(cells)
        if self.more:
            return len(ordered) == self.count and tuple(ordered[:len(self.shown)]) == self.shown
        return tuple(ordered) == tuple(sorted(self.shown))


def named(text: str) -> Named:
    m = re.fullmatch(r"row (\d+), column (\d+)", text)
    if m:
        return Named(((int(m[1]) - 1, int(m[2]) - 1),))
    m = re.fullmatch(r"row (\d+), columns (\d+)-(\d+)", text)
    if m:
        r, a, b = int(m[1]) - 1, int(m[2]) - 1, int(m[3]) - 1
        return Named(tuple((r, c) for c in range(a, b + 1)))
    m = re.fullmatch(r"column (\d+), rows (\d+)-(\d+)", text)
    if m:
        c, a, b = int(m[1]) - 1, int(m[2]) - 1, int(m[3]) - 1
        return Named(tuple((r, c) for r in range(a, b + 1)))
    if text == "no cells":
        return Named(())
    m = re.fullmatch(r"((?:\(row \d+, column \d+\)(?:, )?)+?)(?: and (\d+) more)?", text)
    assert m, text
    shown = tuple((int(r) - 1, int(c) - 1) for r, c in re.findall(r"\(row (\d+), column (\d+)\)", m[1]))
    return Named(shown, int(m[2] or 0))


# -- the board, read plainly ----------------------------------------------------------------

@dataclass(frozen=True)
class Place:
    length: int
    horizontal: bool
    row: int
    col: int

    @property
    def cells(self) -> tuple[Coord, ...]:
        dr, dc = (0, 1) if self.horizontal else (1, 0)
        return tuple((self.row + dr * k, self.col + dc * k) for k in range(self.length))


def place_of(length: int, text: str) -> Place:
    """The place a sentence names for a ship of ``length`` ("row 2, columns 3-5", ...)."""
    cells = named(text).shown
    assert len(cells) == length, (length, text)
    return Place(length, length == 1 or cells[0][0] == cells[-1][0], *cells[0])


@dataclass
class Board:
    """A board as a player sees it: the level and the marks on it."""

    puzzle: Puzzle
    grid: list[list[Cell]]
    ruled_out: set[Place] = field(default_factory=set)     # places a sentence has ruled out first
    unnamed: bool = False          # and more places it ruled out without naming them

    def copy(self) -> Board:
        return Board(self.puzzle, [list(row) for row in self.grid], set(self.ruled_out), self.unnamed)

    def on(self, cell: Coord) -> bool:
        return 0 <= cell[0] < self.puzzle.rows and 0 <= cell[1] < self.puzzle.cols

    def at(self, cell: Coord) -> Cell:
        return self.grid[cell[0]][cell[1]]

    def cells(self, value: Cell) -> set[Coord]:
        return {(r, c) for r, row in enumerate(self.grid) for c, v in enumerate(row) if v == value}

    def set(self, cells: Iterable[Coord], value: Cell) -> None:
        for r, c in cells:
            self.grid[r][c] = value

    def line(self, is_row: bool, index: int) -> list[Coord]:
        if is_row:
            return [(index, c) for c in range(self.puzzle.cols)]
        return [(r, index) for r in range(self.puzzle.rows)]

    def tally(self, is_row: bool, index: int) -> int | None:
        return (self.puzzle.row_tallies if is_row else self.puzzle.col_tallies)[index]

    def around(self, cells: Iterable[Coord], diagonal_only: bool = False) -> set[Coord]:
        cells = set(cells)
        found = set()
        for r, c in cells:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and not (diagonal_only and not (dr and dc)) and self.on((r + dr, c + dc)):
                        found.add((r + dr, c + dc))
        return found - cells

    def segments(self) -> list[set[Coord]]:
        """The ship cells in orthogonally connected groups."""
        left, found = self.cells(Cell.SHIP), []
        while left:
            todo, group = [left.pop()], set()
            while todo:
                r, c = todo.pop()
                group.add((r, c))
                for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if n in left:
                        left.discard(n)
                        todo.append(n)
            found.append(group)
        return found

    def straight(self, group: set[Coord]) -> bool:
        return len({r for r, _ in group}) == 1 or len({c for _, c in group}) == 1

    def ends(self, group: set[Coord]) -> set[Coord]:
        """The cells a straight group would grow into (all four sides of a single cell)."""
        rows, cols = {r for r, _ in group}, {c for _, c in group}
        if len(group) == 1:
            (r, c), = group
            ends = {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)}
        elif len(rows) == 1:
            r = min(rows)
            ends = {(r, min(cols) - 1), (r, max(cols) + 1)}
        else:
            c = min(cols)
            ends = {(min(rows) - 1, c), (max(rows) + 1, c)}
        return {cell for cell in ends if self.on(cell)}

    def closed(self, group: set[Coord]) -> bool:
        return self.straight(group) and all(self.at(cell) == Cell.WATER for cell in self.ends(group))

    def missing(self) -> dict[int, int]:
        """Per length of the fleet, the ships not yet whole on the board."""
        left = dict(self.puzzle.fleet)
        for group in self.segments():
            if self.closed(group) and len(group) in left:
                left[len(group)] -= 1
        return left

    def fits(self, place: Place) -> bool:
        """Whether a whole ship could lie at ``place`` on this board: on it, no water under it,
        no ship around it, every given piece under it the piece it would show, no tally over."""
        cells = place.cells
        if place in self.ruled_out or not all(self.on(cell) for cell in cells):
            return False
        if any(self.at(cell) == Cell.WATER for cell in cells):
            return False
        if any(self.at(cell) == Cell.SHIP for cell in self.around(cells)):
            return False
        for k, cell in enumerate(cells):
            hint = self.puzzle.hints.get(cell)
            if hint is not None and not hint.fits(place.length, place.horizontal, k):
                return False
        for is_row in (True, False):
            for index in {cell[0] if is_row else cell[1] for cell in cells}:
                tally = self.tally(is_row, index)
                if tally is None:
                    continue
                line = self.line(is_row, index)
                count = sum(self.at(cell) == Cell.SHIP for cell in line)
                count += sum(1 for cell in cells if cell in line and self.at(cell) != Cell.SHIP)
                if count > tally:
                    return False
        return True

    def places(self, length: int) -> list[Place]:
        """Every place a ship of ``length`` could lie whole on this board."""
        ways = (True,) if length == 1 else (True, False)
        return [p for horizontal in ways for r in range(self.puzzle.rows) for c in range(self.puzzle.cols)
                for p in (Place(length, horizontal, r, c),) if self.fits(p)]

    def open_places(self, length: int) -> set[Place]:
        """The places a ship of ``length`` not yet whole on the board could lie: those that fit,
        but for the ships the board shows whole (their cells ship, their ends water)."""
        return {p for p in self.places(length)
                if not (all(self.at(c) == Cell.SHIP for c in p.cells) and self.closed(set(p.cells)))}


# -- a sentence checked ---------------------------------------------------------------------

class Claims:
    """The problems found in one sentence (``fail``), on ``board``, for the step that sets
    ``ship`` and ``water`` (None when a sentence is said inside another: its cells are then
    what it says)."""

    def __init__(self, board: Board, ship: set[Coord] | None, water: set[Coord] | None) -> None:
        self.board, self.ship, self.water = board, ship, water
        self.problems: list[str] = []

    def fail(self, what: str) -> None:
        self.problems.append(what)

    def expect(self, ok: bool, what: str) -> None:
        if not ok:
            self.fail(what)

    def on_board(self, cells: Named, what: str) -> list[Coord]:
        bad = [cell for cell in cells.shown if not self.board.on(cell)]
        self.expect(not bad, f"{what}: {bad} off the board")
        return [cell for cell in cells.shown if self.board.on(cell)]

    def plural(self, count: int, word: str, text: str) -> None:
        """``text`` says ``count`` ``word``s with the right ending."""
        self.expect(text == (word if count == 1 else word + "s"), f"'{count} {text}': wrong plural")

    def sets(self, ship: Iterable[Coord], water: Iterable[Coord]) -> None:
        """The step sets exactly these cells (as far as the step is known)."""
        if self.ship is None:
            return
        ship, water = set(ship), set(water)
        self.expect(self.ship == ship, f"the step sets ship {sorted(self.ship)}, the sentence says {sorted(ship)}")
        self.expect(self.water == water,
                    f"the step sets water {sorted(self.water)}, the sentence says {sorted(water)}")

    def unknown(self, cells: Iterable[Coord], what: str) -> None:
        known = [cell for cell in cells if self.board.on(cell) and self.board.at(cell) != Cell.UNKNOWN]
        self.expect(not known, f"{what}: {known} already known")


CELLS = re.compile(rf"(?:(?P<ship>{WHERE}) (?P<sv>is|are) ship)?(?: and )?(?:(?P<water>{WHERE}) (?P<wv>is|are) water)?")
MADE = re.compile(rf"(?:(?P<ship>{WHERE}) (?P<sv>)ship)?(?: and )?(?:(?P<water>{WHERE}) (?P<wv>)water)?")


def said_cells(claims: Claims, text: str, made: bool = False) -> tuple[set[Coord], set[Coord]] | None:
    """The cells "X is ship and Y are water" names (``made``: after "makes", "X ship and Y
    water"), checked against the step: None when the sentence names more cells than it shows
    (then the step's own cells stand for them)."""
    m = (MADE if made else CELLS).fullmatch(text)
    if not m or not (m["ship"] or m["water"]) or (m["ship"] and m["water"] and " and " not in text):
        claims.fail(f"unreadable cells: {text!r}")
        return set(), set()
    found: list[set[Coord]] = []
    whole = True
    for key, verb, step in (("ship", "sv", claims.ship), ("water", "wv", claims.water)):
        cells = named(m[key]) if m[key] else Named(())
        claims.on_board(cells, key)
        claims.unknown(cells.shown, f"cells said to become {key}")
        if m[key]:
            claims.expect(m[verb] == ("" if made else "is" if cells.count == 1 else "are"),
                          f"'{m[key]} {m[verb]}': wrong verb")
        if step is not None:
            claims.expect(cells.is_(step), f"the sentence names {key} cells {m[key]!r}, the step sets {sorted(step)}")
        whole = whole and not cells.more
        found.append(set(cells.shown))
    if not whole:
        if claims.ship is not None:
            return set(claims.ship), set(claims.water)
        return None
    return found[0], found[1]


def line_of(claims: Claims, kind: str, number: str) -> tuple[bool, int]:
    is_row, index = kind.lower() == "row", int(number) - 1
    claims.expect(0 <= index < (claims.board.puzzle.rows if is_row else claims.board.puzzle.cols),
                  f"{kind} {number} is off the board")
    return is_row, index


def line_counts(board: Board, is_row: bool, index: int) -> tuple[int, list[Coord]]:
    line = board.line(is_row, index)
    return sum(board.at(c) == Cell.SHIP for c in line), [c for c in line if board.at(c) == Cell.UNKNOWN]


# -- the templates --------------------------------------------------------------------------

Check = Callable[[Claims, re.Match], None]
TEMPLATES: list[tuple[str, re.Pattern, Check]] = []


def template(name: str, pattern: str) -> Callable[[Check], Check]:
    def add(check: Check) -> Check:
        TEMPLATES.append((name, re.compile(pattern), check))
        return check
    return add


@template("tally of 0", r"(?P<kind>Row|Column) (?P<n>\d+) has a tally of 0: all its cells are water")
def _tally_zero(claims: Claims, m: re.Match) -> None:
    is_row, index = line_of(claims, m["kind"], m["n"])
    claims.expect(claims.board.tally(is_row, index) == 0, "the tally is not 0")
    ships, unknown = line_counts(claims.board, is_row, index)
    claims.expect(ships == 0, "the line holds ship cells")
    claims.sets((), unknown)


@template("tally met", r"(?P<kind>Row|Column) (?P<n>\d+) has (?:its (?P<one>\d+) ship cell|all its (?P<all>\d+) "
          r"ship cells): its other cells are water")
def _tally_met(claims: Claims, m: re.Match) -> None:
    is_row, index = line_of(claims, m["kind"], m["n"])
    said = int(m["one"] or m["all"])
    claims.expect((m["one"] is not None) == (said == 1), "the number and the words disagree")
    claims.expect(claims.board.tally(is_row, index) == said, f"the tally is {claims.board.tally(is_row, index)}")
    ships, unknown = line_counts(claims.board, is_row, index)
    claims.expect(ships == said, f"the line holds {ships} ship cells")
    claims.expect(bool(unknown), "the line has no unknown cell")
    claims.sets((), unknown)


@template("needs every unknown", r"(?P<kind>Row|Column) (?P<n>\d+) needs (?P<need>\d+) more (?P<w1>ship cells?) and "
          r"has exactly (?P<left>\d+) (?P<w2>unknown cells?) left")
def _needs_every_unknown(claims: Claims, m: re.Match) -> None:
    is_row, index = line_of(claims, m["kind"], m["n"])
    need, left = int(m["need"]), int(m["left"])
    claims.plural(need, "ship cell", m["w1"])
    claims.plural(left, "unknown cell", m["w2"])
    ships, unknown = line_counts(claims.board, is_row, index)
    tally = claims.board.tally(is_row, index)
    claims.expect(tally is not None and tally - ships == need, f"it needs {None if tally is None else tally - ships}")
    claims.expect(len(unknown) == left, f"it has {len(unknown)} unknown cells")
    claims.expect(need == left, "it needs not exactly its unknown cells")
    claims.sets(unknown, ())


@template("submarine", rf"The submarine at (?P<at>{WHERE}) is a whole ship: the cells around it are water")
def _submarine(claims: Claims, m: re.Match) -> None:
    cell = given(claims, m["at"], {Hint.SUB})
    if cell:
        claims.sets((), [c for c in claims.board.around([cell]) if claims.board.at(c) == Cell.UNKNOWN])


def given(claims: Claims, where: str, hints: set[Hint]) -> Coord | None:
    """The one cell ``where`` names, a given piece of one of ``hints``."""
    cells = named(where)
    if len(cells.shown) != 1 or cells.more or not claims.board.on(cells.shown[0]):
        claims.fail(f"{where!r} is not one cell of the board")
        return None
    hint = claims.board.puzzle.hints.get(cells.shown[0])
    claims.expect(hint in hints, f"{where} is {hint}, not {sorted(h.value for h in hints)}")
    return cells.shown[0]


@template("middle piece", rf"The middle piece at (?P<at>{WHERE}) cannot lie the other way \(border, water or a ship "
          rf"beside it\): (?P<cells>.+)")
def _middle(claims: Claims, m: re.Match) -> None:
    cell = given(claims, m["at"], {Hint.MIDDLE})
    cells = said_cells(claims, m["cells"])
    if cell is None or cells is None:
        return
    board, (r, c) = claims.board, cell
    ship, water = cells
    across, down = [(r, c - 1), (r, c + 1)], [(r - 1, c), (r + 1, c)]
    for way, other in ((across, down), (down, across)):
        if ship <= set(way) and water <= set(other):
            blocked = (not all(board.on(x) for x in other) or any(board.at(x) == Cell.WATER for x in other)
                       or any(board.at(x) == Cell.SHIP for x in way))
            claims.expect(blocked, "the other way is open: no border, water or ship decides it")
            claims.expect(all(board.on(x) and board.at(x) != Cell.WATER for x in way), "the way it lies is blocked")
            return
    claims.fail(f"ship {sorted(ship)} and water {sorted(water)} are not one way and the other")


@template("ship piece", rf"Every ship that can cover the ship piece at (?P<at>{WHERE}) makes (?P<cells>.+)")
def _ship_piece(claims: Claims, m: re.Match) -> None:
    cell = given(claims, m["at"], {Hint.SHIP})
    cells = said_cells(claims, m["cells"], made=True)
    if cell is not None and cells is not None:
        agree(claims, [p for n, _ in claims.board.puzzle.fleet for p in claims.board.places(n) if cell in p.cells],
              *cells, "every ship over the piece")


ENDS = {"top": (Hint.TOP, "down"), "bottom": (Hint.BOTTOM, "up"), "left": (Hint.LEFT, "right"),
        "right": (Hint.RIGHT, "left")}


@template("end piece", rf"The (?P<end>top|bottom|left|right) end at (?P<at>{WHERE}) continues "
          rf"(?P<way>down|up|right|left), "
          rf"and no other ship may touch its ship: (?P<cells>.+)")
def _end(claims: Claims, m: re.Match) -> None:
    hint, way = ENDS[m["end"]]
    claims.expect(m["way"] == way, f"a {m['end']} end continues {way}")
    cell = given(claims, m["at"], {hint})
    cells = said_cells(claims, m["cells"])
    if cell is not None and cells is not None:
        agree(claims, [p for n, _ in claims.board.puzzle.fleet for p in claims.board.places(n) if cell in p.cells],
              *cells, f"every ship through the {m['end']} end")


def agree(claims: Claims, places: list[Place], ship: set[Coord], water: set[Coord], what: str) -> None:
    """Every one of ``places`` covers ``ship`` and has ``water`` around it."""
    claims.expect(bool(places), f"{what}: no ship fits at all")
    for p in places:
        halo = claims.board.around(p.cells)
        claims.expect(ship <= set(p.cells) and water <= halo,
                      f"{what}: the ship at {p} does not make ship {sorted(ship)} and water {sorted(water)}")


@template("diagonals", rf"Ships never touch, not even diagonally: the cells diagonal to (?P<at>{WHERE}) are water")
def _diagonals(claims: Claims, m: re.Match) -> None:
    cells = named(m["at"])
    shown = claims.on_board(cells, "diagonal to")
    board = claims.board
    claims.expect(all(board.at(c) == Cell.SHIP for c in shown), "a cell it reads is not ship")
    if cells.more:
        diagonal = board.around(board.cells(Cell.SHIP), diagonal_only=True)
        if claims.water is not None:
            claims.expect(claims.water <= diagonal, "a cell set is diagonal to no ship")
            claims.expect(board.around(shown, diagonal_only=True) & board.cells(Cell.UNKNOWN) <= claims.water,
                          "a cell diagonal to a cell it reads is left unknown")
        claims.sets((), claims.water or ())
    else:
        claims.sets((), {c for c in board.around(shown, diagonal_only=True) if board.at(c) == Cell.UNKNOWN})


@template("whole length", rf"The (?P<k>\d+)-cell ship at (?P<at>{WHERE}) is as long as the longest ship still missing "
          rf"\((?P<name>{NAME})\): its ends are water")
def _whole_length(claims: Claims, m: re.Match) -> None:
    cells, board = named(m["at"]), claims.board
    group = set(claims.on_board(cells, "the ship"))
    claims.expect(not cells.more and len(group) == int(m["k"]), "the ship's length is not its cells'")
    claims.expect(any(group == g for g in board.segments()), "the cells are not one ship segment")
    claims.expect(board.straight(group) and not board.closed(group), "the segment is not an open straight one")
    missing = [n for n, left in board.missing().items() if left > 0]
    claims.expect(NAMES[m["name"]] == len(group), "the ship named is not that long")
    claims.expect(max(missing, default=0) == len(group), f"the longest ship missing is {max(missing, default=0)}")
    claims.sets((), {c for c in board.ends(group) if board.at(c) == Cell.UNKNOWN})


def places_named(claims: Claims, text: str, length: int | None) -> list[Place] | int:
    """The places "in row 2, columns 3-5 or the cruiser in ..." names (their count when the
    sentence only counts them: "in one of 4 places"), each checked to fit the board."""
    m = re.fullmatch(r"lie in one of (\d+) places", text)
    if m:
        return int(m[1])
    verb, _, text = text.partition(" ")
    several = verb == "be"
    claims.expect(verb in ("lie", "be"), f"'can only {verb}'")
    claims.expect(several == bool(re.match(rf"the {NAME} ", text)), f"'can only {verb}' with {text!r}")
    found = []
    for part in text.split(" or "):
        p = re.fullmatch(rf"(?:the (?P<name>{NAME}) )?(?P<prep>at|in) (?P<at>{PLACE})", part)
        if not p:
            claims.fail(f"unreadable place {part!r}")
            continue
        n = NAMES[p["name"]] if p["name"] else length or named(p["at"]).count
        claims.expect(length is None or n == length, f"{part!r}: not a {ship_name(length or 0)}")
        claims.expect(p["prep"] == ("at" if n == 1 else "in"), f"{part!r}: wrong preposition")
        place = place_of(n, p["at"])
        claims.expect(claims.board.fits(place), f"no {ship_name(n)} fits {p['at']}")
        found.append(place)
    claims.expect(several == (len({p.length for p in found}) > 1), "'be' said of one length or 'lie' of several")
    return found


def common(claims: Claims, places: list[Place], ship: set[Coord], water: set[Coord], exact: bool = True) -> None:
    """The step is what every one of ``places`` agrees on, among the unknown cells (not
    ``exact``: a part of it)."""
    board = claims.board
    if not places:
        return
    cells = set.intersection(*(set(p.cells) for p in places))
    halo = set.intersection(*(board.around(p.cells) for p in places))
    unknown = board.cells(Cell.UNKNOWN)
    agreed = (ship == cells & unknown and water == halo & unknown if exact else
              ship <= cells & unknown and water <= halo & unknown)
    claims.expect(agreed, f"the places agree on ship {sorted(cells & unknown)} and water {sorted(halo & unknown)}")


@template("only places", rf"The (?P<last>last )?(?P<name>{NAME}) can only (?P<places>(?:lie|be) .+?): (?P<cells>.+)")
def _only_places(claims: Claims, m: re.Match) -> None:
    length, board = NAMES[m["name"]], claims.board
    fleet = dict(board.puzzle.fleet)
    claims.expect(length in fleet, f"no {m['name']} in the fleet")
    claims.expect(bool(m["last"]) == (fleet.get(length, 0) > 1), "'last' said of a ship the fleet has once, or unsaid")
    claims.expect(board.missing().get(length, 0) <= 1, f"{board.missing().get(length)} {m['name']}s are missing")
    places = places_named(claims, m["places"], length)
    cells = said_cells(claims, m["cells"])
    exact = not board.unnamed           # (places ruled out unnamed leave fewer than found here)
    if isinstance(places, int):
        claims.expect(places > 3 and (places == len(board.open_places(length)) or not exact),
                      f"{len(board.open_places(length))} places, not {places}")
        return
    claims.expect(set(places) == board.open_places(length) or not exact,
                  f"the {m['name']} can lie at {sorted(board.open_places(length), key=str)}")
    if cells is not None:
        common(claims, places, *cells)


@template("count places", rf"The (?P<k>\d+) missing (?P<name>{NAME})s have exactly (?P<n>\d+) places left: "
          rf"(?P<cells>.+)")
def _count_places(claims: Claims, m: re.Match) -> None:
    length, board = NAMES[m["name"]], claims.board
    k, n = int(m["k"]), int(m["n"])
    claims.expect(k == n and k >= 2, "the counts differ")
    claims.expect(board.missing().get(length, 0) >= k, f"only {board.missing().get(length)} are missing")
    cells = said_cells(claims, m["cells"])
    places = board.places(length)
    claims.expect(len(board.open_places(length)) == k or board.unnamed,
                  f"{len(board.open_places(length))} places fit, not {k}")
    if cells is not None:
        ship, water = cells
        claims.expect(all(any(c in p.cells for p in places) for c in ship), "a ship cell no place covers")
        claims.expect(all(any(c in board.around(p.cells) for p in places) for c in water),
                      "a water cell beside no place")


@template("segment", rf"The ship through (?P<at>{WHERE}) can only (?P<places>(?:lie|be) .+?): (?P<cells>.+)")
def _segment(claims: Claims, m: re.Match) -> None:
    board = claims.board
    cells = named(m["at"])
    group = set(claims.on_board(cells, "the segment"))
    claims.expect(any(group == g for g in board.segments()) or bool(cells.more), "the cells are not one ship segment")
    places = places_named(claims, m["places"], None)
    said = said_cells(claims, m["cells"])
    missing = board.missing()
    through = {p for n, left in missing.items() if left for p in board.open_places(n) if group <= set(p.cells)}
    if isinstance(places, int):
        claims.expect(places == len(through) or board.unnamed, f"{len(through)} places, not {places}")
        return
    claims.expect(all(group <= set(p.cells) for p in places), "a place does not cover the segment")
    # Each place named is one a missing ship could take. (They may be fewer than the board
    # shows: a rule that sets no cell, the segments' claim on a length, may have ruled some
    # out unsaid; then the step sets part of what the places named agree on.)
    claims.expect(set(places) <= through, f"a place named is not one of {sorted(through, key=str)}")
    # The sentence leaves out the places of a length whose ships the board shows whole
    # elsewhere; the step, found before the engine placed those, sets what all agree on.
    whole = [len(g) for g in board.segments() if g != group and board.closed(g)]
    gone = any(whole.count(n) >= count for n, count in board.puzzle.fleet if n >= len(group))
    if said is not None:
        common(claims, places, *said, exact=set(places) == through and not board.unnamed and not gone)


@template("single cells", r"(?:All (?P<subs>\d+) submarines are|The submarine is) placed: (?:these single cells are|"
          rf"this single cell is) water \((?P<at>{WHERE})\)")
def _single_cells(claims: Claims, m: re.Match) -> None:
    board = claims.board
    subs = dict(board.puzzle.fleet).get(1, 0)
    claims.expect(subs == (int(m["subs"]) if m["subs"] else 1), f"the fleet has {subs} submarines")
    claims.expect(board.missing().get(1, 0) == 0, "a submarine is missing")
    cells = named(m["at"])
    shown = claims.on_board(cells, "the cells")
    claims.expect(("these" in m[0]) == (cells.count > 1), "'this'/'these' and the cells disagree")
    for r, c in shown:
        beside = [x for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if board.on(x)]
        claims.expect(all(board.at(x) == Cell.WATER for x in beside), f"r{r + 1}c{c + 1} is not a single cell")
    if claims.water is not None:
        claims.expect(cells.is_(claims.water), "the cells named are not those set")
    claims.sets((), claims.water if cells.more else shown)


@template("no ship fits", rf"No ship still missing \((?P<fleet>[^)]*)\) fits through (?P<at>{WHERE}): water")
def _no_ship_fits(claims: Claims, m: re.Match) -> None:
    board = claims.board
    missing = fleet_named(claims, m["fleet"])
    cells = named(m["at"])
    shown = set(claims.on_board(cells, "the cells"))
    if claims.water is not None:
        claims.expect(cells.is_(claims.water), "the cells named are not those set")
        shown = set(claims.water)
    for length, left in missing.items():
        if left:
            through = [p for p in board.places(length) if shown & set(p.cells)]
            claims.expect(not through or board.unnamed, f"a {ship_name(length)} fits at {through[:1]}")
    claims.sets((), shown)


def fleet_named(claims: Claims, text: str) -> dict[int, int]:
    """The ships "1 battleship, 2 cruisers" names: each a ship of the fleet, no more than it has."""
    fleet, found = dict(claims.board.puzzle.fleet), {}
    if text == "none":
        return found
    for part in text.split(", "):
        m = re.fullmatch(rf"(\d+) ({NAME})(s?)", part)
        if not m:
            claims.fail(f"unreadable ships {part!r}")
            continue
        count, length = int(m[1]), NAMES[m[2]]
        claims.plural(count, m[2], m[2] + m[3])
        claims.expect(0 < count <= fleet.get(length, 0), f"the fleet has {fleet.get(length, 0)} {m[2]}s")
        found[length] = count
    return found


@template("line fill", r"Every way to fit (?P<k>\d+) ship cells into (?P<kind>row|column) (?P<n>\d+) \(runs that "
          r"are ships still missing, water between them\) makes (?P<cells>.+)")
def _line_fill(claims: Claims, m: re.Match) -> None:
    is_row, index = line_of(claims, m["kind"], m["n"])
    claims.expect(claims.board.tally(is_row, index) == int(m["k"]), "the tally is not that")
    cells = said_cells(claims, m["cells"], made=True)
    if cells is not None:
        line = set(claims.board.line(is_row, index))
        claims.expect(cells[0] | cells[1] <= line, "a cell set is not in the line")
        if not claims.board.unnamed:     # (places ruled out unnamed leave fewer ways than found here)
            can_ship, can_water = line_ways(claims.board, is_row, index)
            claims.expect(not cells[0] & can_water, f"a way leaves {sorted(cells[0] & can_water)} water")
            claims.expect(not cells[1] & can_ship, f"a way makes {sorted(cells[1] & can_ship)} ship")


def line_ways(board: Board, is_row: bool, index: int) -> tuple[set[Coord], set[Coord]]:
    """The cells of a line ship in some way to fill it to its tally, and those water in some
    way: runs of ship cells along it with water between, each run a cell of a ship crossing
    the line, a ship whole on the board, or a place a missing ship fits."""
    line, tally = board.line(is_row, index), board.tally(is_row, index)
    n, value = len(line), [board.at(cell) for cell in line]
    missing = board.missing()
    whole = {(min(g), len(g)) for g in board.segments() if board.closed(g) and set(g) <= set(line) and len(g) > 1}
    runs: list[list[int]] = [[] for _ in range(n)]          # per start, the lengths of runs that may start there
    for i in range(n):
        if value[i] != Cell.WATER:
            runs[i].append(1)
        for length, left in missing.items():
            place = Place(length, is_row, *line[i]) if length > 1 else None
            if place and left and board.fits(place) and all(c in line for c in place.cells):
                runs[i].append(length)
        runs[i] += [length for start, length in whole if start == line[i] and length not in runs[i]]

    def moves(i: int) -> list[tuple[int, int, int, int]]:
        """From position i: (first cell, cells, ship cells, next position) of each choice."""
        found = [(i, 1, 0, i + 1)] if value[i] != Cell.SHIP else []
        for length in runs[i]:
            end = i + length
            if end <= n and (end == n or value[end] != Cell.SHIP):
                found.append((i, length, length, min(end + 1, n)))
        return found

    reach = [set() for _ in range(n + 1)]
    reach[0].add(0)
    for i in range(n):
        for _, _, ships, after in moves(i):
            reach[after] |= {c + ships for c in reach[i] if c + ships <= tally}
    back = [set() for _ in range(n + 1)]
    back[n].add(tally)
    for i in range(n - 1, -1, -1):
        for _, _, ships, after in moves(i):
            back[i] |= {c - ships for c in back[after] if c >= ships}
    can_ship, can_water = set(), set()
    for i in range(n):
        for first, cells, ships, after in moves(i):
            if not any(c + ships in back[after] for c in reach[i]):
                continue
            if ships:
                can_ship.update(line[first:first + cells])
                if first + cells < n:
                    can_water.add(line[first + cells])
            else:
                can_water.add(line[first])
    return can_ship, can_water


@template("reveal", r"No short chain of reasoning leads on from here, so here is one cell of the solution: "
          r"row (?P<r>\d+), column (?P<c>\d+) is (?P<v>ship|water)")
def _reveal(claims: Claims, m: re.Match) -> None:
    cell = (int(m["r"]) - 1, int(m["c"]) - 1)
    claims.unknown([cell], "the cell revealed")
    claims.sets([cell] if m["v"] == "ship" else [], [cell] if m["v"] == "water" else [])


# -- a board with a wrong mark: what the hint says is wrong --------------------------------

@template("mistake: tally", r"(?P<kind>Row|Column) (?P<n>\d+) (?:has (?P<has>\d+)|can reach at most (?P<most>\d+)) "
          r"(?P<w>ship cells?), its tally is (?P<t>\d+)")
def _wrong_tally(claims: Claims, m: re.Match) -> None:
    is_row, index = line_of(claims, m["kind"], m["n"])
    said, tally = int(m["has"] or m["most"]), int(m["t"])
    claims.plural(said, "ship cell", m["w"])
    claims.expect(claims.board.tally(is_row, index) == tally, "not the line's tally")
    ships, unknown = line_counts(claims.board, is_row, index)
    claims.expect(said == ships > tally if m["has"] else said == ships + len(unknown) < tally, f"{m[0]!r} is not so")


@template("mistake: touching", r"(?:Ships touch diagonally at rows (?P<r>\d+)-(?P<r2>\d+), columns "
          r"(?P<c>\d+)-(?P<c2>\d+)|Ship bends at row (?P<br>\d+), column (?P<bc>\d+))")
def _wrong_touching(claims: Claims, m: re.Match) -> None:
    board = claims.board
    if m["r"]:
        r, c = int(m["r"]) - 1, int(m["c"]) - 1
        pairs = [((r, c), (r + 1, c + 1)), ((r, c + 1), (r + 1, c))]
        claims.expect(int(m["r2"]) == r + 2 and int(m["c2"]) == c + 2, "not two rows and two columns")
        claims.expect(any(all(board.on(x) and board.at(x) == Cell.SHIP for x in pair) for pair in pairs),
                      "no two ship cells touch diagonally there")
    else:
        r, c = int(m["br"]) - 1, int(m["bc"]) - 1
        claims.expect(board.on((r, c)) and board.at((r, c)) == Cell.SHIP, "the cell is not ship")
        ship = board.cells(Cell.SHIP)
        claims.expect(any(len({(r, c), a, b} & ship) == 3 and a[0] != b[0] and a[1] != b[1]
                          for a in ((r, c - 1), (r, c + 1), (r + 1, c), (r - 1, c))
                          for b in ((r, c - 1), (r, c + 1), (r + 1, c), (r - 1, c))), "no bend there")


@template("mistake: given", rf"The given (?:(?P<piece>\w+) piece at (?P<at>{WHERE}) does not fit its ship|water at "
          rf"(?P<wat>{WHERE}) is marked as ship|ship piece at (?P<sat>{WHERE}) is not ship)")
def _wrong_given(claims: Claims, m: re.Match) -> None:
    board = claims.board
    if m["wat"]:
        cell = given(claims, m["wat"], {Hint.WATER})
        claims.expect(cell is None or board.at(cell) == Cell.SHIP, "it is not marked ship")
    elif m["sat"]:
        cell = given(claims, m["sat"], {h for h in Hint if h.is_ship})
        claims.expect(cell is None or board.at(cell) == Cell.WATER, "it is not marked water")
    else:
        cell = given(claims, m["at"], {Hint(m["piece"])} if m["piece"] in {h.value for h in Hint} else set())
        if cell is not None:
            fit = [p for n, _ in board.puzzle.fleet for p in board.places(n) if cell in p.cells]
            claims.expect(not fit, f"a ship fits it at {fit[:1]}")


@template("mistake: fleet", rf"(?:A ship of (?P<n>\d+) cells is longer than the longest in the fleet \((?P<l>\d+)\)"
          rf"|(?P<k>\d+) (?P<w>ships?) of length (?P<len>\d+) \((?P<name>{NAME})\), the fleet has (?P<f>\d+))")
def _wrong_fleet(claims: Claims, m: re.Match) -> None:
    board = claims.board
    closed = [len(g) for g in board.segments() if board.closed(g)]
    if m["n"]:
        claims.expect(int(m["l"]) == board.puzzle.longest_ship, "not the longest ship")
        claims.expect(any(len(g) == int(m["n"]) and board.straight(g) for g in board.segments()), "no such ship")
    else:
        k, length = int(m["k"]), int(m["len"])
        claims.plural(k, "ship", m["w"])
        claims.expect(NAMES[m["name"]] == length and dict(board.puzzle.fleet).get(length, 0) == int(m["f"]),
                      "not the fleet's")
        claims.expect(closed.count(length) == k > int(m["f"]), f"{closed.count(length)} such ships are whole")


@template("mistake: broken", r"Something is wrong already: (?P<why>.+)")
def _wrong_already(claims: Claims, m: re.Match) -> None:
    reason(claims, claims.board, m["why"], False)


# -- trials: an assumption, what follows, the rule it breaks -------------------------------

@template("trial", rf"If (?P<at>{WHERE}) were (?P<was>ship|water)(?P<rest>[,:] .+)\. So it is (?P<now>ship|water)")
def _trial(claims: Claims, m: re.Match) -> None:
    cells = named(m["at"])
    claims.expect(len(cells.shown) == 1 and not cells.more, "the assumption is not one cell")
    claims.expect(m["was"] != m["now"], "the value concluded is the one assumed")
    cell = cells.shown[0] if cells.shown else (-1, -1)
    claims.unknown([cell], "the cell assumed")
    claims.sets([cell] if m["now"] == "ship" else [], [cell] if m["now"] == "water" else [])
    if not claims.board.on(cell):
        claims.fail("the cell assumed is off the board")
        return
    assumed = claims.board.copy()
    assumed.set([cell], Cell.SHIP if m["was"] == "ship" else Cell.WATER)
    rest = m["rest"]
    deep = re.fullmatch(r", then after the simple rules and one level of trial (?P<why>.+)", rest)
    if deep:
        reason(claims, assumed, deep["why"], False)
        return
    if rest.startswith(", "):
        reason(claims, assumed, rest[2:], False)
        return
    chain = re.fullmatch(r": (?:(?P<first>.+?)(?: \(and (?P<more>\d+) more (?P<w>steps?)\))?; then )?(?P<why>.+)", rest)
    if not chain:
        claims.fail(f"unreadable trial {rest!r}")
        return
    if chain["first"]:
        if chain["more"]:
            claims.plural(int(chain["more"]), "step", chain["w"])
        inner = Claims(assumed, None, None)
        sentence(inner, chain["first"][0].upper() + chain["first"][1:])
        claims.problems.extend(f"(in the trial) {p}" for p in inner.problems)
    reason(claims, assumed, chain["why"], not chain["first"])


def reason(claims: Claims, board: Board, text: str, here: bool) -> None:
    """Why a board breaks (``here``: the board itself, with nothing between, so the reason
    is checked on it; else the reason is checked for what the level itself fixes)."""
    puzzle = board.puzzle
    fleet = dict(puzzle.fleet)
    m = re.fullmatch(r"then after one level of trial (?P<why>.+)", text)
    if m:
        reason(claims, board, m["why"], False)
        return
    m = re.fullmatch(r"(?P<kind>row|column) (?P<n>\d+) (?:could not reach its tally of (?P<short>\d+)|would have more "
                     r"than (?P<over>\d+) (?P<w>ship cells?))", text)
    if m:
        is_row, index = line_of(claims, m["kind"], m["n"])
        tally = board.tally(is_row, index)
        said = int(m["short"] or m["over"])
        claims.expect(tally == said, f"{m['kind']} {m['n']}'s tally is {tally}")
        if m["w"]:
            claims.plural(said, "ship cell", m["w"])
        if here:
            ships, unknown = line_counts(board, is_row, index)
            claims.expect(ships + len(unknown) < said if m["short"] else ships > said, f"{text!r} is not so")
        return
    m = re.fullmatch(rf"ships would touch at (?P<at>{WHERE})", text)
    if m:
        shown = claims.on_board(named(m["at"]), "ships touching")
        if here:
            ship = board.cells(Cell.SHIP)
            claims.expect(all(c in ship and board.around([c], diagonal_only=True) & ship for c in shown),
                          "the cells named do not touch a ship")
        return
    m = re.fullmatch(rf"the (?P<name>{NAME}) would have nowhere to go", text)
    if m:
        claims.expect(NAMES[m["name"]] in fleet, f"no {m['name']} in the fleet")
        return
    m = re.fullmatch(rf"the (?P<k>\d+) missing (?P<name>{NAME})s would (?:have only (?P<n>\d+) (?P<w>places?)|not fit)",
                     text)
    if m:
        k = int(m["k"])
        claims.expect(2 <= k <= fleet.get(NAMES[m["name"]], 0), f"the fleet has not {k} {m['name']}s to miss")
        if m["n"]:
            claims.plural(int(m["n"]), "place", m["w"])
            claims.expect(int(m["n"]) < k, "as many places as ships is no contradiction")
        return
    m = re.fullmatch(rf"no ship still missing \((?P<fleet>[^)]*)\) fits the segment at (?P<at>{WHERE})", text)
    if m:
        fleet_named(Claims(board, None, None), m["fleet"])
        claims.on_board(named(m["at"]), "the segment")
        return
    m = re.fullmatch(r"the segments need more ships of (?P<n>\d+) cells or more than are still missing", text)
    if m:
        claims.expect(int(m["n"]) in fleet, "no ship of that length")
        return
    m = re.fullmatch(r"(?P<kind>row|column) (?P<n>\d+) (?:cannot|could not) hold (?:its )?(?P<k>\d+) ship cells in "
                     r"ships that still fit", text)
    if m:
        is_row, index = line_of(claims, m["kind"], m["n"])
        claims.expect(board.tally(is_row, index) == int(m["k"]), "not its tally")
        return
    m = re.fullmatch(rf"no ship still missing could take the ship cells at (?P<at>{WHERE})", text)
    if m:
        claims.on_board(named(m["at"]), "the cells")
        return
    m = re.fullmatch(rf"the (?P<name>{NAME})s still missing would not fit", text)
    if m:
        claims.expect(NAMES[m["name"]] in fleet, "no such ship")
        return
    if text in ("the ships still missing could not all be placed", "a cell would be both ship and water"):
        return
    m = re.fullmatch(rf"(?P<at>{WHERE}) could be neither ship \((?P<a>.+)\) nor water \((?P<b>.+)\)", text)
    if m:
        cells = named(m["at"])
        claims.expect(len(cells.shown) == 1 and not cells.more, "not one cell")
        claims.on_board(cells, "the cell")
        reason(claims, board, m["a"], False)
        reason(claims, board, m["b"], False)
        return
    claims.fail(f"unread reason {text!r}")


RULED_OUT = re.compile(r"A ship placed whole at some places breaks a rule, so none lies there: (?P<list>.+?)"
                       r"(?:, and (?P<more>\d+) more (?P<w>places?))?\. With those ruled out: (?P<then>.+)")


def ruled_out(claims: Claims, m: re.Match) -> None:
    """Places ruled out first ("the cruiser in row 2, columns 3-5 (reason); ..."), then the
    step on the board without them."""
    board = claims.board.copy()
    text = m["list"]
    if m["more"]:
        claims.plural(int(m["more"]), "place", m["w"])
        board.unnamed = True
    while text:
        p = re.match(rf"the (?P<name>{NAME}) (?P<prep>at|in) (?P<at>{PLACE}) \(", text)
        if not p:
            claims.fail(f"unreadable place ruled out {text!r}")
            return
        depth, i = 1, p.end()
        while depth and i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        length = NAMES[p["name"]]
        claims.expect(p["prep"] == ("at" if length == 1 else "in"), "wrong preposition")
        claims.expect(length in dict(board.puzzle.fleet), f"no {p['name']} in the fleet")
        place = place_of(length, p["at"])
        claims.expect(all(board.on(c) for c in place.cells), "a place off the board")
        reason(claims, board, text[p.end():i - 1], False)
        board.ruled_out.add(place)
        text = text[i:]
        if text.startswith("; "):
            text = text[2:]
        elif text:
            claims.fail(f"unreadable places ruled out, at {text!r}")
            return
    inner = Claims(board, claims.ship, claims.water)
    sentence(inner, m["then"][0].upper() + m["then"][1:])
    claims.problems.extend(inner.problems)


def sentence(claims: Claims, text: str) -> str:
    """Check ``text``; the name of the template it was read as."""
    m = RULED_OUT.fullmatch(text)
    if m:
        ruled_out(claims, m)
        return "places ruled out"
    for name, pattern, check in TEMPLATES:
        m = pattern.fullmatch(text)
        if m:
            check(claims, m)
            return name
    claims.fail(f"no template reads {text!r}")
    return "unread"


def check(puzzle: Puzzle, grid, ship: set[Coord], water: set[Coord], text: str) -> tuple[str, list[str]]:
    """The template ``text`` was read as, and the problems found with it, said on ``grid`` by a
    step that sets the cells ``ship`` and ``water``."""
    claims = Claims(Board(puzzle, [list(row) for row in grid]), set(ship), set(water))
    name = sentence(claims, text)
    return name, claims.problems
