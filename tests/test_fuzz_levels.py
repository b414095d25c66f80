"""Property-based fuzzing of everything that reads levels: whatever the text, reading it gives
a Puzzle or one LevelError line naming the source, and the command line answers with exit
0, 1 or 2, never a traceback.

The default run tries a few hundred inputs; ``pytest -m slow`` runs the long campaign.
"""

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from game import levels
from game.levels import LevelError
from game.puzzle import Puzzle

VALID = {
    "size": 10,
    "board": {"1,0": "us", "1,4": "ms", "4,4": "ss", "4,7": "ms", "6,2": "ds", "6,6": "us"},
    "row_numbers": [1, 4, 1, 0, 5, 1, 2, 3, 1, 2],
    "col_numbers": [5, 0, 2, 1, 2, 2, 3, 1, 1, 3],
}
SMALL = {"rows": 2, "cols": 3, "fleet": {"1": 2}, "board": {"0,0": "ss"},
         "row_numbers": [1, 1], "col_numbers": [1, 0, 1], "name": "tiny"}
KEYS = list(levels.ORIGINAL_KEYS + levels.EXTENSION_KEYS)

huge_ints = st.integers(min_value=1, max_value=5000).map(lambda n: int("9" * n) if n < 4000 else 10 ** 12)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10 ** 15), max_value=10 ** 15),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["sw", "ss", "ms", "us", "ds", "ls", "rs", "xs", "1,2", "+0,+4", " 1,2", "\u0661,\u0662",
                     "4", "#.#", "\ud800"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=6), inner, max_size=6)), max_leaves=20)


def _text(data) -> str:
    return json.dumps(data, ensure_ascii=False)


@st.composite
def level_texts(draw) -> str:
    """A valid level with a few mutations, as text (some mutations only exist as text)."""
    data = json.loads(json.dumps(draw(st.sampled_from([VALID, SMALL]))))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        kind = draw(st.sampled_from(["value", "key", "item", "hint", "drop"]))
        if kind == "value":
            data[draw(st.sampled_from(KEYS))] = draw(values)
        elif kind == "key":
            data[draw(st.text(max_size=8))] = draw(values)
        elif kind == "item":
            key = draw(st.sampled_from(["row_numbers", "col_numbers", "board", "fleet"]))
            if isinstance(data.get(key), list) and data[key]:
                data[key][draw(st.integers(0, len(data[key]) - 1))] = draw(st.one_of(values, huge_ints))
            elif isinstance(data.get(key), dict):
                data[key][draw(st.text(max_size=8))] = draw(st.one_of(values, huge_ints))
        elif kind == "hint":
            data.setdefault("board", {})
            if isinstance(data["board"], dict):
                data["board"][f"{draw(st.integers(-3, 99))},{draw(st.integers(-3, 99))}"] = draw(
                    st.sampled_from(list(levels.HINT_CODES)))
        elif data:
            data.pop(draw(st.sampled_from(sorted(data))), None)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()), allow_nan=True)
    textual = draw(st.sampled_from(["none", "huge", "deep", "duplicate", "bytes", "cut"]))
    if textual == "huge":
        text = text.replace("10", "1" + "0" * draw(st.integers(1, 6000)), 1)
    elif textual == "deep":
        depth = draw(st.integers(1, 3000))
        text = text.replace('"name": "tiny"', '"name": ' + "[" * depth + "]" * depth)
        text = text.replace('"size": 10', '"size": ' + "[" * depth + "10" + "]" * depth)
    elif textual == "duplicate":
        text = text.replace('"board": {', '"board": {"0,0": "sw", ', 1)
    elif textual == "bytes":
        raw = bytearray(text.encode("utf-8", "surrogatepass"))
        for _ in range(draw(st.integers(1, 4))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        text = raw.decode("utf-8", "replace")
    elif textual == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    return text


def _loads_gives_a_puzzle_or_one_line(text: str) -> None:
    try:
        result = levels.loads(text, "fuzz.bs")
    except LevelError as error:
        message = str(error)
        assert message.startswith("fuzz.bs: ") and "\n" not in message and len(message) < 400, message
    else:
        assert isinstance(result, Puzzle)
        assert levels.loads(levels.dumps(result), "again.bs") == result


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(level_texts())
def test_reading_any_mutated_level_gives_a_puzzle_or_a_level_error(text):
    _loads_gives_a_puzzle_or_one_line(text)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=300))
def test_reading_any_bytes_gives_a_puzzle_or_a_level_error(raw):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bytes.bs"
        path.write_bytes(raw)
        try:
            assert isinstance(levels.load(path), Puzzle)
        except LevelError as error:
            assert str(error).startswith(str(path)) and "\n" not in str(error)


@st.composite
def corpus_lines(draw) -> str:
    record = {"id": "c-1", "rows": 2, "cols": 3, "fleet": {"1": 2}, "row_tallies": [1, 1],
              "col_tallies": [1, 0, 1], "hints": [[0, 0, "sub"]]}
    key = draw(st.sampled_from(sorted(record) + ["solution", "source"]))
    record[key] = draw(st.one_of(values, huge_ints, st.just([[0, 0, []]]), st.just([[0, 0, {}]])))
    return json.dumps(record, allow_nan=True)


FLAG_VALUES = st.sampled_from(["0", "1", "2", "-3", "nan", "inf", "-inf", "1e400", "0.5", "x", "", "9" * 30])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(level_texts(), min_size=1, max_size=3), st.lists(corpus_lines(), max_size=3),
       st.sampled_from(["solve", "check"]), FLAG_VALUES, FLAG_VALUES)
def test_the_command_line_answers_0_1_or_2_and_never_a_traceback(texts, lines, command, timeout, seed):
    with tempfile.TemporaryDirectory() as folder:
        for index, text in enumerate(texts):
            Path(folder, f"{index}.bs").write_text(text, encoding="utf-8", errors="surrogatepass")
        argv = [command, folder, "--timeout", timeout]
        if lines:
            Path(folder, "set.jsonl").write_text("\n".join(lines) + "\n")
            argv.append(str(Path(folder, "set.jsonl")))
        argv += ["--seed", seed] if command == "solve" else ["--jobs", "1"]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main.main(argv)
            except SystemExit as stop:
                code = stop.code
    assert code in (0, 1, 2), (code, err.getvalue())
    assert "Traceback" not in out.getvalue() + err.getvalue()


@pytest.mark.slow
@settings(max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(level_texts(), corpus_lines()))
def test_long_campaign_reading_levels_and_corpus_lines(text):
    _loads_gives_a_puzzle_or_one_line(text)
    try:
        levels.from_corpus_record(levels.decode_json(text, "fuzz.jsonl:1"), "fuzz.jsonl:1")
    except LevelError as error:
        assert "\n" not in str(error)
