"""Drawing only what changed: a view names each of its parts' look by a cheap key (versions,
widget states, texts) and draws a part again only when its key differs from the last one drawn.

The screen keeps the last frame, so the parts left alone cost nothing: no fill, no blit (each
of which lets a solver's thread take the interpreter for a moment).
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable


class Looks:
    """Each part's look when it was last drawn, and how often each part was drawn (tests count)."""

    def __init__(self) -> None:
        self.keys: dict[str, Hashable] = {}
        self.renders: Counter = Counter()

    def changed(self, part: str, key: Hashable) -> bool:
        """Whether ``part`` looks different from when it was last drawn (then it counts as drawn)."""
        if part in self.keys and self.keys[part] == key:
            return False
        self.keys[part] = key
        self.renders[part] += 1
        return True

    def forget(self, *keep: str) -> None:
        """Every part but ``keep`` is to be drawn again (the screen beneath them was painted over)."""
        self.keys = {part: key for part, key in self.keys.items() if part in keep}

    def drop(self, *parts: str) -> None:
        """``parts`` are to be drawn again."""
        for part in parts:
            self.keys.pop(part, None)
