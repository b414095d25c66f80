"""The one contract checker: a solver's output lines, checked, become events.

Every line a solver of your own writes is checked here before anything else sees it: it
must be one JSON object of at most ``MAX_LINE_BYTES``, an event line of the trace format
(cells on the board, states that exist, a depth from 0 to the board's cell count, known
kinds and keys) or the result line that ends the run. The built-in solvers' events pass the
same checks once written as trace lines (see tests), so the contract is the one they keep.
"""

from __future__ import annotations

from game.puzzle import Puzzle
from solvers.engine.trace import decode_line, events_of, result_of
from solvers.events import Event, Result


class ContractError(ValueError):
    """A line that breaks the contract; the message names the line and the problem."""


class Contract:
    """Checks one run's lines in order: ``line`` gives the events of an event line, or the
    ``Result`` of the result line (after which no line may come)."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.lines = 0
        self.events = 0
        self.result: Result | None = None

    def line(self, raw: bytes) -> list[Event] | Result:
        self.lines += 1
        try:
            if self.result is not None:
                raise ValueError("a line follows the result line")
            data = decode_line(raw)
            if type(data) is dict and data.get("kind") == "result":
                self.result = result_of(data, self.puzzle)
                return self.result
            events = events_of(data, self.events + 1, self.puzzle)
        except ValueError as error:
            raise ContractError(f"output line {self.lines}: {error}") from None
        self.events += 1
        return events
