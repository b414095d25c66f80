"""Per-user progress files: atomic writes, round trips, damaged files, solved records."""

import json

from game.puzzle import Hint, Puzzle
from game.session import Session
from window.storage import Storage, level_key, write_atomic


def small_puzzle(**changes) -> Puzzle:
    base = Puzzle(6, 6, (4, 0, 3, 2, 0, 1), (3, 2, 3, 0, 1, 1), ((3, 1), (2, 2), (1, 3)),
                  {(0, 4): Hint.SUB, (1, 1): Hint.WATER, (2, 0): Hint.TOP})
    return base.replace(**changes) if changes else base


def test_level_key_depends_on_content_not_name():
    assert level_key(small_puzzle()) == level_key(small_puzzle(name="renamed"))
    assert level_key(small_puzzle()) != level_key(small_puzzle(hints={(0, 4): Hint.SUB}))


def test_write_atomic_replaces_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "deep" / "file.json"
    write_atomic(target, "one")
    write_atomic(target, "two")
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
