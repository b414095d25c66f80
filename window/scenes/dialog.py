"""What the read-only dialogs share (the whole message, the stats): a Close button at the box's
top right, and the keys that close them (Esc, Enter, keypad Enter, and any of a dialog's own);
a click on Close closes it too, and nothing else in such a dialog answers.
"""

from __future__ import annotations

import pygame

from window.host import Host
from window.widgets import Button

CLOSE_KEYS = (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER)


class ReadOnlyDialog:
    """A dialog that shows and asks nothing: its subclasses lay out and draw it."""

    animating = False
    closing_keys: tuple[int, ...] = CLOSE_KEYS

    def __init__(self, app: Host) -> None:
        self.app = app
        self.close_button = Button("Close", app.close_overlay)

    def place_close(self, box: pygame.Rect, width: int) -> None:
        """The Close button, ``width`` pixels wide, in ``box``'s top right corner."""
        self.close_button.rect = pygame.Rect(box.right - width - 10, box.y + 10, width, 32)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in self.closing_keys:
            self.app.close_overlay()
            return
        self.close_button.handle(event)

    def update(self, dt: float) -> bool:
        return False
