"""Level I/O: the original .bs format with its quirks, the extensions, and every bad input."""

import json

import pytest

from game import levels
from game.levels import LevelError
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_FLEET_SHIPS, MAX_NESTING, MAX_SIDE
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
        "a 7x7 level must give its fleet",
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
    ({"board": {"3,1": "us", "03,1": "sw"}}, "a second time"),
    ({"board": []}, "board must be an object"),
    ({"fleet": {"4": 1, "x": 2}}, "fleet key 'x' is not a ship length"),
    ({"fleet": {"11": 1}}, "length 11; at most 10 is allowed"),
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
    huge.write_text(" " * (MAX_FILE_BYTES + 1))
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


# --------------------------------------------------------------------------- limits and hostile input

HUGE = "7" * 5000  # beyond Python's int-string limit: int() of it raises ValueError


@pytest.mark.parametrize("text", [
    ORIGINAL.replace('"size": 10', f'"size": {HUGE}'),
    ORIGINAL.replace("[1,4,1,0,5,1,2,3,1,2]", f"[1,4,1,0,5,1,2,3,1,{HUGE}]"),
    ORIGINAL.replace('"1,0": "us"', f'"1,{HUGE}": "us"'),
    ORIGINAL.replace('"size": 10,', f'"size": 10, "fleet": {{"4": {HUGE}}},'),
    ORIGINAL.replace('"size": 10,', f'"size": 10, "fleet": {{"{HUGE}": 1}},'),
    ORIGINAL.replace('"size": 10', '"size": 1' + "0" * MAX_DIGITS),
])
def test_a_number_with_thousands_of_digits_is_a_level_error(text):
    with pytest.raises(LevelError) as caught:
        levels.loads(text, "levels/huge.bs")
    assert str(caught.value).startswith("levels/huge.bs: ") and len(str(caught.value)) < 200


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "0." + "1" * 50])
def test_non_finite_and_overlong_floats_are_refused(number):
    with pytest.raises(LevelError, match="number|JSON allows"):
        levels.loads(ORIGINAL.replace('"size": 10,', f'"size": 10, "name": {number},'), "x.bs")


def test_nesting_is_measured_before_decoding():
    assert levels.nesting_depth('{"a": ["[[[[", {"b": "]]}}"}]}') == 3
    deep = "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
    text = ORIGINAL.replace('"size": 10,', f'"size": 10, "name": {deep},')
    with pytest.raises(LevelError, match=f"nested {MAX_NESTING + 2} levels deep"):
        levels.loads(text, "x.bs")


def test_a_key_given_twice_is_refused_by_name():
    text = ORIGINAL.replace('"1,4": "ms",', '"1,4": "ms", "1,4": "sw",')
    with pytest.raises(LevelError, match="key '1,4' is given twice"):
        levels.loads(text, "x.bs")
    with pytest.raises(LevelError, match="key 'size' is given twice"):
        levels.loads(ORIGINAL.replace('"size": 10,', '"size": 10, "size": 10,'), "x.bs")


@pytest.mark.parametrize("key", ["+0,+4", " 1,2", "1,2 ", "\u0661,\u0662", "1_0,2", "1,2\\n", "-0,1"])
def test_hint_keys_are_ascii_digits_only(key):
    text = ORIGINAL.replace('"1,4": "ms"', f'"{key}": "ms"')
    with pytest.raises(LevelError, match="hint key .* is not \"row,col\""):
        levels.loads(text, "x.bs")


@pytest.mark.parametrize("key", ["+4", " 4", "\u0664", "4_0", "4.0"])
def test_fleet_keys_are_ascii_digits_only(key):
    with pytest.raises(LevelError, match="fleet key .* is not a ship length"):
        levels.loads(_variant(fleet={json.loads(f'"{key}"'): 1}), "x.bs")


def _empty_level(rows, cols, fleet):
    return json.dumps({"rows": rows, "cols": cols, "fleet": fleet, "board": {},
                       "row_numbers": [None] * rows, "col_numbers": [None] * cols})


def test_the_documented_limits_are_enforced_with_clear_messages():
    assert levels.loads(_empty_level(MAX_SIDE, MAX_SIDE, {"1": 1}), "x.bs").rows == MAX_SIDE
    with pytest.raises(LevelError, match=f"rows is {MAX_SIDE + 1}; it must be between 1 and {MAX_SIDE}"):
        levels.loads(_empty_level(MAX_SIDE + 1, 5, {"1": 1}), "x.bs")
    with pytest.raises(LevelError, match=f"fleet has {MAX_FLEET_SHIPS + 1} ships; at most {MAX_FLEET_SHIPS}"):
        levels.loads(_empty_level(MAX_SIDE, MAX_SIDE, {"1": MAX_FLEET_SHIPS + 1}), "x.bs")
    with pytest.raises(LevelError, match="longer than a 3x5 board"):
        levels.loads(_empty_level(3, 5, {"6": 1}), "x.bs")


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    import os
    import threading

    fifo = tmp_path / "pipe.bs"
    os.mkfifo(fifo)
    outcome = []

    def load():
        try:
            levels.load(fifo)
        except LevelError as error:
            outcome.append(str(error))

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(30)  # a guard against a hang, not a measurement: the refusal is immediate
    assert outcome and "pipe.bs: is not a regular file" in outcome[0]


def test_a_link_to_a_device_is_refused(tmp_path):
    link = tmp_path / "zero.bs"
    link.symlink_to("/dev/null")  # /dev/zero is the same class: a character device
    with pytest.raises(LevelError, match="zero.bs: is not a regular file"):
        levels.load(link)
    corpus = tmp_path / "zero.jsonl"
    corpus.symlink_to("/dev/null")
    with pytest.raises(LevelError, match="zero.jsonl: is not a regular file"):
        list(levels.iter_corpus(corpus))


def test_huge_python_ints_from_a_caller_are_level_errors_too():
    data = json.loads(ORIGINAL)
    for changes in ({"size": 10 ** 5000}, {"row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1, 10 ** 5000]},
                    {"fleet": {"1": 10 ** 5000}}):
        with pytest.raises(LevelError, match="bit number"):
            levels.from_dict({**data, **changes}, "x.bs")


def test_a_name_the_system_cannot_take_is_a_level_error():
    with pytest.raises(LevelError, match="cannot be read"):
        levels.load("bad\0name.bs")


def test_a_file_is_read_with_a_bounded_read(tmp_path):
    path = tmp_path / "big.bs"
    path.write_bytes(b" " * 11)
    with pytest.raises(LevelError, match="file is 11 bytes; a level is at most 10"):
        levels.read_bounded(path, limit=10)
    assert levels.read_bounded(path, limit=11) == b" " * 11


def test_every_bad_corpus_line_is_its_own_error_and_the_rest_load(tmp_path):
    good = {"id": "a", "rows": 2, "cols": 2, "row_tallies": [1, 0], "col_tallies": [1, 0],
            "fleet": {"1": 1}, "hints": [[0, 0, "sub"]]}
    bad_lines = [
        json.dumps({**good, "id": "k1", "hints": [[0, 0, []]]}),
        json.dumps({**good, "id": "k2", "hints": [[0, 0, {}]]}),
        json.dumps(good).replace('"rows": 2', f'"rows": {HUGE}'),
        "[" * 100_000 + "]" * 100_000,
        json.dumps({**good, "id": "k3", "hints": [[True, 0, "sub"]]}),
        json.dumps({**good, "id": "k4", "hints": {}}),
        json.dumps({**good, "id": "k5"}).replace('"fleet": {"1": 1}', '"fleet": {"1": 1, "1": 2}'),
        '{"id": "\\ud800", "rows": 1}',
        "\xff",
    ]
    path = tmp_path / "c.jsonl"
    text = "\n".join(bad_lines + [json.dumps({**good, "id": "last"})]) + "\n"
    path.write_bytes(text.encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff"))
    items = list(levels.iter_corpus(path))
    assert len(items) == len(bad_lines) + 1
    assert items[-1][0] == "last" and isinstance(items[-1][1], Puzzle)
    for number, (ident, item) in enumerate(items[:-1], start=1):
        assert isinstance(item, LevelError), (number, ident)
        assert f"c.jsonl:{number}" in str(item) , str(item)
        assert "\n" not in str(item) and len(str(item)) < 300


def test_an_overlong_corpus_line_is_one_error(tmp_path):
    path = tmp_path / "c.jsonl"
    good = {"id": "a", "rows": 1, "cols": 1, "row_tallies": [1], "col_tallies": [1], "fleet": {"1": 1}}
    path.write_text(" " * (MAX_FILE_BYTES + 5) + "\n" + json.dumps(good) + "\n")
    items = list(levels.iter_corpus(path))
    assert "c.jsonl:1: line is longer than" in str(items[0][1])
    assert items[1][0] == "a" and isinstance(items[1][1], Puzzle)


def test_fleet_text_for_the_command_line():
    assert levels.parse_fleet('{"4": 1, "3": 2}') == ((4, 1), (3, 2))
    for text in ("[]", '{"4": -1}', '{"4": 1e999}', "{" * 40, '{"4": 1, "4": 2}', f'{{"1": {HUGE}}}'):
        with pytest.raises(LevelError):
            levels.parse_fleet(text, "--fleet")


@pytest.mark.parametrize("value, shown", [("abc", "'abc'"), ("", "''"), (7, "7")])
def test_a_short_value_is_shown_whole_with_or_without_its_size(value, shown):
    assert levels.short_repr(value) == levels.short_repr(value, size=True) == shown


@pytest.mark.parametrize("length", [37, 40, 100_000])
def test_a_long_string_is_cut_and_with_size_says_how_long_it_was(length):
    text = "9" * length
    assert len(levels.short_repr(text)) <= 40 and "characters" not in levels.short_repr(text)
    sized = levels.short_repr(text, size=True)
    assert sized.endswith(f" ({length:,} characters)") and len(sized) <= 40 + len(f" ({length:,} characters)")


def test_a_json_error_says_where_once():
    with pytest.raises(LevelError) as refused:
        levels.loads('{"name": "open', "f.bs")
    assert str(refused.value) == "f.bs: is not valid JSON: Unterminated string starting at line 1, column 10"
