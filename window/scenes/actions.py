"""A scene's actions in one table (button, key, how often used), and the overlay listing them.

The play scene's toolbar is such a table: its buttons, their keys and the keys' routing all
come from it. A window too small for every button keeps the most used ones and a "More..."
button; it opens :class:`ActionsScene`, the remaining actions with their keys, which the
keyboard reaches as well as the mouse (M opens it with every action in any window).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pygame

from window.host import Host
from window.list_view import ROW_HEIGHT, ListView, Row
from window.widgets import Button, draw_dialog

CTRL = "Ctrl+"
NAMES = {"Enter": "RETURN", "Esc": "ESCAPE", "Tab": "TAB", ".": "PERIOD", "-": "MINUS", "=": "EQUALS",
         "Pause": "PAUSE"}


@dataclass(frozen=True)
class Action:
    button: Button
    key: str                  # as the player reads it: "N", "Ctrl+O", "Enter"; "" for none
    rank: int                 # a narrow toolbar keeps the lowest ranks (the most used actions)

    @property
    def label(self) -> str:
        return self.button.label

    @property
    def chord(self) -> tuple[int, bool]:
        """The key's code and whether it is held with Ctrl."""
        ctrl = self.key.startswith(CTRL)
        name = self.key.removeprefix(CTRL)
        return getattr(pygame, "K_" + NAMES.get(name, name.lower())), ctrl

    def run(self) -> None:
        self.button.action()        # each action says itself when it has nothing to do


def by_key(actions: Sequence[Action]) -> dict[tuple[int, bool], Action]:
    """The actions by (key code, Ctrl held): the scene's key routing."""
    return {action.chord: action for action in actions if action.key}


def most_used(actions: Sequence[Action], count: int) -> list[Action]:
    """The ``count`` most used actions, in the table's order."""
    kept = {id(action) for action in sorted(actions, key=lambda action: action.rank)[:max(0, count)]}
    return [action for action in actions if id(action) in kept]


class ActionsScene:
    """A small list of actions with their keys: Up/Down and Enter, or a click, runs one."""

    animating = False

    def __init__(self, app: Host, actions: Sequence[Action], title: str = "More") -> None:
        self.app = app
        self.actions = list(actions)
        self.title = title
        self.list = ListView([Row(action.label, index, action.key) for index, action in enumerate(self.actions)])
        self.list.select(0 if self.actions else None)
        self.close_button = Button("Close", app.close_overlay)
        self.relayout(app.window_size)

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        box = self.box = pygame.Rect(0, 0, min(420, width - 40), min(len(self.actions) * ROW_HEIGHT + 96, height - 40))
        box.center = (width // 2, height // 2)
        self.close_button.rect = pygame.Rect(box.right - 100, box.y + 10, 90, 32)
        self.list.rect = pygame.Rect(box.x + 10, box.y + 52, box.width - 20, box.height - 86)
        self.list.select(self.list.selected)

    def handle(self, event: pygame.event.Event) -> None:
        chosen = None
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.close_overlay()
                return
            chosen = self.list.key(event)[1]
        elif not self.close_button.handle(event):
            chosen = self.list.handle(event)
        if chosen is not None:
            self.app.close_overlay()          # first: the action may open an overlay of its own
            self.actions[chosen].run()

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        draw_dialog(surface, theme, self.box, self.title, footer="Up/Down: choose  Enter: do it  Esc: close")
        self.close_button.draw(surface, theme)
        self.list.draw(surface, theme)
