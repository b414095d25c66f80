"""The window's entry point and main loop: one App owns pygame, the scenes and the clock.

Scenes: the play scene is always there; the level browser, the file dialog and the New puzzle
dialog are overlays over it (a small state machine: at most one overlay). The loop sleeps in
``pygame.event.wait`` while nothing animates, and redraws only when something changed.
"""

from __future__ import annotations

import datetime
import gc
import io
import os
import sys
import time
import warnings
from collections import deque
from functools import partial
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence, Union

import pygame

from game import codes, files, formats, levels
from game.puzzle import Puzzle
from window import choices, fonts
from window import settings as settings_module
from window.choices import Choice
from window.host import LevelCache, Overlay
from window.layout import room
from window.scenes.browser import BrowserScene
from window.scenes.daily import DailyScene
from window.scenes.editor import EditorScene
from window.scenes.files import FileScene
from window.scenes.new_level import NewLevelScene
from window.scenes.pause import PauseScene
from window.scenes.play import PlayScene
from window.scenes.race import RaceScene
from window.scenes.replay import Closed, ReplayScene, Timeline, closing
from window.scenes.share import ShareScene, copy_text, pasted_text
from window.scenes.stats import StatsScene
from window.solver_panel import SOLVER_LABELS
from window.storage import Storage, daily_dir, generated_dir
from window.theme import PALETTES, THEMES, make_theme
from window.widgets import draw_shade

REPO = Path(__file__).resolve().parents[1]
LEVELS_DIR = REPO / "levels"
DEFAULT_LEVEL = LEVELS_DIR / "tutorial" / "first.bs"
DEFAULT_WINDOW = (1200, 820)
IDLE_WAIT_MS = 250               # wake up a few times a second to tick the clock display
KEY_REPEAT_DELAY = 0.4           # seconds a key is held before it repeats, then one press per...
KEY_REPEAT_EVERY = 0.04          # ...this many seconds: for the keys of REPEATING, and Ctrl+Z, Ctrl+Y
REPEATING = {pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_BACKSPACE, pygame.K_DELETE,
             pygame.K_PAGEUP, pygame.K_PAGEDOWN}
SCRIPTED_RUN_LIMIT = 300.0       # seconds: a scripted run that never ends gives up
FRAME_WORK_BUDGET = 0.008        # seconds of solver events applied per frame at most
FRAME_TARGET = 0.013             # seconds of work per frame we aim for (60 fps leaves 16.7 ms)
# A longer gap between two frames is time the program did not run (a machine asleep, a stopped
# process): the play clock and the solvers' pace count this much of it.
GAP_COUNTED = 1.0


def caption(text: str) -> str:
    """A window title the system can show: at most 200 characters, control characters (a NUL
    would stop SDL) and ones UTF-8 cannot encode shown as the window's mark for them."""
    return fonts.visible(text, 200)


def repeats(press: pygame.event.Event) -> bool:
    """Whether a key press repeats while its key is held (see ``App._repeat_held``)."""
    return press.key in REPEATING or (press.key in (pygame.K_z, pygame.K_y) and bool(press.mod & pygame.KMOD_CTRL))


def fit_to_display(size: tuple[int, int]) -> tuple[int, int]:
    """``size`` made no larger than the desktop, or than the default size on a smaller one
    (a huge setting would otherwise allocate gigabytes)."""
    desktops = pygame.display.get_desktop_sizes() or [DEFAULT_WINDOW]
    return (min(size[0], max(desktops[0][0], DEFAULT_WINDOW[0])),
            min(size[1], max(desktops[0][1], DEFAULT_WINDOW[1])))


def keep_at_least(size: tuple[int, int]) -> None:
    """Tell the window system the smallest size the window lays out for (a smaller one shows
    the top left of that layout, the status line off it), so that a window manager stops a
    resize there. Where the window cannot be reached so, nothing is done."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)     # pygame-ce's note on surfaces
            pygame.Window.from_display_module().minimum_size = size
    except (AttributeError, pygame.error):
        pass


class App:
    def __init__(self, settings_path: Union[str, Path, None] = None,
                 window: tuple[int, int] | None = None) -> None:
        self.settings, problems = settings_module.load(Path(settings_path) if settings_path else None)
        ui = self.settings.setdefault("ui", {})
        pygame.display.init()      # not pygame.init(): no sound device is needed or wanted
        pygame.font.init()
        for problem in problems:
            print(problem, file=sys.stderr)
        self.storage = Storage()
        # What the settings say of each choice the window remembers, and what the player chose
        # over them in an earlier window (``window.choices``): the solver's panels start from
        # the solver and speed chosen; the command line's options win over both.
        self.chosen_over = {key: ui.get(key) for key in choices.OVER_SETTINGS}
        self.remembered = self.storage.choices(self.chosen_over)
        ui.update({key: self.remembered[key] for key in ("solver", "speed") if key in self.remembered})
        chosen = {**self.chosen_over, **self.remembered}
        size = tuple(window) if window else fit_to_display(tuple(chosen["window"] or DEFAULT_WINDOW))
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.opened_size = self.screen.get_size()
        self.resized: tuple[int, int] | None = None     # the size the player made the window, if they did
        keep_at_least(settings_module.MIN_WINDOW)
        pygame.display.set_caption("Battleship Solitaire")
        self.theme = make_theme(str(chosen["theme"] or "light"), str(chosen["palette"] or "standard"))
        self.fps = int(ui.get("fps", 60)) or 60
        self.level_cache: LevelCache = {}
        self.play: PlayScene | None = None
        self.overlay: Overlay | None = None
        self.running = True
        self.dirty = True
        self.full_redraw = True
        self.last_folder = LEVELS_DIR if LEVELS_DIR.is_dir() else Path.cwd()
        self.frame_times: deque = deque(maxlen=100_000)   # (start, work seconds) per drawn frame
        self.startup_message = "; ".join(problems)
        # the New puzzle dialog's last settings
        self.new_level_choice: Choice | None = (Choice.from_dict(self.remembered[choices.NEW_PUZZLE])
                                                if choices.NEW_PUZZLE in self.remembered else None)
        self.focused = False                   # the window has the keyboard (it told us so)
        self.announced = ""                    # the text the last key press gave (see handle)
        self.held: tuple[pygame.event.Event, float] | None = None   # a repeating key's press, seconds to its next
        # A solver thread shares the interpreter: a short switch interval lets the window take
        # the GIL back within about a millisecond, which keeps frames even during a fast run.
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(0.001)

    @property
    def window_size(self) -> tuple[int, int]:
        """The size the scenes lay out for (a tiny window shows the top left of the smallest)."""
        return room(self.screen.get_size())

    # ----- levels and scenes ---------------------------------------------------------------

    def open_level(self, path: Union[str, Path]) -> bool:
        """Open a level file (or a share code); on failure the current game stays and the error is shown."""
        source: str | Path = str(path).strip() if codes.is_code(str(path)) else Path(path)   # str: a code
        try:
            puzzle = formats.load_any(source)
        except (levels.LevelError, OSError, UnicodeDecodeError) as error:
            message = str(error) if isinstance(error, levels.LevelError) else f"{source}: cannot read ({error})"
            if self.play is not None:
                self.play.notify(f"Could not open the level: {message}")
            else:
                self.startup_message = f"Could not open the level: {message}"
            self.dirty = True
            return False
        if isinstance(source, str):
            # named by the code as the Share dialog shows it, however it was typed or pasted
            puzzle = puzzle if puzzle.name else puzzle.replace(name=f"Shared {codes.label(codes.encode(puzzle), 16)}")
            return self.open_puzzle(puzzle)
        return self.open_puzzle(puzzle, source)

    def open_puzzle(self, puzzle: Puzzle, path: Path | None = None) -> bool:
        """Play ``puzzle`` (read from ``path``, or from nowhere: a share code, a level that
        could not be kept); the play is saved by the puzzle's content either way."""
        if self.play is not None:
            self.play.close()
        self.play = PlayScene(self, puzzle, path)
        told = [self.startup_message] if self.startup_message else []
        told += self.storage.take_messages()     # the level's saved play, if damaged, was set aside
        if told:
            self.play.notify("; ".join(told))
            self.startup_message = ""
        if path is not None:
            self.last_folder = path.resolve().parent
        pygame.display.set_caption(caption(f"Battleship Solitaire - {self.play.title}"))
        # Long-lived objects (modules, fonts, the level) leave the collector's view: a full
        # collection during a fast solver run would otherwise stall one frame by ~40 ms.
        gc.freeze()
        self.dirty = True
        return True

    def notify(self, message: str) -> None:
        if self.play is not None:
            self.play.notify(message)
        else:
            self.startup_message = message
        self.dirty = True

    def open_browser(self) -> None:
        self.overlay = BrowserScene(self, LEVELS_DIR, self.play.path if self.play is not None else None)
        self.dirty = True

    def open_files(self) -> None:
        self.overlay = FileScene(self, self.last_folder)
        self.dirty = True

    def pick_solver(self, add: Callable[[str], object], back: Overlay | None = None) -> None:
        """The file picker for a solver of one's own: a ``.py`` file, or a program (``cmd:``).
        ``back``: the overlay that asked (a race), shown again when the picker is cancelled."""
        from solvers.own.spec import command_name, pickable

        self.overlay = FileScene(self, self.last_folder, lambda path: add(command_name(path)), pickable,
                                 "Load a solver: a .py file or a program",
                                 None if back is None else partial(self.show, back))
        self.dirty = True

    def open_new_level(self) -> None:
        self.overlay = NewLevelScene(self)
        self.dirty = True

    def open_share(self, typed: str = "") -> None:
        """The current level's code to copy, and a field to open a pasted code."""
        code = codes.encode(self.play.puzzle) if self.play is not None else None
        self.overlay = ShareScene(self, code, typed)
        self.dirty = True

    def copy_code(self) -> None:
        """Ctrl+C: the current level's code on the clipboard; without one, the Share dialog."""
        if self.play is None:
            return
        code = codes.encode(self.play.puzzle)
        if copy_text(code):
            self.notify(f"Code copied to the clipboard: {code}")
        else:
            self.open_share()

    def paste_code(self) -> None:
        """Ctrl+V: open the code on the clipboard; without one, the Share dialog's paste field."""
        text = pasted_text().strip()
        if codes.is_code(text) and self.open_level(text):
            return
        self.open_share(text if codes.is_code(text) else "")

    def open_daily(self) -> None:
        self.overlay = DailyScene(self)
        self.dirty = True

    def open_stats(self) -> None:
        self.overlay = StatsScene(self)
        self.dirty = True

    def pause(self, away: bool = False) -> bool:
        """Hide the play and stop its clock until the player comes back (a click or a key);
        False when there is no clock to stop: solved, or a view already over the play (which
        stops the clock itself). ``away``: the window lost the player; a play with a solver
        running in its panel is then left as it is (a class may be watching the run).
        """
        play = self.play
        if play is None or self.overlay is not None or play.session.solved or (away and play.solver.running):
            return False
        self.overlay = PauseScene(self, play.title, play.session.elapsed)
        self.dirty = True
        return True

    def play_daily(self, day: datetime.date | None = None) -> bool:
        """Open a day's daily puzzle (default today), made once and kept in the per-user folder."""
        from solvers.authoring import daily

        day = day or datetime.date.today()
        path = daily_dir() / f"{day.isoformat()}.bs"
        kept = self.storage.kept_level(path, lambda puzzle: daily.date_of(puzzle) == day,
                                       f"daily puzzle of {day.isoformat()}")
        if kept is None:
            puzzle = daily.puzzle_of(day)
            if os.path.lexists(path):            # a damaged one that could not be moved aside: not written over
                return self.open_puzzle(puzzle)
            try:
                levels.save(puzzle, path)
            except OSError as error:             # a full disk, say: played all the same
                opened = self.open_puzzle(puzzle)
                self.notify(f"Could not keep the daily puzzle ({files.reason(error)}); it is played all the same")
                return opened
        return self.open_level(path)

    def open_editor(self, blank: bool = False) -> None:
        """The level editor, on the current level (or a blank board)."""
        if blank or self.play is None:
            self.overlay = EditorScene(self, None)
        else:
            self.overlay = EditorScene(self, self.play.puzzle, path=self.play.path)
        self.dirty = True

    def open_race(self, solvers: Sequence[str] | None = None, speed: int | None = None) -> None:
        """The race on the current level: solvers side by side."""
        if self.play is not None:
            if self.play.solver.hold():
                self.notify("The solver's run is paused for the race (Resume goes on)")
            self.overlay = RaceScene(self, self.play.puzzle, self.play.title, solvers, speed)
            self.dirty = True

    def open_replay(self, path: Union[str, Path]) -> bool:
        """A saved trace with its timeline; a damaged one is refused with its one-line error."""
        try:
            run, timeline = Timeline.read(path, self._show_reading)
        except levels.LevelError as error:
            self.notify(f"Could not open the trace: {error}")
            return False
        except Closed:                         # asked to close while a long trace was read
            self.running = False
            return False
        self.overlay = ReplayScene(self, run, timeline)
        self.dirty = True
        return True

    def _show_reading(self, events: int) -> None:
        """A long trace is being read (a minute-long run on a large board has millions of
        events, seconds to read): say how far, at the window's foot, instead of a still window."""
        width, height = self.screen.get_size()
        if self.play is None:                  # the replay opened from the command line: nothing drawn yet
            self.screen.fill(self.theme.background)
            pygame.display.flip()
        line = pygame.Rect(0, height - 30, width, 30)
        self.screen.fill(self.theme.panel, line)
        fonts.blit_text(self.screen, fonts.fit_text(f"Reading the trace: {events:,} events so far "
                                                    "(closing the window stops it)", 16, width - 24),
                        16, self.theme.text, midleft=(12, line.centery))
        pygame.display.update(line)
        pygame.event.pump()                    # the system sees the window answer

    def export_sheet(self, puzzle: Puzzle | None = None, stem: str = "",
                     tell: Callable[[str], None] | None = None) -> Path | None:
        """Ctrl+P: a level as a printable PNG page in the per-user folder, ``<stem>-sheet.png``:
        the one played (its file's stem) unless ``puzzle`` is given (the editor's). What came of
        it is said by ``tell`` (the status line unless given)."""
        tell = tell or self.notify
        if puzzle is None:
            if self.play is None:
                return None
            puzzle, stem = self.play.puzzle, self.play.path.stem if self.play.path else ""
        from window import sheets

        path = generated_dir() / f"{files.slug(stem, 'level')}-sheet.png"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            (written,) = sheets.write([sheets.Item(puzzle, sheets.title_of(puzzle, path.stem))], path, per_page=1).pages
        except OSError as error:
            tell(f"Could not export the sheet: {files.reason(error)}")
            return None
        tell(f"Printable sheet saved to {written}")
        return written

    def show(self, overlay: Overlay) -> None:
        """Any overlay a scene makes (the toolbar's list of actions), or one shown again (a race
        after its file picker), laid out for the window as it is now."""
        overlay.relayout(self.window_size)
        self.overlay = overlay
        self.full_redraw = True
        self.dirty = True

    def close_overlay(self) -> None:
        if self.play is None:                  # a replay opened on its own: closing it ends the app
            self.running = False
        if self.overlay is not None and hasattr(self.overlay, "close"):
            self.overlay.close()
        self.full_redraw = True
        self.overlay = None
        self.dirty = True

    def toggle_theme(self) -> None:
        self.full_redraw = True
        name = THEMES[(THEMES.index(self.theme.name) + 1) % len(THEMES)]
        self.theme = make_theme(name, self.theme.palette)
        self.remember("theme", name)
        self.dirty = True

    def toggle_palette(self) -> None:
        self.full_redraw = True
        palette = PALETTES[(PALETTES.index(self.theme.palette) + 1) % len(PALETTES)]
        self.theme = make_theme(self.theme.name, palette)
        self.remember("palette", palette)
        self.dirty = True

    def remember(self, key: str, value: Any) -> None:
        """Keep the player's choice of ``key`` (``window.choices``), made over what the settings
        say, for the next windows; the solver and its speed also for this window's next levels.
        A value the choice does not accept (a solver of one's own) is not kept, nor one that
        changes nothing."""
        over = self.chosen_over.get(key)
        if self.remembered.get(key, over) == value or not choices.check(key, [value, over]):
            return
        self.remembered[key] = value
        if key in ("solver", "speed"):
            self.settings["ui"][key] = value
        self.storage.keep_choice(key, value, over)

    # ----- the loop ------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self.announced = getattr(event, "unicode", "")
            self.held = (event, KEY_REPEAT_DELAY) if repeats(event) else None
        elif event.type == pygame.KEYUP and self.held is not None and event.key == self.held[0].key:
            self.held = None
        elif event.type == pygame.TEXTINPUT:
            # The text of a key press comes twice: as the key's unicode, then as text input. A
            # text no key press announced (an input method's, a key with no key code) is new.
            event.composed, self.announced = event.text != self.announced, ""
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            surface = pygame.display.get_surface()
            assert surface is not None                 # the window is open: set_mode made it
            self.screen = surface
            self.resized = surface.get_size()          # the size the next windows open at
            self.full_redraw = True
            for scene in (self.play, self.overlay):
                if scene is not None:
                    scene.relayout(self.window_size)
        elif event.type == pygame.DROPFILE:
            # Opened first: a replay opened on its own ends the window when it closes without a play.
            if self.open_level(event.file) or self.play is not None:
                self.close_overlay()
        elif event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED):
            self.full_redraw = True
        elif event.type == pygame.WINDOWFOCUSGAINED:
            self.focused = True
        elif event.type == pygame.WINDOWMINIMIZED or (event.type == pygame.WINDOWFOCUSLOST and self.focused):
            self.held = None
            # Away from the window, the player's clock stops (a focus never gained is not lost:
            # a desktop without a window manager may never give it).
            self.focused = False
            self.pause(away=True)
        elif self.overlay is not None:
            self.overlay.handle(event)
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_p and event.mod & pygame.KMOD_CTRL:
            self.export_sheet()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_v and event.mod & pygame.KMOD_CTRL:
            self.paste_code()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_c and event.mod & pygame.KMOD_CTRL:
            self.copy_code()
        elif self.play is not None:
            self.play.handle(event)
        if event.type not in (pygame.NOEVENT, pygame.MOUSEMOTION) or self.overlay is not None or (
                event.type == pygame.MOUSEMOTION and (event.buttons[0] or event.buttons[2])):
            self.dirty = True
        elif event.type == pygame.MOUSEMOTION and self.play is not None:
            self.dirty = True     # hover highlights on buttons; cheap, and only while the mouse moves

    @property
    def animating(self) -> bool:
        if self.overlay is not None and getattr(self.overlay, "animating", False):
            return True
        return self.play is not None and self.play.animating

    def frame(self, dt: float) -> None:
        """One pass: events already fetched by the caller are handled; update, draw if needed."""
        told = self.storage.take_messages()    # a damaged file set aside, a save that failed
        if told:
            self.notify("; ".join(told))
        if self.play is not None and self.play.update(dt, in_view=self.overlay is None):
            self.dirty = True
        if self.overlay is not None and self.overlay.update(dt):
            self.dirty = True
        if self.dirty:
            self.draw()
        elif self.play is not None and self.play.clock_changed and self.overlay is None:
            # Only the play clock moved: repaint the status line alone (idle costs next to nothing).
            self.play.draw_status(self.screen)
            pygame.display.update(self.play.layout.status)

    def draw(self) -> None:
        """Draw everything and show it (only the changed areas when the scene can tell)."""
        covered = getattr(self.overlay, "covers_window", False)
        # Under an overlay, or once something else drew over it, the scene draws everything.
        full = self.full_redraw or self.overlay is not None
        areas = self.play.draw(self.screen, full) if self.play is not None and not covered else None
        if self.overlay is not None:
            if not covered:
                draw_shade(self.screen)
            # An overlay that covers the window may draw only what changed (the race's lanes).
            areas = (self.overlay.draw(self.screen, self.full_redraw) if getattr(self.overlay, "draws_changes", False)
                     else self.overlay.draw(self.screen))
        if areas is None or self.full_redraw:
            pygame.display.flip()
        else:
            pygame.display.update(areas)
        self.full_redraw = False
        self.dirty = False

    def pump(self, dt: float = 1 / 60, wait: bool = False) -> None:
        """Handle waiting events and run one frame (tests drive the app with this)."""
        events = []
        if wait:
            first = pygame.event.wait(IDLE_WAIT_MS)
            if first.type != pygame.NOEVENT:
                events.append(first)
        events.extend(pygame.event.get())
        for event in events:
            self.handle(event)
            if not self.running:
                return
        self._repeat_held(dt)
        self.frame(dt)

    def _repeat_held(self, dt: float) -> None:
        """A key that moves (arrows, pages), erases (Backspace, Delete) or undoes and redoes
        (Ctrl+Z, Ctrl+Y) presses again while held, as a text editor's does: once after
        ``KEY_REPEAT_DELAY`` seconds of the ``dt`` that passed, then every ``KEY_REPEAT_EVERY``
        (one press a frame at most). Other keys act once however long they are held: a hint,
        a trial or a restart per repeat would be a surprise."""
        if self.held is None:
            return
        press, wait = self.held
        again = pygame.event.Event(pygame.KEYDOWN, {**press.dict, "mod": pygame.key.get_mods()})
        if not pygame.key.get_pressed()[press.key] or not repeats(again):
            self.held = None                  # released while its release went elsewhere, or Ctrl let go
            return
        wait -= dt
        if wait <= 0:
            self.handle(again)
            wait = max(0.0, wait + KEY_REPEAT_EVERY)
        if self.held is not None:
            self.held = (press, wait)

    def run(self, script: Checks | None = None) -> int:
        """The loop, until the window is closed; then :meth:`shutdown`, also when Ctrl+C or
        SIGTERM (a session logging out) ends it, so the play's clock, the hints and checks asked
        since its last move, and the editor's draft are kept as the close box keeps them."""
        clock = pygame.time.Clock()
        last = time.perf_counter()
        code = 0
        try:
            while self.running:
                busy = self.animating or self.dirty or script is not None or self.held is not None
                if busy:
                    clock.tick(self.fps)
                now = time.perf_counter()
                dt, last = min(now - last, GAP_COUNTED), now
                self.pump(dt, wait=not busy)
                work = time.perf_counter() - now
                self.frame_times.append((now, work))
                self._adapt_solver_budget(work)
                if script is not None and self.running:
                    finished = script.check(self)
                    if finished is not None:
                        code = finished
                        break
        except KeyboardInterrupt:
            self.shutdown()
            raise
        self.shutdown()
        return code

    def _adapt_solver_budget(self, work: float) -> None:
        """Keep whole frames near FRAME_TARGET: the time left after drawing goes to solver events.

        The solver's thread competes for the interpreter, and the machine may be busy, so a
        fixed share would overrun; the share shrinks after a long frame and grows back slowly.
        """
        watch = self.play.solver.watch if self.play is not None else None
        if watch is None or not watch.running:
            return
        rest = work - watch.pump_seconds
        if rest > FRAME_TARGET:
            # Drawing alone overruns the target (a large board): a smaller share would only
            # slow the run, so the solver gets as long as the rest of the frame, up to its budget.
            watch.frame_budget = min(FRAME_WORK_BUDGET, rest)
        elif work > FRAME_TARGET:
            watch.frame_budget = max(0.001, watch.frame_budget * 0.7)
        elif work < FRAME_TARGET * 0.75:
            watch.frame_budget = min(FRAME_WORK_BUDGET, watch.frame_budget * 1.1)

    def shutdown(self) -> None:
        """Stop any solver (the runner answers within 0.2 s), save progress, close the window."""
        if self.overlay is not None and hasattr(self.overlay, "close"):
            self.overlay.close()               # a race's lanes, the editor's search
        if self.play is not None:
            self.play.close()
        if self.resized not in (None, self.opened_size):
            sides = zip(self.resized, settings_module.MIN_WINDOW, settings_module.MAX_WINDOW)
            self.remember("window", [min(max(side, least), most) for side, least, most in sides])
        fonts.forget()
        sys.setswitchinterval(self._switch_interval)
        pygame.display.quit()
        pygame.quit()

    def screenshot(self, path: Union[str, Path]) -> str | None:
        """Save the window as an image (PNG unless the name says otherwise) by ``game.files``;
        None when saved, else one line saying why not."""
        self.draw()
        out = Path(path)
        try:
            image = io.BytesIO()        # encoded first: SDL's writer would print each failed write
            # the name only tells the format: one of pygame's, else PNG (pygame's own default is TGA)
            suffix = out.suffix.lower()
            hint = "image" + (suffix if suffix in (".png", ".bmp", ".tga", ".jpg", ".jpeg") else ".png")
            pygame.image.save(self.screen, image, hint)
            files.write_bytes(out, image.getvalue())
        except (OSError, pygame.error) as error:
            return files.why(error, out)
        return None


class Checks(Protocol):
    """What a scripted run is: asked after each frame, None to go on, or the exit code."""

    def check(self, app: App) -> int | None: ...


class Script:
    """A scripted run: start a solver at full speed, wait for it, screenshot, exit code."""

    def __init__(self, solver: str | None, autorun: bool, exit_after_solve: bool,
                 screenshot: str | None) -> None:
        self.solver = solver
        self.autorun = autorun
        self.exit_after_solve = exit_after_solve
        self.screenshot = screenshot
        self.started = time.perf_counter()
        self.begun = False

    def begin(self, play: PlayScene) -> None:
        self.begun = True
        panel = play.solver
        if self.solver and panel.solver != self.solver:
            select_solver(panel, self.solver)
        if self.autorun:
            panel.set_speed(0)
            panel.start()

    def check(self, app: App) -> int | None:
        """None to go on, or the exit code once the scripted run is over."""
        if app.play is None:
            return 1
        if not self.begun:
            self.begin(app.play)
            return None
        watch = app.play.solver.watch
        over = watch is None or watch.finished
        if not over and time.perf_counter() - self.started > SCRIPTED_RUN_LIMIT:
            app.play.solver.stop()
            over = True
        if not over:
            return None
        if self.screenshot:
            problem = app.screenshot(self.screenshot)
            if problem:
                print(problem, file=sys.stderr)
                return 2
        solved = watch is not None and watch.solved if self.autorun else app.play.session.solved_now
        if self.exit_after_solve:
            if not solved:                  # why, in the words of the panel's status
                print(watch.status_text() if self.autorun and watch is not None else
                      "not solved: the board on screen is not the puzzle's solution", file=sys.stderr)
            return 0 if solved else 1
        if self.screenshot:
            return 0
        return None


def main(level: str | None = None, solver: str | None = None, autorun: bool = False,
         exit_after_solve: bool = False, screenshot: str | None = None,
         settings_path: str | None = None) -> int:
    """Open the window on ``level`` (default: the built-in first level) and run until closed.

    Scripted runs: ``autorun`` starts ``solver`` at full speed; ``screenshot`` saves the window
    once that run is over (or after the first frame without ``autorun``) and then exits;
    ``exit_after_solve`` exits when the run is over with 0 only if the judge accepts its board
    (without ``autorun``: if the player's restored board is solved). Otherwise returns 0.
    """
    if solver is not None and solver not in SOLVER_LABELS:
        from solvers.engine import registry

        try:
            registry.get(solver)                # a solver of one's own (mine.py, cmd:PROGRAM)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
    scripted = autorun or exit_after_solve or screenshot is not None
    app = App(settings_path)
    opened = app.open_level(level) if level else False
    if not opened:
        # A scripted run is about the level it was given: never the built-in one in its place.
        if level and scripted:
            print(app.startup_message, file=sys.stderr)
            app.shutdown()
            return 2
        if not app.open_level(DEFAULT_LEVEL):
            print(app.startup_message or f"cannot open the built-in level {DEFAULT_LEVEL.name}", file=sys.stderr)
            app.shutdown()
            return 2
    script = Script(solver, autorun, exit_after_solve, screenshot) if scripted else None
    if solver and not autorun:                  # chosen in the panel from the first frame, to run by hand
        assert app.play is not None             # a level was opened above
        select_solver(app.play.solver, solver)
    return app.run(script)


def select_solver(panel, solver: str) -> None:
    """``solver`` chosen in the solver panel: one of ours, or one of one's own loaded beside them."""
    panel.choose(solver) if solver in panel.labels else panel.add_solver(solver)


def replay(path: str, at: int | None = None, screenshot: str | None = None, gif: str | None = None) -> int:
    """Open the window on a saved trace's timeline (at event ``at``; default the last).
    With ``screenshot``, save the window there and exit. 2 when the trace is refused."""
    app = App()
    if not app.open_replay(path):
        app.shutdown()
        if not app.running:                    # closed (or SIGTERM) while reading: as a closed window
            return 0
        print(app.startup_message, file=sys.stderr)
        return 2
    scene = app.overlay
    assert isinstance(scene, ReplayScene)       # open_replay showed it
    if at is not None:
        if not 0 <= at <= scene.run.events:
            print(f"{path}: --at {at} is outside 0..{scene.run.events}", file=sys.stderr)
            app.shutdown()
            return 2
        scene.goto(at)
    if screenshot or gif:
        from window.scenes.replay import write_gif

        problem = app.screenshot(screenshot) if screenshot else None
        if gif and problem is None:
            if closing():                      # asked to close (or SIGTERM) meanwhile: no more work
                app.shutdown()
                return 0
            try:
                write_gif(scene.run, Path(gif), app.theme, fleet_at=scene.fleet_at, colours_at=scene.colours_at)
            except OSError as error:
                problem = files.why(error, gif)
        app.shutdown()
        if problem:
            print(problem, file=sys.stderr)
            return 2
        return 0
    return app.run()


if __name__ == "__main__":  # pragma: no cover - `python main.py play` is the real entry point
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else None))
