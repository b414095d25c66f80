"""The gate to the player's board: every change is a move the session applies, made here.

The board is the player's only while no solver's copy is on screen: a running solver holds
edits back, a finished run is put away first. After each change the progress is saved and a
solve of the play is recorded (and celebrated): the first, or a new attempt's at a level solved before.
"""

from __future__ import annotations

import time
from typing import Callable

from game.session import KEEP_SOLVER_BOARD, Session
from window.records import clock
from window.solver_panel import SolverPanel
from window.storage import Storage

CELEBRATION_SECONDS = 2.5
# The play is saved each time its clock passes a multiple of this many seconds: a program killed
# or a machine losing power loses at most that much of the time thought without a move.
CLOCK_SAVE_SECONDS = 30
HELD_BACK = "The board is being animated: Stop or Reset the solver to edit your own marks"


class PlayerBoard:
    """The player's session, the guard in front of it, and what follows each change."""

    def __init__(self, session: Session, solver: SolverPanel, storage: Storage, key: str,
                 title: str, notify: Callable[[str], None]) -> None:
        self.session = session
        self.solver = solver
        self.storage = storage
        self.key = key
        self.title = title
        self.notify = notify
        self.was_solved = session.solved
        self.saved_version = session.version
        self.saved_elapsed = session.elapsed
        self.saved_asked = dict(session.asked)
        self.celebrate_until = 0.0
        # The finish's own words (time, record) while the attempt is solved: the status line
        # comes back to them once a later message has had its time (``resting``).
        self.finish = ""
        # Set by the scene: records a first solve and says what it adds (a record, the target).
        self.record: Callable[[float], str] | None = None
        self.target: int | None = None           # seconds: the level's target time, shown beside the clock

    def free(self) -> bool:
        """Whether the player may change the board now (a finished run is put away first)."""
        if self.solver.running:
            self.notify(HELD_BACK)
            return False
        if self.solver.showing:
            # A finished run: the player's marks come back and the action goes ahead on them
            # (the action meant the player's game; "Keep solver's board" is the way to take it).
            self.solver.reset()
            self.notify("The solver's board is put away: your own marks are back")
        return True

    def change(self, action: Callable[[Session], bool], message: str = "") -> bool:
        """Run a session change if the board is free; True if the board changed."""
        if not self.free() or not action(self.session):
            return False
        if message:
            self.notify(message)
        self.changed()
        return True

    def keep_solver_board(self) -> None:
        """The finished run's board becomes the player's, as one undoable step."""
        watch = self.solver.watch
        if watch is None or watch.running:
            return
        grid = watch.grid()
        self.solver.reset()
        if self.session.replace_board(grid, KEEP_SOLVER_BOARD):
            self.session.asked["solver"] += 1
            self.notify("Kept the solver's board (Ctrl+Z to undo)")
            self.changed()

    def changed(self) -> None:
        """After a change: save, and record the play's solve (once an attempt: a board changed
        after its solve and solved again is neither recorded nor celebrated again)."""
        self.save()
        session = self.session
        if not session.solved:              # a new attempt (Session.play_again): its solve is recorded too
            self.was_solved, self.celebrate_until, self.finish = False, 0.0, ""
        elif not session.solved_now:        # changed after the solve: the banner goes with the solution
            self.celebrate_until = 0.0
        if session.solved and not self.was_solved:
            self.was_solved = True
            if session.solver_helped:
                self._finished("Solved with the solver's board: not recorded as your solve." if session.asked["solver"]
                               else "Solved after a solver showed the solution: not recorded as your solve.")
                return
            if self.record is None:
                self.storage.mark_solved(self.key, session.elapsed, self.title)
                extra = ""
            else:
                extra = self.record(session.elapsed)
            # What recording it met (a damaged list set aside, a failed write) follows the
            # finish's own words rather than replacing them.
            told = "; ".join(self.storage.take_messages())
            self._finished(f"Solved! {clock(session.elapsed)} - well done." + (f" {extra}" if extra else "") +
                           (f" ({told})" if told else ""))
            self.celebrate_until = time.monotonic() + CELEBRATION_SECONDS

    def _finished(self, words: str) -> None:
        """The finish's words become the status line's resting message, shown from now on."""
        self.finish = words
        self.notify("")

    def resting(self) -> str:
        """What the status line comes back to: the finish's words while the attempt is solved,
        with a word that the board has changed since when it no longer shows the solution;
        none before the solve."""
        if not self.session.solved or not self.finish:
            return ""
        if self.session.solved_now:
            return self.finish
        return f"{self.finish} The board has changed since (R: play again)."

    def save(self) -> None:
        """Save the play if it changed (its board, or the hints and checks asked) since the last
        save that succeeded (a failed one is made again with the next change, and when the level
        is closed), or if its clock moved on by a second or more (the time thought without a move
        counts too)."""
        session = self.session
        moved_on = session.history and int(session.elapsed) != int(self.saved_elapsed)
        changed = session.version != self.saved_version or session.asked != self.saved_asked
        if (changed or moved_on) and self.storage.save_play(self.key, session):
            self.saved_version, self.saved_elapsed, self.saved_asked = session.version, session.elapsed, \
                dict(session.asked)

    def clock_moved(self, before: float) -> None:
        """The play's clock moved on from ``before``: save the play when it passed a multiple of
        CLOCK_SAVE_SECONDS (moves, and closing the window, save it too)."""
        if int(self.session.elapsed) // CLOCK_SAVE_SECONDS != int(before) // CLOCK_SAVE_SECONDS:
            self.save()

    def celebration_over(self) -> bool:
        """True once, when the solved banner's time is up."""
        if self.celebrate_until and time.monotonic() > self.celebrate_until:
            self.celebrate_until = 0.0
            return True
        return False
