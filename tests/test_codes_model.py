"""Share codes against a plain model of what a code holds, at every size within the limits.

The model, from docs/guide/daily-codes-records.md and game/codes.py's docstring: a code holds
the board's size, each tally (an unknown one too), the fleet (the standard one of the size left
out), the given cells with their kinds and, when asked, the name (at most 255 bytes of it, never
half a character); it is ``bs1-`` and lowercase letters and digits; case, spaces, dashes and
the look-alikes ``i l o`` do not matter; the last four characters are a checksum, so a changed
character is refused; anything else is refused with one line (:class:`game.codes.CodeError`),
in bounded time and memory, and a code only ever opens a puzzle the level reader accepts.

Puzzles are drawn at every size from 1x1 to the limits (game/limits.py), with standard and
custom fleets, known and unknown tallies, hints of every kind and names of any text, and made
through the level reader, so each is a level a player could open. The default run is small;
``pytest -m slow`` runs many more examples and prints the figures (lengths, decode times).
"""

from __future__ import annotations

import math
import time
import tracemalloc
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import codes, levels
from game.limits import MAX_FLEET_SHIPS, MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import DEFAULT_FLEETS, Hint, Puzzle
from window.storage import level_key

KINDS = tuple(Hint)
CODE_CHARACTERS = set("0123456789abcdefghjkmnpqrstvwxyz")
# Names of characters of two and three bytes, long enough to be cut at 255 bytes (never mid-character).
WIDE_NAMES = st.text(st.characters(min_codepoint=0x80, exclude_categories=("Cs",)), min_size=80, max_size=200)
FIGURES: Counter = Counter()
SLOWEST: dict[str, float] = {}


def held(puzzle: Puzzle, name: bool = False) -> tuple:
    """What a code holds, as the guide lists it."""
    fleet = None if puzzle.rows == puzzle.cols and DEFAULT_FLEETS.get(puzzle.rows) == puzzle.fleet else puzzle.fleet
    kept = None
    if name and puzzle.name:
        data = puzzle.name.encode("utf-8")[:255]
        while data:
            try:
                kept = data.decode("utf-8")
                break
            except UnicodeDecodeError:         # cut inside a character: that character goes
                data = data[:-1]
        kept = kept or None
    return (puzzle.rows, puzzle.cols, puzzle.row_tallies, puzzle.col_tallies, fleet,
            sorted((cell, hint.value) for cell, hint in puzzle.hints.items()), kept)


@st.composite
def fleets(draw, rows: int, cols: int):
    """A fleet the level reader takes for this board: the standard one, or any that fits."""
    if rows == cols and rows in DEFAULT_FLEETS and draw(st.booleans()):
        return None
    room = (rows + 1) * (cols + 1)
    longest = draw(st.integers(1, min(MAX_SHIP_LENGTH, max(rows, cols))))
    counts, ships = {}, 0
    for length in range(longest, 0, -1):
        most = min(MAX_FLEET_SHIPS - ships, room // ((length + 1) * 2))
        count = draw(st.integers(1 if length == longest else 0, max(1 if length == longest else 0, most)))
        counts[length], ships, room = count, ships + count, room - (length + 1) * 2 * count
    return {str(length): count for length, count in counts.items()}


def tallies(draw, lines: int, across: int, ship_cells: int) -> list:
    values = draw(st.lists(st.one_of(st.none(), st.integers(0, across)), min_size=lines, max_size=lines))
    for index in reversed(range(lines)):           # no more than the fleet's ship cells
        if sum(v for v in values if v is not None) <= ship_cells:
            break
        values[index] = None
    if None not in values and sum(values) != ship_cells:
        values[-1] = None                          # all known: they add up to the fleet, or one is left out
    return values


@st.composite
def puzzles(draw, largest: int = MAX_SIDE):
    """A level the level reader accepts, of any size up to ``largest`` a side."""
    rows = draw(st.one_of(st.integers(1, 12), st.integers(1, largest)))
    cols = draw(st.one_of(st.just(rows), st.integers(1, 12), st.integers(1, largest)))
    rows, cols = min(rows, largest), min(cols, largest)
    fleet = draw(fleets(rows, cols))
    if fleet is None and not (rows == cols and rows in DEFAULT_FLEETS):
        fleet = {"1": 1}
    ship_cells = sum(int(length) * count for length, count in fleet.items()) if fleet else \
        sum(length * count for length, count in DEFAULT_FLEETS[rows])
    rng = draw(st.randoms(use_true_random=False))
    total = rows * cols
    count = draw(st.one_of(st.integers(0, min(total, 12)), st.integers(0, total)))
    cells = rng.sample(range(total), count)
    board, ship_hints = {}, 0
    for cell in cells:
        kind = KINDS[rng.randrange(len(KINDS))]
        if kind.is_ship:
            if ship_hints >= ship_cells:
                kind = Hint.WATER
            else:
                ship_hints += 1
        board[f"{cell // cols},{cell % cols}"] = levels.CODE_OF_HINT[kind]
    data = {"rows": rows, "cols": cols, "board": board,
            "row_numbers": tallies(draw, rows, cols, ship_cells), "col_numbers": tallies(draw, cols, rows, ship_cells),
            "name": draw(st.one_of(st.none(), st.text(max_size=300), WIDE_NAMES))}
    if fleet is not None:
        data["fleet"] = fleet
    return levels.from_dict(data, "drawn level")


def check_one(puzzle: Puzzle, names: tuple[bool, ...] = (False, True)) -> None:
    for name in names:
        code = codes.encode(puzzle, name=name)
        assert code.startswith(codes.PREFIX) and set(code[4:]) <= CODE_CHARACTERS and codes.is_code(code)
        assert len(code) <= codes.MAX_CODE
        started = time.perf_counter()
        back = codes.decode(code)
        took = time.perf_counter() - started
        assert held(back, name) == held(puzzle, name)
        assert level_key(back) == level_key(puzzle)               # the same level: its progress and records
        assert codes.encode(back, name=name) == code              # the same puzzle, the same code
        assert codes.encode(levels.loads(levels.dumps(puzzle)), name=name) == code     # saved and read back
        assert levels.loads(levels.dumps(back)) == back           # a puzzle the level reader accepts
        FIGURES["codes"] += 1
        FIGURES["longest code"] = max(FIGURES["longest code"], len(code))
        size = f"{puzzle.rows}x{puzzle.cols}"
        SLOWEST[size] = max(SLOWEST.get(size, 0.0), took)


FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=5_000, deadline=None, suppress_health_check=list(HealthCheck))


@FAST
@given(puzzles())
def test_a_code_holds_what_the_guide_says_and_goes_back_to_the_same_level(puzzle):
    check_one(puzzle)


def test_every_size_within_the_limits_goes_to_a_code_and_back():
    """Each board size from 1x1 to 60x60 (square, and one other shape per side), a third of
    its cells given (every kind, submarines for the ship pieces), a fleet of as many submarines
    and a name of 400 bytes: the longest codes a player can make at each size."""
    water_kinds = [kind for kind in KINDS if not kind.is_ship]
    for rows in range(1, MAX_SIDE + 1):
        for cols in sorted({rows, MAX_SIDE + 1 - rows}):
            board = {f"{r},{c}": levels.CODE_OF_HINT[Hint.SUB if (r * cols + c) % 25 == 0 else
                                                     water_kinds[(r * cols + c) % len(water_kinds)]]
                     for r in range(rows) for c in range(cols) if (r + 2 * c) % 3 == 0}
            subs = sum(1 for value in board.values() if value == levels.CODE_OF_HINT[Hint.SUB])
            check_one(levels.from_dict({"rows": rows, "cols": cols, "board": board, "fleet": {"1": max(1, subs)},
                                        "row_numbers": [None] * rows, "col_numbers": [None] * cols,
                                        "name": "é" * 200}, "every size"), names=(True,))


def test_the_largest_code_within_the_limits_is_read_in_bounded_time_and_memory():
    """60x60, every cell given, a custom fleet and a name of 255 bytes: the longest code the
    limits allow, well within MAX_CODE, read in well under a second and a few MB."""
    water, sub = levels.CODE_OF_HINT[Hint.WATER], levels.CODE_OF_HINT[Hint.SUB]
    board = {f"{r},{c}": water if (r + c) % 40 else sub for r in range(MAX_SIDE) for c in range(MAX_SIDE)}
    ships = sum(1 for value in board.values() if value == sub)
    puzzle = levels.from_dict({"rows": MAX_SIDE, "cols": MAX_SIDE, "board": board, "fleet": {"1": ships},
                               "row_numbers": [None] * MAX_SIDE, "col_numbers": [None] * MAX_SIDE,
                               "name": "x" * 300}, "largest")
    code = codes.encode(puzzle, name=True)
    assert len(code) < codes.MAX_CODE / 2
    tracemalloc.start()
    started = time.perf_counter()
    back = codes.decode(code)
    took = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert held(back, True) == held(puzzle, True)
    assert took < 2.0 and peak < 50_000_000, (took, peak)


# ----- hostile text ---------------------------------------------------------------------------


def refused_or_sound(text) -> None:
    """Decode ``text``: a puzzle the level reader accepts, or one line naming the code. Never
    another exception, and within a bounded time."""
    started = time.perf_counter()
    try:
        puzzle = codes.decode(text)
    except codes.CodeError as error:
        message = str(error)
        assert message.startswith("code") and "\n" not in message and len(message) < 300, message
        outcome = "refused"
    else:
        assert levels.loads(levels.dumps(puzzle)) == puzzle
        outcome = "opened"
    took = time.perf_counter() - started
    assert took < 2.0
    SLOWEST["hostile"] = max(SLOWEST.get("hostile", 0.0), took)
    FIGURES[f"hostile {outcome}"] += 1
    if isinstance(text, str):
        codes.is_code(text)                                        # never raises either


def forged(body: str) -> str:
    """A code with a right checksum around any digits (what a hostile page could hand out)."""
    return codes.PREFIX + body + codes._check(body)


HOSTILE = st.one_of(
    st.text(max_size=200),
    st.text(max_size=200).map(lambda tail: "bs1-" + tail),
    st.text(alphabet=codes.ALPHABET, min_size=1, max_size=3_000).map(forged),
    st.integers(0, 2 ** 4000).map(lambda value: forged(codes._digits(value))),
    # a sound code's digits changed a little, behind a right checksum: often another sound puzzle
    st.tuples(puzzles(largest=12), st.integers(-(2 ** 12), 2 ** 12)).map(
        lambda pair: forged(codes._digits(max(0, codes._pack(pair[0], name=False).value + pair[1])))),
    st.sampled_from(["bs1-" + "0" * 7_996, "bs1-" + "z" * 100_000, " " * 1_000_000 + "bs1-", "bs" + "9" * 5000 + "-",
                     "bs1-" + "-" * 50_000 + "abcde", "ＢＳ１-abc", "bs１-abc", "bs1-\x00\x00\x00\x00\x00",
                     "bs1-ⅰⅼℓ𝟎𝟏abcdef", "bs1-" + "\u212a" * 10]),
    st.builds(lambda: None), st.binary(max_size=20), st.integers(),
)


@FAST
@given(HOSTILE)
def test_hostile_text_is_a_sound_puzzle_or_one_line(text):
    refused_or_sound(text)


@FAST
@given(puzzles(largest=15), st.data())
def test_a_changed_character_is_refused(puzzle, data):
    """One character of the body changed to another code character: refused (unless, one time
    in a million, the change keeps the checksum right; the test then checks it really does)."""
    code = codes.encode(puzzle, name=data.draw(st.booleans()))
    at = data.draw(st.integers(4, len(code) - 1))
    other = data.draw(st.sampled_from([ch for ch in codes.ALPHABET if ch != code[at]]))
    changed = code[:at] + other + code[at + 1:]
    body = changed[4:]
    try:
        codes.decode(changed)
    except codes.CodeError as error:
        assert "checksum" in str(error)
    else:
        assert codes._check(body[:-4]) == body[-4:]


@FAST
@given(puzzles(largest=15), st.data())
def test_a_code_copied_as_people_copy_it_still_opens(puzzle, data):
    code = codes.encode(puzzle)
    body = code[4:]
    if data.draw(st.booleans()):
        body = body.upper()
    body = body.replace("1", data.draw(st.sampled_from("1iIlL"))).replace("0", data.draw(st.sampled_from("0oO")))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(body)), max_size=5)))
    pieces = [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)])]
    copied = data.draw(st.sampled_from(["bs1-", "BS1-", "Bs1-"])) + data.draw(st.sampled_from([" ", "-", "  "])).join(
        pieces)
    assert held(codes.decode(f" {copied}\n")) == held(puzzle)


@pytest.mark.slow
def test_long_campaign_of_codes():
    FIGURES.clear()
    SLOWEST.clear()
    run = settings(SLOW)(given(puzzles())(lambda puzzle: check_one(puzzle)))
    started = time.perf_counter()
    run()
    hostile = settings(SLOW)(given(HOSTILE)(refused_or_sound))
    hostile()
    took = time.perf_counter() - started
    worst = sorted(SLOWEST.items(), key=lambda item: -item[1])[:5]
    print(f"\ncodes model, long run: {dict(FIGURES)} in {took:.0f} s; slowest decodes (s): "
          + ", ".join(f"{size} {seconds:.4f}" for size, seconds in worst))
    assert FIGURES["codes"] >= 2 * 5_000 * 0.9 and math.isfinite(took)
