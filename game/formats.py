"""Level formats in circulation besides ``.bs``: readers, writers and recognition by content.

| name         | what                                                              | read | write |
|--------------|-------------------------------------------------------------------|------|-------|
| `bs`         | this project's JSON level (:mod:`game.levels`)                    | yes  | yes   |
| `assignment` | university CSP assignment text: tally digits, ship counts, grid  | yes  | yes   |
| `bimaru`     | Bimaru text: tab-separated ROW, COLUMN, a count and HINT lines    | yes  | yes   |
| `csplib`     | CSPLib prob014 instance text (Fathom It!), many boards per file   | yes  | no    |
| `dzn`        | MiniZinc data for the CSPLib model (height, width, ship, hint...) | yes  | yes   |

Wherever a level file is read by name (:func:`read`), a share code (``bs1-...``, see
:mod:`game.codes`) may stand in its place, and so may the label ``FILE#ID`` the batch commands
give one level of a file of several (a corpus ``.jsonl`` line, a CSPLib board).

Every reader returns :class:`~game.puzzle.Puzzle` values built through
:func:`game.levels.from_dict`, so a level read from any format passes the same checks as a
``.bs`` file. Every problem is a :class:`FormatError` (a ``LevelError``) whose message names
the file and the line: ``x.txt: line 4: 'X' in column 3 is not one of 0 . S < > ^ v M``.
The limits of :mod:`game.limits` hold for every format.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Union

from game import codes, files, levels
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_FLEET_SHIPS, MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import DEFAULT_FLEETS, Hint, Puzzle

FORMATS = ("bs", "assignment", "bimaru", "csplib", "dzn")
WRITABLE = ("bs", "assignment", "bimaru", "dzn")
SUFFIXES = {".bs": "bs", ".dzn": "dzn", ".txt": "assignment"}
EMPTY_NAME = "an empty name is no level, file or folder"


class FormatError(levels.LevelError):
    """A level file that cannot be read, with the line where the problem is (1-based)."""

    def __init__(self, source: Union[str, os.PathLike], line: int, reason: str):
        self.line = line
        super().__init__(source, f"line {line}: {reason}")


# --------------------------------------------------------------------------- shared helpers


def _quoted(text: str, plain: bool = False) -> str:
    """A piece of the file as a message quotes it: its ``repr`` (as it is, when ``plain`` and
    it is printable), cut short with its length when it is long, so a line of 100,000
    characters is still a short message."""
    return files.shown(text, 60) if plain else levels.short_repr(text, 60, size=True)


def _lines(text: str) -> list[tuple[int, str]]:
    """(1-based number, line without trailing white space) for every line, blank ones included."""
    return [(number, line.rstrip()) for number, line in enumerate(text.splitlines(), start=1)]


def _filled(text: str) -> list[tuple[int, str]]:
    return [(number, line) for number, line in _lines(text) if line.strip()]


def _end_line(text: str) -> int:
    return len(text.splitlines()) + 1


def _number(token: str, source: str, line: int, what: str) -> int:
    if not token.isdigit() or not token.isascii():
        raise FormatError(source, line, f"{what} must be a whole number, not {_quoted(token)}")
    if len(token) > MAX_DIGITS:
        raise FormatError(source, line, f"{what} has {len(token)} digits; numbers have at most {MAX_DIGITS}")
    return int(token)


def _check_side(value: int, source: str, line: int, what: str) -> None:
    if not 1 <= value <= MAX_SIDE:
        raise FormatError(source, line, f"{value} {what}; a board has 1 to {MAX_SIDE}")


def _check_fleet(fleet: Mapping[int, int], source: str, line: int) -> None:
    longest = max((length for length, count in fleet.items() if count), default=0)
    if longest > MAX_SHIP_LENGTH:
        raise FormatError(source, line, f"a ship of length {longest}; ships are at most {MAX_SHIP_LENGTH} long")
    total = sum(fleet.values())
    if total > MAX_FLEET_SHIPS:
        raise FormatError(source, line, f"{total} ships; a fleet has at most {MAX_FLEET_SHIPS}")
    if total == 0:
        raise FormatError(source, line, "the fleet has no ships")


def _build(source: str, line: int, rows: int, cols: int, row_tallies: list[int], col_tallies: list[int],
           fleet: Mapping[int, int], hints: Mapping[tuple[int, int], Hint], col_line: int | None = None,
           **extra) -> Puzzle:
    """The Puzzle, through the one validation of :mod:`game.levels`; its complaints (tallies
    that cannot add up to the fleet, ...) are reported at ``line``, or at ``col_line`` when
    they are about the column tallies."""
    data = {
        "rows": rows, "cols": cols,
        "fleet": {str(length): count for length, count in fleet.items()},
        "row_numbers": list(row_tallies), "col_numbers": list(col_tallies),
        "board": {f"{r},{c}": levels.CODE_OF_HINT[hint] for (r, c), hint in hints.items()},
        **{key: value for key, value in extra.items() if value is not None},
    }
    try:
        return levels.from_dict(data, source)
    except FormatError:
        raise
    except levels.LevelError as error:
        where = col_line if col_line is not None and error.reason.startswith("col_numbers") else line
        raise FormatError(source, where, error.reason) from None


def _default_fleet(rows: int, cols: int, source: str, line: int) -> dict[int, int]:
    if rows != cols or rows not in DEFAULT_FLEETS:
        sizes = ", ".join(str(size) for size in DEFAULT_FLEETS)
        raise FormatError(source, line, f"a {rows}x{cols} board has no standard fleet (square sizes {sizes} do)")
    return dict(DEFAULT_FLEETS[rows])


def _add_hint(hints: dict, where: tuple[int, int], hint: Hint, rows: int, cols: int, source: str,
              line: int) -> None:
    r, c = where
    if not (0 <= r < rows and 0 <= c < cols):
        raise FormatError(source, line, f"hint at row {r}, column {c} is outside the {rows}x{cols} board")
    if where in hints:
        raise FormatError(source, line, f"a second hint for row {r}, column {c}")
    hints[where] = hint


def _known_tallies(puzzle: Puzzle, fmt: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The row and column tallies of a level whose every tally is known (else a LevelError)."""
    known: list[tuple[int, ...]] = []
    for axis, tallies in (("row", puzzle.row_tallies), ("column", puzzle.col_tallies)):
        for index, tally in enumerate(tallies):
            if tally is None:
                raise levels.LevelError(fmt, f"{axis} {index} has no tally; the format needs every tally")
        known.append(tuple(tally for tally in tallies if tally is not None))
    return known[0], known[1]


def _no_shapeless_hints(puzzle: Puzzle, fmt: str) -> None:
    for (r, c), hint in puzzle.hints.items():
        if hint is Hint.SHIP:
            raise levels.LevelError(fmt, f"the hint at row {r}, column {c} is a ship piece of unknown shape, "
                                         "which the format has no symbol for")


# --------------------------------------------------------------------------- assignment text

ASSIGNMENT_HINTS: Mapping[str, Hint] = {
    ".": Hint.WATER, "S": Hint.SUB, "<": Hint.LEFT, ">": Hint.RIGHT,
    "^": Hint.TOP, "v": Hint.BOTTOM, "M": Hint.MIDDLE,
}
ASSIGNMENT_CHARS: Mapping[Hint, str] = {hint: char for char, hint in ASSIGNMENT_HINTS.items()}


def _digits(line: str, source: str, number: int, what: str) -> list[int]:
    for column, char in enumerate(line, start=1):
        if not ("0" <= char <= "9"):
            raise FormatError(source, number, f"{char!r} in column {column} is not a digit ({what}, one digit each)")
    return [int(char) for char in line]


def read_assignment(text: str, source: str = "<level>") -> Puzzle:
    """Three lines of digits (row tallies, column tallies, ship counts by length from 1), then
    one grid line per row: ``0`` unknown, ``.`` water, ``S`` submarine, ``< > ^ v`` ship ends,
    ``M`` middle. Blank lines are skipped."""
    lines = _filled(text)
    if len(lines) < 3:
        raise FormatError(source, _end_line(text), "the file ends before the row tallies, column tallies "
                                                   "and ship counts (three lines of digits)")
    (row_line, row_text), (col_line, col_text), (fleet_line, fleet_text) = lines[:3]
    row_tallies = _digits(row_text.strip(), source, row_line, "row tallies")
    col_tallies = _digits(col_text.strip(), source, col_line, "column tallies")
    counts = _digits(fleet_text.strip(), source, fleet_line, "ship counts by length")
    rows, cols = len(row_tallies), len(col_tallies)
    _check_side(rows, source, row_line, "row tallies")
    _check_side(cols, source, col_line, "column tallies")
    if len(counts) > MAX_SHIP_LENGTH:
        raise FormatError(source, fleet_line, f"ship counts for {len(counts)} lengths; ships are at most "
                                              f"{MAX_SHIP_LENGTH} long")
    fleet = {length: count for length, count in enumerate(counts, start=1) if count}
    _check_fleet(fleet, source, fleet_line)
    grid = lines[3:]
    if len(grid) < rows:
        raise FormatError(source, _end_line(text), f"the grid has {len(grid)} rows, the row tallies give {rows}")
    if len(grid) > rows:
        raise FormatError(source, grid[rows][0], f"a grid row beyond the {rows} the row tallies give")
    hints: dict[tuple[int, int], Hint] = {}
    for r, (number, line) in enumerate(grid):
        line = line.strip()
        if len(line) != cols:
            raise FormatError(source, number, f"grid row {r} has {len(line)} cells, the column tallies give {cols}")
        for c, char in enumerate(line):
            if char == "0":
                continue
            if char not in ASSIGNMENT_HINTS:
                raise FormatError(source, number, f"{char!r} in column {c + 1} is not one of 0 . S < > ^ v M")
            hints[(r, c)] = ASSIGNMENT_HINTS[char]
    return _build(source, row_line, rows, cols, row_tallies, col_tallies, fleet, hints, col_line)


def write_assignment(puzzle: Puzzle) -> str:
    """The assignment text of a level; a LevelError when the format cannot hold it (a tally or
    ship count above 9, an unknown tally, a hint of unknown shape)."""
    fmt = "assignment text"
    row_tallies, col_tallies = _known_tallies(puzzle, fmt)
    _no_shapeless_hints(puzzle, fmt)
    for axis, tallies in (("row", row_tallies), ("column", col_tallies)):
        for index, tally in enumerate(tallies):
            if tally > 9:
                raise levels.LevelError(fmt, f"{axis} {index} has tally {tally}; the format has one digit per tally")
    counts = puzzle.fleet_counts
    for length, count in counts.items():
        if count > 9:
            raise levels.LevelError(fmt, f"{count} ships of length {length}; the format has one digit per count")
    lines = ["".join(str(t) for t in puzzle.row_tallies), "".join(str(t) for t in puzzle.col_tallies),
             "".join(str(counts.get(length, 0)) for length in range(1, puzzle.longest_ship + 1))]
    for r in range(puzzle.rows):
        lines.append("".join(ASSIGNMENT_CHARS[puzzle.hints[(r, c)]] if (r, c) in puzzle.hints else "0"
                             for c in range(puzzle.cols)))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- Bimaru text

BIMARU_HINTS: Mapping[str, Hint] = {
    "W": Hint.WATER, "C": Hint.SUB, "T": Hint.TOP, "B": Hint.BOTTOM,
    "L": Hint.LEFT, "R": Hint.RIGHT, "M": Hint.MIDDLE,
}
BIMARU_CHARS: Mapping[Hint, str] = {hint: char for char, hint in BIMARU_HINTS.items()}


def _labelled(lines: list[tuple[int, str]], index: int, label: str, source: str, end: int) -> tuple[int, list[str]]:
    if index >= len(lines):
        raise FormatError(source, end, f"the file ends before the {label} line")
    number, line = lines[index]
    fields = line.split()
    if fields[0].upper() != label:
        raise FormatError(source, number, f"expected a {label} line, found {_quoted(fields[0])}")
    return number, fields[1:]


def read_bimaru(text: str, source: str = "<level>") -> Puzzle:
    """``ROW`` and ``COLUMN`` lines of tallies, the number of hints, then ``HINT row col kind``
    lines (0-based; W water, C circle, T B L R ends, M middle). Fields are tab separated
    (any white space is accepted); the fleet is the standard one for the board's size."""
    lines = _filled(text)
    end = _end_line(text)
    row_line, row_fields = _labelled(lines, 0, "ROW", source, end)
    col_line, col_fields = _labelled(lines, 1, "COLUMN", source, end)
    _check_side(len(row_fields), source, row_line, "row tallies")
    _check_side(len(col_fields), source, col_line, "column tallies")
    row_tallies = [_number(t, source, row_line, f"row tally {i}") for i, t in enumerate(row_fields)]
    col_tallies = [_number(t, source, col_line, f"column tally {i}") for i, t in enumerate(col_fields)]
    rows, cols = len(row_tallies), len(col_tallies)
    fleet = _default_fleet(rows, cols, source, row_line)
    if len(lines) < 3:
        raise FormatError(source, end, "the file ends before the number of hints")
    count_line, count_text = lines[2]
    count = _number(count_text.strip(), source, count_line, "the number of hints")
    hints: dict[tuple[int, int], Hint] = {}
    for number, line in lines[3:]:
        fields = line.split()
        if fields[0].upper() != "HINT":
            raise FormatError(source, number, f"expected a HINT line, found {_quoted(fields[0])}")
        if len(fields) != 4:
            raise FormatError(source, number, f"a HINT line is 'HINT row column kind', not {len(fields)} fields")
        r = _number(fields[1], source, number, "the hint's row")
        c = _number(fields[2], source, number, "the hint's column")
        kind = fields[3].upper()
        if kind not in BIMARU_HINTS:
            raise FormatError(source, number, f"hint kind {_quoted(fields[3])} is not one of W C T B L R M")
        if len(hints) == count:
            raise FormatError(source, number, f"more HINT lines than the {count} announced on line {count_line}")
        _add_hint(hints, (r, c), BIMARU_HINTS[kind], rows, cols, source, number)
    if len(hints) != count:
        raise FormatError(source, count_line, f"announces {count} hints, the file has {len(hints)}")
    return _build(source, row_line, rows, cols, row_tallies, col_tallies, fleet, hints, col_line)


def write_bimaru(puzzle: Puzzle) -> str:
    fmt = "Bimaru text"
    if puzzle.rows != puzzle.cols or DEFAULT_FLEETS.get(puzzle.rows) != puzzle.fleet:
        raise levels.LevelError(fmt, "the format holds square boards with their standard fleet only")
    _known_tallies(puzzle, fmt)
    _no_shapeless_hints(puzzle, fmt)
    lines = ["\t".join(["ROW", *map(str, puzzle.row_tallies)]),
             "\t".join(["COLUMN", *map(str, puzzle.col_tallies)]),
             str(len(puzzle.hints))]
    lines += [f"HINT\t{r}\t{c}\t{BIMARU_CHARS[hint]}" for (r, c), hint in puzzle.hints.items()]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- CSPLib prob014 text

CSPLIB_HINTS: Mapping[str, Hint] = {
    "circle": Hint.SUB, "water": Hint.WATER, "middle": Hint.MIDDLE, "top": Hint.TOP,
    "bottom": Hint.BOTTOM, "left": Hint.LEFT, "right": Hint.RIGHT,
}


class _Board:
    """One board of a CSPLib file while it is being read."""

    def __init__(self, ident: str, line: int):
        self.ident, self.line = ident, line
        self.shape: tuple[int, int] | None = None
        self.hints: dict[tuple[int, int], Hint] = {}
        self.ships: list[tuple[int, int, int, bool, int]] = []   # length, row, col, down, line
        self.tallies: dict[str, tuple[list[int], int]] = {}
        self.display = False                                      # inside the ASCII drawing


def read_csplib(text: str, source: str = "<level>") -> list[Puzzle]:
    """Every board of a CSPLib prob014 instance file. Text before the first ``Board ID:`` is
    the file's header; the ASCII drawing after ``DisplayBoardASCII`` repeats what the other
    lines say and is skipped. The solution comes from the ``PLACESHIP`` lines."""
    boards: list[_Board] = []
    board: _Board | None = None
    seen: dict[str, int] = {}
    for number, line in _lines(text):
        words = line.split()
        if not words:
            continue
        head = words[0].lower()
        if line.startswith("Board ID:"):
            ident = line[len("Board ID:"):].strip()
            if not ident:
                raise FormatError(source, number, "'Board ID:' without an id")
            if ident in seen:
                raise FormatError(source, number, f"Board ID {_quoted(ident)} repeats the board of line {seen[ident]}")
            seen[ident] = number
            board = _Board(ident, number)
            boards.append(board)
        elif board is None or set(line.strip()) == {"="}:
            if board is not None:
                board.display = False
            continue
        elif board.display:
            continue
        elif head in ("nodes:", "solutions:"):
            if len(words) != 2:
                raise FormatError(source, number, f"'{words[0]}' takes one number")
            _number(words[1], source, number, words[0].rstrip(":"))
        elif head == "start-new-board":
            if len(words) != 3:
                raise FormatError(source, number, "START-NEW-BOARD takes the rows and the columns")
            rows = _number(words[1], source, number, "the rows")
            cols = _number(words[2], source, number, "the columns")
            _check_side(rows, source, number, "rows")
            _check_side(cols, source, number, "columns")
            board.shape = (rows, cols)
        elif head in ("hint:", "placeship"):
            if board.shape is None:
                raise FormatError(source, number, f"{words[0]} before START-NEW-BOARD")
            rows, cols = board.shape
            if head == "hint:":
                if len(words) not in (4, 5):
                    raise FormatError(source, number, "a hint is 'Hint: row column Kind [count]'")
                r = _number(words[1], source, number, "the hint's row")
                c = _number(words[2], source, number, "the hint's column")
                if words[3].lower() not in CSPLIB_HINTS:
                    raise FormatError(source, number, f"hint kind {_quoted(words[3])} is not one of "
                                                      "Circle Water Middle Top Bottom Left Right")
                if len(words) == 5:
                    _number(words[4], source, number, "the hint's count")
                _add_hint(board.hints, (r, c), CSPLIB_HINTS[words[3].lower()], rows, cols, source, number)
            else:
                if len(words) != 5 or words[4] not in ("S", "E"):
                    raise FormatError(source, number, "a ship is 'PLACESHIP length row column S|E'")
                length = _number(words[1], source, number, "the ship's length")
                r = _number(words[2], source, number, "the ship's row")
                c = _number(words[3], source, number, "the ship's column")
                board.ships.append((length, r, c, words[4] == "S", number))
        elif line.startswith(("Row tallies:", "Column tallies:")):
            key, _, values = line.partition(":")
            board.tallies[key] = ([_number(t, source, number, key.lower()) for t in values.split()], number)
        elif head.startswith("displayboardascii"):
            board.display = True
        else:
            raise FormatError(source, number, f"unrecognised line {_quoted(line.strip())}")
    if not boards:
        raise FormatError(source, _end_line(text), "no 'Board ID:' line: not a CSPLib prob014 instance file")
    return [_csplib_puzzle(board, source) for board in boards]


def _csplib_puzzle(board: _Board, source: str) -> Puzzle:
    if board.shape is None:
        raise FormatError(source, board.line, f"board {_quoted(board.ident, plain=True)} has no START-NEW-BOARD line")
    rows, cols = board.shape
    tallies = []
    for key, count in (("Row tallies", rows), ("Column tallies", cols)):
        if key not in board.tallies:
            raise FormatError(source, board.line, f"board {_quoted(board.ident, plain=True)} has no '{key}:' line")
        values, number = board.tallies[key]
        if len(values) != count:
            raise FormatError(source, number, f"{len(values)} {key.lower()}, the board has {count}")
        tallies.append(values)
    solution = None
    if board.ships:
        fleet: dict[int, int] = {}
        for length, *_rest in board.ships:
            fleet[length] = fleet.get(length, 0) + 1
        _check_fleet(fleet, source, board.ships[0][4])
        solution = _place_ships(board, rows, cols, tallies, source)
    else:
        fleet = _default_fleet(rows, cols, source, board.line)
    return _build(source, board.tallies["Row tallies"][1], rows, cols, tallies[0], tallies[1], fleet,
                  board.hints, board.tallies["Column tallies"][1], name=f"Board {board.ident}", solution=solution)


def _place_ships(board: _Board, rows: int, cols: int, tallies: list[list[int]], source: str) -> list[str]:
    """The solution drawn by the PLACESHIP lines, checked against the board and the tallies."""
    grid = [["."] * cols for _ in range(rows)]
    for length, r, c, down, number in board.ships:
        cells = [(r + i, c) if down else (r, c + i) for i in range(length)]
        if not all(0 <= y < rows and 0 <= x < cols for y, x in cells):
            raise FormatError(source, number, f"the ship runs off the {rows}x{cols} board")
        for y, x in cells:
            if grid[y][x] == "#":
                raise FormatError(source, number, f"the ship overlaps another at row {y}, column {x}")
            grid[y][x] = "#"
    solution = ["".join(row) for row in grid]
    for key, index, counts in (("Row tallies", 0, [row.count("#") for row in solution]),
                               ("Column tallies", 1, [sum(row[x] == "#" for row in solution) for x in range(cols)])):
        if counts != tallies[index]:
            raise FormatError(source, board.tallies[key][1], f"{key.lower()} disagree with the PLACESHIP lines "
                                                             f"(their ships give {' '.join(map(str, counts))})")
    return solution


# --------------------------------------------------------------------------- MiniZinc data

DZN_HINTS = (None, Hint.WATER, Hint.SUB, Hint.LEFT, Hint.RIGHT, Hint.TOP, Hint.BOTTOM, Hint.MIDDLE)
DZN_CODES: Mapping[Hint, int] = {hint: code for code, hint in enumerate(DZN_HINTS) if hint is not None}
_DZN_TOKEN = re.compile(r"\s*(?:(\[\|)|(\|\])|([A-Za-z_][A-Za-z0-9_]*)|(-?\d+)|([=;,\[\]|]))")


def _dzn_tokens(text: str, source: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) for each token; comments (``%`` to the end of the line) dropped."""
    tokens = []
    for number, line in _lines(text):
        line = line.split("%", 1)[0].rstrip()
        position = 0
        while position < len(line):         # what is left holds a token: the line ends in one
            match = _DZN_TOKEN.match(line, position)
            if not match:
                bad = line[position:].strip()[:20]
                raise FormatError(source, number, f"cannot read {_quoted(bad)} (MiniZinc data: name = value;)")
            group = match.lastindex
            assert group is not None        # the pattern is five alternatives, each a group: one matched
            kind = ("open2", "close2", "name", "int", "sym")[group - 1]
            tokens.append((kind, match.group(group), number))
            position = match.end()
    return tokens


def _dzn_value(tokens: list[tuple[str, str, int]], index: int, source: str) -> tuple[object, int]:
    """One value: a number, ``[a, b, ...]`` or ``[| a, b | c, d |]`` (a list of rows)."""
    kind, value, number = tokens[index]
    if kind == "int":
        return _dzn_int(value, source, number), index + 1
    if value == "[":
        items: list[int] = []
        index += 1
        while tokens[index][1] != "]":
            if items:
                if tokens[index][1] != ",":
                    raise FormatError(source, tokens[index][2],
                                      f"expected ',' or ']', found {_quoted(tokens[index][1])}")
                index += 1
                if tokens[index][1] == "]":
                    break
            if tokens[index][0] != "int":
                raise FormatError(source, tokens[index][2], f"expected a number, found {_quoted(tokens[index][1])}")
            items.append(_dzn_int(tokens[index][1], source, tokens[index][2]))
            index += 1
        return items, index + 1
    if kind == "open2":
        rows: list[list[int]] = []
        row: list[int] = []
        index += 1
        while tokens[index][0] != "close2":
            kind, value, number = tokens[index]
            if value == "|":
                rows.append(row)
                row = []
            elif kind == "int":
                row.append(_dzn_int(value, source, number))
            elif value != ",":
                raise FormatError(source, number, f"expected a number, ',' or '|', found {_quoted(value)}")
            index += 1
        if row:
            rows.append(row)
        return rows, index + 1
    raise FormatError(source, number, f"expected a value, found {_quoted(value)}")


def _dzn_int(token: str, source: str, line: int) -> int:
    if token.startswith("-"):
        raise FormatError(source, line, f"{_quoted(token, plain=True)} is negative")
    return _number(token, source, line, "the number")


def _dzn_assignments(text: str, source: str) -> dict[str, tuple[object, int]]:
    tokens = _dzn_tokens(text, source)
    tokens.append(("end", "the end of the file", _end_line(text)))
    values: dict[str, tuple[object, int]] = {}
    index = 0
    try:
        while tokens[index][0] != "end":
            kind, name, number = tokens[index]
            if kind != "name" or tokens[index + 1][1] != "=":
                raise FormatError(source, number, f"expected 'name = value;', found {_quoted(name)}")
            if name in values:
                raise FormatError(source, number, f"{_quoted(name, plain=True)} is given a second time")
            value, index = _dzn_value(tokens, index + 2, source)
            if tokens[index][1] != ";":
                raise FormatError(source, tokens[index][2], f"expected ';' after {_quoted(name, plain=True)}, "
                                                            f"found {_quoted(tokens[index][1])}")
            values[name] = (value, number)
            index += 1
    except IndexError:
        raise FormatError(source, _end_line(text), "the file ends inside a value") from None
    return values


def read_dzn(text: str, source: str = "<level>") -> Puzzle:
    """``height``, ``width``, ``ship`` (how many ships of each length from 1), ``hint`` (one row
    per board line: 0 none, 1 water, 2 circle, 3 left, 4 right, 5 top, 6 bottom, 7 middle),
    ``rowsum`` and ``colsum``; ``maxship`` when present must be the length of ``ship``. Other
    names are ignored, and so are comments (the published files show one placement there,
    which need not be the only one, so it is not taken as the solution)."""
    values = _dzn_assignments(text, source)
    end = _end_line(text)

    def get(name: str, kind: type) -> tuple:
        if name not in values:
            raise FormatError(source, end, f"no '{name} = ...;' in the file")
        value, number = values[name]
        is_number = isinstance(value, int)
        if (kind is int) != is_number:
            raise FormatError(source, number, f"{name} must be {'a number' if kind is int else 'a list'}")
        return value, number

    rows, rows_line = get("height", int)
    cols, cols_line = get("width", int)
    _check_side(rows, source, rows_line, "rows")
    _check_side(cols, source, cols_line, "columns")
    ships, ships_line = get("ship", list)
    if "maxship" in values:
        maxship, max_line = get("maxship", int)
        if maxship != len(ships):
            raise FormatError(source, max_line, f"maxship is {maxship}, ship lists {len(ships)} lengths")
    if len(ships) > MAX_SHIP_LENGTH:
        raise FormatError(source, ships_line, f"ship counts for {len(ships)} lengths; ships are at most "
                                              f"{MAX_SHIP_LENGTH} long")
    fleet = {length: count for length, count in enumerate(ships, start=1) if count}
    _check_fleet(fleet, source, ships_line)
    tallies = []
    for name, count in (("rowsum", rows), ("colsum", cols)):
        value, number = get(name, list)
        if len(value) != count or any(isinstance(item, list) for item in value):
            raise FormatError(source, number, f"{name} must list {count} numbers")
        tallies.append(value)
    grid, grid_line = get("hint", list)
    if len(grid) != rows or any(not isinstance(row, list) or len(row) != cols for row in grid):
        raise FormatError(source, grid_line, f"hint must be a {rows}x{cols} table [| ... | ... |]")
    hints: dict[tuple[int, int], Hint] = {}
    for r, row in enumerate(grid):
        for c, code in enumerate(row):
            if code >= len(DZN_HINTS):
                raise FormatError(source, grid_line, f"hint code {code} at row {r}, column {c} is not 0 to 7")
            hint = DZN_HINTS[code]
            if hint is not None:
                hints[(r, c)] = hint
    return _build(source, values["rowsum"][1], rows, cols, tallies[0], tallies[1], fleet, hints,
                  values["colsum"][1])


def write_dzn(puzzle: Puzzle) -> str:
    fmt = "MiniZinc data"
    _known_tallies(puzzle, fmt)
    _no_shapeless_hints(puzzle, fmt)
    counts = puzzle.fleet_counts
    longest = puzzle.longest_ship
    codes = {cell: DZN_CODES.get(hint, 0) for cell, hint in puzzle.hints.items()}
    table = " |\n".join(", ".join(str(codes.get((r, c), 0)) for c in range(puzzle.cols)) for r in range(puzzle.rows))
    return (f"height = {puzzle.rows};\nwidth = {puzzle.cols};\nmaxship = {longest};\n"
            f"ship = [{', '.join(str(counts.get(n, 0)) for n in range(1, longest + 1))}];\n"
            f"hint = [|\n{table} |];\n"
            f"rowsum = [{', '.join(map(str, puzzle.row_tallies))}];\n"
            f"colsum = [{', '.join(map(str, puzzle.col_tallies))}];\n")


# --------------------------------------------------------------------------- recognition, reading, writing


def detect(text: str) -> str | None:
    """The format a text is in, recognised from its content (None when none fits)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    first = lines[0]
    if first.startswith("{"):
        return "bs"
    if first.split()[0].upper() == "ROW":
        return "bimaru"
    if any(line.startswith("Board ID:") for line in lines) or "START-NEW-BOARD" in text:
        return "csplib"
    code = [line.split("%", 1)[0].strip() for line in lines]
    if any(re.match(r"(height|width|rowsum|colsum|hint|ship)\s*=", line) for line in code):
        return "dzn"
    if first.isdigit():
        return "assignment"
    return None


def read_text(text: str, source: str = "<level>", fmt: str | None = None) -> list[Puzzle]:
    """Every level in ``text`` (one, except for CSPLib files); ``fmt`` forces a format."""
    if len(text) > MAX_FILE_BYTES:
        raise levels.LevelError(source, f"text is {len(text):,} characters; a level file is at most "
                                        f"{MAX_FILE_BYTES:,}")
    if fmt is None:
        fmt = detect(text)
        if fmt is None:
            if not text.strip():
                raise levels.LevelError(source, "is empty")
            first = next(number for number, line in _lines(text) if line.strip())
            raise FormatError(source, first, "not a level in any known format (.bs, assignment text, Bimaru, "
                                             "CSPLib prob014, MiniZinc data)")
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "bs":
        return [levels.loads(text, source)]
    if fmt == "csplib":
        return read_csplib(text, source)
    reader = {"assignment": read_assignment, "bimaru": read_bimaru, "dzn": read_dzn}[fmt]
    return [reader(text, source)]


def read(path: Union[str, os.PathLike], fmt: str | None = None) -> list[Puzzle]:
    """Every level in a file of any known format or a corpus ``.jsonl`` file (read whole:
    at most ``MAX_FILE_BYTES``), the level a share code holds (see :func:`game.codes.is_code`),
    or the one level a label ``FILE#ID`` names (see :func:`labelled`); a LevelError naming the
    file (or the code) otherwise."""
    if not str(path):                   # Path("") would be the current folder
        raise levels.LevelError("''", EMPTY_NAME)
    if fmt is None and codes.is_code(str(path)):
        return [codes.decode(str(path))]
    if file_of(path) != str(path):
        return [labelled(str(path), fmt)]
    path = Path(path)
    if fmt is None and is_corpus(path):
        levels.read_bounded(path, what="a corpus read whole")
        return list(each(path))
    if fmt is None and path.suffix.lower() == ".bs":
        fmt = "bs"                      # a .bs file is JSON by definition: its errors are the JSON reader's
    data = levels.read_bounded(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise levels.LevelError(path, f"is not UTF-8 text (bad byte at offset {error.start})") from None
    return read_text(text, str(path), fmt)


def each(path: Union[str, os.PathLike], fmt: str | None = None) -> Iterator[Puzzle]:
    """The levels :func:`read` gives, one at a time: a corpus ``.jsonl`` line by line (each
    line within the limits, the file of any length, so a whole corpus is never in memory),
    anything else read whole; a LevelError at the first level that cannot be read."""
    if not (fmt is None and str(path) and not codes.is_code(str(path)) and file_of(path) == str(path)
            and is_corpus(path)):
        yield from read(path, fmt)
        return
    empty = True
    for _, item in levels.iter_corpus(path):
        empty = False
        yield _corpus_level(item)
    if empty:
        raise levels.LevelError(Path(path), levels.EMPTY_CORPUS)


def is_corpus(path: Union[str, os.PathLike]) -> bool:
    """Whether a file is read as a corpus (one level a line): its name ends in ``.jsonl``, in
    any case."""
    return Path(path).suffix.lower() == ".jsonl"


def _corpus_level(item: Puzzle | levels.LevelError) -> Puzzle:
    if isinstance(item, levels.LevelError):
        raise item
    return item


def file_of(name: Union[str, os.PathLike]) -> str:
    """The file a level's name reads: ``FILE`` of a label ``FILE#ID`` (when nothing has the
    whole name and something is at ``FILE``: a pipe, device or folder there is refused as what
    it is when it is read), else the name itself."""
    text = str(name)
    base, sep, ident = text.rpartition("#")
    if not sep or not ident or os.path.lexists(text) or not os.path.lexists(base):
        return text
    return base


def labelled(label: str, fmt: str | None = None) -> Puzzle:
    """The level a label ``FILE#ID`` names, as ``check``, ``solve`` and ``code`` label each
    level of a file of several: the corpus line of that id, or the board of that id
    (:func:`board_ids`) in a file of any other format."""
    base = file_of(label)
    ident = label[len(base) + 1:]
    if fmt is None and is_corpus(base):
        for found, item in levels.iter_corpus(base):
            if found == ident:
                return _corpus_level(item)
    else:
        puzzles = read(base, fmt)
        ids = board_ids(puzzles)
        if ident in ids:
            return puzzles[ids.index(ident)]
    raise levels.LevelError(base, f"holds no level {levels.short_repr(ident, 60)} (a label is FILE#ID)")


def load_any(path: Union[str, os.PathLike]) -> Puzzle:
    """The level in a file of any known format (the first board of a CSPLib file or a corpus)."""
    return next(each(path))


def format_for(path: Union[str, os.PathLike]) -> str | None:
    """The format a file name suggests for writing (``.txt`` means the assignment text)."""
    return SUFFIXES.get(Path(path).suffix.lower())


ABOUT = ("name", "author", "difficulty", "source", "solution")
"""What a level says beyond its board: only a ``.bs`` file has a place for it."""


def left_out(puzzle: Puzzle, fmt: str) -> list[str]:
    """What ``fmt`` has no place for of what ``puzzle`` says beyond its board (see ``ABOUT``)."""
    return [] if fmt == "bs" else [what for what in ABOUT if getattr(puzzle, what)]


def dumps(puzzle: Puzzle, fmt: str) -> str:
    """A level in a writable format; a LevelError when that format cannot hold it."""
    writers = {"bs": levels.dumps, "assignment": write_assignment, "bimaru": write_bimaru, "dzn": write_dzn}
    if fmt not in writers:
        raise ValueError(f"cannot write {fmt!r} (writable: {', '.join(WRITABLE)})")
    return writers[fmt](puzzle)


def board_ids(puzzles: Iterable[Puzzle]) -> list[str]:
    """A file-name-safe id per level, distinct within the file: its name's last word (at most
    ``MAX_ID`` characters; one taken already gets ``-2``, ``-3``...), or its position from 1."""
    ids: list[str] = []
    taken: set[str] = set()
    for index, puzzle in enumerate(puzzles, start=1):
        word = (puzzle.name or "").split()[-1:] or [str(index)]
        ident = re.sub(r"[^A-Za-z0-9_.-]", "_", word[0][:MAX_ID]).lstrip(".") or str(index)
        base, number = ident, 2
        while ident in taken:
            ident, number = f"{base}-{number}", number + 1
        taken.add(ident)
        ids.append(ident)
    return ids


MAX_ID = 100


def level_id(name: Union[str, os.PathLike], puzzle: Puzzle) -> str:
    """The file-name-safe id of the one level read from ``name`` (a file, a label ``FILE#ID``
    or a share code), for a folder of levels: the file's stem, the label's id, or the code
    itself (its prefix and its last characters, with the checksum, when it is long)."""
    text = str(name)
    if codes.is_code(text):
        code = codes.encode(puzzle, name=puzzle.name is not None)
        return code if len(code) <= MAX_ID else code[:len(codes.PREFIX)] + code[len(codes.PREFIX) - MAX_ID:]
    source = file_of(text)
    return text[len(source) + 1:] if source != text else Path(text).stem
