"""Paused: the play hidden and its clock stopped, until the player comes back.

The window opens it when it is minimized or loses the keyboard while the player's clock runs,
and on the Pause action. It covers the whole window, so a paused board cannot be studied on
the side; a click or a key closes it, and that click or key does nothing else.
"""

from __future__ import annotations

import pygame

from window import fonts
from window.host import Host
from window.records import clock

COMING_BACK = (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN)


class PauseScene:
    animating = False
    covers_window = True               # the board is not drawn while its clock is stopped

    def __init__(self, app: Host, title: str, elapsed: float) -> None:
        self.app = app
        self.title = title
        self.elapsed = elapsed
        self.size = app.window_size

    def relayout(self, size: tuple[int, int]) -> None:
        self.size = size

    def handle(self, event: pygame.event.Event) -> None:
        if event.type in COMING_BACK:
            self.app.close_overlay()

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        width, height = self.size
        surface.fill(theme.background)
        middle = width // 2
        fonts.blit_text(surface, "Paused", 40, theme.text, bold=True, center=(middle, height // 2 - 60))
        fonts.blit_text(surface, fonts.fit_text(self.title, 20, width - 40), 20, theme.muted,
                        center=(middle, height // 2 - 10))
        fonts.blit_text(surface, f"The clock stopped at {clock(self.elapsed)}.", 20, theme.text,
                        center=(middle, height // 2 + 30))
        fonts.blit_text(surface, "Click or press a key to go on.", 20, theme.text, center=(middle, height // 2 + 64))
