"""The status line's message whole, wrapped in a dialog (F in the play scene, or a click on the
status line): a hint's reason on a large level is wider than any window's status line."""

from __future__ import annotations

import pygame

from window import fonts
from window.host import Host
from window.scenes.dialog import CLOSE_KEYS, ReadOnlyDialog
from window.widgets import draw_dialog

SIZES = (18, 16, fonts.SMALLEST)     # the message's font: smaller only when the window is too short for it
LINE_GAP = 6                         # pixels between two lines of the message
MOST = 4000                          # characters: far more than any message the app writes


class MessageScene(ReadOnlyDialog):
    """One message, wrapped to the dialog's width; Esc, Enter, F (which opened it) or Close closes it."""

    closing_keys = (*CLOSE_KEYS, pygame.K_f)

    def __init__(self, app: Host, message: str, title: str = "Message") -> None:
        super().__init__(app)
        self.message = message[:MOST]
        self.title = title
        self.relayout(app.window_size)

    def relayout(self, size: tuple[int, int]) -> None:
        """A box as wide as the window allows (up to 760 px) and as tall as the wrapped message."""
        width, height = size
        box = pygame.Rect(0, 0, min(760, width - 40), 0)
        most = height - 40 - 96                       # the title above the message, the footer below it
        for self.size in SIZES:
            self.lines = fonts.wrap(self.message, self.size, box.width - 40)
            if len(self.lines) * (self.size + LINE_GAP) <= most:
                break
        room = max(1, most // (self.size + LINE_GAP))
        if len(self.lines) > room:                    # a window too short even at the smallest size: the rest cut
            self.lines = fonts.fill(self.message, self.size, [box.width - 40] * room, limit=MOST)
        box.height = len(self.lines) * (self.size + LINE_GAP) + 96
        box.center = (width // 2, height // 2)
        self.box = box
        self.place_close(box, 90)

    def draw(self, surface: pygame.Surface) -> None:
        theme, box = self.app.theme, self.box
        draw_dialog(surface, theme, box, self.title, footer="Esc: close")
        self.close_button.draw(surface, theme)
        step = self.size + LINE_GAP
        for n, line in enumerate(self.lines):
            fonts.blit_text(surface, line, self.size, theme.text, topleft=(box.x + 20, box.y + 58 + n * step))
