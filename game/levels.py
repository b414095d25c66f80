"""Reading and writing levels: the ``.bs`` JSON format and the corpus JSON-lines schema.

Parsing is separate from judging: this module checks that a file *describes* a puzzle
(types, sizes, hint codes, tallies that can add up to the fleet); whether the puzzle has
one solution, several or none is for the solvers (``main.py check``).

Every problem is a :class:`LevelError` whose message names the file and what is wrong,
e.g. ``levels/x.bs: row_numbers has 9 entries, board has 10 rows``. Loading never
half-loads: a level is returned whole or not at all.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterator, Mapping, Union

from game.puzzle import DEFAULT_FLEETS, Coord, Fleet, Hint, Puzzle, make_fleet

MAX_FILE_BYTES = 1_000_000
MAX_SIDE = 100

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
        super().__init__(f"{self.source}: {reason}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------- reading .bs


def load(path: Union[str, os.PathLike]) -> Puzzle:
    """Read a ``.bs`` file; raise :class:`LevelError` naming the file on any problem."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise LevelError(path, f"file is {size:,} bytes; a level is at most {MAX_FILE_BYTES:,}")
        data = path.read_bytes()
    except LevelError:
        raise
    except IsADirectoryError:
        raise LevelError(path, "is a folder, not a level file") from None
    except FileNotFoundError:
        raise LevelError(path, "no such file") from None
    except OSError as error:
        raise LevelError(path, f"cannot be read ({error.strerror or error})") from None
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
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LevelError(source, f"is not valid JSON: {error.msg} at line {error.lineno}, "
                                 f"column {error.colno}") from None
    except RecursionError:
        raise LevelError(source, "is not valid JSON: nested too deeply") from None
    return from_dict(data, source)


def from_dict(data: Any, source: str = "<level>") -> Puzzle:
    """Validate the decoded JSON of a ``.bs`` level and build the Puzzle."""
    if not isinstance(data, dict):
        raise LevelError(source, f"a level is a JSON object, not {type(data).__name__}")
    unknown = [key for key in data if key not in ORIGINAL_KEYS + EXTENSION_KEYS]
    if unknown:
        raise LevelError(source, f"unknown key {unknown[0]!r} (allowed: {', '.join(ORIGINAL_KEYS + EXTENSION_KEYS)})")
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
                raise LevelError(source, f"{key} must be a whole number, not {value!r}")
            if not 1 <= value <= MAX_SIDE:
                raise LevelError(source, f"{key} is {value}; it must be between 1 and {MAX_SIDE}")
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
        raise LevelError(source, f"missing key 'fleet': a {rows}x{cols} board has no default fleet "
                                 f"(square sizes {sizes} do)")
    if not isinstance(value, dict) or not value:
        raise LevelError(source, f"fleet must be an object like {{\"4\": 1, \"3\": 2}}, not {value!r}")
    counts = {}
    for key, count in value.items():
        try:
            length = int(str(key).strip())
        except ValueError:
            raise LevelError(source, f"fleet key {key!r} is not a ship length") from None
        if length < 1:
            raise LevelError(source, f"fleet has ships of length {length}; lengths start at 1")
        if not _is_int(count) or count < 0:
            raise LevelError(source, f"fleet count for length {length} must be a whole number >= 0, not {count!r}")
        if length in counts:
            raise LevelError(source, f"fleet names length {length} twice")
        counts[length] = count
    fleet = make_fleet(counts)
    if not fleet:
        raise LevelError(source, "fleet has no ships")
    return fleet


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
            raise LevelError(source, f"{key}[{index}] must be a whole number or null, not {tally!r}")
        if tally < 0:
            raise LevelError(source, f"{key}[{index}] is negative ({tally})")
        if tally > other:
            raise LevelError(source, f"{key}[{index}] is {tally} but the line has only {other} cells")
    return tuple(value)


def _parse_coord(key: Any, rows: int, cols: int, source: str) -> Coord:
    parts = str(key).split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        row, col = int(parts[0].strip()), int(parts[1].strip())
    except ValueError:
        raise LevelError(source, f"hint key {key!r} is not \"row,col\"") from None
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
            raise LevelError(source, f"hint {key!r} has unknown code {code!r} "
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
            raise LevelError(source, f"solution row {index} must be {cols} characters of '.' and '#', not {line!r}")
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
    return "\n".join(lines) + "\n"


def atomic_write_text(path: Union[str, os.PathLike], text: str) -> None:
    """Write through a temporary file and rename, so a crash never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save(puzzle: Puzzle, path: Union[str, os.PathLike]) -> None:
    atomic_write_text(path, dumps(puzzle))


# --------------------------------------------------------------------------- corpus .jsonl

CORPUS_KINDS = {hint.value: hint for hint in Hint}


def from_corpus_record(record: Any, source: str) -> Puzzle:
    """One line of the corpus schema (see the corpus README) as a Puzzle."""
    if not isinstance(record, dict):
        raise LevelError(source, "a corpus line is a JSON object")
    try:
        rows, cols = record["rows"], record["cols"]
        hints_in = record.get("hints") or []
        data = {
            "rows": rows, "cols": cols,
            "fleet": record["fleet"],
            "row_numbers": record["row_tallies"],
            "col_numbers": record["col_tallies"],
            "board": {},
            "name": str(record.get("id", "")) or None,
            "source": record.get("source"),
            "solution": record.get("solution"),
        }
    except KeyError as error:
        raise LevelError(source, f"corpus line lacks {error.args[0]!r}") from None
    if not isinstance(hints_in, list):
        raise LevelError(source, "hints must be a list of [row, col, kind]")
    board: dict[str, str] = {}
    for item in hints_in:
        if not (isinstance(item, list) and len(item) == 3 and item[2] in CORPUS_KINDS):
            raise LevelError(source, f"hint {item!r} is not [row, col, kind]")
        board[f"{item[0]},{item[1]}"] = CODE_OF_HINT[CORPUS_KINDS[item[2]]]
    data["board"] = board
    return from_dict(data, source)


def iter_corpus(path: Union[str, os.PathLike]) -> Iterator[tuple[str, Union[Puzzle, LevelError]]]:
    """(id, puzzle or the error for that line) for each non-blank line of a ``.jsonl`` file."""
    path = Path(path)
    try:
        handle = open(path, encoding="utf-8")
    except OSError as error:
        raise LevelError(path, f"cannot be read ({error.strerror or error})") from None
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                where = f"{path}:{number}"
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as error:
                    yield f"line{number}", LevelError(where, f"is not valid JSON: {error.msg}")
                    continue
                ident = str(record.get("id", f"line{number}")) if isinstance(record, dict) else f"line{number}"
                try:
                    yield ident, from_corpus_record(record, f"{path}#{ident}")
                except LevelError as error:
                    yield ident, error
        except UnicodeDecodeError:
            yield "?", LevelError(path, "is not UTF-8 text")


def read_corpus(path: Union[str, os.PathLike]) -> Iterator[tuple[str, Puzzle]]:
    """(id, puzzle) for every line; raises the first line's LevelError."""
    for ident, item in iter_corpus(path):
        if isinstance(item, LevelError):
            raise item
        yield ident, item


def corpus_record_count(record: Mapping[str, Any]) -> int | None:
    value = record.get("n_solutions")
    return value if _is_int(value) else None
