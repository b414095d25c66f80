"""The player's own data under attack: two windows at once, a save killed half way, a full
disk, a clock that jumps, odd things in the per-user folder. Nothing the player did is lost."""

import datetime
import errno
import json
import os
import random
import signal
import time

import pytest

from game import files
from game.puzzle import Cell, Move
from game.session import Session
from tests.test_storage import SOLUTION_SHIPS, click_cells, small_puzzle, tutorial_key, window
from window import storage as storage_module
from window.records import days_of, streaks
from window.storage import Storage, level_key


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
