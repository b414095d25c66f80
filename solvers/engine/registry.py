"""Every solver, by name, in the order the command line and the window show them.

The built-in solvers first; then those installed packages declare (entry-point group
``battleships.solvers``); a name that is a Python file (``mine.py``) or a command
(``cmd:./mine --fast``) is a solver of your own, run in a process of its own (``solvers.own``).
"""

from __future__ import annotations

from game.levels import short_repr
from solvers.contract import SolverSpec
from solvers.genetic import GENETIC
from solvers.logic import LOGIC
from solvers.own import spec as own
from solvers.search import BACKTRACKING, FORWARD

SOLVERS: dict[str, SolverSpec] = {spec.name: spec for spec in (BACKTRACKING, FORWARD, GENETIC, LOGIC)}
NAMES = tuple(SOLVERS)


def get(name: str) -> SolverSpec:
    """The solver called ``name``: built in, installed, a ``.py`` file or a ``cmd:`` program
    (``ValueError`` with one line naming the problem)."""
    if name in SOLVERS:
        return SOLVERS[name]
    installed = own.installed()
    if name in installed:
        return installed[name]
    if own.is_own(name):
        return own.from_name(name)
    known = ", ".join([*NAMES, *installed])
    raise ValueError(f"unknown solver {short_repr(name, 60)}; choose from {known}, a Python file (mine.py) "
                     f"or a program ({own.COMMAND_PREFIX}./mine)")


def every() -> dict[str, SolverSpec]:
    """The built-in and the installed solvers, by name."""
    return {**SOLVERS, **{name: spec for name, spec in own.installed().items() if name not in SOLVERS}}
