"""Trial layers in the window: open (G, *Trial*), keep (K, *Keep*), abandon (A, *Abandon*).

The layers themselves are the session's (``game.session``: opening, keeping and abandoning
are steps of the history). This part turns keys and buttons into those steps through
:class:`window.player_board.PlayerBoard`, and watches for a trial that has gone wrong: when
the judge proves that a trial's marks break a rule (at once, after every change), or Check
or Hint finds that they contradict what the clues force (when asked, so that a guess is
never given away unasked), the status line says which trial and *Abandon* is offered.
"""

from __future__ import annotations

from typing import Callable

import pygame

from game import rules
from game.session import MAX_TRIALS, Session
from window.coach import Coach
from window.player_board import PlayerBoard
from window.widgets import Button, handle_all


class TrialControls:
    """The Keep and Abandon buttons (shown while a trial is open), the keys, and the offer to
    abandon a trial that has gone wrong."""

    def __init__(self, board: PlayerBoard, coach: Coach, notify: Callable[[str], None]) -> None:
        self.board = board
        self.coach = coach
        self.notify = notify
        self.open_button = Button("Trial", self.open)
        self.keep_button = Button("Keep", self.keep)
        self.abandon_button = Button("Abandon", self.abandon)
        self.buttons = [self.keep_button, self.abandon_button]
        self._told: tuple[int, str | None] = (board.session.version, None)   # the board, and what was said of it

    @property
    def session(self) -> Session:
        return self.board.session

    # ----- actions -------------------------------------------------------------------------

    def open(self) -> None:
        if self.session.depth >= MAX_TRIALS:
            self.notify(f"Trials nest {MAX_TRIALS} deep at most: keep or abandon one first")
            return
        depth = self.session.depth + 1
        self.board.change(Session.open_trial, f"Trial {depth} opened: your marks now go into it"
                          " (K: keep them, A: abandon them all)")

    def keep(self) -> None:
        depth = self.session.depth
        if not depth:
            self.notify("No trial is open (G opens one)")
            return
        below = f"trial {depth - 1}" if depth > 1 else "your board"
        self.board.change(Session.keep_trial, f"Trial {depth} kept: its marks are now {below}'s")

    def abandon(self) -> None:
        depth = self.session.depth
        if not depth:
            self.notify("No trial is open (G opens one)")
            return
        marks = sum(1 for value in self.session.layer_depths().values() if value == depth)
        self.board.change(Session.abandon_trial, f"Trial {depth} abandoned: {marks} mark{'s' if marks != 1 else ''}"
                          " removed (Ctrl+Z brings them back)")

    # ----- events --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> bool:
        return bool(self.session.depth) and handle_all(self.buttons, event)

    # ----- a trial gone wrong --------------------------------------------------------------

    def wrong_trial(self) -> int | None:
        """The trial the judge proves wrong, or else the one Check or Hint has blamed."""
        broken = self.session.trial_breaking_rules()
        return broken if broken is not None else self.coach.wrong_trial()

    def update(self) -> bool:
        """Say that a trial breaks a rule, once, and again when what it breaks changes (a count
        said before would be out of date); the Abandon button shows the offer. True when the
        look changed."""
        session = self.session
        offered = self.wrong_trial() is not None
        changed = self.abandon_button.active != offered
        self.abandon_button.active = offered
        if self._told[0] == session.version:
            return changed
        broken = session.trial_breaking_rules()
        said = None
        if broken is not None:
            problems = rules.provable_violations(session.puzzle, session.board_below(broken))
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            times = session.depth - broken + 1
            inner = "" if times == 1 else f" ({times} times: the trials above it go first)"
            said = f"Trial {broken} breaks a rule: {problems[0].message}{more} - A: abandon it{inner}"
            if said != self._told[1]:
                self.notify(said)
        self._told = (session.version, said)
        return changed
