"""The search depth over a run (the sawtooth), kept in a fixed number of buckets, and drawn.

A bucket holds the deepest depth of the events it covers and whether a guess or a backtrack
fell in it; when the buckets are full, neighbours merge and each covers twice as many events,
so a run of any length costs the same memory. The live solver panel and the replay timeline
both keep one. Guess moves are also counted per depth (the run's shape: how wide the search
was at each depth).
"""

from __future__ import annotations

from array import array
from collections import Counter

import pygame

from window import fonts
from window.theme import Theme

BUCKETS = 512
GUESS, BACKTRACK = 1, 2


class DepthSketch:
    def __init__(self) -> None:
        self.width = 1                     # events per bucket
        self.count = 0
        self.deepest = array("H")
        self.marks = bytearray()
        self.guesses_at: Counter = Counter()
        self.top = 0

    def add(self, depth: int, mark: int = 0) -> None:
        """One event at ``depth`` (the guesses in force); ``mark``: GUESS, BACKTRACK or 0."""
        depth = min(depth, 65535)
        index = self.count // self.width
        if index >= BUCKETS:
            self._merge()
            index = self.count // self.width
        if index == len(self.deepest):
            self.deepest.append(0)
            self.marks.append(0)
        if depth > self.deepest[index]:
            self.deepest[index] = depth
            self.top = max(self.top, depth)
        self.marks[index] |= mark
        if mark == GUESS:
            self.guesses_at[depth] += 1
        self.count += 1

    def _merge(self) -> None:
        deepest, marks = self.deepest, self.marks
        self.deepest = array("H", (max(deepest[i:i + 2]) for i in range(0, len(deepest), 2)))
        self.marks = bytearray(marks[i] | (marks[i + 1] if i + 1 < len(marks) else 0) for i in range(0, len(marks), 2))
        self.width *= 2


def sawtooth_area(area: pygame.Rect) -> pygame.Rect:
    """Where :func:`draw_depth` draws the sawtooth in ``area``: below the caption and the
    guesses' marks, above the backtracks' marks."""
    return pygame.Rect(area.x + 2, area.y + 18, area.width - 4, area.height - 26)


def draw_depth(surface: pygame.Surface, area: pygame.Rect, sketch: DepthSketch, theme: Theme) -> None:
    """The sawtooth across ``area``: guesses marked above it, backtracks below."""
    pygame.draw.rect(surface, theme.unknown, area)
    pygame.draw.rect(surface, theme.panel_edge, area, 1)
    buckets = len(sketch.deepest)
    caption = f"search depth (max {sketch.top}); guesses above, backtracks below"
    fonts.blit_text(surface, fonts.fit_text(caption, fonts.SMALLEST, area.width - 8), fonts.SMALLEST,
                    theme.muted, topleft=(area.x + 4, area.y + 3))
    if buckets < 2:
        return
    inner = sawtooth_area(area)
    top = max(1, sketch.top)
    step = inner.width / buckets
    points = []
    for i in range(buckets):
        x = inner.x + i * step
        points.append((x, inner.bottom - inner.height * sketch.deepest[i] / top))
        if sketch.marks[i] & GUESS:
            pygame.draw.line(surface, theme.guess, (x, area.y + 14), (x, area.y + 17))
        if sketch.marks[i] & BACKTRACK:
            pygame.draw.line(surface, theme.backtrack, (x, area.bottom - 4), (x, area.bottom - 1))
    pygame.draw.lines(surface, theme.forced, False, points, 1)


def draw_per_depth(surface: pygame.Surface, area: pygame.Rect, sketch: DepthSketch, theme: Theme) -> None:
    """Guess moves per depth, as bars: where the search spent its decisions."""
    pygame.draw.rect(surface, theme.unknown, area)
    pygame.draw.rect(surface, theme.panel_edge, area, 1)
    fonts.blit_text(surface, "guess moves per depth", fonts.SMALLEST, theme.muted, topleft=(area.x + 4, area.y + 3))
    if not sketch.guesses_at:
        return
    deepest = max(sketch.guesses_at)
    most = max(sketch.guesses_at.values())
    inner = area.inflate(-8, -26)
    inner.y = area.y + 18
    width = inner.width / (deepest + 1)
    for depth, count in sketch.guesses_at.items():
        height = max(1, round(inner.height * count / most))
        pygame.draw.rect(surface, theme.guess, (inner.x + depth * width, inner.bottom - height, max(1, width - 1),
                                                height))
    fonts.blit_text(surface, f"depth 1..{deepest}, most {most:,}", fonts.SMALLEST, theme.muted,
                    midright=(area.right - 4, area.y + 10))
