"""The New puzzle dialog: size, difficulty and seed; the generator runs in a worker thread.

The generator (``solvers.authoring.generator.generate``) is always given a time limit (it then returns
the closest level it finished, or says none was) and a ``cancelled`` hook, the worker run's stop: Cancel (or the
dialog closing) stops the run, the generator stops at its next step, and whatever the worker
still says goes unread. The limit leaves out the one-time compile of clause learning (numba,
on a fresh install): a generation that meets it stops, waits for the build while the dialog
says it is compiling, and starts again. The level is saved into the
per-user ``generated`` folder before it opens, so progress saving and the level browser find
it like any other file.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import partial
from typing import Iterator

import pygame

from game import levels
from game.puzzle import DEFAULT_FLEETS, Puzzle, fleet_text
from solvers import compiling
from solvers.engine.runner import SolverRun
from window import fonts
from window.choices import DIFFICULTIES, MAX_SEED_DIGITS, NEW_PUZZLE, SIZES, Choice
from window.host import Host
from window.storage import free_level_path, generated_dir
from window.widgets import Button, draw_dialog, draw_field, edit_field, handle_all, layout_row, typed_digit

GENERATE_SECONDS = 30.0      # the generator's own limit: after it, the closest level finished comes back
STEPS = {pygame.K_LEFT: ("size", -1), pygame.K_RIGHT: ("size", 1), pygame.K_UP: ("difficulty", -1),
         pygame.K_DOWN: ("difficulty", 1)}


def generate_level(size: int, difficulty: str, seed: int, cancelled=None, progress=None) -> Puzzle:
    """The generator call (a seam: tests replace it with a slow stand-in to test Cancel);
    ``progress`` is told the stage it is at."""
    from solvers.authoring.generator import generate

    return generate(size, size, difficulty=difficulty, seed=seed, timeout=GENERATE_SECONDS,
                    cancelled=cancelled, progress=progress)


@dataclass(frozen=True)
class Outcome:
    """What the worker hands back: a level, or why there is none."""

    puzzle: Puzzle | None
    error: str = ""


class NewLevelScene:
    def __init__(self, app: Host) -> None:
        self.app = app
        self.choice: Choice = getattr(app, "new_level_choice", None) or Choice()
        app.new_level_choice = self.choice
        self.size_buttons = [Button(f"{n}x{n}", partial(self.choose_size, n)) for n in SIZES]
        self.grade_buttons = [Button(d.capitalize(), partial(self.choose_difficulty, d)) for d in DIFFICULTIES]
        self.random_button = Button("Random", self.toggle_random)
        self.generate_button = Button("Generate", self.generate)
        self.cancel_button = Button("Cancel", self.cancel)
        self.seed_rect = pygame.Rect(0, 0, 0, 0)
        self.seed_selected = False            # the whole seed typed is selected (Ctrl+A)
        self.error = ""
        self.started = 0.0
        self.asked = ""                       # "10x10 hard, seed 123" while generating
        self._told = [""]                     # the stage the worker is at (set whole, by the worker)
        self._run: SolverRun | None = None
        self._outcome: Outcome | None = None     # the worker's answer, once read
        self._sync()
        self.relayout(app.window_size)

    # ----- state ---------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._run is not None

    @property
    def animating(self) -> bool:
        return self.busy                      # the spinner turns

    @property
    def buttons(self) -> list[Button]:
        return [*self.size_buttons, *self.grade_buttons, self.random_button, self.generate_button,
                self.cancel_button]

    def _sync(self) -> None:
        for button, size in zip(self.size_buttons, SIZES):
            button.active = size == self.choice.size
            button.enabled = not self.busy
        for button, difficulty in zip(self.grade_buttons, DIFFICULTIES):
            button.active = difficulty == self.choice.difficulty
            button.enabled = not self.busy
        self.random_button.active = self.choice.random_seed
        self.random_button.enabled = not self.busy
        self.generate_button.enabled = not self.busy
        self.cancel_button.label = "Cancel" if self.busy else "Close"

    # ----- actions -------------------------------------------------------------------------

    def choose_size(self, size: int) -> None:
        self.choice.size = size
        self._sync()

    def choose_difficulty(self, difficulty: str) -> None:
        self.choice.difficulty = difficulty
        self._sync()

    def step_choice(self, what: str, step: int) -> None:
        """The arrow keys: the next or previous size (Left, Right) or difficulty (Up, Down)."""
        if what == "size":
            at = SIZES.index(self.choice.size) if self.choice.size in SIZES else 0
            self.choose_size(SIZES[max(0, min(len(SIZES) - 1, at + step))])
        else:
            at = DIFFICULTIES.index(self.choice.difficulty) if self.choice.difficulty in DIFFICULTIES else 0
            self.choose_difficulty(DIFFICULTIES[max(0, min(len(DIFFICULTIES) - 1, at + step))])

    def toggle_random(self) -> None:
        self.choice.random_seed = not self.choice.random_seed
        self._sync()

    def type_seed(self, event: pygame.event.Event) -> None:
        """Digits 0-9 and Backspace edit the seed (Ctrl+A selects it: see ``edit_field``);
        typing one turns "random" off."""
        def change(seed: str) -> str | None:
            if event.key == pygame.K_BACKSPACE:
                return seed[:-1]
            return seed + event.unicode if typed_digit(event) and len(seed) < MAX_SEED_DIGITS else None

        edited = edit_field(self.choice.seed, self.seed_selected, event, MAX_SEED_DIGITS, change)
        if edited is None:
            return
        seed, self.seed_selected = edited
        if seed != self.choice.seed or not self.seed_selected:
            self.choice.seed, self.choice.random_seed = seed, False
        self._sync()

    def generate(self) -> None:
        if self.busy:
            return
        choice = self.choice
        if choice.random_seed or not choice.seed:
            choice.seed = str(random.randrange(1, 10 ** 6))
        seed, size, difficulty = int(choice.seed), choice.size, choice.difficulty
        self.app.remember(NEW_PUZZLE, choice.to_dict())
        self.error = ""
        self.asked = f"{size}x{size} {difficulty}, seed {seed}"
        told = self._told = [""]              # this run's own: a dropped run's worker writes where none reads

        def progress(text: str) -> None:
            told[0] = text

        met_compiler: list[bool] = []

        def stopping_or_compiling() -> bool:
            """The run's stop, or the compiler met (said until the attempt ends: the generator asks
            again after the learner's wait it cut short)."""
            if not met_compiler and compiling.notice():
                met_compiler.append(True)
            return run.stopping() or bool(met_compiler)

        def stream() -> Iterator[Outcome]:
            from solvers.authoring.generator import GeneratorCancelled, GeneratorError
            from solvers.search import learning

            try:
                try:
                    yield Outcome(generate_level(size, difficulty, seed, cancelled=stopping_or_compiling,
                                                 progress=progress))
                    return
                except GeneratorCancelled:
                    if run.stopping():
                        return
                # The first attempt met the compiler: the one-time build of clause learning is
                # not the generator's time. It is waited for here (the stage line says so), then
                # the level is made with the whole limit (the same seed, the same level).
                told[0] = ""
                for _ in learning.built():
                    if run.stopping():
                        return
                yield Outcome(generate_level(size, difficulty, seed, cancelled=run.stopping, progress=progress))
            except GeneratorCancelled:
                return
            except GeneratorError as error:
                yield Outcome(None, str(error))

        self.started = time.monotonic()
        self._outcome = None
        run = SolverRun(stream, maxsize=1, name="generator")
        self._run = run.start()
        self._sync()

    def cancel(self) -> None:
        """Cancel a generation (its answer is dropped), or close the dialog when idle."""
        if self._run is None:
            self.app.close_overlay()
            return
        self.close()
        self.error = f"Cancelled ({self.asked})"
        self._notify(self.error)
        self._sync()

    def close(self) -> None:
        """Drop a generation in progress (Cancel, or the dialog going: the window closing, a
        level dropped on it): the worker stops at its next step and ends. The choices made are
        kept for the next windows."""
        self.app.remember(NEW_PUZZLE, self.choice.to_dict())
        if self._run is not None:
            self._run.stop(timeout=0.0)
        self._run = None
        self._outcome = None

    def _notify(self, message: str) -> None:
        self.app.notify(message)

    # ----- per frame -----------------------------------------------------------------------

    def update(self, dt: float) -> bool:
        """Collect the worker's answer; True while the spinner needs redrawing."""
        if self._run is None:
            return False
        for item in self._run.poll(4):
            self._outcome = item if isinstance(item, Outcome) else Outcome(None, getattr(item, "message", str(item)))
        if not self._run.finished:
            return True
        self._run = None
        outcome, self._outcome = self._outcome, None
        self._sync()
        if outcome is None or outcome.puzzle is None:
            self.error = f"Could not generate {self.asked}: {outcome.error if outcome else 'no answer'}"
            self._notify(self.error)
            return True
        self._open(outcome.puzzle)
        return True

    def _open(self, puzzle: Puzzle) -> None:
        seconds = time.monotonic() - self.started
        size, seed = f"{puzzle.rows}x{puzzle.cols}", self.choice.seed
        path = generated_dir() / f"{size}-{puzzle.difficulty}-{seed}.bs"
        try:
            # The same seed gives the same level, except when the time limit cut the search short.
            path = free_level_path(path, puzzle)
            levels.save(puzzle, path)
        except OSError as error:
            self.error = f"Could not save the new level: {error}"
            self._notify(self.error)
            return
        self.app.close_overlay()
        if not self.app.open_level(path):
            return
        note = "" if puzzle.difficulty == self.choice.difficulty else (
            f" (no {self.choice.difficulty} level found in {GENERATE_SECONDS:.0f} s: this is the closest)")
        self._notify(f"New {size} level, graded {puzzle.difficulty}, seed {seed}, made in {seconds:.1f} s{note}")

    # ----- events, layout, drawing ---------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                busy = self.busy
                self.cancel()                 # idle: this closes the dialog already
                if busy:
                    self.app.close_overlay()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.generate()
            elif event.key in STEPS and not self.busy:
                self.step_choice(*STEPS[event.key])
            elif not self.busy:
                self.type_seed(event)
            return
        handle_all(self.buttons, event)

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        box = pygame.Rect(0, 0, min(560, width - 40), min(380, height - 40))
        box.center = (width // 2, height // 2)
        self.box = box
        inner = box.inflate(-40, 0)
        layout_row(self.size_buttons, pygame.Rect(inner.x + 110, box.y + 70, inner.width - 110, 34))
        layout_row(self.grade_buttons, pygame.Rect(inner.x + 110, box.y + 150, inner.width - 110, 34))
        self.seed_rect = pygame.Rect(inner.x + 110, box.y + 200, 150, 34)
        self.random_button.rect = pygame.Rect(self.seed_rect.right + 10, box.y + 200, 100, 34)
        self.generate_button.rect = pygame.Rect(box.right - 270, box.bottom - 54, 130, 38)
        self.cancel_button.rect = pygame.Rect(box.right - 130, box.bottom - 54, 110, 38)

    def draw(self, surface: pygame.Surface) -> None:
        theme, box = self.app.theme, self.box
        draw_dialog(surface, theme, box, "New puzzle", title_at=(20, 18))
        left = box.x + 20
        for label, y in (("Size", 87), ("Difficulty", 167), ("Seed", 217)):
            fonts.blit_text(surface, label, 20, theme.text, bold=True, midleft=(left, box.y + y))
        # The fleet under the size buttons; in a narrow dialog from its left edge, smaller before it is cut.
        fleet = f"Fleet: {fleet_text(DEFAULT_FLEETS.get(self.choice.size, ()))}"
        x = left + 110 if fonts.first_whole([fleet], 17, box.width - 150) else left
        text, size = fonts.shrink_to_fit(fleet, 17, box.right - 20 - x)
        fonts.blit_text(surface, text, size, theme.muted, topleft=(x, box.y + 112))
        if self.choice.random_seed:
            draw_field(surface, theme, self.seed_rect, "", False)
            fonts.blit_text(surface, "random", 20, theme.muted, midleft=(self.seed_rect.x + 6, self.seed_rect.centery))
        else:
            draw_field(surface, theme, self.seed_rect, self.choice.seed or "0", False, size=20,
                       selected=self.seed_selected)
        room = box.right - self.seed_rect.x - 16
        keys = fonts.fit_text("type digits to fix a seed; arrows: size, difficulty", 15, room)
        fonts.blit_text(surface, keys, 15, theme.muted,
                        topleft=(self.seed_rect.x, self.seed_rect.bottom + 4))
        for button in self.buttons:
            button.draw(surface, theme)
        # Progress and errors get a line of their own above the buttons.
        status = pygame.Rect(left, self.generate_button.rect.y - 48, box.width - 40, 34)
        if self.busy:
            elapsed = time.monotonic() - self.started
            self._draw_spinner(surface, (status.x + 14, status.centery), elapsed)
            text = fonts.fit_text(f"Generating {self.asked}... {elapsed:.1f} s", 17, status.width - 34)
            stage = "; ".join(filter(None, (self._told[0], compiling.notice())))
            if stage:                           # a second, smaller line under the first
                fonts.blit_text(surface, text, 17, theme.text, midleft=(status.x + 34, status.y + 8))
                fonts.blit_text(surface, fonts.fit_text(stage, 14, status.width - 34), 14, theme.muted,
                                topleft=(status.x + 34, status.y + 19))
            else:
                fonts.blit_text(surface, text, 17, theme.text, midleft=(status.x + 34, status.centery))
        elif self.error:
            fonts.blit_text(surface, fonts.fit_text(self.error, 17, status.width), 17, theme.error,
                            midleft=(status.x, status.centery))

    def _draw_spinner(self, surface: pygame.Surface, center: tuple[int, int], elapsed: float) -> None:
        theme = self.app.theme
        rect = pygame.Rect(0, 0, 24, 24)
        rect.center = center
        start = -elapsed * 2 * math.pi          # one turn a second
        pygame.draw.arc(surface, theme.panel_edge, rect, 0, 2 * math.pi, 3)
        pygame.draw.arc(surface, theme.button_active, rect, start, start + math.pi * 0.6, 4)
