"""Where everything goes for a window size and a board shape (pure arithmetic, no drawing)."""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from window.settings import MIN_WINDOW

TOOLBAR_HEIGHT = 44            # a row of the toolbar
TOOLBAR_ONE_ROW_FROM = 1000    # window width from which the toolbar's buttons fit one row
TOOLBAR_TWO_ROWS_FROM = 560    # window height from which a narrower window has room for two
STATUS_HEIGHT = 30             # the status line: its message, the clock, its buttons
STATUS_LINE = 20               # each further line a narrow window gives the status line's message
STATUS_THREE_LINES_BELOW = 640  # window width below which the message has two further lines (one from 1000)
MARGIN = 12
SMALL_CELL = 8                 # pixels: a cell smaller than this is hard to hit and its tallies to read
PANEL_BELOW_LEAST = 320        # the panel's height below the board (a tall window): its controls and
PANEL_BELOW_MOST = 440         # the statistics' first lines, and no more than they use


@dataclass(frozen=True)
class Layout:
    window: tuple[int, int]
    toolbar: pygame.Rect
    status: pygame.Rect
    panel: pygame.Rect          # fleet, solver, statistics
    board: pygame.Rect          # the cells only
    cell: int                   # cell size in pixels
    rows: int
    cols: int

    @property
    def toolbar_rows(self) -> int:
        return self.toolbar.height // TOOLBAR_HEIGHT

    @property
    def status_lines(self) -> int:
        return 1 + (self.status.height - STATUS_HEIGHT) // STATUS_LINE

    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        return pygame.Rect(self.board.x + col * self.cell, self.board.y + row * self.cell, self.cell, self.cell)

    def row_tally_rect(self, row: int) -> pygame.Rect:
        return row_tally_rect(self.board, self.cell, row)

    def col_tally_rect(self, col: int) -> pygame.Rect:
        return col_tally_rect(self.board, self.cell, col)

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        x, y = pos
        if not self.board.collidepoint(x, y):
            return None
        return (y - self.board.y) // self.cell, (x - self.board.x) // self.cell

    def tally_at(self, pos: tuple[int, int]) -> tuple[str, int] | None:
        x, y = pos
        if self.board.x - self.cell <= x < self.board.x and self.board.y <= y < self.board.bottom:
            return "row", (y - self.board.y) // self.cell
        if self.board.y - self.cell <= y < self.board.y and self.board.x <= x < self.board.right:
            return "col", (x - self.board.x) // self.cell
        return None


# Where a board's tallies go, for every board drawn with them (the play's, the replay's, the
# race's lanes): a band one cell wide left of the cells (the rows') and above them (the columns').
def board_with_tallies(topleft: tuple[int, int], cell: int, rows: int, cols: int) -> pygame.Rect:
    """The cells of a board whose tallies' bands start at ``topleft``: one cell in from it."""
    return pygame.Rect(topleft[0] + cell, topleft[1] + cell, cols * cell, rows * cell)


def row_tally_rect(board: pygame.Rect, cell: int, row: int) -> pygame.Rect:
    """Row tallies sit left of the board."""
    return pygame.Rect(board.x - cell, board.y + row * cell, cell, cell)


def col_tally_rect(board: pygame.Rect, cell: int, col: int) -> pygame.Rect:
    """Column tallies sit above the board."""
    return pygame.Rect(board.x + col * cell, board.y - cell, cell, cell)


def room(window: tuple[int, int]) -> tuple[int, int]:
    """The size a scene lays out for in a window of ``window`` pixels: at least ``MIN_WINDOW``
    (a smaller window shows the top left of that layout; below it boxes and plots would get
    negative sizes)."""
    return max(window[0], MIN_WINDOW[0]), max(window[1], MIN_WINDOW[1])


def status_lines(width: int) -> int:
    """Lines of the status line in a window ``width`` pixels wide: a narrower window gives its
    message lines instead of width, so a solve's record and target, or a hint's sentence, can
    be read whole even at the smallest width."""
    return 1 if width >= TOOLBAR_ONE_ROW_FROM else 2 if width >= STATUS_THREE_LINES_BELOW else 3


def cell_size(area: pygame.Rect, rows: int, cols: int) -> int:
    """The largest square cell for a board of ``rows`` x ``cols`` and its tallies (one extra
    cell each way) in ``area``."""
    return max(1, min(area.width // (cols + 1), area.height // (rows + 1), 110))


def compute_layout(window: tuple[int, int], rows: int, cols: int) -> Layout:
    """The board takes what the panel leaves; cells stay square and as large as fit. The panel
    is beside the board, or below it where that gives larger cells (a tall, narrow window)."""
    width, height = room(window)
    two_rows = width < TOOLBAR_ONE_ROW_FROM and height >= TOOLBAR_TWO_ROWS_FROM
    toolbar = pygame.Rect(0, 0, width, TOOLBAR_HEIGHT * (2 if two_rows else 1))
    status_height = STATUS_HEIGHT + (status_lines(width) - 1) * STATUS_LINE
    status = pygame.Rect(0, height - status_height, width, status_height)
    between = status.top - toolbar.bottom - 2 * MARGIN          # the height below the toolbar
    panel_width = max(260, min(380, int(width * 0.30)))
    panel = pygame.Rect(width - panel_width - MARGIN, toolbar.bottom + MARGIN, panel_width, between)
    area = pygame.Rect(MARGIN, toolbar.bottom + MARGIN, panel.left - 2 * MARGIN, panel.height)
    panel_height = max(PANEL_BELOW_LEAST, min(PANEL_BELOW_MOST, between // 2))
    below = pygame.Rect(MARGIN, status.top - MARGIN - panel_height, width - 2 * MARGIN, panel_height)
    above = pygame.Rect(MARGIN, toolbar.bottom + MARGIN, below.width, below.top - MARGIN - toolbar.bottom - MARGIN)
    if above.height > 0 and cell_size(above, rows, cols) > cell_size(area, rows, cols):
        panel, area = below, above
    # The board stays inside its area at any size: a large board in a small window gets small
    # cells (the play scene says so), never cells that spill over the toolbar, the panel, the
    # status line or off the window.
    cell = cell_size(area, rows, cols)
    total_w, total_h = cell * (cols + 1), cell * (rows + 1)
    board = board_with_tallies((area.x + (area.width - total_w) // 2, area.y + (area.height - total_h) // 2),
                               cell, rows, cols)
    return Layout((width, height), toolbar, status, panel, board, cell, rows, cols)


def dialog_box(window: tuple[int, int]) -> pygame.Rect:
    """The centred box of a full-height overlay (level browser, file dialog)."""
    width, height = window
    box = pygame.Rect(0, 0, min(760, width - 40), height - 80)
    box.center = (width // 2, height // 2)
    return box
