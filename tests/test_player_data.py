"""The player's own data under attack: two windows at once, a save killed half way, a full
disk, a clock that jumps, odd things in the per-user folder. Nothing the player did is lost."""

import datetime
import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game import files
from game.puzzle import Cell
from game.session import Session
from tests.test_storage import SOLUTION_SHIPS, click_cells, small_puzzle, tutorial_key, window
from window.records import days_of, streaks
from window.storage import Storage, level_key

ROOT = Path(__file__).resolve().parents[1]


class Disk:
    """A disk that can be made full: every write of the per-user files fails with ENOSPC."""

    def __init__(self, monkeypatch):
        self.full = False
        real = files.Output.__init__

        def output(this, path, *args, **kwargs):
            if self.full:
                raise files.OutputError(path, os.strerror(errno.ENOSPC), errno.ENOSPC)
            real(this, path, *args, **kwargs)

        monkeypatch.setattr(files.Output, "__init__", output)


def progress_of(home, key):
    return json.loads((home / "progress" / f"{key}.json").read_text())


# ----- a full disk ---------------------------------------------------------------------------------


def test_a_failed_save_is_made_again_when_the_level_is_closed(tmp_path, monkeypatch):
    disk, home = Disk(monkeypatch), tmp_path / "home"
    app = window(home, monkeypatch)
    try:
        click_cells(app, [(5, 5)])
        disk.full = True
        click_cells(app, [(5, 5), (5, 5), (4, 4)])
        assert "cannot be saved (No space left on device" in app.play.message
        assert len(progress_of(home, tutorial_key())["history"]) == 1       # the old file is as it was
        disk.full = False                                                   # room again, no move since
        app.play.close()
        assert len(progress_of(home, tutorial_key())["history"]) == 4
    finally:
        app.shutdown()


def test_a_solve_made_on_a_full_disk_is_recorded_once_there_is_room(tmp_path, monkeypatch):
    disk, home = Disk(monkeypatch), tmp_path / "home"
    app = window(home, monkeypatch)
    try:
        disk.full = True
        click_cells(app, [(5, 5), (5, 5), (5, 5)] + SOLUTION_SHIPS)
        assert app.play.session.solved and "cannot be saved" in app.play.message
        assert not (home / "solved.json").exists()
        disk.full = False
        app.play.close()
    finally:
        app.shutdown()
    assert progress_of(home, tutorial_key())["solved"] is True
    assert list(json.loads((home / "solved.json").read_text())) == [tutorial_key()]


def test_a_record_that_failed_is_written_with_the_next_save(tmp_path, monkeypatch):
    disk = Disk(monkeypatch)
    storage = Storage(tmp_path)
    disk.full = True
    assert not storage.record_solve("k1", 50.0, "one", "6x6", "easy").saved
    assert not storage.mark_daily("2026-11-26", 50.0)
    assert storage.is_solved("k1") and "2026-11-26" in storage.daily()     # this window still shows them
    told = storage.take_messages()
    assert len(told) == 2 and all(line.startswith("progress cannot be saved (No space left on device: ")
                                  and "\n" not in line for line in told)
    disk.full = False
    assert storage.save_progress("somelevel", Session(small_puzzle()).to_dict())
    assert json.loads((tmp_path / "solved.json").read_text())["k1"]["seconds"] == 50.0
    assert list(json.loads((tmp_path / "daily.json").read_text())) == ["2026-11-26"]
    assert storage.record_solve("k2", 40.0).saved                           # written once, not again
    assert set(Storage(tmp_path).solved()) == {"k1", "k2"}


def test_a_solved_play_whose_record_was_lost_is_recorded_when_opened(tmp_path, monkeypatch):
    home = tmp_path / "home"
    app = window(home, monkeypatch)
    try:
        click_cells(app, [(5, 5), (5, 5), (5, 5)] + SOLUTION_SHIPS)
        assert app.play.session.solved
    finally:
        app.shutdown()
    (home / "solved.json").unlink()              # as when the disk was full at the finish, and only then
    app = window(home, monkeypatch)
    try:
        assert app.play.session.solved and "the solve is now recorded" in app.play.message
        assert Storage(home).is_solved(tutorial_key())
    finally:
        app.shutdown()


@pytest.mark.parametrize("saved_days_later", [0, 1])
def test_a_daily_solve_whose_record_was_lost_counts_for_its_day_when_its_play_was_saved_that_day(
        tmp_path, monkeypatch, saved_days_later):
    from game import levels
    from window.app import DEFAULT_LEVEL

    day = datetime.date.today() - datetime.timedelta(days=3)
    path = tmp_path / "daily.bs"
    levels.save(levels.load(DEFAULT_LEVEL).replace(name=f"Daily {day.isoformat()}",
                                                   source=f"daily puzzle {day.isoformat()} (version 1)"), path)
    home = tmp_path / "home"
    monkeypatch.setenv("BATTLESHIPS_HOME", str(home))

    def daily_window():                  # opened on the daily level alone (the tutorial has the same content)
        from window.app import App

        app = App(window=(1100, 720))
        assert app.open_level(path)
        app.pump()
        return app

    app = daily_window()
    try:
        click_cells(app, [(5, 5), (5, 5), (5, 5)] + SOLUTION_SHIPS)
        assert app.play.session.solved
        key = app.play.key
    finally:
        app.shutdown()
    assert Storage(home).daily() == {}                    # solved on another day than its own: no day counted
    # As when the finish's records could not be written, on the puzzle's day (the play could).
    (home / "solved.json").unlink()
    saved = datetime.datetime.combine(day + datetime.timedelta(days=saved_days_later), datetime.time(12)).timestamp()
    os.utime(home / "progress" / f"{key}.json", (saved, saved))
    app = daily_window()
    try:
        assert "the solve is now recorded" in app.play.message
        assert Storage(home).is_solved(key)
        assert (day.isoformat() in Storage(home).daily()) == (saved_days_later == 0)
    finally:
        app.shutdown()


# ----- odd things in the per-user folder -------------------------------------------------------------


@pytest.mark.parametrize("lock", ["folder", "dangling link"])
def test_records_are_kept_when_their_lock_file_cannot_be_made(tmp_path, lock):
    for name in ("solved.json.lock", "daily.json.lock"):
        if lock == "folder":
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).symlink_to(tmp_path / "nowhere" / name)
    storage = Storage(tmp_path)
    assert storage.record_solve("k", 12.0).saved and storage.mark_daily("2026-11-26", 12.0)
    assert storage.take_messages() == []
    assert Storage(tmp_path).is_solved("k") and "2026-11-26" in Storage(tmp_path).daily()
    assert not (tmp_path / "nowhere").exists()                     # the link was not followed


# ----- two windows at once -----------------------------------------------------------------------------

FREE = [(r, c) for r in range(3, 6) for c in range(6)]


def plays_on_disk(folder, key):
    """The histories of every play of ``key`` in ``folder``: the progress file and those kept aside."""
    return [json.loads(path.read_text())["history"] for path in sorted(folder.glob(f"{key}*.json"))]


def test_a_window_saving_a_level_keeps_the_play_another_window_saved_there(tmp_path):
    puzzle = small_puzzle()
    key = level_key(puzzle)
    first, second = Storage(tmp_path), Storage(tmp_path)
    mine, theirs = (storage.restore_play(key, puzzle) or Session(puzzle) for storage in (first, second))
    for row, col in FREE[:5]:                          # the first window plays five moves, then is closed
        mine.set_cell(row, col, Cell.WATER)
        assert first.save_play(key, mine)
    theirs.set_cell(5, 5, Cell.SHIP)                   # the second, opened before, plays one
    assert second.save_play(key, theirs)
    histories = plays_on_disk(tmp_path / "progress", key)
    assert mine.to_dict()["history"] in histories and theirs.to_dict()["history"] in histories
    assert Storage(tmp_path).restore_play(key, puzzle).to_dict() == theirs.to_dict()   # the latest play opens
    told = second.take_messages()
    assert len(told) == 1 and "another window saved a different play of this level; kept as" in told[0]


def test_a_window_still_on_the_solved_play_keeps_the_attempt_another_window_started_aside(tmp_path):
    """Play again in one window saves a new attempt, its history empty; another window still on
    the solved play saved over it without keeping it: an empty history is the start of every
    play, so the solved one seemed to go on from it. A play goes on from another only within
    the same attempt (``attempt``, saved from the second on)."""
    puzzle = small_puzzle()
    key = level_key(puzzle)
    solved = Session(puzzle)
    for r, c in puzzle.cells():
        if not solved.is_hint(r, c):
            solved.set_cell(r, c, Cell.SHIP if (r, c) in SOLUTION_SHIPS else Cell.WATER)
    assert solved.solved and Storage(tmp_path).save_play(key, solved)
    first, second = Storage(tmp_path), Storage(tmp_path)
    mine, theirs = (storage.restore_play(key, puzzle) for storage in (first, second))
    assert mine.play_again() and mine.attempt == 1
    mine.set_cell(5, 5, Cell.WATER)
    assert first.save_play(key, mine)
    assert Session.restore(puzzle, json.loads(first.progress_path(key).read_text())).attempt == 1
    assert second.save_play(key, theirs)                 # the window still showing the solved play
    histories = plays_on_disk(tmp_path / "progress", key)
    assert mine.to_dict()["history"] in histories and theirs.to_dict()["history"] in histories
    assert "another window saved a different play of this level; kept as" in second.take_messages()[0]


def solve(session):
    for r, c in session.puzzle.cells():
        if not session.is_hint(r, c):
            session.set_cell(r, c, Cell.SHIP if (r, c) in SOLUTION_SHIPS else Cell.WATER)
    assert session.solved


def test_a_play_kept_aside_is_not_replaced_by_a_later_attempt_that_starts_the_same_way(tmp_path):
    """The play another window saved is kept aside once, and its later states take the place of
    that file. A later attempt (Play again) that starts with the same moves is another play, not
    a later state of the kept one: it was saved over the attempt kept aside, which was lost."""
    puzzle = small_puzzle()
    key = level_key(puzzle)
    solved = Session(puzzle)
    solve(solved)
    assert Storage(tmp_path).save_play(key, solved)
    first, second = Storage(tmp_path), Storage(tmp_path)
    mine, theirs = (storage.restore_play(key, puzzle) for storage in (first, second))
    assert mine.play_again()
    mine.set_cell(5, 5, Cell.WATER)
    assert first.save_play(key, mine)
    assert second.save_play(key, theirs)                 # keeps attempt 1, at one move, aside
    attempt_one = mine.to_dict()
    solve(mine)                                          # attempt 1 goes on, solved, and Play again
    assert mine.play_again() and mine.attempt == 2
    mine.set_cell(5, 5, Cell.WATER)
    mine.set_cell(5, 4, Cell.WATER)
    assert first.save_play(key, mine)
    assert second.save_play(key, theirs)
    plays = [json.loads(path.read_text()) for path in sorted((tmp_path / "progress").glob(f"{key}*.json"))]
    kept = [(play.get("attempt", 0), play["history"]) for play in plays]
    assert (1, attempt_one["history"]) in kept and (2, mine.to_dict()["history"]) in kept


def test_two_windows_saving_one_level_by_turns_keep_both_plays_in_one_file_each(tmp_path):
    puzzle = small_puzzle()
    key = level_key(puzzle)
    windows = [Storage(tmp_path), Storage(tmp_path)]
    sessions = [storage.restore_play(key, puzzle) or Session(puzzle) for storage in windows]
    for turn in range(12):
        index = turn % 2
        row, col = FREE[turn]
        sessions[index].set_cell(row, col, Cell.WATER if index else Cell.SHIP)
        assert windows[index].save_play(key, sessions[index])
    histories = plays_on_disk(tmp_path / "progress", key)
    assert len(histories) <= 3                          # the progress file and one kept play of each
    assert all(session.to_dict()["history"] in histories for session in sessions)


def test_one_window_saving_over_its_own_play_keeps_nothing_aside(tmp_path):
    puzzle = small_puzzle()
    key = level_key(puzzle)
    for _ in range(3):                                  # opened, played, closed, opened again...
        storage = Storage(tmp_path)
        session = storage.restore_play(key, puzzle) or Session(puzzle)
        for row, col in FREE[:4]:
            session.cycle(row, col)
            assert storage.save_play(key, session)
        assert storage.take_messages() == []
    assert [path.name for path in (tmp_path / "progress").iterdir()] == [f"{key}.json"]


# ----- a save killed half way ----------------------------------------------------------------------------

KILLER = textwrap.dedent("""
    import json, os, random, signal, sys, time
    from game.puzzle import Hint, Puzzle
    from game.session import Session
    from game.files import write_text
    from window.storage import Storage, level_key

    root, count = sys.argv[1], int(sys.argv[2])
    random.seed(count)
    puzzle = Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
                    {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP})
    key = level_key(puzzle)
    cells = [(r, c) for r in range(6) for c in range(6) if (r, c) not in puzzle.hints]
    problems, steps, solved, days, kills = [], 0, set(), set(), 0
    for attempt in range(count):
        if attempt % 7 == 0:        # a damaged record: the next start copies the file aside and rewrites it
            path = os.path.join(root, "solved.json")
            records = json.load(open(path)) if os.path.exists(path) else {}
            records["bad"] = {"seconds": "fast", "name": "", "when": ""}
            write_text(path, json.dumps(records))
        child = os.fork()
        if child == 0:
            try:
                storage = Storage(root)
                session = storage.restore_play(key, puzzle) or Session(puzzle)
                number = 0
                while True:
                    number += 1
                    session.cycle(*cells[number % len(cells)])
                    storage.save_play(key, session)
                    storage.record_solve(f"k{attempt}x{number}", number, "x" * (number % 300), "6x6", "easy")
                    storage.mark_daily(f"{2000 + attempt % 900:04d}-01-{number % 28 + 1:02d}", number)
            finally:
                os._exit(0)
        time.sleep(random.random() * 0.05)
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        kills += 1
        for folder in (root, os.path.join(root, "progress")):
            for name in os.listdir(folder) if os.path.isdir(folder) else []:
                if name in ("solved.json", "daily.json", key + ".json"):
                    try:
                        with open(os.path.join(folder, name)) as handle:
                            json.load(handle)
                    except ValueError as error:
                        problems.append(f"{attempt}: {name} is not whole ({error})")
                elif not (name.endswith(".lock") or name == "progress" or ".damaged-" in name
                          or (name.startswith(".battleships-") and name.endswith(".tmp"))):
                    problems.append(f"{attempt}: {name} left behind")
        storage = Storage(root)
        session = storage.restore_play(key, puzzle)
        now_solved, now_days = set(storage.solved()), set(storage.daily())
        told = storage.take_messages()
        if [line for line in told if "damaged record of solved levels dropped" not in line]:
            problems.append(f"{attempt}: the next start said {told}")
        if session is not None:
            if len(session.history) < steps:
                problems.append(f"{attempt}: the play went back from {steps} to {len(session.history)} steps")
            steps = len(session.history)
        if not (solved <= now_solved and days <= now_days):
            problems.append(f"{attempt}: records lost: {sorted(solved - now_solved)[:3]} {sorted(days - now_days)[:3]}")
        solved, days = now_solved, now_days
    print(json.dumps({"kills": kills, "steps": steps, "solved": len(solved), "problems": problems[:20]}))
""")


def killed_saves(root, count):
    result = subprocess.run([sys.executable, "-c", KILLER, str(root), str(count)], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_saves_killed_at_random_points_leave_every_file_whole_and_lose_nothing(tmp_path):
    found = killed_saves(tmp_path, 150)
    assert found["problems"] == []
    assert found["kills"] == 150 and found["steps"] > 10 and found["solved"] > 10     # the saves went on


@pytest.mark.slow
def test_a_thousand_killed_saves(tmp_path):
    found = killed_saves(tmp_path, 1000)
    assert found["problems"] == [] and found["kills"] == 1000


# ----- a full disk, for real: writes cut short by a file-size limit -------------------------------------

FULL_DISK = textwrap.dedent("""
    import json, resource, sys
    from game.puzzle import Cell
    from game.session import Session
    from tests.test_storage import small_puzzle
    from window.storage import Storage, level_key

    root = sys.argv[1]
    puzzle = small_puzzle()
    storage = Storage(root)
    session = storage.restore_play(level_key(puzzle), puzzle)
    storage.solved(), storage.daily()
    resource.setrlimit(resource.RLIMIT_FSIZE, (300, 300))      # any file past 300 bytes: EFBIG
    for row in range(3, 6):
        for col in range(6):
            session.set_cell(row, col, Cell.WATER)
    print(json.dumps({
        "progress": storage.save_play(level_key(puzzle), session),
        "solved": storage.record_solve("new" + "x" * 40, 30.0, "y" * 400).saved,
        "daily": storage.mark_daily("2026-11-27", 30.0),
        "told": storage.take_messages(),
        "moves": session.moves_made,
    }))
""")


def test_each_save_on_a_full_disk_leaves_the_old_file_and_says_so_in_one_line(tmp_path):
    puzzle = small_puzzle()
    key = level_key(puzzle)
    storage = Storage(tmp_path)
    session = Session(puzzle)
    session.set_cell(5, 5, Cell.SHIP)
    assert storage.save_play(key, session) and all(storage.mark_daily(f"2026-11-{day:02d}", 10.0)
                                                   for day in range(1, 27))
    assert storage.record_solve("old", 20.0, "z" * 300).saved
    before = {path.name: path.read_bytes() for path in tmp_path.rglob("*.json")}
    result = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert (found["progress"], found["solved"], found["daily"]) == (False, False, False)
    assert found["moves"] == 19                                     # play goes on in the window
    assert found["told"] and all(line.startswith("progress cannot be saved (File too large") and "\n" not in line
                                 for line in found["told"])
    assert {path.name: path.read_bytes() for path in tmp_path.rglob("*.json")} == before
    assert not list(tmp_path.rglob(".battleships-*"))


def test_the_time_thought_after_the_last_move_is_saved_when_the_level_is_closed(tmp_path, monkeypatch):
    home = tmp_path / "home"
    app = window(home, monkeypatch)
    try:
        click_cells(app, [(5, 5)])
        app.play.update(600.0)                       # ten minutes without a move
        shown = app.play.session.elapsed
        app.play.close()
        assert progress_of(home, tutorial_key())["elapsed"] == pytest.approx(shown, abs=0.01)
    finally:
        app.shutdown()
    reopened = window(home, monkeypatch)
    try:
        assert reopened.play.session.elapsed >= 600
    finally:
        reopened.shutdown()
    assert sorted(path.name for path in (home / "progress").iterdir()) == [f"{tutorial_key()}.json"]


def test_a_level_opened_and_left_without_a_move_saves_no_play(tmp_path, monkeypatch):
    home = tmp_path / "home"
    app = window(home, monkeypatch)
    try:
        app.play.update(30.0)
        app.play.close()
    finally:
        app.shutdown()
    assert not (home / "progress" / f"{tutorial_key()}.json").exists()


# ----- a clock that jumps --------------------------------------------------------------------------------


def test_streaks_run_over_the_year_end_and_a_leap_day():
    run = {datetime.date(2027, 12, 30) + datetime.timedelta(days=n) for n in range(4)}     # to 2 January
    assert streaks(run, datetime.date(2028, 1, 2)) == (4, 4)
    leap = {datetime.date(2028, 2, 27) + datetime.timedelta(days=n) for n in range(4)}     # 27 Feb to 1 March
    assert datetime.date(2028, 2, 29) in leap and streaks(leap, datetime.date(2028, 3, 1)) == (4, 4)


def test_a_clock_set_back_keeps_every_day_and_record(tmp_path):
    storage = Storage(tmp_path)
    for day in ("2026-11-25", "2026-11-26", "2026-11-27"):
        assert storage.mark_daily(day, 60.0)
    assert storage.mark_daily("2026-01-01", 60.0)            # the clock went back a year: one more day
    assert storage.record_solve("k", 30.0).saved
    days = days_of(Storage(tmp_path).daily())
    assert len(days) == 4
    assert streaks(days, datetime.date(2026, 1, 1)) == (1, 3)   # a day "in the future" is kept, not counted now
    assert streaks(days, datetime.date(2026, 11, 27)) == (3, 3)


# ----- the level changed under its saved play -------------------------------------------------------------


def test_a_level_changed_on_disk_opens_fresh_and_its_old_play_stays(tmp_path):
    puzzle = small_puzzle()
    storage = Storage(tmp_path)
    session = Session(puzzle)
    session.set_cell(5, 5, Cell.SHIP)
    assert storage.save_play(level_key(puzzle), session)
    changed = puzzle.replace(row_tallies=(4, 0, 3, 2, 1, 0))
    assert Storage(tmp_path).restore_play(level_key(changed), changed) is None
    assert Storage(tmp_path).restore_play(level_key(puzzle), puzzle).to_dict() == session.to_dict()


# ----- odd and hostile per-user files ---------------------------------------------------------------------


def big(path):
    with open(path, "wb") as handle:                      # 100 MB, sparse: no time or disk to make
        handle.truncate(100 * 1024 * 1024)


HOSTILE = {
    "100 MB": big,
    "deep": lambda path: path.write_text("[" * 200_000),
    "wrong types": lambda path: path.write_text('{"history": {}, "cursor": "0", "elapsed": [], "solved": 1}'),
    "NaN": lambda path: path.write_text('{"history": [], "cursor": 0, "elapsed": NaN, "solved": false}'),
    "negative time": lambda path: path.write_text('{"history": [], "cursor": 0, "elapsed": -5, "solved": false}'),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("name", ["progress", "solved.json", "daily.json"])
def test_a_hostile_per_user_file_is_kept_aside_in_one_line_and_the_window_plays_on(tmp_path, monkeypatch,
                                                                                      name, kind):
    home = tmp_path / "home"
    (home / "progress").mkdir(parents=True)
    path = home / "progress" / f"{tutorial_key()}.json" if name == "progress" else home / name
    HOSTILE[kind](path)
    size = path.stat().st_size
    app = window(home, monkeypatch)
    try:
        app.open_stats()
        app.pump()
        app.close_overlay()
        app.open_daily()
        app.pump()
        app.close_overlay()
        app.pump()
        message = app.play.message
        assert f"{path}: " in message and "damaged" in message and "kept as" in message and "\n" not in message
        click_cells(app, [(5, 5)])
        assert app.play.session.moves_made == 1
    finally:
        app.shutdown()
    kept = [other for other in path.parent.iterdir() if ".damaged-" in other.name]
    assert [other.stat().st_size for other in kept] == [size]


PLAYER = textwrap.dedent("""
    import json, sys
    from game.session import Session
    from tests.test_storage import small_puzzle
    from window.storage import Storage, level_key

    root, which, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    puzzle = small_puzzle()
    key = level_key(puzzle)
    storage = Storage(root)
    session = storage.restore_play(key, puzzle) or Session(puzzle)
    cells = [(r, c) for r in range(3 * which, 3 * which + 3) for c in range(6) if (r, c) not in puzzle.hints]
    for number in range(count):
        session.cycle(*cells[number % len(cells)])
        assert storage.save_play(key, session)
        assert storage.record_solve(f"w{which}-{number}", number).saved
    print(json.dumps(session.to_dict()["history"]))
""")


def test_two_window_processes_playing_one_level_at_once_lose_no_play_and_no_record(tmp_path):
    players = [subprocess.Popen([sys.executable, "-c", PLAYER, str(tmp_path), str(which), "150"], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True) for which in (0, 1)]
    finals = [json.loads(player.communicate(timeout=300)[0]) for player in players]
    assert [player.returncode for player in players] == [0, 0]
    histories = plays_on_disk(tmp_path / "progress", level_key(small_puzzle()))
    assert all(final in histories for final in finals) and len(histories) <= 3
    assert len(Storage(tmp_path).solved()) == 300


def test_a_linked_data_folder_is_written_through_and_a_file_in_place_of_progress_is_left_alone(tmp_path,
                                                                                                  monkeypatch):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "home").symlink_to(real)
    app = window(tmp_path / "home", monkeypatch)
    try:
        click_cells(app, [(5, 5)])
    finally:
        app.shutdown()
    assert (tmp_path / "home").is_symlink() and (real / "progress" / f"{tutorial_key()}.json").is_file()
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "progress").write_text("not a folder")
    app = window(blocked, monkeypatch)
    try:
        click_cells(app, [(5, 5)])
        assert "progress cannot be saved (" in app.play.message and "\n" not in app.play.message
        click_cells(app, [(5, 4)])
        assert app.play.session.moves_made == 2
    finally:
        app.shutdown()
    assert (blocked / "progress").read_text() == "not a folder"


def test_a_record_that_keeps_failing_is_told_once_while_the_play_is_saved(tmp_path, monkeypatch):
    blocked = {"on": True}
    real = files.Output.__init__

    def output(this, path, *args, **kwargs):
        if blocked["on"] and os.path.basename(path) == "solved.json":
            raise files.OutputError(path, os.strerror(errno.EROFS), errno.EROFS)
        real(this, path, *args, **kwargs)

    monkeypatch.setattr(files.Output, "__init__", output)
    puzzle = small_puzzle()
    storage = Storage(tmp_path)
    assert not storage.record_solve("k", 30.0).saved
    assert len(storage.take_messages()) == 1
    session = Session(puzzle)
    for row, col in FREE[:5]:
        session.cycle(row, col)
        assert storage.save_play(level_key(puzzle), session)
        assert storage.take_messages() == []                     # each save tries the record again, quietly
    blocked["on"] = False
    session.cycle(*FREE[5])
    assert storage.save_play(level_key(puzzle), session) and storage.take_messages() == []
    assert Storage(tmp_path).is_solved("k")


CUT_COPY = textwrap.dedent("""
    import resource, sys
    from window.storage import Storage
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))       # the copy aside is cut at 4 KB
    storage = Storage(sys.argv[1])
    print(len(storage.solved()))
    print(storage.take_messages()[0])
""")


def test_a_copy_aside_cut_short_by_a_full_disk_leaves_no_part_of_itself(tmp_path):
    records = {f"k{number}": {"seconds": number, "name": "n" * 50, "when": "then"} for number in range(150)}
    records["bad"] = {"seconds": "fast", "name": "", "when": ""}
    (tmp_path / "solved.json").write_text(json.dumps(records))
    before = (tmp_path / "solved.json").read_bytes()
    result = subprocess.run([sys.executable, "-c", CUT_COPY, str(tmp_path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    count, told = result.stdout.splitlines()
    assert count == "150" and "could not be moved aside (File too large" in told
    # no short copy beside it (the list's lock file is taken for the read that would rewrite it)
    assert sorted(path.name for path in tmp_path.iterdir() if path.suffix != ".lock") == ["solved.json"]
    assert (tmp_path / "solved.json").read_bytes() == before
