"""Which shape a ship cell is drawn with, worked out from the board (pure, no pygame).

A hint keeps its given shape. Any other ship cell is drawn from its neighbours: a circle when
the cell is a whole submarine, a rounded end where the ship provably stops on one side and
goes on at the other, a square middle where it goes on, and a small rounded square while
nothing is known about its shape yet.
"""

from __future__ import annotations

from typing import Sequence

from game.puzzle import Cell, Hint, Puzzle

SUB, MIDDLE, TOP, BOTTOM, LEFT, RIGHT, UNKNOWN = "sub", "middle", "top", "bottom", "left", "right", "unknown"
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
_HINT_SHAPES = {Hint.SUB: SUB, Hint.MIDDLE: MIDDLE, Hint.TOP: TOP, Hint.BOTTOM: BOTTOM, Hint.LEFT: LEFT,
                Hint.RIGHT: RIGHT}


def _ship(grid: Sequence[Sequence[Cell]], r: int, c: int) -> bool:
    return 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == Cell.SHIP


def _sealed(grid: Sequence[Sequence[Cell]], r: int, c: int) -> bool:
    return not (0 <= r < len(grid) and 0 <= c < len(grid[0])) or grid[r][c] == Cell.WATER


def joins(grid: Sequence[Sequence[Cell]], r: int, c: int) -> frozenset[str]:
    """The sides on which this ship cell touches another ship cell (so the drawing connects)."""
    return frozenset(name for name, (dr, dc) in DIRECTIONS.items() if _ship(grid, r + dr, c + dc))


def piece_shape(puzzle: Puzzle, grid: Sequence[Sequence[Cell]], r: int, c: int) -> str:
    hint = puzzle.hints.get((r, c))
    if hint in _HINT_SHAPES:
        return _HINT_SHAPES[hint]
    sides = joins(grid, r, c)
    vertical = sides & {"up", "down"}
    horizontal = sides & {"left", "right"}
    if vertical and horizontal:
        return UNKNOWN                      # a bent group: the judge flags it, draw no claim
    if len(vertical) == 2 or len(horizontal) == 2:
        return MIDDLE
    if sides == {"down"}:
        return TOP if _sealed(grid, r - 1, c) else MIDDLE
    if sides == {"up"}:
        return BOTTOM if _sealed(grid, r + 1, c) else MIDDLE
    if sides == {"right"}:
        return LEFT if _sealed(grid, r, c - 1) else MIDDLE
    if sides == {"left"}:
        return RIGHT if _sealed(grid, r, c + 1) else MIDDLE
    if all(_sealed(grid, r + dr, c + dc) for dr, dc in DIRECTIONS.values()):
        return SUB
    return UNKNOWN
