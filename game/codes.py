"""Share codes: a whole puzzle as one short line of text, safe in a URL and a chat message.

A code reads ``bs1-`` (the format's version) then lowercase Crockford base-32 digits
(``0-9`` and the letters but ``i l o u``; upper case and the look-alikes ``i l o`` are
read as ``1 1 0``, and ``-`` or spaces inside are ignored, so a code read aloud or copied
from a printed page still opens). The last four digits are a checksum (20 bits of SHA-256 of
the rest), so a mistyped code is refused with one line instead of opening another puzzle.

The digits before the checksum are one whole number in mixed radix: each field is a digit in
a base that the fields before it fix, least significant first:

    square? | rows-1 | (cols-1) | each row tally, then each column tally (0 = unknown, else tally+1)
    | fleet is the size's default? | (longest ship, then the count of each length 1..longest)
    | number of hints | which cells (the rank of that set of cells among all sets of its size)
    | each hint's kind | name? | (name length in bytes, then its UTF-8 bytes)

So an unknown tally, a custom fleet and a ship piece of unknown shape (``xs``) cost a few bits,
and a 10x10 level with a handful of hints takes about 40 characters. A code is read through
:func:`game.levels.from_dict`, so it passes the same checks as a ``.bs`` file.
"""

from __future__ import annotations

import hashlib
import math
import re

from game import levels
from game.limits import MAX_FLEET_SHIPS, MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import DEFAULT_FLEETS, Hint, Puzzle

PREFIX = "bs1-"
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"          # Crockford's base 32, lowercase
_VALUE = {ch: index for index, ch in enumerate(ALPHABET)}
_VALUE.update({"i": 1, "l": 1, "o": 0})
CHECK_DIGITS = 4
MAX_NAME_BYTES = 255
# The longest code a board within the limits can need is about 3,000 digits; more is not a code.
MAX_CODE = 8_000
KINDS = (Hint.WATER, Hint.SUB, Hint.MIDDLE, Hint.TOP, Hint.BOTTOM, Hint.LEFT, Hint.RIGHT, Hint.SHIP)
_LOOKS_LIKE = re.compile(r"bs[0-9]+-[^/\\.]*", re.IGNORECASE)


class CodeError(levels.LevelError):
    """A text that is not a sound share code; the message says why, in one line."""


def is_code(text: str) -> bool:
    """Whether a command-line argument is meant as a code rather than a path: it starts with
    ``bs`` and a version number and a dash, and holds no ``/``, ``\\`` or ``.``. (A file named
    like a code is opened as ``./bs1-...``.)"""
    return isinstance(text, str) and _LOOKS_LIKE.fullmatch(text.strip()) is not None


def label(code: str, width: int = 24) -> str:
    """A code shortened for a message or a title, anything but printable ASCII shown as ``?``."""
    code = code.strip()[:width + 1]
    code = "".join(ch if ch.isascii() and ch.isprintable() else "?" for ch in code)
    return code if len(code) <= width else code[: width - 3] + "..."


# --------------------------------------------------------------------------- mixed radix


class _Writer:
    def __init__(self) -> None:
        self.value, self.scale = 0, 1

    def put(self, digit: int, base: int) -> None:
        if not 0 <= digit < base:
            raise ValueError(f"digit {digit} outside base {base}")
        self.value += digit * self.scale
        self.scale *= base


class _Reader:
    def __init__(self, value: int, source: str) -> None:
        self.value, self.source = value, source

    def take(self, base: int) -> int:
        self.value, digit = divmod(self.value, base)
        return digit

    def done(self) -> None:
        if self.value:
            raise CodeError(self.source, "has digits left over after the puzzle; it is damaged")


def _rank(cells: list[int]) -> int:
    """The rank of a set of cell numbers (sorted) among all sets of its size: the
    combinatorial number system, so a set of k cells of n costs log2(C(n, k)) bits. The sum
    of ``comb(cell, index + 1)`` over the cells, each binomial updated in place from the one
    before (as ``_unrank`` walks them down), so the largest board encodes in milliseconds."""
    rank, value, c, k = 0, 0, 0, 0             # value == comb(c, k)
    for index, cell in enumerate(cells):
        if value:
            value = value * (c - k) // (k + 1)     # comb(c, k + 1) from comb(c, k)
            k += 1
        if not value:                              # (the first cells, and after a run from 0)
            c, k = cell, index + 1
            value = math.comb(c, k)
        while c < cell:                            # comb(c + 1, k) from comb(c, k)
            c += 1
            value = value * c // (c - k)
        rank += value
    return rank


def _unrank(rank: int, size: int, total: int) -> list[int]:
    """The set of ``size`` cells of ``total`` with this rank: each cell is the largest ``c``
    with ``comb(c, k) <= rank``, found by walking ``c`` down with the binomial updated in
    place (linear in ``total``, so the largest board decodes in milliseconds)."""
    cells: list[int] = []
    c, k = total - 1, size
    value = math.comb(c, k) if k else 0
    while k:
        while value > rank:                      # comb(c - 1, k) from comb(c, k)
            value = value * (c - k) // c
            c -= 1
        cells.append(c)
        rank -= value
        if k == 1 or c == 0:
            break
        value = value * k // c                   # comb(c - 1, k - 1) from comb(c, k)
        c, k = c - 1, k - 1
    return sorted(cells)


# --------------------------------------------------------------------------- writing


def kept_name(name: str | None) -> str | None:
    """What a code keeps of a name: its first ``MAX_NAME_BYTES`` bytes of UTF-8, never half a
    character (None for none)."""
    data = (name or "").encode("utf-8", "replace")[:MAX_NAME_BYTES]
    return data.decode("utf-8", "ignore") or None


def encode(puzzle: Puzzle, name: bool = False) -> str:
    """The puzzle's code; with ``name`` its name too (at most 255 bytes of it)."""
    body = _digits(_pack(puzzle, name).value)
    return PREFIX + body + _check(body)


def _pack(puzzle: Puzzle, name: bool) -> _Writer:
    out = _Writer()
    square = puzzle.rows == puzzle.cols
    out.put(int(square), 2)
    out.put(puzzle.rows - 1, MAX_SIDE)
    if not square:
        out.put(puzzle.cols - 1, MAX_SIDE)
    for tally in puzzle.row_tallies:
        out.put(0 if tally is None else tally + 1, puzzle.cols + 2)
    for tally in puzzle.col_tallies:
        out.put(0 if tally is None else tally + 1, puzzle.rows + 2)
    default = square and DEFAULT_FLEETS.get(puzzle.rows) == puzzle.fleet
    if square and puzzle.rows in DEFAULT_FLEETS:
        out.put(int(default), 2)
    if not default:
        counts = dict(puzzle.fleet)
        out.put(puzzle.longest_ship, MAX_SHIP_LENGTH + 1)
        for length in range(1, puzzle.longest_ship + 1):
            out.put(counts.get(length, 0), MAX_FLEET_SHIPS + 1)
    total = puzzle.rows * puzzle.cols
    cells = sorted(r * puzzle.cols + c for r, c in puzzle.hints)
    out.put(len(cells), total + 1)
    out.put(_rank(cells), math.comb(total, len(cells)))
    for cell in cells:
        out.put(KINDS.index(puzzle.hints[divmod(cell, puzzle.cols)]), len(KINDS))
    text = (kept_name(puzzle.name) or "").encode("utf-8") if name else b""
    out.put(int(bool(text)), 2)
    if text:
        out.put(len(text) - 1, MAX_NAME_BYTES)
        for byte in text:
            out.put(byte, 256)
    return out


def _digits(value: int) -> str:
    digits = []
    while value:
        value, digit = divmod(value, 32)
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits)) or ALPHABET[0]


def _check(body: str) -> str:
    number = int.from_bytes(hashlib.sha256((PREFIX + body).encode("ascii")).digest()[:4], "big")
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in range(CHECK_DIGITS - 1, -1, -1))


# --------------------------------------------------------------------------- reading


def decode(text: str) -> Puzzle:
    """The puzzle a code holds; :class:`CodeError` (one line naming the code) otherwise."""
    if not isinstance(text, str):
        raise CodeError("code", f"a code is text, not {type(text).__name__}")
    raw = text.strip()
    source = f"code {label(raw)}"
    if len(raw) > MAX_CODE:
        raise CodeError(source, f"is {len(raw):,} characters; a code is at most {MAX_CODE:,}")
    match = re.match(r"bs([0-9]+)-", raw, re.IGNORECASE)
    if not match:
        raise CodeError(source, f"does not start with {PREFIX!r}")
    if match.group(0).lower() != PREFIX:
        raise CodeError(source, f"is a version {match.group(1)[:6]} code; this version reads {PREFIX!r} codes")
    body = "".join(raw[match.end():].split()).replace("-", "").lower()
    bad = next((ch for ch in body if ch not in _VALUE), None)
    if bad is not None:
        raise CodeError(source, f"holds {bad!r}, which is not a code character (0-9, a-z but u)")
    if len(body) <= CHECK_DIGITS:
        raise CodeError(source, "is too short to hold a puzzle")
    body = "".join(ALPHABET[_VALUE[ch]] for ch in body)
    payload, check = body[:-CHECK_DIGITS], body[-CHECK_DIGITS:]
    if _check(payload) != check:
        raise CodeError(source, "fails its checksum: a character is mistyped or missing")
    value = 0
    for ch in payload:
        value = value * 32 + _VALUE[ch]
    return _puzzle(_Reader(value, source), source)


def _puzzle(read: _Reader, source: str) -> Puzzle:
    square = read.take(2)
    rows = read.take(MAX_SIDE) + 1
    cols = rows if square else read.take(MAX_SIDE) + 1
    row_tallies = [read.take(cols + 2) - 1 for _ in range(rows)]
    col_tallies = [read.take(rows + 2) - 1 for _ in range(cols)]
    data: dict = {"rows": rows, "cols": cols}
    default = square and rows in DEFAULT_FLEETS and read.take(2) == 1
    if not default:
        longest = read.take(MAX_SHIP_LENGTH + 1)
        data["fleet"] = {str(length): count for length in range(1, longest + 1)
                         if (count := read.take(MAX_FLEET_SHIPS + 1))}
    total = rows * cols
    count = read.take(total + 1)
    cells = _unrank(read.take(math.comb(total, count)), count, total)
    kinds = [KINDS[read.take(len(KINDS))] for _ in cells]
    board = {f"{cell // cols},{cell % cols}": levels.CODE_OF_HINT[kind] for cell, kind in zip(cells, kinds)}
    name = None
    if read.take(2):
        size = read.take(MAX_NAME_BYTES) + 1
        try:
            name = bytes(read.take(256) for _ in range(size)).decode("utf-8")
        except UnicodeDecodeError:
            raise CodeError(source, "holds a name that is not UTF-8 text; it is damaged") from None
    read.done()
    data.update(board=board, row_numbers=[None if t < 0 else t for t in row_tallies],
                col_numbers=[None if t < 0 else t for t in col_tallies])
    if name is not None:
        data["name"] = name
    try:
        return levels.from_dict(data, source)
    except CodeError:
        raise
    except levels.LevelError as error:
        raise CodeError(source, f"holds no sound puzzle ({error.reason})") from None
