"""The playing scene: puts the parts together and routes events and frames to them.

The parts, one job each:
- :class:`window.player_board.PlayerBoard`: the only way the player's board changes (moves
  applied by the session), held back while a solver's copy is on screen; saves, notices a solve.
- :class:`window.board_input.BoardInput`: clicks, drags, tally clicks and the keyboard cursor.
- :class:`window.coach.Coach`: Hint, Check and Undo to first mistake.
- :class:`window.trial_controls.TrialControls`: opening, keeping and abandoning trial layers.
- :class:`window.solver_panel.SolverPanel`: choosing, running and watching a solver.
- :class:`window.play_view.PlayView`: drawing, each part again only when it changed.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pygame

from game import files
from game.puzzle import Puzzle
from game.session import WHOLE_BOARD_STEPS, Session, Step
from solvers.engine import race
from window import records
from window.board_input import BoardInput
from window.coach import Coach
from window.host import Host
from window.layout import SMALL_CELL, TOOLBAR_HEIGHT, compute_layout
from window.play_view import PlayView, StatusLine
from window.player_board import PlayerBoard
from window.scenes.actions import Action, ActionsScene, by_key, most_used
from window.scenes.message import MessageScene
from window.scenes.race import with_solver
from window.solver_panel import SPEED_LABELS, SolverPanel
from window.storage import level_key, runs_dir
from window.trial_controls import TrialControls
from window.widgets import Button, handle_all, layout_row


class PlayScene:
    animating = False
    clock_changed = False

    def __init__(self, app: Host, puzzle: Puzzle, path: Path | None) -> None:
        self.app = app
        self.puzzle = puzzle
        self.path = path
        self.key = level_key(puzzle)
        saved = app.storage.restore_play(self.key, puzzle)
        session = saved if saved is not None else Session(puzzle)
        self.status = StatusLine("Progress restored" if saved is not None else
                                 "Left click: water, then ship; right click: the other way. M: every action, its key")
        notify = self.status.notify
        self.solver = SolverPanel(puzzle, app.settings, notify, self.keep_solver_board, app.open_replay,
                                  puzzle.name or (path.stem if path else "level"), app.pick_solver)
        self.board = PlayerBoard(session, self.solver, app.storage, self.key, self.title, notify)
        self.status.resting = self.board.resting
        self.shown_solution: object = None      # the solver run whose solution was counted as shown
        self.board_input = BoardInput(self.board, notify)
        self.coach = Coach(puzzle, self.board, notify)
        self.trials = TrialControls(self.board, self.coach, notify)
        self.undo_button, self.redo_button = Button("Undo", self.undo), Button("Redo", self.redo)
        # The toolbar, left to right: each button's key, and how often it is used (1: most).
        self.actions = [Action(Button("New", app.open_new_level), "N", 9),
                        Action(Button("Levels", app.open_browser), "L", 6),
                        Action(Button("Open...", app.open_files), "Ctrl+O", 10),
                        Action(self.undo_button, "Ctrl+Z", 1),
                        Action(self.redo_button, "Ctrl+Y", 2),
                        Action(Button("Restart", self.restart), "R", 4),
                        Action(self.trials.open_button, "G", 7),
                        Action(Button("Hint", self.coach.hint), "H", 3),
                        Action(Button("Check", self.coach.check), "C", 5),
                        Action(Button("Edit", app.open_editor), "E", 11),
                        Action(Button("Race", self.open_race), "V", 12),
                        Action(Button("Daily", app.open_daily), "D", 8),
                        Action(Button("Stats", app.open_stats), "I", 13),
                        Action(Button("Share", app.open_share), "X", 14),
                        Action(Button("Theme", app.toggle_theme), "B", 15),
                        Action(Button("Palette", app.toggle_palette), "P", 16)]
        self.toolbar = [action.button for action in self.actions]
        self.more_button = Button("More...", lambda: self.show_actions(self.hidden_actions(), "More"))
        # The solver panel's controls, with the keys that have one: M lists them after the toolbar's.
        panel = self.solver
        self.solver_actions = [Action(panel.run_button, "Enter", 0), Action(panel.step_button, ".", 0),
                               Action(panel.stop_button, "", 0), Action(panel.reset_button, "Esc", 0),
                               Action(Button("Next solver", lambda: self.next_solver(1)), "Tab", 0),
                               Action(Button("Slower", lambda: self.change_speed(-1)), "-", 0),
                               Action(Button("Faster", lambda: self.change_speed(1)), "=", 0),
                               Action(panel.keep_button, "", 0), Action(panel.rewind_button, "", 0),
                               Action(panel.save_button, "", 0),
                               Action(Button("Load a solver...", lambda: app.pick_solver(panel.add_solver)), "", 0)]
        # Shown in the status line while a hint or a check has found a mistake.
        self.mistake_button = Button("Undo to first mistake", self.coach.undo_to_mistake, active=True)
        # Actions with a key and no button of their own in the toolbar: M lists them after the rest.
        self.key_actions = [Action(Button("Keep the trial", self.trials.keep), "K", 0),
                            Action(Button("Abandon the trial", self.trials.abandon), "A", 0),
                            Action(self.mistake_button, "U", 0),
                            Action(Button("Your play on the timeline", self.rewind_play), "T", 0),
                            Action(Button("Whole message", self.show_message), "F", 0),
                            Action(Button("Pause", self.pause), "Pause", 0)]
        self.keys = by_key([*self.actions, *self.solver_actions, *self.key_actions,
                            Action(Button("All actions", self.show_actions), "M", 0)])
        # Shown in the status line on a solved level: a new timed attempt.
        self.again_button = Button("Play again", self.play_again, active=True)
        size = f"{puzzle.rows}x{puzzle.cols}"
        heading = (self.title, "" if size in self.title else size)
        self.board.target = records.target_seconds(size, puzzle.difficulty)
        self.board.record = self._record
        solved_on = app.storage.saved_on(self.key)
        if (session.solved and not session.solver_helped
                and records.unrecorded(app.storage, puzzle, self.key, solved_on)):
            said = self._record(session.elapsed, solved_on=solved_on)
            self.status.notify(f"Progress restored; the solve is now recorded. {said}".rstrip())
        self.view = PlayView(heading, self.board, self.solver, self.coach, self.board_input, self.toolbar,
                             self.mistake_button, self.again_button, self.status, self.trials.buttons)
        self.relayout(app.window_size)

    def _record(self, seconds: float, solved_on: datetime.date | None = None) -> str:
        """Record a solve of this level (``solved_on``: the day of one recorded only now)."""
        return records.finish(self.app.storage, self.puzzle, self.key, self.title, seconds, self.coach.asked,
                              solved_on=solved_on)

    # ----- what the window asks of the scene ----------------------------------------------

    @property
    def title(self) -> str:
        return self.puzzle.name or (self.path.stem if self.path else "level")

    @property
    def session(self) -> Session:
        return self.board.session

    @property
    def message(self) -> str:
        """The status line's message (what the player was last told)."""
        return self.status.message

    @message.setter
    def message(self, message: str) -> None:
        self.status.notify(message)

    def notify(self, message: str) -> None:
        self.status.notify(message)

    def relayout(self, size: tuple[int, int]) -> None:
        before = getattr(self, "layout", None)
        self.layout = compute_layout(size, self.puzzle.rows, self.puzzle.cols)
        cell = self.layout.cell
        if cell < SMALL_CELL and (before is None or before.cell >= SMALL_CELL):
            self.notify(f"{cell}-pixel cells in this window: enlarge it, or mark cells with the arrows and W, S")
        # A row or two of buttons (two in a narrow window), each label whole: a window too narrow
        # for every one (even on two rows) keeps the most used ones and More... for the rest.
        rows = self.layout.toolbar_rows
        shown = self._place_toolbar(self.toolbar, rows)
        count = len(self.actions)
        while count > 1 and any(button.shown()[0] != button.label for button in shown):
            count -= 1
            shown = self._place_toolbar([action.button for action in most_used(self.actions, count)]
                                        + [self.more_button], rows)
        self.shown_toolbar = self.view.toolbar = shown
        self.solver.place(self.view.solver_area(self.layout))

    def _place_toolbar(self, shown: list[Button], rows: int) -> list[Button]:
        """Lay ``shown`` out in ``rows`` rows (the other buttons nowhere); the rest of the last
        row is for the level's title (less of it in a narrow window)."""
        for button in (*self.toolbar, self.more_button):
            button.rect = pygame.Rect(0, 0, 0, 0)
        per_row = -(-len(shown) // rows)
        for row in range(rows):
            bar = pygame.Rect(0, row * TOOLBAR_HEIGHT, self.layout.toolbar.width, TOOLBAR_HEIGHT).inflate(-16, -12)
            buttons = shown[row * per_row:(row + 1) * per_row]
            width = min(bar.width - min(260, bar.width // 5), len(buttons) * 86)
            layout_row(buttons, pygame.Rect(bar.x, bar.y, width, bar.height), gap=6)
        return shown

    def close(self) -> None:
        self.coach.cancel()
        self.solver.close()
        self.board.save()

    # ----- actions -------------------------------------------------------------------------

    def undo(self) -> None:
        session = self.session
        step = session.history[session.cursor - 1] if session.can_undo else None
        if self.board.change(Session.undo):
            self._say_undone("Undone", step)

    def redo(self) -> None:
        session = self.session
        step = session.history[session.cursor] if session.can_redo else None
        if self.board.change(Session.redo):
            self._say_undone("Redone", step)

    def _say_undone(self, done: str, step: Step | None) -> None:
        """A step that changed the trials or the whole board left its word on the status line
        ("Trial 2 abandoned", "Restarted"): its undo or redo says what is in force now."""
        if step is not None and (step.kind or step.label in WHOLE_BOARD_STEPS):
            depth = self.session.depth
            self.notify(f"{done}: {step.label} ({f'trial {depth} open' if depth else 'no trial open'})")

    def restart(self) -> None:
        """R: back to the hints as an undoable step; on a solved level, a new attempt (:meth:`play_again`)."""
        if self.session.solved:
            self.play_again()
        else:
            self.board.change(Session.restart, "Restarted (Ctrl+Z brings your marks back)")

    def play_again(self) -> None:
        """A solved level played again from the hints as a new timed attempt, with its own
        history, clock and hints asked; the records keep the best time, and the saved play
        becomes the new attempt."""
        best = self.app.storage.solved().get(self.key)
        kept = f" Your best, {records.clock(best['seconds'])}, is kept." if best else ""
        if self.board.change(Session.play_again, f"Playing again: the clock starts from 0:00.{kept}"):
            self.coach.cancel()

    def pause(self) -> None:
        """Pause: the board hidden and the clock stopped until a click or a key."""
        if not self.app.pause():
            self.notify("Nothing to pause: the clock stopped at the solve (R: play again)")

    def open_race(self) -> None:
        """V: the race on this level; a solver of one's own chosen in the panel in a lane of its own."""
        own = self.solver.own_choice
        self.app.open_race(None if own is None else with_solver(race.choose(self.puzzle), own))

    def hidden_actions(self) -> list[Action]:
        """The toolbar's actions a narrow window leaves out of it (More... lists them)."""
        return [action for action in self.actions if action.button not in self.shown_toolbar]

    def show_actions(self, actions: list[Action] | None = None, title: str = "Actions") -> None:
        """The list of ``actions`` (default: the toolbar's and the solver's) with their keys, as an overlay."""
        every = [*self.actions, *self.solver_actions, *self.key_actions]
        self.app.show(ActionsScene(self.app, every if actions is None else actions, title))

    def show_message(self) -> None:
        """F, or a click on the status line: its message whole, wrapped (a long hint is cut there)."""
        self.app.show(MessageScene(self.app, self.status.message))

    def change_speed(self, step: int) -> None:
        """- and =: the solver's speed one step slower or faster, as on its slider."""
        self.solver.slider.set_index(self.solver.slider.index + step)
        self.notify(f"Speed: {SPEED_LABELS[self.solver.slider.index]}")
        self.keep_solver_choices()

    def next_solver(self, step: int) -> None:
        """Tab / Shift+Tab: the next or previous solver (not while one runs)."""
        names = list(self.solver.labels)
        if not self.solver.running and names:
            at = names.index(self.solver.solver) if self.solver.solver in names else -step
            self.solver.choose(names[(at + step) % len(names)])
            self.notify(f"Solver: {self.solver.labels[self.solver.solver]} (Enter runs it)")
            self.keep_solver_choices()

    def keep_solver_choices(self) -> None:
        """The solver and the speed the player chose in the panel, kept for the next levels and
        windows (a solver of one's own is not)."""
        self.app.remember("solver", self.solver.solver)
        self.app.remember("speed", self.solver.speed)

    def keep_solver_board(self) -> None:
        self.board.keep_solver_board()

    def rewind_play(self) -> None:
        """T: the player's own play so far (the moves in force) on the replay timeline."""
        from solvers.engine.trace import record_play

        session = self.session
        if not session.cursor:                  # a timeline of no event: nothing to step through
            self.notify("No moves yet: T shows your moves on the replay timeline once you make some")
            return
        try:
            folder = runs_dir()
            folder.mkdir(parents=True, exist_ok=True)
            path = record_play(folder / "last-play.jsonl", self.puzzle, session.history[:session.cursor],
                               session.solved, session.elapsed)
        except OSError as error:
            self.notify(f"Could not save the play to rewind it: {files.reason(error)}")
            return
        self.app.open_replay(path)

    # ----- events and frames ---------------------------------------------------------------

    def _key_down(self, event: pygame.event.Event) -> None:
        """The board's keys, then the toolbar's (its table), then the rest."""
        ctrl = bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        shift = event.mod & pygame.KMOD_SHIFT
        if ctrl and shift and event.key == pygame.K_z:
            self.redo()
        elif self.board_input.key(event):
            return
        elif not ctrl and shift and event.key == pygame.K_e:
            self.app.open_editor(blank=True)
        elif not ctrl and shift and event.key == pygame.K_TAB:
            self.next_solver(-1)
        elif (event.key, ctrl) in self.keys:
            self.keys[(event.key, ctrl)].run()
        elif not ctrl and event.key == pygame.K_KP_ENTER:
            self.solver.run_or_pause()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self._key_down(event)
            return
        if self.solver.handle(event):
            self.keep_solver_choices()
            return
        offered = self.view.offered()
        if handle_all(self.shown_toolbar, event) or handle_all([offered] if offered else [], event):
            return
        if self.trials.handle(event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.layout.status.collidepoint(event.pos):
            self.show_message()
            return
        self.board_input.handle(event, self.layout)

    def update(self, dt: float, in_view: bool = True) -> bool:
        """True if the scene must be redrawn; a mere clock tick only sets ``clock_changed``.
        The play clock runs only while the play is ``in_view`` (no dialog or view over it) and
        the board shows the player's marks, not a solver's run; a run that reaches the solution
        on the board counts as shown to this play (``Session.solver_helped``)."""
        session = self.session
        before = int(session.elapsed)
        if in_view and not self.solver.showing:
            session.tick(dt)
            self.board.clock_moved(before)
        changed = self.solver.update(dt)
        watch = self.solver.watch
        if watch is not None and watch.solved and watch is not self.shown_solution:
            self.shown_solution = watch
            session.asked["shown"] += 1
            self.board.save()
        changed = self.coach.poll() or changed
        changed = self.trials.update() or changed
        self.animating = self.solver.running or self.coach.thinking
        # A play opened in another scene's frame (a generated level) was drawn before its first
        # update: the buttons' state changing asks for the toolbar to be drawn again.
        enabled = (session.can_undo, session.can_redo)
        changed = changed or enabled != (self.undo_button.enabled, self.redo_button.enabled)
        self.undo_button.enabled, self.redo_button.enabled = enabled
        self.clock_changed = int(session.elapsed) != before
        # The banner goes away, or a message gives way to the finish: one more redraw.
        return self.board.celebration_over() or self.status.stale() or changed

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw what changed since the last frame, or everything when the screen was overwritten
        (``full``); the areas drawn (None: all).

        The window sends only those areas to the screen, which matters when the display is
        remote or unaccelerated.
        """
        return self.view.draw(surface, self.layout, self.app.theme, full)

    def draw_status(self, surface: pygame.Surface) -> None:
        self.view.draw_status(surface, self.layout, self.app.theme)
