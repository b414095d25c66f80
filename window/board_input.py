"""The player's hands on the board: clicks, drags, tally clicks and the keyboard cursor.

Each gesture becomes moves on the player's session through :class:`PlayerBoard`; what is
kept here is UI state only (the keyboard cursor and a drag in progress), never undone.
"""

from __future__ import annotations

from typing import Callable

import pygame

from game.puzzle import Cell, Coord, cells_between
from game.session import line_cells
from window.layout import Layout
from window.player_board import PlayerBoard

ARROWS = {pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0), pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1)}
KEY_VALUES = {pygame.K_w: Cell.WATER, pygame.K_s: Cell.SHIP, pygame.K_SPACE: Cell.UNKNOWN,
              pygame.K_DELETE: Cell.UNKNOWN, pygame.K_BACKSPACE: Cell.UNKNOWN}
GIVEN = "Given cells cannot be changed"


class BoardInput:
    """Mouse and keys on the board's cells and tallies, turned into session moves."""

    def __init__(self, board: PlayerBoard, notify: Callable[[str], None]) -> None:
        self.board = board
        self.notify = notify
        self.cursor: Coord | None = None       # keyboard cursor
        self.drag: Cell | None = None          # the value a drag paints
        self.drag_last: Coord | None = None

    def handle(self, event: pygame.event.Event, layout: Layout) -> bool:
        """True if the event was for the board."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            cell = layout.cell_at(event.pos)
            if cell is not None:
                self._click_cell(cell, forward=event.button == 1)
                return True
            tally = layout.tally_at(event.pos)
            if tally is not None:
                self._click_tally(*tally)
                return True
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            if not (event.buttons[0] or event.buttons[2]):   # its button-up went elsewhere (an overlay)
                self._end_drag()
                return False
            cell = layout.cell_at(event.pos)
            if cell is not None and cell != self.drag_last:
                # Every cell the drag crossed since the last one reported, in the drag's one step.
                crossed = cells_between(self.drag_last, cell)[1:] if self.drag_last is not None else [cell]
                self.drag_last = cell
                value = self.drag
                self.board.change(lambda s: any([s.paint(r, c, value) for r, c in crossed]))
            return True
        elif event.type == pygame.MOUSEBUTTONUP and self.drag is not None:
            self._end_drag()
            return True
        return False

    def _end_drag(self) -> None:
        self.drag = None
        self.board.session.end_merge()

    def key(self, event: pygame.event.Event) -> bool:
        """Arrows move the cursor; W, S, Space, Delete mark its cell. True if the key was one of those."""
        if event.key in ARROWS:
            dr, dc = ARROWS[event.key]
            r, c = self.cursor or (0, 0)
            if self.cursor is not None:
                puzzle = self.board.session.puzzle
                r = min(puzzle.rows - 1, max(0, r + dr))
                c = min(puzzle.cols - 1, max(0, c + dc))
            self.cursor = (r, c)
            return True
        if event.key in KEY_VALUES and self.cursor is not None:
            cursor, value = self.cursor, KEY_VALUES[event.key]
            if self.board.free():
                if self.board.session.is_hint(*cursor):
                    self.notify(GIVEN)
                else:
                    self.board.change(lambda s: s.set_cell(*cursor, value))
            return True
        return False

    def _click_cell(self, cell: Coord, forward: bool) -> None:
        if not self.board.free():
            return
        session = self.board.session
        if session.is_hint(*cell):
            self.notify(GIVEN)
            return
        # The click's value is what a drag from here paints.
        self.drag = session.cycle(*cell, forward=forward)
        self.drag_last = cell
        self.board.changed()

    def _click_tally(self, axis: str, index: int) -> None:
        if not self.board.free():
            return
        if not self.board.change(lambda s: s.fill_line_with_water(axis, index)):
            self.notify(self._tally_refused(axis, index))

    def _tally_refused(self, axis: str, index: int) -> str:
        """Why a tally click filled nothing: the line named as the status line names lines."""
        session = self.board.session
        line = f"{'Row' if axis == 'row' else 'Column'} {index + 1}"
        tally = session.puzzle.tally(axis, index)
        if tally is None:
            return f"{line} has no ship count: a click on it fills nothing"
        ships = sum(session.grid[r][c] == Cell.SHIP for r, c in line_cells(session.puzzle, axis, index))
        if ships > tally:
            return f"{line} has {ships} ship cell{'s' if ships > 1 else ''}, more than its count of {tally}"
        if ships < tally:
            return f"{line}'s ship count is not met yet ({ships} of {tally})"
        return f"{line} is already complete: no unknown cell left to fill"
