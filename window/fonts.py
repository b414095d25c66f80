"""Fonts and rendered text, loaded once and cached (pygame's default font: nothing to ship).

Every label passes ``visible`` before it is drawn: it is cut to ``MAX_SHOWN`` characters (no
line of the window holds more, so a name of any length costs the same) and each control
character (a NUL, an escape, a lone surrogate, a line separator, a bidirectional override)
becomes ``MARK``, a sign the font has, since the font cannot draw them and pygame refuses a
NUL. A pile of combining marks on one letter (each drawn above the last, a line as tall as
the window) keeps its first ``MAX_MARKS``. The text itself is never changed: only its picture.
"""

from __future__ import annotations

import os
import re
import unicodedata
from functools import lru_cache
from typing import Callable, Sequence

import pygame

from window.theme import Colour


def face_file() -> str:
    """The file of the font every view draws with (pygame's default: Latin, Greek and
    Cyrillic letters), so that printed sheets say a name as the window shows it."""
    return os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    face = pygame.font.Font(None, max(SMALLEST_DRAWN, int(size)))
    face.set_bold(bold)
    return face


SMALLEST_DRAWN = 8       # the smallest size a label is drawn at (asked for less, it is drawn at this)
SMALLEST = 14            # the smallest size at which the font's glyphs never run into each other
MAX_SHOWN = 400          # characters: more than the widest window shows on one line
MARK = "\u00a4"          # "¤", drawn for each control character (the font has no U+FFFD)
ELLIPSIS = "..."
MAX_MARKS = 2            # combining marks drawn on one letter (Vietnamese stacks two)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(content: str, limit: int = MAX_SHOWN) -> str:
    """``content`` as it can be drawn: its first ``limit`` characters, control characters
    shown as ``MARK``, at most ``MAX_MARKS`` combining marks on a letter. Costs the same however
    long ``content`` is."""
    shown = _CONTROL.sub(MARK, content[:limit])
    return shown if shown.isascii() else _few_marks(shown)


@lru_cache(maxsize=4096)
def _few_marks(shown: str) -> str:
    """``shown`` with at most ``MAX_MARKS`` combining marks after each letter."""
    kept, run = [], 0
    for char in shown:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        if run <= MAX_MARKS:
            kept.append(char)
    return "".join(kept)


def text(content: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    """A rendered label (at most ``MAX_SHOWN`` characters of ``content``); cached by what is
    drawn because the board redraws the same numbers every frame."""
    return _render(visible(content), int(size), tuple(colour), bool(bold))


@lru_cache(maxsize=4096)
def _render(content: str, size: int, colour: Colour, bold: bool) -> pygame.Surface:
    return font(size, bold).render(content, True, colour)


def blit_text(surface: pygame.Surface, content: str, size: int, colour: Colour, *, bold: bool = False,
              **anchor: tuple[int, int]) -> pygame.Rect:
    """Draw a label placed by one anchor of its rectangle (``center=``, ``topleft=``,
    ``midright=``, ``bottomleft=``, ...; top left at the origin when none is given)."""
    image = text(content, int(size), colour, bold)
    rect = image.get_rect()
    for name, point in anchor.items():
        setattr(rect, name, point)
    surface.blit(image, rect)
    return rect


def fit_text(content: str, size: int, width: int, bold: bool = False) -> str:
    """``content`` shortened with an ellipsis so it fits ``width`` pixels (bold text is
    wider), control characters shown as ``MARK``. Measured once per (text, width, font): the
    text is first cut to ``MAX_SHOWN`` characters, then the cut is found by halving."""
    return _fit(content[:MAX_SHOWN + 1], int(size), int(width), bool(bold))


@lru_cache(maxsize=4096)
def _fit(content: str, size: int, width: int, bold: bool) -> str:
    face = font(size, bold)
    shown = visible(content)
    if len(content) <= MAX_SHOWN and face.size(shown)[0] <= width:
        return shown
    return cut_to(shown, width, lambda part: face.size(part)[0])


def cut_to(text: str, width: float, measure: Callable[[str], float]) -> str:
    """The longest start of ``text`` that, with ``ELLIPSIS`` after it, ``measure``s at most
    ``width`` (the window's labels, the printed titles): found by halving, so text of any
    length costs a few measurements."""
    low, high = 0, len(text)           # text[:low] + ELLIPSIS fits; text[:high + 1] does not
    while low < high:
        middle = (low + high + 1) // 2
        if measure(text[:middle].rstrip() + ELLIPSIS) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def flow(items: Sequence[str], size: int, width: int, gap: str = " ", bold: bool = False,
         most: int | None = None, breaks: str = "") -> list[str]:
    """``items`` in order on as few lines at most ``width`` pixels wide as they fit, ``gap``
    between two on a line. An item wider than a line has lines of its own: with ``breaks``,
    it is broken across them, after one of those characters where it can be (a path after a
    ``/``); without, it has one line, for :func:`fit_text` to cut. With ``most``, no more lines
    than that: the last one holds the rest, unmeasured, for :func:`fit_text` to cut (so any
    number of items costs a few lines' measuring)."""
    face = font(size, bold)
    lines: list[str] = []
    for n, item in enumerate(items):
        if lines and _width(face, lines[-1] + gap + item) <= width:
            lines[-1] += gap + item
        elif most is not None and len(lines) >= most:
            lines[-1] += gap + gap.join(items[n:])
            break
        else:
            room = None if most is None else most - len(lines)
            lines += _broken(item, face, width, breaks, room) if breaks else [item]
    return lines


def _width(face: pygame.font.Font, content: str) -> int:
    """How wide ``content`` is drawn whole, its control characters as ``MARK`` (the font
    cannot measure a lone surrogate)."""
    return face.size(visible(content, len(content)))[0]


def _broken(word: str, face: pygame.font.Font, width: int, breaks: str, most: int | None) -> list[str]:
    """``word`` in pieces at most ``width`` pixels wide (the last may be wider when ``most``
    pieces are used up), each ending after a character of ``breaks`` where one lies in it."""
    pieces: list[str] = []
    # (a glyph is a pixel wide at least: a word of more characters than pixels is not measured)
    while (len(word) > width or _width(face, word) > width) and (most is None or len(pieces) < most - 1):
        low, high = 1, min(len(word) - 1, width)   # word[:low] is one piece at least; word[:high + 1] too wide
        while low < high:
            middle = (low + high + 1) // 2
            if _width(face, word[:middle]) <= width:
                low = middle
            else:
                high = middle - 1
        cut = max((word.rfind(mark, 1, low) + 1 for mark in breaks), default=0) or low
        pieces.append(word[:cut])
        word = word[cut:]
    return pieces + [word]


def wrap(content: str, size: int, width: int, bold: bool = False, most: int | None = None) -> list[str]:
    """``content`` in lines at most ``width`` pixels wide, broken at its spaces (:func:`flow`
    of its words), and a word wider than a line after its ``/``, ``\\`` or ``-`` (a path, a
    file's name), or anywhere."""
    return flow(content.split(" "), size, width, " ", bold, most, breaks="/\\-")


def fill(content: str, size: int, widths: Sequence[int], limit: int = MAX_SHOWN) -> list[str]:
    """``content`` (its first ``limit`` characters) on lines of ``widths`` pixels in turn (a
    first line beside other things, then whole lines), broken as :func:`wrap` breaks it,
    control characters shown as ``MARK``; the last line cut with an ellipsis if the rest does
    not fit. Lines not needed are left out."""
    return list(_fill(content[:limit + 1], int(size), tuple(int(width) for width in widths), limit))


@lru_cache(maxsize=256)
def _fill(content: str, size: int, widths: tuple[int, ...], limit: int) -> tuple[str, ...]:
    rest, lines = visible(content, limit), []
    for width in widths[:-1]:
        if not rest:
            break
        line = wrap(rest, size, width, most=2)[0]
        lines.append(line)
        rest = rest[len(line):].removeprefix(" ")
    if rest:
        face = font(size)
        whole = len(content) <= limit and face.size(rest)[0] <= widths[-1]
        lines.append(rest if whole else cut_to(rest, widths[-1], lambda part: face.size(part)[0]))
    return tuple(lines)


def shrink_to_fit(content: str, size: int, width: int, bold: bool = False, smallest: int = SMALLEST) -> tuple[str, int]:
    """``content`` and a font size for ``width`` pixels: a smaller font first (down to
    ``smallest``), and only then the text cut short (see :func:`fit_text`)."""
    return _shrink(content[:MAX_SHOWN + 1], int(size), int(width), bool(bold), int(smallest))


def first_whole(forms: Sequence[str], size: int, width: int, bold: bool = False) -> tuple[str, int] | None:
    """The first of ``forms`` (a text, then shorter ways of saying it) that fits ``width`` pixels
    whole, drawn smaller if need be (see :func:`shrink_to_fit`), and its font size; None when
    none does."""
    for form in forms:
        text, shrunk = shrink_to_fit(form, size, width, bold)
        if text == form:
            return text, shrunk
    return None


@lru_cache(maxsize=1024)
def _shrink(content: str, size: int, width: int, bold: bool, smallest: int) -> tuple[str, int]:
    shown = visible(content)
    while size > smallest and font(size, bold).size(shown)[0] > width:
        size -= 1
    return fit_text(content, size, width, bold), size


def forget() -> None:
    """Drop cached fonts and labels: they die with pygame.font.quit()."""
    font.cache_clear()
    _render.cache_clear()
    _fit.cache_clear()
    _fill.cache_clear()
    _shrink.cache_clear()
    _few_marks.cache_clear()
