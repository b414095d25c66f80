"""Records, streaks and the daily puzzle against a plain model of them: a stateful property test.

A hypothesis state machine drives two :class:`window.storage.Storage` instances on one
per-user folder (two windows open at once) through what a player does that leaves records:
finishing levels (with and without hints and checks, quick and over an hour, with and without
a grade, a level met again through its share code), finishing the daily puzzle on its day, late,
on another day, a solve recorded only when its level is next opened, the clock crossing
midnight, skipping days, going back a day (a time zone changed), the disk filling up or the
copy of a damaged file failing, the records files damaged by hand, a window closed and opened
again, progress saved. Each finish goes through :func:`window.records.finish`, the one call the
window makes.

Beside it the test keeps its own model, written from the documentation
(docs/guide/daily-codes-records.md, the docstrings of window/storage.py and window/records.py),
not from the code: per level the best time with the size, grade, hints and checks of the play
that set it; per day of the daily the best time; per window what it could not write yet; the
target times as the guide's table prints them. After every step the files on disk, read back
by a fresh window, must equal the model (nothing recorded before is ever lost, a damaged record
is kept in some file), each window's view must be the model's, and the Stats table and the
streaks must be what the model says; each finish must say exactly what the model says
(a new record of the level or of its size and grade, the daily streak, the target).
The default run is small; ``pytest -m slow`` runs a long campaign and prints its figures.
"""

from __future__ import annotations

import datetime
import json
import shutil
import statistics
import tempfile
import types
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from game import codes, levels
from solvers.authoring import daily
from window import records
from window import storage as storage_module
from window.storage import Storage, level_key

ROOT = Path(__file__).resolve().parents[1]


def _level(path: str):
    return levels.load(ROOT / "levels" / path)


_SIX = _level("6x6/easy/01.bs")
# (title, puzzle): sizes and grades with a target and without, and a level met again through its
# code (the same content, so the same level, but no grade).
LEVELS = (
    ("six", _SIX),
    ("eight", _level("8x8/hard/01.bs")),
    ("ten", _level("10x10/expert/01.bs")),
    ("fifteen", _level("15x15/medium/01.bs")),
    ("variant", _level("variants/03-8x12.bs")),
    ("six by code", codes.decode(codes.encode(_SIX))),
    ("six again", _level("6x6/easy/02.bs")),
)
DAILY_BASE = _level("8x8/easy/01.bs")

# The guide's table of target times ("Target times"), as it prints them.
TARGETS = {
    "6x6": {"easy": "1:40", "medium": "1:40", "hard": "2:10", "expert": "2:40"},
    "8x8": {"easy": "2:40", "medium": "2:40", "hard": "3:40", "expert": "4:30"},
    "10x10": {"easy": "3:20", "medium": "3:30", "hard": "4:00", "expert": "5:30"},
    "15x15": {"easy": "5:40", "medium": "5:40", "hard": "8:00", "expert": "8:00"},
}
GRADES = ("easy", "medium", "hard", "expert")
BAD = "damaged by hand " * 100          # a damaged record's mark, long enough to be found in any file
WORK = tempfile.TemporaryDirectory(prefix="records-model-")
FIGURES: Counter = Counter()


def mmss(seconds: float) -> str:
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def tenths_cut(seconds: float) -> float:
    """A time as kept: its whole tenths (the clock shows its whole seconds)."""
    tenths = int(round(seconds * 10, 6))
    return tenths / 10


def was(seconds: float, best: float) -> str:
    """The best time a record beat; both to the tenth when they show as the same second."""
    if mmss(seconds) != mmss(best):
        return f"was {mmss(best)}"
    return f"{mmss(seconds)}.{round(seconds * 10) % 10}, was {mmss(best)}.{round(best * 10) % 10}"


def in_seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def daily_puzzle(day: datetime.date):
    return DAILY_BASE.replace(name=daily.name_of(day),
                              source=f"daily puzzle {day.isoformat()} (version {daily.DAILY_VERSION})")


# ----- the world the storage runs in: a clock and a disk the test controls --------------------


class World:
    """Today's date as the program sees it, and what the disk does with a write."""

    today = datetime.date(2026, 11, 26)
    disk = "ok"            # "ok"; "full": every write fails; "no copies": a copy of a file set aside fails


class _Date(datetime.date):
    @classmethod
    def today(cls):                      # type: ignore[override]
        return World.today


_CLOCK = types.SimpleNamespace(date=_Date, timedelta=datetime.timedelta)


@contextmanager
def controlled_world() -> Iterator[None]:
    real_text, real_bytes, real_clock = storage_module.write_text, storage_module.write_bytes, records.datetime

    def write_text(path, text, **options):
        if World.disk == "full":
            raise OSError(28, "No space left on device")
        return real_text(path, text, **options)

    def write_bytes(path, data, **options):
        if World.disk != "ok":
            raise OSError(28, "No space left on device")
        return real_bytes(path, data, **options)

    storage_module.write_text, storage_module.write_bytes, records.datetime = write_text, write_bytes, _CLOCK
    try:
        yield
    finally:
        storage_module.write_text, storage_module.write_bytes, records.datetime = real_text, real_bytes, real_clock


# ----- the model ------------------------------------------------------------------------------


def kept_solve(old: dict | None, new: dict) -> dict:
    """A level's record after a solve: the faster play's time with that play's size, grade,
    hints and checks (a slower solve keeps the best time and its play)."""
    return new if old is None or new["seconds"] < old["seconds"] else old


def kept_day(old: float | None, seconds: float) -> float:
    return seconds if old is None or seconds < old else old


def model_streaks(days: set[datetime.date], today: datetime.date) -> tuple[int, int]:
    """The guide: the current streak runs to today, or to yesterday while today's puzzle is
    still open; the longest is the longest run of consecutive days solved."""
    longest = 0
    for day in days:
        if day - datetime.timedelta(days=1) not in days:
            run = 1
            while day + datetime.timedelta(days=run) in days:
                run += 1
            longest = max(longest, run)
    day = today if today in days else today - datetime.timedelta(days=1)
    current = 0
    while day in days:
        current += 1
        day -= datetime.timedelta(days=1)
    return current, longest


class Window:
    """What the model knows of one window: the records it still owes the disk (its writes that
    failed). What it sees is the files as they are with those (``Model.known``): another
    window's records too, as soon as they are written."""

    def __init__(self) -> None:
        self.owed_solves: list[tuple[str, dict]] = []
        self.owed_days: list[tuple[str, float]] = []


class Model:
    def __init__(self) -> None:
        self.solved: dict[str, dict] = {}            # on disk: key -> seconds, and size, grade, hints, checks
        self.days: dict[str, float] = {}             # on disk: date -> best seconds
        self.damaged: set[str] = set()               # the files holding records damaged by hand
        self.windows = [Window(), Window()]

    def writable(self, name: str) -> bool:
        """Whether a write of ``name`` reaches the disk: not when it is full, nor when the file
        holds damaged records that cannot be kept aside first (they would be written over)."""
        return World.disk == "ok" or (World.disk == "no copies" and name not in self.damaged)

    def write_owed(self, window: Window, name: str) -> bool:
        """The window writes ``name`` with everything it owes it; False if the write fails.
        A write reads the file first, which sets its damaged records aside when the disk allows."""
        self.read(name)
        if not self.writable(name):
            return False
        if name == "solved.json":
            for key, entry in window.owed_solves:
                self.solved[key] = kept_solve(self.solved.get(key), entry)
            window.owed_solves.clear()
        else:
            for date, seconds in window.owed_days:
                self.days[date] = kept_day(self.days.get(date), seconds)
            window.owed_days.clear()
        return True

    def read(self, name: str) -> None:
        """A window reads ``name``: its damaged records are copied aside and the file rewritten
        with the good ones, when the disk takes both."""
        if World.disk == "ok":
            self.damaged.discard(name)

    def known(self, window: Window) -> tuple[dict, dict]:
        """The records a window measures a finish against: the files as they are, with what
        it still owes them."""
        solved = {key: dict(entry) for key, entry in self.solved.items()}
        for key, entry in window.owed_solves:
            solved[key] = kept_solve(solved.get(key), entry)
        days = dict(self.days)
        for date, seconds in window.owed_days:
            days[date] = kept_day(days.get(date), seconds)
        return solved, days

    def stats(self) -> dict[tuple[str, str], tuple]:
        """The Stats table: per size and grade ("earlier" without a size, "-" without a grade),
        the levels solved, the best and median of their best times, the hints and checks of
        the plays that set them, the target."""
        groups: dict[tuple[str, str], list[dict]] = {}
        for entry in self.solved.values():
            groups.setdefault((entry.get("size", "earlier"), entry.get("grade", "-")), []).append(entry)
        table = {}
        for (size, grade), entries in groups.items():
            times = [entry["seconds"] for entry in entries]
            target = TARGETS.get(size, {}).get(grade)
            table[size, grade] = (len(entries), min(times), statistics.median(times),
                                  sum(entry.get("hints", 0) for entry in entries),
                                  sum(entry.get("checks", 0) for entry in entries),
                                  None if target is None else in_seconds(target))
        return table


# ----- the machine ----------------------------------------------------------------------------


def good_entries(path: Path, damaged: set[str]) -> dict:
    """The records in a file as a fresh reader finds them: every entry but those damaged by hand."""
    if not path.exists():
        return {}
    return {key: entry for key, entry in json.loads(path.read_text()).items() if key not in damaged}


class RecordsMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.home = Path(tempfile.mkdtemp(dir=WORK.name))
        self.model = Model()
        self.stores = [self.open_window(), self.open_window()]
        self.marks: list[str] = []                 # the keys of the records damaged by hand

    def open_window(self) -> Storage:
        store = Storage(self.home)
        store.solved(), store.daily()              # a window reads the lists when it starts
        return store

    @initialize(start=st.sampled_from([datetime.date(2026, 11, 26), datetime.date(2026, 12, 30),
                                        datetime.date(2028, 2, 27), datetime.date(2027, 3, 27)]))
    def set_clock(self, start):
        World.today, World.disk = start, "ok"

    def teardown(self) -> None:
        World.disk = "ok"
        shutil.rmtree(self.home, ignore_errors=True)

    # ----- finishing -------------------------------------------------------------------------

    def finish(self, which: int, title: str, puzzle, key: str, seconds: float, hints: int, checks: int,
               solved_on: datetime.date | None = None) -> None:
        model, window = self.model, self.model.windows[which]
        size = f"{puzzle.rows}x{puzzle.cols}"
        grade = puzzle.difficulty if puzzle.difficulty in GRADES else None
        new = {"seconds": tenths_cut(seconds), "hints": hints, "checks": checks, "size": size,
               **({"grade": grade} if grade else {})}
        solved, days = model.known(window)
        said = []
        old = solved.get(key)
        group = [entry["seconds"] for entry in solved.values()
                 if (entry.get("size"), entry.get("grade")) == (size, grade)]
        if old is not None and new["seconds"] < old["seconds"]:
            said.append(f"New record for this level! ({was(new['seconds'], old['seconds'])})")
            FIGURES["level records"] += 1
        elif old is None and group and new["seconds"] < min(group):
            said.append(f"New record for {size}{' ' + grade if grade else ''}! ({was(new['seconds'], min(group))})")
            FIGURES["group records"] += 1
        window.owed_solves.append((key, new))
        if not model.write_owed(window, "solved.json"):
            FIGURES["failed writes"] += 1
        day = daily.date_of(puzzle)
        if day is not None and day == (solved_on or World.today):
            window.owed_days.append((day.isoformat(), new["seconds"]))
            days[day.isoformat()] = kept_day(days.get(day.isoformat()), new["seconds"])
            model.write_owed(window, "daily.json")
            current, _ = model_streaks({datetime.date.fromisoformat(d) for d in days}, day)
            said.append(f"Daily puzzle solved: streak {current} day{'s' if current != 1 else ''}.")
            FIGURES["daily days counted"] += 1
            FIGURES["longest streak said"] = max(FIGURES["longest streak said"], current)
        elif day is not None:
            said.append(f"Daily puzzle of {day.isoformat()} solved on another day: it counts for no day.")
            FIGURES["daily finished on another day"] += 1
        target = TARGETS.get(size, {}).get(grade or "")
        if target is not None:
            said.append(f"Target {target}" + (": beaten." if seconds <= in_seconds(target) else "."))
        got = records.finish(self.stores[which], puzzle, key, title, seconds, {"hint": hints, "check": checks},
                             solved_on=solved_on)
        assert got == " ".join(said)

    @rule(which=st.integers(0, 1), level=st.sampled_from(LEVELS),
          seconds=st.one_of(st.integers(0, 600_00).map(lambda n: n / 100), st.floats(3590, 3700)),
          hints=st.integers(0, 3), checks=st.integers(0, 3))
    def finish_level(self, which, level, seconds, hints, checks):
        title, puzzle = level
        self.finish(which, title, puzzle, level_key(puzzle), seconds, hints, checks)

    @rule(which=st.integers(0, 1), offset=st.integers(-3, 1), seconds=st.integers(1, 900_0).map(lambda n: n / 10),
          hints=st.integers(0, 2))
    def finish_daily(self, which, offset, seconds, hints):
        """A day's puzzle finished now: today's, a past day's, or (the clock was set back since
        it was opened) a later day's."""
        day = World.today + datetime.timedelta(days=offset)
        self.finish(which, f"Daily {day}", daily_puzzle(day), f"daily-{day.isoformat()}", seconds, hints, 0)

    @rule(which=st.integers(0, 1), days=st.integers(1, 12), seconds=st.integers(1, 900_0).map(lambda n: n / 10))
    def a_daily_habit(self, which, days, seconds):
        """Today's puzzle every day for ``days`` days (a long streak, across month and year ends
        and leap days), the clock moving on a day after each."""
        for _ in range(days):
            day = World.today
            self.finish(which, f"Daily {day}", daily_puzzle(day), f"daily-{day.isoformat()}", seconds, 0, 0)
            World.today += datetime.timedelta(days=1)

    @rule(which=st.integers(0, 1), offset=st.integers(-3, 0), saved=st.integers(-3, 0),
          seconds=st.integers(1, 900_0).map(lambda n: n / 10))
    def finish_recorded_late(self, which, offset, saved, seconds):
        """A solve whose record could not be written then, recorded when its level is opened
        again: it counts for its day when its play was last saved on that day."""
        day = World.today + datetime.timedelta(days=offset)
        self.finish(which, f"Daily {day}", daily_puzzle(day), f"daily-{day.isoformat()}", seconds, 0, 0,
                    solved_on=World.today + datetime.timedelta(days=saved))

    # ----- the world -------------------------------------------------------------------------

    @rule(days=st.sampled_from([1, 1, 1, 2, 3, 9, 400, -1]))
    def time_passes(self, days):
        """Midnight (one day), days skipped (the streak breaks), or the clock set back a day
        (a time zone changed westwards, a clock corrected)."""
        World.today += datetime.timedelta(days=days)
        FIGURES["clock set back"] += days < 0

    @rule(disk=st.sampled_from(["ok", "ok", "full", "no copies"]))
    def disk_changes(self, disk):
        World.disk = disk

    @rule(which=st.integers(0, 1))
    def save_progress(self, which):
        """A window saves a play: its records not yet written go with the save that succeeds."""
        saved = self.stores[which].save_progress("k" * 20, {"history": [], "cursor": 0, "elapsed": 1.0,
                                                             "solved": False})
        assert saved == (World.disk != "full")
        window = self.model.windows[which]
        if saved:
            for name, owed in (("solved.json", window.owed_solves), ("daily.json", window.owed_days)):
                if owed:
                    self.model.write_owed(window, name)

    @precondition(lambda self: not any(w.owed_solves or w.owed_days for w in self.model.windows))
    @rule(which=st.integers(0, 1))
    def reopen_window(self, which):
        """A window closed and opened again (with nothing left unwritten, the records it reads
        are all of them)."""
        self.stores[which] = self.open_window()
        self.model.read("solved.json"), self.model.read("daily.json")
        self.model.windows[which] = Window()

    @rule(level=st.sampled_from(LEVELS), seconds=st.integers(1, 900_0).map(lambda n: n / 10))
    def record_of_an_earlier_version(self, level, seconds):
        """A level solved by a version that kept no size, grade, hints or checks: it still
        counts, under "earlier", until a faster solve records its play."""
        key = level_key(level[1])
        if key in self.model.solved or any(key == owed for w in self.model.windows for owed, _ in w.owed_solves) \
                or self.model.damaged:
            return
        path = self.home / "solved.json"
        data = json.loads(path.read_text()) if path.exists() else {}
        data[key] = {"seconds": seconds, "name": level[0], "when": "2025-01-01 10:00:00"}
        path.write_text(json.dumps(data))
        self.model.solved[key] = {"seconds": seconds}
        FIGURES["earlier records"] += 1

    @rule(name=st.sampled_from(["solved.json", "daily.json"]))
    def damage_by_hand(self, name):
        """A record of a list made unreadable (edited by hand, written by a later version): it
        no longer counts, and it is kept in some file, never lost."""
        path = self.home / name
        data = json.loads(path.read_text()) if path.exists() else {}
        self.marks.append(f"bad{len(self.marks) + 1}")
        data[self.marks[-1]] = {"seconds": -1, "name": BAD, "when": BAD}
        path.write_text(json.dumps(data))
        self.model.damaged.add(name)

    # ----- what must hold after every step ---------------------------------------------------

    @invariant()
    def the_files_hold_the_models_records(self):
        damaged = set(self.marks)
        on_disk = good_entries(self.home / "solved.json", damaged)
        assert {key: {k: v for k, v in entry.items() if k not in ("name", "when")}
                for key, entry in on_disk.items()} == self.model.solved
        days = good_entries(self.home / "daily.json", damaged)
        assert {date: entry["seconds"] for date, entry in days.items()} == self.model.days

    @invariant()
    def no_damaged_record_is_lost(self):
        everything = "".join(path.read_text() for path in self.home.iterdir()
                             if path.is_file() and path.suffix == ".json")
        for mark in self.marks:
            assert f'"{mark}"' in everything, mark

    @invariant()
    def each_window_sees_what_the_model_says(self):
        """Each window sees every record on disk, another window's too, and its own that could
        not be written yet (its Stats, calendar and level list say what is recorded)."""
        for store, window in zip(self.stores, self.model.windows):
            solved, days = self.model.known(window)
            assert {key: {k: v for k, v in entry.items() if k not in ("name", "when")}
                    for key, entry in store.solved().items()} == solved
            assert {date: entry["seconds"] for date, entry in store.daily().items()} == days

    @invariant()
    def a_window_opened_now_reads_the_model(self):
        """Read back by a new window (on a copy of the folder: reading sets damaged files aside)."""
        copy = Path(tempfile.mkdtemp(dir=WORK.name))
        try:
            for path in self.home.iterdir():
                if path.is_file():
                    shutil.copy(path, copy / path.name)
            World.disk, disk = "ok", World.disk
            try:
                fresh = Storage(copy)
                solved, days = fresh.solved(), fresh.daily()
            finally:
                World.disk = disk
            rows = records.stats_rows(solved)
            assert {(row.size, row.grade): (row.solved, row.best, row.median, row.hints, row.checks, row.target)
                    for row in rows} == self.model.stats()
            order = [(records._size_order(row.size), GRADES.index(row.grade) if row.grade in GRADES else 9)
                     for row in rows]
            assert order == sorted(order)
            dates = {datetime.date.fromisoformat(d) for d in self.model.days}
            assert records.streaks(records.days_of(days), World.today) == model_streaks(dates, World.today)
        finally:
            shutil.rmtree(copy, ignore_errors=True)


FAST = settings(max_examples=40, stateful_step_count=30, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SLOW = settings(max_examples=1_500, stateful_step_count=60, deadline=None, suppress_health_check=list(HealthCheck))


def test_records_agree_with_their_model():
    with controlled_world():
        run_state_machine_as_test(RecordsMachine, settings=FAST)


@pytest.mark.slow
def test_records_agree_with_their_model_long():
    FIGURES.clear()
    with controlled_world():
        run_state_machine_as_test(RecordsMachine, settings=SLOW)
    print("\nrecords model, long run:", dict(sorted(FIGURES.items())))


# ----- what the model found, each as the smallest case ------------------------------------------


def _failing(monkeypatch, *names: str) -> None:
    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    for name in names:
        monkeypatch.setattr(storage_module, name, refuse)


def test_damaged_records_that_cannot_be_kept_aside_are_not_written_over(tmp_path, monkeypatch):
    """The copy of a damaged solved list failed (the disk took the short rewrite but not the
    long copy): the next record was written over the file, and the damaged records, kept
    nowhere else, were gone. The file now stays as it is and the record waits for a write
    that can keep them."""
    storage = Storage(tmp_path)
    assert storage.record_solve("k1", 10.0, "one").saved
    data = json.loads(storage.solved_path.read_text())
    data["bad"] = {"seconds": -5, "name": BAD, "when": "then"}
    storage.solved_path.write_text(json.dumps(data))
    with monkeypatch.context() as patch:
        _failing(patch, "write_bytes")
        other = Storage(tmp_path)
        assert not other.record_solve("k2", 20.0, "two").saved
        assert BAD in storage.solved_path.read_text() and set(other.solved()) == {"k1", "k2"}
    assert other.save_progress("k" * 20, {"history": [], "cursor": 0, "elapsed": 0.0, "solved": False})
    assert set(json.loads(storage.solved_path.read_text())) == {"k1", "k2"}
    assert any(BAD in path.read_text() for path in tmp_path.glob("solved.damaged-*.json"))


def test_a_window_whose_write_fails_measures_a_finish_against_the_records_on_disk(tmp_path, monkeypatch):
    """Two windows, the disk full: a window whose write failed took its own old copy of the
    list over the file it had just read, so a finish slower than the other window's best was
    called a new record ("was" a time that was never the best)."""
    first, second = Storage(tmp_path), Storage(tmp_path)
    first.solved(), second.solved()
    assert first.record_solve("k", 100.0).saved
    _failing(monkeypatch, "write_text")
    assert not second.record_solve("k", 200.0).saved
    solve = second.record_solve("k", 150.0)
    assert solve.level_best == 100.0 and second.solved()["k"]["seconds"] == 100.0
    assert records.record_message(solve.seconds, solve.level_best, solve.group_best, "6x6", "easy") == ""


def test_a_finish_says_new_record_only_when_the_kept_time_improves(tmp_path):
    """Times are kept to a tenth of a second: 89.99 s after a kept 90.0 s (from 90.04 s) is not
    a new best, yet the finish said "New record for this level! (was 1:30)"."""
    storage = Storage(tmp_path)
    storage.record_solve("k", 90.04, "six", "6x6", "easy")
    said = records.finish(storage, _SIX, "k", "six", 90.01, {})
    assert "New record" not in said and storage.solved()["k"]["seconds"] == 90.0


@pytest.mark.parametrize("best, finish", [(11.03, 10.96), (30.0, 29.96)])
def test_a_finish_the_clock_shows_faster_than_the_best_is_a_new_record(tmp_path, best, finish):
    """The clock shows whole seconds cut (10.96 s is 0:10), and times were kept rounded to a
    tenth (10.96 s kept as 11.0): a finish at 0:10 after a best of 0:11 said no record, and
    Stats showed the finish as 0:11. A time is kept cut to its tenth, as the clock cuts it."""
    storage = Storage(tmp_path)
    storage.record_solve("k", best, "six", "6x6", "easy")
    said = records.finish(storage, _SIX, "k", "six", finish, {})
    kept = storage.solved()["k"]["seconds"]
    assert records.clock(kept) == records.clock(finish) and kept < best
    assert f"New record for this level! (was {records.clock(best)})" in said


def test_a_record_within_the_same_second_says_both_times_to_the_tenth(tmp_path):
    """"Solved! 0:10 ... New record for this level! (was 0:10)" read as no gain at all."""
    storage = Storage(tmp_path)
    storage.record_solve("k", 10.6, "six", "6x6", "easy")
    said = records.finish(storage, _SIX, "k", "six", 10.2, {})
    assert "New record for this level! (0:10.2, was 0:10.6)" in said


def test_a_level_solved_before_claims_no_record_of_its_size_and_grade(tmp_path):
    """A level solved first through its code (no grade), then from its file (6x6 easy) slower
    than its best: the finish said "New record for 6x6 easy!" though its record stays the
    first play's, so Stats never showed that record."""
    storage = Storage(tmp_path)
    key = level_key(_SIX)
    records.finish(storage, LEVELS[5][1], key, "by code", 100.0, {})
    records.finish(storage, LEVELS[6][1], level_key(LEVELS[6][1]), "six again", 200.0, {})
    said = records.finish(storage, _SIX, key, "six", 150.0, {})
    assert "New record" not in said
    [row] = [row for row in records.stats_rows(storage.solved()) if (row.size, row.grade) == ("6x6", "easy")]
    assert row.best == 200.0


def test_a_window_setting_damaged_records_aside_keeps_a_record_another_window_writes_meanwhile(tmp_path,
                                                                                                monkeypatch):
    """A window that finds damaged records when it first reads the list rewrites the file with
    the good ones. It did so outside the list's lock, from what it had read: a record another
    window wrote between that read and the rewrite was lost."""
    import threading

    storage = Storage(tmp_path)
    assert storage.record_solve("k1", 10.0).saved
    data = json.loads(storage.solved_path.read_text())
    data["bad"] = {"seconds": -5, "name": BAD, "when": "then"}
    storage.solved_path.write_text(json.dumps(data))
    real_read = storage_module.read_json
    other = Storage(tmp_path)
    writer = threading.Thread(target=lambda: other.record_solve("k2", 20.0))

    def read_while_another_window_writes(path, *args, **kwargs):
        found = real_read(path, *args, **kwargs)
        if writer.ident is None:
            writer.start()                     # the other window writes now, while this one reads
            writer.join(0.5)
        return found

    monkeypatch.setattr(storage_module, "read_json", read_while_another_window_writes)
    first = Storage(tmp_path)
    assert set(first.solved()) >= {"k1"}
    writer.join()
    assert set(json.loads(storage.solved_path.read_text())) == {"k1", "k2"}


def test_each_weekday_plays_the_size_and_grade_of_the_guides_table():
    """The guide's week (docs/guide/daily-codes-records.md), over two years of dates."""
    table = ((8, "easy"), (10, "easy"), (8, "medium"), (10, "medium"), (8, "hard"), (10, "hard"), (10, "hard"))
    day = datetime.date(2026, 1, 1)
    seeds = set()
    for offset in range(731):
        date = day + datetime.timedelta(days=offset)
        assert daily.plan(date) == table[date.weekday()]          # Monday first
        assert daily.date_of(daily_puzzle(date)) == date
        seeds.add(daily.seed_of(date))
    assert len(seeds) == 731                       # each date its own puzzle
