"""What a solver promises: how it is called, what it can do, and the options it takes.

Every solver is a function ``events(puzzle, *, trace, rng, limit, **options) -> Iterator[Event]``
(see ``solvers.events``) and is declared by a :class:`SolverSpec` in its package. The spec
names the function, says what the solver can do, and lists its options with their types,
defaults and ranges. Callers (the command line, the window, the benchmarks, the tests) find
solvers through ``solvers.engine.registry`` and pass options in; a solver never reads a
settings file, and its randomness comes only from the ``rng`` it is given.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable, Mapping

from game.puzzle import Puzzle
from solvers.events import Stream


class OptionError(ValueError):
    """An option that the solver does not take, or a value of the wrong type or out of range."""


@dataclass(frozen=True)
class Option:
    """One option: a name, its type (int, float or bool), a default and an inclusive range."""

    name: str
    kind: type
    default: Any
    low: float | None = None
    high: float | None = None
    help: str = ""

    def check(self, value: Any, owner: str = "") -> Any:
        """``value`` as this option's type, or :class:`OptionError` saying what is wrong."""
        where = f"{owner} option {self.name}" if owner else f"option {self.name}"
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            raise OptionError(f"{where} must be true or false, not {value!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise OptionError(f"{where} must be a number, not {value!r}")
        if self.kind is int:
            if isinstance(value, float) and not value.is_integer():
                raise OptionError(f"{where} must be a whole number, not {value!r}")
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                raise OptionError(f"{where} must be a finite number, not {value!r}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise OptionError(f"{where} must be between {self.low:g} and {self.high:g}, not {value!r}")
        return value


@dataclass(frozen=True)
class SolverSpec:
    """A solver's declaration.

    ``entry`` is ``"module:function"``, imported on first use so that listing solvers costs
    nothing. Capabilities: ``complete`` (finds every solution and proves none exists: it can
    count and prove uniqueness), ``explains`` (each move carries a sentence a player can
    follow), ``unknown_tallies`` and ``unknown_shapes`` (handles ``null`` tallies and ``xs``
    hints).
    """

    name: str
    label: str
    entry: str
    summary: str
    complete: bool
    explains: bool
    unknown_tallies: bool = True
    unknown_shapes: bool = True
    options: tuple[Option, ...] = field(default_factory=tuple)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.name} has no option {name!r} (its options: {known})")

    def resolve(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every option's value: the defaults, with ``options`` checked and put on top."""
        chosen = {option.name: option.default for option in self.options}
        for name, value in (options or {}).items():
            chosen[name] = self.option(name).check(value, self.name)
        return chosen

    @property
    def function(self) -> Callable[..., Stream]:
        module, _, name = self.entry.partition(":")
        return getattr(import_module(module), name)

    def events(self, puzzle: Puzzle, *, trace: bool = True, seed: int = 0, limit: int = 1,
               options: Mapping[str, Any] | None = None) -> Stream:
        """Start a run: options are checked here, at the call, and the rng is seeded with ``seed``."""
        chosen = self.resolve(options)
        return self.function(puzzle, trace=trace, rng=random.Random(seed), limit=max(1, limit), **chosen)
