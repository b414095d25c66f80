"""What a scene may ask of the window that holds it: the interface scenes are given.

The app implements it; scenes type against it and never import the app, so the app can
import its scenes without a circle.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Protocol, Union

from window.storage import Storage
from window.theme import Theme


class Host(Protocol):
    theme: Theme
    settings: Mapping[str, Any]
    storage: Storage
    level_cache: dict              # the level browser's (path, mtime) -> summary, across openings
    new_level_choice: Any          # the New puzzle dialog's last settings

    @property
    def window_size(self) -> tuple[int, int]: ...

    def open_level(self, path: Union[str, Path]) -> bool: ...

    def open_browser(self) -> None: ...

    def open_files(self) -> None: ...

    def open_new_level(self) -> None: ...

    def open_editor(self, blank: bool = False) -> None: ...

    def open_race(self, solvers=None) -> None: ...

    def open_share(self, typed: str = "") -> None: ...

    def open_daily(self) -> None: ...

    def open_stats(self) -> None: ...

    def play_daily(self, day=None) -> bool: ...

    def show(self, overlay: Any) -> None: ...

    def close_overlay(self) -> None: ...

    def toggle_theme(self) -> None: ...

    def toggle_palette(self) -> None: ...

    def notify(self, message: str) -> None:
        """Say something in the status line."""
