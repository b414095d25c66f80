"""A board drawn at any size from a grid and the given cells: the editor's board, the race's
lanes and the replay. (The play scene's board, with its cursor and hover, is
``window.board_view``; both draw their pieces with its ``draw_piece`` and ``water_tile``.)

A :class:`MiniBoard` keeps its picture and redraws only the cells that changed since the last
frame (and their neighbours, whose ship shapes may follow), so a lane that a solver changes a
few cells a frame costs a few cells a frame. Asked for ``only_changes``, it also puts only the
area of those cells on the screen (which must still show its last picture there). A cell
without a ship is a tile made once (a whole picture of them is one call), and boards that start
alike (the race's lanes) build one picture and copy it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import pygame

from game.puzzle import Cell, Coord, Hint
from game.ships import piece_on_board
from window import fonts
from window.board_view import draw_piece, draw_reason_mark, joins, water_tile
from window.layout import board_with_tallies, col_tally_rect, row_tally_rect
from window.theme import Theme

Board = Sequence[Sequence[Cell]]
# what a picture was built for: theme, cell size, rows, columns, hints, tallies
_Key = tuple[Theme, int, int, int, frozenset[tuple[Coord, Hint]], tuple[tuple[int | None, ...], ...] | None]


class MiniBoard:
    def __init__(self) -> None:
        self._key: _Key | None = None
        self._picture: pygame.Surface | None = None
        self._grid: tuple[tuple[Cell, ...], ...] = ()        # the board the picture shows
        self._shown: tuple = ()
        self._colours: Mapping[Coord, tuple] = {}

    @property
    def empty(self) -> bool:
        """Nothing drawn yet."""
        return self._picture is None

    def start_from(self, other: MiniBoard) -> None:
        """Take a copy of ``other``'s picture: the next draw redraws only the cells where the
        board differs from the one ``other`` drew last (boards that start alike are built once)."""
        if other._picture is not None:
            self._key, self._picture, self._grid = other._key, other._picture.copy(), other._grid
            self._shown, self._colours = other._shown, dict(other._colours)

    def draw(self, surface: pygame.Surface, theme: Theme, origin: tuple[int, int], cell: int, grid: Board,
             hints: Mapping[Coord, Hint], tallies: tuple[Sequence[int | None], Sequence[int | None]] | None = None,
             colours: Mapping[Coord, tuple[int, int, int]] | None = None, shapes: Board | None = None,
             only_changes: bool = False) -> pygame.Rect | None:
        """Cells, pieces and grid lines, with the tallies where the play's board has them
        (``window.layout``) when given, the cells then one cell in.
        ``colours``: a ship colour per cell (e.g. by the reason a solver set it); ``shapes``:
        the board the pieces' shapes are read from, when it knows more than the one shown.
        The area put on ``surface``: the whole picture, or with ``only_changes`` the box
        around the cells that changed (None when none did)."""
        rows, cols = len(grid), len(grid[0]) if grid else 0
        board = board_with_tallies((0, 0), cell, rows, cols) if tallies else pygame.Rect(0, 0, cols * cell, rows * cell)
        colours = colours or {}
        shapes = shapes or grid
        key: _Key = (theme, cell, rows, cols, frozenset(hints.items()), tuple(map(tuple, tallies)) if tallies else None)
        shown = tuple(tuple(row) for row in shapes) if shapes is not grid else ()
        picture = self._picture
        fresh = key != self._key or picture is None
        whole = fresh or not only_changes
        if fresh or picture is None:
            self._key = key
            self._picture = picture = pygame.Surface(((cols + 1) * cell, (rows + 1) * cell), pygame.SRCALPHA)
            changed = {(r, c) for r in range(rows) for c in range(cols)}
            self._draw_tallies(theme, cell, board, tallies, picture)
        else:
            changed = self._changes(grid, colours, shown)
        self._draw_cells(theme, cell, changed, grid, hints, colours, shapes, picture, board.topleft)
        self._grid = tuple(tuple(row) for row in grid)
        self._shown, self._colours = shown, dict(colours)
        if whole:
            return surface.blit(picture, origin)
        if not changed:
            return None
        top, bottom = min(r for r, _ in changed), max(r for r, _ in changed)
        left, right = min(c for _, c in changed), max(c for _, c in changed)
        box = pygame.Rect(board.x + left * cell, board.y + top * cell, (right - left + 1) * cell,
                          (bottom - top + 1) * cell)
        # The cells are opaque, so the box covers what the screen showed there.
        return surface.blit(picture, (origin[0] + box.x, origin[1] + box.y), box)

    def _changes(self, grid: Board, colours: Mapping[Coord, tuple], shown: tuple) -> set[Coord]:
        rows, cols = len(grid), len(grid[0])
        old = self._grid
        # A solver's board shares its unchanged rows with the last one: those are skipped unread.
        found = {(r, c) for r in range(rows) if grid[r] is not old[r] for c in range(cols) if grid[r][c] != old[r][c]}
        before = self._shown
        if len(shown) != len(before):                   # shapes given now and not before, or the other way
            found |= {(r, c) for r in range(rows) for c in range(cols)}
        elif shown != before:                           # the shapes changed where their rows differ
            found |= {(r, c) for r in range(rows) if shown[r] != before[r] for c in range(cols)
                      if shown[r][c] != before[r][c]}
        old_colours = self._colours
        found |= set(colours) ^ set(old_colours) | {k for k in colours if colours[k] != old_colours.get(k)}
        # a ship cell's shape and joins depend on its neighbours
        around = {(r + dr, c + dc) for r, c in found for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        return {(r, c) for r, c in found | around if 0 <= r < rows and 0 <= c < cols}

    def _draw_cells(self, theme: Theme, cell: int, cells: Iterable[Coord], grid: Board,
                    hints: Mapping[Coord, Hint], colours: Mapping[Coord, tuple], shapes: Board,
                    picture: pygame.Surface, at: tuple[int, int]) -> None:
        """Draw ``cells`` of the board whose top left cell is at ``at``: a cell without a ship
        is a tile made once (a whole board of them is one call), a ship cell is drawn piece by piece."""
        x, y = at
        unknown, water = _plain_tile(theme, cell, False, False), _plain_tile(theme, cell, True, False)
        given_water = _plain_tile(theme, cell, True, True)
        plain = []
        for r, c in cells:
            value = grid[r][c]
            if value == Cell.SHIP:
                rect = pygame.Rect(x + c * cell, y + r * cell, cell, cell)
                self._draw_ship(theme, rect, r, c, hints.get((r, c)), colours, shapes, picture)
            elif value == Cell.WATER:
                plain.append((given_water if (r, c) in hints else water, (x + c * cell, y + r * cell)))
            else:
                plain.append((unknown, (x + c * cell, y + r * cell)))
        picture.blits(plain, doreturn=False)

    def _draw_ship(self, theme: Theme, rect: pygame.Rect, r: int, c: int, given: Hint | None,
                   colours: Mapping[Coord, tuple], shapes: Board, picture: pygame.Surface) -> None:
        pygame.draw.rect(picture, theme.unknown, rect)
        colour = theme.hint_ship if given is not None else colours.get((r, c), theme.ship)
        draw_piece(picture, rect, piece_on_board(shapes, r, c, given), colour, joins(shapes, r, c))
        draw_reason_mark(picture, rect, colour, theme)          # a guess, a deduction: a glyph too
        pygame.draw.rect(picture, theme.grid_line, rect, 1)

    def _draw_tallies(self, theme: Theme, cell: int, board: pygame.Rect,
                      tallies: tuple[Sequence[int | None], Sequence[int | None]] | None,
                      picture: pygame.Surface) -> None:
        size = None if tallies is None else tally_size(cell, [*tallies[0], *tallies[1]])
        if tallies is None or size is None:
            return
        for r, tally in enumerate(tallies[0]):
            fonts.blit_text(picture, "?" if tally is None else str(tally), size, theme.text,
                            center=row_tally_rect(board, cell, r).center)
        for c, tally in enumerate(tallies[1]):
            fonts.blit_text(picture, "?" if tally is None else str(tally), size, theme.text,
                            center=col_tally_rect(board, cell, c).center)


TALLY_GAP = 2          # pixels at least between two tallies side by side


def tally_size(cell: int, tallies: Sequence[int | None]) -> int | None:
    """The font size for tallies one ``cell`` apart: at most two thirds of the cell (10 to 24),
    smaller while the widest does not leave ``TALLY_GAP`` pixels to the next; None when even
    the smallest font does not (a large board drawn small: its numbers would run together)."""
    widest = max(("?" if tally is None else str(tally) for tally in tallies), key=len, default="")
    size = max(10, min(24, cell * 2 // 3))
    while size >= fonts.SMALLEST_DRAWN:
        width, height = fonts.font(size).size(widest)
        if width <= cell - TALLY_GAP and height <= cell:
            return size
        size -= 1
    return None


@lru_cache(maxsize=32)
def _plain_tile(theme: Theme, cell: int, water: bool, given: bool) -> pygame.Surface:
    """A cell without a ship, with its grid line: water (given or not) or unknown. Opaque, so
    put on the picture it covers what was there."""
    tile = pygame.Surface((cell, cell))
    if water:
        tile.blit(water_tile(cell, theme.water, theme.water_glyph, given), (0, 0))
    else:
        tile.fill(theme.unknown)
    pygame.draw.rect(tile, theme.grid_line, tile.get_rect(), 1)
    return tile
