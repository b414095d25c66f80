"""The solver ``main.py new-solver PATH`` writes: a plain backtracking search under the contract
(placing the ships one by one, longest first), and a test for it beside it.

It solves the shipped 6x6 and 8x8 levels as written (tests/test_own_solvers.py runs it). The
test it writes runs the solver through ``main.py solve`` on two of them.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from game.files import Outputs, shown

ROOT = Path(__file__).resolve().parents[2]
LEVELS = ("levels/6x6/easy/01.bs", "levels/8x8/hard/01.bs")

SOLVER = '''"""My solver: places the ships one by one, longest first, and backtracks when one does not fit.

Run it:   python main.py solve levels/6x6/easy/01.bs --solver {shell}
Race it:  python main.py race levels/8x8/easy/01.bs --solvers forward,{shell}
The contract (what `puzzle`, `report` and the answer are): docs/guide/your-own-solver.md
"""

LABEL = "My solver"                       # its name in the window
OPTIONS = {{"progress_every": 1000}}        # options with their defaults (true/false or numbers)


def piece(length, across, index):
    """The hint a ship's index-th cell shows: "sub", an end ("left", "right", "top", "bottom") or "middle"."""
    if length == 1:
        return "sub"
    if index == 0:
        return "left" if across else "top"
    if index == length - 1:
        return "right" if across else "bottom"
    return "middle"


def solve(puzzle, report, options):
    rows, cols = puzzle.rows, puzzle.cols
    ships = [length for length, count in puzzle.fleet for _ in range(count)]   # longest first
    ship = [[False] * cols for _ in range(rows)]         # our board: True where a ship lies
    row_left = list(puzzle.row_tallies)                  # ship cells still to place (None: not given)
    col_left = list(puzzle.col_tallies)
    stats = {{"nodes": 0, "backtracks": 0}}

    def cells_of(r, c, length, across):
        return [(r, c + i) if across else (r + i, c) for i in range(length)]

    def fits(cells, length, across):
        for index, (y, x) in enumerate(cells):
            if y >= rows or x >= cols:
                return False
            hint = puzzle.hints.get((y, x))
            if hint == "water" or (hint is not None and hint != "ship" and hint != piece(length, across, index)):
                return False
            for dy in (-1, 0, 1):                        # ships never touch, not even at a corner
                for dx in (-1, 0, 1):
                    if 0 <= y + dy < rows and 0 <= x + dx < cols and ship[y + dy][x + dx]:
                        return False
        for y, x in cells:                               # the tallies must still allow it
            if row_left[y] is not None and row_left[y] < sum(1 for cy, _ in cells if cy == y):
                return False
            if col_left[x] is not None and col_left[x] < sum(1 for _, cx in cells if cx == x):
                return False
        return True

    def put(cells, there, depth):
        for y, x in cells:
            ship[y][x] = there
            step = -1 if there else 1
            if row_left[y] is not None:
                row_left[y] += step
            if col_left[x] is not None:
                col_left[x] += step
            if there:
                where = f"row {{cells[0][0] + 1}}, column {{cells[0][1] + 1}}"
                report.set(y, x, "ship", "guess", depth, f"{{len(cells)}}-cell ship at {{where}}")
            else:
                report.set(y, x, "unknown", "backtrack", depth)

    def finished():
        return (all(t in (0, None) for t in row_left) and all(t in (0, None) for t in col_left)
                and all(hint == "water" or ship[y][x] for (y, x), hint in puzzle.hints.items()))

    def place(k, start):
        """Place ships[k:], the k-th at a position from `start` on (same-length ships in order)."""
        if k == len(ships):
            return finished()
        length = ships[k]
        for position in range(start, rows * cols):
            r, c = divmod(position, cols)
            for across in ((True, False) if length > 1 else (True,)):
                cells = cells_of(r, c, length, across)
                if not fits(cells, length, across):
                    continue
                stats["nodes"] += 1
                if stats["nodes"] % options["progress_every"] == 0:
                    report.progress(**stats)
                put(cells, True, k + 1)
                same = k + 1 < len(ships) and ships[k + 1] == length
                if place(k + 1, position if same else 0):
                    return True
                put(cells, False, k)
                stats["backtracks"] += 1
        return False

    if not place(0, 0):
        return None                                      # no way to place the fleet: no solution
    report.progress(**stats)
    return ["".join("#" if there else "." for there in line) for line in ship]
'''

TEST = '''"""Tests of {named}. Run them with:  python -m pytest {test}"""

import json
import subprocess
import sys
from pathlib import Path

PROGRAM = Path({root!r})      # the Battleship Solitaire folder this test was written for
SOLVER = Path(__file__).with_name({name!r})


def solve(level):
    done = subprocess.run([sys.executable, str(PROGRAM / "main.py"), "solve", str(PROGRAM / level),
                           "--solver", str(SOLVER), "--json"], capture_output=True, text=True, timeout=300)
    return json.loads(done.stdout.splitlines()[-1]) if done.stdout else {{"status": done.stderr}}


def test_it_solves_a_6x6_and_an_8x8_level():
    for level in {levels!r}:
        record = solve(level)
        assert record["status"] == "solved", (level, record)
'''


def write(path: str) -> tuple[Path, Path]:
    """Write the solver at ``path`` (a ``.py`` file) and ``test_<name>.py`` beside it; an
    existing file is never replaced (``game.files.OutputError`` naming it)."""
    if "\0" in path:
        raise ValueError(f"{path!r}: a file name cannot hold a NUL character")
    solver = Path(path)
    if solver.suffix != ".py":
        raise ValueError(f"{shown(path)}: a solver of your own is a .py file; give a name ending in .py")
    test = solver.with_name(f"test_{solver.name}")
    # both or neither, and never over anything there (a file, a folder, a link, a device)
    with Outputs(2, path) as outputs:
        outputs.add(path, binary=False, parents=True, new=True).handle.write(    # as given: "x.py/" is refused
            SOLVER.format(shell=_in_docstring(shlex.quote(path))))
        outputs.add(test, binary=False, parents=True, new=True).handle.write(
            TEST.format(name=solver.name, named=_in_docstring(solver.name), test=_in_docstring(test.name),
                        root=str(ROOT), levels=LEVELS))
    return solver, test


def _in_docstring(text: str) -> str:
    """``text`` as the docstring of a written file holds it, to read back as it is: a backslash,
    a quote and a character that is not printable (a newline, a byte of a name that is not
    UTF-8) escaped as Python writes them, so that no name (``a\\x.py``, ``q\"\"\".py``)
    breaks the file's Python."""
    return "".join(char if char.isprintable() and char not in '\\"'
                   else '\\"' if char == '"' else char.encode("unicode_escape").decode("ascii") for char in text)
