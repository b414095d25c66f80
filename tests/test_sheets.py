"""Printable sheets: what is drawn where, the files written, and the command's errors."""

import pytest

import main
from game import levels, rules
from game.puzzle import Hint, Puzzle, grid_from_strings
from window import sheets

SOLUTION = ("###...", "......", "#.#..#", "#.#...", "......", "#..#..")
FLEET = ((3, 1), (2, 2), (1, 3))


def puzzle(hints=None) -> Puzzle:
    rows = tuple(line.count("#") for line in SOLUTION)
    cols = tuple(sum(line[c] == "#" for line in SOLUTION) for c in range(6))
    return Puzzle(6, 6, rows, cols, FLEET, hints or {}, name="Sample")


def every_ship_given() -> Puzzle:
    return puzzle({(r, c): Hint.SHIP for r, line in enumerate(SOLUTION) for c, ch in enumerate(line) if ch == "#"})


class Recorder:
    """A canvas that keeps every call, so a test can ask what was drawn."""

    def __init__(self):
        self.pages, self.calls = 0, []

    def page(self):
        self.pages += 1

    def __getattr__(self, name):
        return lambda *args, **kw: self.calls.append((name, args + tuple(kw.values())))

    def of(self, kind):
        return [args for name, args in self.calls if name == kind]

    def filled_rects(self):
        return [args for args in self.of("rect") if args[-1] is not False]


def test_a_blank_puzzle_draws_its_tallies_hints_and_an_empty_checklist():
    p = puzzle({(5, 0): Hint.SUB, (1, 1): Hint.WATER})
    canvas = Recorder()
    assert sheets.draw_pages([sheets.Item(p, "Sample")], canvas, per_page=1) == 1
    texts = [args[2] for args in canvas.of("text")]
    assert texts[0] == "Sample"
    assert sorted(texts[1:]) == sorted(str(t) for t in p.row_tallies + p.col_tallies)
    # one disc for the given submarine, then one ship of each length in the checklist
    assert len(canvas.of("disc")) == 1 + 2 + 2 + 1
    boxes = [args for args in canvas.of("rect") if args[-1] is False]
    assert len(boxes) == sum(count for _, count in FLEET)


def test_a_solution_draws_every_ship_cell_and_no_checklist():
    p = puzzle()
    grid = grid_from_strings(SOLUTION)
    assert rules.judge(p, grid).solved
    canvas = Recorder()
    sheets.draw_pages([sheets.Item(p, "Solution", grid)], canvas, per_page=1)
    shapes = len(canvas.of("disc")) + len(canvas.filled_rects())
    # an end is a disc and a half square; a middle a square; a submarine a disc
    ends, middles, subs = 2 + 2 * 2, 1, 3
    assert shapes == 2 * ends + middles + subs


def test_pages_hold_per_page_puzzles():
    canvas = Recorder()
    items = [sheets.Item(puzzle(), f"#{k}") for k in range(7)]
    assert sheets.draw_pages(items, canvas, per_page=4) == 2 == canvas.pages


def blank(rows: int, cols: int, fleet) -> Puzzle:
    cells = sum(length * count for length, count in fleet)
    row_tallies = [min(cols, cells - cols * r) if cells > cols * r else 0 for r in range(rows)]
    level = Puzzle(rows, cols, row_tallies, (None,) * cols, fleet, name="N" * 300)
    levels.check_consistency(level, "blank")
    return level


@pytest.mark.parametrize("per_page", [1, 2, 4, 6, 9])
@pytest.mark.parametrize("level", [
    blank(1, 1, ((1, 1),)),
    blank(60, 60, tuple((length, 8 if length > 2 else 30) for length in range(10, 0, -1))),
    blank(60, 60, ((10, 8), (9, 6), (1, 30))),
    blank(1, 60, ((10, 2), (3, 8))),
    blank(60, 1, ((1, 30),)),
], ids=["1x1", "60x60-every-length", "60x60-long-ships", "1x60", "60x1"])
def test_nothing_is_drawn_outside_the_puzzle_s_slot(level, per_page):
    canvas = Recorder()
    sheets.draw_pages([sheets.Item(level, level.name)], canvas, per_page=per_page)
    columns, rows = sheets.arrange(per_page)
    right = sheets.MARGIN + (sheets.PAGE_W - 2 * sheets.MARGIN) / columns
    bottom = sheets.MARGIN + (sheets.PAGE_H - 2 * sheets.MARGIN) / rows
    xs, ys = [], []
    for x1, y1, x2, y2, *_ in canvas.of("line"):
        xs += [x1, x2]
        ys += [y1, y2]
    for x, y, w, h, *_ in canvas.of("rect"):
        xs += [x, x + w]
        ys += [y, y + h]
    for cx, cy, r, *_ in canvas.of("disc"):
        xs += [cx - r, cx + r]
        ys += [cy - r, cy + r]
    for x, y, *_ in canvas.of("text"):
        xs.append(x)
        ys.append(y)
    assert sheets.MARGIN <= min(xs) and max(xs) <= right
    assert sheets.MARGIN <= min(ys) and max(ys) <= bottom


def test_pdf_and_png_files(tmp_path):
    items = [sheets.Item(puzzle(), "Sample")] * 3
    (pdf,) = sheets.write(items, tmp_path / "out.pdf", per_page=2).pages
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.read_bytes().count(b"/Type /Page\n") == 2
    pngs = sheets.write(items, tmp_path / "out.png", per_page=2).pages
    assert [p.name for p in pngs] == ["out-1.png", "out-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


def book(count: int) -> list:
    return [sheets.Item(puzzle(), f"#{k}") for k in range(1, count + 1)]


def names(folder) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_a_shorter_print_deletes_the_later_pages_of_the_earlier_one(tmp_path):
    out = tmp_path / "book.png"
    sheets.write(book(5), out, per_page=1)
    printed = sheets.write(book(3), out, per_page=1)
    assert names(tmp_path) == ["book-1.png", "book-2.png", "book-3.png"]
    assert [p.name for p in printed.removed] == ["book-4.png", "book-5.png"] and printed.left == []
    printed = sheets.write(book(1), out, per_page=1)           # one page is the name itself
    assert names(tmp_path) == ["book.png"] and len(printed.removed) == 3
    printed = sheets.write(book(2), out, per_page=1)           # and the one page goes for two
    assert names(tmp_path) == ["book-1.png", "book-2.png"] and printed.removed == [out]


def test_each_png_page_carries_its_mark(tmp_path):
    from PIL import Image

    pages = sheets.write(book(2), tmp_path / "b\u00e9.png", per_page=1).pages
    for k, page in enumerate(pages, start=1):
        with open(page, "rb") as handle:
            assert sheets.read_mark(handle) == f"page {k} of 2 of b\\xc3\\xa9.png"
        with Image.open(page) as image:                         # a text chunk any PNG reader sees
            assert image.info[sheets.PAGE_MARK] == f"page {k} of 2 of b\\xc3\\xa9.png"


def test_what_is_not_provably_a_page_of_the_book_stays(tmp_path):
    import os

    out, other = tmp_path / "book.png", tmp_path / "elsewhere"
    other.mkdir()
    sheets.write(book(2), other / "book.png", per_page=1)      # pages of a book of the same name
    sheets.write(book(3), tmp_path / "album.png", per_page=1)  # and of another book
    sheets.write(book(1), out, per_page=1)
    (tmp_path / "book-1.png").symlink_to(other / "book-1.png")  # a link to a page of ours
    (tmp_path / "book-2.png").write_bytes(b"someone's picture")
    (tmp_path / "album-3.png").rename(tmp_path / "book-3.png")  # ours, but another book's page 3
    (other / "book-2.png").rename(tmp_path / "book-4.png")      # this book's name, but page 2
    os.mkfifo(tmp_path / "book-5.png")                          # not opened: no hang
    (tmp_path / "book-6.png").mkdir()
    (tmp_path / "book-007.png").write_bytes(b"not a page name")
    before = {p.name: (p.is_symlink(), p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()
              if p.name != "book.png"}
    target = (other / "book-1.png").read_bytes()
    printed = sheets.write(book(1), out, per_page=1)
    assert printed.removed == []
    assert {p.name: why for p, why in printed.left} == {
        "book-1.png": "a symbolic link", "book-2.png": "not marked as that page of a book printed under this name",
        "book-3.png": "not marked as that page of a book printed under this name",
        "book-4.png": "not marked as that page of a book printed under this name",
        "book-5.png": "not a regular file", "book-6.png": "not a regular file"}
    assert {p.name: (p.is_symlink(), p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()
            if p.name != "book.png"} == before
    assert (other / "book-1.png").read_bytes() == target       # the link's target untouched


def test_a_failed_print_leaves_the_earlier_pages_as_they_were(tmp_path, monkeypatch):
    out = tmp_path / "book.png"
    sheets.write(book(5), out, per_page=1)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    drawn = sheets.draw_pages

    def failing(items, canvas, per_page):
        if items[0].title == "#3":
            raise OSError(28, "No space left on device")
        return drawn(items, canvas, per_page)
    monkeypatch.setattr(sheets, "draw_pages", failing)
    with pytest.raises(OSError):
        sheets.write(book(3), out, per_page=1)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_hard_linked_page_loses_only_this_book_s_name(tmp_path):
    import os

    out = tmp_path / "book.png"
    sheets.write(book(3), out, per_page=1)
    os.link(tmp_path / "book-3.png", tmp_path / "kept.png")
    kept = (tmp_path / "kept.png").read_bytes()
    sheets.write(book(2), out, per_page=1)
    assert names(tmp_path) == ["book-1.png", "book-2.png", "kept.png"]
    assert (tmp_path / "kept.png").read_bytes() == kept


def test_print_command_says_which_stale_pages_it_left(tmp_path, capsys):
    level = tmp_path / "one.bs"
    levels.save(puzzle(), level)
    out = tmp_path / "book.png"
    assert main.main(["print", str(level), str(level), str(level), "-o", str(out)]) == 0
    (tmp_path / "book-3.png").unlink()
    (tmp_path / "book-3.png").symlink_to(tmp_path / "one.bs")
    capsys.readouterr()
    assert main.main(["print", str(level), "-o", str(out)]) == 0
    said = capsys.readouterr()
    assert said.out == (f"wrote {out}: 1 puzzle; removed {tmp_path / 'book-1.png'}, {tmp_path / 'book-2.png'} "
                        "of the earlier print\n")
    assert said.err == (f"print: left 1 file named as further pages of this book as they were: "
                        f"{tmp_path / 'book-3.png'} (a symbolic link)\n")
    assert (tmp_path / "book-3.png").is_symlink() and names(tmp_path) == ["book-3.png", "book.png", "one.bs"]


@pytest.mark.parametrize("name, printed", [
    ("Морской бой · Ναυμαχία · Größe", "Морской бой · Ναυμαχία · Größe"),   # letters the window's font has
    ("海戦 one", "?? one"),                                                # letters it lacks
    ("tab\there\x00", "tab?here?"),                                       # control characters
])
def test_a_name_prints_as_the_window_s_font_draws_it(name, printed):
    assert sheets.printable(name) == printed


def test_a_name_beyond_latin_1_is_printed_in_the_window_s_font(tmp_path):
    from fontTools.ttLib import TTFont

    from window.fonts import face_file

    title = "Морской бой"
    (pdf,) = sheets.write([sheets.Item(puzzle(), title)], tmp_path / "out.pdf", per_page=1).pages
    assert b"/FontFile2" in pdf.read_bytes()          # the font is embedded, not a standard (Latin-1) one
    with TTFont(face_file(), lazy=True) as face:
        assert all(ord(ch) in face.getBestCmap() for ch in title)


def test_print_command_with_solutions(tmp_path, capsys):
    levels.save(every_ship_given(), tmp_path / "unique.bs")
    assert main.main(["print", str(tmp_path), "-o", str(tmp_path / "book.pdf"), "--solutions"]) == 0
    assert "1 puzzle and its solution" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["-o", "book.txt"], "must end in .pdf or .png"),
    (["--solutions", "-o", "book.pdf"], "has no single solution to print (ambiguous)"),
])
def test_print_command_refuses_with_one_line(tmp_path, capsys, argv, message):
    levels.save(puzzle(), tmp_path / "ambiguous.bs")
    argv = [a if not a.startswith("book") else str(tmp_path / a) for a in argv]
    assert main.main(["print", str(tmp_path / "ambiguous.bs"), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
