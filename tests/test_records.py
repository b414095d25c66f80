"""Records kept by two windows at once, the daily streaks, the daily puzzle and its command."""

import datetime
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from game import codes, levels
from solvers.authoring import daily, grading
from solvers.engine.verdict import Kind, decide
from tests.test_hostile_new_features import run
from window.records import finish, stats_rows, streaks, target_seconds
from window.storage import Storage

ROOT = Path(__file__).resolve().parents[1]

WRITER = textwrap.dedent("""
    import sys
    from window.storage import Storage
    root, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    storage = Storage(root)
    storage.solved()                       # each window reads the list once at start, as the window does
    storage.daily()
    first_year = 2000 if name == "a" else 2100
    for index in range(count):
        assert storage.record_solve(f"{name}{index:03d}", 10 + index, name, "10x10", "easy").saved
        assert storage.mark_daily(f"{first_year + index // 12}-{index % 12 + 1:02d}-01", 30.0)
""")


def test_two_windows_writing_at_once_lose_no_record(tmp_path):
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), name, "150"], cwd=ROOT)
               for name in ("a", "b")]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0]
    solved = json.loads((tmp_path / "solved.json").read_text())
    assert len(solved) == 300 and {key[0] for key in solved} == {"a", "b"}
    assert len(json.loads((tmp_path / "daily.json").read_text())) == 300
    assert not list(tmp_path.glob(".battleships-*"))       # no temporary file left behind


def test_two_windows_keep_each_others_daily_days(tmp_path):
    first, second = Storage(tmp_path), Storage(tmp_path)
    first.daily(), second.daily()                            # both read the (empty) list first
    assert first.mark_daily("2026-11-20", 50.0) and second.mark_daily("2026-11-21", 60.0)
    assert first.mark_daily("2026-11-22", 70.0)
    assert set(json.loads(first.daily_path.read_text())) == {"2026-11-20", "2026-11-21", "2026-11-22"}
    assert second.record_solve("k1", 40.0).saved and first.record_solve("k2", 41.0).saved
    assert set(Storage(tmp_path).solved()) == {"k1", "k2"}


def test_a_slower_solve_keeps_the_best_time_and_its_play(tmp_path):
    storage = Storage(tmp_path)
    first = storage.record_solve("k", 90.0, "x", "8x8", "hard", hints=3, checks=1)
    assert first.level_best is None and first.group_best is None
    again = storage.record_solve("k", 120.0, "x", "8x8", "hard", hints=0, checks=0)
    assert again.level_best == 90.0
    assert storage.solved()["k"]["seconds"] == 90.0 and storage.solved()["k"]["hints"] == 3
    assert storage.record_solve("j", 60.0, "y", "8x8", "hard").group_best == 90.0


def test_old_solved_records_still_count_and_damaged_extras_are_set_aside(tmp_path):
    storage = Storage(tmp_path)
    old = {"seconds": 12.5, "name": "First", "when": "2026-01-01 10:00:00"}
    bad = {**old, "size": "../x", "hints": -1}
    storage.solved_path.write_text(json.dumps({"old": old, "bad": bad}))
    assert storage.solved() == {"old": old}
    [row] = stats_rows(storage.solved())
    assert (row.size, row.solved, row.best) == ("earlier", 1, 12.5)
    assert "1 damaged record" in storage.take_messages()[0]


def test_a_damaged_daily_list_is_moved_aside_and_a_new_day_still_recorded(tmp_path):
    storage = Storage(tmp_path)
    storage.daily_path.write_text('{"2026-11-20": {"seconds": 5, "when": ""}, "tomorrow": 3}')
    assert set(storage.daily()) == {"2026-11-20"}
    assert storage.mark_daily("2026-11-21", 10.0)
    assert set(json.loads(storage.daily_path.read_text())) == {"2026-11-20", "2026-11-21"}
    assert any(path.name.startswith("daily.damaged-") for path in tmp_path.iterdir())


def test_streaks_count_runs_of_days_and_today_may_still_be_open():
    day = datetime.date(2026, 11, 26)
    days = {day - datetime.timedelta(days=n) for n in (1, 2, 3, 7, 8, 9, 10, 11)}
    assert streaks(days, day) == (3, 5)                      # today not yet solved: the run to yesterday
    assert streaks(days | {day}, day) == (4, 5)
    assert streaks(days, day + datetime.timedelta(days=2)) == (0, 5)
    assert streaks(set(), day) == (0, 0)


def test_target_times_come_from_the_measured_table():
    assert target_seconds("10x10", "easy") == 200 and target_seconds("15x15", "expert") == 480
    assert target_seconds("10x10", None) is None and target_seconds("9x9", "easy") is None


def test_finishing_a_daily_puzzle_on_its_day_counts_for_the_streak(tmp_path):
    storage = Storage(tmp_path)
    today = datetime.date.today()
    puzzle = levels.load(ROOT / "levels" / "8x8" / "easy" / "01.bs").replace(
        name=daily.name_of(today), source=f"daily puzzle {today.isoformat()} (version {daily.DAILY_VERSION})")
    said = finish(storage, puzzle, "key1", "t", 100.0, {"hint": 2, "check": 1})
    assert "streak 1 day" in said and "Target 2:40: beaten." in said
    assert storage.solved()["key1"] == {**storage.solved()["key1"], "hints": 2, "checks": 1, "size": "8x8",
                                         "grade": "easy"}


def test_a_daily_puzzle_finished_after_its_day_says_it_counts_for_no_day(tmp_path):
    """Begun before midnight, finished after: the streak did not move and the finish said
    nothing of it, so the day looked lost without a reason."""
    storage = Storage(tmp_path)
    day = datetime.date(2026, 11, 27)
    puzzle = levels.load(ROOT / "levels" / "8x8" / "easy" / "01.bs").replace(
        name=daily.name_of(day), source=f"daily puzzle {day.isoformat()} (version {daily.DAILY_VERSION})")
    said = finish(storage, puzzle, "key1", "t", 100.0, {}, solved_on=day + datetime.timedelta(days=1))
    assert "streak" not in said and storage.daily() == {}
    assert "Daily puzzle of 2026-11-27 solved on another day: it counts for no day." in said


# ----- the daily puzzle ---------------------------------------------------------------------------


def test_each_weekday_gives_its_size_and_grade_unique_and_the_same_every_time():
    monday = datetime.date(2026, 11, 23)
    for offset in range(7):
        day = monday + datetime.timedelta(days=offset)
        puzzle = daily.puzzle_of(day)
        side, grade = daily.WEEKDAYS[offset]
        assert puzzle.shape == (side, side) and puzzle.difficulty == grade == grading.grade(puzzle)
        assert decide(puzzle).kind is Kind.UNIQUE
        assert daily.date_of(puzzle) == day
        again = daily.puzzle_of(day)
        assert codes.encode(again) == codes.encode(puzzle) and again.solution == puzzle.solution
    assert codes.encode(daily.puzzle_of(monday)) != codes.encode(daily.puzzle_of(monday + datetime.timedelta(7)))


def test_a_level_that_only_looks_daily_is_not_a_daily():
    puzzle = levels.load(ROOT / "levels" / "8x8" / "easy" / "01.bs")
    assert daily.date_of(puzzle) is None
    assert daily.date_of(puzzle.replace(name="Daily 2026-11-26", source="mine")) is None
    assert daily.date_of(puzzle.replace(name="Daily 2026-13-40", source="daily puzzle 2026-13-40 (v)")) is None


def test_the_daily_command_prints_writes_and_gives_a_code(tmp_path):
    code, out, _ = run("daily", "--date", "2026-11-26")
    assert code == 0 and levels.loads(out).name == "Daily 2026-11-26"
    assert levels.loads(out).solution is None and daily.puzzle_of(datetime.date(2026, 11, 26)).solution is not None
    code, said, _ = run("daily", "--date", "2026-11-26", "-o", tmp_path / "d.bs")
    assert code == 0 and "wrote" in said and levels.load(tmp_path / "d.bs") == levels.loads(out)
    code, text, _ = run("daily", "--date", "2026-11-26", "--code")
    assert code == 0 and codes.encode(codes.decode(text.strip())) == codes.encode(levels.loads(out))


@pytest.mark.parametrize("date", ["2026-02-30", "26-11-26", "today", "2026-11-26x", "２０２６-11-26"])
def test_a_bad_date_is_a_usage_error(date):
    code, _, err = run("daily", "--date", date)
    assert code == 2 and "is not a date YYYY-MM-DD" in err


@pytest.mark.parametrize("size", ["6x6", "8x8"])
def test_the_target_table_is_what_the_hints_bench_measures(size):
    """The measured half of a target time, measured again on the small boards (the larger ones
    take longer; the command in docs/guide/daily-codes-records.md measures them all)."""
    import statistics

    from solvers.engine import hints
    from window.records import MEDIAN_STEPS

    for grade in ("easy", "medium", "hard", "expert"):
        paths = sorted((ROOT / "levels" / size / grade).glob("*.bs"))
        runs = [hints.play_by_hints(levels.load(path), str(path), reading=0.0) for path in paths]
        assert all(run.solved for run in runs)
        assert statistics.median(len(run.seconds) for run in runs) == MEDIAN_STEPS[size][grade], grade
