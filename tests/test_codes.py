"""Share codes: every level goes to a code and back to the same puzzle; a damaged code is one
clear error; every command that takes a level takes a code."""

import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import codes, formats, levels
from game.codes import CodeError
from game.puzzle import Hint, Puzzle
from tests.test_hostile_new_features import run

ROOT = Path(__file__).resolve().parents[1]
PACK = sorted((ROOT / "levels").rglob("*.bs"))


def same_puzzle(a: Puzzle, b: Puzzle) -> bool:
    return (a.shape == b.shape and a.row_tallies == b.row_tallies and a.col_tallies == b.col_tallies
            and a.fleet == b.fleet and dict(a.hints) == dict(b.hints))


def test_every_level_of_the_pack_goes_to_a_code_and_back():
    assert len(PACK) > 150
    for path in PACK:
        puzzle = levels.load(path)
        code = codes.encode(puzzle)
        assert code.startswith("bs1-") and code.isascii() and code == code.strip()
        assert same_puzzle(codes.decode(code), puzzle), path
        named = codes.decode(codes.encode(puzzle, name=True))
        assert same_puzzle(named, puzzle) and named.name == puzzle.name


def test_a_10x10_level_of_the_pack_has_a_code_of_at_most_48_characters():
    lengths = [len(codes.encode(levels.load(path))) for path in PACK if "10x10" in path.parts]
    assert len(lengths) == 40 and max(lengths) <= 48


def test_every_level_of_the_corpus_goes_to_a_code_and_back(corpus_dir):
    seen = 0
    for path in sorted(corpus_dir.glob("*.jsonl")):
        for ident, puzzle in levels.iter_corpus(path):
            if isinstance(puzzle, levels.LevelError):
                continue                      # a line the reader refuses has no code either
            assert same_puzzle(codes.decode(codes.encode(puzzle, name=True)), puzzle), f"{path.name}#{ident}"
            seen += 1
    assert seen > 100


def test_unknown_tallies_custom_fleets_and_shapeless_pieces_survive():
    puzzle = Puzzle(7, 9, (None, 2, 0, None, 3, 1, 1), (1, None, 1, 1, 0, 2, None, 1, 1),
                    {3: 1, 2: 2, 1: 1}, {(0, 0): Hint.SHIP, (6, 8): Hint.WATER, (3, 4): Hint.MIDDLE},
                    name="Zürich ☃ " + "x" * 400)
    back = codes.decode(codes.encode(puzzle, name=True))
    assert same_puzzle(back, puzzle)
    assert back.name.startswith("Zürich ☃ ") and len(back.name.encode()) <= codes.MAX_NAME_BYTES


def test_the_rank_of_a_set_of_cells_goes_back_to_the_set():
    """The rank is the combinatorial number system's (the sum of comb(cell, index + 1)), as
    codes already shared were written, whatever way it is computed; runs of cells from 0 and
    the largest boards included."""
    rng = random.Random(7)
    for case in range(1500):
        total = rng.randint(1, 150) if case < 1490 else 3600
        cells = sorted(rng.sample(range(total), rng.randint(0, total)))
        if case % 3 == 0:                      # a run of cells from 0, then the rest
            run = rng.randint(0, total)
            cells = sorted(set(range(run)) | {c for c in cells if c > run})
        rank = codes._rank(cells)
        assert rank == sum(math.comb(cell, index + 1) for index, cell in enumerate(cells))
        assert rank < math.comb(total, len(cells)) and codes._unrank(rank, len(cells), total) == cells


def test_a_code_is_read_forgivingly_as_people_copy_it():
    code = codes.encode(levels.load(PACK[0]))
    body = code[4:]
    spaced = "BS1-" + " ".join(body[i:i + 4] for i in range(0, len(body), 4)).upper()
    assert same_puzzle(codes.decode(f"  {spaced} "), codes.decode(code))
    look_alikes = code[:4] + body.replace("1", "l").replace("0", "O")
    assert same_puzzle(codes.decode(look_alikes), codes.decode(code))


@pytest.mark.parametrize("text, words", [
    ("bs1-", "too short"), ("bs1-zz", "too short"), ("bs2-0000abcd", "version 2"),
    ("bs1-uuuuuuuu", "'u'"), ("xx1-abcd", "does not start"), ("bs1-" + "0" * 9000, "at most"),
])
def test_a_bad_code_is_one_line_naming_it(text, words):
    with pytest.raises(CodeError) as caught:
        codes.decode(text)
    message = str(caught.value)
    assert message.startswith("code ") and words in message and "\n" not in message and len(message) < 200


def _forged(value: int) -> str:
    """A code with a right checksum around any payload (what a hostile page could hand out)."""
    body = codes._digits(value)
    return codes.PREFIX + body + codes._check(body)


@pytest.mark.parametrize("value", [0, 1, 2 ** 64, 3 ** 200, 10 ** 500 + 17])
def test_a_forged_code_with_a_right_checksum_is_a_puzzle_or_one_line(value):
    try:
        assert isinstance(codes.decode(_forged(value)), Puzzle)
    except CodeError as error:
        assert str(error).startswith("code ") and "\n" not in str(error)


def test_a_code_with_leftover_digits_is_refused():
    packed = codes._pack(levels.load(PACK[0]), name=False)
    assert same_puzzle(codes.decode(_forged(packed.value)), levels.load(PACK[0]))
    with pytest.raises(CodeError, match="left over"):
        codes.decode(_forged(packed.value + 5 * packed.scale))


SAMPLE = [codes.encode(levels.load(path), name=bool(index % 2)) for index, path in enumerate(PACK[::25])]


@st.composite
def damaged_codes(draw) -> str:
    code = list(draw(st.sampled_from(SAMPLE)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["swap", "drop", "insert", "replace", "cut"]))
        at = draw(st.integers(4, max(4, len(code) - 1)))
        if kind == "swap" and at + 1 < len(code):
            code[at], code[at + 1] = code[at + 1], code[at]
        elif kind == "drop" and at < len(code):
            del code[at]
        elif kind == "insert":
            code.insert(at, draw(st.characters()))
        elif kind == "replace" and at < len(code):
            code[at] = draw(st.sampled_from(codes.ALPHABET + "uU!/.é\x00"))
        elif kind == "cut":
            code = code[:at]
    return "".join(code)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(damaged_codes())
def test_a_damaged_code_is_refused_with_one_line(text):
    try:
        puzzle = codes.decode(text)
    except CodeError as error:
        assert str(error).startswith("code ") and "\n" not in str(error) and len(str(error)) < 200
    else:
        # a change that keeps the digits' values (a swap of equal digits, a look-alike) reads the same
        assert any(same_puzzle(puzzle, codes.decode(code)) for code in SAMPLE)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=60).map(lambda tail: "bs1-" + tail))
def test_any_text_after_the_prefix_is_a_puzzle_or_one_line(text):
    try:
        assert isinstance(codes.decode(text), Puzzle)
    except CodeError as error:
        assert "\n" not in str(error)


def test_a_code_is_told_from_a_path():
    assert codes.is_code("bs1-hcebzexdpzkyavs95zq56hfmrtk4hk3") and codes.is_code("BS1-abc")
    for path in ("./bs1-abc", "levels/bs1-abc", "bs1-abc.bs", "level.bs", "bs-abc", "abs1-x"):
        assert not codes.is_code(path)


def test_the_code_command_prints_one_code_per_level_and_every_level_command_takes_one(tmp_path):
    code, out, err = run("code", ROOT / "levels" / "6x6" / "easy", ROOT / "levels" / "tutorial" / "first.bs")
    lines = out.split()
    assert code == 0 and len(lines) == 11 and all(codes.is_code(line) for line in lines)
    first = lines[0]
    assert same_puzzle(formats.load_any(first), levels.load(ROOT / "levels" / "6x6" / "easy" / "01.bs"))
    assert run("solve", first)[0] == 0
    status, out, _ = run("check", first)
    assert status == 0 and "unique" in out
    assert run("convert", first, tmp_path / "x.bs")[0] == 0
    assert same_puzzle(levels.load(tmp_path / "x.bs"), formats.load_any(first))
    assert run("race", first, "--solvers", "forward", "--timeout", "5")[0] == 0
    assert run("print", first, "-o", tmp_path / "x.pdf")[0] == 0 and (tmp_path / "x.pdf").stat().st_size > 0


def test_a_mistyped_code_on_the_command_line_is_one_line_and_exit_2():
    good = codes.encode(levels.load(PACK[0]))
    bad = good[:-1] + ("0" if good[-1] != "0" else "1")
    for argv in (("check", bad), ("solve", bad), ("code", bad), ("race", bad)):
        status, out, err = run(*argv)
        said = (out + err).strip()
        assert status == 2 and "checksum" in said and len(said.splitlines()) == 1, argv


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(damaged_codes(), min_size=1, max_size=3), st.sampled_from(["solve", "check", "code"]))
def test_the_command_line_answers_a_damaged_code_with_one_line_never_a_traceback(texts, command):
    status, out, err = run(command, *texts, *(["--timeout", "5"] if command != "code" else []))
    assert status in (0, 1, 2) and "Traceback" not in out + err


@pytest.mark.slow
@settings(max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(damaged_codes(), st.text(max_size=80).map(lambda tail: "bs1-" + tail)))
def test_long_campaign_reading_damaged_codes(text):
    try:
        assert isinstance(codes.decode(text), Puzzle)
    except CodeError as error:
        assert str(error).startswith("code ") and "\n" not in str(error)
