"""The deduction engine: named rules a person can follow, simplest first, never a guess.

``deduction`` runs the rules (the solver, the hint button and the grader's fast solve);
``steps`` reads the steps of levels 1-2 off the one engine's log (the rules themselves are
``solvers.propagation``'s); ``probe`` finds contradictions of depth 1 and 2; ``analysis``
holds the puzzle's model and what hints keep from one board to the next.
"""

from solvers.contract import Option, SolverSpec

LOGIC = SolverSpec(
    name="logic", label="Logic", entry="solvers.logic.deduction:events",
    summary="named deductions, each with a sentence; stuck rather than guess",
    complete=False, explains=True,
    options=(Option("max_depth", int, 2, 0, 2, help="deepest contradiction searched (0: rules only)"),),
)
