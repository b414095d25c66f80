"""Large boards end to end (40x40, and 60x60: the size limit): what a player, a learner or an
author meets on them, in the window (headless, real pygame events) and on the command line.

The rest of the suite mostly plays 6x6 to 15x15 boards; each test here failed before the fix
it names (docs/design/giants-end-to-end.md says what was measured and found)."""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pytest  # noqa: E402

from game import levels, rules  # noqa: E402
from game.puzzle import Cell, initial_grid  # noqa: E402
from game.ships import Geometry, geometry_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GIANT_60 = ROOT / "docs" / "bench" / "giants" / "giant-60-1.bs"     # 60x60, 200 ships, 180 hints
GIANT_40 = ROOT / "levels" / "giants" / "09-40x40.bs"                # 40x40, 105 ships, 202 hints


@pytest.fixture(scope="module")
def giant_60():
    return levels.load(GIANT_60)


# ----- the judge: every move of the player and of a watched solver is judged -----------------


def test_the_judge_of_a_giant_looks_only_at_the_placements_showing_each_given_piece(giant_60, monkeypatch):
    """On a 60x60 board about a hundred placements pass through each cell; a given piece is
    shown by a few of them. The judge read them all for every hint on every move (34 ms a
    move on a 60x60 level with 518 hints, twice on a board without problems); it now reads,
    once per level, the few that show the piece, and a second judgement walks no cell's
    placements at all."""
    grid = [list(row) for row in initial_grid(giant_60)]
    rules.judge(giant_60, grid)
    walked = []
    through = Geometry.through
    monkeypatch.setattr(Geometry, "through", lambda self, r, c: walked.append((r, c)) or through(self, r, c))
    grid[30][30] = Cell.WATER if grid[30][30] == Cell.UNKNOWN else grid[30][30]
    first = rules.judge(giant_60, grid)
    assert walked == []
    # The same verdicts as reading every placement through the cell.
    geo = geometry_of(giant_60)
    for (r, c), hint in giant_60.hints.items():
        assert set(geo.showing(r, c, hint)) == {p for p in through(geo, r, c)
                                               if hint.fits(p.length, p.horizontal, (r - p.row) + (c - p.col))}
    assert first.problems == ()


def test_a_board_without_the_fleet_s_ship_cells_is_read_once(giant_60, monkeypatch):
    """A board can be a solution only with exactly the fleet's ship cells; one without them
    is not read a second time as a finished board (that reading was half of every move's
    judgement on a large board without problems). A solution is still judged solved."""
    readings = []
    reading = rules._Reading.__init__

    def counted(self, *args, **kwargs):
        readings.append(kwargs.get("partial", args[-1] if args else None))
        reading(self, *args, **kwargs)

    monkeypatch.setattr(rules._Reading, "__init__", counted)
    judged = rules.judge(giant_60, initial_grid(giant_60))
    assert not judged.solved and readings == [True]
    from solvers.events import Result
    from solvers.search import forward

    (result,) = [event for event in forward.events(giant_60, trace=False) if isinstance(event, Result)]
    solution = result.grid
    readings.clear()
    assert rules.judge(giant_60, solution).solved and readings == [True, False]
