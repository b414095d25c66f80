"""The whole window under seeded random sessions of real pygame events across its scenes: the
level browser, the daily puzzle, Stats, Share, the New puzzle dialog, the file dialog, the list
of actions, the coach's keys and the list views, with text typed or pasted into their fields
(codes, paths, seeds; junk, very long text, unicode, control characters), clicks anywhere, the
wheel, resizes down to tiny windows, files dropped on the window, and scene switches back and
forth, from a window opened on random settings.

After every step: nothing raised, the step ended in bounded time, the window draws, the
per-user files are valid (a fresh reader finds the same records, nothing was set aside as
damaged), every level the program saved loads, and a play left by a scene switch is saved and
comes back whole when its level opens again. At the end the window closes promptly and no
worker thread outlives it. A failure names the seed and the last steps."""

import _thread
import datetime
import faulthandler
import os
import random
import sys
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")   # before pygame is imported

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import codes, levels  # noqa: E402
from game.files import TEMP_PREFIX  # noqa: E402
from solvers.authoring import daily  # noqa: E402
from solvers.engine.verdict import decide  # noqa: E402
from tests.test_ui_daily_records import solve_now  # noqa: E402
from tests.test_ui_play import click, press  # noqa: E402
from tests.test_ui_play_fuzz import KEYS as PLAY_KEYS  # noqa: E402
from tests.test_ui_play_fuzz import resize, wait  # noqa: E402
from window.app import LEVELS_DIR, App  # noqa: E402
from window.list_view import ListView  # noqa: E402
from window.scenes import new_level as new_level_scene  # noqa: E402
from window.scenes.browser import BrowserScene  # noqa: E402
from window.scenes.daily import DailyScene  # noqa: E402
from window.scenes.stats import StatsScene  # noqa: E402
from window.storage import Storage, check_daily_entry, check_progress, check_solved_entry, read_json, runs_dir  # noqa: E402
from window.widgets import Button  # noqa: E402

CTRL = pygame.KMOD_CTRL
STEP_LIMIT = 10.0            # seconds a step may take on a busy machine (a hang is far beyond)
PACK_LEVELS = sorted(path for size in ("6x6", "8x8") for path in (LEVELS_DIR / size).rglob("*.bs"))
ODD_LEVELS = sorted((LEVELS_DIR / "variants").glob("*.bs")) + [LEVELS_DIR / "giants" / "01-20x20.bs"]
NAMES = ["", "x" * 255, "\u202eevil\u202c name", "tab\tnew\nline\x1b[31m", "船 ⛵ 🚢" * 20, "Daily 2020-01-01",
         "a\u0301" * 100]
# Keys the overlays know (lists, the calendar, fields, the dialogs' own), and a few they do not.
OVERLAY_KEYS = [(pygame.K_UP, 0), (pygame.K_DOWN, 0), (pygame.K_LEFT, 0), (pygame.K_RIGHT, 0),
                (pygame.K_PAGEUP, 0), (pygame.K_PAGEDOWN, 0), (pygame.K_HOME, 0), (pygame.K_END, 0),
                (pygame.K_RETURN, 0), (pygame.K_KP_ENTER, 0), (pygame.K_BACKSPACE, 0), (pygame.K_DELETE, 0),
                (pygame.K_TAB, 0), (pygame.K_ESCAPE, 0), (pygame.K_v, CTRL), (pygame.K_c, CTRL),
                (pygame.K_o, CTRL), (pygame.K_z, CTRL), (pygame.K_F1, 0), (pygame.K_SPACE, 0)]
# What opens each scene from the play scene (a key, or the window's own call).
OPENERS = [("key", pygame.K_l, 0), ("key", pygame.K_n, 0), ("key", pygame.K_o, CTRL), ("key", pygame.K_d, 0),
           ("key", pygame.K_i, 0), ("key", pygame.K_x, 0), ("key", pygame.K_m, 0), ("key", pygame.K_v, CTRL),
           ("key", pygame.K_c, CTRL), ("more",)]
RARE_OPENERS = [("key", pygame.K_e, 0), ("key", pygame.K_v, 0), ("key", pygame.K_t, 0)]   # editor, race, replay
SIZES = [(1, 1), (40, 30), (200, 150), (320, 240), (480, 360), (640, 480), (800, 600), (1100, 720),
         (1400, 900), (1920, 1080)]
TROUBLE = ("damaged", "set aside", "cannot be saved", "Could not keep", "could not be moved")


# ----- stand-ins: the generator and the daily puzzle in milliseconds, from the pack ------------


def pack_level(size: int, grade: str, seed: int):
    folder = LEVELS_DIR / f"{size}x{size}" / grade
    found = sorted(folder.glob("*.bs"))
    return levels.load(found[seed % len(found)])


def quick_generator(size, difficulty, seed, cancelled=None, progress=None):
    """A pack level of that size and grade after a moment (a generator that can be cancelled)."""
    from solvers.authoring.generator import GeneratorCancelled

    deadline = time.perf_counter() + (seed % 4) * 0.05
    while time.perf_counter() < deadline:
        if cancelled is not None and cancelled():
            raise GeneratorCancelled()
        time.sleep(0.005)
    return pack_level(size, difficulty, seed)


def quick_daily(day: datetime.date):
    side, grade = daily.plan(day)
    return pack_level(side, grade, day.toordinal()).replace(
        name=daily.name_of(day), source=f"daily puzzle {day.isoformat()} (version {daily.DAILY_VERSION})")


# ----- what is typed and pasted ----------------------------------------------------------------


def named_code(rng: random.Random) -> str:
    """The code of a level (now and then a large or odd one) carrying a hostile name."""
    puzzle = levels.load(rng.choice(ODD_LEVELS if rng.random() < 0.2 else PACK_LEVELS))
    name = rng.choice(NAMES).encode("utf-8")[:255].decode("utf-8", "ignore")
    return codes.encode(puzzle.replace(name=name), name=True)


def junk_text(rng: random.Random, home: Path) -> str:
    code = codes.encode(levels.load(rng.choice(PACK_LEVELS)))
    kinds = [
        lambda: code,                                                       # a good code
        lambda: named_code(rng),
        lambda: code[:rng.randrange(len(code))] + rng.choice("!~ x0\t") + code[rng.randrange(len(code)):],
        lambda: "bs1-" + "".join(rng.choice("abcdefXYZ019-_") for _ in range(rng.randint(0, 60))),
        lambda: str(rng.randrange(10 ** rng.randint(1, 14))),               # a seed, maybe too long
        lambda: "".join(chr(rng.randrange(1, 32)) for _ in range(rng.randint(1, 8))),    # control characters
        lambda: "naïve ⛵ 船 עברית 🚢\u0301\u200d" * rng.randint(1, 3),        # unicode, RTL, combining
        lambda: rng.choice("ab01") * rng.choice((300, 5000, codes.MAX_CODE + 10)),       # very long
        lambda: str(rng.choice(PACK_LEVELS)),                               # a path to a level
        lambda: str(rng.choice([LEVELS_DIR, home, home / "generated", Path("/"), Path("/dev/zero"),
                                Path("/dev/null"), home / "fifo", home / "nothing" / "here.bs",
                                LEVELS_DIR / "README.md"])),
        lambda: rng.choice(["~/", "~nosuchuser/", "/proc/1/root/"]) + "../" * rng.randint(0, 40),
        lambda: "\udcff\ud800 x",                                           # lone surrogates
        lambda: rng.choice(["²", "٣٣", "①", "12³", "７"]),                   # digits that are not 0-9
    ]
    return rng.choice(kinds)()


def type_text(app, text: str, rng: random.Random, keyboard: bool | None = None) -> None:
    """As a ``keyboard`` types it (a key press with its character, then the text event), or as
    an input method sends it (text events of 8 characters); by chance when not said."""
    if keyboard if keyboard is not None else rng.random() < 0.6 and len(text) <= 400:
        for number, char in enumerate(text):
            key = ord(char) if ord(char) < 128 else pygame.K_UNKNOWN
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
            if char.isprintable():
                pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=char, scancode=0))
            if number % 50 == 49:
                app.pump()
    else:
        for start in range(0, min(len(text), 20_000), 8):
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text[start:start + 8]))
            if start % 800 == 0:
                app.pump()
    app.pump()


def put_on_clipboard(text: str) -> None:
    try:
        pygame.scrap.put_text(text.replace("\0", "").encode("utf-8", "replace").decode("utf-8"))
    except pygame.error:
        pass


# ----- where to click ---------------------------------------------------------------------------


def widgets_of(scene) -> list:
    """The buttons and lists a scene holds (its attributes, and lists of them)."""
    found = []
    for value in vars(scene).values():
        items = value if isinstance(value, list) else [value]
        found += [item for item in items if isinstance(item, (Button, ListView))]
    return found


def target(scene, rng: random.Random, size) -> tuple[int, int]:
    widgets = widgets_of(scene)
    cells = list(getattr(scene, "cells", {}).values()) if isinstance(getattr(scene, "cells", None), dict) else []
    rects = [w.rect for w in widgets if w.rect.width > 0] + cells
    if rects and rng.random() < 0.75:
        rect = rng.choice(rects)
        return (rng.randint(rect.left, max(rect.left, rect.right - 1)),
                rng.randint(rect.top, max(rect.top, rect.bottom - 1)))
    return rng.randrange(-5, size[0] + 5), rng.randrange(-5, size[1] + 5)


# ----- the per-user files -----------------------------------------------------------------------


def check_user_files(app, home: Path, puzzles: dict, closed: bool = False) -> None:
    """Every per-user file valid and nothing set aside; a fresh reader finds the same records.
    Once the window is ``closed`` no temporary file is left either (a run records as it goes)."""
    names = [path.relative_to(home) for path in home.rglob("*")]
    for name in names:
        assert ".damaged-" not in name.name and ".other-" not in name.name, f"set aside: {name}"
        assert not (closed and name.name.startswith(TEMP_PREFIX)), f"a temporary file left: {name}"
    for path in (home / "progress").glob("*.json"):
        check_progress(read_json(path), puzzles.get(path.stem))
    for path, check in ((home / "solved.json", check_solved_entry), (home / "daily.json", check_daily_entry)):
        if path.exists():
            data = read_json(path)
            assert all(check(key, entry) for key, entry in data.items()), f"a bad record in {path.name}"
    fresh = Storage(home)
    assert fresh.solved() == app.storage.solved(), "solved.json read afresh differs from the window's records"
    assert fresh.daily() == app.storage.daily(), "daily.json read afresh differs from the window's records"
    assert not fresh.take_messages()
    for folder in ("generated", "daily"):
        for path in (home / folder).glob("*.bs"):
            levels.load(path)                                  # a level the program wrote loads


# ----- a session --------------------------------------------------------------------------------


class Watchdog:
    """Interrupts the main thread when a step runs past its limit (a loop that never ends)."""

    def __init__(self) -> None:
        self.deadline = float("inf")
        self.fired = False
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="fuzz-watchdog", daemon=True)

    def _watch(self) -> None:
        while not self.done.wait(0.1):
            if time.perf_counter() > self.deadline and not self.fired:
                self.fired = True
                faulthandler.dump_traceback(all_threads=True)
                _thread.interrupt_main()

    def arm(self, seconds: float) -> None:
        self.deadline = time.perf_counter() + seconds

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def random_settings(rng: random.Random, home: Path) -> None:
    values = {"theme": ["light", "dark", "pink", 3], "palette": ["standard", "colourblind", None],
              "window": [[640, 480], [800, 600], [1, 1], "big", [100000, 2]], "fps": [1, 60, 240, 0, -5, 1e9],
              "speed": [0, 50, 100000, "fast"], "solver": ["forward", "logic", "backtracking", "nope"],
              "seed": [1, 2 ** 80]}
    if rng.random() < 0.3:
        return
    home.mkdir(parents=True, exist_ok=True)
    lines = ["ui:"] + [f"  {key}: {rng.choice(choices)!r}".replace("'", '"').replace("None", "null")
                       for key, choices in values.items() if rng.random() < 0.5]
    if rng.random() < 0.1:
        lines = ["ui: [broken", "  - x"]
    (home / "settings.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def differences(play: dict, saved: dict) -> str:
    """How a saved play (``Session.to_dict``) differs from the play: its clock is saved to
    the second (a second more of thought without a move is saved, less is not)."""
    return ", ".join(f"{key} {play[key]!r:.200} saved as {saved[key]!r:.200}" for key in play
                     if (abs(play[key] - saved[key]) >= 1.0 if key == "elapsed" else play[key] != saved[key]))


class Fuzz:
    def __init__(self, app: App, rng: random.Random, home: Path) -> None:
        self.app, self.rng, self.home = app, rng, home
        self.log: list = []
        self.known: dict[str, tuple] = {}           # level key -> (grid, cursor) last seen in play
        self.puzzles: dict[str, object] = {}         # level key -> its puzzle
        self.note(app.play)
        self.opened = 0
        opening = app.open_puzzle

        def watched(puzzle, path=None):
            """The play left by a switch is saved as it was (its steps, undo, trials, and its
            clock to the second), and a level opened again has its play."""
            old = app.play
            left = old.session.to_dict()
            opened = opening(puzzle, path)
            self.opened += 1
            restored = Storage(home).restore_play(old.key, old.puzzle)
            if left["history"]:
                assert restored is not None, f"the play of {old.title} was not saved when another level opened"
                differ = differences(left, restored.to_dict())
                assert not differ, f"the play of {old.title} saved is not the play left: {differ}"
            self.note(old)
            play = app.play
            if self.known.get(play.key, {}).get("history"):       # (a play without a move is not kept)
                differ = differences(self.known[play.key], play.session.to_dict())
                assert not differ, f"{play.title} opened again without the play left in it: {differ}"
            self.note(play)
            return opened

        app.open_puzzle = watched                   # the window's own calls go through it

    def note(self, play) -> None:
        """What a level's play is now (a later opening of the level must bring it back)."""
        self.known[play.key] = play.session.to_dict()
        self.puzzles[play.key] = play.puzzle

    # ----- steps ------------------------------------------------------------------------------

    def scene(self) -> str:
        return type(self.app.overlay or self.app.play).__name__

    def step(self) -> None:
        app, rng = self.app, self.rng
        if app.overlay is None:
            kind = rng.choices(["open", "rare", "play", "solve", "click", "wheel", "resize", "drop", "wait", "stray"],
                               [30, 3, 30, 3, 8, 3, 6, 2, 3, 4])[0]
        else:
            kind = rng.choices(["key", "hold", "type", "paste", "click", "wheel", "hover", "resize", "escape",
                                "drop", "wait", "stray"], [25, 4, 18, 6, 25, 5, 4, 6, 6, 1, 4, 4])[0]
        getattr(self, "do_" + kind)()

    def do_open(self) -> None:
        opener = self.rng.choice(OPENERS)
        if opener[0] == "more":
            self.log.append(("More...",))
            self.app.play.show_actions(self.app.play.hidden_actions() or None, "More")
            self.app.pump()
            return
        self.do_key(opener[1:])

    def do_rare(self) -> None:
        self.do_key(self.rng.choice(RARE_OPENERS)[1:])

    def do_play(self) -> None:
        app, rng = self.app, self.rng
        play = app.play
        if rng.random() < 0.6:
            r, c = rng.randrange(play.puzzle.rows), rng.randrange(play.puzzle.cols)
            button = rng.choice((1, 3))
            self.log.append(("cell", r, c, button))
            click(app, play.layout.cell_rect(r, c).center, button)
        else:
            key, mod = rng.choice([k for k in PLAY_KEYS if k[0] not in (pygame.K_r,)])
            self.do_key((key, mod))

    def do_solve(self) -> None:
        play = self.app.play
        if play.puzzle.solution is None and (play.puzzle.rows * play.puzzle.cols > 100
                                             or decide(play.puzzle).solution is None):
            return                                  # (a level made in the editor may have none)
        seconds = round(self.rng.uniform(5, 900), 1)
        self.log.append(("solve", seconds))
        if play.board.free() and not play.session.solved_now:
            helped = play.session.solver_helped         # a solver showed the solution: not the player's solve
            solve_now(self.app, seconds)
            fresh = Storage(self.home)
            if helped:
                return
            assert fresh.is_solved(play.key), "a solve was not recorded"
            if daily.date_of(play.puzzle) == datetime.date.today():
                assert datetime.date.today().isoformat() in fresh.daily(), "today's daily solve was not recorded"

    def do_key(self, chord=None) -> None:
        key, mod = chord or self.rng.choice(OVERLAY_KEYS + [(ord(c), 0) for c in "aq7 "])
        self.log.append(("key", pygame.key.name(key) or key, mod, self.scene()))
        press(self.app, key, mod)

    def do_hold(self) -> None:
        """A key held down: its repeats, many of them, in one batch."""
        key = self.rng.choice([pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_PAGEUP,
                               pygame.K_PAGEDOWN, pygame.K_BACKSPACE, pygame.K_7])
        count = self.rng.choice((30, 300, 3000))
        self.log.append(("hold", pygame.key.name(key), count))
        for number in range(count):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="7" if key == pygame.K_7
                                                 else "", scancode=0, repeat=True))
            if number % 100 == 99:
                self.app.pump()
        self.app.pump()

    def do_type(self) -> None:
        text = junk_text(self.rng, self.home)
        self.log.append(("type", text[:40] + ("..." if len(text) > 40 else ""), len(text), self.scene()))
        type_text(self.app, text, self.rng)

    def do_paste(self) -> None:
        text = junk_text(self.rng, self.home)
        self.log.append(("paste", text[:40], len(text), self.scene()))
        put_on_clipboard(text)
        press(self.app, pygame.K_v, CTRL)

    def do_click(self) -> None:
        app = self.app
        scene = app.overlay or app.play
        pos = target(scene, self.rng, app.window_size)
        button = self.rng.choice((1, 1, 1, 3))
        self.log.append(("click", pos, button, type(scene).__name__))
        click(app, pos, button)

    def do_wheel(self) -> None:
        app, rng = self.app, self.rng
        pos = target(app.overlay or app.play, rng, app.window_size)
        y = rng.choice((-10, -1, 1, 3, 100))
        self.log.append(("wheel", pos, y))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0,
                                             precise_y=float(y)))
        app.pump()

    def do_hover(self) -> None:
        app = self.app
        path = [target(app.overlay, self.rng, app.window_size) for _ in range(3)]
        self.log.append(("hover", path))
        for pos in path:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0)))
        app.pump()

    def do_resize(self) -> None:
        size = self.rng.choice(SIZES)
        self.log.append(("resize", size))
        resize(self.app, size)

    def do_escape(self) -> None:
        self.log.append(("escape",))
        press(self.app, pygame.K_ESCAPE)

    def do_drop(self) -> None:
        path = self.rng.choice([str(self.rng.choice(PACK_LEVELS)), junk_text(self.rng, self.home)])
        self.log.append(("drop", path[:60]))
        pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=path))
        self.app.pump()

    def do_stray(self) -> None:
        """Events a scene may not expect: other mouse buttons, a press or a release alone, a
        motion with a button held that was never pressed, an input method's composition, the
        window losing focus or changing size with no resize."""
        app, rng = self.app, self.rng
        pos = target(app.overlay or app.play, rng, app.window_size)
        w, h = app.screen.get_size()
        event = rng.choice([
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=rng.randint(1, 7)),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=rng.randint(1, 7)),
            pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(3, -2), buttons=rng.choice([(1, 0, 0), (0, 0, 1)])),
            pygame.event.Event(pygame.TEXTEDITING, text="かな", start=0, length=2),
            pygame.event.Event(pygame.KEYUP, key=rng.choice((pygame.K_RETURN, pygame.K_a)), mod=0, unicode="",
                               scancode=0),
            pygame.event.Event(pygame.WINDOWFOCUSLOST), pygame.event.Event(pygame.WINDOWLEAVE),
            pygame.event.Event(pygame.WINDOWSIZECHANGED, x=w, y=h),
            pygame.event.Event(pygame.ACTIVEEVENT, gain=0, state=1),
        ])
        self.log.append(("stray", pygame.event.event_name(event.type), getattr(event, "button", None), pos))
        pygame.event.post(event)
        app.pump()

    def do_wait(self) -> None:
        seconds = round(self.rng.uniform(0.0, 0.2), 2)
        self.log.append(("wait", seconds))
        wait(self.app, seconds)

    # ----- checks ------------------------------------------------------------------------------

    def check(self) -> None:
        app = self.app
        assert app.running and app.play is not None
        app.draw()
        play = app.play
        self.note(play)
        self.check_overlay()
        if play.path is not None and play.path.parent in (self.home / "generated", self.home / "daily"):
            assert levels.load(play.path) == play.puzzle, "the level played is not the level saved"
        assert not any(word in play.message for word in TROUBLE), play.message
        check_user_files(app, self.home, self.puzzles)


    def check_overlay(self) -> None:
        """What Stats, the daily page and the level browser show agrees with the files."""
        overlay, fresh = self.app.overlay, Storage(self.home)
        if isinstance(overlay, StatsScene):
            assert sum(row.solved for row in overlay.rows) == len(fresh.solved()), "Stats miscounts the solves"
        elif isinstance(overlay, DailyScene):
            assert overlay.solved == fresh.daily(), "the daily page shows other days than daily.json"
        elif isinstance(overlay, BrowserScene):
            play = self.app.play
            for row in overlay.list.rows:
                if row.value is not None and play.path is not None and row.value == play.path:
                    assert row.ticked == fresh.is_solved(play.key), f"{row.label}: the tick is wrong"


def any_session(tmp_path, monkeypatch, seed: int, steps: int, real_generators: bool = False) -> dict:
    rng = random.Random(seed)
    home = tmp_path / f"home-{seed}"
    monkeypatch.setenv("BATTLESHIPS_HOME", str(home))
    if not real_generators:
        monkeypatch.setattr(new_level_scene, "generate_level", quick_generator)
        monkeypatch.setattr(daily, "puzzle_of", quick_daily)
    random_settings(rng, home)
    home.mkdir(parents=True, exist_ok=True)
    os.mkfifo(home / "fifo")
    watchdog = Watchdog()
    watchdog.thread.start()
    threads = threading.active_count()
    app = App(window=rng.choice([(1100, 720), (800, 600), (1400, 900)]))
    figures = {"steps": 0, "slowest": 0.0, "scenes": set(), "levels": set(), "switches": 0}
    fuzz = None
    try:
        assert app.open_level(rng.choice(PACK_LEVELS))
        app.pump()
        fuzz = Fuzz(app, rng, home)
        for _ in range(steps):
            started = time.perf_counter()
            watchdog.arm(STEP_LIMIT * 3)
            fuzz.step()
            took = time.perf_counter() - started
            watchdog.arm(STEP_LIMIT * 3)
            fuzz.check()
            assert took < STEP_LIMIT, f"a step took {took:.1f} s"
            figures["steps"] += 1
            figures["slowest"] = max(figures["slowest"], took)
            figures["scenes"].add(type(app.overlay).__name__ if app.overlay else "PlayScene")
            figures["levels"].add(app.play.key)
        figures["switches"] = fuzz.opened
        fuzz.log.append(("close",))
        play = app.play
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        started = time.perf_counter()
        app.run()
        assert time.perf_counter() - started < 2.0, "the window took long to close"
        restored = Storage(home).restore_play(play.key, play.puzzle)
        if play.session.history:
            assert restored is not None and (restored.grid, restored.cursor) == (play.session.grid,
                                                                                 play.session.cursor)
        deadline = time.perf_counter() + 2.0
        while threading.active_count() > threads and time.perf_counter() < deadline:
            time.sleep(0.01)
        left = [t.name for t in threading.enumerate() if t is not watchdog.thread]
        assert threading.active_count() <= threads, f"threads outlived the window: {left}"
        check_user_files(app, home, fuzz.puzzles, closed=True)
    except (AssertionError, Exception, KeyboardInterrupt) as error:
        steps_done = fuzz.log[-25:] if fuzz else []
        what = "a step hung" if watchdog.fired else f"{type(error).__name__}: {error}"
        raise AssertionError(f"seed {seed}: {what}; steps: {steps_done}") from error
    finally:
        watchdog.stop()
        if pygame.display.get_init():
            app.shutdown()
    return figures


@pytest.mark.parametrize("seed", range(6))
def test_any_session_across_the_scenes_keeps_the_window_whole(tmp_path, monkeypatch, seed):
    """A seeded random session of real events over every scene (see the module's docstring)."""
    any_session(tmp_path, monkeypatch, seed, 120)


@pytest.mark.slow
def test_many_long_sessions_across_the_scenes(tmp_path, monkeypatch):
    started = time.perf_counter()
    totals = {"steps": 0, "slowest": 0.0, "scenes": set(), "levels": set(), "switches": 0}
    seeds = range(1000, 1040)
    for seed in seeds:
        figures = any_session(tmp_path, monkeypatch, seed, 400, real_generators=seed % 10 == 0)
        totals["steps"] += figures["steps"]
        totals["switches"] += figures["switches"]
        totals["slowest"] = max(totals["slowest"], figures["slowest"])
        totals["scenes"] |= figures["scenes"]
        totals["levels"] |= figures["levels"]
    took = time.perf_counter() - started
    print(f"\n{len(seeds)} sessions, {totals['steps']} steps in {took:.0f} s "
          f"({1000 * took / totals['steps']:.1f} ms a step, slowest {totals['slowest']:.2f} s); "
          f"{totals['switches']} levels opened, {len(totals['levels'])} distinct; "
          f"scenes: {', '.join(sorted(totals['scenes']))}",
          file=sys.stderr)


# ----- defects the sessions found ---------------------------------------------------------------


def test_a_window_made_tiny_under_the_replay_still_draws(app):
    """T (the play on the replay timeline), then the window shrunk to 200x150: the replay lays
    out and draws (its depth plot had a negative width: pygame refused the surface)."""
    click(app, app.play.layout.cell_rect(0, 0).center)
    press(app, pygame.K_t)
    assert type(app.overlay).__name__ == "ReplayScene"
    for size in ((200, 150), (1, 1), (1100, 720)):
        resize(app, size)
        app.draw()
    assert type(app.overlay).__name__ == "ReplayScene"


@pytest.mark.parametrize("typed", ["a" * 300, "~nosuchuser/level.bs", "/proc/1/root/x"])
def test_a_path_typed_in_the_file_dialog_that_cannot_be_looked_at_is_refused(app, typed):
    """Ctrl+O, a path typed whose name is too long for the system, under a home directory no
    user has, or under a folder that cannot be read, then Enter: the dialog says why (it
    raised OSError or RuntimeError, which ended the window) and stays, for the path to be mended."""
    play = app.play
    press(app, pygame.K_o, CTRL)
    scene = app.overlay
    assert type(scene).__name__ == "FileScene"
    scene.typed = ""
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=typed))
    press(app, pygame.K_RETURN)
    assert app.play is play and app.overlay is scene and scene.error.startswith("Cannot open ")


def test_todays_daily_solved_from_its_share_code_counts_when_the_daily_opens(app, monkeypatch):
    """Today's daily puzzle opened from a share code (a friend's) and solved, then Daily (D)
    and Enter: the play comes back solved, and today now counts in the streak (it never did:
    the solve was recorded as a level's only, and a solved play records nothing again)."""
    monkeypatch.setattr(daily, "puzzle_of", quick_daily)
    today = datetime.date.today()
    assert app.open_level(codes.encode(daily.puzzle_of(today)))
    solve_now(app, 300)
    assert app.storage.is_solved(app.play.key) and today.isoformat() not in app.storage.daily()
    press(app, pygame.K_d)
    press(app, pygame.K_RETURN)
    assert daily.date_of(app.play.puzzle) == today and app.play.session.solved
    assert today.isoformat() in Storage(app.storage.root).daily()
    assert "Daily puzzle solved" in app.play.message
    app.open_level(LEVELS_DIR / "6x6" / "easy" / "01.bs")
    assert app.play_daily(today) and "recorded" not in app.play.message     # said once, not at each opening


def test_a_seed_typed_with_digits_other_than_0_to_9_is_not_taken(app, monkeypatch):
    """N, then 1, ² (a key of its own on French keyboards), ① and ٣ typed as the seed, then
    Enter: the seed is 1 and the level is made (Python calls them all digits, and int()
    refused the seed: the window ended)."""
    monkeypatch.setattr(new_level_scene, "generate_level", quick_generator)
    press(app, pygame.K_n)
    dialog = app.overlay
    type_text(app, "1²①٣", random.Random(0), keyboard=True)
    assert dialog.choice.seed == "1" and not dialog.choice.random_seed
    press(app, pygame.K_RETURN)
    deadline = time.perf_counter() + 5
    while app.overlay is dialog and time.perf_counter() < deadline:
        app.pump()
    assert app.overlay is None and "seed 1," in app.play.message


def test_a_level_dropped_on_a_replay_opened_on_its_own_is_played(app):
    """A replay window (``main.py replay``: no play beneath it), a level file dropped on it:
    the level opens to be played (the replay closed first, which ends such a window, so the
    program quit instead)."""
    click(app, app.play.layout.cell_rect(0, 0).center)
    press(app, pygame.K_t)
    trace = runs_dir() / "last-play.jsonl"
    app.shutdown()
    window = App(window=(1100, 720))
    try:
        assert window.open_replay(trace) and window.play is None
        pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(PACK_LEVELS[0])))
        window.pump()
        assert window.running and window.overlay is None and window.play is not None
        assert window.play.path == PACK_LEVELS[0]
        pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(PACK_LEVELS[0]) + ".missing"))
        window.pump()                                # a file that does not open: the play stays
        assert window.running and "Could not open the level" in window.play.message
    finally:
        window.shutdown()


def test_hints_and_checks_asked_count_in_the_record_after_a_switch_and_back(app):
    """Two hints (the first taken to its move) and C on a level, another level, then back, then
    the solve: the record counts the two hints and the check (the counts lived in the scene of
    the play, which a switch makes anew: the record said 0 and 0)."""
    from tests.test_ui_coach import wait_for_answer

    first = app.play.path
    press(app, pygame.K_h)
    wait_for_answer(app)
    press(app, pygame.K_h)                      # which rule
    press(app, pygame.K_h)                      # the move: one hint
    press(app, pygame.K_h)                      # a new board, a second hint
    wait_for_answer(app)
    press(app, pygame.K_c)
    wait_for_answer(app)
    assert app.play.coach.asked == {"hint": 2, "check": 1, "solver": 0, "shown": 0}
    app.open_level(PACK_LEVELS[0])
    app.open_level(first)
    assert app.play.coach.asked == {"hint": 2, "check": 1, "solver": 0, "shown": 0}
    solve_now(app, 120)
    record = Storage(app.storage.root).solved()[app.play.key]
    assert (record["hints"], record["checks"]) == (2, 1)
