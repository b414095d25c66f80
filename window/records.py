"""The player's records, read from the solved list and the daily list: the Stats view's table,
the daily streaks, and the target time of a level's size and grade.

Pure functions over what :class:`window.storage.Storage` keeps; no pygame, nothing written.

Target times (:data:`TARGETS`) come from the engine, not from players: for each size and
grade, the median number of deduction steps the engine's hints take to finish the pack's
levels (``python main.py bench --hints levels/<size>/<grade>``, measured with the figures in
docs/design/daily-codes-records.md), times :data:`STEP_SECONDS`, an assumed pace of a person per step
(what a careful player of such puzzles takes to find and make one deduction; not measured).
"""

from __future__ import annotations

import datetime
import statistics
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

GRADE_ORDER = ("easy", "medium", "hard", "expert")
STEP_SECONDS = 8
# size -> grade -> median deduction steps over the pack's ten levels (bench --hints --reading 0).
MEDIAN_STEPS: Mapping[str, Mapping[str, float]] = {
    "6x6": {"easy": 13, "medium": 12.5, "hard": 16.5, "expert": 20.5},
    "8x8": {"easy": 19.5, "medium": 20, "hard": 28, "expert": 33.5},
    "10x10": {"easy": 25, "medium": 26, "hard": 29.5, "expert": 41.5},
    "15x15": {"easy": 42, "medium": 43, "hard": 59.5, "expert": 60.5},
}


def target_seconds(size: str, grade: str | None) -> int | None:
    """The target time of a level of this size ("10x10") and grade, or None when the pack has
    no levels of that kind to measure it by."""
    steps = MEDIAN_STEPS.get(size, {}).get(grade or "")
    return None if not steps else int(round(steps * STEP_SECONDS / 10.0)) * 10


def clock(seconds: float | None) -> str:
    """``m:ss`` (``h:mm:ss`` past an hour); a dash for no time."""
    if seconds is None:
        return "-"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class StatsRow:
    size: str
    grade: str
    solved: int
    best: float
    median: float
    hints: int
    checks: int
    target: int | None


def _size_order(size: str) -> tuple:
    try:
        rows, cols = (int(part) for part in size.split("x"))
    except ValueError:
        return (1, 0, 0, size)
    return (0, rows * cols, rows, size)


def stats_rows(solved: Mapping[str, Mapping[str, Any]]) -> list[StatsRow]:
    """One row per size and grade of the solved levels (levels solved before sizes were
    recorded go under "earlier"): how many, the best and median of their best times, and the
    hints and checks asked in the plays that set those times."""
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for entry in solved.values():
        size = str(entry.get("size", "earlier"))
        grade = str(entry.get("grade", "-"))
        groups.setdefault((size, grade), []).append(entry)
    rows = []
    for (size, grade), entries in groups.items():
        times = [float(entry["seconds"]) for entry in entries]
        rows.append(StatsRow(size, grade, len(entries), min(times), statistics.median(times),
                             sum(int(entry.get("hints", 0)) for entry in entries),
                             sum(int(entry.get("checks", 0)) for entry in entries),
                             target_seconds(size, grade)))
    rank = {grade: index for index, grade in enumerate(GRADE_ORDER)}
    return sorted(rows, key=lambda row: (_size_order(row.size), rank.get(row.grade, 9), row.grade))


def days_of(daily: Mapping[str, Any]) -> set[datetime.date]:
    found = set()
    for text in daily:
        try:
            found.add(datetime.date.fromisoformat(text))
        except ValueError:
            continue
    return found


def streaks(days: Iterable[datetime.date], today: datetime.date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days solved. The current run ends today, or
    yesterday while today's puzzle is still open (a streak is not lost before the day ends)."""
    solved = set(days)
    longest = run = 0
    previous = None
    for day in sorted(solved):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        longest = max(longest, run)
        previous = day
    current = 0
    day = today if today in solved else today - datetime.timedelta(days=1)
    while day in solved:
        current += 1
        day -= datetime.timedelta(days=1)
    return current, longest


def _date_of(puzzle) -> datetime.date | None:
    """A daily puzzle's own day; None for any other level."""
    from solvers.authoring.daily import date_of

    return date_of(puzzle)


def daily_day(puzzle, solved_on: datetime.date | None = None) -> datetime.date | None:
    """The day a solve made on ``solved_on`` (default today) counts for in the daily streak:
    a daily puzzle's own day, when it was solved on that day; else None."""
    day = _date_of(puzzle)
    return day if day is not None and day == (solved_on or datetime.date.today()) else None


def unrecorded(storage, puzzle, key: str, solved_on: datetime.date | None) -> bool:
    """Whether a play saved as solved (on ``solved_on``, or before) has a record missing: the
    level's (a write that failed), or its day's, for a daily puzzle solved on its day under
    another name (its share code)."""
    day = daily_day(puzzle, solved_on)
    return not storage.is_solved(key) or (day is not None and day.isoformat() not in storage.daily())


def finish(storage, puzzle, key: str, title: str, seconds: float, asked: Mapping[str, int],
           solved_on: datetime.date | None = None) -> str:
    """Record a first solve of a level (and of the day's puzzle, solved on its day) and say what
    it means: the target time, a new record. ``storage`` is the window's Storage; ``solved_on``:
    the day of a solve made earlier and recorded only now (default: today)."""
    size = f"{puzzle.rows}x{puzzle.cols}"
    grade = puzzle.difficulty if puzzle.difficulty in GRADE_ORDER else None
    solve = storage.record_solve(key, seconds, title, size, grade, asked.get("hint", 0), asked.get("check", 0))
    said = [record_message(solve.seconds, solve.level_best, solve.group_best, size, grade)]
    day = daily_day(puzzle, solved_on)
    if day is not None:
        storage.mark_daily(day.isoformat(), seconds)
        current, _ = streaks(days_of(storage.daily()), day)
        said.append(f"Daily puzzle solved: streak {current} day{'s' * (current != 1)}.")
    elif (own_day := _date_of(puzzle)) is not None:       # a past day's, or one finished after midnight
        said.append(f"Daily puzzle of {own_day.isoformat()} solved on another day: it counts for no day.")
    target = target_seconds(size, grade)
    if target is not None:
        said.append(f"Target {clock(target)}" + (": beaten." if seconds <= target else "."))
    return " ".join(part for part in said if part)


def record_message(seconds: float, level_best: float | None, group_best: float | None, size: str,
                   grade: str | None) -> str:
    """What a finish (its time as recorded) says about records: a new best for the level, or,
    for a level not solved before, for its size and grade."""
    if level_best is not None:
        return f"New record for this level! ({_was(seconds, level_best)})" if seconds < level_best else ""
    if group_best is not None and seconds < group_best:
        return f"New record for {size} {grade or ''}".rstrip() + f"! ({_was(seconds, group_best)})"
    return ""


def _was(seconds: float, best: float) -> str:
    """The best time beaten; with the new one, both to the tenth, when they show as one second."""
    if clock(seconds) != clock(best):
        return f"was {clock(best)}"
    return f"{clock(seconds)}.{int(round(seconds * 10)) % 10}, was {clock(best)}.{int(round(best * 10)) % 10}"
