"""Solvers of one's own: a Python file, a program in another language, an installed package.

Each misbehaviour a student's solver may have is a test: it ends the run with one line that
names the solver and the problem, and never as solved. The built-in solvers' events pass the
same contract checker, written as trace lines.
"""

import dataclasses
import functools
import io
import json
import math
import os
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from game import levels, rules
from game.limits import MAX_TRACE_STATS
from game.puzzle import grid_from_strings, initial_grid
from main import main
from solvers.common import MAX_MET, replay, run_to_result, unknown_as_water
from solvers.engine import batch, race, registry, trace
from solvers.engine.runner import SolverRun
from solvers.events import Generation, Progress, Result, SetCell, Status
from solvers.own import spec as own
from solvers.own import template
from solvers.own.check import Contract, ContractError
from tests.conftest import ROOT

SIX = levels.load(ROOT / "levels/6x6/easy/01.bs")
NONE = SIX.replace(col_tallies=SIX.col_tallies[::-1], solution=None)     # a level without a solution
PACK = [ROOT / f"levels/{size}/{grade}/01.bs"
        for size in ("6x6", "8x8") for grade in ("easy", "medium", "hard", "expert")]


def write(folder, name, text, executable=False):
    path = folder / name
    path.write_text(textwrap.dedent(text))
    if executable:
        path.chmod(0o755)
    return path


def run(name, puzzle=SIX, timeout=30, **options):
    return run_to_result(registry.get(name).events(puzzle, options=options), timeout=timeout)


def one_line(result, name, *words):
    assert result.status is not Status.SOLVED
    assert "\n" not in result.message and result.message.startswith(f"{name}: ")
    for word in words:
        assert word in result.message, result.message


def script(folder, name, body):
    """A shell script as a ``cmd:`` solver."""
    return "cmd:" + str(write(folder, name, "#!/bin/sh\n" + body.replace("\\n", "\n"), executable=True))


@pytest.fixture(scope="module")
def c_solver(tmp_path_factory):
    """The C example, compiled by the machine's C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    program = tmp_path_factory.mktemp("c") / "placements"
    subprocess.run([compiler, "-O2", "-o", str(program), str(ROOT / "docs/examples/solvers/placements.c")], check=True)
    return f"cmd:{program}"


# ---------------------------------------------------------------- the template and the examples


def test_the_template_solves_pack_levels_and_its_test_passes(tmp_path):
    assert main(["new-solver", str(tmp_path / "mine.py")]) == 0
    name = str(tmp_path / "mine.py")
    assert registry.get(name).label == "My solver"
    assert [o.name for o in registry.get(name).options][0] == "progress_every"
    for path in PACK:
        puzzle = levels.load(path)
        result = batch.judge(puzzle, batch.run_solver(puzzle, name, timeout=60))
        assert result.status is Status.SOLVED and rules.judge(puzzle, result.grid).solved, path
    assert main(["new-solver", name]) == 2                     # never replaces a file
    assert (tmp_path / "test_mine.py").read_text().count("def test_") == 1


def test_the_command_new_solver_says_to_try_runs_from_the_folder_it_was_run_in(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new-solver", "my solver.py"]) == 0
    said = capsys.readouterr().out.splitlines()[-1]
    assert said.startswith("try it: python ")
    words = shlex.split(said[len("try it: "):])
    done = subprocess.run([sys.executable, *words[1:], "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["status"] == "solved", done.stderr


def test_the_try_it_line_of_a_solver_named_with_a_control_character_sends_none_to_the_terminal(
        tmp_path, monkeypatch, capsys):
    # "wrote" showed the name escaped, "try it" printed it raw: a bell, or an escape that
    # drives the terminal, went out in the line.
    monkeypatch.chdir(tmp_path)
    assert main(["new-solver", "my\x07solver.py"]) == 0
    out = capsys.readouterr().out
    assert out.isascii() and all(line.isprintable() for line in out.splitlines()), out
    assert out.splitlines()[-1].endswith("--solver $'my\\x07solver.py'")


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("name", ["tab\there.py", "it's\x1b\\.py", os.fsdecode(b"b\xffad.py")])
def test_the_try_it_line_names_an_odd_solver_file_as_a_shell_reads_it_back(tmp_path, monkeypatch, capsys, name):
    # It was quoted as Python writes a string ('tab\\there.py'): pasted, the shell named another file.
    monkeypatch.chdir(tmp_path)
    assert main(["new-solver", name]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.isprintable()
    quoted = line.split(" --solver ", 1)[1]
    done = subprocess.run(["bash", "-c", f"test -f {quoted} && printf ok"], capture_output=True, timeout=30)
    assert done.stdout == b"ok", (line, done.stderr)


def test_the_python_example_solves_6x6_levels_with_forced_moves_guesses_and_backtracks():
    name = str(ROOT / "docs/examples/solvers/cells.py")
    reasons = set()
    for path in PACK[:4]:
        puzzle = levels.load(path)
        events = list(registry.get(name).events(puzzle))
        assert batch.judge(puzzle, events[-1]).status is Status.SOLVED, path
        reasons |= {e.reason.value for e in events if isinstance(e, SetCell)}
    assert reasons == {"forced", "guess", "backtrack"}


def undone_depths(name, level=ROOT / "levels/6x6/hard/01.bs"):
    """Each backtrack's depth beside the depth of the guess that set the cell it clears."""
    placed, pairs = {}, []
    for event in registry.get(name).events(levels.load(level)):
        if isinstance(event, SetCell) and event.reason.value == "guess":
            placed[(event.row, event.col)] = event.depth
        elif isinstance(event, SetCell) and event.reason.value == "backtrack":
            pairs.append((event.depth, placed.pop((event.row, event.col))))
    return pairs


def test_the_examples_backtrack_to_the_guesses_still_in_force(tmp_path, c_solver):
    """A backtrack's depth is the number of guesses still in force: below the guess it takes
    back, so the window's list of guesses in force loses it (the template and the C example
    gave the guess's own depth, and the undone ship stayed listed as in force)."""
    mine = tmp_path / "mine.py"
    template.write(str(mine))
    for name in (str(mine), str(ROOT / "docs/examples/solvers/cells.py"), c_solver):
        pairs = undone_depths(name)
        assert pairs and all(depth < guessed for depth, guessed in pairs), name


def test_the_c_example_solves_and_is_recorded_and_replayed(c_solver, tmp_path):
    puzzle = levels.load(PACK[5])
    result = trace.record_run(puzzle, c_solver, tmp_path / "run.jsonl")
    assert result.status is Status.SOLVED
    run_ = trace.read_trace(tmp_path / "run.jsonl")
    assert run_.solver == c_solver and run_.verdict == "solved"
    assert unknown_as_water(trace.board_at(run_, run_.events)) == result.grid


def test_race_on_the_command_line_with_a_python_and_a_c_solver(c_solver, tmp_path, capsys):
    mine = tmp_path / "mine.py"
    template.write(str(mine))
    assert main(["race", str(PACK[0]), "--solvers", f"forward,{mine},{c_solver}", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["solver"] for r in records} == {"forward", str(mine), c_solver}
    assert all(r["verdict"] == "solved" for r in records)


def test_race_takes_a_command_with_a_comma_through_solver(c_solver, capsys):
    with_comma = f"{c_solver} unused,argument"
    assert main(["race", str(PACK[0]), "--solvers", "forward", "--solver", with_comma, "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["solver"] for r in records if r["solver"] != "forward"] == [with_comma]
    assert all(r["verdict"] == "solved" for r in records)


# ---------------------------------------------------------------- misbehaviours, one line each


def test_a_loop_that_never_yields_is_stopped_within_a_fraction_of_a_second(tmp_path):
    name = str(write(tmp_path, "loop.py", """
        def solve(puzzle, report, options):
            while True:
                pass
    """))
    run_ = SolverRun(lambda: registry.get(name).events(SIX)).start()
    time.sleep(0.5)
    started = time.perf_counter()
    assert run_.stop(timeout=0.5)
    assert time.perf_counter() - started < 0.5


def test_a_solver_that_writes_only_on_standard_error_is_stopped_by_the_timeout_it_was_given(tmp_path):
    """Its heartbeats go on while standard error never falls silent, so solve --timeout and
    race --timeout end it (not its own time limit of 60 s)."""
    name = str(write(tmp_path, "shouts.py", """
        def solve(puzzle, report, options):
            while True:
                print("x" * 100000)
    """))
    started = time.perf_counter()
    result = run(name, timeout=0.5)
    assert result.status is Status.TIMEOUT and time.perf_counter() - started < 10


def test_the_timeout_a_command_gives_outlasts_the_solvers_own_time_limit(tmp_path, monkeypatch):
    """solve, solve --trace, race and bench given more time than a solver's own time_limit
    (60 s; 0.5 s here) let it run for that time: the command's timeout is the one that ends it."""
    limits = tuple(dataclasses.replace(o, default=0.5) if o.name == "time_limit" else o for o in own.LIMITS)
    monkeypatch.setattr(own, "LIMITS", limits)
    name = str(write(tmp_path, "ponders.py", """
        import time

        def solve(puzzle, report, options):
            time.sleep(1.5)
            return None
    """))
    assert batch.run_solver(NONE, name, timeout=30).status is Status.NO_SOLUTION
    assert race.run_one(NONE, name, timeout=30)["verdict"] == "no_solution"
    assert trace.record_run(NONE, name, tmp_path / "run.jsonl", timeout=30).status is Status.NO_SOLUTION
    assert run(name, NONE).status is Status.TIMEOUT                  # without a timeout given: its own limit
    assert own.within(registry.get(name), 30) == {"time_limit": 31.0} and own.within(registry.get("forward"), 30) == {}


def test_a_program_that_hangs_meets_its_time_limit(tmp_path):
    name = script(tmp_path, "hang.sh", "sleep 60\\n")
    started = time.perf_counter()
    result = run(name, time_limit=0.5)
    assert result.status is Status.TIMEOUT and time.perf_counter() - started < 3
    assert result.message.startswith(f"{name}: no answer within its time limit")


def test_the_time_limit_counts_the_solver_s_time_not_the_time_a_slow_or_paused_window_holds_it(tmp_path):
    # A window animating at 50 moves a second, or paused while a teacher explains, keeps the
    # run's events waiting; the solver, blocked on its full pipe, is not working then. Its
    # time limit ran on all the same, and a run of a few thousand moves watched at 50 moves
    # a second ended as "no answer within its time limit of 60 s".
    answer = json.dumps({"kind": "result", "verdict": "solved", "solution": list(trace.solution_lines(run("forward")))})
    chatty = write(tmp_path, "chatty.sh", "#!/bin/sh\n"                 # more than a pipe and a read hold
                   f"yes '{{\"kind\":\"progress\",\"stats\":{{\"nodes\":1}}}}' | head -n 20000\n"
                   f"echo '{answer}'\n", executable=True)
    stream = registry.get(f"cmd:{chatty}").events(SIX, trace=True, options={"time_limit": 1.0})
    first = next(stream)
    time.sleep(1.5)                                         # the window paused on the first move
    rest = [first, *stream]
    result = rest[-1]
    assert result.status is Status.SOLVED, result.message
    name = script(tmp_path, "hang.sh", "sleep 60\\n")
    stream = registry.get(name).events(SIX, trace=True, options={"time_limit": 1.0})
    started = time.perf_counter()
    assert isinstance(next(stream), Progress)              # a heartbeat while it says nothing
    time.sleep(0.5)
    result = run_to_result(stream, timeout=30)
    assert result.status is Status.TIMEOUT and time.perf_counter() - started < 3    # its own time still counts


def test_a_solver_that_raises(tmp_path):
    name = str(write(tmp_path, "raises.py", """
        def solve(puzzle, report, options):
            report.set(0, 0, "ship", "guess", 1)
            return 1 / 0
    """))
    one_line(run(name), name, "raised ZeroDivisionError: division by zero (raises.py, line 4)")


def test_a_cell_off_the_board(tmp_path):
    name = str(write(tmp_path, "off.py", """
        def solve(puzzle, report, options):
            report.set(puzzle.rows, 0, "ship", "guess", 1)
    """))
    one_line(run(name), name, "output line 1", "cell 6,0 is outside the 6x6 board")


def test_a_state_that_does_not_exist(tmp_path):
    name = str(write(tmp_path, "sheep.py", """
        def solve(puzzle, report, options):
            report.set(0, 0, "sheep", "guess", 1)
    """))
    one_line(run(name), name, "state 'sheep' is not ship, water or unknown")


def test_a_depth_that_makes_no_sense_and_a_kind_that_does_not_exist(tmp_path):
    deep = str(write(tmp_path, "deep.py", """
        def solve(puzzle, report, options):
            report.set(0, 0, "ship", "guess", -1)
    """))
    one_line(run(deep), deep, "depth must be a whole number from 0 to 36")
    odd = str(write(tmp_path, "odd.py", """
        def solve(puzzle, report, options):
            report.set(0, 0, "ship", "hunch", 1)
    """))
    one_line(run(odd), odd, "kind 'hunch' is not one of")


def test_a_huge_verdict_or_message_is_refused_in_one_short_line(tmp_path):
    long = "x=$(head -c 100000 /dev/zero | tr '\\000' x)\n"
    verdict = script(tmp_path, "verdict.sh", long + 'echo "{\\"kind\\": \\"result\\", \\"verdict\\": \\"$x\\"}"\n')
    result = run(verdict)
    one_line(result, verdict, "verdict 'xxx", "is not one of")
    assert len(result.message) < len(verdict) + 200
    line = 'echo "{\\"kind\\": \\"result\\", \\"verdict\\": \\"no_solution\\", \\"message\\": \\"$x\\"}"\n'
    message = script(tmp_path, "message.sh", long + line)
    result = run(message)
    one_line(result, message, "message is 100,000 characters")
    assert len(result.message) < len(message) + 200


def test_junk_on_standard_output(tmp_path):
    name = script(tmp_path, "junk.sh", "echo hello world\\n")
    one_line(run(name), name, "output line 1: is not valid JSON")


def test_prints_of_a_python_solver_go_to_standard_error_not_into_its_events(tmp_path):
    name = str(write(tmp_path, "chatty.py", """
        def solve(puzzle, report, options):
            print("thinking...")
            return None
    """))
    assert run(name, NONE).status is Status.NO_SOLUTION


def test_unbounded_allocation_meets_the_memory_limit(tmp_path):
    name = str(write(tmp_path, "greedy.py", """
        def solve(puzzle, report, options):
            hoard = []
            while True:
                hoard.append(bytearray(10 ** 7))
    """))
    started = time.perf_counter()
    one_line(run(name, memory_mb=200), name, "ran out of memory (its limit is 200 MB)")
    assert time.perf_counter() - started < 20


def test_unbounded_output_meets_the_output_limit(tmp_path):
    name = script(tmp_path, "talker.sh", "yes progress\\n")
    one_line(run(name, output_mb=1), name, "output line 1: is not valid JSON")
    endless = str(write(tmp_path, "endless.py", """
        def solve(puzzle, report, options):
            while True:
                report.set(0, 0, "ship", "guess", 1)
    """))
    one_line(run(endless, output_mb=1), endless, "wrote more than its output limit of 1 MB")


def test_a_wrong_solution_claimed_is_reported_as_wrong_never_solved(tmp_path):
    name = str(write(tmp_path, "liar.py", """
        def solve(puzzle, report, options):
            return ["." * puzzle.cols] * puzzle.rows
    """))
    one_line(run(name), name, "claimed a wrong solution")
    result = trace.record_run(SIX, name, tmp_path / "liar.jsonl")
    assert result.status is Status.ERROR
    assert trace.read_trace(tmp_path / "liar.jsonl").verdict == "error"
    malformed = str(write(tmp_path, "malformed.py", """
        def solve(puzzle, report, options):
            return "solved!"
    """))
    one_line(run(malformed), malformed, "solve returned 'solved!', not a board: 6 strings of 6 characters")


def test_statistics_that_are_no_counts_and_a_time_of_its_own_leave_race_and_bench_as_measured(tmp_path):
    name = str(write(tmp_path, "boast.py", """
        import time
        def solve(puzzle, report, options):
            time.sleep(0.3)
            report.progress(nodes="lots", backtracks=None, generations={"n": 1}, seconds=0.000001)
            return None
    """))
    records = race.race(NONE, [name, "forward"])
    mine = next(record for record in records if record["solver"] == name)
    assert (mine["nodes"], mine["backtracks"], mine["generations"]) == (0, 0, 0) and mine["time_s"] >= 0.3
    record = batch.solve_record(batch.LevelRef("none", NONE), name, 30, 0)
    assert record["status"] == "no_solution" and record["stats"]["seconds"] >= 0.3     # measured, not its word
    assert batch.summarise([record])["nodes"] == 0


def test_a_solver_naming_new_statistics_without_end_is_recorded_as_a_trace_that_reads_back(tmp_path):
    name = str(write(tmp_path, "names.py", """
        def solve(puzzle, report, options):
            for i in range(400):
                report.progress(**{f"k{i}": i})
            return None
    """))
    result = trace.record_run(NONE, name, tmp_path / "names.jsonl")
    assert result.status is Status.NO_SOLUTION and len(result.stats) <= MAX_TRACE_STATS
    assert trace.read_trace(tmp_path / "names.jsonl").stats == result.stats
    tally = race.Tally()                                     # what a race and the window keep
    for event in registry.get(name).events(NONE):
        tally.add(event)
    assert len(tally.stats) <= MAX_TRACE_STATS


def test_boards_met_without_end_are_kept_once_each_and_a_bounded_number(tmp_path):
    name = str(write(tmp_path, "meets.py", """
        def solve(puzzle, report, options):
            for i in range(3000):                   # as many different boards
                bits = format(i, "036b").replace("0", ".").replace("1", "#")
                report.found([bits[r * 6:r * 6 + 6] for r in range(6)])
            while True:                             # then one board again and again
                report.found(["." * puzzle.cols] * puzzle.rows)
    """))
    result = run(name, timeout=1.5)
    assert result.status is Status.TIMEOUT and len(set(result.solutions)) == len(result.solutions) == MAX_MET
    tally, stream = race.Tally(), registry.get(name).events(SIX)
    for event, _ in zip(stream, range(5000)):
        tally.add(event)
    stream.close()
    assert len(tally.found) == MAX_MET


def test_a_program_writes_the_lines_that_change_no_cell_with_the_keys_the_guide_lists(tmp_path):
    """progress with its stats, found with its solution, failure with its message: no cells."""
    solution = json.dumps(["#.#...", "..#.#.", "#.#...", "....##", ".##...", "......"])
    lines = ['{"kind":"progress","stats":{"nodes":7}}', '{"kind":"found","solution":' + solution + '}',
             '{"kind":"failure","message":"I give up"}']
    name = script(tmp_path, "says.sh", "".join(f"echo '{line}'\\n" for line in lines) + "exit 3\\n")
    stream = registry.get(name).events(SIX)
    said = [event for event in stream if not (isinstance(event, Progress) and not event.stats)]
    assert said[0] == Progress({"nodes": 7}) and said[1].grid == grid_from_strings(json.loads(solution))
    assert said[-1].status is Status.ERROR and said[-1].message == f"{name}: I give up"
    guess = script(tmp_path, "guess.sh", "echo '{\"kind\":\"guess\"}'\\n")     # a cell kind says which cells
    one_line(run(guess), guess, "output line 1: cells must be a list")


def test_a_no_solution_after_finding_a_board_the_rules_accept_is_refuted_by_it(tmp_path):
    solution = ["#.#...", "..#.#.", "#.#...", "....##", ".##...", "......"]
    assert rules.is_solved(SIX, grid_from_strings(solution))
    forgot = str(write(tmp_path, "forgot.py", f"""
        def solve(puzzle, report, options):
            report.found({solution!r})          # then forgets to return it
            return None
    """))
    one_line(run(forgot), forgot, "said there is no solution, but a board it found is one the rules accept")
    wrong = str(write(tmp_path, "wrong.py", """
        def solve(puzzle, report, options):
            report.found(["#....."] * 6)
            return None
    """))
    assert run(wrong, NONE).status is Status.NO_SOLUTION


def test_a_no_solution_on_a_level_that_has_one_is_refuted_by_the_exact_search(tmp_path, capsys):
    name = str(write(tmp_path, "quitter.py", """
        def solve(puzzle, report, options):
            return None
    """))
    one_line(run(name), name, "said there is no solution, but the level has one: #.#.../..#.#./#.#...")
    wrong = str(write(tmp_path, "wrong.py", "def solve(puzzle, report, options):\n    return ['#' * 6] * 6\n"))
    assert main(["solve", str(PACK[0]), "--solver", wrong]) == 1
    capsys.readouterr()
    assert main(["solve", str(PACK[0]), "--solver", name]) == 1       # as for a wrong answer
    out, err = capsys.readouterr()
    assert not out and len(err.strip().splitlines()) == 1
    assert f"{name}: said there is no solution, but the level has one" in err
    true = run(name, NONE)
    assert true.status is Status.NO_SOLUTION and not true.message           # a true claim stands, unmarked


def test_a_no_solution_the_exact_search_cannot_refute_in_time_is_marked_unchecked(tmp_path, monkeypatch):
    from solvers.engine.verdict import Kind, Verdict
    from solvers.own import process

    monkeypatch.setattr(process, "decide",
                        lambda puzzle, timeout, cancelled: Verdict(Kind.UNDECIDED, (), {}, "out of time"))
    name = str(write(tmp_path, "unsure.py", """
        def solve(puzzle, report, options):
            return None
    """))
    result = run(name)
    assert result.status is Status.NO_SOLUTION and "unchecked: the exact search did not decide" in result.message


def test_a_run_stopped_while_the_exact_search_checks_its_no_solution_ends_at_once(tmp_path, monkeypatch):
    """The check runs in the run's worker, between the solver's last event and its result:
    a Stop there ended the search only when its seconds were out."""
    from solvers.engine.verdict import Kind, Verdict
    from solvers.own import process

    searching = []

    def slow_decide(puzzle, timeout, cancelled=lambda: False):
        searching.append(True)
        deadline = time.monotonic() + 3 * timeout
        while not cancelled() and time.monotonic() < deadline:
            time.sleep(0.005)
        return Verdict(Kind.UNDECIDED, (), {}, "cancelled")

    monkeypatch.setattr(process, "decide", slow_decide)
    name = str(write(tmp_path, "unsure.py", """
        def solve(puzzle, report, options):
            return None
    """))
    worker = SolverRun(lambda: registry.get(name).events(SIX)).start()
    deadline = time.monotonic() + 30
    while not searching and time.monotonic() < deadline:
        worker.poll()
        time.sleep(0.01)
    assert searching
    assert worker.stop(timeout=1.0), "the worker was still checking the claim a second after Stop"


def test_a_verdict_of_error_without_a_message_still_names_the_solver(tmp_path):
    name = script(tmp_path, "mute.sh", "echo '{\"kind\":\"result\",\"verdict\":\"error\"}'\\n")
    one_line(run(name), name, "gave the verdict error without a message")


def test_solve_says_why_a_solver_gave_up_as_race_does(tmp_path, capsys):
    result = json.dumps({"kind": "result", "verdict": "gave_up", "message": "too hard"})
    name = script(tmp_path, "quits.sh", f"echo '{result}'\\n")
    assert main(["solve", str(PACK[0]), "--solver", name]) == 1
    assert capsys.readouterr().out.splitlines()[0].endswith(": too hard")
    assert main(["solve", str(PACK[0]), "--solver", name, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["message"] == "too hard"


def test_a_python_solver_that_returns_no_board_is_told_what_it_returned_and_what_a_board_is(tmp_path):
    rows = ["#.#...", "..#.#.", "#.#...", "....##", ".##...", "......"]
    for returned in ("[list(row) for row in ROWS]", "'\\n'.join(ROWS)", "ROWS[:5]",
                     "[row.replace('.', ' ') for row in ROWS]"):
        name = str(write(tmp_path, "shapes.py", f"""
            ROWS = {rows!r}

            def solve(puzzle, report, options):
                return {returned}
        """))
        one_line(run(name), name, "solve returned ", "not a board: 6 strings of 6 characters, '#' ship and '.' water")
    name = str(write(tmp_path, "shapes.py", f"def solve(puzzle, report, options):\n    return tuple({rows!r})\n"))
    assert run(name).status is Status.SOLVED


def test_a_program_that_dies_or_cannot_start(tmp_path):
    name = script(tmp_path, "dies.sh", "echo oops >&2\\nexit 3\\n")
    one_line(run(name), name, "ended (exit status 3) without a result line; its last words: oops")
    gone = script(tmp_path, "gone.sh", "exit 0\\n")
    solver = registry.get(gone)                   # named while it was there, then removed
    os.remove(gone[len("cmd:"):])
    one_line(run_to_result(solver.events(SIX, options={}), timeout=30), gone, "cannot start")


@pytest.mark.parametrize("program, said", [("nothing-here", "no program at"), ("plain.txt", "is not executable"),
                                           ("no-such-program-anywhere", "on the PATH")])
def test_a_program_that_is_not_there_is_refused_when_named(tmp_path, program, said):
    write(tmp_path, "plain.txt", "not a program\n")
    name = "cmd:" + (program if "anywhere" in program else str(tmp_path / program))
    with pytest.raises(ValueError, match=said) as refused:
        registry.get(name)
    assert "\n" not in str(refused.value)
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "solve", str(ROOT / "levels/10x10/easy/01.bs"),
                           "--solver", name], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


def test_a_program_that_closes_its_output_and_goes_on_is_said_so_and_stopped(tmp_path):
    name = script(tmp_path, "closes.sh", "exec >&- 2>&-\\nsleep 30\\n")
    started = time.perf_counter()
    one_line(run(name), name, "closed its output without a result line")
    assert time.perf_counter() - started < 3
    time.sleep(0.2)
    assert [line for line in processes() if str(tmp_path) in line] == []


def test_a_child_it_started_does_not_outlive_a_solver_that_ends_at_once(tmp_path):
    # The child closes the streams it shares, so the run ends as soon as its parent exits.
    marker = f"sleep 3{os.getpid() % 1000:03d}"
    name = script(tmp_path, "leaves.sh", f"exec >/dev/null 2>&1 </dev/null\\n{marker} &\\nexit 3\\n")
    one_line(run(name), name, "ended (exit status 3) without a result line")
    time.sleep(0.2)
    assert [line for line in processes() if marker in line] == []


def test_a_file_that_cannot_be_a_solver_is_one_line_and_exit_2(tmp_path, capsys):
    broken = write(tmp_path, "broken.py", "def solve(:\n")
    level = str(PACK[0])
    for solver, problem in ((broken, "is not valid Python (line 1)"), (tmp_path / "absent.py", "no such file")):
        with pytest.raises(SystemExit) as exit_:
            main(["solve", level, "--solver", str(solver)])
        assert exit_.value.code == 2
        assert f"solver {solver}: {problem}" in capsys.readouterr().err
    none = str(write(tmp_path, "nosolve.py", "x = 1\n"))
    one_line(run(none), none, "has no function solve(puzzle, report, options)")


def test_the_level_a_solver_reads_has_no_solution_in_it(tmp_path):
    name = str(write(tmp_path, "peek.py", """
        def solve(puzzle, report, options):
            assert puzzle.solution is None, "the answer was given away"
            return None
    """))
    pack = levels.load(PACK[0])
    assert pack.solution is not None
    impossible = pack.replace(col_tallies=pack.col_tallies[::-1])      # (its solution is still given here)
    assert run(name, impossible).status is Status.NO_SOLUTION


# ---------------------------------------------------------------- one contract for every solver


def lines_of(events, puzzle, result):
    handle = io.StringIO()
    writer = trace.TraceWriter(handle, puzzle, "x", {}, 0)
    for event in events:
        writer.event(event)
    writer.flush()
    handle.write(writer.result_line(result))
    return handle.getvalue().splitlines()[1:]


@pytest.mark.parametrize("name", registry.NAMES)
def test_the_built_in_solvers_pass_the_same_contract_checker(name):
    puzzle = levels.load(PACK[4])
    events = list(registry.get(name).events(puzzle, trace=True, seed=1))
    result = events.pop()
    assert isinstance(result, Result) and result.status is Status.SOLVED
    contract = Contract(puzzle)
    checked = []
    for line in lines_of(events, puzzle, result):
        said = contract.line(line.encode())
        checked.extend(said if isinstance(said, list) else [said])
    assert checked[-1].status is Status.SOLVED and checked[-1].grid == result.grid
    assert len(checked) - 1 == len(events)
    for before, after in zip(events, checked):
        if isinstance(before, Generation):
            assert (after.number, after.best_fleet) == (before.number, before.best_fleet)
        elif isinstance(before, Progress):      # JSON has no infinity: a trace writes it as null
            assert after.stats == {k: None if v == math.inf else v for k, v in before.stats.items()}
        else:
            assert after == before
    assert unknown_as_water(replay(initial_grid(puzzle), checked)) == result.grid or name == "genetic"


def test_the_checker_refuses_what_the_trace_reader_refuses():
    contract = Contract(SIX)
    with pytest.raises(ContractError, match="output line 1: cell 0,6 is outside"):
        contract.line(b'{"kind":"forced","cells":[{"row":0,"col":6,"state":"water"}]}')
    with pytest.raises(ContractError, match="output line 2: event number is 5, expected 1"):
        contract.line(b'{"n":5,"kind":"forced","cells":[]}')
    assert contract.line(b'{"kind":"guess","cells":[{"row":1,"col":2,"state":"ship"}],"depth":1}') == [
        SetCell(1, 2, 2, "guess", "", 1)]
    assert contract.line(b'{"kind":"result","verdict":"no_solution"}').status is Status.NO_SOLUTION
    with pytest.raises(ContractError, match="a line follows the result line"):
        contract.line(b'{"kind":"progress","cells":[]}')


# ---------------------------------------------------------------- discovery


@pytest.mark.parametrize("restarts", ['{"a":1}', '"x"', "-1", "1.5"])
def test_a_generation_whose_restarts_are_no_count_is_refused_in_one_line(restarts):
    stats = {"generation": 1, "best": 1, "mean": 2, "restarts": json.loads(restarts)}
    line = json.dumps({"kind": "generation", "cells": [], "stats": stats})
    with pytest.raises(ContractError, match="output line 1: stats.restarts must be a whole number >= 0"):
        Contract(SIX).line(line.encode())


def test_an_installed_package_is_found_through_its_entry_point(tmp_path, monkeypatch, capsys):
    package = tmp_path / "student_solver"
    package.mkdir()
    (package / "__init__.py").write_text("")
    shutil.copy(ROOT / "solvers/own/template.py", tmp_path / "unused.py")
    template.write(str(package / "solver.py"))
    info = tmp_path / "student_solver-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: student-solver\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{own.GROUP}]\nstudent = student_solver.solver\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    own.installed.cache_clear()
    try:
        assert "student" in registry.every()
        assert main(["solvers"]) == 0
        listing = capsys.readouterr().out
        assert "student: My solver" in listing and "progress_every (int, default 1000)" in listing
        assert "forward: " in listing and "memory_mb (int, default 1024, 16 to 1,048,576)" in listing
        assert "max_generations (int, default 0, 0 to 1,000,000,000)" in listing
        result = batch.judge(SIX, batch.run_solver(SIX, "student", timeout=60))
        assert result.status is Status.SOLVED
    finally:
        own.installed.cache_clear()


def test_options_are_declared_checked_and_passed(tmp_path):
    name = str(write(tmp_path, "opts.py", """
        LABEL = "Options"
        OPTIONS = {"limit": 3, "fast": False}

        def solve(puzzle, report, options):
            report.progress(limit=options["limit"], fast=options["fast"])
            return None
    """))
    spec = registry.get(name)
    assert spec.resolve({"limit": 5})["limit"] == 5
    with pytest.raises(ValueError, match="must be a whole number"):
        spec.resolve({"limit": 1.5})
    result = run(name, NONE, limit=7, fast=True)
    assert result.status is Status.NO_SOLUTION and result.stats == {"limit": 7, "fast": True}


def test_ctrl_c_ends_a_run_and_its_process_within_a_second(tmp_path):
    loop = write(tmp_path, "loop.py", "def solve(puzzle, report, options):\n    while True:\n        pass\n")
    marker = str(tmp_path)            # the child's command line names the solver's file
    command = [sys.executable, str(ROOT / "main.py"), "solve", str(PACK[0]), "--solver", str(loop)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)
    child.send_signal(signal.SIGINT)
    started = time.perf_counter()
    _, err = child.communicate(timeout=10)
    assert time.perf_counter() - started < 1 and child.returncode == 130 and "interrupted" in err.decode()
    time.sleep(0.2)
    assert [pid for pid in processes() if marker in pid] == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the request to die with the parent is Linux's")
def test_a_solver_that_sleeps_does_not_outlive_a_program_killed_without_stopping_it(tmp_path):
    """SIGKILL leaves the program no time to stop its solver, and a solver that sleeps spends
    no processor time to meet its limit: it dies with the program, a Python file or a program."""
    marker = f"{os.getpid() % 1000:03d}"
    sleeper = write(tmp_path, f"sleeper{marker}.py", "import time\ndef solve(puzzle, report, options):\n"
                                                     "    time.sleep(300)\n")
    program = script(tmp_path, "sleeps.sh", f"exec sleep 3{marker}\n")
    for solver, seen in ((str(sleeper), ("solvers.own.child", str(sleeper))), (program, (f"sleep 3{marker}",))):
        running = functools.partial(processes_with, seen)
        command = [sys.executable, str(ROOT / "main.py"), "solve", str(PACK[0]), "--solver", solver]
        parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.perf_counter() + 20
        while not running() and time.perf_counter() < deadline:
            time.sleep(0.05)
        assert running(), "the solver never started"
        time.sleep(0.5)                             # the Python solver is asleep in solve
        parent.kill()
        parent.wait()
        time.sleep(0.5)
        assert running() == []


def processes_with(words):
    """The command lines of the running processes that hold every one of ``words``."""
    return [line for line in processes() if all(word in line for word in words)]


def processes():
    """The command lines of the running processes (empty where /proc is not)."""
    lines = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                lines.append(handle.read().replace(b"\0", b" ").decode("utf-8", "replace"))
        except OSError:
            continue
    return lines
