"""A scrollable list of clickable rows, shared by the level browser, the file dialog, the
replay's steps and the toolbar's action list.

The keyboard reaches every row: Up and Down move a selection (drawn with an outline, not
by a shade alone), Page Up / Page Down and Home / End go further, Enter picks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import pygame

from window import fonts
from window.theme import Theme

ROW_HEIGHT = 30
PAGE_KEYS = {pygame.K_PAGEUP: -1, pygame.K_PAGEDOWN: 1}
MOVE_KEYS = {pygame.K_UP: -1, pygame.K_DOWN: 1}
PICK_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
NOTE_WIDTH = 180               # pixels at most for a row's note; a row without one has its width


@dataclass(frozen=True)
class Row:
    label: str
    value: Any = None              # None: a heading, not clickable
    note: str = ""                 # right-aligned text
    ticked: bool = False           # drawn with a tick glyph (e.g. a solved level)
    error: bool = False


class ListView:
    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows: Sequence[Row] = list(rows)     # or rows made as they are drawn (the replay's steps)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.scroll = 0
        self.hover: int | None = None
        self.selected: int | None = None         # the row the keyboard is on

    def _pickable(self, index: int) -> bool:
        return 0 <= index < len(self.rows) and self.rows[index].value is not None

    def _nearest(self, index: int, step: int) -> int | None:
        """The first pickable row from ``index`` on (itself included) going ``step`` (+1 or -1).
        Rows are read one at a time from where the keyboard is: a list may make its rows as
        they are read (the replay's steps, one file read each), so no key reads them all."""
        index = max(-1, min(len(self.rows), index))
        while 0 <= index < len(self.rows):
            if self.rows[index].value is not None:
                return index
            index += step
        return None

    def select(self, index: int | None) -> None:
        """Select row ``index`` (None: no row) and scroll it into sight."""
        self.selected = index
        if index is None or self.rect.height <= 0:
            return
        top, bottom = index * ROW_HEIGHT, (index + 1) * ROW_HEIGHT
        if top < self.scroll:
            self.scroll = top
        elif bottom > self.scroll + self.rect.height:
            self.scroll = min(self.max_scroll, bottom - self.rect.height)
        # The heading above the first row in sight too (row 0 is read only when it is in sight anyway).
        if bottom <= self.rect.height and index == self._nearest(0, 1):
            self.scroll = 0

    def key(self, event: pygame.event.Event) -> tuple[bool, Any | None]:
        """A key for the list: (taken, the value picked by Enter or None)."""
        at = self.selected if self.selected is not None and self._pickable(self.selected) else None
        if event.key in PICK_KEYS:
            return (True, self.rows[at].value) if at is not None else (False, None)
        first = self._nearest(0, 1)
        if first is None:
            return event.key in MOVE_KEYS or event.key in PAGE_KEYS or event.key in (pygame.K_HOME, pygame.K_END), None
        last = self._nearest(len(self.rows) - 1, -1)
        page = max(1, self.rect.height // ROW_HEIGHT - 1)
        if event.key in MOVE_KEYS and at is None:
            at = first if MOVE_KEYS[event.key] > 0 else last
        elif event.key in MOVE_KEYS or event.key in PAGE_KEYS:
            step = MOVE_KEYS.get(event.key) or PAGE_KEYS[event.key]
            at = first if at is None else at
            for _ in range(1 if event.key in MOVE_KEYS else page):     # pickable rows on, up to the ends
                on = self._nearest(at + step, step)
                if on is None:
                    break
                at = on
        elif event.key == pygame.K_HOME:
            at = first
        elif event.key == pygame.K_END:
            at = last
        else:
            return False, None
        self.select(at)
        return True, None

    @property
    def max_scroll(self) -> int:
        return max(0, len(self.rows) * ROW_HEIGHT - self.rect.height)

    def index_at(self, pos: tuple[int, int]) -> int | None:
        if not self.rect.collidepoint(pos):
            return None
        index = (pos[1] - self.rect.y + self.scroll) // ROW_HEIGHT
        return index if 0 <= index < len(self.rows) else None

    def handle(self, event: pygame.event.Event) -> Any | None:
        """The value of a clicked row, or None."""
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(self.max_scroll, self.scroll - event.y * ROW_HEIGHT * 3))
        elif event.type == pygame.MOUSEMOTION:
            self.hover = self.index_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            index = self.index_at(event.pos)
            if index is not None and self.rows[index].value is not None:
                return self.rows[index].value
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5):
            self.scroll = max(0, min(self.max_scroll, self.scroll + (ROW_HEIGHT * 3 if event.button == 5 else
                                                                       -ROW_HEIGHT * 3)))
        return None

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        pygame.draw.rect(surface, theme.unknown, self.rect)
        pygame.draw.rect(surface, theme.panel_edge, self.rect, 1)
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        first = self.scroll // ROW_HEIGHT
        for index in range(first, min(len(self.rows), first + self.rect.height // ROW_HEIGHT + 2)):
            row = self.rows[index]
            box = pygame.Rect(self.rect.x, self.rect.y + index * ROW_HEIGHT - self.scroll, self.rect.width,
                              ROW_HEIGHT)
            if row.value is None:
                pygame.draw.rect(surface, theme.button, box)
                fonts.blit_text(surface, row.label, 19, theme.text, bold=True, midleft=(box.x + 10, box.centery))
                continue
            if index == self.hover or index == self.selected:
                pygame.draw.rect(surface, theme.button_hover, box)
            if index == self.selected:              # an outline: a shape, not a shade alone
                pygame.draw.rect(surface, theme.cursor, box, 2)
            colour = theme.error if row.error else theme.text
            note = fonts.fit_text(row.note, 16, NOTE_WIDTH) if row.note else ""
            room = box.width - 34 - 10 - (fonts.font(16).size(note)[0] + 16 if note else 0)
            fonts.blit_text(surface, fonts.fit_text(row.label, 18, room), 18, colour,
                            midleft=(box.x + 34, box.centery))
            if row.ticked:
                tick = pygame.Rect(box.x + 10, box.centery - 6, 14, 12)
                pygame.draw.lines(surface, theme.met, False, [(tick.x, tick.centery), (tick.centerx, tick.bottom),
                                                              (tick.right, tick.top)], 3)
            if note:
                fonts.blit_text(surface, note, 16, theme.muted, midright=(box.right - 10, box.centery))
        surface.set_clip(clip)
