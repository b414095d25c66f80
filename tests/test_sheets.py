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
    (pdf,) = sheets.write(items, tmp_path / "out.pdf", per_page=2)
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.read_bytes().count(b"/Type /Page\n") == 2
    pngs = sheets.write(items, tmp_path / "out.png", per_page=2)
    assert [p.name for p in pngs] == ["out-1.png", "out-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


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
    (pdf,) = sheets.write([sheets.Item(puzzle(), title)], tmp_path / "out.pdf", per_page=1)
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
