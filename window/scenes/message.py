"""The status line's message whole, wrapped in a dialog (F in the play scene, or a click on the
status line): a hint's reason on a large level is wider than any window's status line."""

from __future__ import annotations

import pygame

from window import fonts
from window.host import Host
from window.widgets import Button, draw_dialog

SIZES = (18, 16, fonts.SMALLEST)     # the message's font: smaller only when the window is too short for it
LINE_GAP = 6                         # pixels between two lines of the message
MOST = 4000                          # characters: far more than any message the app writes


class MessageScene:
    """One message, wrapped to the dialog's width; Esc, Enter or Close closes it."""

    animating = False

    def __init__(self, app: Host, message: str, title: str = "Message") -> None:
        self.app = app
        self.message = message[:MOST]
        self.title = title
        self.close_button = Button("Close", app.close_overlay)
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
        self.close_button.rect = pygame.Rect(box.right - 100, box.y + 10, 90, 32)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_f):
            self.app.close_overlay()
            return
        self.close_button.handle(event)

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme, box = self.app.theme, self.box
        draw_dialog(surface, theme, box, self.title, footer="Esc: close")
        self.close_button.draw(surface, theme)
        step = self.size + LINE_GAP
        for n, line in enumerate(self.lines):
            fonts.blit_text(surface, line, self.size, theme.text, topleft=(box.x + 20, box.y + 58 + n * step))
