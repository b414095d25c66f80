"""A level being written, in one of two ways, as values with an undo history.

*Design*: the author paints the fleet (the intended solution); tallies and fleet follow from
it, and chosen cells become given hints showing what the layout has there. *Transcribe*: the
author types the tallies, the fleet and the given cells as printed in a book. Either way the
draft becomes a :class:`Puzzle` (or a list of what is wrong, shown on the board: nothing the
author types raises). Every edit is a function from draft to draft; :class:`Editor` keeps the
history.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from game import levels, rules
from game.limits import MAX_FLEET_SHIPS, MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import Cell, Coord, Fleet, Grid, Hint, Puzzle, cells_between, make_fleet, ship_counts
from game.ships import geometry, hint_at, segments

# The order a click cycles a transcribed cell through.
HINT_CYCLE = (None, Hint.WATER, Hint.SUB, Hint.TOP, Hint.RIGHT, Hint.BOTTOM, Hint.LEFT, Hint.MIDDLE, Hint.SHIP)
# The judge's findings that sit on cells of a layout.
CELL_PROBLEMS = ("touching", "bent", "too_long", "hint")


class Mode(StrEnum):
    DESIGN = "design"
    TRANSCRIBE = "transcribe"


@dataclass(frozen=True)
class Problem:
    """Something that keeps the draft from being a level, with the cells or lines it is about."""

    text: str
    cells: frozenset[Coord] = frozenset()


def _blank(rows: int, cols: int, value: Cell = Cell.WATER) -> Grid:
    return tuple(tuple(value for _ in range(cols)) for _ in range(rows))


@dataclass(frozen=True)
class Draft:
    rows: int
    cols: int
    mode: Mode = Mode.DESIGN
    layout: Grid = ()                                  # design: ship or water per cell
    given: frozenset[Coord] = frozenset()              # design: the cells shown as hints
    typed_hints: Mapping[Coord, Hint] = field(default_factory=dict)        # transcribe
    typed_rows: tuple[int | None, ...] = ()            # transcribe: tallies, None = unknown
    typed_cols: tuple[int | None, ...] = ()
    typed_fleet: Fleet = ()                            # transcribe
    name: str = ""
    author: str = ""

    def __post_init__(self) -> None:
        if not self.layout:
            object.__setattr__(self, "layout", _blank(self.rows, self.cols))
        if not self.typed_rows:
            object.__setattr__(self, "typed_rows", (0,) * self.rows)
        if not self.typed_cols:
            object.__setattr__(self, "typed_cols", (0,) * self.cols)
        object.__setattr__(self, "typed_hints", MappingProxyType(dict(self.typed_hints)))

    # ----- what the draft says ------------------------------------------------------------

    @property
    def hints(self) -> dict[Coord, Hint]:
        if self.mode is Mode.TRANSCRIBE:
            return dict(self.typed_hints)
        return {cell: hint_at(self.layout, cell) for cell in sorted(self.given)}

    @property
    def row_tallies(self) -> tuple[int | None, ...]:
        if self.mode is Mode.TRANSCRIBE:
            return self.typed_rows
        return ship_counts(self.layout)[0]

    @property
    def col_tallies(self) -> tuple[int | None, ...]:
        if self.mode is Mode.TRANSCRIBE:
            return self.typed_cols
        return ship_counts(self.layout)[1]

    @property
    def fleet(self) -> Fleet:
        if self.mode is Mode.TRANSCRIBE:
            return self.typed_fleet
        geo = geometry(self.rows, self.cols, ())
        ship, _ = geo.masks(self.layout)
        counts: dict[int, int] = {}
        for segment in segments(geo, ship, geo.board & ~ship):
            if segment.straight:
                counts[segment.length] = counts.get(segment.length, 0) + 1
        return make_fleet(counts)

    @cached_property
    def _puzzle(self) -> Puzzle:
        """The level the draft says (built once: a draft never changes)."""
        return Puzzle(self.rows, self.cols, self.row_tallies, self.col_tallies, self.fleet, self.hints,
                      name=self.name or None, author=self.author or None,
                      solution=_solution_text(self.layout) if self.mode is Mode.DESIGN else None)

    def problems(self) -> list[Problem]:
        """Why the draft is not yet a level; empty when :meth:`puzzle` gives one."""
        return list(self._problems)

    @cached_property
    def _problems(self) -> tuple[Problem, ...]:
        """What :meth:`problems` says, worked out once (each asks the judge)."""
        found: list[Problem] = []
        if self.mode is Mode.DESIGN:
            judgement = rules.judge(self._puzzle, self.layout)
            for v in judgement.problems:
                if v.kind in CELL_PROBLEMS:
                    found.append(Problem(v.message, frozenset(v.cells)))
            if not self.fleet:
                found.append(Problem("paint the fleet: no ship yet"))
        else:
            for axis, tallies, length in (("row", self.typed_rows, self.cols), ("column", self.typed_cols, self.rows)):
                for i, tally in enumerate(tallies):
                    if tally is not None and tally > length:
                        found.append(Problem(f"{axis} {i + 1}: a tally of {tally} is more than its {length} cells"))
            cells = sum(length * count for length, count in self.typed_fleet)
            if not self.typed_fleet:
                found.append(Problem("give the fleet: no ship yet"))
            else:                   # a ship longer than the board, a fleet that cannot fit
                unknown = Puzzle(self.rows, self.cols, (None,) * self.rows, (None,) * self.cols, self.typed_fleet)
                found += _refused(unknown)
            for axis, tallies in (("rows", self.typed_rows), ("columns", self.typed_cols)):
                known = [tally for tally in tallies if tally is not None]
                if len(known) == len(tallies) and self.typed_fleet and sum(known) != cells:
                    found.append(Problem(f"the {axis} add up to {sum(known)}, the fleet has {cells} ship cells"))
        return tuple(found or _refused(self._puzzle))      # the loader has the last word: saved, it reads back

    def puzzle(self) -> Puzzle | None:
        return None if self._problems else self._puzzle


def _refused(puzzle: Puzzle) -> list[Problem]:
    """What the level loader (:func:`game.levels.from_dict`) refuses in ``puzzle``, if anything."""
    try:
        levels.from_dict(levels.to_dict(puzzle), "the level")
    except levels.LevelError as error:
        return [Problem(error.reason)]
    return []


def _solution_text(layout: Grid) -> tuple[str, ...]:
    return tuple("".join("#" if v == Cell.SHIP else "." for v in row) for row in layout)


# ----- edits: draft -> draft ---------------------------------------------------------------


def blank(rows: int, cols: int, mode: Mode = Mode.DESIGN) -> Draft:
    rows, cols = max(1, min(MAX_SIDE, rows)), max(1, min(MAX_SIDE, cols))
    return Draft(rows, cols, mode)


def from_puzzle(puzzle: Puzzle, solution: Grid | None = None) -> Draft:
    """A draft of an existing level: designed from its solution when one is known and the
    design shows the level as it is, else typed (an unknown tally or a ship piece of unknown
    shape is a clue a design cannot show: it would become known; a stored board that breaks
    the rules, ships touching, is no solution to design from)."""
    typed = Draft(puzzle.rows, puzzle.cols, Mode.TRANSCRIBE, typed_hints=puzzle.hints, typed_rows=puzzle.row_tallies,
                  typed_cols=puzzle.col_tallies, typed_fleet=puzzle.fleet, name=puzzle.name or "",
                  author=puzzle.author or "")
    if solution is None and puzzle.solution is not None:
        solution = tuple(tuple(Cell.SHIP if ch == "#" else Cell.WATER for ch in line) for line in puzzle.solution)
    if solution is None:
        return typed
    layout = tuple(tuple(Cell.SHIP if v == Cell.SHIP else Cell.WATER for v in row) for row in solution)
    design = replace(typed, mode=Mode.DESIGN, layout=layout, given=frozenset(puzzle.hints))
    clues = (design.row_tallies, design.col_tallies, design.fleet, design.hints)
    if clues != (puzzle.row_tallies, puzzle.col_tallies, puzzle.fleet, dict(puzzle.hints)) or design.problems():
        return typed
    return design


def resize(draft: Draft, rows: int, cols: int) -> Draft:
    """The draft on a board of another size (within the limits): what fits is kept."""
    rows, cols = max(1, min(MAX_SIDE, rows)), max(1, min(MAX_SIDE, cols))

    def fit(line: tuple, n: int, fill) -> tuple:
        return tuple(line[:n]) + (fill,) * max(0, n - len(line))

    layout = tuple(fit(draft.layout[r] if r < draft.rows else (), cols, Cell.WATER) for r in range(rows))
    inside = lambda cell: cell[0] < rows and cell[1] < cols  # noqa: E731
    return replace(draft, rows=rows, cols=cols, layout=layout, given=frozenset(filter(inside, draft.given)),
                   typed_hints={k: v for k, v in draft.typed_hints.items() if inside(k)},
                   typed_rows=fit(draft.typed_rows, rows, 0), typed_cols=fit(draft.typed_cols, cols, 0))


def paint(draft: Draft, cell: Coord, ship: bool) -> Draft:
    """Design: make a cell of the layout ship or water (a given cell keeps being given)."""
    r, c = cell
    board = [list(row) for row in draft.layout]
    board[r][c] = Cell.SHIP if ship else Cell.WATER
    return replace(draft, layout=tuple(tuple(row) for row in board))


def paint_line(draft: Draft, start: Coord, end: Coord, ship: bool) -> Draft:
    """Design: paint every cell on the straight line from ``start`` to ``end``, both included
    (:func:`game.puzzle.cells_between`)."""
    for cell in cells_between(start, end):
        draft = paint(draft, cell, ship)
    return draft


def toggle_given(draft: Draft, cell: Coord) -> Draft:
    """Design: show a cell as a hint, or stop showing it."""
    return replace(draft, given=draft.given ^ {cell})


def cycle_hint(draft: Draft, cell: Coord, forward: bool = True) -> Draft:
    """Transcribe: the next kind of given cell (none, water, the ship pieces, an unknown piece)."""
    now = HINT_CYCLE.index(draft.typed_hints.get(cell))
    new = HINT_CYCLE[(now + (1 if forward else -1)) % len(HINT_CYCLE)]
    hints = dict(draft.typed_hints)
    hints.pop(cell, None)
    if new is not None:
        hints[cell] = new
    return replace(draft, typed_hints=hints)


def set_tally(draft: Draft, axis: str, index: int, value: int | None) -> Draft:
    """Transcribe: a row or column tally (None: not printed). Out-of-range values are kept and
    shown as a problem, so what the author typed is never silently changed."""
    tallies = list(draft.typed_rows if axis == "row" else draft.typed_cols)
    tallies[index] = value
    if axis == "row":
        return replace(draft, typed_rows=tuple(tallies))
    return replace(draft, typed_cols=tuple(tallies))


def set_ships(draft: Draft, length: int, count: int) -> Draft:
    """Transcribe: how many ships of a length the fleet has."""
    counts = dict(draft.typed_fleet)
    counts[length] = max(0, min(MAX_FLEET_SHIPS, count))
    return replace(draft, typed_fleet=make_fleet({k: v for k, v in counts.items() if v and 1 <= k <= MAX_SHIP_LENGTH}))


def switch_mode(draft: Draft, solution: Grid | None = None) -> Draft:
    """Design <-> transcribe. To transcribe, the design's clues are written out as typed; to
    design, a solution of the clues (when one is known) becomes the layout."""
    if draft.mode is Mode.DESIGN:
        return replace(draft, mode=Mode.TRANSCRIBE, typed_hints=draft.hints, typed_rows=draft.row_tallies,
                       typed_cols=draft.col_tallies, typed_fleet=draft.fleet)
    layout = draft.layout if solution is None else tuple(
        tuple(Cell.SHIP if v == Cell.SHIP else Cell.WATER for v in row) for row in solution)
    return replace(draft, mode=Mode.DESIGN, layout=layout, given=frozenset(draft.typed_hints))


def with_puzzle_hints(draft: Draft, puzzle: Puzzle) -> Draft:
    """The draft with ``puzzle``'s given cells (after "make unique" or "minimize")."""
    if draft.mode is Mode.DESIGN:
        return replace(draft, given=frozenset(puzzle.hints))
    return replace(draft, typed_hints=dict(puzzle.hints))


# ----- a draft kept between openings of the editor -------------------------------------------

MAX_TALLY = 99              # the largest tally the editor takes


def to_dict(draft: Draft) -> dict[str, Any]:
    """Plain data for a draft kept unsaved (read back by :func:`from_dict`): every field, the
    parts the other mode holds too, so switching modes after a restore gives what it gave before."""
    return {
        "rows": draft.rows, "cols": draft.cols, "mode": draft.mode.value,
        "layout": ["".join("#" if v == Cell.SHIP else "." for v in row) for row in draft.layout],
        "given": sorted([r, c] for r, c in draft.given),
        "hints": sorted([r, c, hint.value] for (r, c), hint in draft.typed_hints.items()),
        "row_tallies": list(draft.typed_rows), "col_tallies": list(draft.typed_cols),
        "fleet": {str(length): count for length, count in draft.typed_fleet},
        "name": draft.name, "author": draft.author,
    }


def from_dict(data: Any) -> Draft:
    """The draft :func:`to_dict` wrote; ValueError naming the first thing that is not one."""
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ValueError(what)

    def whole(value: Any, low: int, high: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    keys = {"rows", "cols", "mode", "layout", "given", "hints", "row_tallies", "col_tallies", "fleet", "name",
            "author"}
    need(isinstance(data, dict) and set(data) == keys, f"a draft has the keys {', '.join(sorted(keys))}")
    rows, cols = data["rows"], data["cols"]
    need(whole(rows, 1, MAX_SIDE) and whole(cols, 1, MAX_SIDE), f"rows and cols are 1 to {MAX_SIDE}")
    need(data["mode"] in tuple(mode.value for mode in Mode), "mode is design or transcribe")
    layout = data["layout"]
    need(isinstance(layout, list) and len(layout) == rows
         and all(isinstance(line, str) and len(line) == cols and set(line) <= {"#", "."} for line in layout),
         f"layout is {rows} lines of {cols} '#' or '.'")

    def cell(item: Any, extra: int = 0) -> bool:
        return (isinstance(item, list) and len(item) == 2 + extra and whole(item[0], 0, rows - 1)
                and whole(item[1], 0, cols - 1))

    need(isinstance(data["given"], list) and all(cell(item) for item in data["given"]), "given is cells of the board")
    hints = data["hints"]
    names = tuple(hint.value for hint in Hint)
    need(isinstance(hints, list) and all(cell(item, 1) and item[2] in names for item in hints),
         "hints are cells of the board with a given piece")
    for axis, count in (("row_tallies", rows), ("col_tallies", cols)):
        tallies = data[axis]
        need(isinstance(tallies, list) and len(tallies) == count
             and all(value is None or whole(value, 0, MAX_TALLY) for value in tallies),
             f"{axis} are {count} tallies of 0 to {MAX_TALLY} or null")
    fleet = data["fleet"]
    need(isinstance(fleet, dict) and all(key.isascii() and key.isdigit() and whole(int(key), 1, MAX_SHIP_LENGTH)
                                         and whole(count, 1, MAX_FLEET_SHIPS) for key, count in fleet.items()),
         f"fleet is ship lengths of 1 to {MAX_SHIP_LENGTH} with counts of 1 to {MAX_FLEET_SHIPS}")
    # (as the level it began from had them: the file's own bound is the bound)
    need(all(isinstance(data[key], str) for key in ("name", "author")), "name and author are text")
    return Draft(rows, cols, Mode(data["mode"]),
                 layout=tuple(tuple(Cell.SHIP if ch == "#" else Cell.WATER for ch in line) for line in layout),
                 given=frozenset((r, c) for r, c in data["given"]),
                 typed_hints={(r, c): Hint(name) for r, c, name in hints},
                 typed_rows=tuple(data["row_tallies"]), typed_cols=tuple(data["col_tallies"]),
                 typed_fleet=make_fleet({int(key): count for key, count in fleet.items()}),
                 name=data["name"], author=data["author"])


class Editor:
    """A draft and its history: every edit is undoable; an edit that changes nothing is not kept."""

    def __init__(self, draft: Draft) -> None:
        self.history = [draft]
        self.cursor = 0

    @property
    def draft(self) -> Draft:
        return self.history[self.cursor]

    def apply(self, new: Draft, merge: bool = False) -> bool:
        """``new`` as the next step of the history; ``merge``: in place of the current step
        (the cells of one drag are one edit, one undo), unless that is the draft opened."""
        if new == self.draft:
            return False
        if merge and self.cursor > 0:
            self.cursor -= 1
        del self.history[self.cursor + 1:]
        self.history.append(new)
        self.cursor += 1
        return True

    def undo(self) -> bool:
        if self.cursor == 0:
            return False
        self.cursor -= 1
        return True

    def redo(self) -> bool:
        if self.cursor + 1 >= len(self.history):
            return False
        self.cursor += 1
        return True
