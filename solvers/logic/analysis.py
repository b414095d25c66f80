"""The deduction engine's model of one puzzle, and what hints keep from one board to the next
(the steps proved, each a :class:`Finding`).

Vocabulary (cells, placements and segments are those of ``game.ships``)
- *mask*: a set of cells as a Python int; fast to intersect.
- *places*: the placements still possible, as a mask over their indices.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Callable, Iterator, NamedTuple

from game.bitsets import kept, union
from game.puzzle import Puzzle
from game.ships import geometry_of
from solvers.propagation.model import Model, compile_puzzle

BANK_LIMIT = 200        # steps a bank keeps for later boards
MEMO_LIMIT = 50_000     # entries each block's memo of ``cells_of`` keeps


class Finding(NamedTuple):
    """One step a person can follow (see :mod:`solvers.logic.steps`): the rule, its level, the
    cells it proves and those it reads, its sentence."""

    rule: str
    level: int
    ship: int          # cells proved ship (all unknown before)
    water: int         # cells proved water
    evidence: int      # cells the reasoning reads
    text: Callable[[], str]
    # Its sentence told on another board (``ship``, ``water``) this step is proved on, for a
    # step whose sentence tells of its board (None: it tells of no board, it stands as it is).
    retell: Callable[[int, int], Callable[[], str]] | None = None

    def told_on(self, ship: int, water: int) -> Finding:
        """This step with its sentence told on the board (``ship``, ``water``)."""
        return self if self.retell is None else self._replace(text=self.retell(ship, water))


class Kept:
    """A hint's depth-2 search kept to go on with (:meth:`DeductionModel.keep`). One hint at a time
    runs it (the window may start a new hint before the old one ends): :meth:`take` and
    :meth:`give_back`."""

    def __init__(self, ship: int, water: int, search: Iterator[None], steps: list[Finding], dropped: list) -> None:
        self.ship, self.water, self.search, self.steps, self.dropped = ship, water, search, steps, dropped
        self._free = [True]

    def take(self) -> bool:
        """True if this caller may run the search now. ``list.pop`` is one atomic step under
        the interpreter lock, so two threads cannot both take it (and the engine needs no lock
        of its own: threads belong to the runner and the window)."""
        try:
            return self._free.pop()
        except IndexError:
            return False

    def give_back(self) -> None:
        self._free.append(True)


class Bank:
    """Steps proved on a board, kept for the boards after it.

    A step proved on a board stays true on every board that knows at least as much: the same
    reasoning still applies. Depth-2 steps cost a long search, and one search finds several:
    the boards that follow use them. The hints keep one bank per puzzle (``DeductionModel.bank``), a
    solver run its own.
    """

    def __init__(self, board: int) -> None:
        self.board = board                                 # the mask of every cell
        self.steps: list[tuple[int, int, Finding]] = []   # (ship, water, finding): proved on that board

    def add(self, ship: int, water: int, findings: list[Finding]) -> None:
        """Keep ``findings``, proved on the board (``ship``, ``water``); the last ``BANK_LIMIT``."""
        self.steps.extend((ship, water, found) for found in findings)
        del self.steps[:-BANK_LIMIT]

    def find(self, ship: int, water: int) -> Finding | None:
        """A kept step that applies to the board (``ship``, ``water``): proved on a board it
        extends, about cells still unknown, its sentence told on this board (None if there is
        none)."""
        unknown = self.board & ~ship & ~water
        for base_ship, base_water, found in self.steps:
            if (not base_ship & ~ship and not base_water & ~water
                    and not (found.ship | found.water) & ~unknown):
                return found.told_on(ship, water)
        return None

    def clear(self) -> None:
        self.steps.clear()


class DeductionModel:
    """The deduction engine's view of one puzzle (one per puzzle, cached by :func:`model_of`):
    what never changes while it is solved (the shared placement model of ``game.ships`` with
    the placements the hints allow), and what hints keep from one board
    to the next (steps proved, the depth-2 search kept, assumptions that held)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        shared = self.shared = geometry_of(puzzle)
        self.all = shared.board
        self.lengths = shared.lengths
        engine = self.engine
        self.hint_ship, self.hint_water = engine.hint_ship, engine.hint_water
        self.alive = engine.start.alive             # the places the hints allow, as a mask over their indices
        self.cells_memo: tuple[dict, ...] = tuple({} for _ in range(0, len(shared.placements), 32))   # ``cells_of``
        self.bank = Bank(self.all)      # the hints' steps proved on earlier boards, for later ones
        self.kept: Kept | None = None                            # see ``keep``
        self.ahead_of: tuple[int, int] | None = None    # the settled board a hint last searched ahead from
        self.truth: int | None = None   # the solution's ship cells, once a hint has asked for them
        self.settled: dict = {}  # simple consequences of assumptions that held (``probe.settled_before``)
        self.held: dict = {}     # depth-2 assumptions that held, the same way (``probe.find_deep_contradiction``)
        self.broken: dict = {}   # places whose depth-1 trial broke, by the board (``probe.broke_before``)
        self.broken_deep: dict = {}    # places whose depth-2 trial broke, the same way (``probe._place_breaks_deeply``)

    @cached_property
    def engine(self) -> Model:
        """The puzzle compiled for the one engine (:mod:`solvers.propagation`), which settles the trials."""
        return compile_puzzle(self.puzzle)

    def cells_of(self, places: int) -> int:
        """The cells the places of a mask cover, read 32 places at a time, each block
        remembered: the places still possible change little from one board to the next."""
        found, memos, p_cells = 0, self.cells_memo, self.shared.p_cells
        for block, memo in enumerate(memos):
            chunk = (places >> (block << 5)) & 0xFFFF_FFFF
            if not chunk:
                continue
            cells = memo.get(chunk)
            if cells is None:
                cells = kept(memo, chunk, union(p_cells, chunk << (block << 5)), MEMO_LIMIT)
            found |= cells
        return found

    def for_a_run(self) -> DeductionModel:
        """A model for one solver run: what never changes is shared (the compiled puzzle, the
        placements, the cells of places), nothing is remembered from other runs or hints, so
        a run takes the same steps and trials whatever ran before it on the puzzle."""
        run = object.__new__(DeductionModel)
        run.__dict__.update(self.__dict__)
        run.bank, run.kept, run.ahead_of, run.truth = Bank(self.all), None, None, None
        run.settled, run.held, run.broken, run.broken_deep = {}, {}, {}, {}
        return run

    def keep(self, ship: int, water: int, search: Iterator[None], steps: list[Finding], dropped: list) -> Kept:
        """Keep a hint's depth-2 search of the board (``ship``, ``water``) to go on with later:
        the steps it appends to ``steps`` are proved on that board (with the ``dropped``
        places ruled out), so they hold on every later board that extends it."""
        self.kept = Kept(ship, water, search, steps, dropped)
        return self.kept


@lru_cache(maxsize=16)
def model_of(puzzle: Puzzle) -> DeductionModel:
    return DeductionModel(puzzle)
