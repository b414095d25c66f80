"""Draws the board: cells, pieces by shape, tallies with their state glyphs, overlays.

Drawing never changes state: everything to show comes in a :class:`BoardPicture`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Mapping, Sequence

import pygame

from game.puzzle import Cell, Coord, Hint, Puzzle
from game.session import TallyState
from game.ships import piece_on_board
from solvers.events import Reason, Ship
from window import fonts
from window.layout import Layout
from window.theme import Colour, Theme


@dataclass(frozen=True)
class BoardPicture:
    """Everything the board view shows for one frame."""

    puzzle: Puzzle
    grid: Sequence[Sequence[Cell]]
    row_states: Sequence[TallyState]
    col_states: Sequence[TallyState]
    cursor: Coord | None = None
    error_cells: frozenset = frozenset()
    reasons: Mapping[Coord, Reason] | None = None     # solver run: why each cell changed
    backtracked: frozenset = frozenset()                 # cells a solver set back to unknown
    tried: Coord | None = None                        # the solver's latest guess
    best_fleet: Sequence[Ship] = field(default_factory=tuple)
    solved: bool = False
    highlight: frozenset = frozenset()                   # cells a hint points at
    layers: Mapping[Coord, int] = field(default_factory=dict)     # cell -> the trial whose mark it shows
    depth: int = 0                                       # trials open (the frame takes the innermost's colour)


def _wave_points(x: int, y: int, width: int, amplitude: float) -> list[tuple[float, float]]:
    return [(x + i, y + amplitude * math.sin(i / max(1, width) * 2 * math.pi)) for i in range(0, width + 1, 2)]


@lru_cache(maxsize=64)
def water_tile(size: int, fill: Colour, glyph: Colour, given: bool, bold: bool = False) -> pygame.Surface:
    """Water: a tint and two small waves (the glyph keeps water readable without colour); given
    water has bolder waves and a dot under them, as a given ship piece has a dot; ``bold``
    water (a trial's, in its colour) the bolder waves alone."""
    tile = pygame.Surface((size, size))
    tile.fill(fill)
    width = max(4, int(size * 0.5))
    x = (size - width) // 2
    bold = bold or given
    thickness = 2 if bold or size >= 40 else 1
    waves = (size * 0.34, size * 0.54) if given else (size * 0.42, size * 0.62)
    for y in waves:
        points = _wave_points(x, int(y), width, max(1.0, size * 0.05))
        if len(points) > 1:
            pygame.draw.lines(tile, glyph, False, points, thickness + (1 if bold else 0))
    if given:
        pygame.draw.circle(tile, glyph, (size // 2, int(size * 0.77)), max(2, size // 12))
    return tile


SIDES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def joins(grid: Sequence[Sequence[Cell]], r: int, c: int) -> frozenset[str]:
    """The sides on which this ship cell touches another ship cell (so the drawing connects)."""
    rows, cols = len(grid), len(grid[0])
    return frozenset(name for name, (dr, dc) in SIDES.items()
                     if 0 <= r + dr < rows and 0 <= c + dc < cols and grid[r + dr][c + dc] == Cell.SHIP)


def draw_piece(surface: pygame.Surface, rect: pygame.Rect, shape: Hint | None, colour: Colour,
               sides: frozenset[str] = frozenset()) -> None:
    """A ship piece (None: shape not known yet); it reaches to the cell edge on the sides
    where the ship goes on."""
    pad = max(2, rect.width // 8)
    inner = rect.inflate(-2 * pad, -2 * pad)
    radius = inner.width // 2
    if shape is Hint.SUB:
        pygame.draw.circle(surface, colour, inner.center, radius)
        return
    if shape is None:
        small = rect.inflate(-3 * pad, -3 * pad)
        pygame.draw.rect(surface, colour, small, border_radius=max(2, small.width // 4))
        return
    # Each edge independently: out to the cell's edge where the ship goes on, else the inset.
    left = rect.left if "left" in sides else inner.left
    right = rect.right if "right" in sides else inner.right
    top = rect.top if "up" in sides else inner.top
    bottom = rect.bottom if "down" in sides else inner.bottom
    body = pygame.Rect(left, top, right - left, bottom - top)
    if shape is Hint.MIDDLE:
        pygame.draw.rect(surface, colour, body)
        return
    # A rounded end: a half disc on the closed side, a rectangle towards the open side.
    pygame.draw.circle(surface, colour, inner.center, radius)
    half = body.copy()
    if shape is Hint.TOP:
        half.top = inner.centery
        half.height = body.bottom - inner.centery
    elif shape is Hint.BOTTOM:
        half.height = inner.centery - body.top
    elif shape is Hint.LEFT:
        half.left = inner.centerx
        half.width = body.right - inner.centerx
    elif shape is Hint.RIGHT:
        half.width = inner.centerx - body.left
    pygame.draw.rect(surface, colour, half)


def _draw_tick(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, width: int) -> None:
    points = [(rect.x, rect.y + rect.height * 0.55), (rect.x + rect.width * 0.4, rect.bottom),
              (rect.right, rect.y)]
    pygame.draw.lines(surface, colour, False, points, width)


def tally_tick(rect: pygame.Rect) -> pygame.Rect:
    """Where a met or complete tally's tick goes in its ``rect``: the bottom right corner."""
    glyph = pygame.Rect(0, 0, max(5, rect.width // 4), max(5, rect.height // 4))
    glyph.bottomright = (rect.right - max(2, rect.width // 12), rect.bottom - max(3, rect.height // 8))
    return glyph


def _beside_tick(rect: pygame.Rect, glyph: pygame.Rect, text: str, size: int, bold: bool) -> tuple[int, int]:
    """The centre of a ticked tally's number: the cell's, moved left as far as it takes to keep
    the number clear of the tick (in a small cell the tick covered a "1")."""
    width = fonts.font(size, bold).size(text)[0]
    return max(rect.x + (width + 1) // 2, min(rect.centerx, glyph.left - 1 - (width + 1) // 2)), rect.centery


def _draw_tally(surface: pygame.Surface, rect: pygame.Rect, value: int | None, state: TallyState,
                theme: Theme) -> None:
    size = max(10, int(rect.height * 0.6))
    glyph = tally_tick(rect)
    line = max(1, rect.width // 16)
    if state is TallyState.UNKNOWN:
        fonts.blit_text(surface, "?", size, theme.muted, center=rect.center)
    elif state is TallyState.ERROR:
        box = rect.inflate(-4, -4)
        pygame.draw.rect(surface, theme.error, box, max(2, line), border_radius=4)
        fonts.blit_text(surface, str(value), size, theme.error, bold=True, center=rect.center)
        draw_alert(surface, rect, theme, "topright")
    elif state is TallyState.MET:
        fonts.blit_text(surface, str(value), size, theme.met, bold=True,
                        center=_beside_tick(rect, glyph, str(value), size, True))
        _draw_tick(surface, glyph, theme.met, max(2, line))
    elif state is TallyState.COMPLETE:
        fonts.blit_text(surface, str(value), size, theme.complete,
                        center=_beside_tick(rect, glyph, str(value), size, False))
        _draw_tick(surface, glyph, theme.complete, max(1, line))
    else:
        fonts.blit_text(surface, str(value), size, theme.text, bold=True, center=rect.center)


def draw_alert(surface: pygame.Surface, rect: pygame.Rect, theme: Theme, corner: str = "bottomleft",
               glyph: str = "!", colour: Colour | None = None) -> None:
    """``glyph`` on a small mark in a corner of ``rect``: an error ("!", red) shows as a glyph,
    not only as a colour (a tally's top right; a cell's bottom left, clear of a trial's number,
    a guess's corner and a deduction's square)."""
    colour = colour or theme.error
    mark = pygame.Rect(0, 0, max(4, rect.width // 5), max(6, rect.height // 3))
    inset = 3 if corner == "topright" else 2 + _outline_width(rect.width)
    setattr(mark, corner, (rect.right - inset, rect.top + inset) if corner == "topright" else
            (rect.left + inset, rect.bottom - inset))
    pygame.draw.rect(surface, colour, mark)
    fonts.blit_text(surface, glyph, int(mark.height * 1.2), theme.on(colour), bold=True, center=mark.center)


SMALLEST_MARKED = 6     # pixels: the smallest cell that shows a guess's or a deduction's glyph


def draw_reason_mark(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, theme: Theme,
                     ship: bool = True) -> None:
    """A solver's move told by a glyph as well as its colour: a guess's corner (top left), a
    deduction's small square (on a ship, in its middle, where every piece's shape is; on water,
    bottom right, in the deduction's colour); nothing for other colours or cells under
    ``SMALLEST_MARKED`` pixels. On cells under 14 pixels the marks are larger for their cell,
    and the guess's corner has no edge."""
    cell = rect.width
    if cell < SMALLEST_MARKED:
        return
    small = cell < 14
    if colour == theme.guess:           # edged, so that it shows on a guessed ship of its colour too
        reach = cell // 2 if small else cell // 3
        corner = [(rect.x + 1, rect.y + 1), (rect.x + reach, rect.y + 1), (rect.x + 1, rect.y + reach)]
        pygame.draw.polygon(surface, theme.guess if not small else theme.on(theme.guess), corner)
        if not small:
            pygame.draw.line(surface, theme.on(theme.guess), corner[1], corner[2], max(1, cell // 20))
    elif colour == theme.forced:
        side = max(2, cell // 4) if small else max(3, cell // 6)
        if ship:
            square = pygame.Rect(0, 0, side, side)
            square.center = rect.center
            pygame.draw.rect(surface, theme.on(theme.forced), square)
        else:
            square = pygame.Rect(rect.right - side - 3, rect.bottom - side - 3, side, side)
            pygame.draw.rect(surface, theme.forced, square)


def _outline_width(cell: int) -> int:
    """The width of the red outline on a cell that breaks a rule."""
    return max(2, cell // 14)


def _draw_trial_number(surface: pygame.Surface, rect: pygame.Rect, trial: int, theme: Theme) -> None:
    """The trial's depth as a digit in the cell's top right corner, colour is never the only
    sign: inside a broken rule's outline, black or white on a patch of the trial's colour,
    drawn last so that no piece, outline or cursor covers it."""
    inset = 2 + _outline_width(rect.width)
    size, colour = max(10, rect.width // 4), theme.trial_colour(trial)
    corner = (rect.right - inset - 1, rect.y + inset + 1)
    place = fonts.text(str(trial), size, colour, bold=True).get_rect(topright=corner)
    pygame.draw.rect(surface, colour, place.inflate(2, 2))         # the digit legible on its colour's patch
    fonts.blit_text(surface, str(trial), size, theme.on(colour), bold=True, topright=corner)


def _draw_cross(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, width: int) -> None:
    pygame.draw.line(surface, colour, rect.topleft, rect.bottomright, width)
    pygame.draw.line(surface, colour, rect.topright, rect.bottomleft, width)


def draw_board(surface: pygame.Surface, layout: Layout, picture: BoardPicture, theme: Theme,
               cells: Iterable[Coord] | None = None) -> None:
    """The board, its overlays and its tallies; ``cells``: only those cells drawn again (the
    rest of the board shows the last picture still), else every cell."""
    puzzle, grid, cell = picture.puzzle, picture.grid, layout.cell
    frame = layout.board.inflate(4, 4)
    if picture.depth and not picture.solved:
        pygame.draw.rect(surface, theme.trial_colour(picture.depth), layout.board.inflate(8, 8), 4)
    else:
        pygame.draw.rect(surface, theme.solved if picture.solved else theme.grid_line, frame,
                         3 if picture.solved else 2)
    layers = picture.layers
    if cells is None:
        pygame.draw.rect(surface, theme.unknown, layout.board)
        cells = ((r, c) for r in range(layout.rows) for c in range(layout.cols))
    else:
        cells = list(cells)
        for r, c in cells:
            pygame.draw.rect(surface, theme.unknown, layout.cell_rect(r, c))
    reasons = picture.reasons or {}
    # On a solved board the cells left undecided are water (the rules say so): its ships are
    # drawn whole, their ends and submarines rounded, as the fleet checklist counts them.
    shapes = [[Cell.WATER if value == Cell.UNKNOWN else value for value in row] for row in grid] \
        if picture.solved else grid
    for r, c in cells:
        _draw_cell(surface, layout, picture, theme, r, c, reasons.get((r, c)), layers.get((r, c), 0), shapes)
    for r in range(layout.rows + 1):
        y = layout.board.y + r * cell
        pygame.draw.line(surface, theme.grid_line, (layout.board.x, y), (layout.board.right - 1, y))
    for c in range(layout.cols + 1):
        x = layout.board.x + c * cell
        pygame.draw.line(surface, theme.grid_line, (x, layout.board.y), (x, layout.board.bottom - 1))
    for ship in picture.best_fleet:
        _draw_ship_outline(surface, layout, ship, theme.best_fleet)
    for r, c in picture.error_cells:
        pygame.draw.rect(surface, theme.error, layout.cell_rect(r, c).inflate(-2, -2), _outline_width(cell))
        if cell >= 18:                  # the outline's "!": a wrong mark is not told from the cursor by colour
            draw_alert(surface, layout.cell_rect(r, c), theme)
    for r, c in picture.highlight:
        pygame.draw.rect(surface, theme.best_fleet, layout.cell_rect(r, c).inflate(-3, -3), max(3, cell // 10),
                         border_radius=4)
    if picture.tried is not None:
        pygame.draw.rect(surface, theme.guess, layout.cell_rect(*picture.tried).inflate(2, 2), max(3, cell // 10),
                         border_radius=3)
    if picture.cursor is not None:
        pygame.draw.rect(surface, theme.cursor, layout.cell_rect(*picture.cursor).inflate(-1, -1), max(2, cell // 12))
    if cell >= 18:
        for (r, c), trial in layers.items():
            if grid[r][c] != Cell.UNKNOWN:
                _draw_trial_number(surface, layout.cell_rect(r, c), trial, theme)
    for r, tally in enumerate(puzzle.row_tallies):
        _draw_tally(surface, layout.row_tally_rect(r), tally, picture.row_states[r], theme)
    for c, tally in enumerate(puzzle.col_tallies):
        _draw_tally(surface, layout.col_tally_rect(c), tally, picture.col_states[c], theme)


def _draw_cell(surface: pygame.Surface, layout: Layout, picture: BoardPicture, theme: Theme, r: int, c: int,
               reason: Reason | None, trial: int, shapes: Sequence[Sequence[Cell]]) -> None:
    """One cell's water or ship piece (its shape read from ``shapes``), with the marks of a solver's move."""
    grid, cell = picture.grid, layout.cell
    value = grid[r][c]
    rect = layout.cell_rect(r, c)
    hint = picture.puzzle.hints.get((r, c))
    if value == Cell.WATER:
        glyph = theme.forced if reason is Reason.FORCED else theme.water_glyph
        if reason is Reason.GUESS:
            glyph = theme.guess
        elif trial:
            glyph = theme.trial_colour(trial)
        surface.blit(water_tile(cell, theme.water, glyph, hint is Hint.WATER, bool(trial)), rect)
    elif value == Cell.SHIP:
        colour = theme.hint_ship if hint is not None else theme.ship
        if reason is Reason.FORCED:
            colour = theme.forced
        elif reason is Reason.GUESS:
            colour = theme.guess
        elif trial:
            colour = theme.trial_colour(trial)
        draw_piece(surface, rect, piece_on_board(shapes, r, c, hint), colour, joins(grid, r, c))
        if hint is not None:
            # Given pieces carry a dot, so they differ from the player's by shape too.
            pygame.draw.circle(surface, theme.hint_mark, rect.center, max(2, cell // 12))
    if reason in (Reason.GUESS, Reason.FORCED) and value != Cell.UNKNOWN:
        draw_reason_mark(surface, rect, theme.guess if reason is Reason.GUESS else theme.forced, theme,
                         value == Cell.SHIP)
    if (r, c) in picture.backtracked and value == Cell.UNKNOWN:
        _draw_cross(surface, rect.inflate(-cell // 2, -cell // 2), theme.backtrack, max(1, cell // 14))


def _draw_ship_outline(surface: pygame.Surface, layout: Layout, ship: Ship, colour: Colour) -> None:
    """The genetic algorithm's best fleet: a capsule around each ship's cells."""
    first = layout.cell_rect(ship.row, ship.col)
    last_r, last_c = ship.cells()[-1]
    if not (0 <= last_r < layout.rows and 0 <= last_c < layout.cols):
        return
    rect = first.union(layout.cell_rect(last_r, last_c)).inflate(-layout.cell // 5, -layout.cell // 5)
    pygame.draw.rect(surface, colour, rect, max(2, layout.cell // 10), border_radius=rect.height // 2
                     if ship.horizontal else rect.width // 2)


class BoardView:
    """The board on screen, drawn again only when its picture changes.

    The caller names the picture by a cheap ``key`` (board version, cursor, overlays); the
    picture is built only when the key changes, and drawn only when it differs from the one
    on screen (or when the screen was overwritten: ``full``).
    """

    def __init__(self) -> None:
        self.renders = 0                      # how many times the cells were drawn (tests count)
        self.picture: BoardPicture | None = None
        self._key: object = None
        self._shown: BoardPicture | None = None

    def draw(self, surface: pygame.Surface, layout: Layout, theme: Theme, key: object,
             make_picture: Callable[[], BoardPicture], full: bool = False) -> list[pygame.Rect]:
        """Bring the board on screen up to date; the screen areas that changed."""
        if key != self._key or self.picture is None:
            self.picture = make_picture()
            self._key = key
        picture, shown = self.picture, self._shown
        if not full and shown is not None and shown == picture:
            return []
        area = board_area(layout)
        changes = None if full or shown is None else changed_cells(shown, picture, layout)
        # Only the ring around the cells needs clearing (tallies, frame): draw_board fills the
        # cells it draws, and on a large board only those that changed (a 60x60 board drawn
        # whole took 15-25 ms a frame while a solver ran).
        board = layout.board
        for strip in (pygame.Rect(area.x, area.y, area.width, board.y - area.y),
                      pygame.Rect(area.x, board.bottom, area.width, area.bottom - board.bottom),
                      pygame.Rect(area.x, board.y, board.x - area.x, board.height),
                      pygame.Rect(board.right, board.y, area.right - board.right, board.height)):
            surface.fill(theme.background, strip)
        draw_board(surface, layout, picture, theme, None if changes is None else changes[0])
        self._shown = picture
        self.renders += 1
        return [area] if changes is None else changes[1]


def board_area(layout: Layout) -> pygame.Rect:
    """The screen area the board view owns: the cells, the tallies and the frame around them."""
    return pygame.Rect(layout.board.x - layout.cell, layout.board.y - layout.cell,
                       layout.board.width + layout.cell, layout.board.height + layout.cell).inflate(8, 8)


def changed_cells(old: BoardPicture, new: BoardPicture, layout: Layout
                  ) -> tuple[set[Coord], list[pygame.Rect]] | None:
    """Where two pictures differ: the cells to draw again (changed ones with their neighbours,
    whose shapes depend on them, and those under an overlay that moved) and the screen areas
    of those and of the changed tallies; None when the whole board must go."""
    if old.puzzle is not new.puzzle or old.solved != new.solved or tuple(old.best_fleet) != tuple(new.best_fleet) \
            or old.depth != new.depth:
        return None
    cells: set = set()
    old_reasons, new_reasons = old.reasons or {}, new.reasons or {}
    for r in range(layout.rows):
        old_row, new_row = old.grid[r], new.grid[r]
        for c in range(layout.cols):
            if (old_row[c] != new_row[c] or old_reasons.get((r, c)) != new_reasons.get((r, c))
                    or old.layers.get((r, c)) != new.layers.get((r, c))
                    or ((r, c) in old.backtracked) != ((r, c) in new.backtracked)):
                cells.update(((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
    for attribute in ("cursor", "tried"):
        for cell in (getattr(old, attribute), getattr(new, attribute)):
            if getattr(old, attribute) != getattr(new, attribute) and cell is not None:
                r, c = cell             # the guess's outline reaches a pixel into the cells around
                cells.update((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    cells |= old.highlight ^ new.highlight
    cells |= old.error_cells ^ new.error_cells
    cells = {(r, c) for r, c in cells if 0 <= r < layout.rows and 0 <= c < layout.cols}
    areas = [layout.cell_rect(r, c).inflate(8, 8) for r, c in cells]
    areas += [layout.row_tally_rect(r) for r in range(layout.rows) if old.row_states[r] != new.row_states[r]]
    areas += [layout.col_tally_rect(c) for c in range(layout.cols) if old.col_states[c] != new.col_states[c]]
    return cells, areas
