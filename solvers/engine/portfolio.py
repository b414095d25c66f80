"""Racing exact searches on every core: the first answer wins (behind ``verdict.decide``).

Every member is a complete search (forward checking or clause learning) in a different
configuration, so every answer is exact and the first decides; the others are stopped. The
calling process runs the first member itself, so a level decided within ``ESCALATE_AFTER``
seconds never starts a process (but a dense board without hints, clause learning's, starts
them at once); each further member runs in a worker process of its own
(threads would share one core), sending back each solution as it meets it. Solutions are
pooled: ``limit`` different ones met between the members decide too, and a timeout reports
those met so far. Workers are daemons, stopped as soon as the answer is in, on a timeout and
on any exception. Why a portfolio: docs/design/portfolio.md.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Generator, Mapping

from game.puzzle import Grid, Puzzle, grid_from_strings, grid_to_strings, seconds_said
from game.ships import prepared
from solvers.common import beating, elapsed
from solvers.events import Event, Found, Generation, Result, Status, Stream, board_of
from solvers.search import forward, learning

ESCALATE_AFTER = 0.25          # seconds the first member runs alone
TURN = 0.05                    # seconds each member of a shared process runs before the next
GROWTH = 0.1                   # a partner's turn: at most this fraction of the time run so far
# Generations without improvement before the genetic member gives a population up and mends its
# best layout: mending, not the algorithm alone, finds most first solutions on the dense boards,
# so more populations, each given up sooner, pay (docs/design/portfolio.md).
MEND_STAGNATION = 5
BANDS_SECONDS = 0.3            # the bands around clause learning's first solution (``_learning_then_bands``)
# Share of ship cells above which a board without hints is clause learning's (``learners_board``):
# below the forward search's own threshold (``forward.DENSE_SHARE``), because the MiniZinc boards
# between the two are the learners' too (docs/design/portfolio.md).
LEARNERS_SHARE = 0.25


def learners_board(puzzle: Puzzle) -> bool:
    """A board without hints whose ships fill more than ``LEARNERS_SHARE`` of it: the forward
    member steps aside after its first turn and the workers start at once, in their dense
    configurations (``Member.aside_when_dense``, ``Member.when_dense``)."""
    return forward.dense_without_hints(puzzle, LEARNERS_SHARE)


@dataclass(frozen=True)
class Member:
    """One configuration of the forward search: keyword options of ``forward.events``; with
    ``learning``, of clause learning instead (options of ``learning.events``).

    With ``genetic_seed``, the genetic algorithm (seeded so), its best layouts mended by the
    search, looks for a first solution before the search starts, and the search takes it as
    known: it searches the bands around it first, then the whole tree, so the member stays
    exact. With ``turns_with``, the member and those members take turns in one process, each
    turn as long as its ``share`` allows (:func:`_taking_turns`). With ``aside_when_dense``, on
    a dense board without hints (:func:`learners_board`) the member runs its first turn only.
    With ``when_dense``, on such a board that member runs in this one's place. With ``bands``
    False, clause learning runs alone, without the forward search's bands around its first
    solution (which are bounded by the clock).
    """

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    genetic_seed: int | None = None
    turns_with: tuple[Member, ...] = ()
    learning: bool = False
    share: int = 1
    aside_when_dense: bool = False
    when_dense: Member | None = None
    bands: bool = True

    def events(self, puzzle: Puzzle, limit: int) -> Stream:
        return self._in_turns(puzzle, limit) if self.turns_with else self._events(puzzle, limit)

    def _in_turns(self, puzzle: Puzzle, limit: int) -> Stream:
        """The members taking turns, once the board's tables are built: a member's turn can end
        while it builds them, and the next member would build them again beside it."""
        yield from beating(prepared(puzzle))
        members = (replace(self, turns_with=()), *self.turns_with)
        yield from _taking_turns([member.events(puzzle, limit) for member in members],
                                 [member.share for member in members],
                                 first_once=self.aside_when_dense and learners_board(puzzle))

    def _events(self, puzzle: Puzzle, limit: int) -> Stream:
        if self.learning:
            if self.bands:
                yield from _learning_then_bands(puzzle, limit, self.options)
            else:
                yield from learning.events(puzzle, trace=False, limit=limit, **self.options)
            return
        options = dict(self.options)
        seed = options.pop("seed", None)
        if seed is not None:
            options["rng"] = random.Random(seed)
        if self.genetic_seed is not None:
            found = yield from _first_by_genetic(puzzle, self.genetic_seed)
            if found is not None:
                options["known"] = (found,)
        yield from forward.events(puzzle, trace=False, limit=limit, **options)


def _taking_turns(streams: list[Stream], shares: list[int], first_once: bool = False) -> Stream:
    """Several members in one process, each for ``TURN`` seconds in turn; the first exact
    result is the member's (one that fails leaves the others to go on). The first one's first
    turn lasts ``ESCALATE_AFTER``: what it decides at once, it decides at full speed. A member
    with a share of k gets turns up to k times as long, but no longer than ``GROWTH`` of the
    time run so far: what the first member decides in its first second it decides as soon
    as before, and later the time goes to the others. With ``first_once`` the first member
    is set aside after its first turn and the others share the process; it goes on only if
    they all end without an exact answer (clause learning still being compiled, say)."""
    running = list(zip(streams, shares))
    aside: list[tuple[Stream, int]] = []
    failed: Result | None = None
    started = time.perf_counter()
    turn: float | None = ESCALATE_AFTER
    try:
        while running:
            for member in list(running):
                stream, share = member
                now = time.perf_counter()
                ends = now + (turn or max(TURN, min(TURN * share, (now - started) * GROWTH)))
                turn = None
                try:
                    for event in stream:
                        if isinstance(event, Result):
                            if event.status in (Status.SOLVED, Status.NO_SOLUTION):
                                yield event
                                return
                            failed = event
                            running.remove(member)
                            break
                        yield event
                        if time.perf_counter() > ends:
                            if first_once:
                                first_once = False
                                running.remove(member)
                                aside.append(member)
                            break
                    else:
                        running.remove(member)
                except Exception as error:  # noqa: BLE001 - a failing member leaves the others to go on
                    failed = Result(Status.ERROR, message=f"{type(error).__name__}: {error}")
                    running.remove(member)
            if not running:
                running, aside = aside, []
        yield failed or Result(Status.ERROR, message="the search ended without a result")
    finally:
        for stream, _ in running + aside:
            stream.close()


def _learning_then_bands(puzzle: Puzzle, limit: int, options: Mapping[str, Any]) -> Stream:
    """Clause learning (``solvers.search.learning``); at its first solution, when more are
    wanted, the forward search looks in the bands of lines around it for up to
    ``BANDS_SECONDS`` (a second solution is usually a small change of the first, and clause
    learning meets it late), then the learning goes on where it was. Not on the learners'
    boards (:func:`learners_board`): there both cores run learners, whose own second solution
    comes as soon (docs/design/portfolio.md)."""
    stream = learning.events(puzzle, trace=False, limit=limit, **options)
    looked = limit < 2 or learners_board(puzzle)
    try:
        for event in stream:
            yield event
            if isinstance(event, Found) and not looked:
                looked = True
                answer = yield from _bands_around(puzzle, event.grid, limit)
                if answer is not None:
                    yield answer
                    return
    finally:
        stream.close()


def _bands_around(puzzle: Puzzle, grid: Grid, limit: int) -> Generator[Event, None, Result | None]:
    """The forward search given ``grid`` as known, for up to ``BANDS_SECONDS``: its answer if it
    has one by then (the bands come first, then the whole tree)."""
    ends = time.perf_counter() + BANDS_SECONDS
    search = forward.events(puzzle, trace=False, limit=limit, known=(grid,))
    try:
        for event in search:
            if isinstance(event, Result):
                return event if event.status is Status.SOLVED and len(event.solutions) >= limit else None
            if isinstance(event, Found):
                yield event
            if time.perf_counter() > ends:
                return None
        return None
    finally:
        search.close()


def _first_by_genetic(puzzle: Puzzle, seed: int) -> Generator[Event, None, Grid | None]:
    """A first solution (judged by the rules) from the genetic algorithm, or None when it gives
    up (with the default settings it never does: the portfolio's other members decide).

    Before the algorithm rebuilds a population that stopped improving, the search mends that
    population's best layout (``forward.Repair``: the lines it breaks are searched with the
    rest of the board fixed). The algorithm alone comes close on the dense boards (a few
    broken rules) far more often than it lands on a solution.
    """
    from solvers.genetic import algorithm as genetic  # numba and its compiled code: only when it runs

    yield from beating(prepared(puzzle))          # the repair's model reads every table of a fresh board
    repair = forward.Repair(puzzle)
    result: Result | None = None
    rounds = 0
    best: Generation | None = None               # the best generation of the current population
    tried: set[Grid] = set()
    for event in genetic.events(puzzle, trace=False, rng=random.Random(seed), stagnation=MEND_STAGNATION):
        if isinstance(event, Result):
            result = event
            break
        yield event
        if not isinstance(event, Generation):
            continue
        if event.restarts != rounds:
            rounds = event.restarts
            sketch = board_of(puzzle.rows, puzzle.cols, best.best_fleet) if best is not None else None
            best = None
            if sketch is not None and sketch not in tried:
                tried.add(sketch)
                mended = yield from repair.mend(sketch)
                if mended is not None:
                    return mended
        if best is None or event.best < best.best:
            best = event
    return result.grid if result is not None and result.status is Status.SOLVED else None


# In order of use: a machine with n cores runs the first n. The forward search decides most
# levels at once; it takes turns with clause learning deciding every variable from the best
# phase, which finds first solutions on the dense boards, and whose turns grow to five times
# the forward search's. The second core runs clause learning deciding cells, the one that
# proves the hardest dense board unique. The third shares its core between the other branch
# order and the genetic algorithm (docs/design/portfolio.md). On a dense board without hints
# the second core runs clause learning deciding every variable too, restarting less often: the
# two take other paths, and the first of them decides every such board sooner than the
# learner deciding cells (docs/design/portfolio.md, "Two learners deciding every variable").
GENETIC = Member("genetic, then forward", genetic_seed=1)
LEARNING_EVERY_VARIABLE = Member("clause learning, every variable, best phase",
                                 {"every_variable": True, "best_phase": True}, learning=True,
                                 share=5)
MEMBERS = (
    Member("forward", turns_with=(LEARNING_EVERY_VARIABLE,), aside_when_dense=True),
    Member("clause learning", learning=True,
           when_dense=Member("clause learning, every variable, best phase, restarts of 200",
                             {"every_variable": True, "best_phase": True, "restart_unit": 200}, learning=True)),
    Member("forward, water first", {"water_first": True}, turns_with=(GENETIC,)),
    Member("genetic, then forward", genetic_seed=2),
    Member("forward, restarts", {"restarts": True, "seed": 1}),
)


def budgeted(work: int | None = None, conflicts: int | None = None) -> tuple[Member, ...]:
    """The forward search alone, giving up after ``work`` nodes and probes; or, with
    ``conflicts``, clause learning alone (every variable decided), giving up after that many
    conflicts: the members of a race whose answer is the same on any machine (the members
    above share a core by the clock and race on several)."""
    if conflicts is not None:
        return (Member("learning", {"every_variable": True, "max_conflicts": conflicts}, learning=True, bands=False),)
    return (Member("forward", {"max_work": work}),)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                      # not on Linux
        return os.cpu_count() or 1


def race(puzzle: Puzzle, *, limit: int = 2, timeout: float | None = None, jobs: int | None = None,
           members: tuple[Member, ...] = MEMBERS, cancelled: Callable[[], bool] | None = None) -> Result:
    """Count ``puzzle``'s solutions up to ``limit`` with up to ``jobs`` members at once.

    The result is the first exact answer (``solved``, with up to ``limit`` solutions, or
    ``no_solution``), or ``limit`` different solutions met by the members between them; its
    statistics say which member gave it (``member``, names joined by " + " for pooled
    solutions) and how many searches ran (``members``). ``timeout`` when neither comes within
    ``timeout`` seconds, with the solutions met so far; ``stopped`` as soon as ``cancelled()``
    says so (asked between the first member's events: a window that no longer wants the answer).
    """
    jobs = max(1, min(jobs or cores(), len(members)))
    # Dense boards without hints are clause learning's (its members decide them, the forward
    # search seldom does): there the workers start at once.
    dense = learners_board(puzzle)
    escalate = 0.0 if dense else ESCALATE_AFTER
    if dense:
        members = tuple(member.when_dense or member for member in members)
    started = time.perf_counter()
    workers: list[_Worker] = []
    found: dict[Grid, str] = {}                 # solutions met so far, and which member met each

    def pooled(waiting: bool = True) -> Result | None:
        """``limit`` different solutions met by several members decide it too. (When one member
        met them all, its own result follows at once, with its statistics, unless the time is
        up: ``waiting=False``.)"""
        names = tuple(dict.fromkeys(found.values()))
        if len(found) < limit or (waiting and len(names) < 2):
            return None
        stats = {"seconds": elapsed(started), "member": " + ".join(names),
                 "members": 1 + len(workers)}
        grids = tuple(found)[:limit]
        return Result(Status.SOLVED, grids[0], stats, grids)

    stream = members[0].events(puzzle, limit)
    try:
        for event in stream:
            if isinstance(event, Result):
                return _tagged(event, members[0].name, 1 + len(workers), started)
            if isinstance(event, Found):
                found.setdefault(event.grid, members[0].name)
                if (answer := pooled()) is not None:
                    return answer
            spent = elapsed(started)
            if cancelled is not None and cancelled():
                return Result(Status.STOPPED, None, {"seconds": spent, "members": 1 + len(workers)}, tuple(found),
                              "stopped")
            if timeout is not None and spent > timeout:
                stats = {"seconds": spent, "members": 1 + len(workers)}
                return pooled(waiting=False) or Result(Status.TIMEOUT, None, stats, tuple(found),
                                                       f"no answer within {seconds_said(timeout)}")
            if not workers and jobs > 1 and spent > escalate:
                workers = [_Worker(puzzle, member, limit) for member in members[1:jobs]]
            for worker in workers:
                met, answer = worker.poll()
                for grid in met:
                    found.setdefault(grid, worker.member.name)
                if answer is not None:
                    return _tagged(answer, worker.member.name, 1 + len(workers), started)
                if (answer := pooled()) is not None:
                    return answer
        return Result(Status.ERROR, None, {}, (), "the search ended without a result")
    finally:
        stream.close()
        for worker in workers:
            worker.stop()


def _tagged(result: Result, member: str, count: int, started: float) -> Result:
    """``result`` as the race's: which member gave it, how many ran, and the race's seconds."""
    seconds = elapsed(started)
    return replace(result, stats=dict(result.stats, member=member, members=count, seconds=seconds))


# held while a worker starts (those of them the system has)
STOPS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name)}


def _context():
    # fork starts a worker in milliseconds with everything imported; elsewhere, spawn.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


class _Worker:
    """One member in a process of its own; ``poll()`` gives what it has sent since the last call."""

    def __init__(self, puzzle: Puzzle, member: Member, limit: int) -> None:
        self.member = member
        context = _context()
        self.inbox, outbox = context.Pipe(duplex=False)
        self.process = context.Process(target=_work, args=(puzzle, member, limit, outbox), daemon=True)
        # A Ctrl-C may reach the worker as it starts, with the command's handlers (a fork has
        # them): it is held until the worker has its own (``_work``).
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS) if hasattr(signal, "pthread_sigmask") else None
        try:
            self.process.start()
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        outbox.close()
        self.done = False

    def poll(self) -> tuple[list[Grid], Result | None]:
        """The solutions the worker met since the last call, and its exact result if it has one."""
        met: list[Grid] = []
        while not self.done and self.inbox.poll():
            try:
                kind, body = self.inbox.recv()
            except (EOFError, OSError):         # the worker died without a word
                self.done = True
                break
            if kind == "found":
                met.append(grid_from_strings(body))
                continue
            self.done = True
            status, solutions, stats, message = body
            if status in (Status.SOLVED.value, Status.NO_SOLUTION.value):
                grids = tuple(grid_from_strings(lines) for lines in solutions)
                return met, Result(Status(status), grids[0] if grids else None, stats, grids, message)
            # a failed member decides nothing; the others go on
        return met, None

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=1.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.inbox.close()


def _work(puzzle: Puzzle, member: Member, limit: int, outbox) -> None:
    """The worker process: run the member to its end, sending each solution as it meets it
    (``("found", lines)``) and then its result (``("result", ...)``). Ctrl-C is the parent's to
    handle (it stops the workers); ``terminate`` ends a worker at once, without a traceback.
    The signals held while it started (see ``_Worker``) come once it has its own handlers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)  # a command's timer for its Ctrl-C is not the worker's
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    try:
        result = Result(Status.ERROR, message="the search ended without a result")
        try:
            for event in member.events(puzzle, limit):
                if isinstance(event, Found):
                    outbox.send(("found", grid_to_strings(event.grid)))
                elif isinstance(event, Result):
                    result = event
                    break
        except Exception as error:  # noqa: BLE001 - reported to the parent, which goes on without us
            result = Result(Status.ERROR, message=f"{type(error).__name__}: {error}")
        outbox.send(("result", (result.status.value, [grid_to_strings(grid) for grid in result.solutions],
                                dict(result.stats), result.message)))
    finally:
        outbox.close()
