"""The formats in circulation: each reader on small hand-written samples, round trips through
every writer, recognition by content, and errors that name the file and the line."""

import dataclasses
import os
from pathlib import Path

import pytest

import main
from game import codes, formats, levels
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_SIDE
from game.puzzle import Hint, Puzzle

ROOT = Path(__file__).resolve().parents[1]

# One 6x6 level written in each format by hand. Its solution:
#   ###...      a cruiser across the top,
#   ......      destroyers down columns 0 and 2 (rows 2-3),
#   #.#..#      submarines at (2,5), (5,0) and (5,3)
#   #.#...
#   ......
#   #..#..
SIX = Puzzle(6, 6, (3, 0, 3, 2, 0, 2), (4, 1, 3, 1, 0, 1), {3: 1, 2: 2, 1: 3},
             {(0, 0): Hint.LEFT, (0, 1): Hint.MIDDLE, (1, 1): Hint.WATER, (2, 2): Hint.TOP, (5, 3): Hint.SUB})

ASSIGNMENT = """303202
413101
321
<M0000
0.0000
00^000
000000
000000
000S00
"""

# the same board as a 10x10 Bimaru file would need the standard fleet: a 10x10 sample instead
BIMARU = "ROW\t3\t4\t1\t4\t0\t2\t0\t1\t4\t1\nCOLUMN\t1\t1\t4\t0\t5\t3\t2\t2\t1\t1\n3\n" \
         "HINT\t0\t9\tC\nHINT\t8\t8\tR\nHINT\t8\t5\tM\n\n\n"

CSPLIB = """Some header text
=====

Board ID: 7
Nodes: 12
Solutions: 3
START-NEW-BOARD       6 6
Hint: 0 0 Left 2
Hint: 1 1 Water 1
PLACESHIP     3 0 0 E
PLACESHIP     2 2 0 S
PLACESHIP     2 2 2 S
PLACESHIP     1 2 5 S
PLACESHIP     1 5 0 S
PLACESHIP     1 5 3 S

Row tallies:      3  0  3  2  0  2
Column tallies:   4  1  3  1  0  1

DisplayBoardASCII: After generating a board

Lmr... 3
.W.... 0
t.t..c 3
b.b... 2
...... 0
c..c.. 2
413101

=====

Board ID: 8
Nodes: 1
Solutions: 1
START-NEW-BOARD       6 6
Hint: 5 3 Circle 9
Row tallies:      3  0  3  2  0  2
Column tallies:   4  1  3  1  0  1
"""

DZN = """% a hand-made board
height = 6; width=6;
maxship = 3;
ship = [3, 2, 1];
hint = [|3, 7, 0, 0, 0, 0
        |0, 1, 0, 0, 0, 0 |0, 0, 5, 0, 0, 0
        |0, 0, 0, 0, 0, 0|0, 0, 0, 0, 0, 0|
         0, 0, 0, 2, 0, 0 |];
rowsum = [3,0,3,2,0,2];
colsum = [4, 1, 3, 1, 0, 1,];
%  1 1 1 . . .
"""


def test_the_assignment_text_reads_as_the_level():
    assert formats.read_assignment(ASSIGNMENT, "six.txt") == SIX


def test_the_dzn_reads_as_the_level_comments_and_layout_aside():
    assert formats.read_dzn(DZN, "six.dzn") == SIX


def test_the_bimaru_text_reads_with_the_standard_fleet():
    puzzle = formats.read_bimaru(BIMARU, "b.txt")
    assert puzzle.shape == (10, 10) and puzzle.fleet == ((4, 1), (3, 2), (2, 3), (1, 4))
    assert puzzle.row_tallies == (3, 4, 1, 4, 0, 2, 0, 1, 4, 1)
    assert dict(puzzle.hints) == {(0, 9): Hint.SUB, (8, 8): Hint.RIGHT, (8, 5): Hint.MIDDLE}


def test_a_csplib_file_yields_every_board_with_the_placed_solution():
    first, second = formats.read_csplib(CSPLIB, "rubin.txt")
    assert first.replace(name=None, solution=None) == SIX.replace(hints={(0, 0): Hint.LEFT, (1, 1): Hint.WATER})
    assert first.name == "Board 7"
    assert first.solution == ("###...", "......", "#.#..#", "#.#...", "......", "#..#..")
    # no PLACESHIP lines: the standard fleet of the size, no solution
    assert second.name == "Board 8" and second.solution is None and second.fleet == SIX.fleet
    assert formats.board_ids([first, second]) == ["7", "8"]


@pytest.mark.parametrize("fmt", ["bs", "assignment", "dzn"])
def test_a_level_goes_through_each_writer_and_back_unchanged(fmt):
    assert formats.read_text(formats.dumps(SIX, fmt), "x", fmt) == [SIX]


def test_bimaru_round_trip():
    puzzle = formats.read_bimaru(BIMARU)
    assert formats.read_bimaru(formats.write_bimaru(puzzle)) == puzzle


def test_bs_to_assignment_to_bs_is_the_same_file_for_the_built_in_levels():
    converted = 0
    for path in sorted((ROOT / "levels").rglob("*.bs")):
        text = path.read_text(encoding="utf-8")
        puzzle = levels.loads(text, str(path))
        try:
            assignment = formats.write_assignment(puzzle)
        except levels.LevelError:
            continue                              # a tally above 9: the assignment text cannot hold it
        back = formats.read_assignment(assignment, "x.txt").replace(
            name=puzzle.name, author=puzzle.author, difficulty=puzzle.difficulty, source=puzzle.source,
            solution=puzzle.solution)
        assert levels.dumps(back) == levels.dumps(puzzle), path
        converted += 1
    assert converted >= 100


@pytest.mark.parametrize("text, fmt", [(ASSIGNMENT, "assignment"), (BIMARU, "bimaru"), (CSPLIB, "csplib"),
                                       (DZN, "dzn"), (levels.dumps(SIX), "bs")])
def test_the_format_is_recognised_from_the_content(text, fmt):
    assert formats.detect(text) == fmt


def test_the_format_can_be_forced():
    with pytest.raises(formats.FormatError, match=r"^b\.txt: line 1: 'R' in column 1 is not a digit"):
        formats.read_text(BIMARU, "b.txt", "assignment")


def _replace_line(text: str, number: int, line: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = line
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fmt, text, line, problem", [
    ("assignment", _replace_line(ASSIGNMENT, 2, "413102"), 2, "col_numbers add up to 11, the fleet has 10"),
    ("assignment", _replace_line(ASSIGNMENT, 2, "41310"), 4, "grid row 0 has 6 cells, the column tallies give 5"),
    ("assignment", _replace_line(ASSIGNMENT, 5, "0.000"), 5, "grid row 1 has 5 cells"),
    ("assignment", _replace_line(ASSIGNMENT, 6, "00^00x"), 6, "'x' in column 6 is not one of"),
    ("assignment", ASSIGNMENT + "000000\n", 10, "a grid row beyond the 6"),
    ("assignment", "\n".join(ASSIGNMENT.splitlines()[:6]), 7, "the grid has 3 rows"),
    ("assignment", _replace_line(ASSIGNMENT, 3, "3a1"), 3, "'a' in column 2 is not a digit"),
    ("assignment", _replace_line(ASSIGNMENT, 1, "9" * 6), 1, "row_numbers[0] is 9 but the line has only 6 cells"),
    ("bimaru", BIMARU.replace("COLUMN", "COLUMNS"), 2, "expected a COLUMN line"),
    ("bimaru", BIMARU.replace("HINT\t8\t8\tR", "HINT\t8\t8\tX"), 5, "hint kind 'X' is not one of"),
    ("bimaru", BIMARU.replace("HINT\t8\t8\tR", "HINT\t8\t10\tR"), 5, "outside the 10x10 board"),
    ("bimaru", BIMARU.replace("HINT\t8\t8\tR", "HINT\t0\t9\tR"), 5, "a second hint for row 0, column 9"),
    ("bimaru", BIMARU.replace("\n3\n", "\n4\n"), 3, "announces 4 hints, the file has 3"),
    ("bimaru", BIMARU.replace("\n3\n", "\n2\n"), 6, "more HINT lines than the 2"),
    ("bimaru", BIMARU.replace("ROW\t3", "ROW\tthree"), 1, "row tally 0 must be a whole number"),
    ("csplib", CSPLIB.replace("Hint: 1 1 Water 1", "Hint: 1 1 Wave 1"), 9, "hint kind 'Wave'"),
    ("csplib", CSPLIB.replace("PLACESHIP     1 5 3 S", "PLACESHIP     1 5 6 S"), 15, "runs off the 6x6 board"),
    ("csplib", CSPLIB.replace("PLACESHIP     1 5 3 S", "PLACESHIP     1 5 0 S"), 15, "overlaps another"),
    ("csplib", CSPLIB.replace("Column tallies:   4  1  3  1  0  1\n\nDisp",
                              "Column tallies:   4  1  3  0  1  1\n\nDisp"), 18, "disagree with the PLACESHIP"),
    ("csplib", CSPLIB.replace("START-NEW-BOARD       6 6\nHint: 5", "START-NEW-BOARD       6 6 6\nHint: 5"),
     35, "START-NEW-BOARD takes"),
    ("csplib", CSPLIB.replace("Nodes: 1\n", "Nodes: 1\nFoo bar\n"), 34, "unrecognised line 'Foo bar'"),
    ("csplib", CSPLIB.replace("Row tallies:      3  0  3  2  0  2\nColumn", "Row tallies:  3 0 3\nColumn"),
     17, "3 row tallies, the board has 6"),
    ("dzn", DZN.replace("ship = [3, 2, 1];", "ship = [3, 2, 1;"), 4, "expected ',' or ']'"),
    ("dzn", DZN.replace("maxship = 3;", "maxship = 4;"), 3, "maxship is 4, ship lists 3"),
    ("dzn", DZN.replace("0, 0, 0, 2, 0, 0", "0, 0, 0, 9, 0, 0"), 5, "hint code 9 at row 5, column 3"),
    ("dzn", DZN.replace("|0, 1, 0, 0, 0, 0 |", "|0, 1, 0, 0, 0 |"), 5, "hint must be a 6x6 table"),
    ("dzn", DZN.replace("rowsum = [3,0,3,2,0,2];", "rowsum = [3,0,3,2,0];"), 9, "rowsum must list 6"),
    ("dzn", DZN.replace("colsum", "colsums"), 12, "no 'colsum = ...;'"),
    ("dzn", DZN.replace("width=6;", "width=6"), 3, "expected ';' after width"),
    ("dzn", DZN.replace("width=6;", "width=6; #"), 2, "cannot read '#'"),
])
def test_each_error_names_the_file_and_the_line(fmt, text, line, problem):
    with pytest.raises(formats.FormatError) as caught:
        formats.read_text(text, "in.txt", fmt)
    message = str(caught.value)
    assert message.startswith(f"in.txt: line {line}: "), message
    assert problem in message
    assert "\n" not in message and caught.value.line == line


def test_the_limits_hold_in_every_format():
    side = MAX_SIDE + 1
    wide = "1" * side + "\n1\n1\n" + "0\n" * side
    with pytest.raises(formats.FormatError, match=f"line 1: {side} row tallies; a board has 1 to {MAX_SIDE}"):
        formats.read_assignment(wide, "x")
    with pytest.raises(formats.FormatError, match=f"line 2: {side} rows"):
        formats.read_dzn(DZN.replace("height = 6", f"height = {side}"), "x")
    long_number = "1" * (MAX_DIGITS + 1)
    with pytest.raises(formats.FormatError, match=f"line 9: .*{MAX_DIGITS + 1} digits"):
        formats.read_dzn(DZN.replace("rowsum = [3", f"rowsum = [{long_number}"), "x")
    with pytest.raises(formats.FormatError, match="line 3: ship counts for 11 lengths; ships are at most 10"):
        formats.read_dzn(DZN.replace("maxship = 3;\nship = [3, 2, 1];", "ship = [3,2,1,0,0,0,0,0,0,0,1];"), "x")
    with pytest.raises(levels.LevelError, match="a level file is at most"):
        formats.read_text(" " * (MAX_FILE_BYTES + 1), "x")


def test_writers_refuse_what_their_format_cannot_hold():
    with pytest.raises(levels.LevelError, match="one digit per tally"):
        formats.write_assignment(Puzzle(1, 12, (10,), (1,) * 10 + (0, 0), {10: 1}))
    with pytest.raises(levels.LevelError, match="unknown shape"):
        formats.write_dzn(SIX.replace(hints={(0, 0): Hint.SHIP}))
    with pytest.raises(levels.LevelError, match="no tally"):
        formats.write_bimaru(formats.read_bimaru(BIMARU).replace(row_tallies=(None,) * 10))
    with pytest.raises(levels.LevelError, match="standard fleet"):
        formats.write_bimaru(SIX.replace(fleet={1: 10}))


def test_load_any_reads_every_format(tmp_path):
    for name, text in (("a.txt", ASSIGNMENT), ("d.dzn", DZN), ("c.txt", CSPLIB), ("s.bs", levels.dumps(SIX))):
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert formats.load_any(tmp_path / name).replace(name=None, solution=None, hints=SIX.hints) == SIX
    with pytest.raises(levels.LevelError, match="no such file"):
        formats.load_any(tmp_path / "missing.txt")


# --------------------------------------------------------------------------- the convert command


def test_convert_bs_to_assignment_and_back(tmp_path, capsys):
    levels.save(SIX, tmp_path / "six.bs")
    assert main.main(["convert", str(tmp_path / "six.bs"), str(tmp_path / "six.txt")]) == 0
    assert (tmp_path / "six.txt").read_text() == ASSIGNMENT
    assert main.main(["convert", str(tmp_path / "six.txt"), str(tmp_path / "back.bs")]) == 0
    assert (tmp_path / "back.bs").read_text() == (tmp_path / "six.bs").read_text()


@pytest.mark.parametrize("to", ["assignment", "bimaru", "dzn"])
def test_convert_says_what_a_format_has_no_place_for(tmp_path, capsys, to):
    named = dataclasses.replace(SIX, name="Harbour", author="Ann", difficulty="easy")
    levels.save(named, tmp_path / "named.bs")
    assert main.main(["convert", str(tmp_path / "named.bs"), str(tmp_path / "out"), "--to", to]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"the {to} format has no place for the level's name, author, difficulty" in err
    back = formats.read(tmp_path / "out", to)[0]
    assert back.name is None and back.rows == SIX.rows    # what the note says is indeed gone, the board is not
    assert main.main(["convert", str(tmp_path / "named.bs"), str(tmp_path / "same.bs")]) == 0
    assert capsys.readouterr().err == ""                  # a .bs file keeps it all: nothing to say
    levels.save(dataclasses.replace(SIX, name=None), tmp_path / "plain.bs")
    assert main.main(["convert", str(tmp_path / "plain.bs"), "-", "--to", to]) == 0
    assert capsys.readouterr().err == ""                  # nothing to lose: no note


def test_convert_a_file_of_several_boards(tmp_path, capsys):
    (tmp_path / "rubin.txt").write_text(CSPLIB)
    assert main.main(["convert", str(tmp_path / "rubin.txt"), str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["7.bs", "8.bs"]
    assert main.main(["convert", str(tmp_path / "rubin.txt"), str(tmp_path / "one") + "/", "--board", "7"]) == 0
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["7.bs"]
    assert main.main(["convert", str(tmp_path / "rubin.txt"), "-", "--board", "8", "--to", "dzn"]) == 0
    assert "height = 6;" in capsys.readouterr().out
    assert main.main(["convert", str(tmp_path / "rubin.txt"), "-", "--board", "9"]) == 2
    assert "no board '9'" in capsys.readouterr().err


def test_a_level_alone_in_its_file_is_the_board_its_folder_file_is_named_after(tmp_path, capsys):
    # Its board id was its name's last word made safe: 'Generated 10x10 easy #10101' listed
    # as '_10101', though converting it into a folder names it '01' after its file.
    level = tmp_path / "01.bs"
    levels.save(dataclasses.replace(SIX, name="Generated 6x6 easy #6101"), level)
    assert main.main(["convert", str(level), "-", "--board", "nine"]) == 2
    assert capsys.readouterr().err.endswith("(boards: 01)\n")
    assert main.main(["convert", str(level), "-", "--board", "01"]) == 0
    assert main.main(["convert", str(level), str(tmp_path / "out") + "/", "--board", "01"]) == 0
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["01.bs"]


def test_convert_to_a_folder_writes_every_board_or_none(tmp_path, capsys):
    (tmp_path / "rubin.txt").write_text(CSPLIB)
    out = tmp_path / "out"
    out.mkdir()
    (out / "7.bs").write_text("an old level\n")
    (out / "8.bs").mkdir()                       # the second board's place cannot be written
    assert main.main(["convert", str(tmp_path / "rubin.txt"), str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"{out / '8.bs'}: cannot be written (is a folder)\n"
    assert (out / "7.bs").read_text() == "an old level\n"
    assert sorted(p.name for p in out.iterdir()) == ["7.bs", "8.bs"]


def test_convert_errors_are_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "bad.txt").write_text(_replace_line(ASSIGNMENT, 6, "00^00x"))
    assert main.main(["convert", str(tmp_path / "bad.txt"), str(tmp_path / "x.bs")]) == 2
    err = capsys.readouterr().err
    assert err == f"{tmp_path / 'bad.txt'}: line 6: 'x' in column 6 is not one of 0 . S < > ^ v M\n"
    (tmp_path / "b.txt").write_text(BIMARU)
    assert main.main(["convert", str(tmp_path / "b.txt"), str(tmp_path / "x.txt"), "--from", "dzn"]) == 2
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'b.txt'}: line 1: ")
    assert main.main(["convert", str(tmp_path / "b.txt"), str(tmp_path / "x.png")]) == 2
    assert "give --to" in capsys.readouterr().err
    assert not (tmp_path / "x.bs").exists()


# --------------------------------------------------------------------------- real files


def _corpus_puzzles(corpus_dir, name: str) -> dict:
    return {ident: puzzle for ident, puzzle in levels.iter_corpus(corpus_dir / name)
            if not isinstance(puzzle, levels.LevelError)}


def test_the_published_csplib_and_minizinc_samples_read_as_the_corpus_has_them(corpus_dir):
    """The raw files beside the corpus, read by these readers, give the corpus's puzzles (the
    corpus was converted independently of this code)."""
    rubin = _corpus_puzzles(corpus_dir, "csplib_prob014_rubin.jsonl")
    boards = formats.read(corpus_dir / "raw" / "csplib-rubin-sample.txt")
    assert len(boards) == 3
    for board in boards:
        expected = rubin[f"rubin-{board.name.split()[-1]}"]
        assert board.replace(name=None) == expected.replace(name=None, source=None)
        assert board.solution == expected.solution
    minizinc = _corpus_puzzles(corpus_dir, "csplib_prob014_minizinc.jsonl")["minizinc-sb_12_12_5_0"]
    assert formats.load_any(corpus_dir / "raw" / "sb_12_12_5_0.dzn") == minizinc.replace(
        name=None, source=None, solution=None)


def test_solve_and_check_read_every_format_the_converter_reads(tmp_path, capsys):
    puzzle = levels.load("levels/6x6/easy/01.bs")
    (tmp_path / "one.txt").write_text(formats.write_assignment(puzzle))
    (tmp_path / "one.dzn").write_text(formats.write_dzn(puzzle))
    assert main.main(["check", str(tmp_path / "one.txt"), str(tmp_path / "one.dzn")]) == 0
    out = capsys.readouterr().out
    assert out.count("unique") == 2


def test_a_bs_file_is_read_as_bs_whatever_it_holds(tmp_path):
    path = tmp_path / "deep.bs"
    path.write_text("[" * 1000 + "]" * 1000)
    with pytest.raises(levels.LevelError, match="nested 1,000 levels deep"):
        formats.read(path)


# --------------------------------------------------------------------------- labels FILE#ID


def _corpus_line(ident: str, puzzle: Puzzle) -> str:
    import json

    kinds = {hint: hint.value for hint in Hint}
    return json.dumps({"id": ident, "rows": puzzle.rows, "cols": puzzle.cols, "fleet": {str(n): c for n, c in
                       puzzle.fleet}, "row_tallies": list(puzzle.row_tallies), "col_tallies": list(puzzle.col_tallies),
                       "hints": [[r, c, kinds[h]] for (r, c), h in puzzle.hints.items()]}) + "\n"


def test_a_label_the_batch_commands_print_names_its_level_wherever_a_level_is_read(tmp_path, capsys):
    """check, solve and code label each level of a file of several FILE#ID; race, convert,
    print (and every command that reads a level) take that label back."""
    corpus = tmp_path / "set.jsonl"
    corpus.write_text(_corpus_line("first", SIX) + "{not json\n" + _corpus_line("third", SIX.replace(hints={})))
    (tmp_path / "rubin.txt").write_text(CSPLIB)
    assert main.main(["check", str(corpus), str(tmp_path / "rubin.txt")]) == 2
    labels = [line.split(": ")[0] for line in capsys.readouterr().out.splitlines()]
    assert labels == [f"{corpus}#first", f"{corpus}:2", f"{corpus}#third", f"{tmp_path}/rubin.txt#7",
                      f"{tmp_path}/rubin.txt#8"]
    assert formats.load_any(f"{corpus}#third") == SIX.replace(hints={}, name="third")
    assert formats.load_any(f"{tmp_path}/rubin.txt#8").name == "Board 8"
    with pytest.raises(levels.LevelError, match="set.jsonl:2: is not valid JSON"):
        formats.load_any(f"{corpus}#line2")
    with pytest.raises(levels.LevelError, match="holds no level 'fourth'"):
        formats.load_any(f"{corpus}#fourth")
    assert main.main(["race", f"{corpus}#first", "--solvers", "forward"]) == 0
    assert main.main(["convert", f"{corpus}#first", str(tmp_path / "first.bs")]) == 0
    assert levels.load(tmp_path / "first.bs") == SIX.replace(name="first")
    capsys.readouterr()
    # an output over the file a label reads is refused as the input it is
    assert main.main(["convert", f"{corpus}#first", str(corpus), "--to", "bs"]) == 2
    assert main.main(["race", f"{corpus}#first", "--solvers", "forward", "--csv", str(corpus)]) == 2
    assert main.main(["solve", f"{corpus}#first", "--trace", str(corpus)]) == 2
    assert capsys.readouterr().err.count("is the input") == 3 and corpus.read_text().count("\n") == 3


def test_a_label_of_a_pipe_or_a_folder_is_refused_as_what_it_is_not_as_no_such_file(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    (tmp_path / "box.jsonl").mkdir()
    with pytest.raises(levels.LevelError, match=r"pipe\.jsonl: is not a regular file \(a pipe"):
        formats.load_any(f"{tmp_path}/pipe.jsonl#first")
    with pytest.raises(levels.LevelError, match=r"box\.jsonl: is a folder, not a level file"):
        formats.load_any(f"{tmp_path}/box.jsonl#first")


def test_convert_reads_a_corpus_file_as_a_file_of_several_boards(tmp_path, capsys):
    corpus = tmp_path / "set.jsonl"
    corpus.write_text(_corpus_line("first", SIX) + "\n" + _corpus_line("second", SIX.replace(hints={})))
    assert main.main(["convert", str(corpus), str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["first.bs", "second.bs"]
    assert main.main(["convert", str(corpus), "-", "--board", "second", "--to", "dzn"]) == 0
    assert "height = 6;" in capsys.readouterr().out
    corpus.write_text(_corpus_line("first", SIX) + "[1]\n")
    assert main.main(["convert", str(corpus), str(tmp_path / "again")]) == 2
    assert capsys.readouterr().err == f"{corpus}:2: a corpus line is a JSON object\n"


def test_convert_names_one_level_in_a_folder_after_its_file_so_two_levels_keep_their_places(tmp_path, capsys):
    """Named after the last word of their names, "My level" and "Another level" both went to
    level.bs, the second over the first."""
    (tmp_path / "a.bs").write_text(levels.dumps(SIX.replace(name="My level")))
    (tmp_path / "b.txt").write_text(ASSIGNMENT)
    corpus = tmp_path / "set.jsonl"
    corpus.write_text(_corpus_line("rubin-7", SIX))
    out = str(tmp_path / "out") + "/"
    for given in ("a.bs", "b.txt", "set.jsonl#rubin-7"):
        assert main.main(["convert", str(tmp_path / given), out]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.bs", "b.bs", "rubin-7.bs"]
    assert levels.load(tmp_path / "out" / "a.bs").name == "My level"
    unnamed = [codes.encode(SIX), codes.encode(SIX.replace(hints={}))]          # both once went to 1.bs
    for code in (*unnamed, unnamed[0].upper()):
        assert main.main(["convert", code, out]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(
        ["a.bs", "b.bs", "rubin-7.bs", *(f"{code}.bs" for code in unnamed)])


def test_a_corpus_of_no_levels_is_said_so_by_every_command(tmp_path, capsys):
    corpus = tmp_path / "none.jsonl"
    corpus.write_text("\n  \n")
    for command in (["convert", str(corpus), str(tmp_path / "x.bs")], ["race", str(corpus)],
                    ["check", str(corpus)], ["code", str(corpus)]):
        assert main.main(command) == 2
        captured = capsys.readouterr()
        assert "holds no levels (a corpus .jsonl is one level a line)" in captured.out + captured.err, command
    assert not (tmp_path / "x.bs").exists()


def test_convert_and_play_read_a_corpus_larger_than_a_level_file_line_by_line(tmp_path, capsys):
    """A corpus .jsonl may hold any number of lines, each within the limits; convert refused
    one of more than 1,000,000 bytes as 'a corpus read whole', and play (the first level) too."""
    import json

    corpus = tmp_path / "big.jsonl"
    lines = [json.loads(_corpus_line(f"b{n}", SIX)) | {"notes": "x" * 400_000} for n in range(3)]
    corpus.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert corpus.stat().st_size > MAX_FILE_BYTES
    assert main.main(["convert", str(corpus), str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["b0.bs", "b1.bs", "b2.bs"]
    assert levels.load(tmp_path / "out" / "b1.bs") == SIX.replace(name="b1")
    assert main.main(["convert", str(corpus), "-", "--board", "b2", "--to", "dzn"]) == 0
    assert "height = 6;" in capsys.readouterr().out
    assert formats.load_any(corpus) == SIX.replace(name="b0")
    corpus.write_text(corpus.read_text() + "[1]\n")         # a bad line still writes nothing
    assert main.main(["convert", str(corpus), str(tmp_path / "again")]) == 2
    assert capsys.readouterr().err == f"{corpus}:4: a corpus line is a JSON object\n"
    assert not (tmp_path / "again").exists()
    unknown = json.loads(_corpus_line("b3", SIX)) | {"row_tallies": [None] + list(SIX.row_tallies[1:])}
    corpus.write_text("".join(json.dumps(line) + "\n" for line in lines + [unknown]))
    assert main.main(["convert", str(corpus), str(tmp_path / "texts" / "out"), "--to", "assignment"]) == 2
    assert capsys.readouterr().err == (f"{tmp_path / 'texts' / 'out'}: cannot be written as assignment text: "
                                       "board b3: row 0 has no tally; the format needs every tally\n")
    assert not (tmp_path / "texts").exists()       # a board the format cannot hold, the last: no file, no folder


def test_a_corpus_named_in_capitals_is_read_a_line_at_a_time_as_any_corpus(tmp_path, capsys):
    """SET.JSONL was read as one file by the batch commands: its one bad line made the whole
    file one error, and one of more than 1,000,000 bytes was refused whole."""
    corpus = tmp_path / "SET.JSONL"
    corpus.write_text(_corpus_line("first", SIX) + "{not json\n" + _corpus_line("third", SIX.replace(hints={})))
    assert main.main(["check", str(corpus)]) == 2
    labels = [line.split(": ")[0] for line in capsys.readouterr().out.splitlines()]
    assert labels == [f"{corpus}#first", f"{corpus}:2", f"{corpus}#third"]


LONG = "A" * 300_000


@pytest.mark.parametrize("fmt, text", [
    ("bimaru", BIMARU.replace("ROW", LONG, 1)),
    ("bimaru", BIMARU.replace("HINT\t8\t8\tR", "HINT\t8\t8\t" + LONG)),
    ("bimaru", BIMARU.replace("HINT\t8\t8\tR", "HINT\t8\t" + LONG + "\tR")),
    ("bimaru", BIMARU.replace("HINT\t8\t8\tR", LONG + "\t8\t8\tR")),
    ("csplib", CSPLIB.replace("Hint: 1 1 Water 1", "Hint: 1 1 " + LONG + " 1")),
    ("csplib", "Board ID: " + LONG + "\n"),
    ("dzn", DZN.replace("ship = [3, 2, 1];", "ship = [3, 2, " + LONG + "];")),
    ("dzn", DZN.replace("ship = [3, 2, 1];", "ship = [3, 2 " + LONG + "];")),
    ("dzn", DZN.replace("hint = [|3, 7", "hint = [|3, " + LONG)),
    ("dzn", DZN.replace("maxship = 3;", LONG + " 3;")),
    ("dzn", DZN.replace("maxship = 3;", "maxship = " + LONG + ";")),
    ("dzn", DZN.replace("maxship = 3;", LONG + " = 3 4;")),
    ("dzn", DZN.replace("maxship = 3;", "maxship = -" + "9" * 300_000 + ";")),
    ("dzn", DZN.replace("height = 6;", "height = 6; " + LONG + " = 1; " + LONG + " = 2;")),
])
def test_an_error_quotes_a_long_piece_of_the_file_cut_short(fmt, text):
    with pytest.raises(formats.FormatError) as caught:
        formats.read_text(text, "in.txt", fmt)
    message = str(caught.value)
    assert message.startswith("in.txt: line ") and len(message) < 200, message[:300]


def test_the_dzn_reader_never_copies_the_rest_of_a_line_at_each_value(monkeypatch):
    # a line of 400,000 numbers within the 1 MB limit took 15 s when each copied what followed it
    copied = 0

    class Counted(str):
        def __getitem__(self, key):
            nonlocal copied
            part = str.__getitem__(self, key)
            copied += len(part)
            return Counted(part)

        def split(self, *args):
            return [Counted(part) for part in str.split(self, *args)]

        def strip(self, *args):
            return Counted(str.strip(self, *args))

        def rstrip(self, *args):
            return Counted(str.rstrip(self, *args))

    lines = formats._lines
    monkeypatch.setattr(formats, "_lines", lambda text: [(number, Counted(line)) for number, line in lines(text)])
    text = DZN.replace("rowsum", "others = [" + "1, " * 10_000 + "1];\nrowsum")
    assert formats.read_dzn(text, "six.dzn") == SIX
    assert copied < len(text)
