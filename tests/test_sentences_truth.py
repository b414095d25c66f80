"""Every sentence the deduction engine shows a player tells the truth about its board.

The sentences of the ``logic`` solver's steps (each SetCell's detail) and of the hints played
to the end are read back by an independent parser (``tests/sentence_oracle.py``: one per
template, with its own plain reading of the board) and each claim is checked on the board the
sentence was said on; every step is also checked against the level's one solution. A sentence
no template reads fails. The default run takes a sample of the pack; ``-m slow`` takes every
pack level, the corpus beside the checkout, and more levels played by hints.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator

import pytest

from game import rules
from game.levels import LevelError, iter_corpus, load
from game.puzzle import Cell, Hint, Move, Puzzle, apply_move, grid_from_strings, initial_grid
from solvers.engine.verdict import unique_solution
from solvers.events import SetCell
from solvers.logic import deduction as logic
from tests import sentence_oracle as oracle
from tests.conftest import CORPUS, ROOT

LEVELS = sorted((ROOT / "levels").rglob("*.bs"))
SAMPLE = [path for path in LEVELS if path.parent.name in ("easy", "expert", "tutorial")
          and path.stem in ("01", "04", "first")] + [ROOT / "levels/variants/03-8x12.bs"]
CORPUS_CELLS = 100      # the corpus's boards up to 10x10 (a 12x12 one takes the solver up to 80 s)
HINT_SAMPLE = [ROOT / "levels" / name for name in (
    "6x6/hard/01.bs", "8x8/expert/02.bs", "10x10/expert/08.bs", "variants/04-6x10.bs")]

Step = tuple[tuple, set, set, str]      # the board before, the cells set ship, water, the sentence


def solver_steps(puzzle: Puzzle) -> Iterator[Step]:
    """The ``logic`` solver's steps: its SetCell events, one step per run of the same sentence."""
    grid = [list(row) for row in initial_grid(puzzle)]
    before, ship, water, said = None, set(), set(), None
    for event in logic.events(puzzle):
        if not isinstance(event, SetCell):
            continue
        if event.detail != said:
            if said is not None:
                yield before, ship, water, said
                for r, c in ship:
                    grid[r][c] = Cell.SHIP
                for r, c in water:
                    grid[r][c] = Cell.WATER
            before, ship, water, said = tuple(map(tuple, grid)), set(), set(), event.detail
        (ship if event.value == Cell.SHIP else water).add((event.row, event.col))
    if said is not None:
        yield before, ship, water, said


def hint_steps(puzzle: Puzzle, solution) -> Iterator[Step]:
    """The hints from the first board to the last, each applied (as the hint button gives them)."""
    grid = initial_grid(puzzle)
    for _ in range(puzzle.rows * puzzle.cols):
        if rules.judge(puzzle, grid).solved:
            return
        hint = logic.next_deduction(puzzle, grid, solution=lambda: solution)
        if hint is None:
            hint = logic.reveal(puzzle, grid, solution)
        assert hint is not None and hint.rule != "mistake", hint
        yield (grid, {(m.row, m.col) for m in hint.moves if m.value == Cell.SHIP},
               {(m.row, m.col) for m in hint.moves if m.value == Cell.WATER}, hint.text)
        for move in hint.moves:
            grid = apply_move(grid, move)


def mistake_steps(puzzle: Puzzle, solution, rng: random.Random, boards: int) -> Iterator[Step]:
    """Hints on boards with a wrong mark: half the unknown cells marked as the solution has
    them, one more cell the other way (a step that sets nothing, its sentence what is wrong)."""
    for _ in range(boards):
        grid = initial_grid(puzzle)
        cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if grid[r][c] == Cell.UNKNOWN]
        rng.shuffle(cells)
        for r, c in cells[:len(cells) // 2]:
            grid = apply_move(grid, Move(r, c, solution[r][c]))
        r, c = cells[-1]
        grid = apply_move(grid, Move(r, c, Cell.WATER if solution[r][c] == Cell.SHIP else Cell.SHIP))
        hint = logic.next_deduction(puzzle, grid, seconds=2.0)
        if hint is not None and hint.rule == "mistake":
            yield grid, set(), set(), hint.text


def solution_of(puzzle: Puzzle):
    if puzzle.solution is not None:
        return grid_from_strings(puzzle.solution)
    return unique_solution(puzzle, timeout=60)


def audit(puzzle: Puzzle, steps: Iterator[Step], solution, counts: Counter, label: str) -> list[str]:
    """The problems of every step: its sentence's claims (by template, counted in ``counts``)
    and its cells against the solution."""
    problems = []
    for board, ship, water, text in steps:
        name, found = oracle.check(puzzle, board, ship, water, text)
        counts[name] += 1
        wrong = ([cell for cell in ship if solution[cell[0]][cell[1]] != Cell.SHIP]
                 + [cell for cell in water if solution[cell[0]][cell[1]] != Cell.WATER])
        if wrong:
            found.append(f"UNSOUND: the step sets {sorted(wrong)} against the solution")
        problems += [f"{label}: {text!r}: {problem}" for problem in found]
    return problems


def run_solver(paths, counts: Counter) -> list[str]:
    problems = []
    for path in paths:
        puzzle = load(path)
        problems += audit(puzzle, solver_steps(puzzle), solution_of(puzzle), counts, str(path.relative_to(ROOT)))
    return problems


def run_hints(paths, counts: Counter) -> list[str]:
    problems = []
    for path in paths:
        puzzle = load(path)
        solution = solution_of(puzzle)
        problems += audit(puzzle, hint_steps(puzzle, solution), solution, counts, f"hints {path.relative_to(ROOT)}")
    return problems


def report(counts: Counter, problems: list[str]) -> None:
    print("sentences checked per template:", dict(sorted(counts.items())))
    assert not problems, f"{len(problems)} problems, the first:\n" + "\n".join(problems[:20])


def test_the_solver_s_sentences_on_a_sample_of_the_pack_tell_the_truth():
    counts: Counter = Counter()
    report(counts, run_solver(SAMPLE, counts))
    assert counts["unread"] == 0 and sum(counts.values()) > 500


def test_hints_played_to_the_end_tell_the_truth():
    counts: Counter = Counter()
    report(counts, run_hints(HINT_SAMPLE, counts))
    assert sum(counts.values()) > 30


@pytest.mark.slow
def test_every_pack_level_s_solver_sentences_tell_the_truth():
    counts: Counter = Counter()
    report(counts, run_solver(LEVELS, counts))


@pytest.mark.slow
def test_hints_on_every_pack_level_tell_the_truth():
    counts: Counter = Counter()
    report(counts, run_hints(LEVELS, counts))


@pytest.mark.slow
def test_the_corpus_solver_sentences_tell_the_truth():
    if not CORPUS.is_dir():
        pytest.skip("the shared puzzle corpus is not beside this checkout")
    counts: Counter = Counter()
    problems = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for ident, puzzle in iter_corpus(path):
            if isinstance(puzzle, LevelError) or puzzle.rows * puzzle.cols > CORPUS_CELLS:
                continue                  # a bad line, or a board the solver takes minutes on
            solution = solution_of(puzzle)
            if solution is None:
                continue                  # no one solution: nothing to deduce it from
            problems += audit(puzzle, solver_steps(puzzle), solution, counts, f"{path.name} {ident}")
    report(counts, problems)


def told_on(level: str) -> tuple[list[str], list[str]]:
    """The ``logic`` solver's sentences on a pack level, and the problems found with them."""
    puzzle = load(ROOT / "levels" / level)
    steps = list(solver_steps(puzzle))
    return [text for _, _, _, text in steps], audit(puzzle, iter(steps), solution_of(puzzle), Counter(), level)


def test_a_banked_trial_is_told_on_the_board_it_is_shown_on():
    # The solver banks the depth-1 steps a sweep finds past its first and takes them on later
    # boards: "If row 8, column 1 were water: row 8 needs 7 more ship cells and has exactly 7
    # unknown cells left ..." told the board of the sweep; where it was shown, row 8 had 6.
    said, problems = told_on("10x10/expert/02.bs")
    assert any(text.startswith("If ") and "; then " in text for text in said)
    assert not problems


def test_a_ship_the_board_shows_whole_is_not_missing():
    # "The 2 missing cruisers have exactly 2 places left: row 3, column 4 is ship" was said
    # with one cruiser whole on the board: one was missing, with one place left.
    said, problems = told_on("10x10/expert/01.bs")
    assert any(text.startswith("The last cruiser can only lie in ") for text in said)
    assert not problems


def test_many_places_are_counted_in_words():
    # "The battleship can only lie 4 places: ..." lacked its preposition.
    said, problems = told_on("10x10/hard/04.bs")
    assert "The battleship can only lie in one of 4 places: row 6, column 4 is ship and row 7, columns 3-5 are water" \
        in said
    assert not problems


def test_a_segment_of_several_lengths_can_only_be_one_of_their_ships():
    # "The ship through column 7, rows 5-6 can only lie the battleship in ..." is not English.
    said, problems = told_on("10x10/hard/10.bs")
    assert ("The ship through column 7, rows 5-6 can only be the battleship in column 7, rows 5-8 or the cruiser in "
            "column 7, rows 5-7: row 7, column 7 is ship") in said
    assert not problems


def test_what_every_way_makes_is_said_without_a_verb():
    # "... (runs that are ships still missing, water between them) makes row 7, column 3 is ship"
    said, problems = told_on("10x10/expert/05.bs")
    assert ("Every way to fit 3 ship cells into row 7 (runs that are ships still missing, water between them) makes "
            "row 7, column 3 ship") in said
    assert not problems


def test_the_oracle_catches_a_false_sentence():
    # The checker itself: a sentence about the wrong row, a wrong count, a wrong plural, cells
    # the step does not set, and words no template reads are all caught.
    puzzle = load(ROOT / "levels/6x6/easy/01.bs")
    grid = initial_grid(puzzle)
    zero = next(r for r, tally in enumerate(puzzle.row_tallies) if tally == 0)
    other = next(r for r, tally in enumerate(puzzle.row_tallies) if tally)
    water = {(zero, c) for c in range(puzzle.cols) if grid[zero][c] == Cell.UNKNOWN}
    assert oracle.check(puzzle, grid, set(), water, f"Row {zero + 1} has a tally of 0: all its cells are water") \
        == ("tally of 0", [])
    assert oracle.check(puzzle, grid, set(), water, f"Row {other + 1} has a tally of 0: all its cells are water")[1]
    assert oracle.check(puzzle, grid, set(), water - {min(water)},
                        f"Row {zero + 1} has a tally of 0: all its cells are water")[1]
    assert oracle.check(puzzle, grid, {(0, 0)}, set(), "Row 1 needs 1 more ship cells and has exactly 1 unknown cell "
                        "left")[1]
    assert oracle.check(puzzle, grid, set(), water, "Row 1 is all water, trust me") == (
        "unread", ["no template reads 'Row 1 is all water, trust me'"])


def test_the_sentences_the_pack_seldom_shows_tell_the_truth():
    # A given ship piece of no known shape (the pack has none) and a revealed cell.
    #   .###.
    #   .....
    #   #.#..
    #   .....
    #   ....#
    puzzle = Puzzle(5, 5, (3, 0, 2, 0, 1), (1, 1, 2, 1, 1), {3: 1, 1: 3},
                    {(0, 2): Hint.SHIP, (0, 0): Hint.WATER, (4, 4): Hint.SUB})
    solution = solution_of(puzzle)
    counts: Counter = Counter()
    problems = audit(puzzle, solver_steps(puzzle), solution, counts, "5x5")
    grid = initial_grid(puzzle)
    revealed = logic.reveal(puzzle, grid, solution)
    problems += audit(puzzle, iter([(grid, {(m.row, m.col) for m in revealed.moves if m.value == Cell.SHIP},
                                     {(m.row, m.col) for m in revealed.moves if m.value == Cell.WATER},
                                     revealed.text)]), solution, counts, "reveal")
    report(counts, problems)
    assert counts["ship piece"] and counts["reveal"]


def test_what_a_hint_says_of_a_wrong_board_is_so():
    counts: Counter = Counter()
    rng = random.Random(7)
    problems = []
    for path in SAMPLE:
        puzzle = load(path)
        solution = solution_of(puzzle)
        problems += audit(puzzle, mistake_steps(puzzle, solution, rng, 6), solution, counts, path.name)
    report(counts, problems)
    assert counts["mistake: tally"] and counts["mistake: broken"] and counts["unread"] == 0


def test_a_bent_ship_is_named_where_it_turns():
    # An L of three ship cells at r1c1, r2c1, r2c2 was said to bend at row 1, column 1.
    puzzle = load(ROOT / "levels/6x6/easy/01.bs")
    grid = [[Cell.UNKNOWN] * puzzle.cols for _ in range(puzzle.rows)]
    for r, c in ((0, 0), (1, 0), (1, 1)):
        grid[r][c] = Cell.SHIP
    found = [v.message for v in rules.provable_violations(puzzle, tuple(map(tuple, grid))) if v.kind == "bent"]
    assert found == ["Ship bends at row 2, column 1"]


def test_a_mistake_hint_says_its_counts_in_the_right_number():
    # A hint on a board with a wrong mark said "Column 7 has 1 ship cells, its tally is 0".
    puzzle = load(ROOT / "levels/6x6/easy/01.bs")
    empty = next(c for c, tally in enumerate(puzzle.col_tallies) if tally == 0)
    row = next(r for r in range(puzzle.rows) if (r, empty) not in puzzle.hints)
    grid = apply_move(initial_grid(puzzle), Move(row, empty, Cell.SHIP))
    hint = logic.next_deduction(puzzle, grid)
    assert hint.rule == "mistake"
    assert hint.text == f"Column {empty + 1} has 1 ship cell, its tally is 0"
    short = [[Cell.WATER] * puzzle.cols for _ in range(puzzle.rows)]
    reach = next(r for r, tally in enumerate(puzzle.row_tallies) if tally and tally > 1)
    short[reach][0] = Cell.UNKNOWN
    texts = [v.message for v in rules.provable_violations(puzzle, tuple(map(tuple, short)))]
    assert f"Row {reach + 1} can reach at most 1 ship cell, its tally is {puzzle.row_tallies[reach]}" in texts


def test_a_segment_s_places_leave_out_ships_the_board_shows_whole():
    # A corpus board (rubin-13940): with the battleship whole in row 6, the solver said "The
    # ship through row 2, column 10 can only be the battleship in row 2, columns 7-10 or the
    # cruiser in row 2, columns 8-10" (the engine had not placed the whole battleship yet).
    puzzle = Puzzle(10, 10, (0, 6, 1, 4, 0, 4, 0, 1, 0, 4), (2, 1, 1, 2, 3, 2, 3, 3, 2, 1),
                    {4: 1, 3: 2, 2: 3, 1: 4}, {(3, 2): Hint.SUB, (3, 6): Hint.SUB, (5, 4): Hint.WATER})
    steps = list(solver_steps(puzzle))
    said = [text for _, _, _, text in steps]
    assert "The ship through row 2, column 10 can only lie in row 2, columns 8-10: row 2, column 9 is ship" in said
    assert not audit(puzzle, iter(steps), solution_of(puzzle), Counter(), "rubin-13940")
