"""Pure search: every solver is a generator of events (see ``solvers.events``).

``get(name)`` returns the solver's ``events`` function. Nothing here imports pygame, and
nothing but ``solvers.runner`` starts threads.
"""

from __future__ import annotations

from importlib import import_module
from typing import Callable

NAMES = ("backtracking", "forward", "genetic", "logic")


def get(name: str) -> Callable:
    if name not in NAMES:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(NAMES)}")
    return import_module(f"solvers.{name}").events
