"""Traces: written by ``solve --trace``, rebuilt by the format alone, damaged files refused."""

import json
from pathlib import Path

import pytest

import main
from game import levels, rules
from game.levels import LevelError
from game.puzzle import grid_from_strings, grid_to_strings
from solvers.engine import trace

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"
HARDER = ROOT / "levels" / "10x10" / "easy" / "01.bs"


def rebuild(path: Path, upto: int | None = None) -> tuple[list[str], dict]:
    """An independent reader, by the trace format's description only (docs/guide/racing-and-replay.md):
    start from the header's ``start`` rows, apply each event's cells in order; the result line is last."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    chars = {"ship": "#", "water": ".", "unknown": "?"}
    board = [list(row) for row in header["start"]]
    for line in lines[1:-1]:
        event = json.loads(line)
        if upto is not None and event["n"] > upto:
            break
        for cell in event["cells"]:
            board[cell["row"]][cell["col"]] = chars[cell["state"]]
    return ["".join(row).replace("?", ".") if upto is None else "".join(row) for row in board], json.loads(lines[-1])


def solve(capsys, *argv) -> tuple[int, dict]:
    code = main.main(["solve", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("solver", ["forward", "backtracking", "logic", "genetic"])
def test_a_trace_replays_by_the_format_alone_to_the_printed_solution(capsys, tmp_path, solver):
    out = tmp_path / "run.jsonl"
    code, record = solve(capsys, str(HARDER), "--solver", solver, "--trace", str(out))
    assert code == 0 and record["status"] == "solved"
    board, result = rebuild(out)
    assert board == record["solution"] == result["solution"]
    # the same run untraced prints the same solution
    code, plain = solve(capsys, str(HARDER), "--solver", solver)
    assert plain["solution"] == record["solution"]
    assert rules.is_solved(levels.load(HARDER), grid_from_strings(board))


def recorded(path: Path) -> tuple[list[dict], dict]:
    """A trace's events and result as the run decided them: heartbeats and times left out."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    moves = [line for line in lines[:-1] if line["kind"] != "progress"]
    for line in moves:
        line.pop("n")
    result = lines[-1]
    result.pop("events")
    result["stats"] = {key: value for key, value in result["stats"].items() if "second" not in key}
    return moves, result


@pytest.mark.parametrize("solver", ["forward", "backtracking", "logic", "genetic"])
def test_a_run_again_in_the_same_program_records_the_same_run(tmp_path, solver):
    # As the window does when a solver is run twice, or raced after a run or a hint.
    puzzle = levels.load(ROOT / "levels" / "10x10" / "expert" / "03.bs")
    runs = [trace.record_run(puzzle, solver, tmp_path / f"{k}.jsonl", seed=3) for k in range(2)]
    assert runs[0].status.value == "solved"
    first, again = recorded(tmp_path / "0.jsonl"), recorded(tmp_path / "1.jsonl")
    assert first[1] == again[1]                             # the same verdict, solution, nodes, backtracks
    assert first[0] == again[0]                             # the same moves in the same order, for the same reasons


def test_the_header_holds_the_level_solver_options_and_seed(tmp_path):
    out = tmp_path / "run.jsonl"
    puzzle = levels.load(LEVEL)
    trace.record_run(puzzle, "genetic", out, seed=7, options={"population": 30})
    header = json.loads(out.read_text().splitlines()[0])
    assert header["format"] == trace.FORMAT and header["version"] == trace.VERSION
    assert levels.from_dict(header["level"]) == puzzle
    assert header["solver"] == "genetic" and header["seed"] == 7 and header["options"]["population"] == 30
    kinds = {json.loads(line).get("kind") for line in out.read_text().splitlines()[1:]}
    assert "generation" in kinds and "result" in kinds


@pytest.fixture(scope="module")
def long_run(tmp_path_factory):
    """A backtracking run of some thousand events, read with a checkpoint every 64."""
    out = tmp_path_factory.mktemp("trace") / "run.jsonl"
    trace.record_run(levels.load(HARDER), "backtracking", out)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(trace, "CHECKPOINT_EVERY", 64)
        return out, trace.read_trace(out)


def test_board_at_agrees_with_the_independent_reader_at_every_step(long_run):
    out, run = long_run
    assert run.events > 1000 and len(run._checkpoints) > 10
    for n in (0, 1, 63, 64, 65, 777, run.events // 2, run.events):
        expected, _ = rebuild(out, upto=n)
        assert list(grid_to_strings(trace.board_at(run, n))) == expected


def test_scrubbing_backward_then_forward_gives_identical_boards(long_run):
    _, run = long_run
    steps = list(range(run.events, -1, -397))
    backward = [trace.board_at(run, n) for n in steps]
    forward = [trace.board_at(run, n) for n in reversed(steps)]
    assert backward == forward[::-1]
    assert trace.board_at(run, run.events) != trace.board_at(run, 0)
    assert [n for n, _ in trace.events(run, run.events - 2)] == [run.events - 2, run.events - 1, run.events]


def test_a_timed_out_run_is_a_valid_trace_without_solution(tmp_path):
    out = tmp_path / "run.jsonl"
    result = trace.record_run(levels.load(HARDER), "backtracking", out, timeout=0)
    run = trace.read_trace(out)
    assert result.status.value == run.verdict == "timeout" and run.solution is None


@pytest.fixture
def good(tmp_path) -> Path:
    out = tmp_path / "good.jsonl"
    trace.record_run(levels.load(LEVEL), "backtracking", out)
    return out


def damage(path: Path, edit) -> Path:
    lines = path.read_text().splitlines()
    lines = edit(lines)
    broken = path.with_name("broken.jsonl")
    broken.write_text("\n".join(lines) + "\n")
    return broken


def wrong_solution(lines):
    result = json.loads(lines[-1])
    result["solution"][0] = "".join("#" if ch == "." else "." for ch in result["solution"][0])
    return lines[:-1] + [json.dumps(result)]


def replayed_elsewhere(lines):
    event = json.loads(lines[1])
    event["cells"] = [{"row": 0, "col": 0, "state": "unknown"}]
    return [lines[0], json.dumps(event), *lines[2:]]


@pytest.mark.parametrize("edit, line, words", [
    (lambda lines: lines[:-1], "last+1", "without a result"),
    (lambda lines: lines[:3] + ["{not json"] + lines[4:], 4, "not valid JSON"),
    (lambda lines: lines[:2] + lines[3:], 3, "expected 2"),
    (lambda lines: lines + [lines[1]], "last", "follows the result"),
    (lambda lines: ['{"size": 6}'] + lines[1:], 1, "not a trace"),
    (lambda lines: [lines[0].replace('"version":1', '"version":9')] + lines[1:], 1, "newer"),
    (lambda lines: lines[:-1] + [lines[-1].replace('"nodes":', '"nodes":1234567890123')], "last", "digits"),
    (lambda lines: [lines[0], lines[1].replace('"row":', '"row":1' + '0' * 5000)] + lines[2:], 2, "JSON"),
    (lambda lines: [lines[0], lines[1].replace('"state":"', '"state":"x')] + lines[2:], 2, "state"),
    (lambda lines: [lines[0], lines[1].replace('"row":', '"row":9')] + lines[2:], 2, "outside"),
    (lambda lines: [lines[0], lines[1][:-1] + ',"extra":1}'] + lines[2:], 2, "unknown key"),
    (wrong_solution, "last", "breaks the rules"),
    (replayed_elsewhere, "last", "does not reach the solution"),
])
def test_a_damaged_or_foreign_trace_is_refused_naming_the_file_and_line(good, edit, line, words):
    broken = damage(good, edit)
    count = len(broken.read_text().splitlines())
    number = {"last": count, "last+1": count + 1}.get(line, line)
    with pytest.raises(LevelError) as caught:
        trace.read_trace(broken)
    message = str(caught.value)
    assert message.startswith(f"{broken}:{number}") and words in message and "\n" not in message


def test_a_level_file_is_not_a_trace(tmp_path):
    with pytest.raises(LevelError, match=r":1 .*level|:1: .*"):
        trace.read_trace(LEVEL)
    with pytest.raises(LevelError, match="empty"):
        (tmp_path / "empty.jsonl").write_text("")
        trace.read_trace(tmp_path / "empty.jsonl")


def test_replay_prints_the_board_at_an_event(capsys, good):
    run = trace.read_trace(good)
    assert main.main(["replay", str(good), "--at", "0", "--print"]) == 0
    out = capsys.readouterr().out
    assert f"event 0 of {run.events}" in out
    assert out.count("?") > 10
    assert main.main(["replay", str(good), "--print"]) == 0
    out = capsys.readouterr().out
    assert "?" not in out.split("\n", 2)[2]


def test_replay_prints_the_verdict_in_the_window_s_words(capsys, good, tmp_path):
    """``replay --print`` said the trace's raw verdict: "stopped" for a paused run's trace so
    far, "no_solution", where the window's replay says "paused" and "no solution exists"."""
    lines = good.read_text().splitlines()
    result = json.loads(lines[-1])
    for verdict, message, said in (("stopped", "paused", "paused"), ("no_solution", "", "no solution exists"),
                                   ("stopped", "", "stopped")):
        path = tmp_path / f"{verdict}-{message}.jsonl"
        ending = {**result, "verdict": verdict, "message": message, "solution": None}
        path.write_text("\n".join(lines[:-1] + [json.dumps(ending)]) + "\n")
        assert main.main(["replay", str(path), "--print"]) == 0
        assert capsys.readouterr().out.splitlines()[0].endswith(f"(backtracking, {said})")


def test_replay_of_a_bad_trace_or_event_is_one_line_and_exit_2(capsys, good, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    assert main.main(["replay", str(bad), "--print"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:1") and err.count("\n") == 1
    assert main.main(["replay", str(good), "--at", "999999", "--print"]) == 2
    assert "outside" in capsys.readouterr().err


def test_solve_trace_takes_one_level(capsys, tmp_path):
    code = main.main(["solve", str(LEVEL), str(HARDER), "--trace", str(tmp_path / "t.jsonl")])
    assert code == 2 and "one run" in capsys.readouterr().err
    assert not (tmp_path / "t.jsonl").exists()


def test_a_very_long_trace_keeps_a_bounded_number_of_checkpoints(long_run, monkeypatch):
    out, _ = long_run
    monkeypatch.setattr(trace, "CHECKPOINT_EVERY", 16)
    monkeypatch.setattr(trace, "MAX_CHECKPOINTS", 8)
    run = trace.read_trace(out)
    assert len(run._checkpoints) <= 8 + 1
    for n in (0, 15, 16, 17, run.events // 3, run.events):
        expected, _ = rebuild(out, upto=n)
        assert list(grid_to_strings(trace.board_at(run, n))) == expected


def test_numbers_json_cannot_hold_are_written_as_null():
    import io

    from solvers.events import Generation, Progress

    buffer = io.StringIO()
    writer = trace.TraceWriter(buffer, levels.load(LEVEL), "genetic", {}, 0)
    writer.event(Generation(1, float("inf"), float("nan"), ()))
    writer.event(Progress({"best_fitness": float("inf")}))
    writer.flush()

    def refuse(name):
        raise ValueError(name)

    generation, progress = (json.loads(line, parse_constant=refuse) for line in buffer.getvalue().splitlines()[1:])
    assert generation["stats"]["best"] is None and generation["stats"]["mean"] is None
    assert progress["stats"]["best_fitness"] is None


def test_a_solver_that_breaks_ends_its_trace_with_an_error(tmp_path, monkeypatch):
    from solvers.engine import registry

    def broken(puzzle, **_):
        yield from ()
        raise RuntimeError("boom")

    spec = registry.SOLVERS["forward"]
    monkeypatch.setattr(type(spec), "function", property(lambda self: broken))
    out = tmp_path / "run.jsonl"
    result = trace.record_run(levels.load(LEVEL), "forward", out)
    run = trace.read_trace(out)
    assert result.status.value == run.verdict == "error" and "boom" in run.message
    assert run.events == 1 and json.loads(out.read_text().splitlines()[1])["kind"] == "failure"


def test_solve_trace_into_a_missing_folder_is_one_line_and_exit_2(capsys, tmp_path):
    assert main.main(["solve", str(LEVEL), "--trace", str(tmp_path / "no" / "t.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "cannot be written" in err and err.count("\n") == 1


def kept_run(path: Path, level: Path, most: int | None, cut_back: int = 0) -> trace.Trace:
    """A backtracking run recorded as the window records it, keeping at most ``most`` events
    (the trace ended ``cut_back`` events before the run, as a window's stopped run is)."""
    from solvers.common import run_to_result
    from solvers.engine import registry
    from solvers.engine.batch import judge
    from solvers.events import Result, Status

    puzzle, spec = levels.load(level), registry.get("backtracking")
    options = spec.resolve({})
    recording = trace.Recording(path, puzzle, "backtracking", options, 0, most=most)
    stream = recording.wrap(lambda: spec.events(puzzle, trace=True, seed=0, options=options))
    result = judge(puzzle, run_to_result(stream()))
    if cut_back:                        # stopped where the board showed it
        result = Result(Status.STOPPED, None, result.stats, (), "stopped")
    recording.finish(result, recording.writer.count - cut_back if cut_back else None)
    return trace.read_trace(path)


@pytest.mark.parametrize("cut_back", [0, 700])
def test_a_run_longer_than_the_trace_keeps_its_latest_events_from_the_board_where_they_start(tmp_path, cut_back):
    level = ROOT / "levels" / "10x10" / "expert" / "01.bs"
    whole = kept_run(tmp_path / "whole.jsonl", level, None, cut_back)
    kept = kept_run(tmp_path / "kept.jsonl", level, 10_000, cut_back)
    assert whole.events > 30_000 and whole.dropped == 0
    assert 0 < kept.events <= 10_000 + trace.HELD + 4096 and kept.dropped + kept.events == whole.events
    assert (tmp_path / "kept.jsonl").stat().st_size < (tmp_path / "whole.jsonl").stat().st_size / 2
    for n in (0, 1, kept.events // 2, kept.events):
        assert trace.board_at(kept, n) == trace.board_at(whole, kept.dropped + n)
    assert (kept.verdict, kept.solution, kept.stats["nodes"]) == (whole.verdict, whole.solution, whole.stats["nodes"])
    # The format's description suffices: the header's start, then the events the file holds.
    assert rebuild(tmp_path / "kept.jsonl")[0] == rebuild(tmp_path / "whole.jsonl")[0]
    header = json.loads((tmp_path / "kept.jsonl").read_text().split("\n", 1)[0])
    assert header["dropped"] == kept.dropped and "dropped" not in json.loads(
        (tmp_path / "whole.jsonl").read_text().split("\n", 1)[0])


@pytest.mark.parametrize("edit, words", [
    (lambda header: {**header, "dropped": -1}, "dropped must be"),
    (lambda header: {**header, "dropped": "3"}, "dropped must be"),
    (lambda header: {**header, "start": ["." * 6] * 6, "dropped": 1}, "keep the level's hints"),
    (lambda header: {**header, "start": ["." * 6] * 6}, "starting board"),
])
def test_a_header_that_drops_events_is_checked(good, edit, words):
    broken = damage(good, lambda lines: [json.dumps(edit(json.loads(lines[0])))] + lines[1:])
    with pytest.raises(LevelError) as caught:
        trace.read_trace(broken)
    assert str(caught.value).startswith(f"{broken}:1") and words in str(caught.value)


def test_a_run_whose_every_detail_differs_is_recorded_in_bounded_memory(tmp_path):
    # The writer caches each (kind, depth, detail)'s line end: a solver of one's own that says
    # something new at every move (a node count in its sentence) grew the cache with the run
    # (600,000 such moves: 273 MB against 47 MB with one sentence).
    import io
    import tracemalloc

    from game.puzzle import Cell
    from solvers.events import Reason, SetCell

    puzzle = levels.load(LEVEL)
    writer = trace.TraceWriter(io.StringIO(), puzzle, "mine.py", {}, 0)
    filler = "x" * 900
    tracemalloc.start()
    try:
        for n in range(30_000):
            writer.event(SetCell(0, 0, Cell.SHIP, Reason.GUESS, f"{n} {filler}", 1))
            if len(writer._pending) > trace.HELD:
                writer.handle.seek(0)
                writer.handle.truncate()
                writer.flush(trace.HELD)
        writer.handle.seek(0)
        writer.handle.truncate()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 20_000_000            # a bounded cache and the lines held (some 60 MB when the cache kept all)


def test_a_trace_saved_with_a_byte_order_mark_reads_as_levels_and_settings_do(good, capsys):
    # An editor on Windows may save one in front of the header; levels, settings and saved
    # plays read past it, the trace reader refused the file ("Unexpected UTF-8 BOM").
    marked = good.with_name("marked.jsonl")
    marked.write_bytes(b"\xef\xbb\xbf" + good.read_bytes())
    run, again = trace.read_trace(good), trace.read_trace(marked)
    assert again.events == run.events and again.solution == run.solution
    for n in (0, 1, run.events // 2, run.events):
        assert trace.board_at(again, n) == trace.board_at(run, n)
    assert main.main(["replay", str(marked), "--print", "--at", "3"]) == 0
    assert capsys.readouterr().out.startswith(f"{marked}: event 3 of {run.events}")
