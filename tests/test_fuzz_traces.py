"""Property-based fuzzing of the trace reader and the replay window: whatever a trace holds,
reading it gives a trace or one ``file:line: problem`` line, and a trace the reader accepts is
drawn by the replay at any event without an error (the reader checks what the window uses).

The default run tries a hundred hostile traces; ``pytest -m slow`` runs the long campaign.
"""

import contextlib
import io
import json
import os
import tempfile
from functools import cache
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import main  # noqa: E402
from game import levels  # noqa: E402
from game.levels import LevelError  # noqa: E402
from solvers.engine import trace  # noqa: E402
from solvers.events import Generation, Result, Ship, Status  # noqa: E402
from tests.test_fuzz_levels import huge_ints, values  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"


@cache
def base_traces() -> tuple[tuple[str, ...], ...]:
    """Good traces to damage, as lists of lines: a logic run (explained steps), a
    backtracking run (decisions) and two genetic generations (stats and fleets)."""
    puzzle = levels.load(LEVEL)
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        for solver in ("logic", "backtracking"):
            path = Path(folder) / f"{solver}.jsonl"
            trace.record_run(puzzle, solver, path)
            runs.append(tuple(path.read_text(encoding="utf-8").splitlines()))
        path = Path(folder) / "genetic.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            writer = trace.TraceWriter(handle, puzzle, "genetic", {}, 0)
            for number in (1, 2):
                writer.event(Generation(number, 3.0, 7.5, (Ship(0, 0, 2, True), Ship(2, 5, 3, False))))
            writer.result(Result(Status.STOPPED, None, {"seconds": 0.1}))
        runs.append(tuple(path.read_text(encoding="utf-8").splitlines()))
    return tuple(runs)


hostile_text = st.one_of(
    st.sampled_from(["evil\u0000name", "\u001b[2J", "\ud800", "\u202egnp.exe", "../../etc/passwd", ""]),
    st.integers(1, 12_000).map(lambda n: "w" * n),
    st.text(max_size=20),
)
hostile = st.one_of(values, huge_ints, hostile_text,
                    st.just([[0, 0, 10 ** 15, "h"]]), st.just([[-1, 2, 3, "v"]]), st.just([[5, 5, 4, "h"]]),
                    st.just({"generation": "abc", "best": {"x": 1}}), st.just({"generation": 10 ** 12}),
                    st.just([{"row": 0, "col": 0, "state": "ship"}] * 3))
EVENT_KEYS = ["n", "kind", "cells", "depth", "detail", "stats", "fleet", "solution", "message"]
HEADER_KEYS = ["solver", "options", "seed", "limit", "level", "start", "version"]


@st.composite
def trace_texts(draw) -> str:
    lines = [json.loads(line) for line in draw(st.sampled_from(base_traces()))]
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        what = draw(st.sampled_from(["value", "stat", "name", "key", "drop", "repeat", "swap"]))
        if what == "value" and isinstance(line, dict):
            keys = HEADER_KEYS if index == 0 else EVENT_KEYS
            line[draw(st.sampled_from(keys))] = draw(hostile)
        elif what == "stat" and isinstance(line, dict) and isinstance(line.get("stats"), dict):
            line["stats"][draw(st.sampled_from(["generation", "best", "mean", "nodes", "x" * 50]))] = draw(hostile)
        elif what == "name" and isinstance(lines[0], dict) and isinstance(lines[0].get("level"), dict):
            lines[0]["level"][draw(st.sampled_from(["name", "author", "source"]))] = draw(hostile_text)
        elif what == "key" and isinstance(line, dict):
            line[draw(hostile_text)] = draw(hostile)
        elif what == "drop" and len(lines) > 2:
            lines.pop(index)
        elif what == "repeat":
            lines.insert(index, lines[index])
        elif what == "swap" and len(lines) > 2:
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
    text = "".join(json.dumps(line, ensure_ascii=draw(st.booleans())) + "\n" for line in lines)
    textual = draw(st.sampled_from(["none", "none", "cut", "bytes", "blank"]))
    if textual == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    elif textual == "bytes":
        raw = bytearray(text.encode("utf-8", "surrogatepass"))
        for _ in range(draw(st.integers(1, 4))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        text = raw.decode("utf-8", "replace")
    elif textual == "blank":
        text = text.replace("\n", "\n\n", 1)
    return text


_WINDOW = []


def window():
    """One headless window for the whole run (a window per example would take most of it)."""
    if not _WINDOW:
        from window.app import App

        _WINDOW.append(App(window=(1000, 700)))
    return _WINDOW[0]


@pytest.fixture(scope="module", autouse=True)
def close_window():
    yield
    if _WINDOW:
        _WINDOW.pop().shutdown()


def _read_or_one_line_and_draw(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            trace.read_trace(path)
        except LevelError as error:
            message = str(error)
            assert message.startswith(f"{path}:") and "\n" not in message and len(message) < 600, message
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                assert main.main(["replay", str(path), "--print"]) == 2
            assert out.getvalue() == "" and err.getvalue().count("\n") == 1
            return
        app = window()
        assert app.open_replay(path), app.startup_message
        scene = app.overlay
        for n in sorted({0, 1, scene.run.events // 2, scene.run.events}):
            scene.goto(n)
            app.draw()
        assert scene.problem == ""
        app.overlay = None


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(trace_texts())
def test_any_damaged_trace_is_read_and_drawn_or_refused_in_one_line(text):
    _read_or_one_line_and_draw(text)


@pytest.mark.slow
@settings(max_examples=5_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(trace_texts())
def test_long_campaign_of_hostile_traces(text):
    _read_or_one_line_and_draw(text)


def test_a_huge_version_is_refused_in_one_short_line():
    """Found by the fuzz test above: a version hundreds of digits long was echoed whole."""
    header = ('{"format": "battleship-solitaire-trace", "version": 1, "solver": "x", "options": {}, "seed": 0, '
              '"limit": 1, "level": {"size": 6}, "start": ["??????", "??????", "??????", "??????", "??????", '
              '"??????"]}')
    _read_or_one_line_and_draw(header.replace('"version": 1', f'"version": {"9" * 700}') + "\n")
