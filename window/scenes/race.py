"""The race: two to four solvers on the same puzzle, side by side, each in a lane of its own.

Each lane is a :class:`SolverWatch` (its board, statistics and, for the genetic algorithm, its
fitness plot). At an animation speed every lane takes the same number of moves per second, so
the race is on work; at "instant" each lane gets an equal share of the frame and the race is
on wall time. When every lane has finished, a table ranks them; it can be saved as CSV.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Sequence

import pygame

from game import files
from game.puzzle import Cell, Coord, Puzzle
from solvers.common import count
from solvers.engine import race, registry
from solvers.events import Reason, Result, Status
from window import fonts
from window.host import Host
from window.looks import Looks
from window.mini_board import MiniBoard
from window.panel_views import PLOT_SHORTEST, draw_plot
from window.solver_watch import SolverWatch, make_stream
from window.storage import generated_dir
from window.widgets import Button, StepSlider, handle_all, layout_row

SPEEDS = (1, 5, 20, 100, 500, 0)
SPEED_LABELS = ("1/s", "5/s", "20/s", "100/s", "500/s", "instant")
STATS_EVERY = 0.1                   # seconds between renewals of a running lane's figures
PLOT_LEAST = PLOT_SHORTEST          # pixels: a lane's fitness plot is drawn when it has this much height
# The results table's columns, as shares of its width (1 unless named): the rank is a digit, the
# verdict "solved (judged)" (equal columns cut it below about 1,000 pixels).
TABLE_SHARES = {"rank": 0.6, "solver": 1.1, "verdict": 1.5, "generations": 1.1}
MOST_LANES = 4
FRAME_WORK = 0.012                  # seconds of solver events per frame, shared by the lanes
STATUS_ROOM = 20                    # pixels under the lanes for the status line, at the window's foot
TABLE_GAP = 8                       # pixels between the lanes and the table, or the status line over it


def with_solver(chosen: Sequence[str], name: str) -> list[str]:
    """The solvers of a race with ``name`` in its last lane: the first of the others kept, four
    lanes in all at most."""
    return [n for n in chosen if n != name][:MOST_LANES - 1] + [name]


def lane_record(watch: SolverWatch) -> dict:
    """One lane's record, built as a headless race builds its own (``race.record_of``), the
    solver named by its registered name as there."""
    result = watch.result
    if result is None:
        result = Result(Status.ERROR if watch.failure else Status.STOPPED, None, {}, (), watch.failure or "")
    elif result.status is Status.SOLVED and not watch.solved:
        result = Result(Status.ERROR, None, result.stats, (), "the judge rejects the solver's board")
    return race.record_of(watch.solver, watch.tally, result, watch.elapsed)


class RaceScene:
    covers_window = True                # the app need not draw the play scene beneath

    def __init__(self, app: Host, puzzle: Puzzle, title: str = "level", chosen: Sequence[str] | None = None,
                 speed: int | None = None) -> None:
        """``chosen``: the solvers of its lanes (default: every one that can run on the level);
        ``speed``: the index of its speed (default: instant)."""
        self.app = app
        self.puzzle = puzzle
        self.title = title
        self.chosen: list[str] = list(chosen or race.choose(puzzle))[:MOST_LANES]
        self.lanes: list[SolverWatch] = []
        self.pictures: list[MiniBoard] = []
        self._stats: dict[SolverWatch, tuple] = {}   # a lane's figures as text, and when they were made
        self.looks = Looks()                      # what each part showed when last drawn
        self.status = ""
        self.specs = dict(registry.every())
        for name in list(self.chosen):
            try:
                self.specs.setdefault(name, registry.get(name))
            except ValueError as error:
                self.chosen.remove(name)
                self.status = str(error)
        self.order = list(self.specs)
        self.toggles = {name: Button(spec.label, partial(self.toggle, name)) for name, spec in self.specs.items()}
        self.load_button = Button("Load...", self.load)
        self.start_button = Button("Start", self.start)
        self.stop_button = Button("Stop", self.stop)
        self.save_button = Button("Save CSV", self.save_csv)
        self.close_button = Button("Close", self.close_scene)
        self.speed = StepSlider(SPEEDS, SPEED_LABELS, len(SPEEDS) - 1 if speed is None else speed, self._set_speed)
        self.relayout(app.window_size)

    # ----- control -------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return any(lane.running for lane in self.lanes)

    @property
    def finished(self) -> bool:
        return bool(self.lanes) and not self.running

    @property
    def animating(self) -> bool:
        return self.running

    def can_toggle(self, name: str) -> bool:
        """Whether ``name`` may join or leave the race: not while it runs, and only a solver
        that can run on the level."""
        return not self.running and race.runnable(self.specs[name], self.puzzle)

    def toggle(self, name: str) -> None:
        if not self.can_toggle(name):
            return
        if name in self.chosen:
            self.chosen.remove(name)
        elif len(self.chosen) < MOST_LANES:
            self.chosen.append(name)

    def load(self) -> None:
        """The file picker for a solver of one's own; it takes the scene's place, so not while
        the race runs (the button's look is set as the scene draws, a frame late)."""
        if not self.running:
            self.app.pick_solver(self.add_solver, back=self)

    def add_solver(self, name: str) -> bool:
        """The race again with a solver of one's own (``mine.py``, ``cmd:PROGRAM``) in a lane;
        one that cannot be loaded brings this race back, saying why."""
        try:
            registry.get(name)
        except ValueError as error:
            self.status = str(error)
            self.app.show(self)
            return False
        self.app.open_race(with_solver(self.chosen, name), speed=self.speed.index)
        return True

    def start(self) -> None:
        if self.running:
            return
        if len(self.chosen) < 2:
            self.status = "Pick two to four solvers"
            return
        self.lanes = []
        self._stats = {}
        self.status = ""
        for name in sorted(self.chosen, key=self.order.index):
            try:
                make = make_stream(name, self.puzzle, {}, seed=0)
            except ValueError as error:
                self.status = str(error)
                continue
            lane = SolverWatch(self.puzzle, self.specs[name].label, make, speed=self.speed.value, solver=name)
            self.lanes.append(lane)
        self.pictures = [MiniBoard() for _ in self.lanes]
        self._share_frame()
        self.relayout(self.app.window_size)

    def _share_frame(self) -> None:
        for lane in self.lanes:
            lane.frame_budget = FRAME_WORK / max(1, len(self.lanes))

    def _set_speed(self, speed: float) -> None:
        for lane in self.lanes:
            lane.speed = speed

    def stop(self) -> None:
        """Every lane is told at once, then each is waited for: all end within one stop's time."""
        for lane in self.lanes:
            lane.signal_stop()
        for lane in self.lanes:
            lane.stop()

    def close_scene(self) -> None:
        self.stop()
        self.app.close_overlay()

    close = stop                        # the app calls close() when the overlay goes away

    def records(self) -> list[dict]:
        return race.rank([lane_record(lane) for lane in self.lanes])

    def lane_status(self, lane: SolverWatch) -> str:
        """A lane's line: its own, but a "no solution" refuted by another lane's judged board
        says so, as the table does (``race.rank``)."""
        if lane.result is not None and lane.result.status is Status.NO_SOLUTION and any(
                other.solved for other in self.lanes):
            record = next(r for r in self.records() if r["solver"] == lane.solver)
            if record["verdict"] == Status.ERROR.value:
                return f"{lane.name}: {record['message']}"
        return lane.status_text()

    def save_csv(self) -> Path | None:
        if not self.finished:
            self.status = "The table is ready when every lane has finished"
            return None
        path = generated_dir() / f"race-{files.slug(self.title, 'level')}.csv"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            race.write_csv(path, self.records())
        except OSError as error:
            self.status = f"Could not save: {files.reason(error)}"
            return None
        self.status = f"Saved {path}"
        return path

    def update(self, dt: float) -> bool:
        changed = False
        for lane in self.lanes:
            changed |= lane.pump(dt)
        return changed or self.running

    # ----- input and layout ----------------------------------------------------------------

    @property
    def buttons(self) -> list[Button]:
        return [*self.toggles.values(), self.load_button, self.start_button, self.stop_button, self.save_button,
                self.close_button]

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
            digit = event.key - pygame.K_1 if pygame.K_1 <= event.key <= pygame.K_9 else -1
            if event.key == pygame.K_ESCAPE:
                self.close_scene()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.start() if not self.running else self.stop()
            elif ctrl and event.key == pygame.K_s:
                self.save_csv()
            elif event.key == pygame.K_l and not ctrl:
                self.load()
            elif 0 <= digit < len(self.order) and not ctrl:
                self.toggle(self.order[digit])
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.speed.set_index(self.speed.index + (1 if event.key == pygame.K_RIGHT else -1))
            return
        handle_all([self.speed, *self.buttons], event)

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        self.size = size
        toggles = [*self.toggles.values(), self.load_button]
        # Start, Stop and the speed with its label fit the window: in a narrow one they move left
        # and the solvers' buttons narrow.
        controls = min(width // 2 + 40, width - 320)
        layout_row(toggles, pygame.Rect(20, 56, min(110 * len(toggles), controls - 40), 32))
        self.start_button.rect = pygame.Rect(controls, 56, 90, 32)
        self.stop_button.rect = pygame.Rect(controls + 96, 56, 90, 32)
        self.speed.rect = pygame.Rect(controls + 210, 72, max(40, min(width // 2 - 390, width - controls - 280)), 4)
        self.save_button.rect = pygame.Rect(width - 250, 14, 110, 32)
        self.close_button.rect = pygame.Rect(width - 130, 14, 110, 32)
        self._place_lanes()

    def _place_lanes(self) -> None:
        """The lanes side by side, above the status line and the results table once every lane
        has finished (so each lane keeps its board, its figures and its plot in sight). Over the
        table the status line takes room only while it has something to say."""
        width, height = self.size
        shown = max(1, len(self.lanes))
        lane_w = (width - 40) // shown
        if self.finished:
            bottom = self.table_box().top - (STATUS_ROOM if self.status else TABLE_GAP)
        else:
            bottom = height - STATUS_ROOM
        self._lanes_placed = self._lanes_key()
        self.lane_rects = [pygame.Rect(20 + k * lane_w, 104, lane_w - 12, max(60, bottom - 104)) for k in range(shown)]

    def _lanes_key(self) -> tuple:
        """What the lanes' places depend on."""
        return self.size, max(1, len(self.lanes)), self.finished, bool(self.status)

    def table_box(self) -> pygame.Rect:
        """Where the results table goes: a header and a row per lane, at the foot of the window."""
        rows = len(self.lanes) + 1
        return pygame.Rect(20, self.size[1] - 30 - 24 * rows, self.size[0] - 40, 24 * rows + 14)

    # ----- drawing -------------------------------------------------------------------------

    draws_changes = True                # draw(surface, full) draws what changed and names where

    def draw(self, surface: pygame.Surface, full: bool = False) -> list[pygame.Rect] | None:
        """Draw what changed since the last frame (everything when ``full``, or when the
        controls, the lanes' set or the table changed): while a race runs that is each lane's
        changed cells, its figures ten times a second and its plot. The areas drawn (None: all)."""
        theme = self.app.theme
        for name, button in self.toggles.items():
            button.active = name in self.chosen
            button.enabled = self.can_toggle(name)
        self.load_button.enabled = not self.running
        self.start_button.enabled = not self.running
        self.stop_button.enabled = self.running
        self.save_button.enabled = self.finished
        scene = (theme, self.size, tuple(self.lanes), self.finished, self.status,
                 tuple(button.look() for button in self.buttons), self.speed.look())
        if self.looks.changed("scene", scene) or full:
            self.looks.forget("scene")
            if self._lanes_placed != self._lanes_key():
                self._place_lanes()
            self._draw_all(surface)
            return None
        areas: list[pygame.Rect] = []
        cell = self._cell()
        for k, (lane, picture, rect) in enumerate(zip(self.lanes, self.pictures, self.lane_rects)):
            areas += self._draw_lane(surface, k, lane, picture, rect, cell)
        return areas

    def _draw_all(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        surface.fill(theme.background)
        title = fonts.fit_text(f"Race: {self.title}", 26, self.size[0] - 300, bold=True)
        fonts.blit_text(surface, title, 26, theme.text, bold=True, topleft=(20, 14))
        for button in self.buttons:
            button.draw(surface, theme)
        self.speed.draw(surface, theme)
        fonts.blit_text(surface, SPEED_LABELS[self.speed.index], 15, theme.muted,
                        midleft=(self.speed.rect.right + 14, self.speed.rect.centery))
        if not self.lanes:
            hint = self.status or ("Pick two to four solvers (keys 1 to 9), a speed (Left / Right), and Start (Enter); "
                                   "L loads a solver, Ctrl+S saves the table, Esc closes")
            fonts.blit_text(surface, fonts.fit_text(hint, 18, self.size[0] - 40), 18, theme.muted, topleft=(20, 120))
            return
        cell = self._cell()
        for k, (lane, picture, rect) in enumerate(zip(self.lanes, self.pictures, self.lane_rects)):
            self._draw_lane(surface, k, lane, picture, rect, cell)
        if self.finished:
            self._draw_table(surface)
        elif self.status:
            fonts.blit_text(surface, fonts.fit_text(self.status, 16, self.size[0] - 40), 16, theme.text,
                            bottomleft=(20, self.size[1] - 4))

    def _cell(self) -> int:
        """The lanes' cell size: the smallest any lane leaves, so that the boards compared side by
        side are drawn alike. In each lane the board takes three fifths of it, or in a short lane
        what its figures and its plot leave, in cells of 4 pixels at least, but never more than
        the lane holds (a large board in a narrow lane). The figures that do not fit under it are
        left out: a lane that short is a finished race's, above the table that shows them all."""
        puzzle, cells = self.puzzle, [1]
        for lane, rect in zip(self.lanes, self.lane_rects):
            below = 22 + 19 * len(self._stat_lines(lane)) + (PLOT_LEAST if lane.generations else 0)
            board_h = min(rect.height * 3 // 5, rect.height - below)
            across = (rect.width - 20) // (puzzle.cols + 1)
            cells.append(max(1, min(across, (rect.height - 62) // (puzzle.rows + 1),
                                    max(4, min(across, (board_h - 60) // (puzzle.rows + 1))))))
        return min(cells[1:] or cells)

    def _draw_lane(self, surface: pygame.Surface, k: int, lane: SolverWatch, picture: MiniBoard,
                   rect: pygame.Rect, cell: int) -> list[pygame.Rect]:
        """The lane's parts that changed (all of it after ``looks.forget``), its board in cells of
        ``cell`` pixels; the areas drawn. A part drawn alone first paints its own background."""
        theme, puzzle = self.app.theme, self.puzzle
        status = self.lane_status(lane)
        lines = self._stat_lines(lane) + self._reason_lines(lane, status, rect.width)
        if self.looks.changed(f"lane {k}", (len(lines), cell)):    # the plot sits below the figures
            pygame.draw.rect(surface, theme.panel, rect, border_radius=8)
            pygame.draw.rect(surface, theme.panel_edge, rect, 1, border_radius=8)
            fonts.blit_text(surface, fonts.fit_text(lane.name, 20, rect.width - 20, bold=True), 20, theme.text,
                            bold=True, topleft=(rect.x + 10, rect.y + 8))
            self.looks.drop(f"status {k}", f"board {k}", f"figures {k}", f"plot {k}")
            areas = [rect]
        else:
            areas = []
        inner = rect.inflate(-4, 0)
        if self.looks.changed(f"status {k}", (status, lane.solved)):
            area = pygame.Rect(inner.x, rect.y + 32, inner.width, 20)
            pygame.draw.rect(surface, theme.panel, area)
            colour = theme.solved if lane.solved else theme.muted
            fonts.blit_text(surface, fonts.fit_text(status, 15, rect.width - 20), 15, colour,
                            topleft=(rect.x + 10, rect.y + 34))
            areas.append(area)
        origin = (rect.x + 10, rect.y + 58)
        first = f"board {k}" not in self.looks.keys
        if k and picture.empty:            # the lanes start alike: the first lane's picture, copied
            picture.start_from(self.pictures[0])
        if self.looks.changed(f"board {k}", lane.version):
            grid, colours = self._lane_board(lane)
            drawn = picture.draw(surface, theme, origin, cell, grid, puzzle.hints,
                                 (puzzle.row_tallies, puzzle.col_tallies), colours, only_changes=not first)
            areas += [drawn] if drawn is not None else []
        y = origin[1] + (puzzle.rows + 1) * cell + 8
        lines = lines[:max(0, (rect.bottom - 4 - y) // 19)]
        if self.looks.changed(f"figures {k}", tuple(lines)):
            area = pygame.Rect(inner.x, y, inner.width, 19 * len(lines))
            pygame.draw.rect(surface, theme.panel, area)
            for n, line in enumerate(lines):
                fonts.blit_text(surface, line, 15, theme.text, topleft=(rect.x + 12, y + 19 * n))
            areas.append(area)
        y += 19 * len(lines)
        if lane.generations and rect.bottom - y - 16 >= PLOT_LEAST:
            plot = pygame.Rect(rect.x + 10, y + 6, rect.width - 20, min(160, rect.bottom - y - 16))
            points = lane.generations
            if self.looks.changed(f"plot {k}", (len(points), points[-1], points[0], lane.running)):
                self._draw_plot(surface, lane, plot)
                areas.append(plot)
        return areas

    def _lane_board(self, lane: SolverWatch) -> tuple:
        """What the lane's board shows: its grid with a colour per cell by reason, or the
        genetic algorithm's best fleet so far."""
        theme, puzzle = self.app.theme, self.puzzle
        grid = lane.grid()
        reasons = {Reason.FORCED: theme.forced, Reason.GUESS: theme.guess}
        colours: dict[Coord, tuple] = {cell_: reasons[r] for cell_, r in lane.reasons.items() if r in reasons}
        if lane.best_fleet():
            shown = [[Cell.UNKNOWN] * puzzle.cols for _ in range(puzzle.rows)]
            for ship in lane.best_fleet():
                for r, c in ship.cells():
                    if 0 <= r < puzzle.rows and 0 <= c < puzzle.cols:
                        shown[r][c] = Cell.SHIP
                        colours[(r, c)] = theme.best_fleet
            grid = tuple(tuple(row) for row in shown)
        return grid, colours

    @staticmethod
    def _reason_lines(lane: SolverWatch, status: str, width: int) -> list[str]:
        """A finished lane's status line again in full under its figures (``width`` the lane's),
        when its one line cuts it (a solver's error and its reason), on the lines it needs."""
        if not lane.finished or fonts.fit_text(status, 15, width - 20) == fonts.visible(status):
            return []
        return fonts.fill(status, 15, [width - 24] * 6)

    def _stat_lines(self, lane: SolverWatch) -> list[str]:
        """The lane's figures as text, renewed ten times a second while it runs (each new text
        is a new rendering, and at full speed the figures change every frame)."""
        now = time.perf_counter()
        cached = self._stats.get(lane)
        if cached is not None and (lane.finished == cached[2]) and (cached[2] or now - cached[0] < STATS_EVERY):
            return cached[1]
        tally, stats = lane.tally, lane.stats
        figures = (("moves", tally.moves), ("nodes", count(stats, "nodes")),
                   ("backtracks", count(stats, "backtracks")), ("guesses", tally.guesses),
                   ("generations", count(stats, "generations", tally.generations)))
        lines = [f"time: {lane.elapsed:.2f} s"] + [f"{name}: {value:,}" for name, value in figures
                                                     if value or name == "moves"]
        self._stats[lane] = (now, lines, lane.finished)
        return lines

    def _draw_plot(self, surface: pygame.Surface, lane: SolverWatch, area: pygame.Rect) -> None:
        draw_plot(surface, area, list(lane.generations), self.app.theme, lane.running)

    def _draw_table(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        records = self.records()
        box = self.table_box()
        width = box.width
        pygame.draw.rect(surface, theme.panel, box, border_radius=8)
        pygame.draw.rect(surface, theme.panel_edge, box, 2, border_radius=8)
        columns = [field for field in race.FIELDS if field != "solution"]
        shares = [TABLE_SHARES.get(name, 1.0) for name in columns]
        lefts = [box.x + 10 + int(width * sum(shares[:i]) / sum(shares)) for i in range(len(columns))]
        widths = [right - left - 8 for left, right in zip(lefts, [*lefts[1:], box.x + 10 + width])]
        for name, left, room in zip(columns, lefts, widths):
            fonts.blit_text(surface, fonts.fit_text(name.replace("_s", " (s)"), 15, room, bold=True), 15,
                            theme.muted, bold=True, topleft=(left, box.y + 6))
        for row, record in enumerate(records, start=1):
            for name, left, room in zip(columns, lefts, widths):
                value = record[name]
                text = (race.shown_rank(record) if name == "rank" else f"{value:.2f}" if name == "time_s"
                        else self.specs[value].label if name == "solver"      # as its lane is titled
                        else f"{value:,}" if isinstance(value, int) else str(value))
                if name == "verdict" and record["solution"] is not None:
                    text += " (judged)"
                fonts.blit_text(surface, fonts.fit_text(text, 15, room), 15, theme.text,
                                topleft=(left, box.y + 6 + 24 * row))
        if self.status:
            fonts.blit_text(surface, fonts.fit_text(self.status, 15, width), 15, theme.text,
                            bottomleft=(box.x, box.y - 4))
