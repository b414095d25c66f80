"""Replaying a saved trace: a timeline to scrub through every event of a run.

The board at any event is rebuilt from the trace file (``solvers.engine.trace.board_at``:
forward from the nearest checkpoint), so a long run costs no memory here beyond one byte of
kind, one of step start and two of depth per event, a few bytes per search decision and eight per explained
step, read once when the trace opens: the sentences themselves stay in the file and are read
again for the lines on screen. A trace changed under the open replay is said on the status
line; the last board read stays. Drag the timeline, or use the arrow keys (Shift: 100 events), Home and End; the buttons
jump to the previous or next guess, backtrack, dead end (the event before a backtrack) and
solution. Beside the board, the decisions in force at the event (a click on one goes there);
above the timeline, the search depth over the whole run (``window.depth_plot``).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

import pygame

from game import files
from game.levels import LevelError
from game.puzzle import Cell, Coord
from solvers.engine import registry
from solvers.engine import trace as traces
from solvers.events import Status, verdict_said
from window import depth_plot, fonts
from window.depth_plot import DepthSketch, draw_depth
from window.host import Host
from window.list_view import ListView, Row
from window.mini_board import Board, MiniBoard
from window.panel_views import decision_said, draw_decisions, draw_plot
from window.storage import generated_dir
from window.widgets import Button, handle_all, layout_row

GIF_FRAMES = 120
GIF_SECONDS = 6.0            # the whole run, whatever its length
BUTTON_WIDTH = 110           # a jump button's width where the window has room
BUTTON_LEAST = 90            # the narrowest a jump button gets before the row wraps


def fleet_board(run: traces.Trace, fleet: Sequence, colours: dict, theme) -> Board:
    """The run's starting board with ``fleet``'s ships on it (``[row, col, length, "h" or
    "v"]``, a generation's best fleet), their cells coloured ``best_fleet`` in ``colours``."""
    puzzle = run.puzzle
    shown = [list(line) for line in run.start]          # the given cells, the rest unknown
    for row, col, length, way in fleet:
        for i in range(length):
            r, c = (row, col + i) if way == "h" else (row + i, col)
            if 0 <= r < puzzle.rows and 0 <= c < puzzle.cols:
                shown[r][c] = Cell.SHIP
                colours[(r, c)] = theme.best_fleet
    return tuple(tuple(line) for line in shown)


def write_gif(run: traces.Trace, path: Path, theme, frames: int = GIF_FRAMES,
              fleet_at: Callable[[int], Sequence] | None = None,
              colours_at: Callable[[int], dict] | None = None) -> int:
    """Draw the board at ``frames`` events spread evenly over the run (the first and the
    last included) and save them as an animated GIF with Pillow; the number of frames.
    ``fleet_at(n)``: the best fleet shown at event n (the genetic algorithm's), and
    ``colours_at(n)``: the cells coloured at event n (the guesses in force), drawn as the
    replay draws them."""
    from PIL import Image

    puzzle = run.puzzle
    cell = max(8, min(32, 480 // max(puzzle.rows, puzzle.cols)))
    surface = pygame.Surface(((puzzle.cols + 1) * cell, (puzzle.rows + 1) * cell))
    picture = MiniBoard()
    count = max(2, min(frames, run.events + 1))
    images = []
    for k in range(count):
        n = round(k * run.events / (count - 1))
        surface.fill(theme.background)
        fleet = fleet_at(n) if fleet_at is not None else ()
        colours: dict = dict(colours_at(n)) if colours_at is not None else {}
        board = fleet_board(run, fleet, colours, theme) if fleet else traces.board_at(run, n)
        picture.draw(surface, theme, (0, 0), cell, board, puzzle.hints, (puzzle.row_tallies, puzzle.col_tallies),
                     colours)
        image = Image.frombytes("RGB", surface.get_size(), pygame.image.tobytes(surface, "RGB"))
        images.append(image.quantize(colors=64))
    duration = max(20, round(GIF_SECONDS * 1000 / count))
    files.write_with(path, lambda handle: images[0].save(handle, format="GIF", save_all=True,
                                                        append_images=images[1:], duration=duration,
                                                        loop=0, optimize=False))
    return count


KIND_CODE = {kind: code for code, kind in enumerate(traces.KINDS)}
GUESS, BACKTRACK, FOUND = KIND_CODE["guess"], KIND_CODE["backtrack"], KIND_CODE["found"]
GENERATION = KIND_CODE["generation"]
MARK = {GUESS: depth_plot.GUESS, BACKTRACK: depth_plot.BACKTRACK}
MAX_GENERATIONS = 100_000           # points kept for the fitness plot
MAX_DETAILS = 1_000                 # distinct decision sentences kept (each decision keeps an index)
SHOWN_STEPS = 512                   # explained steps' sentences kept read (those on screen and near)
KNOB = 9                            # the timeline knob's radius: it is grabbed past either end of the track
KEYS = ("arrows, Shift+arrows, Home, End; drag; G, B, D: the next guess, backtrack, dead end (Shift: the one "
        "before); S: the solution; Ctrl+S: GIF; Up, Down, Enter: the steps; Esc: close")
QUIT_CHECK_EVERY = 1 << 15          # events read between looks for a request to close


class Closed(Exception):
    """The window was asked to close (its close box, or SIGTERM, which SDL turns into the
    same request) while a long trace was being read."""


def closing() -> bool:
    """Whether a request to close the window is waiting (outside the loop, which handles it)."""
    return pygame.display.get_init() and bool(pygame.event.peek(pygame.QUIT))


class Steps(Sequence):
    """An explaining solver's steps, (first event, sentence) each, shown in order: a step
    starts where the sentence changes. Only the event and the file offset of each step's
    line are kept; a sentence is read from the trace when asked for (the last few kept)."""

    def __init__(self) -> None:
        self.events = array("I")
        self.offsets = array("I")              # widened to 8 bytes past 4 GB of trace
        self.run: traces.Trace | None = None
        self._read: dict[int, str] = {}

    def add(self, n: int, offset: int) -> None:
        self.events.append(n)
        if offset > 0xFFFF_FFFF and self.offsets.typecode == "I":
            self.offsets = array("Q", self.offsets)
        self.offsets.append(offset)

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = self.events[k]                     # IndexError past the end, as a list
        k %= len(self)
        text = self._read.get(k)
        if text is None:
            if len(self._read) >= SHOWN_STEPS:
                self._read.clear()
            text = self._read[k] = str(traces.line_at(self.run, self.offsets[k]).get("detail") or "")
        return n, text

    def current(self, n: int) -> int:
        """The step in force at event ``n`` (-1 before the first)."""
        return bisect_right(self.events, n) - 1


class StepRows(Sequence):
    """The steps as the list's rows, the one in force at the scene's event ticked; a row is
    made when it is drawn."""

    def __init__(self, scene: ReplayScene) -> None:
        self.scene = scene

    def __len__(self) -> int:
        return len(self.scene.timeline.steps)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        steps = self.scene.timeline.steps
        n, text = self.scene._reading(steps.__getitem__, (steps.events[k], ""), k)
        return Row(f"{k % len(self) + 1}. {text}", n, ticked=k % len(self) == steps.current(self.scene.at))


def dropped_note(run: traces.Trace) -> str:
    """What a trace that starts part way through its run says of it ("" for a whole run)."""
    if not run.dropped:
        return ""
    return (f"The start of this run was dropped: its first {run.dropped:,} events are not in the trace, "
            f"which begins at event {run.dropped + 1:,} of the run")


class Timeline:
    """What each event of a trace is (its kind and search depth), for jumps and the depth plot;
    filled line by line while the trace is read (``read_trace(path, timeline.add)``)."""

    def __init__(self, progress: Callable[[int], None] | None = None) -> None:
        self.progress = progress                   # told the events read so far, now and then
        self.explains = False                      # the solver explains its steps: list them
        self.kinds = bytearray(1)                  # event 0 is the starting board
        self.depth = DepthSketch()
        self.steps = Steps()                       # each deduction's first event and its sentence
        self._last_detail = ""
        self.dead_ends = bytearray()
        self.solution_at = 0
        self.with_stats = array("I")               # events whose line carries statistics
        self.generations: list[tuple[int, int, float, float]] = []   # (event, number, best, mean)
        # The events that start a step: a guess or backtrack event unless the event before
        # (heartbeats aside) was one of its kind at the same depth, as a ship placed or taken
        # back cell by cell is one step. The jumps land on these.
        self.starts = bytearray(1)
        self._last_change = (0, -1)                # the kind and depth of the last board change
        # The decisions: per search depth, the event each one starts at, its first cell
        # (row * 256 + col, times 2, plus 1 for ship) and its sentence (an index into
        # ``details``): the guess events that start a step.
        self.decisions: dict[int, tuple[array, array, array]] = {}
        self.details: list[str] = [""]
        self._detail_index: dict[str, int] = {"": 0}
        self.depths = array("H", [0])              # the search depth at each event
        self.dropped = 0                           # the run's events before the trace's first

    def add(self, n: int, data: dict, offset: int = 0) -> None:
        if n == 0:                                 # the header
            solver = data.get("solver")
            self.explains = solver in registry.SOLVERS and registry.get(solver).explains
            return
        if not n % QUIT_CHECK_EVERY:
            if closing():
                raise Closed
            if self.progress is not None:
                self.progress(n)
        kind = KIND_CODE.get(data.get("kind", ""), 0)
        self.kinds.append(kind)
        stats = data.get("stats")
        if stats:
            self.with_stats.append(n)
            if kind == GENERATION and len(self.generations) < MAX_GENERATIONS:
                self.generations.append((n, int(stats.get("generation", 0)), float(stats.get("best", 0) or 0),
                                         float(stats.get("mean", 0) or 0)))
        detail = data.get("detail") or ""
        starts = False
        if "depth" in data:                        # an event that changes the board
            depth = int(data["depth"] or 0)
            starts = kind in (GUESS, BACKTRACK) and self._last_change != (kind, depth)
            self._last_change = (kind, depth)
            if starts and kind == GUESS:
                self._add_decision(n, depth, data.get("cells") or (), detail)
        else:                                      # a heartbeat, a solution met: the depth stays
            depth = self.depths[-1]
        self.starts.append(starts)
        self.depths.append(depth)
        self.depth.add(depth, MARK.get(kind, 0))
        if self.explains and detail and detail != self._last_detail:
            self.steps.add(n, offset)
            self._last_detail = detail

    def _add_decision(self, n: int, depth: int, cells: Sequence[dict[str, Any]], detail: str) -> None:
        first: dict[str, Any] = cells[0] if cells else {"row": 0, "col": 0, "state": "water"}
        index = self._detail_index.get(detail)
        if index is None:
            index = len(self.details) if len(self.details) < MAX_DETAILS else 0
            if index:
                self._detail_index[detail] = index
                self.details.append(detail)
        events, where, sentence = self.decisions.setdefault(depth, (array("I"), array("I"), array("H")))
        events.append(n)
        where.append((first["row"] * 256 + first["col"]) * 2 + (first["state"] == "ship"))
        sentence.append(index)

    def guesses_at(self, n: int) -> list[tuple[int, Coord, bool, str]]:
        """The decisions in force at event ``n``, shallowest first:
        for each depth up to it, the last decision taken there by event ``n`` (a backtrack
        above a depth ends its decisions, so a later one there starts after it). Each as
        (first event, first cell, ship?, sentence)."""
        found = []
        for d in range(1, self.depths[n] + 1):
            events, where, sentence = self.decisions.get(d, ((), (), ()))
            k = bisect_right(events, n) - 1
            if k >= 0:
                code = where[k]
                found.append((events[k], divmod(code >> 1, 256), bool(code & 1), self.details[sentence[k]]))
        return found

    def taken_before(self, n: int, listed: Sequence | None = None) -> int:
        """The decisions in force at event ``n`` that the trace does not hold, made before
        its first event when its start was dropped: the depth counts every decision in
        force, ``guesses_at`` lists (``listed``, when given) those the trace holds, the deepest."""
        if not self.dropped:
            return 0
        return max(0, self.depths[n] - len(self.guesses_at(n) if listed is None else listed))

    def finish(self, run: traces.Trace) -> Timeline:
        self.dropped = run.dropped
        self.steps.run = run
        self._last_detail = ""
        events = run.events
        self.dead_ends = bytearray(events + 1)
        for n in range(1, events):
            if self.kinds[n + 1] == BACKTRACK and self.kinds[n] != BACKTRACK:
                self.dead_ends[n] = 1
        self.solution_at = next((n for n in range(1, events + 1) if self.kinds[n] == FOUND), events)
        return self

    @classmethod
    def read(cls, path, progress: Callable[[int], None] | None = None) -> tuple[traces.Trace, Timeline]:
        """Read and check a trace, indexing it in the same pass (LevelError if damaged);
        ``progress`` is told the events read every ``QUIT_CHECK_EVERY``."""
        timeline = cls(progress)
        run = traces.read_trace(path, timeline.add)
        return run, timeline.finish(run)

    def has(self, what: str) -> bool:
        """Whether the run has an event of that kind to jump to (a guess, a backtrack or a
        dead end: a genetic or logic run makes no guess)."""
        if what == "dead end":
            return any(self.dead_ends)
        return KIND_CODE[what] in self.kinds

    def jump(self, now: int, what: str, forward: bool) -> int:
        """The nearest event of that kind after (or before) ``now``; ``now`` if there is none."""
        if what == "solution":
            return self.solution_at
        marks = self.dead_ends if what == "dead end" else None
        code = None if marks is not None else KIND_CODE[what]
        steps = range(now + 1, len(self.kinds)) if forward else range(now - 1, 0, -1)
        for n in steps:
            if (marks[n] if marks is not None else self.kinds[n] == code and self.starts[n]):
                return n
        return now


class ReplayScene:
    covers_window = True

    def __init__(self, app: Host, run: traces.Trace, timeline: Timeline) -> None:
        self.app = app
        self.picture = MiniBoard()
        self.run = run
        self.timeline = timeline
        self.at = run.events
        self._board = None
        self._board_at = -1
        self._lines: dict[int, dict] = {}
        self._guesses: list = []
        self._guesses_at = -1
        self._guess_rows: list[tuple[pygame.Rect, int]] = []    # drawn decision lines and their events
        self.dragging = False
        self.buttons: list[Button] = []
        for what in ("guess", "backtrack", "dead end"):
            self.buttons.append(Button(f"< {what}", partial(self.jump, what, False)))
            self.buttons.append(Button(f"{what} >", partial(self.jump, what, True)))
        self.buttons.append(Button("solution", partial(self.jump, "solution", True)))
        for button in self.buttons:             # a jump to what the run never has is greyed
            what = button.label.strip("<> ")
            button.enabled = run.solution is not None if what == "solution" else timeline.has(what)
        self.buttons.append(Button("Export GIF", lambda: self._reading(self.export_gif, None)))
        self.buttons.append(Button("Close", app.close_overlay))
        self.steps = ListView([])
        self.steps.rows = StepRows(self)
        self.problem = ""                      # the trace changed under the replay: said on the status line
        self.said = ""                         # what the last export did, drawn where a problem is
        self.relayout(app.window_size)

    animating = False

    def goto(self, n: int) -> None:
        self.at = max(0, min(self.run.events, n))
        self._follow_step()

    def _follow_step(self) -> None:
        """The list of steps keeps the one in force at the current event in sight, the
        keyboard on it (Up, Down: the step before or after)."""
        if self.timeline.steps:
            current = self.timeline.steps.current(self.at)
            self.steps.select(current if current >= 0 else None)
            if current < 0:                     # before the first step: the list from its top
                self.steps.scroll = 0

    def jump(self, what: str, forward: bool) -> None:
        """To the nearest event of that kind after (or before) the current one (``Timeline.jump``)."""
        self.goto(self.timeline.jump(self.at, what, forward))

    def _reading(self, read, default, *args):
        """``read(*args)``, which reads the trace again; if the file changed since it was
        opened, ``default``, and the problem goes to the status line."""
        try:
            return read(*args)
        except (LevelError, OSError) as error:
            self.problem = str(error) if isinstance(error, LevelError) else \
                f"{self.run.path}: cannot be read again ({files.reason(error)})"
            return default

    def board(self):
        if self._board_at != self.at:
            board = self._reading(traces.board_at, None, self.run, self.at)
            if board is None:                  # the file changed: the last board read stays
                return self._board or self.run.start
            self._board, self._board_at = board, self.at
        return self._board

    def event(self) -> dict:
        """The line of the event the timeline is on (empty at event 0)."""
        return self._line(self.at)

    def _line(self, n: int) -> dict:
        """Event n's line (empty for 0, or when the file changed since it was read); the few
        lines a frame shows are read once, not every frame."""
        if n == 0:
            return {}
        line = self._lines.get(n)
        if line is None:
            if len(self._lines) >= 8:
                self._lines.clear()
            line = self._lines[n] = self._reading(lambda: next(traces.events(self.run, n))[1], {})
        return line

    def stats_at(self) -> dict:
        """The statistics as they were at the current event: those of the last line up to it
        that carries any (heartbeats and generations), and at the last event the result's
        (the run's final figures; a short run may have no heartbeat at all)."""
        if self.at >= self.run.events and self.run.stats:
            return dict(self.run.stats)
        index = bisect_right(self.timeline.with_stats, self.at) - 1
        if index < 0:
            return {}
        return dict(self._line(self.timeline.with_stats[index]).get("stats") or {})

    def fleet_at(self, n: int | None = None) -> list:
        """The best fleet of the last generation up to event ``n`` (the current one when
        None); at the end of a solved run the board is the solution instead (a run stopped or
        out of time keeps its last best fleet in sight, as the window showed it)."""
        n = self.at if n is None else n
        generations = self.timeline.generations
        index = bisect_right(generations, (n, float("inf"))) - 1
        if index < 0 or (n >= self.run.events and self.run.solution is not None):
            return []
        return self._line(generations[index][0]).get("fleet") or []

    def update(self, dt: float) -> bool:
        return False

    def export_gif(self, path: Path | None = None, frames: int = GIF_FRAMES) -> Path | None:
        """The run as an animated GIF of the board at ``frames`` events spread over it."""
        path = path or generated_dir() / f"{files.slug(Path(self.run.path).stem, 'run')}.gif"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_gif(self.run, path, self.app.theme, frames, self.fleet_at, self.colours_at)
        except OSError as error:
            self.said = f"Could not export: {files.reason(error)}"
            self.app.notify(self.said)
            return None
        self.said = f"Saved {path}"
        self.app.notify(self.said)
        return path

    # ----- input and layout ----------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            step = 100 if event.mod & pygame.KMOD_SHIFT else 1
            moves = {pygame.K_LEFT: self.at - step, pygame.K_RIGHT: self.at + step,
                     pygame.K_HOME: 0, pygame.K_END: self.run.events}
            jumps = {pygame.K_g: "guess", pygame.K_b: "backtrack", pygame.K_d: "dead end"}
            if event.key in moves:
                self.goto(moves[event.key])
            elif event.key in jumps:                       # Shift: the one before
                self.jump(jumps[event.key], not event.mod & pygame.KMOD_SHIFT)
            elif event.key == pygame.K_s and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.jump("solution", True)
            elif event.key == pygame.K_s:
                self._reading(self.export_gif, None)
            elif self.timeline.steps and event.key != pygame.K_ESCAPE:
                chosen = self.steps.key(event)[1]          # Up, Down, Enter: a step of the list
                if chosen is not None:
                    self.goto(chosen)
            elif event.key == pygame.K_ESCAPE:
                self.app.close_overlay()
            return
        if handle_all(self.buttons, event):
            return
        if self.timeline.steps:
            chosen = self.steps.handle(event)
            if chosen is not None:
                self.goto(chosen)
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for rect, n in self._guess_rows:
                if rect.collidepoint(event.pos):
                    self.goto(n)
                    return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and \
                self.track.inflate(2 * KNOB + 2, 24).collidepoint(event.pos):
            self.dragging = True
            self.goto(self._event_at(event.pos[0]))
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self.goto(self._event_at(event.pos[0]))
        elif event.type == pygame.MOUSEBUTTONUP:
            self.dragging = False

    def _event_at(self, x: int) -> int:
        fraction = min(1.0, max(0.0, (x - self.track.x) / max(1, self.track.width)))
        return round(fraction * self.run.events)

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        self.size = size
        self.track = pygame.Rect(20, height - 50, width - 40, 8)
        self.plot = pygame.Rect(20, height - 150, width - 40, 84)
        # The jump buttons in as many rows as the width needs, at most BUTTON_WIDTH each.
        jumps = [button for button in self.buttons if button.label != "Close"]
        per_row = max(1, min(len(jumps), (width - 40 + 6) // (BUTTON_LEAST + 6)))
        rows = -(-len(jumps) // per_row)
        self.controls_top = height - 196 - (rows - 1) * 36
        for row in range(rows):
            part = jumps[row * per_row:(row + 1) * per_row]
            layout_row(part, pygame.Rect(20, self.controls_top + row * 36,
                                         min(width - 40, len(part) * (BUTTON_WIDTH + 6) - 6), 30))
        self.buttons[-1].rect = pygame.Rect(width - 110, 14, 90, 32)          # Close
        puzzle = self.run.puzzle
        area_h = self.controls_top - 70
        self.cell = max(1, min(44, (width // 2) // (puzzle.cols + 1), area_h // (puzzle.rows + 1)))   # inside its area
        left = 40 + (puzzle.cols + 1) * self.cell
        self.steps.rect = pygame.Rect(left, 60 + 5 * 24, width - left - 20, max(60, self.controls_top - 16 - 180))
        self._follow_step()

    # ----- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        theme, run = self.app.theme, self.run
        surface.fill(theme.background)
        title = (f"Replay: {run.puzzle.name or 'level'} - {run.solver}, {run.events:,} events, "
                 f"{verdict_said(Status(run.verdict), run.message)}")
        fonts.blit_text(surface, fonts.fit_text(title, 24, self.size[0] - 160, bold=True), 24, theme.text, bold=True,
                        topleft=(20, 14))
        note = self.problem or self.said or dropped_note(run)
        if note:
            fonts.blit_text(surface, fonts.fit_text(note, 15, self.size[0] - 160), 15,
                            theme.error if self.problem else theme.muted, topleft=(20, 40))
        puzzle = run.puzzle
        board, colours = self.board(), self._colours()
        fleet = self.fleet_at()
        if fleet:                              # the genetic algorithm's best fleet at that generation
            board = fleet_board(run, fleet, colours, theme)
        self.picture.draw(surface, theme, (20, 60), self.cell, board, puzzle.hints,
                          (puzzle.row_tallies, puzzle.col_tallies), colours)
        self._draw_details(surface, pygame.Rect(40 + (puzzle.cols + 1) * self.cell, 60, 0, 0))
        for button in self.buttons:
            button.draw(surface, theme)
        if self.timeline.steps:
            self.steps.draw(surface, theme)
        self._draw_plot(surface)
        self._draw_track(surface)

    def _colours(self) -> dict[Coord, tuple]:
        return self.colours_at(self.at)

    def colours_at(self, n: int) -> dict[Coord, tuple]:
        """The cells coloured at event ``n``: the guesses in force, and the event's own cells
        in its kind's colour."""
        if n == 0:
            return {}
        theme = self.app.theme
        guesses = self.guesses_in_force() if n == self.at else self.timeline.guesses_at(n)
        colours = {cell: theme.guess for _, cell, _, _ in guesses}
        data = self._line(n)
        colour = {"guess": theme.guess, "forced": theme.forced}.get(data.get("kind", ""))
        if colour:
            colours.update({(c["row"], c["col"]): colour for c in data.get("cells", ())})
        return colours

    def guesses_in_force(self) -> list[tuple[int, Coord, bool, str]]:
        """The decisions in force at the current event (see ``Timeline.guesses_at``)."""
        if self._guesses_at != self.at:
            self._guesses, self._guesses_at = self.timeline.guesses_at(self.at), self.at
        return self._guesses

    def _draw_details(self, surface: pygame.Surface, at: pygame.Rect) -> None:
        theme = self.app.theme
        data = self.event()
        lines = [f"event {self.at:,} of {self.run.events:,}"]
        width = self.size[0] - at.x - 20
        if data:
            # The event's sentence over up to three lines: a trial's conclusion is at its end.
            said = f"{data.get('kind')}" + (f": {data['detail']}" if data.get("detail") else "")
            lines += fonts.wrap(said, 17, width, most=3)
            # A player's play (``T``) records the trials open where a solver records its guesses.
            depth = "trials open" if self.run.solver == "player" else "guesses in force"
            lines.append(f"{depth}: {self.timeline.depths[self.at]}")
        else:
            lines.append("the starting board")
        if data:
            lines += fonts.flow(self._stat_texts(), 17, width, gap="    ")
        shown = lines[:5 if self.timeline.steps else 12]
        for i, line in enumerate(shown):
            fonts.blit_text(surface, fonts.fit_text(line, 17, width), 17, theme.text if i else theme.muted,
                            topleft=(at.x, at.y + i * 24))
        self._guess_rows = []
        if self.timeline.decisions and not self.timeline.steps:
            self._draw_guesses(surface, pygame.Rect(at.x, at.y + len(shown) * 24 + 12, width,
                                                    self.controls_top - 16 - (at.y + len(shown) * 24 + 12)))
        if self.timeline.generations:
            points = [(number, best, mean) for n, number, best, mean in self.timeline.generations if n <= self.at]
            top = at.y + len(shown) * 24 + 8
            draw_plot(surface, pygame.Rect(at.x, top, min(width, 420), 150), points, theme,
                      more=len(points) < len(self.timeline.generations))

    def _stat_texts(self) -> list[str]:
        """The statistics at the current event as "name: value", numbers first, then those
        that hold several (a solver's count per rule)."""
        def number(value: Any) -> str:
            return f"{value:,}" if isinstance(value, int) else f"{value:g}" if isinstance(value, float) else str(value)

        def text(key: str, value: Any) -> str:
            if isinstance(value, dict):
                return f"{key}: " + ", ".join(f"{name} {number(part)}" for name, part in value.items())
            return f"{key}: {number(value)}"
        stats = sorted(self.stats_at().items(), key=lambda item: (isinstance(item[1], dict), item[0]))
        return [text(key, value) for key, value in stats]

    def _draw_guesses(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The decisions in force, deepest last; a click on one moves the timeline there."""
        theme = self.app.theme
        guesses = self.guesses_in_force()
        earlier = self.timeline.taken_before(self.at, guesses)
        if area.height < 40 or not guesses and not earlier:
            return
        rows = draw_decisions(surface, area, "Decisions in force (click to go there)", guesses, _said, theme,
                              earlier=earlier)
        self._guess_rows.extend((rect, decision[0]) for rect, decision in rows)

    def _draw_plot(self, surface: pygame.Surface) -> None:
        """Search depth per pixel column (its deepest), guesses above, backtracks below; drawn
        once per size and theme, since it covers the whole run."""
        key = (self.plot.size, self.app.theme)
        if getattr(self, "_plot_key", None) != key:
            self._plot_key, self._plot_picture = key, self._plot_surface()
        surface.blit(self._plot_picture, self.plot)

    def _plot_surface(self) -> pygame.Surface:
        picture = pygame.Surface(self.plot.size)
        draw_depth(picture, picture.get_rect(), self.timeline.depth, self.app.theme)
        return picture

    def _draw_track(self, surface: pygame.Surface) -> None:
        theme, track = self.app.theme, self.track
        pygame.draw.rect(surface, theme.panel_edge, track, border_radius=4)
        x = track.x + round(track.width * self.at / max(1, self.run.events))
        pygame.draw.rect(surface, theme.button_active, (track.x, track.y, x - track.x, track.height), border_radius=4)
        pygame.draw.circle(surface, theme.button_active, (x, track.centery), KNOB)
        sawtooth = depth_plot.sawtooth_area(self.plot)        # the caption above it stays clear
        pygame.draw.line(surface, theme.cursor, (x, sawtooth.top), (x, sawtooth.bottom), 1)
        for n, line in enumerate(fonts.fill(KEYS, fonts.SMALLEST, [track.width] * 2)):    # the rest cut on the second
            fonts.blit_text(surface, line, fonts.SMALLEST, theme.muted, topleft=(track.x, track.bottom + 8 + 16 * n))


def _said(decision) -> str:
    """A decision in force of the replay's list: its cell, what it set, its event."""
    n, (r, c), ship, detail = decision
    return f"{decision_said(r, c, ship, detail)} (event {n:,})"
