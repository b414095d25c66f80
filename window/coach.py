"""The player's coach: Hint (H), Check (C) and Undo to first mistake, for the play scene.

A mixin of :class:`window.scenes.play.PlayScene` (kept apart to keep that module small): it
reads the scene's session and solver panel and speaks through its status line. The questions
themselves run in :class:`window.hints.HintHelper`'s worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.session import Session
from window.hints import Answer, HintHelper

if TYPE_CHECKING:
    from window.solver_panel import SolverPanel


class CoachActions:
    """Hint ladder (mistakes first), Check, and the jump back to before the first mistake."""

    session: Session
    hints: HintHelper
    solver: SolverPanel
    message: str

    def _editable(self) -> bool:                 # provided by the scene
        raise NotImplementedError

    def _after_change(self) -> None:             # provided by the scene
        raise NotImplementedError

    @property
    def offering_undo(self) -> bool:
        """A mistake answer about the board on screen can take the player back before it."""
        return not self.solver.showing and self.hints.undo_target(self.session.grid) is not None

    def hint(self) -> None:
        """H: a mistake first (where, then undo to it); else where to look, which rule, the move."""
        if not self._editable():
            return
        answer = self.hints.current_for(self.session.grid, "hint")
        if answer is None:
            self.hints.stage = 0
            self.hints.ask(self.session.grid, "hint", self.session.boards())
            self.message = "Looking for a hint..."
            return
        if answer.mistake is not None:
            self._mistake_rung(answer)
            return
        deduction = answer.deduction
        if deduction is None:
            self.message = "No hint: the deduction engine finds no next step from this board"
        elif self.hints.stage == 1:
            self.hints.stage = 2
            self.message = f"Hint: {deduction.text}"
        else:
            self.hints.stage = 0
            if self.session.apply(deduction.moves, "hint"):
                self.message = f"Hint applied (Ctrl+Z to undo): {deduction.text}"
                self._after_change()

    def _mistake_rung(self, answer: Answer) -> None:
        """The next rung of a hint about a mistake: say where, then undo back to before it."""
        if self.hints.stage == 1:
            self.hints.stage = 2
            self.message = f"Mistake (outlined): {answer.mistake.text}"
        elif answer.undo_to is not None:
            self.undo_to_mistake()
        else:
            self.message = f"Mistake (outlined): {answer.mistake.text} - clear those marks to go on"

    def check(self) -> None:
        """C: outline the marks that are provably wrong; never shows anything else."""
        if not self._editable():
            return
        self.hints.stage = 0
        self.hints.ask(self.session.grid, "check", self.session.boards())
        self.message = "Checking your marks..."

    def undo_to_mistake(self) -> None:
        """Back to the latest board without a mistake, in one action (Redo brings steps back)."""
        target = self.hints.undo_target(self.session.grid)
        if target is None or not self._editable():
            return
        undone = self.session.cursor - target
        if self.session.undo_to(target):
            self.hints.answer = None
            self.message = f"Undid {undone} step{'s' if undone > 1 else ''} back to before the first mistake" \
                           " (Redo brings them back)"
            self._after_change()

    def _hint_arrived(self) -> None:
        answer = self.hints.current_for(self.session.grid)
        if answer is None:
            return
        if answer.purpose == "check":
            if answer.mistake is None:
                self.message = "No mistakes found so far"
            else:
                back = " - U: undo to the first mistake" if answer.undo_to is not None else ""
                self.message = f"Check: {answer.mistake.text} (outlined){back}"
            return
        if answer.mistake is not None:
            self.hints.stage = 1
            back = ", then undo to it" if answer.undo_to is not None else ""
            self.message = f"There is a mistake on your board (H again: where{back})"
            return
        if answer.deduction is None:
            self.message = "No hint: the deduction engine finds no next step from this board"
            return
        self.hints.stage = 1
        if answer.deduction.rule == "mistake":
            self.message = "Something is wrong near the highlighted cells (H again: what)"
        else:
            self.message = "Hint: look at the highlighted cells (H again: which rule, then the move)"
