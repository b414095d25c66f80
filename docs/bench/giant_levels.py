"""Giant levels at the limits, for measuring the exact search (a benchmark aid; the game never imports it).

Usage, from the repository's top folder:

    python docs/bench/giant_levels.py OUT_FOLDER [--seeds 1 2 3] [--size 60] [--given 0.05] [--ships 200]

Writes ``OUT_FOLDER/giant-<size>-<seed>.bs`` for each seed (with other ``--ships`` or
``--given``, ``giant-<size>-<ships>-<percent given>-<seed>.bs``): a board of ``--size`` cells
a side with ``FLEET`` (200 ships of up to 10 cells, ``game.limits``' largest fleet; ``--ships``
scales its counts to about that many ships) laid at random by the generator's placer, every
row and column tally, and ``--given`` of the cells as hints (the shape a solved board shows
there, or water), picked at random. Nothing makes the level unique: such levels have many
solutions, which is what makes them a search-order test.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from game import levels  # noqa: E402
from game.puzzle import Cell, Puzzle  # noqa: E402
from game.ships import hint_at  # noqa: E402
from solvers.authoring.generator import random_layout  # noqa: E402

# 200 ships, 763 cells (21% of a 60x60 board): a pyramid's shape, stretched to the ship limit.
FLEET = ((10, 4), (9, 7), (8, 10), (7, 13), (6, 16), (5, 20), (4, 24), (3, 28), (2, 35), (1, 43))


def scaled(ships: int) -> tuple[tuple[int, int], ...]:
    """``FLEET``'s counts scaled to about ``ships`` ships (every length keeps one at least)."""
    total = sum(count for _, count in FLEET)
    return tuple((length, max(1, round(count * ships / total))) for length, count in FLEET)


def giant(size: int, seed: int, given: float, ships: int = 200) -> Puzzle:
    rng = random.Random(seed)
    fleet = FLEET if ships == 200 else scaled(ships)
    layout = random_layout(size, size, fleet, rng)
    solution = tuple(tuple(Cell.SHIP if (r, c) in layout else Cell.WATER for c in range(size)) for r in range(size))
    cells = [(r, c) for r in range(size) for c in range(size)]
    hints = {cell: hint_at(solution, cell) for cell in sorted(rng.sample(cells, round(given * len(cells))))}
    return Puzzle(size, size, tuple(sum(v == Cell.SHIP for v in row) for row in solution),
                  tuple(sum(row[c] == Cell.SHIP for row in solution) for c in range(size)),
                  fleet, hints, name=f"Giant {size}x{size} #{seed}",
                  solution=tuple("".join("#" if v == Cell.SHIP else "." for v in row) for row in solution))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--size", type=int, default=60)
    parser.add_argument("--given", type=float, default=0.05)
    parser.add_argument("--ships", type=int, default=200)
    args = parser.parse_args(argv)
    for seed in args.seeds:
        path = Path(args.out) / (f"giant-{args.size}-{seed}.bs" if args.ships == 200 and args.given == 0.05
                                 else f"giant-{args.size}-{args.ships}-{round(100 * args.given)}-{seed}.bs")
        levels.save(giant(args.size, seed, args.given, args.ships), path)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
