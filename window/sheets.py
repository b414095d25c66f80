"""Printable sheets: puzzles laid out on A4 pages as puzzle books print them.

Each puzzle gets its title, the grid with its given cells, the tallies (rows on the right,
columns below) and an empty fleet checklist; with solutions, the solved grids follow on the
last pages. The layout is computed once in millimetres and drawn by one of two canvases: PDF
(fpdf2: vector lines and the font embedded, so sheets print sharp at any size) or PNG pages
(Pillow, which fpdf2 already brings). Both write with the window's font
(:func:`window.fonts.face_file`): a name prints as the window shows it, a letter the font
lacks as "?".
"""

from __future__ import annotations

import math
import os
import re
import stat
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol, Sequence

from game import files
from game.puzzle import Cell, Grid, Hint, Puzzle, initial_grid, piece
from game.ships import piece_on_board
from window.fonts import cut_to, face_file

PAGE_W, PAGE_H = 210.0, 297.0          # A4, millimetres
MARGIN = 14.0
PER_PAGE = (1, 2, 4, 6, 9)
INK, GREY, LIGHT = (0, 0, 0), (110, 110, 110), (215, 215, 215)


class Canvas(Protocol):
    def page(self) -> None: ...
    def line(self, x1: float, y1: float, x2: float, y2: float, width: float, colour=INK) -> None: ...
    def rect(self, x: float, y: float, w: float, h: float, colour=INK, filled: bool = True) -> None: ...
    def disc(self, cx: float, cy: float, r: float, colour=INK) -> None: ...
    def text(self, x: float, y: float, text: str, size: float, align: str = "left", colour=INK,
             width: float | None = None) -> None: ...


@dataclass(frozen=True)
class Item:
    """One puzzle to draw: its grid is the solution, or None for the blank puzzle."""

    puzzle: Puzzle
    title: str
    grid: Grid | None = None


def arrange(per_page: int) -> tuple[int, int]:
    """Columns and rows of puzzle slots on a page."""
    cols = 1 if per_page <= 2 else 2 if per_page <= 6 else 3
    return cols, math.ceil(per_page / cols)


def draw_pages(items: Sequence[Item], canvas: Canvas, per_page: int) -> int:
    """Draw the items, ``per_page`` to a page, and return the number of pages."""
    cols, _ = arrange(per_page)
    slot_w, slot_h = slot_size(per_page)
    pages = 0
    for start in range(0, len(items), per_page):
        canvas.page()
        pages += 1
        for k, item in enumerate(items[start:start + per_page]):
            x = MARGIN + (k % cols) * slot_w
            y = MARGIN + (k // cols) * slot_h
            _draw_item(canvas, item, x, y, slot_w, slot_h)
    return pages


PAD = 4.0
LEAST_CELL = 2.5                        # millimetres: the tallies print at 4 points, the least that reads


def _title_size(w: float) -> float:
    return 11.0 if w > 100 else 9.0


def _cell_size(item: Item, w: float, h: float) -> float:
    """The side of a grid cell in a slot ``w`` by ``h`` millimetres: the grid, its tallies (one
    cell wide) and the checklist share the slot under the title."""
    puzzle = item.puzzle
    top = PAD + _title_size(w) * 0.8
    fleet_h = 0.0 if item.grid is not None else _fleet_height(puzzle, w - 2 * PAD)
    return min((w - 2 * PAD) / (puzzle.cols + 1.2), (h - top - PAD - fleet_h) / (puzzle.rows + 1.2), 12.0)


def slot_size(per_page: int) -> tuple[float, float]:
    """The width and height of a puzzle's slot on a page of ``per_page``."""
    cols, rows = arrange(per_page)
    return (PAGE_W - 2 * MARGIN) / cols, (PAGE_H - 2 * MARGIN) / rows


def most_per_page(item: Item) -> int:
    """The most puzzles a page may hold with ``item`` still legible (its cells at least
    ``LEAST_CELL``); 0 when not even a page of its own is enough."""
    return max((n for n in PER_PAGE if _cell_size(item, *slot_size(n)) >= LEAST_CELL), default=0)


def _draw_item(canvas: Canvas, item: Item, x: float, y: float, w: float, h: float) -> None:
    puzzle = item.puzzle
    pad = PAD
    title_size = _title_size(w)
    canvas.text(x + pad, y + pad + title_size * 0.35, item.title, title_size, width=w - 2 * pad)
    top = y + pad + title_size * 0.8
    cell = _cell_size(item, w, h)
    grid = item.grid if item.grid is not None else initial_grid(puzzle)
    _draw_grid(canvas, puzzle, grid, x + pad, top, cell, solved=item.grid is not None)
    if item.grid is None:
        _draw_fleet(canvas, puzzle, x + pad, top + (puzzle.rows + 1.2) * cell + 2.0, w - 2 * pad)


def _draw_grid(canvas: Canvas, puzzle: Puzzle, grid: Grid, x: float, y: float, cell: float, solved: bool) -> None:
    rows, cols = puzzle.rows, puzzle.cols
    for r in range(rows):
        for c in range(cols):
            value = grid[r][c]
            given = puzzle.hints.get((r, c))
            cx, cy = x + c * cell, y + r * cell
            if value == Cell.SHIP:
                shape = piece_on_board(grid, r, c, given) if solved else given
                _draw_piece(canvas, shape or Hint.SHIP, cx, cy, cell, GREY if solved and given is None else INK)
            elif value == Cell.WATER and given is not None:
                _draw_water(canvas, cx, cy, cell)
    thin, thick = max(0.15, cell * 0.02), max(0.4, cell * 0.06)
    for r in range(rows + 1):
        canvas.line(x, y + r * cell, x + cols * cell, y + r * cell, thick if r in (0, rows) else thin)
    for c in range(cols + 1):
        canvas.line(x + c * cell, y, x + c * cell, y + rows * cell, thick if c in (0, cols) else thin)
    size = cell * 1.6                   # points; a cell is in millimetres
    for r, tally in enumerate(puzzle.row_tallies):
        canvas.text(x + (cols + 0.55) * cell, y + (r + 0.5) * cell + size * 0.12, _tally(tally), size, "center")
    for c, tally in enumerate(puzzle.col_tallies):
        canvas.text(x + (c + 0.5) * cell, y + (rows + 0.6) * cell + size * 0.12, _tally(tally), size, "center")


def _tally(value: int | None) -> str:
    return "?" if value is None else str(value)


def _draw_piece(canvas: Canvas, shape: Hint, x: float, y: float, cell: float, colour) -> None:
    """A ship piece inside the cell at (x, y): round where the ship ends, square where it goes on."""
    inset = cell * 0.14
    left, top, size = x + inset, y + inset, cell - 2 * inset
    r, cx, cy = size / 2, x + cell / 2, y + cell / 2
    if shape is Hint.SUB:
        canvas.disc(cx, cy, r, colour)
    elif shape is Hint.SHIP:
        canvas.rect(left + size * 0.2, top + size * 0.2, size * 0.6, size * 0.6, colour)
    elif shape is Hint.MIDDLE:
        canvas.rect(left, top, size, size, colour)
    else:
        canvas.disc(cx, cy, r, colour)
        half = {Hint.TOP: (left, cy, size, r), Hint.BOTTOM: (left, top, size, r),
                Hint.LEFT: (cx, top, r, size), Hint.RIGHT: (left, top, r, size)}[shape]
        canvas.rect(*half, colour)


def _draw_water(canvas: Canvas, x: float, y: float, cell: float) -> None:
    """Two small waves: a given water cell."""
    width = max(0.2, cell * 0.05)
    for row in (0.4, 0.65):
        points = [(x + cell * (0.2 + 0.6 * i / 8), y + cell * row + math.sin(i / 8 * 2 * math.pi) * cell * 0.06)
                  for i in range(9)]
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            canvas.line(x1, y1, x2, y2, width)


FLEET_CELL = 4.0
TICK_BOXES = 8                          # more ships of a length than this: their count instead


def _fleet_columns(puzzle: Puzzle, width: float) -> tuple[int, float]:
    """Columns of the checklist and the width of each (never wider than ``width``)."""
    column_w = FLEET_CELL * (puzzle.longest_ship + 1) + TICK_BOXES * 4.5 + 6.0
    return (2, column_w) if 2 * column_w <= width else (1, min(column_w, width))


def _fleet_height(puzzle: Puzzle, width: float) -> float:
    columns, _ = _fleet_columns(puzzle, width)
    return 2.0 + (FLEET_CELL + 1.5) * math.ceil(len(puzzle.fleet) / columns)


def _draw_fleet(canvas: Canvas, puzzle: Puzzle, x: float, y: float, width: float) -> None:
    """The fleet checklist: each ship drawn small, with an empty box to tick per ship."""
    columns, column_w = _fleet_columns(puzzle, width)
    for k, (length, count) in enumerate(puzzle.fleet):
        lx = x + (k % columns) * column_w
        ly = y + (k // columns) * (FLEET_CELL + 1.5)
        for i in range(length):
            _draw_piece(canvas, piece(length, True, i), lx + i * FLEET_CELL, ly, FLEET_CELL, INK)
        bx = lx + (length + 0.6) * FLEET_CELL
        if count > TICK_BOXES or bx + count * 4.5 > lx + column_w:      # no room for the boxes
            canvas.text(bx, ly + 3.0, f"x {count}", 8)
            continue
        for j in range(count):
            canvas.rect(bx + j * 4.5, ly + 0.6, 3.2, 3.2, GREY, filled=False)


# --------------------------------------------------------------------------- canvases


class PdfCanvas:
    """Draws on an fpdf2 document in millimetres."""

    def __init__(self) -> None:
        from fpdf import FPDF

        self.pdf = FPDF(unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        self.pdf.set_creator("Battleship Solitaire")
        self.pdf.add_font(FACE, fname=face_file())

    def page(self) -> None:
        self.pdf.add_page()

    def line(self, x1, y1, x2, y2, width, colour=INK) -> None:
        self.pdf.set_draw_color(*colour)
        self.pdf.set_line_width(width)
        self.pdf.line(x1, y1, x2, y2)

    def rect(self, x, y, w, h, colour=INK, filled=True) -> None:
        self.pdf.set_draw_color(*colour)
        self.pdf.set_fill_color(*colour)
        self.pdf.set_line_width(0.25)
        self.pdf.rect(x, y, w, h, style="F" if filled else "D")

    def disc(self, cx, cy, r, colour=INK) -> None:
        self.pdf.set_fill_color(*colour)
        self.pdf.ellipse(cx - r, cy - r, 2 * r, 2 * r, style="F")

    def text(self, x, y, text, size, align="left", colour=INK, width=None) -> None:
        self.pdf.set_font(FACE, size=size)
        self.pdf.set_text_color(*colour)
        text = printable(text) if width is None else fit(text, width, self.pdf.get_string_width)
        width = self.pdf.get_string_width(text)
        offset = {"left": 0.0, "center": width / 2, "right": width}[align]
        self.pdf.text(x - offset, y, text)

    def save(self, path: Path) -> None:
        files.write_bytes(path, bytes(self.pdf.output()))


class ImageCanvas:
    """Draws PNG pages with Pillow at ``dpi`` dots per inch."""

    def __init__(self, dpi: int = 150) -> None:
        self.scale = dpi / 25.4
        self.images: list = []

    def page(self) -> None:
        from PIL import Image, ImageDraw

        image = Image.new("RGB", (round(PAGE_W * self.scale), round(PAGE_H * self.scale)), "white")
        self.images.append(image)
        self.draw = ImageDraw.Draw(image)

    def _p(self, value: float) -> float:
        return value * self.scale

    def line(self, x1, y1, x2, y2, width, colour=INK) -> None:
        self.draw.line([(self._p(x1), self._p(y1)), (self._p(x2), self._p(y2))], fill=colour,
                       width=max(1, round(self._p(width))))

    def rect(self, x, y, w, h, colour=INK, filled=True) -> None:
        box = [self._p(x), self._p(y), self._p(x + w), self._p(y + h)]
        if filled:
            self.draw.rectangle(box, fill=colour)
        else:
            self.draw.rectangle(box, outline=colour, width=max(1, round(self._p(0.25))))

    def disc(self, cx, cy, r, colour=INK) -> None:
        self.draw.ellipse([self._p(cx - r), self._p(cy - r), self._p(cx + r), self._p(cy + r)], fill=colour)

    def text(self, x, y, text, size, align="left", colour=INK, width=None) -> None:
        from PIL import ImageFont

        font = ImageFont.truetype(face_file(), size=self._p(size * 0.3528))      # points to millimetres
        text = printable(text) if width is None else fit(text, self._p(width), font.getlength)
        anchor = {"left": "ls", "center": "ms", "right": "rs"}[align]
        self.draw.text((self._p(x), self._p(y)), text, fill=colour, font=font, anchor=anchor)

    def save(self, handle, mark: str | None = None) -> None:
        """The page drawn last, as PNG, into an open binary file; ``mark``: the text of its
        ``PAGE_MARK`` chunk (which page of which book it is)."""
        from PIL.PngImagePlugin import PngInfo

        info = PngInfo()
        if mark is not None:
            info.add_text(PAGE_MARK, mark)
        self.images[-1].save(handle, format="PNG", pnginfo=info)


FACE = "face"                           # the window's font, as the PDF names it


@lru_cache(maxsize=1)
def _letters() -> frozenset[int]:
    """The characters the window's font draws."""
    from fontTools.ttLib import TTFont  # fpdf2 reads its fonts with it

    with TTFont(face_file(), lazy=True) as face:
        return frozenset(face.getBestCmap())


def printable(text: str) -> str:
    """``text`` with each character the font cannot draw (a letter it lacks, a control
    character) as "?"."""
    letters = _letters()
    return "".join(ch if ord(ch) in letters and ch.isprintable() else "?" for ch in text[:MAX_TITLE])


def fit(text: str, width: float, measure) -> str:
    """``text`` (:func:`printable`), cut with an ellipsis to what ``measure``s at most ``width``."""
    text = printable(text)
    return text if measure(text) <= width else cut_to(text, width, measure)


MAX_TITLE = 400                         # characters looked at: far more than a line holds


def page_paths(path: Path, pages: int) -> list[Path]:
    """The files of ``pages`` PNG pages: ``path`` itself for one page, else ``name-1.png``, ..."""
    return [path.with_name(page_name(path, k, pages)) for k in range(1, pages + 1)]


def page_name(path: Path, page: int, pages: int) -> str:
    """The file name of page ``page`` of a print of ``pages`` pages to ``path``."""
    return path.name if pages == 1 else f"{path.stem}-{page}{path.suffix}"


def title_of(puzzle: Puzzle, fallback: str) -> str:
    """The name, then the size and the grade where the name does not already say them."""
    name = puzzle.name or fallback
    words = [name] + [w for w in (f"{puzzle.rows}x{puzzle.cols}", puzzle.difficulty) if w and w not in name]
    return "  ·  ".join(words)


@dataclass(frozen=True)
class Printed:
    """What :func:`write` did: the files written; the pages of an earlier print of the same
    name it deleted; the ones it left, each with why (not provably ours)."""

    pages: list[Path]
    removed: list[Path] = field(default_factory=list)
    left: list[tuple[Path, str]] = field(default_factory=list)


def write(items: Sequence[Item], path: Path, per_page: int) -> Printed:
    """Write the sheets to ``path`` (``.pdf``, or ``.png`` pages) by ``game.files``. PNG pages
    are drawn and written one at a time (memory stays that of one page) and put in place
    together at the end, so a failure leaves none of them and the old pages as they were.
    Each carries its mark (:func:`page_mark`); once all are in place, the pages of an earlier
    print of the same name that the new one does not replace are deleted where they carry
    the mark of that page of this book, and left otherwise (:func:`clear_stale_pages`)."""
    if path.suffix.lower() == ".pdf":
        pdf = PdfCanvas()
        draw_pages(items, pdf, per_page)
        pdf.save(path)
        return Printed([path])
    paths = page_paths(path, max(1, math.ceil(len(items) / per_page)))
    with files.Outputs(len(paths), path) as outputs:
        for k, target in enumerate(paths):
            canvas = ImageCanvas()
            draw_pages(items[k * per_page:(k + 1) * per_page], canvas, per_page)
            canvas.save(outputs.add(target).handle, page_mark(path, k + 1, len(paths)))
    removed, left = clear_stale_pages(path, len(paths))
    return Printed(paths, removed, left)


PAGE_MARK = "Battleships-page"          # the key of the text chunk every PNG page carries


def page_mark(path: Path, page: int, pages: int) -> str:
    """The mark of page ``page`` of ``pages`` of the book printed as ``path``: plain ASCII text
    (a byte of the name that is not ASCII as ``\\xNN``)."""
    return f"page {page} of {pages} of {_book(path)}"


def _book(path: Path) -> str:
    return os.fsencode(path.name).decode("ascii", "backslashreplace")


MARKED = re.compile(r"page ([1-9][0-9]*) of ([1-9][0-9]*) of (.*)", re.DOTALL)


def read_mark(handle) -> str | None:
    """The ``PAGE_MARK`` text of the PNG file open in ``handle``, or None (not a PNG, or none).
    Pillow reads the chunks before the image data on opening; the image is not decoded."""
    from PIL import Image

    try:
        with Image.open(handle, formats=["PNG"]) as image:
            mark = image.info.get(PAGE_MARK)
    except (OSError, ValueError, SyntaxError, struct.error, Image.DecompressionBombError):   # not a PNG of ours
        return None
    return mark if isinstance(mark, str) else None


def stale_pages(path: Path, pages: int) -> list[tuple[Path, int]]:
    """The files an earlier print to ``path`` may have left that a print of ``pages`` pages
    does not replace, each with the page it would be: ``name-K.png`` for K above ``pages``
    (every K when one page is ``path`` itself), and ``path`` itself (page 1 of a one-page
    print) when there are several."""
    folder = path.parent
    pattern = re.compile(re.escape(path.stem) + r"-([1-9][0-9]{0,8})" + re.escape(path.suffix))
    first = pages + 1 if pages > 1 else 1
    found = [(path, 1)] if pages > 1 and os.path.lexists(path) else []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        match = pattern.fullmatch(name)
        if match and int(match[1]) >= first:
            found.append((folder / name, int(match[1])))
    return sorted(found, key=lambda item: item[1])


def clear_stale_pages(path: Path, pages: int) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Delete each of :func:`stale_pages` that is provably a page of this book: a regular file
    (not a symbolic link, a folder or a device) whose mark says it is that page of a book
    printed as ``path``. The others are left, each with why. Returns (deleted, left)."""
    removed: list[Path] = []
    left: list[tuple[Path, str]] = []
    for stale, page in stale_pages(path, pages):
        why = _remove_if_ours(stale, path, page)
        if why:
            left.append((stale, why))
        else:
            removed.append(stale)
    return removed, left


def _remove_if_ours(stale: Path, path: Path, page: int) -> str | None:
    """Delete ``stale`` when it is a regular file marked as page ``page`` of the book printed
    as ``path``, under that page's name; else why it stays."""
    try:
        info = os.lstat(stale)
        if stat.S_ISLNK(info.st_mode):
            return "a symbolic link"
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file"
        fd = os.open(stale, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            marked = MARKED.fullmatch(read_mark(handle) or "")
            opened = os.fstat(handle.fileno())
        if marked is None or marked[3] != _book(path) or int(marked[1]) != page \
                or page_name(path, page, int(marked[2])) != stale.name:
            return "not marked as that page of a book printed under this name"
        now = os.lstat(stale)
        if (now.st_dev, now.st_ino) != (opened.st_dev, opened.st_ino):
            return "replaced while it was read"
        os.unlink(stale)
    except OSError as error:
        return files.reason(error)
    return None
