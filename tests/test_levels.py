"""Level I/O: the original .bs format with its quirks, the extensions, and every bad input."""

import json

import pytest

from game import levels
from game.levels import LevelError
from game.puzzle import DEFAULT_FLEETS, Hint, Puzzle

ORIGINAL = """{
\t"size": 10,
    "board": {
\t\t"1,0": "us",
      "1,4": "ms",
\t"4,4": "ss",
\t"4,7": "ms",
\t"6,2": "ds",
\t"6,6": "us"
\t},
\t"row_numbers": [1,4,1,0,5,1,2,3,1,2],
  "col_numbers": [5,0,2,1,2,2,3,1,1,3]
}"""


def test_original_file_with_tabs_and_odd_indentation_loads(tmp_path):
    path = tmp_path / "level.bs"
    path.write_text(ORIGINAL)  # no trailing newline, as in circulating files
    puzzle = levels.load(path)
    assert (puzzle.rows, puzzle.cols) == (10, 10)
    assert puzzle.fleet == DEFAULT_FLEETS[10]
    assert puzzle.hints[(1, 0)] is Hint.TOP and puzzle.hints[(6, 2)] is Hint.BOTTOM
    assert puzzle.row_tallies[4] == 5 and puzzle.col_tallies == (5, 0, 2, 1, 2, 2, 3, 1, 1, 3)


def test_keys_in_any_order_and_empty_board():
    text = '{"col_numbers": [1,0,1,0,1,0], "board": {}, "row_numbers": [1,0,1,0,1,0], "size": 6}'
    text = text.replace("[1,0,1,0,1,0]", "[3,0,3,0,4,0]")
    puzzle = levels.loads(text, "x.bs")
    assert puzzle.hints == {} and puzzle.fleet == DEFAULT_FLEETS[6]


def test_original_round_trip_writes_only_original_keys():
    puzzle = levels.loads(ORIGINAL, "x.bs")
    data = json.loads(levels.dumps(puzzle))
    assert set(data) == {"size", "board", "row_numbers", "col_numbers"}
    assert levels.loads(levels.dumps(puzzle), "again.bs") == puzzle


def test_extensions_round_trip(tmp_path):
    puzzle = Puzzle(3, 5, (2, None, 1), (1, 0, 1, None, 1), {2: 1, 1: 1},
                    {(0, 0): Hint.SHIP, (2, 4): Hint.WATER}, name="Tiny", author="me",
                    difficulty="easy", source="hand-made", solution=("#...#", "....#", "..#.."))
    path = tmp_path / "ext.bs"
    levels.save(puzzle, path)
    data = json.loads(path.read_text())
    assert data["rows"] == 3 and data["cols"] == 5 and "size" not in data
    assert data["fleet"] == {"2": 1, "1": 1} and data["row_numbers"][1] is None
    assert data["board"]["0,0"] == "xs"
    assert levels.load(path) == puzzle


def test_size_and_rows_must_agree():
    text = ORIGINAL.replace('"size": 10,', '"size": 10, "rows": 9,')
    with pytest.raises(LevelError, match="size is 10 but rows x cols is 9x10"):
        levels.loads(text, "x.bs")


def test_whole_corpus_loads_and_round_trips(corpus_dir):
    count = 0
    for path in sorted(corpus_dir.glob("*.jsonl")):
        for ident, item in levels.iter_corpus(path):
            if isinstance(item, LevelError):
                # the one corpus instance whose tallies cannot add up to its fleet
                assert "add up to" in str(item), str(item)
                continue
            assert levels.loads(levels.dumps(item), ident) == item
            count += 1
    assert count >= 580


BAD = {
    "": "is empty",
    "   \n": "is empty",
    "{nope": "is not valid JSON",
    "[1, 2]": "a level is a JSON object, not list",
    '{"size": 10}': "missing key 'row_numbers'",
    '{"size": "10", "board": {}}': "size must be a whole number",
    '{"size": 0, "board": {}}': "size is 0",
    '{"size": 7, "board": {}, "row_numbers": [0,0,0,0,0,0,0], "col_numbers": [0,0,0,0,0,0,0]}':
        "no default fleet",
}


@pytest.mark.parametrize("text,message", BAD.items())
def test_bad_documents(text, message):
    with pytest.raises(LevelError, match=message) as caught:
        levels.loads(text, "levels/x.bs")
    assert str(caught.value).startswith("levels/x.bs: ")


def _variant(**changes):
    data = json.loads(ORIGINAL)
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("changes,message", [
    ({"row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1]}, "row_numbers has 9 entries, board has 10 rows"),
    ({"col_numbers": "5021223113"}, "col_numbers must be a list"),
    ({"row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1, -2]}, r"row_numbers\[9\] is negative"),
    ({"row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1, 2.5]}, r"row_numbers\[9\] must be a whole number"),
    ({"row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1, 12]}, "only 10 cells"),
    ({"row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1, 3]}, "row_numbers add up to 21, the fleet has 20"),
    ({"board": {"3,12": "us"}}, "hint '3,12' is outside a 10x10 board"),
    ({"board": {"3;1": "us"}}, "hint key '3;1' is not \"row,col\""),
    ({"board": {"3,1": "zz"}}, "hint '3,1' has unknown code 'zz'"),
    ({"board": {"3,1": "us", " 3, 1": "sw"}}, "a second time"),
    ({"board": []}, "board must be an object"),
    ({"fleet": {"4": 1, "x": 2}}, "fleet key 'x' is not a ship length"),
    ({"fleet": {"11": 1}}, "longer than a 10x10 board"),
    ({"fleet": {"1": 40}}, "cannot fit"),
    ({"fleet": {"4": -1}}, "must be a whole number >= 0"),
    ({"name": 5}, "name must be text"),
    ({"solution": ["#"]}, "solution must be a list of 10 row strings"),
    ({"sise": 10}, "unknown key 'sise'"),
])
def test_each_class_of_bad_content(changes, message):
    with pytest.raises(LevelError, match=message):
        levels.loads(_variant(**changes), "levels/x.bs")


def test_unreadable_files_name_the_file(tmp_path):
    missing = tmp_path / "missing.bs"
    with pytest.raises(LevelError, match="missing.bs: no such file"):
        levels.load(missing)
    with pytest.raises(LevelError, match="is a folder"):
        levels.load(tmp_path)
    binary = tmp_path / "latin1.bs"
    binary.write_bytes(b'{"name": "caf\xe9"}')
    with pytest.raises(LevelError, match="latin1.bs: is not UTF-8"):
        levels.load(binary)
    huge = tmp_path / "huge.bs"
    huge.write_text(" " * (levels.MAX_FILE_BYTES + 1))
    with pytest.raises(LevelError, match="a level is at most"):
        levels.load(huge)


def test_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.bs"
    path.write_bytes(b"\xef\xbb\xbf" + ORIGINAL.encode())
    assert levels.load(path).rows == 10


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(LevelError):
        levels.loads("[" * 100_000 + "]" * 100_000, "deep.bs")


def test_corpus_line_errors_are_per_line(tmp_path):
    good = {"id": "a", "rows": 2, "cols": 2, "row_tallies": [1, 0], "col_tallies": [1, 0],
            "fleet": {"1": 1}, "hints": [[0, 0, "sub"]]}
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(good) + "\n{oops\n\n" + json.dumps({**good, "id": "b", "hints": [[5, 5, "sub"]]}))
    items = list(levels.iter_corpus(path))
    assert items[0][0] == "a" and isinstance(items[0][1], Puzzle)
    assert isinstance(items[1][1], LevelError) and ":2" in str(items[1][1])
    assert isinstance(items[2][1], LevelError) and "outside a 2x2 board" in str(items[2][1])


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path):
    puzzle = levels.loads(ORIGINAL, "x.bs")
    levels.save(puzzle, tmp_path / "a.bs")
    levels.save(puzzle, tmp_path / "a.bs")
    assert [p.name for p in tmp_path.iterdir()] == ["a.bs"]
