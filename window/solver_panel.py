"""The solver part of the side panel: pick a solver, Run/Pause/Step/Stop/Reset, speed, stats.

It owns the current :class:`SolverWatch` (if any). While a watch exists the board shows the
solver's copy; :meth:`reset` (or "Keep board", which the player's board takes) gives the board back.
"""

from __future__ import annotations

import shutil
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable, Mapping

import pygame

from game import files, levels
from game.puzzle import Puzzle
from solvers.common import count
from solvers.engine import registry
from solvers.engine.trace import Recording
from window import fonts
from window.depth_plot import draw_depth, draw_per_depth
from window.panel_views import decision_said, draw_decisions, draw_lines, draw_plot
from window.solver_watch import SolverWatch, make_stream
from window.storage import runs_dir
from window.theme import Theme
from window.widgets import Button, StepSlider, handle_all, layout_row

SOLVER_LABELS = {name: spec.label for name, spec in registry.every().items()}
LOAD_LABEL = "Load..."
PER_ROW = 5
LEAST_PER_ROW = 3       # solvers' buttons to a row in a narrow panel, before their names are cut
SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 0)
SPEED_LABELS = tuple("instant" if s == 0 else f"{s} move/s" if s == 1 else f"{s} moves/s" for s in SPEEDS)
ROW = 30
LINE = 21             # a line of figures (draw_lines at its size, 18)
LEGEND = 18           # a line of the legend
COUNTS = ("nodes", "backtracks", "propagated")   # the counts the panel shows, where the run says them
STATS_ROOM = 110      # the statistics' heading, two lines of figures and the run's status line
DEPTH_ROOM = 120      # below the last move: the depth plot (90) and the guesses' heading under it
# Beyond STATS_ROOM, what the statistics take down to the depth plot's room: the whole heading,
# three lines of figures, the legend, the status and the last move's line, then DEPTH_ROOM.
PLOT_ROOM = 26 + 3 * LINE + 4 + LEGEND + 6 + 22 + 20 + DEPTH_ROOM + 1 - STATS_ROOM
GAP = 8
UNBOUNDED = 1 << 20   # pixels: the height of a panel that holds every control (to measure them)
# A run's trace keeps at most its latest million events (about 110 MB; Rewind opens it in
# seconds); a longer run's trace starts part way, and the replay says so.
KEPT_EVENTS = 1_000_000


def speed_index(speed: float) -> int:
    if speed <= 0:
        return len(SPEEDS) - 1
    return min(range(len(SPEEDS) - 1), key=lambda i: abs(SPEEDS[i] - speed))


class SolverPanel:
    def __init__(self, puzzle: Puzzle, settings: Mapping[str, Any], notify: Callable[[str], None],
                 on_keep: Callable[[], None], on_rewind: Callable[[Path], object] | None = None,
                 title: str = "level", on_load: Callable[[Callable[[str], bool]], object] | None = None) -> None:
        self.puzzle = puzzle
        self.settings = settings
        self.notify = notify
        self.labels = dict(SOLVER_LABELS)      # the built-in and installed solvers, then those loaded
        self.solver = str(settings.get("ui", {}).get("solver", "forward"))
        if self.solver not in self.labels:
            self.solver = "forward"
        self.on_load = on_load
        self.speed = float(settings.get("ui", {}).get("speed", 60))
        self.watch: SolverWatch | None = None
        self.runs = 0
        self.choices: list[Button] = []
        self._make_choices()
        self.run_button = Button("Run", self.run_or_pause)
        self.step_button = Button("Step", self.step)
        self.stop_button = Button("Stop", self.stop)
        self.reset_button = Button("Reset", self.put_away)
        self.keep_button = Button("Keep solver's board", on_keep)
        self.on_rewind = on_rewind
        self.title = title
        self.rewind_button = Button("Rewind", self.rewind)
        self.save_button = Button("Save run", self.save_run)
        self.slider = StepSlider(SPEEDS, SPEED_LABELS, speed_index(self.speed), self.set_speed)
        self.area = pygame.Rect(0, 0, 0, 0)
        self.stats_area = pygame.Rect(0, 0, 0, 0)
        self._room: dict[int, int] = {}
        self._sync()

    @property
    def widgets(self) -> list:
        return [*self.choices, self.run_button, self.step_button, self.stop_button, self.reset_button,
                self.keep_button, self.rewind_button, self.save_button, self.slider]

    @property
    def showing(self) -> bool:
        """The board shows the solver's copy instead of the player's marks."""
        return self.watch is not None

    @property
    def running(self) -> bool:
        return self._running_watch() is not None

    def _running_watch(self) -> SolverWatch | None:
        """The watch of a run that is going (paused or not); None when none is."""
        watch = self.watch
        return watch if watch is not None and watch.running else None

    # ----- actions -------------------------------------------------------------------------

    def _make_choices(self) -> None:
        self.choices = [Button(label, partial(self.choose, name)) for name, label in self.labels.items()]
        if self.on_load is not None:
            self.choices.append(Button(LOAD_LABEL, partial(self.on_load, self.add_solver)))
        area = getattr(self, "area", None)
        if area is not None and area.width:
            self.place(area)

    def choose(self, name: str) -> None:
        self.solver = name
        self._sync()

    def add_solver(self, name: str) -> bool:
        """A solver of one's own (``mine.py`` or ``cmd:PROGRAM``) beside the others, chosen;
        one that cannot be loaded is reported in one line."""
        try:
            spec = registry.get(name)
        except ValueError as error:
            self.notify(str(error))
            return False
        self.labels[name] = spec.label
        self._make_choices()
        self.choose(name)
        self.notify(f"{spec.label} loaded ({name}): Run it, or race it (V)")
        return True

    @property
    def own_choice(self) -> str | None:
        """The chosen solver when it is one of one's own loaded here (a race opened from the
        panel's level gives it a lane), else None."""
        return self.solver if self.solver not in SOLVER_LABELS else None

    @property
    def slug(self) -> str:
        """The chosen solver's name as a file name's part."""
        return files.slug(self.labels.get(self.solver, self.solver), "solver")

    def set_speed(self, speed: float) -> None:
        """Moves per second (0: instant), the slider moved to it."""
        self.speed = speed
        self.slider.index = speed_index(speed)
        if self.watch is not None:
            self.watch.speed = speed

    def start(self, paused: bool = False) -> bool:
        """Run the chosen solver on a copy of the board; False (and said why) when it cannot run."""
        return self._start(paused) is not None

    def _start(self, paused: bool) -> SolverWatch | None:
        self.reset()
        options: Mapping[str, Any] = self.settings.get(self.solver) or {}
        seed = int(self.settings.get("ui", {}).get("seed", 1))
        try:
            make = make_stream(self.solver, self.puzzle, dict(options or {}), seed + self.runs)
        except (ImportError, ValueError, AttributeError) as error:
            self.notify(f"The {self.solver} solver is not available: {error}")
            return None
        self.runs += 1
        shown = self.solver if self.solver in registry.SOLVERS else self.labels[self.solver]
        self.watch = watch = SolverWatch(self.puzzle, shown, make, speed=self.speed,
                                         recording=self._recording(dict(options or {}), seed + self.runs - 1),
                                         solver=self.solver)
        watch.pause(paused)
        self.notify(f"{self.labels[self.solver]} started; the board shows its copy")
        self._sync()
        return watch

    def _recording(self, options: dict, seed: int) -> Recording | None:
        """Every run is saved as a trace as it goes (the last one of each solver), to rewind."""
        try:
            folder = runs_dir()
            folder.mkdir(parents=True, exist_ok=True)
            chosen = registry.get(self.solver).resolve(options)
            return Recording(folder / f"last-{self.slug}.jsonl", self.puzzle, self.solver, chosen, seed,
                             most=KEPT_EVENTS)
        except OSError as error:
            self.notify(f"This run cannot be recorded ({files.reason(error)}); it runs all the same")
            return None

    def rewind(self) -> None:
        """The run on the replay timeline: a finished run's trace, or a paused run's so far."""
        watch = self.watch
        if watch is None or self.on_rewind is None:
            return
        path = watch.trace_path
        if path is None and watch.running and watch.paused:
            try:
                path = watch.snapshot(runs_dir() / f"paused-{self.slug}.jsonl")
            except OSError as error:
                self.notify(f"Could not save the run so far: {files.reason(error)}")
                return
        if path is not None:
            self.on_rewind(path)

    def save_run(self) -> Path | None:
        """Keep the finished run's trace under a name of its own in the per-user folder."""
        path = self.watch.trace_path if self.watch is not None else None
        if path is None:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{files.slug(self.title, 'level')}-{self.slug}-{stamp}.jsonl")
        try:
            with levels.open_regular(path, "a trace") as source:     # a device's endless bytes, a FIFO: refused
                files.write_with(target, lambda handle: shutil.copyfileobj(source, handle))
        except (OSError, levels.LevelError) as error:
            reason = error.reason if isinstance(error, levels.LevelError) else files.reason(error)
            self.notify(f"Could not save the run: {reason}")
            return None
        self.notify(f"Run saved as {target}")
        return target

    def hold(self) -> bool:
        """Pause a run that is going (a race is opened over it: its lanes get the machine to
        themselves); True if there was one to pause."""
        watch = self._running_watch()
        if watch is None or watch.paused:
            return False
        watch.pause(True)
        self._sync()
        return True

    def run_or_pause(self) -> None:
        watch = self._running_watch()
        if watch is not None:
            watch.pause()
            self.notify(watch.status_text())
        else:
            self.start()
        self._sync()

    def step(self) -> None:
        watch = self._running_watch()
        if watch is None:
            watch = self._start(paused=True)
            if watch is None:
                return
        watch.step()
        self._sync()

    def stop(self) -> None:
        watch = self._running_watch()
        if watch is not None:
            watch.stop()
            self.notify("Stopped: keep the solver's board, or Reset to get your own marks back")
        self._sync()

    def reset(self) -> None:
        """Safe at any time: stops a run and shows the player's board again."""
        if self.watch is not None:
            self.watch.stop()
            self.watch = None
        self._sync()

    def put_away(self) -> None:
        """Reset as the player asks it (the button, Esc): the player's board again, and said so
        (the run's last word, "Keep its board, or Reset", no longer holds)."""
        if self.showing:
            self.reset()
            self.notify("Solver reset: your own marks are back")

    def close(self) -> None:
        self.reset()

    def _sync(self) -> None:
        for button, name in zip(self.choices, [*self.labels, None]):
            button.active = name == self.solver
            button.enabled = not self.running
        live = self._running_watch()
        paused = live is not None and live.paused
        self.run_button.label = "Resume" if paused else ("Pause" if self.running else "Run")
        self.stop_button.enabled = self.running
        self.reset_button.enabled = self.showing
        self.keep_button.enabled = self.showing and not self.running
        recorded = self.watch is not None and self.watch.trace_path is not None
        paused = self.watch is not None and self.watch.running and self.watch.paused
        self.rewind_button.enabled = (recorded or paused) and self.on_rewind is not None
        self.save_button.enabled = recorded

    # ----- per frame -----------------------------------------------------------------------

    def update(self, dt: float) -> bool:
        if self.watch is None:
            return False
        was_running = self.watch.running
        changed = self.watch.pump(dt)
        if was_running and self.watch.finished:
            problem = self.watch.recording_problem
            self.notify(self.watch.status_text() + (f"; {problem}" if problem else "") + " - Keep its board, or Reset")
            self._sync()
        # Elapsed time and moves/s tick while running even when no move arrives.
        return changed or self.watch.running

    def handle(self, event: pygame.event.Event) -> bool:
        if handle_all(self.widgets, event):
            self._sync()
            return True
        return False

    # ----- layout and drawing --------------------------------------------------------------

    def room(self, width: int) -> int:
        """The height the controls take at ``width`` (as :meth:`place` lays them out), with
        ``STATS_ROOM`` for the statistics' first lines: the fleet checklist above leaves it."""
        if width not in self._room:
            area, stats = self.area, self.stats_area
            self.place(pygame.Rect(0, 0, width, UNBOUNDED))
            self._room[width] = self.stats_area.y + STATS_ROOM
            self.place(area)
            self.stats_area = stats
        return self._room[width]

    def place(self, area: pygame.Rect) -> None:
        """Widgets in ``area`` (top part of it); the statistics take the rest. The solvers'
        buttons come first and the run's controls under them; in a panel too short for both
        (the smallest window's), the run's controls first, so that Run, Step and Stop stay
        in sight (a solver is chosen by key there too: M lists them)."""
        self.area = area
        controls = [self.run_button, self.step_button, self.stop_button, self.reset_button]
        top = area.y + 26
        y = self._place_choices(area, top)
        if y + ROW <= area.bottom:
            layout_row(controls, pygame.Rect(area.x, y, area.width, ROW), gap=4)
            y += ROW + GAP
        else:
            layout_row(controls, pygame.Rect(area.x, top, area.width, ROW), gap=4)
            y = self._place_choices(area, top + ROW + GAP)
        y += 20
        self.slider.rect = pygame.Rect(area.x + 10, y, area.width - 20, 16)
        y += 24
        half, quarter = area.width // 2, area.width // 4
        self.keep_button.rect = pygame.Rect(area.x, y, half - 4, ROW)
        self.rewind_button.rect = pygame.Rect(area.x + half, y, quarter - 4, ROW)
        self.save_button.rect = pygame.Rect(area.x + half + quarter, y, area.width - half - quarter, ROW)
        y += ROW + GAP
        self.stats_area = pygame.Rect(area.x, y, area.width, area.bottom - y)
        # A panel too short for every control leaves out those past its bottom (the slider's
        # knob reaches below it): M lists them all with their keys.
        for widget in self.widgets:
            if widget.rect.bottom + (8 if widget is self.slider else 0) > area.bottom:
                widget.rect = pygame.Rect(0, 0, 0, 0)

    def _place_choices(self, area: pygame.Rect, top: int) -> int:
        """The solvers' buttons from ``top`` down, PER_ROW to a row, or fewer where their names
        would be cut short (the rows then evenly filled); the y below them."""
        for most in range(PER_ROW, LEAST_PER_ROW - 1, -1):
            per_row = -(-len(self.choices) // -(-len(self.choices) // most))
            y = top
            for start in range(0, len(self.choices), per_row):
                row = self.choices[start:start + per_row]
                width = (area.width + 4) * len(row) // per_row - 4
                layout_row(row, pygame.Rect(area.x, y, width, ROW), gap=4)
                y += ROW + GAP
            if all(button.shown()[0] == button.label for button in self.choices):
                break
        return y

    def look(self) -> tuple:
        """Everything :meth:`draw` shows, cheap to compare: the panel is drawn again only when it changes."""
        watch = self.watch
        run = None if watch is None else (watch.version, f"{watch.elapsed:.1f}", f"{watch.moves_per_second:,.0f}")
        return tuple(self.area), tuple(widget.look() for widget in self.widgets), run

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        fonts.blit_text(surface, "Solver", 22, theme.text, bold=True, topleft=(self.area.x, self.area.y))
        for widget in self.widgets:
            widget.draw(surface, theme)
        if self.slider.rect.width > 0:
            fonts.blit_text(surface, f"Speed: {SPEED_LABELS[self.slider.index]}", 17, theme.muted,
                            topleft=(self.area.x, self.slider.rect.y - 20))
        self._draw_stats(surface, theme)

    def _draw_stats(self, surface: pygame.Surface, theme: Theme) -> None:
        """The run's figures, legend, status and plots, each only where it fits whole: a short
        window's panel leaves the statistics what the fleet and the controls do not take."""
        area = self.stats_area
        if area.height < 22:
            return
        fonts.blit_text(surface, "Statistics", 22, theme.text, bold=True, topleft=(area.x, area.y))
        watch = self.watch
        y = area.y + 26
        if watch is None:
            text, size = fonts.shrink_to_fit("Run a solver to watch it work on a copy of the board.", 16,
                                             area.width, smallest=13)
            if y + size <= area.bottom:
                fonts.blit_text(surface, text, size, theme.muted, topleft=(area.x, y))
            return
        stats = watch.stats

        def number(key: str) -> str:
            return "-" if stats.get(key) is None else f"{count(stats, key):,}"

        # A count the run has said, or "-" for each before it says any: a solver that never
        # counts one (the backtracking sets no cell by deduction) shows no row for it.
        rows = [(key, number(key)) for key in COUNTS if key in stats or not stats]
        rows += [("elapsed", f"{watch.elapsed:.1f} s"), ("moves", f"{watch.moves:,}"),
                 ("moves/s", f"{watch.moves_per_second:,.0f}")]
        if watch.generation is not None:
            g = watch.generation
            rows += [("generation", f"{g.number:,}"), ("restarts", str(g.restarts)),
                     ("best", f"{g.best:g}"), ("mean", f"{g.mean:.2f}")]
        rows = rows[:2 * max(0, (area.bottom - y) // LINE)]
        y += draw_lines(surface, pygame.Rect(area.x, y, area.width, 200), rows, theme) + 4
        if y + LEGEND > area.bottom:
            return
        y = self._draw_legend(surface, theme, pygame.Rect(area.x, y, area.width, area.bottom - y)) + 6
        if y + 22 > area.bottom:
            return
        fonts.blit_text(surface, fonts.fit_text(watch.status_text(), 17, area.width, bold=True), 17,
                        theme.solved if watch.solved else theme.text, bold=True, topleft=(area.x, y))
        y += 22
        if watch.last_detail and y + 20 <= area.bottom:
            # An explaining solver's sentence whole, over a few lines (a trial's conclusion
            # comes last); a searching solver's short reason on one.
            said = "last: " + watch.last_detail
            for row in fonts.wrap(said, 16, area.width, most=6) if watch.explains else [said]:
                if y + 20 > area.bottom:
                    break
                fonts.blit_text(surface, fonts.fit_text(row, 16, area.width), 16, theme.muted, topleft=(area.x, y))
                y += 20
        if watch.generation is not None or watch.name == "genetic":
            if area.bottom - y < 92:
                return
            plot = pygame.Rect(area.x, y + 4, area.width, min(150, area.bottom - y - 8))
            draw_plot(surface, plot, list(watch.generations), theme, more=watch.running)
            y = plot.bottom + 8
        elif watch.depth.top > 0 and area.bottom - y > DEPTH_ROOM:
            plot = pygame.Rect(area.x, y + 4, area.width, 90)
            draw_depth(surface, plot, watch.depth, theme)
            y = plot.bottom + 6
            if watch.finished and area.bottom - y > 120:
                bars = pygame.Rect(area.x, y, area.width, 70)
                draw_per_depth(surface, bars, watch.depth, theme)
                y = bars.bottom + 6
        self._draw_guesses(surface, theme, pygame.Rect(area.x, y, area.width, area.bottom - y))

    def _draw_legend(self, surface: pygame.Surface, theme: Theme, area: pygame.Rect) -> int:
        """What the move colours and glyphs mean, on as many lines as ``area``'s width needs
        (and ``area``'s height allows); the y below them."""
        x, y = area.x, area.y
        for label, colour, glyph in (("forced", theme.forced, "square"), ("guess", theme.guess, "corner"),
                                     ("backtracked", theme.backtrack, "cross"), ("tried", theme.guess, "ring")):
            if x + 16 + fonts.font(15).size(label)[0] > area.right and x > area.x:
                if y + 2 * LEGEND > area.bottom:
                    break
                x, y = area.x, y + LEGEND
            box = pygame.Rect(x, y + 3, 12, 12)
            if glyph == "square":               # as on the board: its colour and a small square
                pygame.draw.rect(surface, colour, box, border_radius=2)
                pygame.draw.rect(surface, theme.on(colour), (box.right - 5, box.bottom - 5, 3, 3))
            elif glyph == "corner":
                pygame.draw.polygon(surface, colour, [box.topleft, box.topright, box.bottomleft])
            elif glyph == "cross":
                pygame.draw.line(surface, colour, box.topleft, box.bottomright, 2)
                pygame.draw.line(surface, colour, box.topright, box.bottomleft, 2)
            else:
                pygame.draw.rect(surface, colour, box, 2, border_radius=2)
            x = fonts.blit_text(surface, label, 15, theme.muted, midleft=(box.right + 4, box.centery)).right + 12
        return y + LEGEND

    def _draw_guesses(self, surface: pygame.Surface, theme: Theme, area: pygame.Rect) -> None:
        watch = self.watch
        if watch is None:           # drawn with the statistics, which are a run's
            return
        guesses = watch.guesses
        if area.height < 40 or (not guesses and watch.name in ("genetic", "logic")):
            return
        draw_decisions(surface, area, f"Guesses in force: {len(guesses)}", guesses, _said, theme, bold=True)


def _said(guess) -> str:
    """A guess in force of the panel's list: its depth, its (first) cell and its detail or value."""
    r, c = guess.cells[0]
    more = f" ({len(guess.cells)} cells)" if len(guess.cells) > 1 else ""
    return f"{guess.depth:>2}. {decision_said(r, c, int(guess.value) == 2, guess.detail)}{more}"
