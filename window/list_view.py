"""A scrollable list of clickable rows, shared by the level browser and the file dialog."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import pygame

from window import fonts
from window.theme import Theme

ROW_HEIGHT = 30
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
        self.rows = list(rows)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.scroll = 0
        self.hover: int | None = None

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
            if index == self.hover:
                pygame.draw.rect(surface, theme.button_hover, box)
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
