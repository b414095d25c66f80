"""Every solver, by name, in the order the command line and the window show them."""

from __future__ import annotations

from solvers.contract import SolverSpec
from solvers.genetic import GENETIC
from solvers.logic import LOGIC
from solvers.search import BACKTRACKING, FORWARD

SOLVERS: dict[str, SolverSpec] = {spec.name: spec for spec in (BACKTRACKING, FORWARD, GENETIC, LOGIC)}
NAMES = tuple(SOLVERS)


def get(name: str) -> SolverSpec:
    try:
        return SOLVERS[name]
    except KeyError:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(NAMES)}") from None
