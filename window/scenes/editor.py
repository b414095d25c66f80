"""The level editor: design a level by painting its fleet, or transcribe one from a book.

The draft and its undo history are pure values (``game.editor``); this scene turns clicks and
keys into edits and draws. After each edit a worker thread asks for the draft's verdict, its
grade and its redundant hints, these for at most ``REDUNDANT_SECONDS`` (``solvers.authoring.
editing``); an answer about an older draft is dropped. "Make unique" and "Minimize" run in the
same worker. The board and the panel are drawn again only when their look changes.

Design: left click or drag paints ship or water, right click makes a cell given (or not).
Transcribe: left and right click cycle a given cell through water and the ship pieces; click a
tally and type its number (``?`` for one not printed); the fleet has - and + per ship length.
The keyboard does all of it (``keys``, one table, shown at the foot): arrows move a cursor,
Space is a left click on its cell and Shift+Space a right click, and so on.

Save writes the level into the per-user levels folder under a name made from the level's;
Save as (``window.scenes.save_as``) asks for the file's name, and the editor then goes on with
that file. Ctrl+P prints the level as play does (the window's ``export_sheet``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import pygame

from game import editor as model
from game import files, levels
from game.editor import Draft, Editor, Mode
from game.limits import MAX_SHIP_LENGTH, MAX_SIDE
from game.puzzle import Cell, Coord, Grid, Puzzle, piece, plural
from game.ships import prepared
from solvers.engine.runner import SolverRun
from window import fonts
from window.board_input import ARROWS
from window.board_view import draw_alert, draw_piece
from window.host import Host
from window.looks import Looks
from window.mini_board import MiniBoard
from window.scenes.save_as import SaveAsPrompt
from window.storage import free_level_path, generated_dir, level_key, signature
from window.widgets import Button, draw_field, edit_field, handle_all, layout_row, typed_digit

if TYPE_CHECKING:                    # the module itself is imported when first needed (startup time)
    from solvers.authoring.editing import Assessment

ASK_AFTER = 0.25              # seconds of quiet after an edit before the verdict is asked
VERDICT_SECONDS = 5.0
MINIMIZE_SECONDS = 20.0       # for Minimize: out of time it keeps what it removed, and says so
REDUNDANT_SECONDS = 3.0       # for the redundant hints (minutes on a large level); out of time the panel says so
PANEL_WIDTH = 330
FOOT_SIZE, FOOT_LINE = 14, 17                        # the keys' text at the foot: size, line height
BOARD_LEAST = 100                                    # pixels: the board's area is never smaller, either way
MAX_TEXT = 60
FLEET_ROW = 26                # a fleet row's height when the panel has room; in a short one down to
FLEET_ROW_LEAST = 20          # this, the rest of the panel more compact, and then the list scrolls
SMALLEST_PERCENT = 70         # the most compact panel, in percent of its full size
VERDICT_LINES = 3             # the verdict, the grade or the hints that could go, the status
# Beside the title: what the mode does, and shorter ways of saying it for a narrower window.
MODE_LINES = {Mode.DESIGN: ("Design: paint the fleet; right click makes a cell given", "Design: paint the fleet"),
              Mode.TRANSCRIBE: ("Transcribe: click cells for the given pieces, click a tally and type it",
                                "Transcribe: click the given pieces and tallies")}
# The panel from top to bottom, at full size: (part, height, gap after it). The fleet list takes
# what the rest leaves; in a short window every height and gap is scaled down alike.
PANEL_PARTS = (("top", 10, 0), ("modes", 34, 16), ("rows", 30, 8), ("cols", 30, 12), ("name", 28, 6),
               ("author", 28, 14), ("fleet title", 22, 0), ("fleet", 0, 6), ("verdict", 22 * VERDICT_LINES, 8),
               ("undo", 34, 6), ("unique", 34, 6), ("save", 34, 10))


@dataclass(frozen=True)
class Answer:
    """The worker's reply: about which puzzle, the assessment, or a changed puzzle."""

    about: Puzzle
    assessment: Assessment | None = None
    changed: Puzzle | None = None
    note: str = ""


class EditorScene:
    covers_window = True

    def __init__(self, app: Host, puzzle: Puzzle | None = None, solution=None, path: Path | None = None) -> None:
        """``path``: the file ``puzzle`` was read from, when it is one of the levels made in the
        per-user folder: Save writes it again (a level from anywhere else is saved beside them)."""
        self.app = app
        draft = model.from_puzzle(puzzle, solution) if puzzle is not None else model.blank(10, 10)
        self.editor = Editor(draft)
        # A draft left unsaved when the editor last closed on this level (or on a blank board)
        # comes back, one undo away from the level as it is; it is kept again at the close.
        # Each editor open on a level keeps its draft in a place of its own (another window's
        # editor on the same level is said, and never written over: Storage.claim_draft).
        self.key = level_key(puzzle) if puzzle is not None else "new"
        self.claim = app.storage.claim_draft(self.key)
        self.kept: Draft = draft               # the draft saved, or the one opened: nothing to keep
        kept = app.storage.kept_draft(self.claim.name)
        if kept is not None and kept != draft:
            self.editor.apply(kept)
        self.stored: Draft | None = kept       # the draft on disk for self.key (None: none)
        self._kept_for: tuple[Draft, Draft] | None = None     # (draft, kept) when _keep last ran
        self.keeping = True                    # kept after each edit (False once that failed)
        self.assessment: Assessment | None = None   # for self.assessed
        self.assessed: Puzzle | None = None
        self.quiet = 0.0                  # seconds since the last edit
        self.busy = ""                    # what the worker is doing, for the status line
        self._run: SolverRun | None = None
        self._answer: Answer | None = None    # the worker's reply, read before its run ends
        self.focus: tuple[str, int] | str | None = None   # ("row", i), ("col", i), "name", "author"
        self.selected: str | None = None        # the text field whose whole text is selected (Ctrl+A)
        self.cursor: Coord | None = None                    # the keyboard's cell
        self.painting: bool | None = None
        self.ungraded: tuple[Path, Puzzle] | None = None     # saved before its verdict came
        if path is not None and path.parent.resolve() != generated_dir().resolve():
            path = None
        self.path: Path | None = path            # the file being edited (Save writes it)
        self.written = signature(path) if path is not None else None  # its signature when last read or written here
        self.save_as: SaveAsPrompt | None = None     # the Save as prompt, while it is open
        self.painted: Coord | None = None        # a drag's last cell painted
        self.drag_step = -1                      # the history step the drag's cells go to
        self.status = "; ".join(filter(None, (
            "Your unsaved draft is back (Undo: the level as it is)" if self.editor.cursor else "",
            f"This level is open in another editor ({self.claim.other}): this one keeps its draft apart"
            if self.claim.other else "",
            f"{self.claim.waiting} more unsaved draft{'s' * (self.claim.waiting > 1)} of this level kept from other "
            "windows: each comes back at a later opening, once this one is saved or undone"
            if self.claim.waiting else "")))
        self._read_of: Draft | None = None    # the draft self._reading is about
        self._reading: tuple = ((), None)
        self.looks = Looks()                  # what each part showed when last drawn
        self.picture = MiniBoard()
        self.buttons = {
            "design": Button("Design", lambda: self.set_mode(Mode.DESIGN)),
            "transcribe": Button("Transcribe", lambda: self.set_mode(Mode.TRANSCRIBE)),
            "rows-": Button("-", lambda: self.grow(-1, 0)), "rows+": Button("+", lambda: self.grow(1, 0)),
            "cols-": Button("-", lambda: self.grow(0, -1)), "cols+": Button("+", lambda: self.grow(0, 1)),
            "undo": Button("Undo", self.undo), "redo": Button("Redo", self.redo),
            "unique": Button("Make unique", self.make_unique), "minimize": Button("Minimize", self.minimize),
            "save": Button("Save", self.save), "save as": Button("Save as", self.open_save_as),
            "play": Button("Play", self.play),
            "close": Button("Close", app.close_overlay),
        }
        self.fleet_buttons: dict[tuple[int, int], Button] = {
            (length, step): Button("+" if step > 0 else "-", partial(self.add_ship, length, step))
            for length in range(1, MAX_SHIP_LENGTH + 1) for step in (-1, 1)}
        # The keys while no field is typed in: (key, Shift held) -> (what the help line says, action).
        self.keys: dict[tuple[int, bool], tuple[str, Callable[[], None]]] = {
            (pygame.K_SPACE, False): ("arrows, Space: click (Shift: right click)", lambda: self.click_cursor(1)),
            (pygame.K_SPACE, True): ("", lambda: self.click_cursor(3)),
            (pygame.K_d, False): ("D/T: design/transcribe", lambda: self.set_mode(Mode.DESIGN)),
            (pygame.K_t, False): ("", lambda: self.set_mode(Mode.TRANSCRIBE)),
            (pygame.K_UP, True): ("Shift+arrows: size", lambda: self.grow(-1, 0)),
            (pygame.K_DOWN, True): ("", lambda: self.grow(1, 0)),
            (pygame.K_LEFT, True): ("", lambda: self.grow(0, -1)),
            (pygame.K_RIGHT, True): ("", lambda: self.grow(0, 1)),
            (pygame.K_TAB, False): ("Tab: a tally", self.focus_tally),
            (pygame.K_n, False): ("N/A: name/author", lambda: setattr(self, "focus", "name")),
            (pygame.K_a, False): ("", lambda: setattr(self, "focus", "author")),
            **{(pygame.K_1 + k, shift): ("1-9: fleet (Shift: fewer)" if k == 0 and not shift else "",
                                         partial(self.add_ship, k + 1, -1 if shift else 1))
               for k in range(9) for shift in (False, True)},
            (pygame.K_u, False): ("U: unique", self.make_unique),
            (pygame.K_m, False): ("M: minimize", self.minimize),
            (pygame.K_p, False): ("P: play", self.play),
        }
        self.relayout(app.window_size)

    @property
    def key_help(self) -> str:
        """The help lines' text: the table's keys, and those of every scene."""
        return "  ".join(self.key_parts)

    @property
    def key_parts(self) -> list[str]:
        return [text for text, _ in self.keys.values() if text] + [
            "Ctrl+Z/Y: undo/redo", "Ctrl+S: save", "Ctrl+Shift+S: save as", "Ctrl+P: print", "Esc: close"]

    def help_lines(self, width: int, size: int) -> list[str]:
        """The keys packed into lines at most ``width`` pixels wide, as many as they need (a key
        wider than a line goes on at its spaces)."""
        lines: list[str] = []
        for part in self.key_parts:
            if lines and fonts.font(size).size(lines[-1] + "  " + part)[0] <= width:
                lines[-1] += "  " + part
                continue
            lines += fonts.wrap(part, size, width)
        return lines

    def click_cursor(self, button: int) -> None:
        """Space (1) and Shift+Space (3): a click on the cursor's cell."""
        if self.cursor is None:
            self.cursor = (0, 0)
            return
        r, c = self.cursor = min(self.cursor[0], self.draft.rows - 1), min(self.cursor[1], self.draft.cols - 1)
        if self.draft.mode is Mode.DESIGN:
            self.edit(model.paint(self.draft, (r, c), self.draft.layout[r][c] != Cell.SHIP) if button == 1 else
                      model.toggle_given(self.draft, (r, c)))
        else:
            self.edit(model.cycle_hint(self.draft, self.cursor, forward=button == 1))

    def focus_tally(self) -> None:
        """Tab: type the tally of the cursor's row (transcribing; Tab and Enter then go on, from
        the last row to the columns)."""
        if self.draft.mode is Mode.TRANSCRIBE:
            self.focus = ("row", min(self.cursor[0], self.draft.rows - 1) if self.cursor is not None else 0)

    def move_cursor(self, dr: int, dc: int) -> None:
        r, c = self.cursor or (0, 0)
        if self.cursor is not None:
            r, c = min(self.draft.rows - 1, max(0, r + dr)), min(self.draft.cols - 1, max(0, c + dc))
        self.cursor = (r, c)
        self.focus = None

    # ----- state ---------------------------------------------------------------------------

    @property
    def draft(self) -> Draft:
        return self.editor.draft

    def _read(self) -> tuple[list[model.Problem], Puzzle | None]:
        """The draft's problems and the level it makes (None while it has problems), worked out
        once per draft: each asks the judge, which takes milliseconds on a large board."""
        draft = self.editor.draft
        if self._read_of is not draft:
            problems = draft.problems()
            self._read_of, self._reading = draft, (problems, None if problems else draft.puzzle())
        return self._reading

    @property
    def problems(self) -> list[model.Problem]:
        return self._read()[0]

    @property
    def puzzle(self) -> Puzzle | None:
        return self._read()[1]

    @property
    def animating(self) -> bool:
        return self._run is not None or (self.assessed != self.puzzle and self.puzzle is not None)

    def edit(self, new: Draft, merge: bool = False) -> None:
        if self.editor.apply(new, merge):
            self._changed()

    def _changed(self) -> None:
        self.quiet = 0.0
        self.status = ""
        draft = self.editor.draft
        if isinstance(self.focus, tuple):      # a tally is typed only while it is there to type
            axis, index = self.focus
            if draft.mode is not Mode.TRANSCRIBE or index >= (draft.rows if axis == "row" else draft.cols):
                self.focus = None
        if (draft.rows, draft.cols) != self.board_shape:
            self.relayout(self.app.window_size)

    def undo(self) -> None:
        if self.editor.undo():
            self._changed()

    def redo(self) -> None:
        if self.editor.redo():
            self._changed()

    def set_mode(self, mode: Mode) -> None:
        if mode is not self.draft.mode:
            self.edit(model.switch_mode(self.draft, self._solution()))

    def _solution(self) -> Grid | None:
        """A solution of the draft's level as the verdict found it (None while the verdict is
        about an older draft: its solution may not solve this one, nor have its size)."""
        if self.assessment is not None and self.puzzle is not None and self.assessed == self.puzzle:
            return self.assessment.solution
        return None

    def grow(self, rows: int, cols: int) -> None:
        self.edit(model.resize(self.draft, self.draft.rows + rows, self.draft.cols + cols))

    def add_ship(self, length: int, step: int) -> None:
        if self.draft.mode is Mode.TRANSCRIBE:
            count = dict(self.draft.typed_fleet).get(length, 0)
            self.edit(model.set_ships(self.draft, length, count + step))

    # ----- the worker ----------------------------------------------------------------------

    def _ask(self, what: str, puzzle: Puzzle, job: Callable[[Callable[[], bool]], Answer]) -> None:
        """Run ``job`` on ``puzzle`` in the worker. It is given a callable that says when the run
        was stopped (the editor closed, or a newer question asked): a long job asks it to end at
        once. The level's placement tables are built first, as every run of the window builds
        them (``SolverRun``'s ``prepare``): one at a time, so a solver's run on a level of the
        same size does not build a copy of its own beside the editor's."""
        if self._run is not None:
            self._run.stop(timeout=0.0)

        def stream() -> Iterator[Answer]:
            yield job(run.stopping)

        self.busy, self._answer = what, None
        run = SolverRun(stream, maxsize=1, name="editor", prepare=partial(prepared, puzzle))
        self._run = run.start()

    def _assess_now(self, puzzle: Puzzle) -> None:
        from solvers.authoring.editing import assess

        self._ask("checking", puzzle,
                  lambda stopping: Answer(puzzle, assess(puzzle, VERDICT_SECONDS, REDUNDANT_SECONDS, stopping)))

    def make_unique(self) -> None:
        from solvers.authoring.editing import OutOfTime, most_cutting_hint

        puzzle = self.puzzle
        target = self._target()
        if puzzle is None or target is None:
            self.status = "Make unique needs a level with a solution (paint the fleet, or fix what is shown)"
            return

        def job(stopping: Callable[[], bool]) -> Answer:
            try:
                better = most_cutting_hint(puzzle, target, VERDICT_SECONDS)
            except OutOfTime as error:
                return Answer(puzzle, note=f"Make unique: {error}; no hint added")
            return Answer(puzzle, changed=better, note="" if better else "it is unique already")

        self._ask("looking for the most telling hint", puzzle, job)

    def minimize(self) -> None:
        from solvers.authoring.editing import minimize

        puzzle = self.puzzle
        if puzzle is None or self.assessment is None or self.assessed != puzzle or \
                self.assessment.kind.value != "unique":
            self.status = "Minimize needs a unique level"
            return
        def job(stopping: Callable[[], bool]) -> Answer:
            fewer, finished = minimize(puzzle, MINIMIZE_SECONDS, cancelled=stopping)
            note = "" if finished else f"Minimize: out of time at {MINIMIZE_SECONDS:g} s, press again for more"
            return Answer(puzzle, changed=fewer, note=note)         # (a line the panel shows whole)

        self._ask("removing the hints not needed", puzzle, job)

    def _target(self):
        """The solution the author means: the painted layout, or the first solution met."""
        if self.draft.mode is Mode.DESIGN:
            return self.draft.layout
        return self._solution()

    def update(self, dt: float) -> bool:
        self.quiet += dt
        if self.quiet >= ASK_AFTER and self.keeping:
            self._keep()
        puzzle = self.puzzle
        if self._run is None and puzzle is not None and puzzle != self.assessed and self.quiet >= ASK_AFTER:
            self._assess_now(puzzle)
        if self._run is None:
            return False
        for item in self._run.poll(4):
            if isinstance(item, Answer):
                self._answer = item
            else:
                self.status = f"The editor's worker failed: {getattr(item, 'message', item)}"
        if not self._run.finished:
            return True
        answer, self._answer = self._answer, None
        self._run, self.busy = None, ""
        if answer is None or answer.about != self.puzzle:
            return True                               # about an older draft
        if answer.changed is not None:
            self.edit(model.with_puzzle_hints(self.draft, answer.changed))
        elif answer.assessment is not None:
            self.assessed, self.assessment = answer.about, answer.assessment
            self._grade_saved()
        if answer.note:
            self.status = answer.note
        return True

    def close(self) -> None:
        """Stop the worker; keep the draft for the next opening unless it is saved or unchanged."""
        if self._run is not None:
            self._run.stop(timeout=0.2)
            self._run = None
        self._keep()
        self.app.storage.release_draft(self.claim)

    def _keep(self) -> None:
        """Keep the draft on disk for the next opening (none when it is the level as opened, or
        as saved): at the close, and a quarter of a second after each edit, so that a crash or
        a killed window loses no more than that. Tried once per draft; a folder that cannot be
        written is said once, and tried again only at the close."""
        if self._kept_for is not None and self._kept_for[0] is self.draft and self._kept_for[1] is self.kept:
            return
        self._kept_for = (self.draft, self.kept)
        keep = None if self.draft == self.kept else self.draft
        if keep != self.stored:
            if self.app.storage.keep_draft(self.claim.name, keep):
                self.stored = keep
            else:                            # the folder cannot be written: said once, tried again at the close
                self.keeping = False

    # ----- saving and playing --------------------------------------------------------------

    def _final_puzzle(self, refused: str = "Not saved") -> Puzzle | None:
        """The draft's level as it is written out (with its grade when the verdict on it came);
        None, ``refused`` said on the status line, while the draft is no level."""
        puzzle = self.puzzle
        if puzzle is None:
            self.status = f"{refused}: the line above says what to fix"   # (the problem is the verdict's line)
            return None
        grade = None
        if self.assessment is not None and self.assessed == puzzle:
            grade = self.assessment.grade or None
        return puzzle.replace(difficulty=grade, source="level editor")

    def save(self) -> Path | None:
        """Ctrl+S: the level into the file being edited (once Save as made one), or else beside
        the levels made in the per-user folder, never over another level there. The file being
        edited is asked about first (as Save as asks) when someone else wrote it since."""
        puzzle = self._final_puzzle()
        if puzzle is None:
            return None
        if self.path is not None:
            if self._ours(self.path):
                return self._write(puzzle, self.path, follow=True)
            self.open_save_as()                  # offered its name: Save there asks, then replaces
            return self.save_typed()
        path = generated_dir() / f"made-{files.slug(puzzle.name or '')}-{puzzle.rows}x{puzzle.cols}.bs"
        try:
            path = free_level_path(path, puzzle)
        except OSError as error:
            self.status = f"Could not save: {files.reason(error)}"
            return None
        return self._write(puzzle, path)

    def open_save_as(self) -> None:
        """Ctrl+Shift+S: the Save as prompt, offering the name of the file being edited, or
        else the level's name."""
        if self._final_puzzle() is None:
            return
        offered = self.path.stem if self.path is not None else self.draft.name
        self.save_as = SaveAsPrompt(offered, generated_dir(), self.save_typed, self.close_save_as,
                                    self.app.window_size)
        self.focus = None

    def close_save_as(self) -> None:
        self.save_as = None
        self.looks.forget()                      # the board and the panel drawn again where it was

    def save_typed(self) -> Path | None:
        """The prompt's Save: the level into the file the name typed makes, in the folder Save
        writes to. A name with no letter or digit is refused; a file there that is not the
        one being edited as this editor wrote it is asked about first (Save again replaces
        it); a write that fails leaves the file as it was and the prompt open, saying why.
        Saved, the editor goes on with that file."""
        prompt = self.save_as
        if prompt is None:
            return None
        path = prompt.file
        if path is None:
            prompt.tell("The name needs a letter or a digit (A-Z, 0-9): the file's name is made of them")
            return None
        puzzle = self._final_puzzle()
        if puzzle is None:
            prompt.tell(f"Not saved: {self.problems[0].text}")
            return None
        try:
            files.check(path, parents=True)          # a folder of that name, a folder that cannot be written
        except OSError as error:
            prompt.tell(f"Could not save: {files.reason(error)}")
            return None
        if not self._ours(path) and path != prompt.asked:
            prompt.ask(path, f"{path.name} {self._what_is_at(path)}: Replace writes over it")
            return None
        saved = self._write(puzzle, path, follow=True)
        if saved is None:
            prompt.tell(self.status)
        else:
            self.close_save_as()
        return saved

    def _ours(self, path: Path) -> bool:
        """Whether writing ``path`` replaces nothing but what this editor wrote: no file there,
        or the file being edited as it was last saved here."""
        return not os.path.lexists(path) or (path == self.path and signature(path) == self.written)

    def _what_is_at(self, path: Path) -> str:
        """What the file at ``path``, not ours, is, for the question before replacing it."""
        if path == self.path:
            return "was changed on disk since it was saved here"
        try:
            other = levels.load(path)
        except (levels.LevelError, OSError):
            return "is there already, and is not a level"
        return f"already holds the level {other.name!r}" if other.name else "already holds another level"

    def _write(self, puzzle: Puzzle, path: Path, follow: bool = False) -> Path | None:
        """Save ``puzzle`` in ``path`` (written whole or not at all: a failed write leaves the
        file as it was); the draft saved is no longer kept. ``follow``: the editor goes on with
        this file (Save writes it; its drafts are kept by its level, as when the editor opens
        on it)."""
        try:
            levels.save(puzzle, path)
        except OSError as error:
            self.status = f"Could not save: {files.reason(error)}"
            return None
        graded = self.assessment is not None and self.assessed == self.puzzle
        # saved before its verdict: the grade is written in when the verdict comes (see update)
        self.ungraded = None if graded else (path, puzzle)
        self.status = f"Saved {path.name}" + ("" if graded else " (its grade follows the verdict)")
        self.kept = self.draft
        self._keep()                                 # the draft saved is no longer kept
        if follow:
            self.path, self.written = path, signature(path)
            key = level_key(puzzle)
            if key != self.key:            # a draft kept for the level saved is dropped too
                self.app.storage.release_draft(self.claim)
                self.key, self.claim = key, self.app.storage.claim_draft(key)
                self.stored, self._kept_for = self.app.storage.kept_draft(self.claim.name), None
                self._keep()
        self.app.notify(f"Saved the level to {path}")
        return path

    def _grade_saved(self) -> None:
        """The level saved before its verdict, written again with its grade once the verdict
        on it comes (only while the draft is still that level)."""
        if self.ungraded is None or self.assessment is None:
            return
        path, puzzle = self.ungraded
        if self.assessed != puzzle.replace(difficulty=None, source=None):
            return
        self.ungraded = None
        if self.assessment.grade:
            try:
                levels.save(puzzle.replace(difficulty=self.assessment.grade), path)
            except OSError as error:
                self.status = f"Could not write the grade into {path.name}: {files.reason(error)}"
                return
            if path == self.path:
                self.written = signature(path)
            self.status = f"Saved {path.name}, graded {self.assessment.grade}"

    def print_sheet(self) -> Path | None:
        """Ctrl+P: the level as a printable page, as in play (the window's ``export_sheet``),
        said on the status line."""
        puzzle = self._final_puzzle("Not printed")
        if puzzle is None:
            return None
        stem = self.path.stem if self.path is not None else puzzle.name or ""
        return self.app.export_sheet(puzzle, stem, tell=partial(setattr, self, "status"))

    def play(self) -> None:
        path = self.save()
        if path is not None:
            self.app.close_overlay()            # (which closes this scene)
            self.app.open_level(path)

    # ----- input ---------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if self.save_as is not None:             # the prompt takes every key and click while open
            self.save_as.handle(event)
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        if event.type == pygame.TEXTINPUT and isinstance(self.focus, str):     # "name" or "author"
            self._type_text(event, self.focus)
            return
        if event.type == pygame.MOUSEWHEEL:                  # the only list that scrolls: the fleet
            self.scroll_fleet(-event.y)
            return
        if handle_all(self._visible_buttons(), event):
            return
        if event.type == pygame.MOUSEBUTTONDOWN:
            self._click(event.pos, event.button)
        elif event.type == pygame.MOUSEMOTION and self.painting is not None and event.buttons[0]:
            cell = self.cell_at(event.pos)
            if cell is not None and self.painted is not None and cell != self.painted:
                # every cell from the last one painted (a quick drag skips some), as one edit
                self.edit(model.paint_line(self.draft, self.painted, cell, self.painting),
                          merge=self.editor.cursor == self.drag_step)
                self.painted, self.drag_step = cell, self.editor.cursor
        elif event.type == pygame.MOUSEBUTTONUP:
            self.painting = None

    def _click(self, pos, button: int) -> None:
        self.focus = self.selected = None
        for key, rect in self.text_rects.items():
            if rect.collidepoint(pos):
                self.focus = key
                return
        tally = self.tally_at(pos)
        if tally is not None and self.draft.mode is Mode.TRANSCRIBE:
            self.focus = tally
            return
        cell = self.cell_at(pos)
        if cell is None:
            return
        if self.draft.mode is Mode.DESIGN:
            if button == 1:
                self.painting = self.draft.layout[cell[0]][cell[1]] != Cell.SHIP
                self.edit(model.paint(self.draft, cell, self.painting))
                self.painted, self.drag_step = cell, self.editor.cursor
            elif button == 3:
                self.edit(model.toggle_given(self.draft, cell))
        elif button in (1, 3):
            self.edit(model.cycle_hint(self.draft, cell, forward=button == 1))

    def _key(self, event: pygame.event.Event) -> None:
        ctrl = event.mod & pygame.KMOD_CTRL
        if ctrl and event.key == pygame.K_z:
            self.undo()
        elif ctrl and event.key == pygame.K_y:
            self.redo()
        elif ctrl and event.key == pygame.K_s:
            self.open_save_as() if event.mod & pygame.KMOD_SHIFT else self.save()
        elif ctrl and event.key == pygame.K_p:
            self.print_sheet()
        elif event.key == pygame.K_ESCAPE:
            if self.focus is not None:
                self.focus = None
            else:
                self.app.close_overlay()
        elif isinstance(self.focus, tuple) and event.key not in ARROWS:
            self._type_tally(event, self.focus)
        elif isinstance(self.focus, str):                 # "name" or "author"
            self._type_text(event, self.focus)
        elif event.key in ARROWS and not event.mod & pygame.KMOD_SHIFT:
            self.move_cursor(*ARROWS[event.key])
        elif (event.key, bool(event.mod & pygame.KMOD_SHIFT)) in self.keys and not ctrl:
            self.keys[(event.key, bool(event.mod & pygame.KMOD_SHIFT))][1]()

    def _type_tally(self, event: pygame.event.Event, focus: tuple[str, int]) -> None:
        axis, index = focus
        tallies = self.draft.typed_rows if axis == "row" else self.draft.typed_cols
        now = tallies[index]
        value: int | None
        if event.key == pygame.K_BACKSPACE:
            value = None if now is None or now < 10 else now // 10
            value = 0 if value is None and now is not None else value
        elif event.unicode == "?":
            value = None
        elif typed_digit(event):
            value = int(event.unicode) if now is None else min(99, now * 10 + int(event.unicode))
        elif event.key in (pygame.K_TAB, pygame.K_RETURN):
            # the next tally: down the rows, then along the columns, then the rows again
            if index + 1 < len(tallies):
                self.focus = (axis, index + 1)
            else:
                self.focus = ("col" if axis == "row" else "row", 0)
            return
        else:
            return
        self.edit(model.set_tally(self.draft, axis, index, value))

    def _type_text(self, event: pygame.event.Event, key: str) -> None:
        edited = edit_field(getattr(self.draft, key), self.selected == key, event, MAX_TEXT)
        if edited is None:
            return
        text, selected = edited
        self.selected = key if selected else None
        if text != getattr(self.draft, key):
            self.edit(replace(self.draft, name=text) if key == "name" else replace(self.draft, author=text))

    # ----- layout --------------------------------------------------------------------------

    def _visible_buttons(self) -> list[Button]:
        shown = list(self.buttons.values())
        if self.draft.mode is Mode.TRANSCRIBE:
            for length, row in self.fleet_rows():
                for step in (-1, 1):
                    button = self.fleet_buttons[(length, step)]
                    button.rect = pygame.Rect(self.panel.x + (230 if step < 0 else 266), row.y + 1, 30,
                                              min(24, row.height - 2))
                    shown.append(button)
        return shown

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        rows, cols = self.draft.rows, self.draft.cols
        self.board_shape = (rows, cols)
        # The keys below the board, as many lines as leave the board BOARD_LEAST pixels (a narrow
        # window's column of keys ran up behind the board): the last one kept ends in an ellipsis.
        room = width - PANEL_WIDTH - 60
        foot = self.help_lines(room, FOOT_SIZE)
        most = max(1, (height - 90 - BOARD_LEAST) // FOOT_LINE)
        if len(foot) > most:
            foot = foot[:most - 1] + [fonts.fit_text(foot[most - 1] + fonts.ELLIPSIS, FOOT_SIZE, room)]
        self.foot = foot
        area = pygame.Rect(20, 64, max(BOARD_LEAST, room), max(BOARD_LEAST, height - 90 - FOOT_LINE * len(foot)))
        self.cell = max(1, min(48, area.width // (cols + 1), area.height // (rows + 1)))   # inside its area
        self.origin = (area.x, area.y)
        x = width - PANEL_WIDTH - 20
        self.panel = pygame.Rect(x, 20, PANEL_WIDTH, height - 40)
        self.parts = stack_panel(self.panel, self.fleet_rows_most())
        if self.save_as is not None:
            self.save_as.relayout(size)
        self.fleet_scroll = 0
        b, parts, wide = self.buttons, self.parts, PANEL_WIDTH - 20
        layout_row([b["design"], b["transcribe"]], pygame.Rect(x + 10, parts["modes"].y, wide, parts["modes"].height))
        for part, (less, more) in (("rows", ("rows-", "rows+")), ("cols", ("cols-", "cols+"))):
            b[less].rect = pygame.Rect(x + 150, parts[part].y, 34, parts[part].height)
            b[more].rect = pygame.Rect(x + 190, parts[part].y, 34, parts[part].height)
        self.text_rects = {key: pygame.Rect(x + 80, parts[key].y, PANEL_WIDTH - 90, parts[key].height)
                           for key in ("name", "author")}
        for part, keys in (("undo", ("undo", "redo")), ("unique", ("unique", "minimize")),
                           ("save", ("save", "save as", "play", "close"))):
            layout_row([b[key] for key in keys], pygame.Rect(x + 10, parts[part].y, wide, parts[part].height))

    def fleet_rows_most(self) -> int:
        """Rows the fleet list can have on this board: one per ship length up to its longer side."""
        return min(MAX_SHIP_LENGTH, max(self.draft.rows, self.draft.cols))

    def fleet_lengths(self) -> list[int]:
        """The lengths the fleet list shows, longest first: every one that fits the board when
        transcribing (each with - and +), those painted when designing."""
        if self.draft.mode is Mode.TRANSCRIBE:
            return list(range(self.fleet_rows_most(), 0, -1))
        return sorted(dict(self.draft.fleet), reverse=True)

    def fleet_rows(self) -> list[tuple[int, pygame.Rect]]:
        """The fleet rows in sight, (length, row), from ``fleet_scroll`` on."""
        area, lengths = self.parts["fleet"], self.fleet_lengths()
        step = max(FLEET_ROW_LEAST, min(FLEET_ROW, area.height // max(1, len(lengths))))
        room = max(1, area.height // step)
        self.fleet_scroll = max(0, min(self.fleet_scroll, len(lengths) - room))
        shown = lengths[self.fleet_scroll:self.fleet_scroll + room]
        return [(length, pygame.Rect(area.x, area.y + k * step, area.width, step)) for k, length in enumerate(shown)]

    def scroll_fleet(self, rows: int) -> None:
        self.fleet_scroll = max(0, self.fleet_scroll + rows)        # fleet_rows() keeps it in range
        self.fleet_rows()

    def cell_rect(self, r: int, c: int) -> pygame.Rect:
        return pygame.Rect(self.origin[0] + c * self.cell, self.origin[1] + r * self.cell, self.cell, self.cell)

    def cell_at(self, pos) -> Coord | None:
        c = (pos[0] - self.origin[0]) // self.cell
        r = (pos[1] - self.origin[1]) // self.cell
        if 0 <= r < self.draft.rows and 0 <= c < self.draft.cols:
            return (r, c)
        return None

    def tally_at(self, pos) -> tuple[str, int] | None:
        c = (pos[0] - self.origin[0]) // self.cell
        r = (pos[1] - self.origin[1]) // self.cell
        if c == self.draft.cols and 0 <= r < self.draft.rows:
            return ("row", r)
        if r == self.draft.rows and 0 <= c < self.draft.cols:
            return ("col", c)
        return None

    # ----- drawing -------------------------------------------------------------------------

    draws_changes = True                # draw(surface, full) draws what changed and names where

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw what changed since the last frame: the board when the draft, its outlines or
        the tally being typed changed, the panel when its texts or a button's look did (a mouse
        move that changes neither draws nothing). Everything when ``full``, or when the window,
        the theme, the board's size or the mode changed. The areas drawn (None: all)."""
        theme, draft = self.app.theme, self.draft
        self._set_buttons()
        prompt = self.save_as
        if prompt is not None:             # over the board and the panel: all drawn again beneath it
            if not self.looks.changed("save as", (prompt.look(), theme)) and not full:
                return []
            full = True
        if self.looks.changed("scene", (theme, self.app.window_size, self.board_shape, self.cell, draft.mode)) \
                or full:
            self.looks.forget("scene", "save as")
            surface.fill(theme.background)
            title, size = fonts.shrink_to_fit("Level editor", 26, self.panel.x - 30, bold=True)
            fonts.blit_text(surface, title, size, theme.text, bold=True, topleft=(20, 18))
            # The mode's line, as long as it fits whole (the panel's Design / Transcribe says it too).
            shown = fonts.first_whole(MODE_LINES[draft.mode], 16, self.panel.x - 240)
            if shown is not None:
                fonts.blit_text(surface, shown[0], shown[1], theme.muted, topleft=(220, 26))
            bottom = self.app.window_size[1] - 22
            for k, line in enumerate(reversed(self.foot)):      # the keys at the foot, every line of them
                fonts.blit_text(surface, line, FOOT_SIZE, theme.muted, bottomleft=(20, bottom - FOOT_LINE * k))
            self._draw_parts(surface)
            if prompt is not None:
                prompt.draw(surface, theme)
            return None
        return self._draw_parts(surface)

    def _draw_parts(self, surface: pygame.Surface) -> list[pygame.Rect]:
        """The board and the panel, each when its look changed (each paints its own background)."""
        theme, draft = self.app.theme, self.draft
        areas = []
        redundant: frozenset[Coord] = frozenset(self.assessment.redundant or ()) \
            if self.assessment is not None and self.assessed == self.puzzle else frozenset()
        if self.looks.changed("board", (draft, self.focus if isinstance(self.focus, tuple) else None, redundant,
                                        self.cursor)):
            # the board with its tallies, and room for a tally's text wider than a small cell
            area = pygame.Rect(self.origin, ((draft.cols + 1) * self.cell, (draft.rows + 1) * self.cell))
            area = area.inflate(16, 16).clip(surface.get_rect())
            surface.fill(theme.background, area)
            self._draw_board(surface, redundant)
            areas.append(area)
            if area.colliderect(self.panel):           # a small window: the panel lies over the board
                self.looks.drop("panel")
        lines, colour = self.verdict_lines()
        buttons = tuple(button.look() for button in self._visible_buttons())
        if self.looks.changed("panel", (draft, self.focus, tuple(lines), colour, buttons, self.fleet_scroll)):
            surface.fill(theme.background, self.panel)
            self._draw_panel(surface, lines, colour)
            areas.append(self.panel.clip(surface.get_rect()))
        return areas

    def _set_buttons(self) -> None:
        draft = self.draft
        self.buttons["design"].active = draft.mode is Mode.DESIGN
        self.buttons["transcribe"].active = draft.mode is Mode.TRANSCRIBE
        self.buttons["undo"].enabled = self.editor.cursor > 0
        self.buttons["redo"].enabled = self.editor.cursor + 1 < len(self.editor.history)

    def _draw_board(self, surface: pygame.Surface, redundant: frozenset[Coord]) -> None:
        theme, draft = self.app.theme, self.draft
        hints = draft.hints
        problems = self.problems
        bad = frozenset().union(*(p.cells for p in problems)) if problems else frozenset()
        if draft.mode is Mode.DESIGN:          # the painted fleet; water shows where it is given
            shown = tuple(tuple(v if v == Cell.SHIP or (r, c) in hints else Cell.UNKNOWN
                                for c, v in enumerate(row)) for r, row in enumerate(draft.layout))
        else:                                  # only what is typed
            shown = tuple(tuple(Cell.UNKNOWN if (r, c) not in hints else
                                Cell.SHIP if hints[(r, c)].is_ship else Cell.WATER
                                for c in range(draft.cols)) for r in range(draft.rows))
        shapes = draft.layout if draft.mode is Mode.DESIGN else None
        self.picture.draw(surface, theme, self.origin, self.cell, shown, hints, shapes=shapes)
        for cells, colour, width, glyph in ((redundant, theme.guess, 2, "-"), (bad, theme.error, 3, "!")):
            for r, c in cells:
                inset = 4 if colour == theme.guess else 0
                pygame.draw.rect(surface, colour, self.cell_rect(r, c).inflate(-inset, -inset), width)
                if self.cell >= 18:       # a hint that could go, an error: a glyph as well as the colour
                    draw_alert(surface, self.cell_rect(r, c), theme, glyph=glyph, colour=colour)
        if self.cursor is not None and self.cursor[0] < draft.rows and self.cursor[1] < draft.cols:
            outline = self.cell_rect(*self.cursor).inflate(-1, -1)
            pygame.draw.rect(surface, theme.cursor, outline, max(2, self.cell // 12))
        size = max(12, min(26, self.cell * 2 // 3))
        for axis, tallies in (("row", draft.row_tallies), ("col", draft.col_tallies)):
            for i, tally in enumerate(tallies):
                rect = self.cell_rect(i, draft.cols) if axis == "row" else self.cell_rect(draft.rows, i)
                if self.focus == (axis, i):
                    pygame.draw.rect(surface, theme.cursor, rect, 2)
                length = draft.cols if axis == "row" else draft.rows
                over = tally is not None and tally > length
                text = "?" if tally is None else str(tally)
                fonts.blit_text(surface, text, size, theme.error if over else theme.text, center=rect.center)
                if over:
                    draw_alert(surface, rect, theme, "topright")

    def _draw_panel(self, surface: pygame.Surface, lines: list[str], colour: tuple) -> None:
        theme, draft, x, parts = self.app.theme, self.draft, self.panel.x, self.parts
        pygame.draw.rect(surface, theme.panel, self.panel, border_radius=8)
        pygame.draw.rect(surface, theme.panel_edge, self.panel, 1, border_radius=8)
        for text, part in ((f"Rows {draft.rows}", "rows"), (f"Columns {draft.cols}", "cols")):
            fonts.blit_text(surface, text, 18, theme.text, midleft=(x + 12, parts[part].centery))
        fonts.blit_text(surface, f"(1-{MAX_SIDE})", 15, theme.muted,
                        midleft=(x + 232, (parts["rows"].centery + parts["cols"].centery) // 2))
        for key, rect in self.text_rects.items():
            fonts.blit_text(surface, key.capitalize(), 17, theme.text, midleft=(x + 12, rect.centery))
            draw_field(surface, theme, rect, getattr(draft, key), self.focus == key,
                       selected=self.focus == self.selected == key)
        title = parts["fleet title"]
        fonts.blit_text(surface, "Fleet", 18, theme.text, bold=True, midleft=(x + 12, title.centery))
        lengths, rows = self.fleet_lengths(), self.fleet_rows()
        if len(rows) < len(lengths):                       # the list scrolls: say which part is in sight
            where = f"lengths {rows[0][0]}-{rows[-1][0]} of {len(lengths)}: scroll for more"
            fonts.blit_text(surface, fonts.fit_text(where, 15, PANEL_WIDTH - 90), 15, theme.muted,
                            midright=(self.panel.right - 12, title.centery))
        counts = dict(draft.fleet)
        for length, row in rows:
            side = min(18, row.height - 6)
            for i in range(length):
                rect = pygame.Rect(x + 12 + i * 18, row.centery - side // 2, 18, side)
                fill = theme.ship if counts.get(length) else theme.panel_edge
                draw_piece(surface, rect, piece(length, True, i), fill,
                           frozenset(s for s, ok in (("left", i > 0), ("right", i < length - 1)) if ok))
            fonts.blit_text(surface, f"x {counts.get(length, 0)}", 17, theme.text,
                            midleft=(x + 18 + 18 * MAX_SHIP_LENGTH, row.centery))
        for button in self._visible_buttons():
            button.draw(surface, theme)
        verdict = parts["verdict"]
        step = verdict.height // VERDICT_LINES
        for n, (text, ink) in enumerate(self._verdict_rows(lines, colour, verdict.width)):
            fonts.blit_text(surface, fonts.fit_text(text, 17, verdict.width), 17, ink,
                            midleft=(verdict.x, verdict.y + n * step + step // 2))

    def _verdict_rows(self, lines: list[str], colour: tuple, width: int) -> list[tuple[str, tuple]]:
        """The verdict's lines in its ``VERDICT_LINES`` rows: each line a row, and the rows the
        others leave to the first lines that need more to be read whole (the last row of a line
        still too long is cut short with an ellipsis)."""
        wrapped = [fonts.wrap(line, 17, width, most=VERDICT_LINES) for line in lines[:VERDICT_LINES]]
        spare = VERDICT_LINES - len(wrapped)
        rows = []
        for i, parts in enumerate(wrapped):
            take = 1 + min(spare, len(parts) - 1)
            spare -= take - 1
            shown = parts if take == len(parts) else fonts.wrap(lines[i], 17, width, most=take)
            rows += [(text, colour if i == 0 else self.app.theme.text) for text in shown]
        return rows

    def verdict_lines(self) -> tuple[list[str], tuple]:
        """What the panel says of the draft (the verdict, the grade, the hints that could go,
        the status), and the first line's colour."""
        theme, problems = self.app.theme, self.problems
        if problems:
            lines, colour = [f"Not a level yet: {problems[0].text}"], theme.error
        elif self.busy:
            lines, colour = [f"{self.busy.capitalize()}..."], theme.muted
        elif self.assessment is not None and self.assessed == self.puzzle:
            a = self.assessment
            kind = a.kind.value
            lines = [f"Verdict: {kind}" + (f", graded {a.grade}" if a.grade else "")]
            if a.redundant is None:
                lines.append(f"Hints that could go: not worked out within {REDUNDANT_SECONDS:g} s")
            elif a.redundant:
                lines.append(f"{plural(len(a.redundant), 'hint')} could go (outlined, marked -)")
            colour = theme.solved if kind == "unique" else theme.error if kind == "impossible" else theme.guess
        else:
            lines, colour = ["Verdict: ..."], theme.muted
        if self.status:
            lines.append(self.status)
        return lines, colour



def stack_panel(panel: pygame.Rect, fleet_rows: int) -> dict[str, pygame.Rect]:
    """Where each part of the editor's panel goes (``PANEL_PARTS``, top to bottom): at full size
    when the fleet list then has room for its ``fleet_rows`` rows (each at least
    ``FLEET_ROW_LEAST`` high); otherwise every part and gap scaled down alike until it has, to
    ``SMALLEST_PERCENT`` of full size at the most (the list scrolls for the rows left out)."""
    want = fleet_rows * FLEET_ROW_LEAST
    for percent in range(100, SMALLEST_PERCENT - 1, -5):
        fixed = sum(height * percent // 100 + gap * percent // 100 for _, height, gap in PANEL_PARTS)
        if panel.height - fixed >= want:
            break
    parts, y = {}, panel.y
    for name, height, gap in PANEL_PARTS:
        height = max(0, panel.height - fixed) if name == "fleet" else height * percent // 100
        parts[name] = pygame.Rect(panel.x + 12, y, panel.width - 24, height)
        y += height + gap * percent // 100
    spare = parts["fleet"].height - fleet_rows * FLEET_ROW        # the verdict follows the list
    if spare > 0:
        parts["fleet"].height -= spare
        parts["verdict"].y -= spare
    return parts
