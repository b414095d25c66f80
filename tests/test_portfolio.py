"""The portfolio behind ``check``: exact searches racing in processes, stopped once one answers."""

from __future__ import annotations

import multiprocessing
import pickle
import time
from dataclasses import dataclass

import pytest

from game import rules
from game.puzzle import Hint, grid_from_strings, ship_cells_of
from game.ships import geometry_of, segments
from solvers.common import run_to_result
from solvers.engine import batch, portfolio
from solvers.engine.portfolio import Member
from solvers.events import Found, Generation, Progress, Result, Ship, Status
from solvers.search import forward
from tests import brute
from tests.test_forward import (
    MENDED_FLEET,
    MENDED_LAYOUT,
    MOVED,
    SIX_LAYOUT,
    puzzle_from_layout,
    random_puzzles,
)

# No solution, though every ship fits somewhere: the genetic algorithm never stops on it.
NO_SOLUTION = puzzle_from_layout(("#.#.", "#...", "...#", "#..."), ((2, 1), (1, 3)), {(0, 0): Hint.SUB})
ENDLESS = Member("genetic first", genetic_seed=1)


@dataclass(frozen=True)
class Stalls(Member):
    """Meets some of the board's solutions (their numbers in ``options["picks"]``) and then
    never ends."""

    def events(self, puzzle, limit):
        result = run_to_result(forward.events(puzzle, trace=False, limit=1000))
        for pick in self.options["picks"]:
            yield Found(result.solutions[pick])
        while True:
            time.sleep(0.001)
            yield Progress()


@dataclass(frozen=True)
class Late(Member):
    """The forward search, after ``options["wait"]`` seconds of something else (as a partner
    taking turns is): its own statistics do not count the wait."""

    def events(self, puzzle, limit):
        time.sleep(self.options["wait"])
        yield from forward.events(puzzle, trace=False, limit=limit)


def several_solutions():
    return next(p for p in random_puzzles(44, 50) if brute.count(p) >= 2)


@pytest.fixture(autouse=True)
def no_leftover_workers():
    yield
    assert multiprocessing.active_children() == []


def test_answers_are_exact_whichever_member_gives_them(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    members = (Member("forward"), Member("restarts", {"restarts": True, "seed": 3}))
    for puzzle in random_puzzles(41, 8):
        result = portfolio.race(puzzle, limit=2, jobs=2, members=members)
        assert result.status in (Status.SOLVED, Status.NO_SOLUTION)
        assert len(result.solutions) == min(brute.count(puzzle), 2)
        assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
        # One member's answer, or solutions pooled from both (names joined by " + ").
        assert set(result.stats["member"].split(" + ")) <= {"forward", "restarts"}


def test_a_worker_answers_while_the_first_member_is_still_busy(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    result = portfolio.race(NO_SOLUTION, limit=2, jobs=2, timeout=30, members=(ENDLESS, Member("forward")))
    assert result.status is Status.NO_SOLUTION
    assert result.stats["member"] == "forward" and result.stats["members"] == 2


def test_the_genetic_member_hands_its_solution_to_the_search():
    layout = ("#.#..", ".....", "....#", "#....", "..#..")
    puzzle = puzzle_from_layout(layout, ((1, 5),))
    result = portfolio.race(puzzle, limit=2, jobs=1, members=(ENDLESS,))
    assert result.status is Status.SOLVED and len(set(result.solutions)) == 2
    assert result.stats["bands"] >= 1                   # the search began around the known solution
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)


def test_the_seconds_are_the_race_s_whichever_member_answers():
    result = portfolio.race(several_solutions(), limit=2, jobs=1, members=(Late("late", {"wait": 0.3}),))
    assert result.status is Status.SOLVED
    assert result.stats["seconds"] >= 0.3


def test_a_timeout_stops_every_member(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    started = time.perf_counter()
    result = portfolio.race(NO_SOLUTION, limit=2, jobs=2, timeout=0.5, members=(ENDLESS, ENDLESS))
    assert result.status is Status.TIMEOUT
    assert time.perf_counter() - started < 10.0       # the endless members were stopped (room for a loaded machine)


def test_a_failing_worker_decides_nothing(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    broken = Member("broken", {"no_such_option": True})
    result = portfolio.race(NO_SOLUTION, limit=2, jobs=2, timeout=0.5, members=(ENDLESS, broken))
    assert result.status is Status.TIMEOUT


def test_members_taking_turns_in_one_process_give_the_first_exact_answer(monkeypatch):
    monkeypatch.setattr(portfolio, "TURN", 0.001)
    sharing = Member("endless and forward", genetic_seed=1, turns_with=(Member("forward"),))
    result = portfolio.race(NO_SOLUTION, limit=2, jobs=1, timeout=30, members=(sharing,))
    assert result.status is Status.NO_SOLUTION
    broken = Member("broken", {"no_such_option": True}, turns_with=(Member("forward"),))
    puzzle = several_solutions()
    result = portfolio.race(puzzle, limit=2, jobs=1, timeout=30, members=(broken,))
    assert result.status is Status.SOLVED and len(set(result.solutions)) == 2
    alone = Member("broken", {"no_such_option": True}, turns_with=(Member("also broken", {"no_such_option": 1}),))
    result = portfolio.race(puzzle, limit=2, jobs=1, timeout=30, members=(alone,))
    assert result.status is Status.ERROR


def ticks(name):
    """An endless member: a heartbeat named ``name`` every 2 ms."""
    while True:
        time.sleep(0.002)
        yield Progress({"name": name})


def test_a_member_s_share_lengthens_its_turns_as_the_run_goes_on(monkeypatch):
    """Two endless members, the second with a share of 4: their first turns are equal, and
    once the time run so far allows it (``GROWTH``), the second's turns are four times as long."""
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.02)
    monkeypatch.setattr(portfolio, "TURN", 0.02)
    monkeypatch.setattr(portfolio, "GROWTH", 0.1)

    turns: list[tuple[str, float]] = []
    stream = portfolio._taking_turns([ticks("one"), ticks("four")], [1, 4])
    started = time.perf_counter()
    for event in stream:
        if not turns or turns[-1][0] != event.stats["name"]:
            turns.append((event.stats["name"], time.perf_counter()))
        if time.perf_counter() - started > 2.5:
            break
    stream.close()
    lengths = {"one": [], "four": []}
    for (name, began), (_, ended) in zip(turns, turns[1:]):
        lengths[name].append(ended - began)
    assert lengths["four"][1] < 0.05                  # early on, a turn of TURN seconds
    assert lengths["four"][-1] > 0.06                 # later, up to four
    assert max(lengths["one"][1:]) < 0.05


def test_the_first_member_steps_aside_after_its_first_turn_on_dense_boards(monkeypatch):
    """``first_once`` (the forward member on a dense board without hints): its first turn, then
    the others have the process to themselves, unless they all end without an exact answer;
    without it the turns go on alternating."""
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.02)
    monkeypatch.setattr(portfolio, "TURN", 0.02)

    for first_once in (True, False):
        names = []
        stream = portfolio._taking_turns([ticks("first"), ticks("other")], [1, 1], first_once=first_once)
        started = time.perf_counter()
        for event in stream:
            names.append(event.stats["name"])
            if time.perf_counter() - started > 0.3:
                break
        stream.close()
        turns = [name for i, name in enumerate(names) if i == 0 or names[i - 1] != name]
        assert turns[:2] == ["first", "other"]
        assert ("first" in turns[2:]) is not first_once

    def ends(name, ticks_before, status):
        for _ in range(ticks_before):
            time.sleep(0.002)
            yield Progress({"name": name})
        yield Result(status, message=name)

    # Set aside, the first member goes on when the others end without an exact answer.
    stream = portfolio._taking_turns([ends("first", 100, Status.NO_SOLUTION), ends("other", 3, Status.ERROR)],
                                     [1, 1], first_once=True)
    assert [e for e in stream if isinstance(e, Result)][-1].message == "first"
    dense = puzzle_from_layout(("##.#", "....", "#..#", "...."), ((2, 1), (1, 3)))   # 5 ship cells of 16
    assert forward.dense_without_hints(dense)
    assert not forward.dense_without_hints(puzzle_from_layout(SIX_LAYOUT, ((3, 1), (2, 2), (1, 3))))
    assert portfolio.MEMBERS[0].aside_when_dense and portfolio.MEMBERS[0].turns_with


def test_boards_without_hints_a_little_less_dense_are_the_learners_too():
    """7 ship cells of 25: not dense for the forward search's probes, but clause learning's in
    the race, where the second core's learner decides every variable instead of cells."""
    layout = ("##.##", ".....", "#.#.#", ".....", ".....")
    board = puzzle_from_layout(layout, ((2, 2), (1, 3)))
    assert not board.hints and board.ship_cells == 7
    assert portfolio.learners_board(board) and not forward.dense_without_hints(board)
    sparse = puzzle_from_layout(("##...", ".....", "#.#..", ".....", "....."), ((2, 1), (1, 2)))
    assert not portfolio.learners_board(sparse)          # 4 ship cells of 25
    second = portfolio.MEMBERS[1]
    assert second.learning and not second.options.get("every_variable")
    assert second.when_dense.learning and second.when_dense.options["every_variable"]
    assert second.when_dense.options["restart_unit"] != 0


def test_two_solutions_met_by_two_members_decide_it(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    puzzle = several_solutions()
    members = (Stalls("first", {"picks": (0,)}), Stalls("second", {"picks": (1,)}))
    result = portfolio.race(puzzle, limit=2, jobs=2, timeout=30, members=members)
    assert result.status is Status.SOLVED and result.stats["member"] == "first + second"
    assert len(set(result.solutions)) == 2 and all(rules.is_solved(puzzle, g) for g in result.solutions)


def test_one_member_meeting_one_solution_twice_decides_nothing(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    members = (Stalls("first", {"picks": (0,)}), Stalls("again", {"picks": (0,)}))
    result = portfolio.race(several_solutions(), limit=2, jobs=2, timeout=0.5, members=members)
    assert result.status is Status.TIMEOUT and len(result.solutions) == 1


def test_two_solutions_met_by_one_member_decide_it_when_the_time_is_up():
    result = portfolio.race(several_solutions(), limit=2, jobs=1, timeout=0.2,
                              members=(Stalls("both", {"picks": (0, 1)}),))
    assert result.status is Status.SOLVED and len(set(result.solutions)) == 2


def test_check_reports_a_solution_met_before_the_timeout(monkeypatch):
    monkeypatch.setattr(portfolio, "MEMBERS", (Stalls("first", {"picks": (0,)}),))
    record = batch.checked(batch.LevelRef("board", several_solutions()), timeout=0.2)[0]
    assert record["status"] == "undecided" and record["found"] == 1
    assert "has a solution, but whether it is the only one is not proved" in record["error"]
    monkeypatch.setattr(portfolio, "MEMBERS", (ENDLESS,))
    record = batch.checked(batch.LevelRef("board", NO_SOLUTION), timeout=0.2)[0]
    assert record["status"] == "undecided" and record["found"] == 0 and record["error"] == "no answer within 0.2 s"


def test_one_job_never_starts_a_process(monkeypatch):
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    monkeypatch.setattr(portfolio, "_Worker", None)             # would fail if used
    puzzle = next(random_puzzles(43, 1))
    result = portfolio.race(puzzle, limit=2, jobs=1)
    assert len(result.solutions) == min(brute.count(puzzle), 2)


def test_workers_also_start_where_processes_are_spawned(monkeypatch):
    # macOS and Windows start processes by spawning: the puzzle and the member go pickled.
    monkeypatch.setattr(portfolio, "ESCALATE_AFTER", 0.0)
    monkeypatch.setattr(portfolio, "_context", lambda: multiprocessing.get_context("spawn"))
    assert pickle.loads(pickle.dumps(NO_SOLUTION)) == NO_SOLUTION
    result = portfolio.race(NO_SOLUTION, limit=2, jobs=2, timeout=30, members=(ENDLESS, Member("forward")))
    assert result.status is Status.NO_SOLUTION and result.stats["member"] == "forward"


def test_the_genetic_member_mends_the_best_layout_of_a_population_it_gives_up(monkeypatch):
    puzzle = puzzle_from_layout(MENDED_LAYOUT, MENDED_FLEET)
    geo = geometry_of(puzzle)
    ship = sum(geo.bit(r, c) for r, c in ship_cells_of(grid_from_strings(MOVED)))
    near = tuple(Ship(*geo.coord((seg.cells & -seg.cells).bit_length() - 1), seg.length, seg.horizontal)
                 for seg in segments(geo, ship, geo.board & ~ship))
    asked = []

    def never_solves(puzzle, trace, rng, **options):
        """A genetic algorithm that comes close (two tallies off) and then starts again, forever."""
        yield Generation(1, 2.0, 2.0, near, 0)
        yield Generation(2, 9.0, 9.0, (), 1)           # a new population: the old one's best is mended
        asked.append("on")
        while True:
            yield Progress()

    monkeypatch.setattr("solvers.genetic.algorithm.events", never_solves)
    result = portfolio.race(puzzle, limit=2, jobs=1, timeout=30, members=(ENDLESS,))
    assert result.status is Status.SOLVED and asked == []      # answered before the algorithm went on
    assert all(rules.is_solved(puzzle, grid) for grid in result.solutions)
    assert result.stats["bands"] >= 1


@pytest.mark.parametrize("learners", [False, True])
def test_the_bands_around_a_learner_s_first_solution_only_off_the_learners_boards(monkeypatch, learners):
    """A learner's first solution is searched around by the forward search, except on the
    learners' boards, where both cores run learners and the learner goes straight on."""
    puzzle = several_solutions()
    first = portfolio.forward.events(puzzle, trace=False, limit=1)
    grid = next(event.grid for event in first if isinstance(event, Found))
    looked = []

    def learner(puzzle, trace, limit, **options):
        yield Found(grid)
        yield Result(Status.SOLVED, grid, {"conflicts": 1}, (grid,))

    def bands(puzzle, grid, limit):
        looked.append(grid)
        return None
        yield

    monkeypatch.setattr(portfolio.learning, "events", learner)
    monkeypatch.setattr(portfolio, "_bands_around", bands)
    monkeypatch.setattr(portfolio, "learners_board", lambda puzzle: learners)
    stream = list(portfolio._learning_then_bands(puzzle, 2, {}))
    assert isinstance(stream[-1], Result) and stream[-1].stats == {"conflicts": 1}
    assert looked == ([] if learners else [grid])


def test_a_ctrl_c_that_reaches_a_worker_as_it_starts_is_the_parents_to_handle():
    """A terminal's Ctrl-C reaches every process of the group, a worker too, which may get it
    before it has set its own handlers (it is a fork of the command's process, handlers and
    all): there it is held until the worker ignores it, and the worker runs to its answer."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    script = textwrap.dedent("""
        import os, signal, sys
        import main
        from solvers.engine import portfolio
        from solvers.engine.portfolio import Member
        from tests.test_forward import MENDED_FLEET, MENDED_LAYOUT, puzzle_from_layout
        from tests.test_portfolio import Late, Stalls

        main._catch_interrupts()              # the command's own handlers, as every command has them
        os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGINT))
        puzzle = puzzle_from_layout(MENDED_LAYOUT, MENDED_FLEET)
        portfolio.ESCALATE_AFTER = 0.0
        # the answer comes from the worker, which takes long enough for a timer the command's
        # handlers set to go off in it (main.AGAIN)
        members = (Stalls("stalls", {"picks": ()}), Late("late", {"wait": 4 * main.AGAIN}))
        result = portfolio.race(puzzle, limit=2, jobs=2, timeout=10, members=members)
        print(result.status.value, result.stats["member"])
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    assert done.stdout.split() == ["solved", "late"]
