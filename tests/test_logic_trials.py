"""Trials on the hardest steps: ruling out places, the order of depth-2 assumptions, kept steps."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from game import levels, rules
from game.bitsets import bits
from game.puzzle import Cell, Move, apply_move, initial_grid
from game.ships import segments
from solvers.engine import hints
from solvers.engine.verdict import unique_solution
from solvers.events import SetCell, Status
from solvers.logic import deduction as logic
from solvers.logic import probe
from solvers.logic.analysis import Bank, DeductionModel, model_of
from solvers.logic.probe import (
    Clock,
    Outcome,
    clashes_first,
    deep_order,
    find_contradiction,
    rule_out_longest,
    rule_out_places,
)
from solvers.logic.steps import Finding, settle_steps
from solvers.propagation.rules import common

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def first_board_past_depth_one(name: str):
    """A pack level, its solution, and the first board of its hint play where depth 1 finds nothing."""
    puzzle = levels.load(LEVELS / name)
    solution = unique_solution(puzzle)
    board = initial_grid(puzzle)
    while True:
        step = logic.next_deduction(puzzle, board, max_depth=1)
        if step is None:
            return puzzle, solution, board
        for move in step.moves:
            board = apply_move(board, move)


def boards_searched(monkeypatch, owner, name: str) -> list:
    """The boards (ship, water) the search ``owner.name`` is started on from now, a list that
    fills as the test runs."""
    boards, search = [], getattr(owner, name)

    def counted(*args, **kwargs):
        boards.append(args[1:3])
        return (yield from search(*args, **kwargs))
    monkeypatch.setattr(owner, name, counted)
    return boards


def settled(puzzle, board):
    model = model_of(puzzle)
    ship, water = logic._masks(model, board)
    board = settle_steps(model, ship, water, None)
    return model, board.ship, board.water, board.places


@pytest.mark.parametrize("deeper", [False, True])
def test_places_ruled_out_hold_no_ship_of_the_solution(deeper):
    puzzle, solution, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    until = time.perf_counter() + 60 if deeper else None
    alive, dropped = logic.drain(rule_out_places(model, ship, water, valid, Clock(), until))
    assert dropped, "this board has places a whole ship cannot take"
    assert any(depth == 2 for _, _, depth in dropped) == deeper
    solution_ship, _ = model.shared.masks(solution)
    ships = {seg.cells for seg in segments(model.shared, solution_ship, model.all & ~solution_ship)}
    for place, reason, _ in dropped:
        assert place.cells not in ships and reason
        assert not alive >> place.index & 1
    assert alive.bit_count() + len(dropped) == valid.bit_count()


def test_places_ruled_out_longest_first_hold_no_ship_of_the_solution():
    puzzle, solution, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    solution_ship, _ = model.shared.masks(solution)
    ships = {seg.cells for seg in segments(model.shared, solution_ship, model.all & ~solution_ship)}
    alive, dropped = logic.drain(rule_out_places(model, ship, water, valid, Clock()))
    for length in sorted(model.lengths, reverse=True):
        alive, new = logic.drain(rule_out_longest(model, ship, water, alive, Clock(), length, held={}))
        dropped += new
        for place, reason, depth in new:
            assert place.cells not in ships and reason and depth == 2
            assert place.length == length and not alive >> place.index & 1
    assert any(depth == 2 for _, _, depth in dropped)


def test_an_assumption_that_held_will_break_once_the_board_clashes_with_its_settled_board():
    lits = [(1, True), (2, False), (3, True)]
    held = {(2, False): [(0b1, 0, 0, Outcome(0b1011, 0b100, 0, None), 0)],    # held on board (ship r0)
            (3, True): [(0b10000, 0, 0, Outcome(0b11000, 0, 0, None), 0)]}    # on a board this one does not extend
    assert clashes_first(held, 0b1, 0, lits) == lits                      # nothing new
    assert clashes_first(held, 0b1011, 0, lits) == lits                   # new cells inside its board
    assert clashes_first(held, 0b1, 0b1000, lits) == [(2, False), (1, True), (3, True)]   # a clash: tried first
    assert clashes_first(held, 0b10000, 0b100, lits) == lits              # not its board


def test_depth_two_tries_only_values_the_solution_lacks_fewest_places_first():
    puzzle, solution, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    closures: dict = {}
    assert logic.drain(find_contradiction(model, ship, water, valid, Clock(), closures)) is None
    truth, _ = model.shared.masks(solution)
    both = deep_order(model, ship, water, closures)
    wrong = deep_order(model, ship, water, closures, truth)
    unknown = (model.all & ~ship & ~water).bit_count()
    assert len(both) == 2 * unknown and len(wrong) == unknown
    assert all(bool(truth >> index & 1) != as_ship for index, as_ship in wrong)
    places = [closures[lit].places.bit_count() for lit in both if lit in closures]
    assert places == sorted(places)


def test_a_kept_step_serves_only_boards_that_extend_its_own():
    puzzle, _, board = first_board_past_depth_one("8x8/expert/01.bs")
    model = model_of(puzzle)
    ship, water = logic._masks(model, board)
    unknown = [i for i in range(model.shared.rows * model.shared.stride) if (model.all & ~ship & ~water) >> i & 1]
    cell, other = 1 << unknown[0], 1 << unknown[1]
    step = Finding("deep-contradiction", 4, 0, cell, cell, lambda: "kept")
    model.bank.clear()
    model.bank.add(ship, water, [step])
    try:
        assert model.bank.find(ship, water) is step
        assert model.bank.find(ship | other, water) is step                  # a board that knows more
        assert model.bank.find(ship, water | cell) is None                     # its cell is known already
        first = 1 << next(i for i in range(model.shared.rows * model.shared.stride) if water >> i & 1)
        assert model.bank.find(ship, water & ~first) is None                   # a board that knows less
    finally:
        model.bank.clear()


def test_hints_on_an_expert_level_are_true_and_explained():
    puzzle = levels.load(LEVELS / "10x10" / "expert" / "04.bs")
    solution = unique_solution(puzzle)
    model_of(puzzle).bank.clear()
    board, rules_used = initial_grid(puzzle), set()
    while not rules.judge(puzzle, board).solved:
        step = hints.next_hint(puzzle, board, lambda: solution)
        assert step.rule not in ("reveal", "mistake"), step.text
        rules_used.add(step.rule)
        for move in step.moves:
            assert board[move.row][move.col] == Cell.UNKNOWN and solution[move.row][move.col] == move.value
            board = apply_move(board, move)
        if step.rule == "placement-trial":
            assert "none lies there: the " in step.text and "With those ruled out: " in step.text
    assert {"deep-contradiction", "placement-trial"} <= rules_used


@pytest.mark.parametrize("name", ["8x8/expert/01.bs", "10x10/expert/06.bs"])
def test_grading_does_not_use_the_hint_only_trials(name):
    outcome = logic.solve(levels.load(LEVELS / name))
    assert outcome.solved and "placement-trial" not in outcome.rules


def test_a_kept_search_is_run_by_one_hint_at_a_time():
    from solvers.logic.analysis import Kept

    kept = Kept(0, 0, iter(()), [], [])
    assert kept.take() and not kept.take()
    kept.give_back()
    assert kept.take()


class Forgetful(dict):
    """A ``DeductionModel.settled`` that never keeps anything: every trial is run afresh."""

    def __setitem__(self, key, value) -> None:
        pass

    def setdefault(self, key, default=None):
        return default            # given back, kept nowhere


@pytest.mark.parametrize("name", ["10x10/expert/04.bs", "15x15/expert/07.bs"])
def test_trials_remembered_across_boards_give_the_steps_of_fresh_trials(name, monkeypatch):
    puzzle = levels.load(LEVELS / name)
    recalled, broke = [], []
    remember, broken, for_a_run = probe.settled_before, probe.broke_before, DeductionModel.for_a_run

    def counted(*args):
        outcome = remember(*args)
        recalled.append(outcome is not None)
        return outcome

    def counted_broken(*args):
        broke.append(broken(*args))
        return broke[-1]
    monkeypatch.setattr(probe, "settled_before", counted)
    monkeypatch.setattr(probe, "broke_before", counted_broken)

    def forgetful(model):
        model = for_a_run(model)
        model.settled, model.broken, model.held = Forgetful(), Forgetful(), Forgetful()
        model.broken_deep = Forgetful()
        return model

    def steps(forget: bool = False) -> list:
        logic.model_of.cache_clear()
        if forget:
            monkeypatch.setattr(DeductionModel, "for_a_run", forgetful)
        return [(e.row, e.col, e.value, e.detail) for e in logic.events(puzzle) if hasattr(e, "detail")]

    remembered = steps()
    assert sum(recalled) > 10, "trials were recalled instead of run again"
    assert sum(broke) > 10, "places were ruled out by trials that broke on earlier boards"
    fresh = steps(forget=True)
    logic.model_of.cache_clear()
    assert remembered == fresh


def test_a_place_ruled_out_on_an_earlier_board_is_ruled_out_with_the_reason_a_trial_gives_now():
    puzzle, solution, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    model.broken.clear()
    _, before = logic.drain(rule_out_places(model, ship, water, valid, Clock()))
    assert before and len(model.broken) == len(before)
    truth_ship, truth_water = model.shared.masks(solution)
    unknown = model.all & ~ship & ~water
    cell = unknown & truth_water & -(unknown & truth_water)     # one more cell of the solution
    water |= cell
    known = probe.places_mask(model, valid)
    assert all(probe.broke_before(model.broken, probe.place_key(p), ship, water, known) for p, _, _ in before)
    assert not any(probe.broke_before(model.broken, probe.place_key(p), ship & (ship - 1), water, known)
                   for p, _, _ in before), "a board that lacks a cell of theirs"

    def ruled_out() -> list:
        _, dropped = logic.drain(rule_out_places(model, ship, water, valid, Clock()))
        return [(p, reason(), depth) for p, reason, depth in dropped]
    recalled = ruled_out()
    model.broken.clear()
    assert recalled == ruled_out()
    assert {p for p, _, _ in before} <= {p for p, _, _ in recalled}


def swept(name: str):
    """The first board past depth 1 of a pack level, its cell trials run with an empty store
    (none breaks there): the model, the board, its places and their mask."""
    puzzle, _, board = first_board_past_depth_one(name)
    model, ship, water, valid = settled(puzzle, board)
    model.settled.clear()
    assert logic.drain(find_contradiction(model, ship, water, valid, Clock())) is None
    return model, ship, water, valid, probe.places_mask(model, valid)


def test_a_trial_is_remembered_only_for_boards_between_its_board_and_its_settled_board():
    model, ship, water, valid, known = swept("8x8/expert/01.bs")
    assert model.settled, "every trial held on this board, and each was kept"
    for key, [(_, _, _, outcome, _)] in model.settled.items():
        assert probe.settled_before(model.settled, key, ship, water, known) is outcome
        more = (outcome.ship | outcome.water) & ~(ship | water)
        if more & outcome.water:               # a board between the two settles the same way
            extra = more & outcome.water & -(more & outcome.water)
            assert probe.settled_before(model.settled, key, ship, water | extra, known) is outcome
        outside = model.all & ~outcome.ship & ~outcome.water
        if outside:                            # a board that knows a cell the settled one does not
            assert probe.settled_before(model.settled, key, ship, water | (outside & -outside), known) is None
        assert probe.settled_before(model.settled, key, ship & (ship - 1), water, known) is None    # not its board
        assert probe.settled_before(model.settled, key, ship, water, known | (1 << 10_000)) is None  # a place it lacked


def test_a_trial_made_with_places_ruled_out_leaves_the_record_of_the_plain_board_usable():
    # A hard step sweeps the cell trials on the board, then again with places ruled out; the
    # next board has those places back, so it extends only the first sweep's boards.
    model, ship, water, valid, known = swept("8x8/expert/01.bs")
    plain = {key: records[0] for key, records in model.settled.items()}
    fewer = valid & ~(valid & -valid)                      # one place ruled out
    logic.drain(find_contradiction(model, ship, water, fewer, Clock()))
    newer = [key for key, records in model.settled.items() if records[0][2] == fewer]
    assert newer, "trials run again on the board with a place fewer"
    for key in newer:
        assert plain[key] in model.settled[key][1:], "the plain board's record is still there"
        assert probe.settled_before(model.settled, key, ship, water, known) is plain[key][3]
    assert all(len(records) <= probe.RECORDS for records in model.settled.values())


def test_segments_remembered_keep_open_and_closed_apart():
    geo = model_of(levels.load(LEVELS / "10x10/expert/01.bs")).shared
    ship = geo.mask_of([(2, 3), (2, 4)])
    ends = geo.mask_of([(2, 2), (2, 5)])
    (open_seg,) = segments(geo, ship, 0)
    (closed_seg,) = segments(geo, ship, ends)
    (again,) = segments(geo, ship, geo.mask_of([(2, 2)]))
    assert not open_seg.closed and closed_seg.closed and not again.closed
    assert open_seg.length == closed_seg.length == 2 and closed_seg.horizontal


def test_a_hint_does_not_search_ahead_and_the_time_between_hints_does():
    puzzle, solution, board = first_board_past_depth_one("10x10/expert/06.bs")
    model = model_of(puzzle)
    model.kept = None
    model.bank.clear()
    assert list(logic.think_ahead(puzzle, board, logic.reveal(puzzle, board, solution))) == []
    banked = 0
    while not rules.judge(puzzle, board).solved:
        step = logic.next_deduction(puzzle, board, solution=lambda: solution)
        assert step is not None and step.level <= 4
        before = len(model.bank.steps)
        for _ in logic.think_ahead(puzzle, board, step, seconds=0.3):
            pass
        banked += len(model.bank.steps) > before
        for move in step.moves:
            assert solution[move.row][move.col] == move.value
            board = apply_move(board, move)
    assert banked, "the time between hints went on with a depth-2 search and kept its steps"
    assert model.kept is None and not model.held, "a finished board lets its search go"


def test_the_search_ahead_starts_from_the_settled_board_and_waits_there_for_the_player():
    puzzle = levels.load(LEVELS / "15x15/expert/04.bs")
    solution = unique_solution(puzzle)
    model = model_of(puzzle)
    model.kept, model.ahead_of = None, None
    board = initial_grid(puzzle)
    step = logic.next_deduction(puzzle, board)
    for _ in logic.think_ahead(puzzle, board, step, seconds=1.0):
        break                                    # one heartbeat: the search has begun
    kept = model.kept
    assert kept is not None
    for move in step.moves:
        board = apply_move(board, move)
    ship, water = logic._masks(model, board)
    assert not ship & ~kept.ship and not water & ~kept.water and (kept.ship, kept.water) != (ship, water), \
        "the search began on the board the simple rules settle this one to, ahead of the player"
    # The simple steps on the way there leave it be.
    step = logic.next_deduction(puzzle, board)
    assert step.level <= 2 and model.kept is kept
    # A cell of the solution the search's board does not hold: the player went another way.
    r, c = next((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)
                if not (kept.ship | kept.water) >> model.shared.index(r, c) & 1 and board[r][c] == Cell.UNKNOWN)
    board = apply_move(initial_grid(puzzle), Move(r, c, solution[r][c]))
    assert logic.next_deduction(puzzle, board) is not None and model.kept is not kept


def test_places_a_cell_trial_settled_whole_are_not_tried_and_the_same_ones_are_ruled_out():
    puzzle, _, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    closures: dict = {}
    assert logic.drain(find_contradiction(model, ship, water, valid, Clock(), closures)) is None
    whole = [p for p in model.shared.members(valid) if p.cells & ~ship and probe._settled_whole(closures, p, ship)]
    assert whole, "some cell trial on this board settles a ship whole"
    for p in whole:                            # each holds: its own trial breaks nothing
        assert not probe.propagate(model, ship | p.cells, water | p.halo, valid).contradiction

    def ruled_out(given) -> list:
        model.settled.clear()
        model.broken.clear()
        tried = []
        trial = probe.trial

        def counted(*args, **kwargs):
            tried.append(args[2])
            return trial(*args, **kwargs)
        probe.trial = counted
        try:
            _, dropped = logic.drain(rule_out_places(model, ship, water, valid, Clock(), closures=given))
        finally:
            probe.trial = trial
        return [(p, reason()) for p, reason, _ in dropped], tried

    with_closures, fewer = ruled_out(closures)
    without, every = ruled_out(None)
    assert with_closures == without
    assert {probe.place_key(p) for p in whole} <= set(every) - set(fewer)


def test_what_places_share_and_cover_is_read_from_them_and_remembered():
    model = model_of(levels.load(LEVELS / "10x10/expert/01.bs"))
    for length in model.lengths:
        places = model.shared.length_sets[model.shared.length_index[length]] & model.alive
        for some in (places, places & -places, places & (places >> 3)):
            if not some:
                continue
            cells = [model.shared.placements[i].cells for i in bits(some)]
            halos = [model.shared.placements[i].halo for i in bits(some)]
            every, any_ = model.all, 0
            for c in cells:
                every &= c
                any_ |= c
            every_halo = model.all
            for h in halos:
                every_halo &= h
            assert common(model.engine, some) == (every, every_halo)
            assert model.cells_of(some) == any_
            assert model.engine.memo.common[some] == (every, every_halo)


@pytest.mark.parametrize("name", ["8x8/expert/01.bs", "10x10/expert/06.bs"])
def test_cells_assumed_ship_first_find_a_depth_one_step_where_cell_by_cell_does_and_a_true_one(name):
    puzzle = levels.load(LEVELS / name)
    solution = unique_solution(puzzle)
    model = model_of(puzzle)
    truth_ship, truth_water = model.shared.masks(solution)
    board, compared = initial_grid(puzzle), 0
    while not rules.judge(puzzle, board).solved:
        settled_board = settle_steps(model, *logic._masks(model, board), None)
        ship, water, valid = settled_board.ship, settled_board.water, settled_board.places
        found = {ship_first: logic.drain(find_contradiction(model, ship, water, valid, Clock(), None, ship_first))
                 for ship_first in (False, True)}
        assert (found[False] is None) == (found[True] is None)
        for step in found.values():
            assert step is None or not (step.ship & ~truth_ship or step.water & ~truth_water)
        compared += found[True] is not None
        for move in logic.next_deduction(puzzle, board, solution=lambda: solution).moves:
            board = apply_move(board, move)
    assert compared > 3


def test_a_solver_banks_the_depth_two_steps_past_its_first_and_later_boards_take_them(monkeypatch):
    played, bank = solver_play("10x10/expert/03.bs", monkeypatch)
    deep = [found for found, banked, _ in played if banked and "one level of trial" in found.text()]
    assert deep, "depth-2 steps found past the first served later boards"
    assert all(found.level == (4 if "one level of trial" in found.text() else 3) for _, _, found in bank.steps)
    assert [found.level for found, _, _ in played].count(4) > len(deep)


def said(why) -> str | None:
    """A trial's reason as a player reads it (None if the trial held)."""
    return None if why is None else str(why)


def test_a_depth_two_trial_started_where_it_held_before_settles_as_a_fresh_one():
    puzzle, solution, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    held: dict = {}
    steps: list = []
    logic.drain(probe.find_deep_contradiction(model, ship, water, valid, Clock(), every=steps, held=held))
    assert steps and held
    after = probe.propagate(model, ship | steps[0].ship, water | steps[0].water, valid)
    ship, water, known = after.ship, after.water, probe.places_mask(model, after.places)
    joined = 0
    for (index, as_ship) in list(held):
        if not ((model.all & ~ship & ~water) >> index) & 1:
            continue
        outcome = probe.propagate(model, *probe._assuming(ship, water, index, as_ship), after.places)
        if outcome.contradiction:
            continue
        fresh = logic.drain(probe._breaks_at_depth_one(model, outcome, Clock()))
        again = logic.drain(probe.deep_trial(model, held, (index, as_ship), ship, water, known, outcome, Clock()))
        assert (said(again.contradiction), again.ship, again.water) == \
               (said(fresh.contradiction), fresh.ship, fresh.water)
        joined += any(probe.extends(ship, water, known, record) for record in held[(index, as_ship)])
    assert joined


def test_places_ruled_out_at_depth_two_before_are_ruled_out_again_as_fresh_trials_would():
    puzzle, solution, board = first_board_past_depth_one("8x8/expert/01.bs")
    logic.model_of.cache_clear()
    model, ship, water, valid = settled(puzzle, board)
    every = float("inf")
    _, before = logic.drain(rule_out_places(model, ship, water, valid, Clock(), every))
    assert any(depth == 2 for _, _, depth in before) and model.broken_deep
    truth, _ = model.shared.masks(solution)
    cell = next(i for i in bits(model.all & ~ship & ~water) if truth >> i & 1)
    after = probe.propagate(model, ship | 1 << cell, water, valid)
    remembered_keys = set(model.broken_deep)

    def drops() -> list:
        _, dropped = logic.drain(rule_out_places(model, after.ship, after.water, after.places, Clock(), every))
        return [(p.index, reason(), depth) for p, reason, depth in dropped]
    try:
        remembered = drops()
        assert any(probe.place_key(model.shared.placements[index]) in remembered_keys
                   for index, _, depth in remembered if depth == 2), "a drop came from the earlier board"
        model.settled, model.broken, model.held, model.broken_deep = Forgetful(), Forgetful(), Forgetful(), Forgetful()
        assert remembered == drops()
    finally:
        logic.model_of.cache_clear()


def solver_play(name: str, monkeypatch) -> tuple[list[tuple[Finding, bool, bool]], Bank]:
    """The solver's steps on a pack level, each with whether it came from the bank and whether
    places were ruled out (a pass of place trials) to find it, and the bank at the end; every
    step, taken or banked, agrees with the solution."""
    puzzle = levels.load(LEVELS / name)
    solution = unique_solution(puzzle)
    model = model_of(puzzle)
    truth_ship, truth_water = model.shared.masks(solution)
    passes = boards_searched(monkeypatch, probe, "rule_out_places")
    ship, water = logic._masks(model, initial_grid(puzzle))
    bank, carried, played = Bank(model.all), [], []
    while model.all & ~ship & ~water:
        kept = [step for _, _, step in bank.steps]
        before = len(passes)
        found, _ = logic.drain(logic._first_finding(model, ship, water, None, 2, Clock(), bank=bank, carried=carried))
        assert found is not None and not (found.ship & ~truth_ship or found.water & ~truth_water)
        played.append((found, any(found is step for step in kept), len(passes) > before))
        ship, water = ship | found.ship, water | found.water
    assert all(not (found.ship & ~truth_ship or found.water & ~truth_water) for _, _, found in bank.steps)
    return played, bank


def test_a_solver_banks_the_cell_trials_that_break_with_places_ruled_out_and_takes_them_before_ruling_out_again(
        monkeypatch):
    played, _ = solver_play("10x10/expert/04.bs", monkeypatch)
    assert any(banked and not ruled_out for _, banked, ruled_out in played), \
        "a step banked by an earlier board's trials served a later board without ruling out places again"


def test_places_a_solver_ruled_out_stay_ruled_out_for_the_simple_rules_of_later_boards(monkeypatch):
    played, _ = solver_play("10x10/expert/04.bs", monkeypatch)
    later = [found for found, banked, ruled_out in played if found.rule == "placement-trial" and not ruled_out]
    assert later, "a later board's level-2 rules used the places ruled out before, without a pass of its own"
    assert all(found.level == 3 and found.text().startswith("A ship placed whole at some places") for found in later)


def test_levels_count_trials_inside_trials_so_places_ruled_out_by_depth_one_trials_keep_a_cell_trial_at_level_3():
    puzzle, _, board = first_board_past_depth_one("8x8/expert/01.bs")
    model, ship, water, valid = settled(puzzle, board)
    _, dropped = logic.drain(rule_out_places(model, ship, water, valid, Clock()))
    assert dropped and all(depth == 1 for _, _, depth in dropped)
    cell = 1 << next(bits(model.all & ~ship & ~water))
    simple = Finding("last_ship_of_a_length", 2, 0, cell, cell, lambda: "The last cruiser can only lie there")
    trial = Finding("contradiction", 3, 0, cell, cell, lambda: "If it were ship, a rule breaks")
    deep = Finding("deep-contradiction", 4, 0, cell, cell, lambda: "If it were ship, one level of trial breaks")
    for found, level in ((simple, 3), (trial, 3), (deep, 4)):
        said = probe.after_ruling_out(found, dropped)
        assert (said.rule, said.level) == (("placement-trial", 3) if level == 3 else ("deep-contradiction", 4))
        assert said.text().startswith("A ship placed whole at some places breaks a rule")
        assert found.text()[1:] in said.text()
    deeper = [(p, reason, 2) for p, reason, _ in dropped[:1]] + dropped[1:]
    assert probe.after_ruling_out(trial, deeper).level == 4


# -- the trials' closure: the one engine's rules ------------------------------------------------

@pytest.mark.parametrize("name", ["10x10/expert/01.bs", "8x8/expert/04.bs", "10x10/hard/03.bs"])
def test_every_trial_the_engine_settles_on_a_board_of_the_solution_keeps_to_the_solution(name, monkeypatch):
    """The trials' closure (the engine's rules from a settled board, or from the board read
    afresh with the ships it holds whole placed again) never breaks a board that agrees with
    the solution, and never sets a cell the solution does not have."""
    puzzle = levels.load(LEVELS / name)
    model_of.cache_clear()                   # no trial remembered from another test
    model = model_of(puzzle)
    truth, _ = model.shared.masks(unique_solution(puzzle))
    settle, seen = probe.settle, {"start": 0, "fresh": 0, "breaks": 0}

    def checked(model, ship, water, valid, start=None):
        outcome = settle(model, ship, water, valid, start)
        seen["fresh" if start is None else "start"] += 1
        if ship & ~truth or water & truth:
            seen["breaks"] += bool(outcome.contradiction)
        else:
            assert not outcome.contradiction
            assert not outcome.ship & ~truth and not outcome.water & truth
        return outcome

    monkeypatch.setattr(probe, "settle", checked)
    assert logic.solve(puzzle, max_level=4).solved
    assert seen["start"] > 50 and seen["breaks"] > 5
    model_of.cache_clear()


def test_a_board_that_breaks_says_why_in_the_words_of_the_rules():
    puzzle = levels.load(LEVELS / "10x10/hard/03.bs")
    model, ship, water, valid = settled(puzzle, initial_grid(puzzle))
    truth, _ = model.shared.masks(unique_solution(puzzle))
    trials = (probe.settle(model, ship | (1 << index & ~truth), water | (1 << index & truth), valid)
              for index in bits(model.all & ~ship & ~water))
    broken = next(outcome for outcome in trials if outcome.contradiction)
    said = str(broken.contradiction)
    assert said and said != "None" and "engine" not in said


@pytest.mark.parametrize("name, max_level", [("10x10/hard/01.bs", 3), ("15x15/hard/02.bs", 3),
                                             ("8x8/expert/01.bs", 4)])
def test_knowing_the_solution_spares_trials_but_changes_no_step(name, max_level):
    puzzle = levels.load(LEVELS / name)
    solution = unique_solution(puzzle)
    blind = logic.solve(puzzle, max_level=max_level)
    told = logic.solve(puzzle, max_level=max_level, solution=solution)
    assert blind.level == max_level
    assert (told.solved, told.grid, told.level, told.rules, told.steps) == \
        (blind.solved, blind.grid, blind.level, blind.rules, blind.steps)
    assert told.probes < blind.probes


def test_the_trials_of_the_solutions_values_are_the_ones_skipped():
    puzzle = levels.load(LEVELS / "10x10/hard/01.bs")
    solution = unique_solution(puzzle)
    model = model_of(puzzle)
    outcome = probe.propagate(model, model.hint_ship, model.hint_water)
    ship, water, valid = outcome.ship, outcome.water, outcome.places
    truth = logic._masks(model, solution)[0]
    found = logic.drain(find_contradiction(model, ship, water, valid, Clock()))
    assert found is not None
    told = logic.drain(find_contradiction(model, ship, water, valid, Clock(), truth=truth))
    assert (told.rule, told.ship, told.water, told.evidence, told.text()) == \
        (found.rule, found.ship, found.water, found.evidence, found.text())
    # Said to be the solution's, the value that breaks is not tried: another step comes first.
    cell = found.evidence
    lied = truth | cell if found.water else truth & ~cell
    other = logic.drain(find_contradiction(model, ship, water, valid, Clock(), truth=lied))
    assert other is None or other.evidence != cell


def one_step_at_a_time(puzzle):
    """The board ``solve(max_level=3)`` stops on, reached the slow way: the simple rules, then
    the first step of a depth-1 sweep, one step per sweep."""
    model = model_of(puzzle)
    ship, water, valid = logic._masks(model, initial_grid(puzzle)) + (None,)
    while True:
        outcome = probe.propagate(model, ship, water, valid, [])
        assert outcome.contradiction is None
        ship, water, valid = outcome.ship, outcome.water, outcome.places
        found = logic.drain(find_contradiction(model, ship, water, valid, Clock()))
        if found is None:
            return model.shared.grid(ship, water)
        ship, water = ship | found.ship, water | found.water


@pytest.mark.parametrize("name", ["10x10/hard/01.bs", "10x10/expert/04.bs", "15x15/hard/03.bs"])
def test_solve_takes_every_step_of_a_sweep_and_stops_where_one_step_at_a_time_does(name):
    puzzle = levels.load(LEVELS / name)
    logic.model_of.cache_clear()
    slow = one_step_at_a_time(puzzle)
    logic.model_of.cache_clear()
    fast = logic.solve(puzzle, max_level=3)
    logic.model_of.cache_clear()
    assert fast.grid == slow
    assert fast.rules.get("contradiction", 0) > 1


def test_a_solver_takes_the_steps_its_sweeps_banked_before_sweeping_again(monkeypatch):
    puzzle = levels.load(LEVELS / "10x10/expert/04.bs")
    solution = unique_solution(puzzle)
    sweeps = boards_searched(monkeypatch, logic, "find_contradiction")
    logic.model_of.cache_clear()
    events = list(logic.events(puzzle))
    logic.model_of.cache_clear()
    result = events[-1]
    assert result.status is Status.SOLVED and result.grid == solution
    steps = result.stats["rules"]
    trials = sum(steps.get(rule, 0) for rule in ("contradiction", "placement-trial", "deep-contradiction"))
    assert len(sweeps) < trials / 2                # most trial steps came from a bank
    for event in events:                           # and each is the solution's
        if isinstance(event, SetCell):
            assert solution[event.row][event.col] == event.value


def test_places_a_solver_ruled_out_at_depth_two_stay_ruled_out_on_the_boards_after(monkeypatch):
    from tests.test_logic import corpus_puzzles

    puzzle = dict(corpus_puzzles("csplib_prob014_rubin.jsonl"))["rubin-16734"]
    deep_dropped, tried_again = 0, []
    rule_out = probe.rule_out_places

    def watched(model, ship, water, valid, *args, **kwargs):
        nonlocal deep_dropped
        tried_again.append(valid & deep_dropped)
        valid, dropped = yield from rule_out(model, ship, water, valid, *args, **kwargs)
        deep_dropped |= sum(1 << p.index for p, _, depth in dropped if depth == 2)
        return valid, dropped
    monkeypatch.setattr(probe, "rule_out_places", watched)
    logic.model_of.cache_clear()
    result = list(logic.events(puzzle, trace=False))[-1]
    logic.model_of.cache_clear()
    assert result.status is Status.SOLVED
    assert deep_dropped and len(tried_again) > 5
    assert not any(tried_again)
