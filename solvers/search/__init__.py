"""Exact search: forward checking on bitboards (``forward``) and textbook backtracking.

Both are complete: they enumerate solutions up to a limit, so they prove a puzzle has none,
one or several. ``forward`` is the fast one (propagation to a fixpoint, then the most
constrained choice); ``backtracking`` walks the cells in reading order, for learners.
"""

from solvers.contract import Option, SolverSpec

FORWARD = SolverSpec(
    name="forward", label="Forward", entry="solvers.search.forward:events",
    summary="propagation to a fixpoint, then a branch on the most constrained choice",
    complete=True, explains=False,
    options=(
        Option("water_first", bool, False, help="try an unknown cell as water before the ships over it"),
        Option("restarts", bool, False, help="restart with a doubled budget and shuffled branch orders"),
    ),
)

BACKTRACKING = SolverSpec(
    name="backtracking", label="Backtrack", entry="solvers.search.backtracking:events",
    summary="cells in reading order, ship then water, with incremental checks",
    complete=True, explains=False,
)
