"""Reading and writing levels: the ``.bs`` JSON format and the corpus JSON-lines schema.

Parsing is separate from judging: this module checks that a file *describes* a puzzle
(types, sizes, hint codes, tallies that can add up to the fleet); whether the puzzle has
one solution, several or none is for the solvers (``main.py check``).

Every problem is a :class:`LevelError` whose message names the file and what is wrong,
e.g. ``levels/x.bs: row_numbers has 9 entries, board has 10 rows``. Loading never
half-loads: a level is returned whole or not at all. Everything read is held to the
limits in :mod:`game.limits` (board size, file size, nesting, digits, fleet, ship length).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import reprlib
import stat
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Mapping, Union

from game import files
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_FLEET_SHIPS, MAX_NESTING, MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import DEFAULT_FLEETS, Coord, Fleet, Hint, Puzzle, make_fleet

HINT_CODES: Mapping[str, Hint] = {
    "sw": Hint.WATER, "ss": Hint.SUB, "ms": Hint.MIDDLE, "us": Hint.TOP,
    "ds": Hint.BOTTOM, "ls": Hint.LEFT, "rs": Hint.RIGHT, "xs": Hint.SHIP,
}
CODE_OF_HINT: Mapping[Hint, str] = {hint: code for code, hint in HINT_CODES.items()}

ORIGINAL_KEYS = ("size", "board", "row_numbers", "col_numbers")
EXTENSION_KEYS = ("rows", "cols", "fleet", "name", "author", "difficulty", "source", "solution")
TEXT_KEYS = ("name", "author", "difficulty", "source")


class LevelError(ValueError):
    """A level that cannot be loaded. ``str(error)`` is ``"<file>: <reason>"``."""

    def __init__(self, source: Union[str, os.PathLike], reason: str):
        self.source = str(source)
        self.reason = reason
        super().__init__(f"{files.shown(self.source)}: {reason}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_unicode(text: str) -> bool:
    """False for text with a lone surrogate (JSON allows the escape, UTF-8 cannot write it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_SHORT_REPR = reprlib.Repr()
_SHORT_REPR.maxlevel, _SHORT_REPR.maxstring, _SHORT_REPR.maxother = 3, 36, 36


def short_repr(value: Any, width: int = 40, size: bool = False) -> str:
    """A short ``repr`` of value (never built whole), cut to ``width`` characters, so a
    message stays one short line however large the value; with ``size``, a string cut
    short says how long it is ("'abc...xyz' (100,000 characters)")."""
    try:
        text = _SHORT_REPR.repr(value)
    except ValueError:  # an int beyond Python's int-string limit (from a caller, not JSON)
        text = f"a {value.bit_length():,}-bit number" if isinstance(value, int) else type(value).__name__
    text = text if len(text) <= width else text[:width - 3] + "..."
    if size and isinstance(value, str) and len(repr(value[:width])) > len(text):
        text += f" ({len(value):,} characters)"
    return text


# --------------------------------------------------------------------------- safe JSON
#
# Every document passes the limits before and while it is decoded: nesting is measured on
# the raw text (so a deep document never reaches the recursive decoder), numbers are
# refused by digit count before Python converts them, and a key given twice in one object
# is an error instead of the last one silently winning.


class _Refused(Exception):
    """Raised inside the JSON decoder's hooks; turned into a LevelError naming the file."""


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def nesting_depth(text: str) -> int:
    """How deeply the brackets of a JSON text nest, ignoring brackets inside strings."""
    outside = _STRINGS.sub("", text)
    steps = (1 if bracket in "[{" else -1 for bracket in _BRACKETS.findall(outside))
    return max(itertools.accumulate(steps, initial=0))


def _digits(number: str) -> int:
    mantissa = re.split(r"[eE]", number, maxsplit=1)[0]
    return sum(ch.isdigit() for ch in mantissa)


def _parse_int(number: str) -> int:
    if len(number) > MAX_DIGITS + 1 and _digits(number) > MAX_DIGITS:
        raise _Refused(f"a number has {_digits(number):,} digits; at most {MAX_DIGITS} are allowed")
    return int(number)


def _parse_float(number: str, too_large: bool = False) -> float:
    if _digits(number) > MAX_DIGITS or len(number) > 4 * MAX_DIGITS:
        raise _Refused(f"number {short_repr(number, 24)} is longer than {MAX_DIGITS} digits")
    value = float(number)
    if not math.isfinite(value) and not too_large:
        raise _Refused(f"number {short_repr(number, 24)} is too large")
    return value


def _parse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number JSON allows")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"key {short_repr(key)} is given twice in one object")
        result[key] = value
    return result


def json_problem(error: json.JSONDecodeError, line: bool = True) -> str:
    """What is wrong with a JSON text, and where ("Unterminated string starting at line 1,
    column 5"; without ``line``, the column alone, for a text of one line)."""
    where = f"line {error.lineno}, column {error.colno}" if line else f"column {error.colno}"
    return f"is not valid JSON: {error.msg.removesuffix(' at')} at {where}"


def decode_json(text: str, source: str, too_large: bool = False) -> Any:
    """JSON text within the limits (nesting, digits, no repeated keys), or a LevelError.
    ``too_large``: a number too large for a float (``1e999``) reads as infinite instead, for a
    reader that checks each record and drops the one that holds it, not the whole text."""
    depth = nesting_depth(text)
    if depth > MAX_NESTING:
        raise LevelError(source, f"is nested {depth:,} levels deep; at most {MAX_NESTING} are allowed")
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=partial(_parse_float, too_large=too_large),
                          parse_constant=_parse_constant, object_pairs_hook=_object)
    except _Refused as refused:
        raise LevelError(source, str(refused)) from None
    except json.JSONDecodeError as error:
        raise LevelError(source, json_problem(error)) from None
    except (RecursionError, ValueError) as error:  # a limit of the decoder itself
        raise LevelError(source, f"is not valid JSON ({short_repr(str(error), 60)})") from None


# --------------------------------------------------------------------------- reading files


def open_regular(path: Union[str, os.PathLike], what: str = "a level file") -> BinaryIO:
    """Open a file for reading only if it is a regular file (after following links).

    A pipe, device or socket is refused before anything is read, so ``check`` never waits on
    a FIFO nor reads /dev/zero; the non-blocking open makes opening a FIFO itself return.
    ``what`` names what the file should be, in the message for a folder.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise LevelError(path, "no such file") from None
    except IsADirectoryError:
        raise LevelError(path, f"is a folder, not {what}") from None
    except OSError as error:
        if os.path.isdir(path):          # False, not an error, for a name too long
            raise LevelError(path, f"is a folder, not {what}") from None
        raise LevelError(path, f"cannot be read ({files.reason(error)})") from None
    except ValueError as error:  # a name the system cannot take (a NUL byte)
        raise LevelError(repr(str(path)), f"cannot be read ({error})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise LevelError(path, f"is a folder, not {what}")
        if not stat.S_ISREG(mode):
            raise LevelError(path, "is not a regular file (a pipe, device or socket); refused")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bounded(path: Union[str, os.PathLike], limit: int = MAX_FILE_BYTES, what: str = "a level") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, else a LevelError.

    At most ``limit + 1`` bytes are ever read, so a file that grows while it is read is
    refused as well. ``what`` names what the file should be, in the messages.
    """
    with open_regular(path, f"{what} file") as handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise LevelError(path, f"file is {size:,} bytes; {what} is at most {limit:,}")
            data = handle.read(limit + 1)
        except OSError as error:
            raise LevelError(path, f"cannot be read ({files.reason(error)})") from None
    if len(data) > limit:
        raise LevelError(path, f"file is more than {limit:,} bytes; {what} is at most {limit:,}")
    return data


# --------------------------------------------------------------------------- reading .bs


def level_files(folder: Union[str, os.PathLike]) -> list[Union[Path, LevelError]]:
    """The levels a folder stands for, sorted by path: every entry named ``*.bs`` below it that
    is not a folder (a pipe or device is reported when it is read, not skipped), and a
    LevelError for each folder on the way, ``folder`` itself included, that cannot be read
    (its levels are not passed over without a word). Links to folders are not followed (one
    back up would never end); the folders still to read are a list, not a recursion, so any
    depth is walked."""
    found: list[Union[Path, LevelError]] = []
    pending = [Path(folder)]
    while pending:
        here = pending.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(Path(entry.path))
                    elif entry.name.endswith(".bs") and not entry.is_dir():
                        found.append(Path(entry.path))
        except OSError as error:
            found.append(LevelError(here, f"cannot be read ({files.reason(error)})"))
    return sorted(found, key=lambda item: Path(item.source).parts if isinstance(item, LevelError) else item.parts)


def load(path: Union[str, os.PathLike]) -> Puzzle:
    """Read a ``.bs`` file; raise :class:`LevelError` naming the file on any problem."""
    path = Path(path)
    data = read_bounded(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LevelError(path, f"is not UTF-8 text (bad byte at offset {error.start})") from None
    return loads(text, str(path))


def loads(text: str, source: str = "<level>") -> Puzzle:
    """Parse the text of a ``.bs`` level. ``source`` names it in error messages."""
    if len(text) > MAX_FILE_BYTES:
        raise LevelError(source, f"text is {len(text):,} characters; a level is at most {MAX_FILE_BYTES:,}")
    if not text.strip():
        raise LevelError(source, "is empty")
    return from_dict(decode_json(text, source), source)


def from_dict(data: Any, source: str = "<level>") -> Puzzle:
    """Validate the decoded JSON of a ``.bs`` level and build the Puzzle."""
    if not isinstance(data, dict):
        raise LevelError(source, f"a level is a JSON object, not {type(data).__name__}")
    unknown = [key for key in data if key not in ORIGINAL_KEYS + EXTENSION_KEYS]
    if unknown:
        allowed = ", ".join(ORIGINAL_KEYS + EXTENSION_KEYS)
        raise LevelError(source, f"unknown key {short_repr(unknown[0])} (allowed: {allowed})")
    rows, cols = _read_shape(data, source)
    fleet = _read_fleet(data.get("fleet"), rows, cols, source)
    row_tallies = _read_tallies(data, "row_numbers", rows, cols, "rows", source)
    col_tallies = _read_tallies(data, "col_numbers", cols, rows, "columns", source)
    if "board" not in data:
        raise LevelError(source, "missing key 'board' (the hints; may be {})")
    hints = _read_board(data["board"], rows, cols, source)
    texts = {}
    for key in TEXT_KEYS:
        if key in data and data[key] is not None:
            if not isinstance(data[key], str):
                raise LevelError(source, f"{key} must be text, not {type(data[key]).__name__}")
            if not _is_unicode(data[key]):
                raise LevelError(source, f"{key} is not valid Unicode text (a lone surrogate escape)")
            texts[key] = data[key]
    solution = _read_solution(data.get("solution"), rows, cols, source)
    puzzle = Puzzle(rows, cols, row_tallies, col_tallies, fleet, hints, solution=solution, **texts)
    check_consistency(puzzle, source)
    return puzzle


def _read_shape(data: Mapping[str, Any], source: str) -> tuple[int, int]:
    dims = {}
    for key in ("size", "rows", "cols"):
        if key in data:
            value = data[key]
            if not _is_int(value):
                raise LevelError(source, f"{key} must be a whole number, not {short_repr(value)}")
            if not 1 <= value <= MAX_SIDE:
                raise LevelError(source, f"{key} is {short_repr(value)}; it must be between 1 and {MAX_SIDE}")
            dims[key] = value
    size = dims.get("size")
    rows, cols = dims.get("rows", size), dims.get("cols", size)
    if rows is None or cols is None:
        raise LevelError(source, "missing key 'size' (or both 'rows' and 'cols')")
    if size is not None and (rows != size or cols != size):
        raise LevelError(source, f"size is {size} but rows x cols is {rows}x{cols}")
    return rows, cols


def _read_fleet(value: Any, rows: int, cols: int, source: str) -> Fleet:
    if value is None:
        if rows == cols and rows in DEFAULT_FLEETS:
            return DEFAULT_FLEETS[rows]
        sizes = ", ".join(str(s) for s in DEFAULT_FLEETS)
        raise LevelError(source, f"missing key 'fleet': a {rows}x{cols} level must give its fleet "
                                 f"(only square sizes {sizes} may leave their standard fleet out)")
    return read_fleet(value, source)


_NUMBER_KEY = re.compile(r"[0-9]+")


def read_fleet(value: Any, source: str) -> Fleet:
    """A decoded ``{"length": count}`` object as a Fleet, within the limits, or a LevelError."""
    if not isinstance(value, dict) or not value:
        raise LevelError(source, f"fleet must be an object like {{\"4\": 1, \"3\": 2}}, not {short_repr(value)}")
    counts = {}
    for key, count in value.items():
        if not (isinstance(key, str) and _NUMBER_KEY.fullmatch(key) and len(key) <= MAX_DIGITS):
            raise LevelError(source, f"fleet key {short_repr(key)} is not a ship length (digits 0-9)")
        length = int(key)
        if length < 1:
            raise LevelError(source, f"fleet has ships of length {length}; lengths start at 1")
        if length > MAX_SHIP_LENGTH:
            raise LevelError(source, f"fleet has ships of length {length}; "
                                     f"at most {MAX_SHIP_LENGTH} is allowed")
        if not _is_int(count) or count < 0:
            raise LevelError(source, f"fleet count for length {length} must be a whole number >= 0, "
                                     f"not {short_repr(count)}")
        if length in counts:
            raise LevelError(source, f"fleet names length {length} twice")
        counts[length] = count
    ships = sum(counts.values())
    if ships > MAX_FLEET_SHIPS:
        raise LevelError(source, f"fleet has {short_repr(ships)} ships; at most {MAX_FLEET_SHIPS} are allowed")
    fleet = make_fleet(counts)
    if not fleet:
        raise LevelError(source, "fleet has no ships")
    return fleet


def parse_fleet(text: str, source: str = "fleet") -> Fleet:
    """A fleet given as JSON text (the command line's ``--fleet``), or a LevelError."""
    if len(text) > MAX_FILE_BYTES:
        raise LevelError(source, f"is longer than {MAX_FILE_BYTES:,} characters")
    return read_fleet(decode_json(text, source), source)


def _read_tallies(data: Mapping[str, Any], key: str, count: int, other: int, what: str,
                  source: str) -> tuple[int | None, ...]:
    if key not in data:
        raise LevelError(source, f"missing key {key!r}")
    value = data[key]
    if not isinstance(value, list):
        raise LevelError(source, f"{key} must be a list of numbers, not {type(value).__name__}")
    if len(value) != count:
        raise LevelError(source, f"{key} has {len(value)} entries, board has {count} {what}")
    for index, tally in enumerate(value):
        if tally is None:
            continue
        if not _is_int(tally):
            raise LevelError(source, f"{key}[{index}] must be a whole number or null, not {short_repr(tally)}")
        if tally < 0:
            raise LevelError(source, f"{key}[{index}] is negative ({short_repr(tally)})")
        if tally > other:
            raise LevelError(source, f"{key}[{index}] is {short_repr(tally)} but the line has only {other} cells")
    return tuple(value)


_HINT_KEY = re.compile(rf"([0-9]{{1,{MAX_DIGITS}}}),([0-9]{{1,{MAX_DIGITS}}})")


def _parse_coord(key: Any, rows: int, cols: int, source: str) -> Coord:
    # Only ASCII digits, no signs or spaces: int() would also take "+1", " 1" and "١".
    match = _HINT_KEY.fullmatch(key) if isinstance(key, str) else None
    if match is None:
        raise LevelError(source, f"hint key {short_repr(key)} is not \"row,col\" (digits 0-9)")
    row, col = int(match.group(1)), int(match.group(2))
    if not (0 <= row < rows and 0 <= col < cols):
        raise LevelError(source, f"hint {key!r} is outside a {rows}x{cols} board")
    return row, col


def _read_board(value: Any, rows: int, cols: int, source: str) -> dict[Coord, Hint]:
    if not isinstance(value, dict):
        raise LevelError(source, f"board must be an object of \"row,col\": code, not {type(value).__name__}")
    hints: dict[Coord, Hint] = {}
    for key, code in value.items():
        where = _parse_coord(key, rows, cols, source)
        if not isinstance(code, str) or code.strip().lower() not in HINT_CODES:
            raise LevelError(source, f"hint {key!r} has unknown code {short_repr(code)} "
                                     f"(known: {', '.join(HINT_CODES)})")
        if where in hints:
            raise LevelError(source, f"hint {key!r} names cell {where[0]},{where[1]} a second time")
        hints[where] = HINT_CODES[code.strip().lower()]
    return hints


def _read_solution(value: Any, rows: int, cols: int, source: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != rows:
        raise LevelError(source, f"solution must be a list of {rows} row strings")
    for index, line in enumerate(value):
        if not isinstance(line, str) or len(line) != cols or set(line) - {".", "#"}:
            raise LevelError(source, f"solution row {index} must be {cols} characters of '.' and '#', "
                                     f"not {short_repr(line)}")
    return tuple(value)


def check_consistency(puzzle: Puzzle, source: str) -> None:
    """Problems that make a level impossible to read sensibly, found without search."""
    ship_cells = puzzle.ship_cells
    longest = puzzle.longest_ship
    if longest > max(puzzle.rows, puzzle.cols):
        raise LevelError(source, f"the fleet has a ship of length {longest}, longer than a "
                                 f"{puzzle.rows}x{puzzle.cols} board")
    # Each ship with the row below it and the column after it claims a (length+1) x 2 block of
    # a (rows+1) x (cols+1) board, and no two blocks overlap (ships never touch).
    needed = sum((length + 1) * 2 * count for length, count in puzzle.fleet)
    if needed > (puzzle.rows + 1) * (puzzle.cols + 1):
        raise LevelError(source, f"the fleet ({puzzle.ship_count} ships, {ship_cells} cells) cannot fit "
                                 f"on a {puzzle.rows}x{puzzle.cols} board without ships touching")
    for name, tallies in (("row_numbers", puzzle.row_tallies), ("col_numbers", puzzle.col_tallies)):
        known = [t for t in tallies if t is not None]
        total = sum(known)
        if len(known) == len(tallies) and total != ship_cells:
            raise LevelError(source, f"{name} add up to {total}, the fleet has {ship_cells} ship cells")
        if total > ship_cells:
            raise LevelError(source, f"{name} add up to at least {total}, the fleet has only {ship_cells} ship cells")
    ship_hints = sum(1 for hint in puzzle.hints.values() if hint.is_ship)
    if ship_hints > ship_cells:
        raise LevelError(source, f"{ship_hints} ship hints, the fleet has only {ship_cells} ship cells")


# --------------------------------------------------------------------------- writing .bs


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """The JSON object of a level: the original keys, extensions only where needed."""
    square = puzzle.rows == puzzle.cols
    data: dict[str, Any] = {}
    if square:
        data["size"] = puzzle.rows
    else:
        data["rows"], data["cols"] = puzzle.rows, puzzle.cols
    if not (square and DEFAULT_FLEETS.get(puzzle.rows) == puzzle.fleet):
        data["fleet"] = {str(length): count for length, count in puzzle.fleet}
    data["board"] = {f"{r},{c}": CODE_OF_HINT[hint] for (r, c), hint in puzzle.hints.items()}
    data["row_numbers"] = list(puzzle.row_tallies)
    data["col_numbers"] = list(puzzle.col_tallies)
    for key in TEXT_KEYS:
        if getattr(puzzle, key) is not None:
            data[key] = getattr(puzzle, key)
    if puzzle.solution is not None:
        data["solution"] = list(puzzle.solution)
    return data


def dumps(puzzle: Puzzle) -> str:
    """The text of a level: a key a line, a hint or a solution row a line. A level whose text so
    laid out would pass ``MAX_FILE_BYTES`` (a name near the limit) is written compact, no
    longer than any file the reader took it from, so it reads back."""
    data = to_dict(puzzle)
    lines = ["{"]
    items = list(data.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key == "solution":
            inner = ",\n".join(f"    {json.dumps(row)}" for row in value)
            lines.append(f'  "solution": [\n{inner}\n  ]{comma}')
        elif key == "board" and value:
            inner = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            lines.append(f'  "board": {{\n{inner}\n  }}{comma}')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    return text


def save(puzzle: Puzzle, path: Union[str, os.PathLike]) -> None:
    files.write_text(path, dumps(puzzle), parents=True)


# --------------------------------------------------------------------------- corpus .jsonl

CORPUS_KINDS = {hint.value: hint for hint in Hint}
EMPTY_CORPUS = "holds no levels (a corpus .jsonl is one level a line)"


def from_corpus_record(record: Any, source: str) -> Puzzle:
    """One line of the corpus schema (see the corpus README) as a Puzzle."""
    if not isinstance(record, dict):
        raise LevelError(source, "a corpus line is a JSON object")
    try:
        data = {
            "rows": record["rows"], "cols": record["cols"],
            "fleet": record["fleet"],
            "row_numbers": record["row_tallies"],
            "col_numbers": record["col_tallies"],
            "name": corpus_ident(record) or None,
            "source": record.get("source"),
            "solution": record.get("solution"),
        }
    except KeyError as error:
        raise LevelError(source, f"corpus line lacks {error.args[0]!r}") from None
    hints_in = record.get("hints")
    if hints_in is None:
        hints_in = []
    if not isinstance(hints_in, list):
        raise LevelError(source, "hints must be a list of [row, col, kind]")
    board: dict[str, str] = {}
    for item in hints_in:
        if not (isinstance(item, list) and len(item) == 3 and _is_int(item[0]) and _is_int(item[1])
                and isinstance(item[2], str) and item[2] in CORPUS_KINDS):
            raise LevelError(source, f"hint {short_repr(item)} is not [row, col, kind] "
                                     f"(kinds: {', '.join(CORPUS_KINDS)})")
        if item[0] < 0 or item[1] < 0:
            raise LevelError(source, f"hint {short_repr(item)} is outside the board")
        key = f"{item[0]},{item[1]}"
        if key in board:
            raise LevelError(source, f"hint {short_repr(item)} names cell {key} a second time")
        board[key] = CODE_OF_HINT[CORPUS_KINDS[item[2]]]
    data["board"] = board
    return from_dict(data, source)


_IDENT = re.compile(r"[\w.+-]{1,100}", re.ASCII)


def corpus_ident(record: Mapping[str, Any]) -> str:
    """A record's ``id`` when it is a plain name (it becomes part of labels); else ''."""
    ident = record.get("id")
    if _is_int(ident) or isinstance(ident, str):
        ident = str(ident)
        return ident if _IDENT.fullmatch(ident) else ""
    return ""


def iter_corpus(path: Union[str, os.PathLike]) -> Iterator[tuple[str, Union[Puzzle, LevelError]]]:
    """(id, puzzle or the error for that line) for each non-blank line of a ``.jsonl`` file.

    Every line is read, decoded and checked on its own, within the limits (a line is at
    most MAX_FILE_BYTES), so one bad line is one error and the rest still load.
    """
    path = Path(path)
    with open_regular(path) as handle:
        for number in itertools.count(1):
            try:
                raw = handle.readline(MAX_FILE_BYTES + 1)
            except OSError as error:
                yield f"line{number}", LevelError(path, f"cannot be read ({files.reason(error)})")
                return
            if not raw:
                return
            where = f"{path}:{number}"
            if len(raw) > MAX_FILE_BYTES:
                while raw and not raw.endswith(b"\n"):  # skip the rest of the line, bounded reads
                    raw = handle.readline(MAX_FILE_BYTES)
                yield f"line{number}", LevelError(where, f"line is longer than {MAX_FILE_BYTES:,} bytes")
                continue
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                yield f"line{number}", LevelError(where, f"is not UTF-8 text (bad byte at offset {error.start})")
                continue
            if not line.strip():
                continue
            try:
                record = decode_json(line, where)
            except LevelError as error:
                yield f"line{number}", error
                continue
            ident = (corpus_ident(record) if isinstance(record, dict) else "") or f"line{number}"
            try:
                yield ident, from_corpus_record(record, where)
            except LevelError as error:
                yield ident, error


def read_corpus(path: Union[str, os.PathLike]) -> Iterator[tuple[str, Puzzle]]:
    """(id, puzzle) for every line; raises the first line's LevelError."""
    for ident, item in iter_corpus(path):
        if isinstance(item, LevelError):
            raise item
        yield ident, item


def corpus_record_count(record: Mapping[str, Any]) -> int | None:
    value = record.get("n_solutions")
    return value if _is_int(value) else None
