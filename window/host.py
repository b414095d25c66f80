"""What a scene may ask of the window that holds it: the interface scenes are given.

The app implements it; scenes type against it and never import the app, so the app can
import its scenes without a circle.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence, Union

import pygame

from game.puzzle import Puzzle
from window.choices import Choice
from window.storage import Storage
from window.theme import Theme

# The level browser's cache: (path, mtime in ns) -> (name, level key, error, note), across openings.
LevelCache = dict[tuple[str, int], tuple[str, str, str, str]]


class Overlay(Protocol):
    """A scene shown over the play scene: a dialog, the editor, a race, a replay.

    The app also asks an overlay, by name, for what only some have: ``close()``, ``animating``,
    ``covers_window`` and ``draws_changes``.
    """

    @property
    def draw(self) -> Callable[..., list[pygame.Rect] | None]:
        """draw(surface); with ``draws_changes``, draw(surface, full) and the areas it drew (None: all)."""

    def relayout(self, size: tuple[int, int]) -> None: ...

    def handle(self, event: pygame.event.Event) -> None: ...

    def update(self, dt: float) -> bool: ...


class Host(Protocol):
    theme: Theme
    storage: Storage
    level_cache: LevelCache
    new_level_choice: Choice | None     # the New puzzle dialog's last settings

    @property
    def settings(self) -> Mapping[str, Any]: ...

    @property
    def window_size(self) -> tuple[int, int]: ...

    def open_level(self, path: Union[str, Path]) -> bool: ...

    def open_browser(self) -> None: ...

    def open_files(self) -> None: ...

    def pick_solver(self, add: Callable[[str], object], back: Overlay | None = None) -> None:
        """The file picker for a solver of one's own; ``add`` is given its name; ``back`` is
        shown again when the picker is cancelled."""

    def open_new_level(self) -> None: ...

    def pause(self, away: bool = False) -> bool: ...

    def open_editor(self, blank: bool = False) -> None: ...

    def open_race(self, solvers: Sequence[str] | None = None, speed: int | None = None) -> None: ...

    def open_replay(self, path: Union[str, Path]) -> bool: ...

    def open_share(self, typed: str = "") -> None: ...

    def open_daily(self) -> None: ...

    def open_stats(self) -> None: ...

    def play_daily(self, day: datetime.date | None = None) -> bool: ...

    def show(self, overlay: Overlay) -> None: ...

    def close_overlay(self) -> None: ...

    def toggle_theme(self) -> None: ...

    def remember(self, key: str, value: Any) -> None:
        """Keep the player's choice of ``key`` (see ``window.choices``) for this window's next
        scenes and the next windows; a value the choice does not accept is not kept."""

    def toggle_palette(self) -> None: ...

    def notify(self, message: str) -> None:
        """Say something in the status line."""

    def export_sheet(self, puzzle: Puzzle | None = None, stem: str = "",
                     tell: Callable[[str], None] | None = None) -> Path | None:
        """A level as a printable page (Ctrl+P): the one played unless ``puzzle`` is given;
        what came of it said by ``tell`` (the status line unless given)."""
