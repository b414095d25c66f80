"""Per-user progress files: atomic writes, round trips, damaged files, solved records."""

import json
import os
import re
import time

import pytest

from game.files import write_text
from game.puzzle import Cell, Hint, Puzzle
from game.session import Session
from window.storage import Storage, level_key


def small_puzzle(**changes) -> Puzzle:
    base = Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
                  {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP})
    return base.replace(**changes) if changes else base


def test_level_key_depends_on_content_not_name():
    assert level_key(small_puzzle()) == level_key(small_puzzle(name="renamed"))
    assert level_key(small_puzzle()) != level_key(small_puzzle(hints={(0, 4): Hint.SUB}))


def test_a_write_replaces_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "deep" / "file.json"
    write_text(target, "one", parents=True)
    write_text(target, "two", parents=True)
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["file.json"]


def test_progress_round_trip(tmp_path):
    storage = Storage(tmp_path)
    puzzle = small_puzzle()
    session = Session(puzzle)
    session.set_cell(5, 5, 1)
    key = level_key(puzzle)
    assert storage.load_progress(key) is None
    assert storage.save_progress(key, session.to_dict())
    restored = Session.from_dict(puzzle, storage.load_progress(key))
    assert restored.grid == session.grid


def test_damaged_files_read_as_absent(tmp_path):
    storage = Storage(tmp_path)
    storage.progress_path("k").parent.mkdir(parents=True)
    storage.progress_path("k").write_text("{not json")
    storage.solved_path.write_text("[1, 2]")
    assert storage.load_progress("k") is None
    assert storage.solved() == {}


def test_mark_solved_keeps_best_time(tmp_path):
    storage = Storage(tmp_path)
    storage.mark_solved("abc", 50.0, "First")
    storage.mark_solved("abc", 80.0, "First")
    assert storage.is_solved("abc") and not storage.is_solved("other")
    assert json.loads(storage.solved_path.read_text())["abc"]["seconds"] == 50.0


def test_unwritable_folder_does_not_raise(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    storage = Storage(blocker)            # a file where the folder should be
    assert storage.save_progress("k", {}) is False
    assert storage.mark_solved("k", 1.0) is False


# ----- damaged progress (moved aside, never deleted; told once) ------------------------------------


def saved_play(puzzle=None):
    session = Session(puzzle or small_puzzle())
    session.set_cell(5, 5, Cell.WATER)
    session.set_cell(4, 4, Cell.SHIP)
    return session.to_dict()


def asides(folder):
    return sorted(p.name for p in folder.iterdir() if ".damaged-" in p.name)


DAMAGED_PLAYS = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "nan": '{"history": [], "cursor": 0, "elapsed": NaN, "solved": false}',
    "solved as text": '{"history": [], "cursor": 0, "elapsed": 1.0, "solved": "false"}',
    "cursor beyond": '{"history": [], "cursor": 3, "elapsed": 1.0, "solved": false}',
    "bad move": '{"history": [{"label": "", "moves": ["r1c1=Z"]}], "cursor": 1, "elapsed": 1.0, "solved": false}',
    "huge number": '{"history": [], "cursor": 0, "elapsed": 1' + "0" * 400 + ', "solved": false}',
    "not utf-8": b'{"history": [], "cursor": 0, "elapsed": 1.0, "solved": false, "x": "\xff"}',
    "asked not counted": '{"history": [], "cursor": 0, "elapsed": 1.0, "solved": false, "asked": {"hint": -1}}',
    "asked what": '{"history": [], "cursor": 0, "elapsed": 1.0, "solved": false, "asked": {"peek": 1}}',
}


@pytest.mark.parametrize("name", sorted(DAMAGED_PLAYS))
def test_damaged_progress_is_moved_aside_and_reported_once(tmp_path, name):
    storage = Storage(tmp_path)
    path = storage.progress_path("k")
    path.parent.mkdir(parents=True)
    content = DAMAGED_PLAYS[name]
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    assert storage.load_progress("k") is None
    assert not path.exists()
    [aside] = asides(path.parent)
    assert re.fullmatch(r"k\.damaged-\d{8}T\d{6}Z\.json", aside)
    assert (path.parent / aside).read_bytes() == (content if isinstance(content, bytes) else content.encode())
    [message] = storage.take_messages()
    assert str(path) in message and aside in message
    assert storage.take_messages() == []


def test_progress_that_does_not_fit_the_level_is_moved_aside(tmp_path):
    storage = Storage(tmp_path)
    big = Puzzle(8, 8, (0,) * 8, (0,) * 8, ((1, 1),))
    play = Session(big)
    play.set_cell(7, 7, Cell.WATER)                       # outside the 6x6 level
    storage.save_progress("k", play.to_dict())
    assert storage.load_progress("k", small_puzzle()) is None
    assert len(asides(storage.progress_path("k").parent)) == 1
    on_a_hint = saved_play()
    on_a_hint["history"][0]["moves"] = ["r0c4=."]          # (0, 4) is a given submarine
    storage.save_progress("k", on_a_hint)
    assert storage.load_progress("k", small_puzzle()) is None


def test_good_progress_is_left_untouched(tmp_path):
    storage = Storage(tmp_path)
    storage.save_progress("k", saved_play())
    before = storage.progress_path("k").read_bytes()
    assert storage.load_progress("k", small_puzzle()) == saved_play()
    assert storage.progress_path("k").read_bytes() == before and storage.take_messages() == []


def test_one_damaged_level_keeps_the_others(tmp_path):
    storage = Storage(tmp_path)
    storage.save_progress("good", saved_play())
    storage.progress_path("bad").write_text("{")
    assert storage.load_progress("bad") is None
    assert storage.load_progress("good") == saved_play()


# ----- solved list ---------------------------------------------------------------------------------


def test_damaged_solved_entries_are_dropped_and_the_good_kept(tmp_path):
    storage = Storage(tmp_path)
    good = {"seconds": 12.5, "name": "First", "when": "2026-01-01 10:00:00"}
    original = json.dumps({"good": good, "bad": {"seconds": "fast", "name": "x", "when": "y"}})
    storage.solved_path.write_text(original)
    assert storage.solved() == {"good": good}
    assert json.loads(storage.solved_path.read_text()) == {"good": good}    # rewritten clean
    [aside] = asides(tmp_path)
    assert (tmp_path / aside).read_text() == original                      # the damaged one is kept
    [message] = storage.take_messages()
    assert "solved.json" in message and "1 damaged record" in message
    storage.solved()
    assert storage.take_messages() == []


def test_a_number_too_large_drops_its_record_not_the_whole_list(tmp_path):
    # One time of 1e999 (valid JSON, too large for a float) set the whole daily list aside, and
    # every good day of it was no longer shown; a second window reading it later kept its view.
    storage = Storage(tmp_path)
    good = {"seconds": 61.0, "when": "2026-11-01 10:00:00"}
    original = '{"2026-11-01": ' + json.dumps(good) + ', "2026-11-02": {"seconds": 1e999, "when": "x"}}'
    storage.daily_path.write_text(original)
    assert storage.daily() == {"2026-11-01": good}
    assert json.loads(storage.daily_path.read_text()) == {"2026-11-01": good}     # rewritten clean
    [aside] = asides(tmp_path)
    assert (tmp_path / aside).read_text() == original                          # the damaged one is kept
    assert "1 damaged record" in storage.take_messages()[0]
    later = '{"2026-11-01": ' + json.dumps(good) + ', "2026-11-03": {"seconds": -1e999, "when": "x"}}'
    storage.daily_path.write_text(later)                                         # another window's write
    assert storage.daily() == {"2026-11-01": good}


def test_solved_list_is_not_rewritten_when_it_cannot_be_kept_aside(tmp_path, monkeypatch):
    def refuse(*args):
        raise PermissionError(13, "Permission denied", str(args[1]))

    storage = Storage(tmp_path)
    original = '{"good": {"seconds": 1, "name": "", "when": ""}, "bad": 5}'
    storage.solved_path.write_text(original)
    monkeypatch.setattr("window.storage.write_bytes", lambda target, data: refuse(data, target))   # the copy aside
    assert set(storage.solved()) == {"good"}
    assert storage.solved_path.read_text() == original
    assert "could not be moved aside" in storage.take_messages()[0]


def test_mark_solved_over_a_damaged_time_does_not_raise(tmp_path):
    storage = Storage(tmp_path)
    storage.solved_path.write_text('{"abc": {"seconds": "slow", "name": "", "when": ""}}')
    assert storage.mark_solved("abc", 30.0, "First")
    assert storage.solved()["abc"]["seconds"] == 30.0


def test_unreadable_solved_list_is_moved_aside(tmp_path):
    storage = Storage(tmp_path)
    storage.solved_path.write_text('{"a": ' * 50_000)
    assert storage.solved() == {}
    assert not storage.solved_path.exists() and len(asides(tmp_path)) == 1


@pytest.mark.parametrize("make, said", [
    (lambda path: path.write_bytes(b" " * 1_000_001), "a saved game or record is at most"),
    (lambda path: path.mkdir(), "is a folder, not a saved game or record file")])
def test_a_huge_or_folder_records_file_is_named_for_what_it_is_not_a_level(tmp_path, make, said):
    storage = Storage(tmp_path)
    make(storage.solved_path)
    assert storage.solved() == {}
    [message] = storage.take_messages()
    assert said in message and "level" not in message.split("solved levels", 1)[1]
    assert len(asides(tmp_path)) == 1


# ----- failed saves and temporary files ------------------------------------------------------------


def test_failed_saves_are_reported_once_with_the_reason(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    storage = Storage(blocker)
    assert not storage.save_progress("k", {}) and not storage.save_progress("k", {})
    [message] = storage.take_messages()
    assert message.startswith("progress cannot be saved (") and "file" in message
    assert not storage.mark_solved("k", 1.0)              # said again: the window just claimed it
    [again] = storage.take_messages()
    assert again.startswith("progress cannot be saved (")


def test_orphan_temp_files_of_ours_are_removed_at_start(tmp_path):
    (tmp_path / "progress").mkdir()
    ours = [tmp_path / ".battleships-abc.tmp", tmp_path / "progress" / ".battleships-x1.tmp",
            tmp_path / ".solved.json.k2j3.tmp"]
    fresh = tmp_path / ".battleships-now.tmp"              # perhaps another window's write in progress
    theirs = [tmp_path / "notes.tmp", tmp_path / "progress" / "k.json"]
    for path in ours + theirs + [fresh]:
        path.write_text("x")
    for path in ours + theirs:
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    Storage(tmp_path)
    assert not any(p.exists() for p in ours)
    assert all(p.exists() for p in theirs + [fresh])


# ----- in the window -------------------------------------------------------------------------------

SOLUTION_SHIPS = [(0, 0), (0, 1), (0, 2), (3, 0), (2, 2), (3, 2), (2, 5), (5, 1)]   # plus the given ones


def window(home, monkeypatch):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from window.app import DEFAULT_LEVEL, App

    monkeypatch.setenv("BATTLESHIPS_HOME", str(home))
    app = App(window=(1100, 720))
    assert app.open_level(DEFAULT_LEVEL)
    app.pump()
    return app


def tutorial_key():
    from game import levels
    from window.app import DEFAULT_LEVEL

    return level_key(levels.load(DEFAULT_LEVEL))


def click_cells(app, cells):
    import pygame

    for r, c in cells:
        pos = app.play.layout.cell_rect(r, c).center
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=3))
        app.pump()


@pytest.mark.parametrize("content", ["[" * 100_000, '{"history": [], "cursor": 0, "elapsed": 5, "solved": "false"}'])
def test_window_starts_over_a_damaged_play_and_says_so(tmp_path, monkeypatch, content):
    progress = tmp_path / "home" / "progress" / f"{tutorial_key()}.json"
    progress.parent.mkdir(parents=True)
    progress.write_text(content)
    app = window(tmp_path / "home", monkeypatch)
    try:
        assert not app.play.session.solved and app.play.session.moves_made == 0
        assert "kept as" in app.play.message and "Progress restored" not in app.play.message
        assert [p.read_text() for p in progress.parent.glob("*.damaged-*.json")] == [content]
        click_cells(app, [(5, 5)])                  # a new move saves a new file; the old one stays aside
        assert progress.exists() and len(list(progress.parent.glob("*.damaged-*"))) == 1
    finally:
        app.shutdown()


def test_window_reports_that_nothing_can_be_saved(tmp_path, monkeypatch):
    (tmp_path / "home").write_text("a file where the data folder should be")
    app = window(tmp_path / "home", monkeypatch)
    try:
        click_cells(app, [(5, 5)])
        assert "progress cannot be saved" in app.play.message
        app.play.message = ""
        click_cells(app, [(5, 5)])
        assert app.play.message == ""                                   # said once
        click_cells(app, [(5, 5)] + SOLUTION_SHIPS)
        assert app.play.session.solved
        assert app.play.message.startswith("Solved!") and "cannot be saved" in app.play.message
    finally:
        app.shutdown()


def test_damaged_solved_time_does_not_stop_the_window(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / "solved.json").write_text(json.dumps({tutorial_key(): {"seconds": "fast", "name": "", "when": ""},
                                                  "0123": {"seconds": 3.0, "name": "kept", "when": "then"}}))
    app = window(home, monkeypatch)
    try:
        app.open_browser()
        app.pump()
        assert app.overlay is not None
        app.close_overlay()
        click_cells(app, SOLUTION_SHIPS)
        assert app.play.session.solved and "well done" in app.play.message
        records = json.loads((home / "solved.json").read_text())
        assert set(records) == {tutorial_key(), "0123"} and isinstance(records[tutorial_key()]["seconds"], float)
    finally:
        app.shutdown()


def test_a_records_file_damaged_during_the_play_leaves_the_finish_said(tmp_path, monkeypatch):
    """The solved levels' list damaged while a level is played (by hand, another program): the
    finish set it aside and said so, and that line took the place of the finish's own, time,
    record and target: both are said now."""
    home = tmp_path / "home"
    app = window(home, monkeypatch)
    try:
        click_cells(app, SOLUTION_SHIPS[:-1])
        (home / "solved.json").write_text('{"0123": {"seconds": 3.0, "name": "kept", "when": "then"}, "bad": ')
        click_cells(app, SOLUTION_SHIPS[-1:])
        app.pump()
        message = app.play.message
        assert app.play.session.solved and message.startswith("Solved!") and "well done" in message
        assert "damaged list of solved levels" in message
        assert list(home.glob("solved.damaged-*.json"))
        assert tutorial_key() in json.loads((home / "solved.json").read_text())
    finally:
        app.shutdown()


def test_a_level_name_the_title_bar_cannot_encode(tmp_path, monkeypatch):
    import os

    import pygame

    from window import fonts
    from window.app import DEFAULT_LEVEL

    data = json.loads(DEFAULT_LEVEL.read_text())
    del data["name"]                               # the title is then the file's name
    level = tmp_path / os.fsdecode(b"bad \x80 name.bs")    # an undecodable byte: a lone surrogate
    level.write_text(json.dumps(data))
    app = window(tmp_path / "home", monkeypatch)
    try:
        assert app.open_level(level)
        assert pygame.display.get_caption()[0] == f"Battleship Solitaire - bad {fonts.MARK} name"
    finally:
        app.shutdown()


def test_a_play_too_long_for_a_progress_file_is_saved_within_it_and_restored(tmp_path):
    from game.limits import MAX_FILE_BYTES, MAX_SIDE
    from game.puzzle import Move

    puzzle = Puzzle(MAX_SIDE, MAX_SIDE, (1,) + (0,) * (MAX_SIDE - 1), (1,) + (0,) * (MAX_SIDE - 1), ((1, 1),), {})
    session = Session(puzzle)
    everywhere = [Move(r, c, Cell.WATER) for r, c in puzzle.cells()]
    for _ in range(12):                                  # fill the board, restart: 3,600 moves a step
        session.apply(everywhere, "fill")
        session.restart()
    session.apply(everywhere[:10], "last")
    assert len(json.dumps(session.to_dict(), indent=1)) > MAX_FILE_BYTES
    storage = Storage(tmp_path)
    assert storage.save_play("big", session)
    assert storage.progress_path("big").stat().st_size <= MAX_FILE_BYTES
    again = storage.restore_play("big", puzzle)
    assert storage.take_messages() == [] and again is not None
    assert again.grid == session.grid and again.cursor == session.cursor and again.undo()


def test_records_saved_by_an_editor_with_a_byte_order_mark_are_kept(tmp_path):
    # An editor (Notepad) saves UTF-8 with a byte order mark, as levels and settings may be:
    # the records stay the player's, not set aside as damaged.
    entry = {"seconds": 42.5, "name": "First", "when": "2026-11-01 10:00:00"}
    (tmp_path / "solved.json").write_bytes(b"\xef\xbb\xbf" + json.dumps({"abc": entry}).encode())
    (tmp_path / "daily.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(
        {"2026-11-01": {"seconds": 99.0, "when": "2026-11-01 10:00:00"}}).encode())
    storage = Storage(tmp_path)
    assert storage.solved() == {"abc": entry}
    assert list(storage.daily()) == ["2026-11-01"]
    assert storage.take_messages() == [] and sorted(p.name for p in tmp_path.glob("*damaged*")) == []
