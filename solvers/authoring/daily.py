"""The daily puzzle: one level per date, made from the date alone, the same for every player of
the same version on the same day (no network, no clock but the date's).

The date gives the seed (``DAILY_VERSION`` keeps a future change of the recipe from changing
the levels of past days silently: it is part of the seed); the weekday gives the size and the
grade (:data:`WEEKDAYS`). The generator (:mod:`solvers.authoring.generator`) is asked for that
grade with no time limit, so the level depends on the seed alone, never on the machine's
speed; it is unique (the verdict proves it) and graded by the grader of the pack. The sizes
are chosen so that a day's level is ready within 2 s (see docs/design/daily-codes-records.md for the
measurements).
"""

from __future__ import annotations

import datetime

from game.puzzle import Puzzle
from solvers.authoring import generator

DAILY_VERSION = 1
# Monday .. Sunday: (board side, grade), easy at the start of the week, hard at its end. No
# expert day: an expert level of 8x8 or 10x10 takes the generator 3.7-7.2 s at the 95th
# percentile, beyond the 2 s a day's puzzle is given (docs/design/daily-codes-records.md).
WEEKDAYS: tuple[tuple[int, str], ...] = (
    (8, "easy"), (10, "easy"), (8, "medium"), (10, "medium"), (8, "hard"), (10, "hard"), (10, "hard"),
)
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def seed_of(day: datetime.date) -> int:
    """The generator's seed for a date: its ordinal, tagged with the recipe's version."""
    return DAILY_VERSION * 10_000_000 + day.toordinal()


def plan(day: datetime.date) -> tuple[int, str]:
    """The (board side, grade) of a date's puzzle."""
    return WEEKDAYS[day.weekday()]


def name_of(day: datetime.date) -> str:
    return f"Daily {day.isoformat()}"


def puzzle_of(day: datetime.date) -> Puzzle:
    """The daily puzzle of ``day``: unique, graded, the same for everyone."""
    side, grade = plan(day)
    puzzle = generator.generate(side, side, difficulty=grade, seed=seed_of(day))
    return puzzle.replace(name=name_of(day), source=f"daily puzzle {day.isoformat()} (version {DAILY_VERSION})")


def date_of(puzzle: Puzzle) -> datetime.date | None:
    """The date of a daily puzzle (read from its name and source), or None for any other level."""
    name, source = puzzle.name or "", puzzle.source or ""
    if not (name.startswith("Daily ") and source.startswith("daily puzzle ")):
        return None
    try:
        day = datetime.date.fromisoformat(name[len("Daily "):])
    except ValueError:
        return None
    return day if source.startswith(f"daily puzzle {day.isoformat()} ") else None
