"""Fonts and rendered text, loaded once and cached (pygame's default font: nothing to ship)."""

from __future__ import annotations

from functools import lru_cache

import pygame

from window.theme import Colour


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    face = pygame.font.Font(None, max(8, int(size)))
    face.set_bold(bold)
    return face


@lru_cache(maxsize=4096)
def text(content: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    """A rendered label; cached because the board redraws the same numbers every frame."""
    return font(size, bold).render(content, True, colour)


def blit_text(surface: pygame.Surface, content: str, size: int, colour: Colour, *, bold: bool = False,
              **anchor: tuple[int, int]) -> pygame.Rect:
    """Draw a label placed by one anchor of its rectangle (``center=``, ``topleft=``,
    ``midright=``, ``bottomleft=``, ...; top left at the origin when none is given)."""
    image = text(content, int(size), tuple(colour), bold)
    rect = image.get_rect()
    for name, point in anchor.items():
        setattr(rect, name, point)
    surface.blit(image, rect)
    return rect


def fit_text(content: str, size: int, width: int, bold: bool = False) -> str:
    """Shorten ``content`` with an ellipsis so it fits ``width`` pixels (bold text is wider)."""
    face = font(size, bold)
    if face.size(content)[0] <= width:
        return content
    while content and face.size(content + "...")[0] > width:
        content = content[:-1]
    return content + "..."


def forget() -> None:
    """Drop cached fonts and labels: they die with pygame.font.quit()."""
    font.cache_clear()
    text.cache_clear()
