"""The author's pipeline over random puzzles: every way a level is written keeps it, and every
verdict on it is the truth.

Puzzles are drawn at every size from 1x1 to the limits (game/limits.py), with standard and
custom fleets, unknown tallies, given cells of every kind, and every optional key of the
``.bs`` format (name, author, difficulty, source, solution) in any text. What is checked:

- a ``.bs`` level written and read back is the same level;
- each writable format in circulation keeps what it can hold and refuses, in one line, what it
  cannot (``holds`` below states what each format holds, from its description); read back,
  the level is the same but for what ``convert`` says in its note it left out;
- the editor keeps a level opened in it, through a draft kept unsaved, and its share code;
- ``check``'s verdict (impossible, unique, ambiguous), its solution and its redundant hints are
  those of a brute-force count (every placement of the fleet, judged by game/rules.py);
- a generated level has the size, fleet and grade asked for, one solution, and is the same
  level for the same seed in another process;
- a printed level's text stays in its place: the title in its slot, each tally beside its
  line and clear of the next.

The default run is short; ``pytest -m slow`` runs the long campaign and prints how many cases.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from game import codes, editor, formats, levels
from game.limits import MAX_FILE_BYTES
from game.puzzle import DEFAULT_FLEETS, Cell, Grid, Hint, Puzzle, grid_from_strings, grid_to_strings
from game.ships import hint_at
from solvers.authoring import generator, grading
from solvers.engine.verdict import Kind, decide
from tests import brute
from tests.test_codes_model import puzzles
from window import sheets

ROOT = Path(__file__).resolve().parents[1]
CASES: Counter = Counter()
TEXTS = st.one_of(st.none(), st.text(max_size=40), st.text(min_size=200, max_size=600),
                  st.text(st.characters(min_codepoint=0x80, exclude_categories=("Cs",)), max_size=80))


def quick(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


# --------------------------------------------------------------------------- puzzles drawn


@st.composite
def levels_drawn(draw, largest: int = 60) -> Puzzle:
    """A level the reader accepts (tests/test_codes_model.py's puzzles), with every optional
    key of the format: author, difficulty, source in any text, and sometimes a solution."""
    puzzle = draw(puzzles(largest=largest))
    solution = None
    if draw(st.booleans()):
        rng = draw(st.randoms(use_true_random=False))
        solution = ["".join(rng.choice(".#") for _ in range(puzzle.cols)) for _ in range(puzzle.rows)]
    data = {**levels.to_dict(puzzle), "author": draw(TEXTS), "difficulty": draw(TEXTS), "source": draw(TEXTS),
            "solution": solution}
    return levels.from_dict(data, "drawn level")


def said(puzzle: Puzzle) -> Puzzle:
    """The level with empty text as no text: an empty name says nothing to keep."""
    return puzzle.replace(**{key: getattr(puzzle, key) or None for key in levels.TEXT_KEYS})


# --------------------------------------------------------------------------- .bs and the formats


def holds(puzzle: Puzzle, fmt: str) -> bool:
    """Whether ``fmt`` can state the board of ``puzzle`` (docs: FORMATS-IN-CIRCULATION): the text
    formats need every tally and have no symbol for a ship piece of unknown shape; the
    assignment text has one digit per tally and per ship count; Bimaru text holds the square
    sizes with a standard fleet, and that fleet only."""
    if fmt == "bs":
        return True
    tallies = puzzle.row_tallies + puzzle.col_tallies
    if None in tallies or Hint.SHIP in puzzle.hints.values():
        return False
    if fmt == "assignment":
        return max(tallies) <= 9 and max(count for _, count in puzzle.fleet) <= 9
    if fmt == "bimaru":
        return puzzle.rows == puzzle.cols and DEFAULT_FLEETS.get(puzzle.rows) == puzzle.fleet
    return True


def check_formats(puzzle: Puzzle) -> None:
    assert levels.loads(levels.dumps(puzzle), "x.bs") == puzzle
    for fmt in formats.WRITABLE:
        try:
            text = formats.dumps(puzzle, fmt)
        except levels.LevelError as refused:
            assert not holds(puzzle, fmt), f"{fmt} refused a level it can hold: {refused}"
            assert "\n" not in str(refused) and refused.reason
            CASES[f"{fmt} refused"] += 1
            continue
        assert holds(puzzle, fmt), f"{fmt} wrote a level it cannot hold"
        assert formats.detect(text) == fmt                    # recognised by its content
        (back,) = formats.read_text(text, f"x.{fmt}")
        left_out = formats.left_out(puzzle, fmt)
        assert said(back) == said(puzzle).replace(**{key: None for key in left_out})
        CASES[f"{fmt} round trip"] += 1


@quick(120)
@given(levels_drawn())
def test_every_format_keeps_a_level_or_refuses_it_in_one_line(puzzle):
    check_formats(puzzle)


@quick(60)
@given(levels_drawn(largest=12))
def test_every_format_keeps_a_small_level_or_refuses_it_in_one_line(puzzle):
    """Small boards hold one-digit tallies, so the assignment text and Bimaru are met often."""
    check_formats(puzzle)


def near_the_limit() -> str:
    """A 60x60 level of 999,990 bytes written compact: a long name, every cell given."""
    data = {"size": 60, "fleet": {"1": 1}, "board": {f"{r},{c}": "sw" for r in range(60) for c in range(60)},
            "row_numbers": [None] * 60, "col_numbers": [None] * 60}
    data["name"] = "x" * (MAX_FILE_BYTES - len(json.dumps(data, separators=(",", ":"))) - 20)
    return json.dumps(data, separators=(",", ":"))


def test_a_level_near_the_size_limit_is_written_so_that_it_reads_back(tmp_path):
    """The level near the limit loads; written back (``convert x.bs y.bs``, a save) with a hint a
    line it was 1,021,738 bytes, and the reader refused the file the program had just written."""
    (tmp_path / "in.bs").write_text(near_the_limit(), encoding="utf-8")
    assert main.main(["convert", str(tmp_path / "in.bs"), str(tmp_path / "out.bs")]) == 0
    assert levels.load(tmp_path / "out.bs") == levels.load(tmp_path / "in.bs")


# --------------------------------------------------------------------------- the editor and codes


def check_editor(puzzle: Puzzle) -> None:
    """Opened in the editor, kept unsaved (as JSON) and read back: the same level, but for the
    grade and the source, which the editor sets itself when it saves."""
    draft = editor.from_puzzle(puzzle)
    kept = editor.from_dict(json.loads(json.dumps(editor.to_dict(draft))))
    assert kept == draft
    again = kept.puzzle()
    assert again is not None, kept.problems()
    expected = said(puzzle).replace(difficulty=None, source=None)
    if draft.mode is editor.Mode.TRANSCRIBE:                  # a typed level has no board to keep
        expected = expected.replace(solution=None)
    assert again == expected
    assert codes.decode(codes.encode(again, name=True)) == codes.decode(codes.encode(puzzle, name=True))
    CASES[f"editor {draft.mode.value}"] += 1


def test_a_kept_draft_of_a_level_with_a_long_name_comes_back(tmp_path):
    """A level of 600 KB (a name of 200,000 letters of another script) opened in the editor: its
    draft was kept as escaped JSON of 1.2 MB, over the limit a kept draft is read within, so the
    next opening set it aside as damaged and the author's edits were gone. The level near the
    size limit: its draft, the board written out beside it, was 1,014,634 bytes, set aside too."""
    from window.storage import Storage

    storage = Storage(tmp_path)
    for text in (levels.dumps(Puzzle(6, 6, (1,) * 6, (1,) * 6, {1: 6}, name="海" * 200_000)), near_the_limit()):
        draft = editor.set_tally(editor.from_puzzle(levels.loads(text)), "row", 0, None)    # an edit not yet saved
        assert storage.keep_draft("level", draft)
        assert storage.kept_draft("level") == draft and not storage.take_messages()


def test_a_name_cut_to_fit_a_code_is_said_in_one_line(tmp_path, capsys):
    """``code --name`` keeps the first 255 bytes of a name: it cut a longer one without a word."""
    level = Puzzle(1, 3, (1,), (0, 1, 0), {1: 1}, {(0, 1): Hint.SUB})
    levels.save(level.replace(name="Harbour " * 40), tmp_path / "long.bs")
    levels.save(level.replace(name="Harbour"), tmp_path / "short.bs")
    assert main.main(["code", "--name", str(tmp_path / "long.bs"), str(tmp_path / "short.bs")]) == 0
    out, err = capsys.readouterr()
    long_code, short_code = out.split()
    assert codes.decode(long_code).name == ("Harbour " * 40)[:codes.MAX_NAME_BYTES]
    assert codes.decode(short_code).name == "Harbour"
    assert err == f"note: {tmp_path / 'long.bs'}: the code holds the first 255 bytes of the name\n"


def designed(rows: int, cols: int, rng, name: str | None, fleet=None) -> Puzzle:
    """A level drawn as an author designs one: a random layout of ``fleet`` (the board's default
    one when None), its tallies, some of its cells given, the layout as the solution."""
    fleet = generator.checked_request(rows, cols, fleet)
    grid = brute.grid_of(generator.random_layout(rows, cols, fleet, rng), rows, cols)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    given_cells = rng.sample(cells, rng.randint(0, min(len(cells), 40)))
    puzzle = Puzzle(rows, cols, *tallies_of(grid), fleet, {cell: hint_at(grid, cell) for cell in given_cells},
                    name=name, author="A. Uthor", solution=grid_to_strings(grid))
    return levels.from_dict(levels.to_dict(puzzle), "designed")


@quick(60)
@given(levels_drawn())
def test_the_editor_keeps_a_typed_level(puzzle):
    check_editor(puzzle)


def check_designed(rows: int, cols: int, rng, name: str | None) -> None:
    try:
        puzzle = designed(rows, cols, rng, name)
    except generator.GeneratorError:            # the default fleet of a 1x2 board does not fit
        return
    assert editor.from_puzzle(puzzle).mode is editor.Mode.DESIGN
    check_editor(puzzle)


@quick(12)
@given(st.integers(1, 60), st.integers(1, 60), st.randoms(use_true_random=False), TEXTS)
def test_the_editor_keeps_a_designed_level(rows, cols, rng, name):
    check_designed(rows, cols, rng, name)


@st.composite
def laid_out(draw) -> Puzzle | None:
    """A level every format may hold: every tally known, every given cell a piece of known shape
    (a layout's); the standard sizes with their fleet (Bimaru's), or a small board with any fleet."""
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.booleans()):
        rows = cols = draw(st.sampled_from(sorted(DEFAULT_FLEETS)))
        fleet = None
    else:
        rows, cols = draw(st.integers(1, 12)), draw(st.integers(1, 12))
        fleet = draw(FLEETS.map(lambda f: {k: v for k, v in f.items() if k <= max(rows, cols)}))
    try:
        return designed(rows, cols, rng, draw(TEXTS), fleet or None)
    except generator.GeneratorError:            # a fleet that does not fit that board
        return None


def check_laid_out(puzzle: Puzzle | None) -> None:
    if puzzle is not None:
        check_formats(puzzle)


@quick(40)
@given(laid_out())
def test_every_format_keeps_a_level_drawn_from_a_layout(puzzle):
    check_laid_out(puzzle)


# --------------------------------------------------------------------------- check against brute force


def tallies_of(grid: Grid) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (tuple(sum(v == Cell.SHIP for v in row) for row in grid),
            tuple(sum(row[c] == Cell.SHIP for row in grid) for c in range(len(grid[0]))))


FLEETS = st.dictionaries(st.integers(1, 4), st.integers(0, 2), min_size=1, max_size=4)


@st.composite
def small_levels(draw, side: int = 5, dense: bool = False) -> Puzzle:
    """A level of at most ``side`` x ``side``: the tallies and given cells of a layout of its fleet,
    some tallies unknown or changed, some given cells of any kind (so levels of none, one and
    several solutions all come up); ``dense``: most cells given."""
    rng = draw(st.randoms(use_true_random=False))
    rows, cols = draw(st.integers(1, side)), draw(st.integers(1, side))
    fleet = {length: count for length, count in draw(FLEETS).items() if length <= max(rows, cols)}
    boards = brute.layouts(rows, cols, tuple(sorted(fleet.items(), reverse=True))) if any(fleet.values()) else ()
    if not boards:
        fleet = {1: 1}
        boards = brute.layouts(rows, cols, ((1, 1),))
    grid = brute.grid_of(rng.choice(boards), rows, cols)
    lines = [list(t) for t in tallies_of(grid)]
    for line, across in zip(lines, (cols, rows)):
        for index in range(len(line)):
            luck = rng.random()
            line[index] = None if luck < 0.15 else rng.randint(0, across) if luck < 0.2 else line[index]
    hints = {}
    chosen = ([(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.85] if dense else
              [(rng.randrange(rows), rng.randrange(cols)) for _ in range(rng.randint(0, 5))])
    for cell in chosen:
        luck = rng.random()
        ship = grid[cell[0]][cell[1]] == Cell.SHIP
        hints[cell] = (hint_at(grid, cell) if luck < 0.75 else (Hint.SHIP if ship else Hint.WATER) if luck < 0.9
                       else rng.choice(list(Hint)))
    try:
        return levels.from_dict(levels.to_dict(Puzzle(rows, cols, *lines, fleet, hints)), "small level")
    except levels.LevelError:               # more than the fleet holds: the layout's own tallies and pieces
        shown = {cell: hint_at(grid, cell) for cell in hints}
        return levels.from_dict(levels.to_dict(Puzzle(rows, cols, *tallies_of(grid), fleet, shown)), "small level")


def check_verdict(puzzle: Puzzle) -> None:
    truth = brute.solutions(puzzle)
    verdict = decide(puzzle)
    assert verdict.kind is (Kind.IMPOSSIBLE, Kind.UNIQUE, Kind.AMBIGUOUS)[min(len(truth), 2)], levels.dumps(puzzle)
    CASES[f"verdict {verdict.kind.value}"] += 1
    assert all(grid in truth for grid in verdict.solutions)
    if verdict.kind is not Kind.UNIQUE:
        with pytest.raises(grading.GradeError):
            grading.grade(puzzle)
        return
    redundant = grading.redundant_hints(puzzle)
    for cell in puzzle.hints:
        alone = len(brute.solutions(grading.without_hints(puzzle, (cell,)))) == 1
        assert alone == (cell in redundant), (cell, levels.dumps(puzzle))
        CASES["hints judged"] += 1
    assert grading.grade(puzzle) == grading.grade(puzzle, truth[0]) in grading.GRADES


@quick(250)
@given(small_levels())
def test_check_s_verdict_and_redundant_hints_are_those_of_brute_force(puzzle):
    check_verdict(puzzle)


@quick(150)
@given(small_levels(dense=True))
def test_hints_settled_without_a_search_are_redundant_by_brute_force(puzzle):
    truth = brute.solutions(puzzle)
    if truth:                                   # fixed_without speaks of a level that has a solution
        for cell in grading.fixed_without(puzzle):
            assert len(brute.solutions(grading.without_hints(puzzle, (cell,)))) == 1, (cell, levels.dumps(puzzle))
            CASES["hints settled without a search"] += 1
    check_verdict(puzzle)


def test_the_check_command_says_what_brute_force_finds(tmp_path, capsys):
    """The command line's record: status, grade and redundant hints, on one level of each kind."""
    one = Puzzle(2, 3, (1, 1), (1, 0, 1), {1: 2}, {(0, 0): Hint.SUB, (1, 2): Hint.SUB})
    cases = {"one": one, "two": one.replace(hints={}), "none": one.replace(hints={(0, 1): Hint.SUB})}
    for name, puzzle in cases.items():
        levels.save(puzzle, tmp_path / f"{name}.bs")
    assert main.main(["check", "--json", *(str(tmp_path / f"{name}.bs") for name in cases)]) == 0
    records = {Path(r["level"]).stem: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    for name, puzzle in cases.items():
        truth = brute.solutions(puzzle)
        assert records[name]["status"] == (Kind.IMPOSSIBLE, Kind.UNIQUE, Kind.AMBIGUOUS)[min(len(truth), 2)].value
    unique = records["one"]
    assert unique["difficulty"] == grading.grade(one)
    assert unique["redundant_hints"] == [list(cell) for cell in one.hints
                                        if len(brute.solutions(grading.without_hints(one, (cell,)))) == 1]


# --------------------------------------------------------------------------- the generator


@st.composite
def requests(draw, side: int = 7):
    rows, cols = draw(st.integers(1, side)), draw(st.integers(1, side))
    fleet = draw(st.one_of(st.none(), FLEETS.map(lambda f: {k: v for k, v in f.items() if k <= max(rows, cols)})))
    return rows, cols, fleet or None, draw(st.sampled_from([None, *grading.GRADES])), draw(st.integers(0, 10**6))


def check_generated(rows: int, cols: int, fleet, difficulty, seed: int, minimal: bool = False) -> None:
    try:
        wanted = generator.checked_request(rows, cols, fleet)
    except generator.GeneratorError as error:        # refused before any work: the reader's own reason
        assert str(error) and "\n" not in str(error)
        CASES["generator refused"] += 1
        return
    try:
        puzzle = generator.generate(rows, cols, fleet, difficulty, seed=seed, minimal=minimal,
                                    timeout=2 if difficulty else None)
    except generator.GeneratorTimeout:               # no level finished in time (a busy machine): none given
        CASES["generator out of time"] += 1
        return
    except generator.GeneratorOutOfReach as error:   # every first layout came out at one lower grade
        assert difficulty not in (None, "easy") and str(error).startswith(f"no {difficulty} {rows}x{cols} level ")
        assert "\n" not in str(error)
        assert rows * cols > 36 or brute.layouts(rows, cols, wanted)     # the fleet does lie on the board
        CASES["generator grade out of reach"] += 1
        return
    except generator.GeneratorError as error:        # a fleet that cannot be laid at all: said in words
        assert str(error) and "\n" not in str(error)
        assert rows * cols > 36 or not brute.layouts(rows, cols, wanted)
        CASES["generator found no layout"] += 1
        return
    assert puzzle.shape == (rows, cols) and puzzle.fleet == wanted
    assert levels.loads(levels.dumps(puzzle)) == puzzle
    solution = grid_from_strings(puzzle.solution)
    if rows * cols <= 36:
        assert brute.solutions(puzzle) == [solution]
    else:
        assert decide(puzzle).solutions == (solution,)
    assert puzzle.difficulty == grading.grade(puzzle)
    if difficulty and puzzle.difficulty != difficulty:      # the closest found in time: further away none
        CASES["generator closest"] += 1
    if minimal:
        assert grading.redundant_hints(puzzle) == []
    CASES[f"generated {puzzle.difficulty}"] += 1


@quick(10)
@given(requests(), st.booleans())
def test_a_generated_level_is_the_one_asked_for(request, minimal):
    check_generated(*request, minimal=minimal)


def test_a_minimal_level_of_a_grade_has_no_redundant_hint():
    """``generate --difficulty easy --minimal`` kept the hints the grade's pruning kept: two of
    this level's three hints could each go, and ``check`` listed them as redundant."""
    puzzle = generator.generate(7, 5, {4: 1, 3: 2, 2: 2}, "easy", seed=426, minimal=True, timeout=2)
    assert puzzle.difficulty == "easy" == grading.grade(puzzle)
    assert puzzle.hints and grading.redundant_hints(puzzle) == []


def test_a_level_finished_in_the_time_given_is_the_one_given_no_time_limit():
    """The pruning of a level's hints once stopped at the deadline, so the same seed gave a
    level with more hints on a slower machine; then it went on past the deadline (a 30x30 hard
    level took 76 s with --timeout 5). Now a level the time cuts short is dropped: a level
    comes back finished, the same as without a limit, or none comes back."""
    with pytest.raises(generator.GeneratorTimeout):
        generator.generate(10, 10, difficulty="easy", seed=3, timeout=0)
    untimed = generator.generate(10, 10, difficulty="easy", seed=3)
    assert levels.dumps(untimed) == levels.dumps(generator.generate(10, 10, difficulty="easy", seed=3, timeout=60))


def generated_text(args: list[str], hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "generate", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("args", [["--rows", "7", "--cols", "5", "--seed", "12", "--difficulty", "hard"],
                                  ["--rows", "9", "--seed", "3", "--fleet", '{"3": 2, "1": 3}', "--minimal"]])
def test_the_same_seed_gives_the_same_level_in_another_process(args):
    first = generated_text(args, "1")
    assert first == generated_text(args, "4242")
    CASES["processes compared"] += 2


# --------------------------------------------------------------------------- printing


class Measuring:
    """A canvas that keeps each text's box in millimetres, measured in the window's font as
    both real canvases measure it, and each line drawn."""

    def __init__(self) -> None:
        self.texts: list[tuple[float, float, float, float, str]] = []
        self.lines: list[tuple[float, float, float, float]] = []

    def page(self) -> None:
        pass

    def line(self, x1, y1, x2, y2, width, colour=None) -> None:
        self.lines.append((x1, y1, x2, y2))

    def rect(self, *args, **kwargs) -> None:
        pass

    def disc(self, *args, **kwargs) -> None:
        pass

    def text(self, x, y, text, size, align="left", colour=None, width=None) -> None:
        measure = lambda shown: _length(shown, size)  # noqa: E731
        shown = sheets.printable(text) if width is None else sheets.fit(text, width, measure)
        wide = measure(shown)
        left = x - {"left": 0.0, "center": wide / 2, "right": wide}[align]
        height = size * 0.3528                                   # points to millimetres
        self.texts.append((left, y - 0.75 * height, left + wide, y + 0.25 * height, text))


@lru_cache(maxsize=4096)
def _length(text: str, size: float) -> float:
    from PIL import ImageFont

    from window.fonts import face_file

    scale = 20.0                                                 # measured at 20 dots a millimetre
    return ImageFont.truetype(face_file(), size=size * 0.3528 * scale).getlength(text) / scale


def check_printed(puzzle: Puzzle, title: str, per_page: int, solved: bool) -> None:
    grid = None
    if solved:
        grid = grid_from_strings(puzzle.solution) if puzzle.solution else None
    canvas = Measuring()
    sheets.draw_pages([sheets.Item(puzzle, title, grid)], canvas, per_page)
    columns, rows = sheets.arrange(per_page)
    right = sheets.MARGIN + (sheets.PAGE_W - 2 * sheets.MARGIN) / columns
    bottom = sheets.MARGIN + (sheets.PAGE_H - 2 * sheets.MARGIN) / rows
    for left, top, end, base, text in canvas.texts:
        assert sheets.MARGIN <= left and end <= right and sheets.MARGIN <= top and base <= bottom, text
    row_marks = canvas.texts[1:1 + puzzle.rows]
    col_marks = canvas.texts[1 + puzzle.rows:1 + puzzle.rows + puzzle.cols]
    assert [t[4] for t in row_marks + col_marks] == [sheets._tally(t) for t in puzzle.row_tallies + puzzle.col_tallies]
    border = canvas.lines[-(puzzle.rows + 1 + puzzle.cols + 1):]        # the grid's lines come last
    grid_right = max(max(x1, x2) for x1, _, x2, _ in border)
    grid_bottom = max(max(y1, y2) for _, y1, _, y2 in border)
    assert all(mark[0] > grid_right for mark in row_marks)              # beside the grid, not on it
    assert all(mark[1] > grid_bottom for mark in col_marks)
    for before, after in zip(col_marks, col_marks[1:]):                  # clear of the next
        assert before[2] < after[0], (before, after)
    for before, after in zip(row_marks, row_marks[1:]):
        assert before[3] <= after[1] + 1e-9, (before, after)
    CASES["pages measured"] += 1


@quick(40)
@given(levels_drawn(), TEXTS, st.sampled_from(sheets.PER_PAGE), st.booleans())
def test_a_printed_level_s_text_stays_in_its_place(puzzle, title, per_page, solved):
    check_printed(puzzle, title or "", per_page, solved)


@quick(6)
@given(levels_drawn(largest=60), st.sampled_from([".pdf", ".png"]), st.sampled_from(sheets.PER_PAGE))
def test_any_level_prints_to_pdf_and_png(tmp_path_factory, puzzle, suffix, per_page):
    out = tmp_path_factory.mktemp("print") / f"book{suffix}"
    written = sheets.write([sheets.Item(puzzle, sheets.title_of(puzzle, "level"))], out, per_page).pages
    assert written and all(path.read_bytes()[:4] in (b"%PDF", b"\x89PNG") for path in written)


# --------------------------------------------------------------------------- the long campaign

LONG = settings(max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.slow
def test_long_campaign_of_the_author_s_pipeline():
    CASES.clear()
    for test, strategy, examples in (
        (check_formats, levels_drawn(), 4000),
        (check_formats, levels_drawn(largest=12), 4000),
        (check_laid_out, laid_out(), 3000),
        (check_editor, levels_drawn(), 2000),
        (check_verdict, small_levels(side=6), 3000),
    ):
        settings(LONG, max_examples=examples)(given(strategy)(test))()
    settings(LONG, max_examples=300)(given(st.integers(1, 60), st.integers(1, 60), st.randoms(use_true_random=False),
                                           TEXTS)(check_designed))()
    settings(LONG, max_examples=200)(given(requests(side=9), st.booleans())(
        lambda request, minimal: check_generated(*request, minimal=minimal)))()
    settings(LONG, max_examples=500)(given(levels_drawn(), TEXTS, st.sampled_from(sheets.PER_PAGE), st.booleans())(
        lambda puzzle, title, per_page, solved: check_printed(puzzle, title or "", per_page, solved)))()
    print("\ncases:", dict(sorted(CASES.items())), "total", sum(CASES.values()))
    assert sum(CASES.values()) > 10_000
