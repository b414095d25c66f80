"""A board drawn at any size from a grid and the given cells: the editor's board and the
race's lanes. (The play scene's board, with its cursor, hover and cached picture, is
``window.board_view``; both draw their pieces with its ``draw_piece`` and ``water_tile``.)
"""

from __future__ import annotations

from typing import Mapping, Sequence

import pygame

from game.puzzle import Cell, Coord, Hint
from game.ships import piece_on_board
from window import fonts
from window.board_view import draw_piece, joins, water_tile
from window.theme import Theme


def draw_mini_board(surface: pygame.Surface, theme: Theme, origin: tuple[int, int], cell: int,
                    grid: Sequence[Sequence[Cell]], hints: Mapping[Coord, Hint],
                    tallies: tuple[Sequence[int | None], Sequence[int | None]] | None = None,
                    colours: Mapping[Coord, tuple[int, int, int]] | None = None,
                    shapes: Sequence[Sequence[Cell]] | None = None) -> None:
    """Cells, pieces and grid lines, with the tallies right and below when given.
    ``colours``: a ship colour per cell (e.g. by the reason a solver set it); ``shapes``: the
    board the pieces' shapes are read from, when it knows more than the one shown."""
    shapes = shapes or grid
    rows, cols = len(grid), len(grid[0]) if grid else 0
    x0, y0 = origin
    colours = colours or {}
    for r in range(rows):
        for c in range(cols):
            rect = pygame.Rect(x0 + c * cell, y0 + r * cell, cell, cell)
            value, given = grid[r][c], hints.get((r, c))
            if value == Cell.WATER:
                surface.blit(water_tile(cell, theme.water, theme.water_glyph, given is not None), rect)
            else:
                pygame.draw.rect(surface, theme.unknown, rect)
            if value == Cell.SHIP:
                colour = theme.hint_ship if given is not None else colours.get((r, c), theme.ship)
                draw_piece(surface, rect, piece_on_board(shapes, r, c, given), colour, joins(shapes, r, c))
            pygame.draw.rect(surface, theme.grid_line, rect, 1)
    if tallies is None:
        return
    size = max(10, min(24, cell * 2 // 3))
    for r, tally in enumerate(tallies[0]):
        centre = (x0 + cols * cell + cell // 2, y0 + r * cell + cell // 2)
        fonts.blit_text(surface, "?" if tally is None else str(tally), size, theme.text, center=centre)
    for c, tally in enumerate(tallies[1]):
        centre = (x0 + c * cell + cell // 2, y0 + rows * cell + cell // 2)
        fonts.blit_text(surface, "?" if tally is None else str(tally), size, theme.text, center=centre)
