"""The player's coach: Hint (H), Check (C) and Undo to first mistake.

Inside trials a mistake is blamed on the trial that made it (the window then offers to
abandon that trial), and a hint is about the board outside every trial.

It asks :class:`window.hints.HintHelper` (a worker) about the player's board, speaks through
the status line, and changes the board only through :class:`window.player_board.PlayerBoard`.
"""

from __future__ import annotations

from typing import Callable

from game.puzzle import Coord, Puzzle
from window.hints import Answer, HintHelper, Mistake
from window.player_board import PlayerBoard

# Inside a trial a hint speaks about the committed board, the board outside every trial.
OUTSIDE = "Outside your trial: "


class Coach:
    """Hint ladder (mistakes first), Check, and the jump back to before the first mistake."""

    def __init__(self, puzzle: Puzzle, board: PlayerBoard, notify: Callable[[str], None]) -> None:
        self.board = board
        self.notify = notify
        self.hints = HintHelper(puzzle)
        self.undo_when_found = False      # U asked a check: its answer undoes back to the mistake

    @property
    def asked(self) -> dict[str, int]:
        """Hints and checks asked in this play, for the records (kept with the play)."""
        return self.board.session.asked

    @property
    def thinking(self) -> bool:
        return self.hints.thinking

    @property
    def offering_undo(self) -> bool:
        """A mistake answer about the board on screen can take the player back before it."""
        return not self.board.solver.showing and self.hints.undo_target(self.board.session.grid) is not None

    def look(self) -> tuple:
        """What the board shows of the coach, cheap to compare: the answer and its rung."""
        return self.hints.answer, self.hints.stage

    def wrong_cells(self) -> frozenset[Coord]:
        return self.hints.wrong_cells(self.board.session.grid)

    def highlight(self) -> frozenset[Coord]:
        return self.hints.cells(self.board.session.grid)

    def hint(self) -> None:
        """H: a mistake first (where, then undo to it); else where to look, which rule, the move."""
        if not self.board.free():
            return
        session = self.board.session
        if session.report.solved:              # nothing is left to find, and nothing was asked
            self.notify("The board is solved: no hint is needed" + (" (R: play it again)" if session.solved else ""))
            return
        answer = self.hints.current_for(session.grid, "hint")
        if answer is None:
            if not self.hints.thinking:        # a new question: one hint, however many rungs it shows
                self.asked["hint"] += 1
            self._ask("hint")
            self.notify("Looking for a hint...")
            return
        if answer.mistake is not None:
            self._mistake_rung(answer, answer.mistake)
            return
        deduction = answer.deduction
        depth = session.depth
        if deduction is None:
            self.notify("No hint: the deduction engine finds no next step from this board")
        elif self.hints.stage == 1:
            self.hints.stage = 2
            self.notify(f"{OUTSIDE if depth else 'Hint: '}{deduction.text}")
        else:
            self.hints.stage = 0
            where = f" in trial {depth} (it holds outside it too; Keep takes it down)" if depth else ""
            if not self.board.change(lambda s: s.apply(deduction.moves, "hint"),
                                     f"Hint applied{where} (Ctrl+Z to undo): {deduction.text}"):
                self.notify(f"{OUTSIDE if depth else 'Hint: '}{deduction.text} (already on your board)")

    def _mistake_rung(self, answer: Answer, mistake: Mistake) -> None:
        """The next rung of a hint about ``answer``'s ``mistake``: say where, then undo back to before it
        (or, when a trial made it, offer to abandon the trial: hints cannot help inside it)."""
        if answer.trial is not None:
            self.hints.stage = 2
            self.notify(f"Hints cannot help inside a wrong trial: trial {answer.trial} - {mistake.text}"
                        " (outlined; A: abandon)")
            return
        if self.hints.stage == 1:
            self.hints.stage = 2
            self.notify(f"Mistake (outlined): {mistake.text}")
        elif answer.undo_to is not None:
            self.undo_to_mistake()
        else:
            self.notify(f"Mistake (outlined): {mistake.text} - clear those marks to go on")

    def check(self) -> None:
        """C: outline the marks that are provably wrong; never shows anything else."""
        if not self.board.free():
            return
        self.asked["check"] += 1
        self._ask("check")
        self.notify("Checking your marks...")

    def _ask(self, purpose: str) -> None:
        session = self.board.session
        self.hints.stage = 0
        self.undo_when_found = False
        # The board's problems are already judged: the question reads the session's verdict.
        self.hints.ask(session.grid, purpose, session.boards(), session.report.judgement.problems,
                       [session.board_below(depth) for depth in range(session.depth)])

    def wrong_trial(self) -> int | None:
        """The trial the latest answer about the board on screen blames for a mistake."""
        answer = self.hints.current_for(self.board.session.grid)
        return None if answer is None or answer.mistake is None else answer.trial

    def undo_to_mistake(self) -> None:
        """Back to the latest board without a mistake, in one action (Redo brings steps back);
        with no answer about this board yet, a check is asked and its answer does it."""
        session = self.board.session
        target = self.hints.undo_target(session.grid)
        if target is None:
            answer = self.hints.current_for(session.grid)
            if answer is None:
                # Nothing known about this board yet: a check finds the mistake, then undoes to it.
                self.check()
                self.undo_when_found = self.thinking
            elif answer.mistake is None:
                self.notify("No mistakes found so far: nothing to undo")
            elif answer.trial is None:
                self.notify(f"Mistake (outlined): {answer.mistake.text} - no earlier board is without it")
            else:
                self.notify(f"Trial {answer.trial} is wrong - {answer.mistake.text} (A: abandon)")
            return
        undone = session.cursor - target
        if self.board.change(lambda s: s.undo_to(target)):
            self.hints.answer = None
            self.notify(f"Undid {undone} step{'s' if undone > 1 else ''} back to before the first mistake"
                        " (Redo brings them back)")

    def cancel(self) -> None:
        self.hints.cancel()

    def poll(self) -> bool:
        """True when an answer has just arrived (and been announced)."""
        if not self.hints.poll():
            return False
        self._arrived()
        return True

    def _arrived(self) -> None:
        answer = self.hints.current_for(self.board.session.grid)
        undo, self.undo_when_found = self.undo_when_found, False
        if answer is None:
            return
        if undo and answer.trial is None and answer.undo_to is not None:
            self.undo_to_mistake()
            return
        if answer.mistake is not None and answer.trial is not None:
            self.hints.stage = 2
            what = "Check" if answer.purpose == "check" else "Hints cannot help inside a wrong trial"
            self.notify(f"{what}: trial {answer.trial} is wrong - {answer.mistake.text} (outlined; A: abandon)")
            return
        if answer.purpose == "check":
            if answer.mistake is None:
                self.notify("No mistakes found so far")
            else:
                back = " - U: undo to the first mistake" if answer.undo_to is not None else ""
                self.notify(f"Check: {answer.mistake.text} (outlined){back}")
            return
        if answer.mistake is not None:
            self.hints.stage = 1
            back = ", then undo to it" if answer.undo_to is not None else ""
            self.notify(f"There is a mistake on your board (H again: where{back})")
            return
        if answer.deduction is None:
            self.notify("No hint: the deduction engine finds no next step from this board")
            return
        self.hints.stage = 1
        if self.board.session.depth:
            self.notify(f"{OUTSIDE}look at the highlighted cells (H again: which rule, then the move)")
        elif answer.deduction.rule == "mistake":
            self.notify("Something is wrong near the highlighted cells (H again: what)")
        else:
            self.notify("Hint: look at the highlighted cells (H again: which rule, then the move)")
