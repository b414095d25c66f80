"""The deduction engine: named rules a person can follow, simplest first, never a guess.

``deduction`` runs the rules (the solver, the hint button and the grader's fast solve);
``analysis`` reads a board once for every rule; ``rules`` and ``lines`` are the catalogue;
``probe`` finds contradictions of depth 1 and 2.
"""

from solvers.contract import Option, SolverSpec

LOGIC = SolverSpec(
    name="logic", label="Logic", entry="solvers.logic.deduction:events",
    summary="named deductions, each with a sentence; stuck rather than guess",
    complete=False, explains=True,
    options=(Option("max_depth", int, 2, 0, 2, help="deepest contradiction searched (0: rules only)"),),
)
