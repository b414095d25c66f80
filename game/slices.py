"""Work done in slices: a generator that yields ``None`` between slices of a few milliseconds
and returns its value. Its caller drives it and may stop between slices: a solver turns the
slices into heartbeats (``solvers.common.beating``), a caller without events asks a
``cancelled`` callable there (:func:`drain`). Nothing here knows of threads or clocks.
"""

from __future__ import annotations

from typing import Any, Callable, Generator, Self, TypeVar

T = TypeVar("T")
Slices = Generator[None, None, T]


class Cancelled(Exception):
    """The caller's ``cancelled()`` said stop between two slices: no value."""


def drain(work: Slices[T], cancelled: Callable[[], bool] | None = None) -> T:
    """The value ``work`` returns, its slices run one after another. With ``cancelled``, asked
    between slices: once it says stop, ``work`` is closed and :class:`Cancelled` raised."""
    try:
        while True:
            next(work)
            if cancelled is not None and cancelled():
                work.close()
                raise Cancelled()
    except StopIteration as stop:
        return stop.value


class Laid:
    """A class whose instances are laid out by ``_lay`` (work in slices): its constructor lays
    one out whole (``drain(self._lay(...))``), :meth:`in_slices` in slices a caller drives."""

    _lay: Callable[..., Slices[None]]       # the subclass's: its arguments are the constructor's

    @classmethod
    def in_slices(cls, *args: Any) -> Slices[Self]:
        """The same instance, laid out in slices."""
        made = cls.__new__(cls)
        yield from made._lay(*args)
        return made
