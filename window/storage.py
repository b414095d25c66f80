"""Per-user progress: each level's saved play and which levels are solved.

Files live in the per-user data folder (``window.settings.user_dir()``):
``progress/<key>.json`` holds one level's play (see ``Session.to_dict``), ``solved.json``
maps level keys to when and how fast they were solved (with the size, grade, hints and checks
of that play, for the Stats view), and ``daily.json`` maps the dates of daily puzzles solved to
their times. A level's key is a digest of its content, not of its path, so a level keeps its
progress when the file is moved or renamed.

Two windows may share the folder: ``solved.json`` and ``daily.json`` are changed under a lock
(``<name>.lock``, held for the milliseconds of a read-merge-write, and for a window's first read,
which may rewrite the file without its damaged records), and each write merges the one new
record into the file as it is on disk, so no window loses another's records; a window reads a
list again when another has written it since, so its views (Stats, the calendar, the level
list) show every record. A
progress file that another window wrote since this one read it, with a play this one's does
not go on from, is kept aside (``<key>.other-<UTC time>.json``) before this one's is saved.

Writes go through ``game.files`` (a temporary file of ours in the same folder, fsync, rename);
temporary files left by a killed program are removed when storage opens (here, in runs/ and
in generated/). Every file is
checked against a strict schema before it is used. A damaged file is never deleted: it is
moved aside as ``<name>.damaged-<UTC time>.json`` and the player is told once. Each level
has its own progress file, so a damaged one costs that level's play only; in ``solved.json``
the good entries are kept (the damaged file is copied aside, then rewritten without the bad
entries; while the copy cannot be made, the file is not written over and a new record waits as
if its write had failed). A file that cannot be written is reported once and the game goes on; a record that
could not be written is written with the next write that succeeds.
"""

from __future__ import annotations

import datetime
import errno
import hashlib
import json
import math
import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable, Iterator, Literal, Mapping

from game.editor import Draft
from game.editor import from_dict as draft_from_dict
from game.editor import to_dict as draft_to_dict
from game.files import reason, remove_stale, write_bytes, write_text
from game.levels import LevelError, decode_json, load, read_bounded
from game.limits import MAX_DRAFT_BYTES, MAX_FILE_BYTES
from game.puzzle import Move, Puzzle, initial_grid
from game.session import ASKED, MAX_TRIALS, TRIAL_STEPS, Session, Step, step_to_dict
from window import choices as window_choices
from window.settings import user_dir

# A temporary file this old cannot belong to a write still in progress (a write takes
# milliseconds), even one by a second window open on the same folder.
ORPHAN_AGE = 60.0
# Temporary files of earlier versions: ".<name>.json.<random>.tmp".
_LEGACY_TEMP = re.compile(r"\..+\.json\.[A-Za-z0-9_]+\.tmp")
MAX_SECONDS = 10.0 ** 9           # a play clock beyond ~30 years is damage, not patience
MAX_TEXT = 1000                   # a step label, a level name, a date
_KEY = re.compile(r"[0-9A-Za-z_-]{1,64}")
_MOVE = re.compile(r"r(0|[1-9][0-9]{0,2})c(0|[1-9][0-9]{0,2})=.")
PROGRESS_KEYS = frozenset({"history", "cursor", "elapsed", "solved"})
PROGRESS_EXTRA = frozenset({"asked", "attempt"})    # what the play asked for (``Session.asked``), since it was
# kept; which attempt at the level it is (``Session.play_again``), from the second on
ASKED_KEYS = frozenset(ASKED)
SOLVED_KEYS = frozenset({"seconds", "name", "when"})
SOLVED_EXTRA = frozenset({"size", "grade", "hints", "checks"})    # since records were kept
_SIZE = re.compile(r"[1-9][0-9]{0,2}x[1-9][0-9]{0,2}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
DAILY_KEYS = frozenset({"seconds", "when"})
LOCK_WAIT = 2.0                   # seconds to wait for another window's lock before writing anyway
MAX_COUNT = 10 ** 6               # hints or checks in one play


class Damaged(ValueError):
    """A per-user file that cannot be used as it is; the message says why, in a few words."""


def level_key(puzzle: Puzzle) -> str:
    """A stable name for a level's content (size, tallies, fleet, hints)."""
    content = {
        "rows": puzzle.rows, "cols": puzzle.cols,
        "row_tallies": list(puzzle.row_tallies), "col_tallies": list(puzzle.col_tallies),
        "fleet": [list(pair) for pair in puzzle.fleet],
        "hints": sorted([r, c, hint.value] for (r, c), hint in puzzle.hints.items()),
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


# ----- writing ------------------------------------------------------------------------------




def remove_orphan_temp_files(folder: Path, older_than: float = ORPHAN_AGE) -> list[Path]:
    """Delete our temporary files in ``folder`` left by a program killed while it saved."""
    return remove_stale(folder, older_than, also=_LEGACY_TEMP)


def aside_path(path: Path, tag: str = "damaged") -> Path:
    """``name.<tag>-<UTC time>.json`` beside ``path``, not yet taken."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    candidate = path.with_name(f"{path.stem}.{tag}-{stamp}{path.suffix}")
    number = 2
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.stem}.{tag}-{stamp}-{number}{path.suffix}")
        number += 1
    return candidate


# ----- reading ------------------------------------------------------------------------------


def read_json(path: Path, limit: int = MAX_FILE_BYTES, records: bool = False) -> Any:
    """The JSON document in ``path`` within the limits (``game.levels`` reads it, as it reads
    levels: UTF-8, a byte order mark before it allowed, as an editor may save it), of at most
    ``limit`` bytes; FileNotFoundError when there is none, :class:`Damaged` when it cannot be used.
    ``records``: a list of records, each checked on its own: a number too large for a float
    reads as infinite, so that its record is dropped and not the whole list."""
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    try:
        data = read_bounded(path, limit, what="a saved game or record")
        return decode_json(data.decode("utf-8-sig"), str(path), too_large=records)
    except LevelError as error:
        raise Damaged(error.reason) from None
    except UnicodeDecodeError:
        raise Damaged("is not UTF-8 text") from None


# ----- schemas ------------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _seconds(value: Any) -> float:
    """A time to record, cut to its tenth of a second as the clock cuts it to its second (so
    the time kept shows as the clock showed it), within what the files hold (0 to MAX_SECONDS)."""
    seconds = min(max(value if _is_number(value) else 0.0, 0.0), MAX_SECONDS)
    return math.floor(round(seconds * 10, 6)) / 10


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT and value.isprintable()


def check_progress(data: Any, puzzle: Puzzle | None = None) -> dict[str, Any]:
    """``data`` if it is a play as ``Session.to_dict`` writes it, else Damaged. With ``puzzle``:
    every move is on a free cell of the board and changes it, so the play replays whole."""
    if not isinstance(data, dict):
        raise Damaged("is not an object")
    if not PROGRESS_KEYS <= set(data) <= PROGRESS_KEYS | PROGRESS_EXTRA:
        raise Damaged(f"has keys {sorted(data)[:6]}; expected {sorted(PROGRESS_KEYS)}")
    asked = data.get("asked", {})
    if not (isinstance(asked, dict) and set(asked) <= ASKED_KEYS and all(map(_is_count, asked.values()))):
        raise Damaged(f"asked is {asked!r:.40}, not counts of {', '.join(ASKED)}")
    if not _is_count(data.get("attempt", 0)):
        raise Damaged(f"attempt is {data.get('attempt')!r:.20}, not a count")
    history, cursor, elapsed, solved = data["history"], data["cursor"], data["elapsed"], data["solved"]
    if not isinstance(history, list):
        raise Damaged("history is not a list")
    if not isinstance(solved, bool):
        raise Damaged(f"solved is {solved!r:.20}, not true or false")
    if not (_is_number(elapsed) and 0 <= elapsed <= MAX_SECONDS):
        raise Damaged(f"elapsed is {elapsed!r:.20}, not a number of seconds")
    if not (isinstance(cursor, int) and not isinstance(cursor, bool) and 0 <= cursor <= len(history)):
        raise Damaged(f"cursor is {cursor!r:.20}, not a step of the history")
    board = [list(row) for row in initial_grid(puzzle)] if puzzle is not None else None
    depth = 0
    for number, step in enumerate(history):
        # A step that opens, keeps or abandons a trial (or restarts) says so in "trial"; an old
        # save has none. Only such a step may change no cell.
        kind = step.get("trial", "") if isinstance(step, dict) else ""
        if not (isinstance(step, dict) and set(step) - {"trial"} == {"label", "moves"} and _is_text(step["label"])
                and isinstance(step["moves"], list) and (step["moves"] or kind)):
            raise Damaged(f"step {number + 1} is not a label with a list of moves")
        if "trial" in step:
            if kind not in TRIAL_STEPS or (kind != "open" and not depth) or \
                    (kind == "open" and depth >= MAX_TRIALS) or (kind in ("open", "keep") and step["moves"]):
                raise Damaged(f"step {number + 1} has trial {kind!r:.20}, which does not fit the trials open")
            depth = {"open": depth + 1, "keep": depth - 1, "abandon": depth - 1, "restart": 0}[kind]
        for text in step["moves"]:
            if not (isinstance(text, str) and _MOVE.fullmatch(text)):
                raise Damaged(f"step {number + 1} has {text!r:.20}, not a move")
            try:
                move = Move.parse(text)
            except ValueError:
                raise Damaged(f"step {number + 1} has {text!r:.20}, not a move") from None
            if board is None or puzzle is None:     # one is None when the other is
                continue
            if not puzzle.inside(move.row, move.col) or (move.row, move.col) in puzzle.hints:
                raise Damaged(f"step {number + 1} has {text}, which is not a free cell of this level")
            # A saved step holds only moves that changed the board (Session.apply drops the rest).
            if board[move.row][move.col] == move.value:
                raise Damaged(f"step {number + 1} has {text}, which changes nothing")
            board[move.row][move.col] = move.value
    return data


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT


def check_solved_entry(key: Any, entry: Any) -> bool:
    """A sound record of the solved list: the three keys of old, and the record's extras if any."""
    if not (isinstance(key, str) and _KEY.fullmatch(key) is not None and isinstance(entry, dict)
            and SOLVED_KEYS <= set(entry) <= SOLVED_KEYS | SOLVED_EXTRA and _is_number(entry["seconds"])
            and 0 <= entry["seconds"] <= MAX_SECONDS and _is_text(entry["name"]) and _is_text(entry["when"])):
        return False
    return (("size" not in entry or (isinstance(entry["size"], str) and _SIZE.fullmatch(entry["size"]) is not None))
            and ("grade" not in entry or (_is_text(entry["grade"]) and len(entry["grade"]) <= 20))
            and all(_is_count(entry[key]) for key in ("hints", "checks") if key in entry))


def check_daily_entry(key: Any, entry: Any) -> bool:
    return (isinstance(key, str) and _DATE.fullmatch(key) is not None and isinstance(entry, dict)
            and set(entry) == DAILY_KEYS and _is_number(entry["seconds"]) and 0 <= entry["seconds"] <= MAX_SECONDS
            and _is_text(entry["when"]))


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold ``<path>.lock`` exclusively (POSIX ``flock``) for a read-merge-write of ``path``.

    A lock not had within LOCK_WAIT seconds (a window stopped in a debugger), a lock file that
    cannot be made (a folder or a link in its place) or a system without ``flock`` leaves the
    merge on write alone, which still keeps every record but one written in the same millisecond."""
    try:
        import fcntl
    except ImportError:               # pragma: no cover - not POSIX
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
    except OSError:
        fd = None
    if fd is None:
        yield                         # the write that follows says whether the folder can be written
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.005)
        yield
    finally:
        os.close(fd)                  # closing the file lets go of the lock


DRAFT_PLACES = 20                 # editors open on one level at once, each with a draft of its own


@dataclass
class DraftClaim:
    """An editor's draft place (see :meth:`Storage.claim_draft`): ``name``, its key or ``key.N``;
    ``lock``, the lock file held open (None: none; once closed, or dropped with a scene never
    closed, the place is let go); ``other``, the process that holds the level's first place
    when this editor is not the first; ``waiting``, unsaved drafts of closed editors kept beside."""

    name: str
    lock: IO[bytes] | None
    other: str | None = None
    waiting: int = 0


def _held_lock(path: Path) -> IO[bytes] | None | Literal[False]:
    """``path`` locked (``flock``) for this process, our id written in it: the file, which holds
    the lock until closed; False when another holds it; None when it cannot be made (a
    folder that cannot be written, a system without ``flock``): unheld, as before locks."""
    try:
        import fcntl
    except ImportError:               # pragma: no cover - not POSIX
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
    except BlockingIOError:
        os.close(fd)
        return False
    except OSError:
        os.close(fd)
        return None
    return os.fdopen(fd, "wb")


def _holder(draft: Path) -> str:
    """Who holds a draft place, as the editor says it: the process id its lock holds."""
    try:
        pid = read_bounded(draft.with_suffix(".lock"), 20, "a lock").decode("ascii").strip()
    except (LevelError, UnicodeDecodeError):
        pid = ""
    return f"process {pid}" if pid.isdigit() else "another process"


@dataclass(frozen=True)
class Solve:
    """What recording a solve found: whether it was saved, the best times it is measured
    against (None when there was none): this level's, and any level's of the same size and
    grade, and its own time as recorded (to a tenth of a second)."""

    saved: bool
    level_best: float | None = None
    group_best: float | None = None
    seconds: float = 0.0


def generated_dir() -> Path:
    """Where the New puzzle dialog saves the levels it makes."""
    return user_dir() / "generated"


def free_level_path(path: Path, puzzle: Puzzle) -> Path:
    """``path``, unless it holds another level (then a name of its own beside it, from the
    level's key): saving a level the program named never replaces a different one there."""
    try:
        if not path.exists() or level_key(load(path)) == level_key(puzzle):
            return path
    except LevelError:
        pass
    return path.with_name(f"{path.stem}-{level_key(puzzle)[:8]}.bs")


def daily_dir() -> Path:
    """Where the daily puzzles opened are kept (one ``YYYY-MM-DD.bs`` a day), so a day's
    puzzle is made once."""
    return user_dir() / "daily"


def runs_dir() -> Path:
    """Where the window keeps the traces of the runs it shows (the last of each solver, and
    those saved with "Save run")."""
    return user_dir() / "runs"


def signature(path: Path) -> tuple[int, ...] | None:
    """What tells one version of a file from another written since (None: no file)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def _reason(error: OSError | LevelError) -> str:
    filename = getattr(error, "filename", None)
    where = f": {filename}" if filename else ""
    return f"{error.reason if isinstance(error, LevelError) else reason(error)}{where}"


class Storage:
    """Progress files under ``root`` (the per-user data folder unless told otherwise).

    Messages for the player (a damaged file moved aside, a save that failed) are collected
    and handed out once by :meth:`take_messages`; the window shows them in its status line.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else user_dir()
        self._messages: list[str] = []
        self._save_failing = False          # a failed save was reported; quiet until one succeeds
        self._solved: dict[str, dict[str, Any]] | None = None
        self._daily: dict[str, dict[str, Any]] | None = None
        # Each list's file as this window last read or wrote it: another window's record since
        # is read at the next look (see _current).
        self._lists_seen: dict[Path, tuple[int, ...] | None] = {}
        # Each level's progress file as this window last read or wrote it: another window may
        # save a play of the same level, which is kept aside rather than saved over.
        self._seen: dict[str, tuple[int, ...] | None] = {}
        self._steps: dict[int, tuple[Step, dict[str, Any], str]] = {}   # see _play_text
        # key -> (aside file, attempt, history) of the play of another window kept aside
        self._others: dict[str, tuple[Path, int, list]] = {}
        # Records whose write failed, by file: (check, what, merges), written with the next write.
        self._unsaved: dict[Path, tuple[Callable[[Any, Any], bool], str, list[Callable[[dict], dict]]]] = {}
        self._choices: dict[str, Any] = {}     # the window's choices as last read or written
        for folder in (self.root, self.root / "progress", self.root / "daily", self.root / "runs",
                       self.root / "generated", self.root / "drafts"):
            remove_orphan_temp_files(folder)

    @property
    def solved_path(self) -> Path:
        return self.root / "solved.json"

    def progress_path(self, key: str) -> Path:
        return self.root / "progress" / f"{key}.json"

    def played(self) -> set[str]:
        """The keys of the levels with a saved play (a move made, or a hint or check asked)."""
        try:
            return {path.stem for path in (self.root / "progress").glob("*.json")}
        except OSError:
            return set()

    # ----- messages ------------------------------------------------------------------------

    def tell(self, message: str) -> None:
        if message not in self._messages:
            self._messages.append(message)

    def take_messages(self) -> list[str]:
        """The messages not yet shown, oldest first; each is handed out once."""
        messages, self._messages = self._messages, []
        return messages

    def _move_aside(self, path: Path, problem: str, copy: bool = False, tag: str = "damaged") -> Path | None:
        """Keep a file beside the good ones (renamed, or copied when it is rewritten); where it
        went, or None when it could not be moved."""
        target = aside_path(path, tag)
        try:
            if copy:                  # written whole or not at all, as every file is
                write_bytes(target, read_bounded(path, what="a saved game or record"))
            else:
                os.replace(path, target)
        except (OSError, LevelError) as error:
            self.tell(f"{path}: {problem}; it could not be moved aside ({_reason(error)}) and is ignored")
            return None
        self.tell(f"{path}: {problem}; kept as {target.name}")
        return target

    def _saved(self, ok_or_error: OSError | None) -> bool:
        if ok_or_error is None:
            self._save_failing = False
            return True
        if not self._save_failing:
            self.tell(f"progress cannot be saved ({_reason(ok_or_error)})")
            self._save_failing = True
        return False

    # ----- levels the window keeps ------------------------------------------------------

    def kept_level(self, path: Path, fits: Callable[[Puzzle], bool], what: str) -> Puzzle | None:
        """The level the window keeps in ``path`` (a day's daily puzzle), or None: there is none,
        or it is damaged or not ``what`` (``fits`` says), and is now moved aside rather than
        made again over it (a file that could not be moved is left where it is)."""
        if not os.path.lexists(path):
            return None
        try:
            puzzle = load(path)
        except LevelError as error:
            self._move_aside(path, f"damaged {what} ({error.reason})")
            return None
        if not fits(puzzle):
            self._move_aside(path, f"not the {what}")
            return None
        return puzzle

    # ----- drafts --------------------------------------------------------------------------

    def draft_path(self, key: str) -> Path:
        return self.root / "drafts" / f"{key}.json"

    def claim_draft(self, key: str) -> DraftClaim:
        """The draft place of an editor opening on ``key``, held (``flock`` on its ``.lock``,
        which holds the editor's process id) until :meth:`release_draft`; the system lets go of
        it when a window is killed. The first editor on a level takes ``key``; one opened while
        another holds it takes ``key.2`` (``key.3``...), its own, and is told the other's process:
        two windows never write over each other's draft. An unsaved draft of a place no editor
        holds any more (a second window's, closed) comes back in a place left without one, and
        the others are counted (``waiting``): each comes back at a later opening."""
        names = [key, *(f"{key}.{number}" for number in range(2, DRAFT_PLACES + 1))]
        claim = DraftClaim(key, None)
        for name in names:
            lock = _held_lock(self.draft_path(name).with_suffix(".lock"))
            if lock is not False:
                claim = DraftClaim(name, lock, None if name == key else _holder(self.draft_path(key)))
                break
        for name in names:              # the drafts no editor holds, but for this one's own place
            path = self.draft_path(name)
            if name == claim.name or not path.is_file():
                continue
            lock = _held_lock(path.with_suffix(".lock"))
            if lock is False:
                continue                # another editor is on it
            try:
                if not self.draft_path(claim.name).exists():
                    os.replace(path, self.draft_path(claim.name))
                else:
                    claim.waiting += 1
            except OSError:
                claim.waiting += 1
            finally:
                if lock is not None:
                    lock.close()
        return claim

    def release_draft(self, claim: DraftClaim) -> None:
        """Let another editor take the draft place ``claim`` held."""
        if claim.lock is not None:
            claim.lock.close()
            claim.lock = None

    def kept_draft(self, key: str) -> Draft | None:
        """The editor's draft kept unsaved for ``key`` (what it was opened on), or None (none,
        or a damaged one now moved aside)."""
        path = self.draft_path(key)
        try:
            return draft_from_dict(read_json(path, MAX_DRAFT_BYTES))
        except FileNotFoundError:
            return None
        except (Damaged, ValueError) as problem:
            self._move_aside(path, f"damaged draft ({problem})")
            return None

    def keep_draft(self, key: str, draft: Draft | None) -> bool:
        """Keep ``draft`` for the editor's next opening on ``key``; None: keep none. False
        (said on the status line) when the folder cannot be written."""
        path = self.draft_path(key)
        try:
            if draft is None:
                if path.is_file() and not path.is_symlink():
                    path.unlink()
            else:
                # UTF-8 and no padding: a draft of any level the reader takes reads back within
                # the limit (escaped, a long name in another script took twice its bytes and more)
                text = json.dumps(draft_to_dict(draft), ensure_ascii=False, separators=(",", ":"))
                write_text(path, text, parents=True)
        except OSError as error:
            self.tell(f"the draft cannot be kept ({_reason(error)})")
            return False
        return True

    # ----- the window's choices --------------------------------------------------------------

    @property
    def choices_path(self) -> Path:
        return self.root / "choices.json"

    def choices(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """What the player chose in the window (see ``window.choices``: the theme, the palette,
        the window's size, the solver and its speed, the New puzzle dialog's choice) over what
        ``settings`` say, for the choices that still hold: each is kept with the setting it was
        made over, and gives way once the settings say otherwise (an edit of the settings file
        wins over an older choice). A damaged file is set aside, and nothing is chosen; a choice
        whose value is refused (edited by hand) is dropped, the file copied aside first, and
        its setting or default stands in."""
        path = self.choices_path
        if not os.path.lexists(path):
            return {}
        with file_lock(path):
            self._choices = self._read_checked(path, window_choices.check, "window choices")[0]
        return {key: chosen for key, (chosen, over) in self._choices.items() if settings.get(key) == over}

    def keep_choice(self, key: str, chosen: Any, over: Any) -> bool:
        """Keep the player's choice of ``key`` (``chosen``, made over the setting ``over``) for
        the next windows; False (said on the status line) when it cannot be written."""
        self._choices[key] = [chosen, over]
        try:
            write_text(self.choices_path, json.dumps(self._choices, sort_keys=True), parents=True)
        except OSError as error:
            self.tell(f"the {key.replace('_', ' ')} chosen is for this window only ({_reason(error)})")
            return False
        return True

    # ----- progress ------------------------------------------------------------------------

    def load_progress(self, key: str, puzzle: Puzzle | None = None) -> dict[str, Any] | None:
        """The saved play for ``key``, or None (no file, or a damaged one now moved aside).

        With ``puzzle`` the play is also checked against the level (see check_progress).
        """
        path = self.progress_path(key)
        self._seen[key] = signature(path)        # before reading: a write in between is caught at the save
        try:
            return check_progress(read_json(path), puzzle)
        except FileNotFoundError:
            return None
        except Damaged as problem:
            self._move_aside(path, f"damaged saved play ({problem})")
            self._seen[key] = signature(path)
            return None

    def saved_on(self, key: str) -> datetime.date | None:
        """The day ``key``'s play was last saved, as this window found it when it read the play
        (a play saved as solved was solved that day or before); None without a saved play."""
        seen = self._seen.get(key)
        return datetime.date.fromtimestamp(seen[3] / 1e9) if seen else None

    def restore_play(self, key: str, puzzle: Puzzle) -> Session | None:
        """The saved play for ``key`` rebuilt, or None (no file, or a damaged one now moved
        aside). A play that passes the check but does not replay (a trial step edited by hand
        whose cells are not the ones it puts back) is moved aside too, so the fresh play saved
        next never replaces the player's file."""
        saved = self.load_progress(key, puzzle)
        if saved is None:
            return None
        try:
            return Session.restore(puzzle, saved)
        except ValueError as problem:
            self._move_aside(self.progress_path(key), f"damaged saved play ({problem})")
            self._seen[key] = signature(self.progress_path(key))
            return None

    def save_progress(self, key: str, data: dict[str, Any]) -> bool:
        """Returns False (and keeps playing) when the folder cannot be written."""
        return self._write_progress(key, json.dumps(data, indent=1), data)

    def _write_progress(self, key: str, text: str, data: dict[str, Any]) -> bool:
        """Write a level's play. Under the progress lock: when another window has saved a play
        of this level since this one read or wrote the file, and ours does not go on from it,
        theirs is kept aside first (see :meth:`_keep_other_play`)."""
        path = self.progress_path(key)
        try:
            with file_lock(self.root / "progress"):
                if key in self._seen and signature(path) not in (None, self._seen[key]):
                    self._keep_other_play(key, path, data)
                write_text(path, text, parents=True)
                self._seen[key] = signature(path)
        except OSError as error:
            return self._saved(error)
        if self._unsaved:
            self._write_unsaved()
        return self._saved(None)

    def save_play(self, key: str, session: Session) -> bool:
        """Save ``session``'s play. A history too long for a progress file (the limit it is read
        back with) first has its oldest steps merged (``Session.fold_oldest``): the board and its
        latest steps are saved, never a file the next start would refuse. When folding cannot
        (the play is inside a trial from its start, or the redo side is long), the whole history
        is folded (``Session.fold_all``): the board and its trials are saved."""
        data, text = self._play_text(session)
        while len(text) > MAX_FILE_BYTES and session.fold_oldest():      # ASCII: one byte a character
            data, text = self._play_text(session)
        if len(text) > MAX_FILE_BYTES:
            session.fold_all()
            data, text = self._play_text(session)
        return self._write_progress(key, text, data)

    def _play_text(self, session: Session) -> tuple[dict[str, Any], str]:
        """``session.to_dict()`` and its text, ``json.dumps(data, indent=1)``, with each step's
        data and text kept from the last save: a play of thousands of steps (a 60x60 board) was
        encoded whole at every move, 15-90 ms of the window's frame. Steps are frozen, so a step
        met again by identity is the same step; those no longer in the history are let go."""
        kept, fresh = self._steps, {}

        def encode(step: Step) -> dict[str, Any]:
            hit = kept.get(id(step))
            if hit is None or hit[0] is not step:
                data = step_to_dict(step)
                lines = json.dumps(data, indent=1).split("\n")
                hit = (step, data, "\n".join("  " + line for line in lines))   # two deep: in the list, in the play
            fresh[id(step)] = hit
            return hit[1]

        data = session.to_dict(encode)
        self._steps = fresh
        if not data["history"]:
            return data, json.dumps(data, indent=1)
        head = json.dumps({**data, "history": [0]}, indent=1)
        steps = ",\n".join(fresh[id(step)][2] for step in session.history)
        return data, head.replace('"history": [\n  0\n ]', f'"history": [\n{steps}\n ]', 1)

    def _keep_other_play(self, key: str, path: Path, ours: dict[str, Any]) -> None:
        """Another window's play of this level is at ``path``: keep it beside ours
        (``<key>.other-<UTC>.json``) unless ours goes on from it (the same attempt at the level,
        its history the start of ours). A later state of a play already kept (the same attempt,
        the kept history the start of theirs) takes the place of its earlier one, so two windows
        saving by turns make one such file each, not one per move; a later attempt is another
        play, kept in a file of its own."""
        try:
            other = check_progress(read_json(path))
            theirs = other["history"]
        except FileNotFoundError:
            return
        except Damaged as problem:
            self._move_aside(path, f"damaged saved play ({problem})")
            return
        attempt = other.get("attempt", 0)
        if attempt == ours.get("attempt", 0) and theirs == ours["history"][:len(theirs)]:
            return                                # ours goes on from theirs: nothing of it is lost
        kept = self._others.get(key)
        if kept is not None and kept[1] == attempt and kept[2] == theirs[:len(kept[2])] and os.path.isfile(kept[0]):
            try:
                os.replace(path, kept[0])
                self._others[key] = (kept[0], attempt, theirs)
                return
            except OSError:
                pass
        target = self._move_aside(path, "another window saved a different play of this level", tag="other")
        if target is not None:
            self._others[key] = (target, attempt, theirs)

    # ----- solved levels -------------------------------------------------------------------

    def solved(self) -> dict[str, dict[str, Any]]:
        """Key -> {"seconds", "name", "when", and "size", "grade", "hints", "checks" when known}
        for every solved level whose record is sound.

        Read once, again at each write, and again when another window has written the file
        since (see :meth:`_current`); a damaged file is set aside at the first read and at a
        write (bad entries dropped, the rest kept).
        """
        self._solved = self._current(self.solved_path, self._solved, check_solved_entry, "solved levels")
        return dict(self._solved)

    def _first_read(self, path: Path, check: Callable[[Any, Any], bool], what: str) -> dict[str, dict[str, Any]]:
        """A list's sound records, read under its lock: setting damaged records aside rewrites
        the file, which must not undo a record another window writes meanwhile."""
        with file_lock(path):
            records = self._read_checked(path, check, what)[0]
            self._lists_seen[path] = signature(path)
            return records

    def _current(self, path: Path, records: dict[str, dict[str, Any]] | None, check: Callable[[Any, Any], bool],
                 what: str) -> dict[str, dict[str, Any]]:
        """This window's view of a list (``records``: the one it has): read first under the
        lock (:meth:`_first_read`); read again when the file changed on disk since this window
        last read or wrote it (another window recorded a solve), with this window's records
        that could not be written yet on top. A file that cannot be read now leaves the view as
        it was (its next write sets it aside); a file removed leaves this window's records only."""
        if records is None:
            return self._first_read(path, check, what)
        seen = signature(path)
        if seen == self._lists_seen.get(path):
            return records
        self._lists_seen[path] = seen               # before reading: a write in between is read next time
        try:
            data = read_json(path, records=True)
        except FileNotFoundError:
            data = {}
        except Damaged:
            return records
        if not isinstance(data, dict):
            return records
        fresh = {key: entry for key, entry in data.items() if check(key, entry)}
        for merge in self._unsaved.get(path, (check, what, []))[2]:
            fresh = merge(fresh)
        return fresh

    def _read_checked(self, path: Path, check: Callable[[Any, Any], bool],
                      what: str) -> tuple[dict[str, dict[str, Any]], bool]:
        """The sound records of ``path``, and whether the file may be written over: not while
        it holds damaged records that could not be kept aside (they would be lost)."""
        try:
            data = read_json(path, records=True)
        except FileNotFoundError:
            return {}, True
        except Damaged as problem:
            return {}, self._move_aside(path, f"damaged list of {what} ({problem})") is not None
        if not isinstance(data, dict):
            return {}, self._move_aside(path, f"damaged list of {what} (not an object)") is not None
        good = {key: entry for key, entry in data.items() if check(key, entry)}
        if len(good) != len(data):
            bad = len(data) - len(good)
            if not self._move_aside(path, f"{bad} damaged record{'s' if bad > 1 else ''} of {what} dropped",
                                    copy=True):
                return good, False
            try:
                write_text(path, json.dumps(good, indent=1, sort_keys=True), parents=True)
            except OSError as error:
                self._saved(error)
        return good, True

    def _merge_write(self, path: Path, check: Callable[[Any, Any], bool], what: str,
                     merge: Callable[[dict], dict], mine: dict, again: bool = False) -> tuple[dict, bool]:
        """Under the file's lock: read it as it is now, ``merge`` one record in, write it back.
        When the folder cannot be written the record is merged into ``mine`` (this window's copy)
        and the failure reported; the game goes on, and the record is written with the next
        write that succeeds (of a record or of progress); such a try ``again`` fails quietly,
        since the player was told the first time."""
        unsaved = self._unsaved.setdefault(path, (check, what, []))[2]
        unsaved.append(merge)
        fresh: dict | None = None
        try:
            with file_lock(path):
                read, replaceable = self._read_checked(path, check, what)
                self._lists_seen[path] = signature(path)
                for each in unsaved:
                    read = each(read)
                fresh = read
                if not replaceable:
                    raise OSError(errno.EIO, "it holds damaged records that could not be kept aside", str(path))
                write_text(path, json.dumps(fresh, indent=1, sort_keys=True), parents=True)
                self._lists_seen[path] = signature(path)
        except OSError as error:
            if again:
                return mine, False
            self._save_failing = False
            # What this window knows: the file as read now with its records merged in (or, when
            # it could not be read, its own copy with the new record).
            return (merge(mine) if fresh is None else fresh), self._saved(error)
        del self._unsaved[path]
        return fresh, self._saved(None)

    def _write_unsaved(self) -> None:
        """Write the records that earlier writes could not (the disk was full, say)."""
        for path, (check, what, merges) in list(self._unsaved.items()):
            last = merges.pop()
            records, saved = self._merge_write(path, check, what, last, {}, again=True)
            if saved:
                if path == self.solved_path:
                    self._solved = records
                else:
                    self._daily = records

    def is_solved(self, key: str) -> bool:
        return key in self.solved()

    def mark_solved(self, key: str, seconds: float, name: str = "", size: str | None = None,
                    grade: str | None = None, hints: int = 0, checks: int = 0) -> bool:
        """Record a solve; a faster solve of the same level keeps the best time.

        A failure is always reported (the window has just said the level is solved).
        """
        return self.record_solve(key, seconds, name, size, grade, hints, checks).saved

    def record_solve(self, key: str, seconds: float, name: str = "", size: str | None = None,
                     grade: str | None = None, hints: int = 0, checks: int = 0) -> Solve:
        """Record a solve (merged into the file as it is on disk) and say which best times it
        is measured against."""
        time_taken = _seconds(seconds)
        clean_name = name.encode("utf-8", "replace").decode("utf-8")[:MAX_TEXT]
        clean_name = "".join(ch if ch.isprintable() else "?" for ch in clean_name)
        extras: dict[str, int | str] = {"hints": min(max(int(hints), 0), MAX_COUNT),
                                        "checks": min(max(int(checks), 0), MAX_COUNT)}
        if size is not None and _SIZE.fullmatch(size):
            extras["size"] = size
        if grade is not None and _is_text(grade) and len(grade) <= 20:
            extras["grade"] = grade
        before: dict[str, Any] = {}
        when = time.strftime("%Y-%m-%d %H:%M:%S")

        def merge(records: dict) -> dict:
            before.update(records)
            old = records.get(key)
            kept: dict[str, Any]
            if old is None or time_taken < old["seconds"]:
                seconds, kept = time_taken, extras
            else:
                seconds, kept = old["seconds"], {k: old[k] for k in SOLVED_EXTRA if k in old}
            records[key] = {"seconds": seconds, "name": clean_name, "when": when, **kept}
            return records

        self._solved, saved = self._merge_write(self.solved_path, check_solved_entry, "solved levels", merge,
                                                self.solved())
        old = before.get(key)
        kind = (extras.get("size"), extras.get("grade"))
        group = [entry["seconds"] for entry in before.values()
                 if kind[0] is not None and (entry.get("size"), entry.get("grade")) == kind]
        return Solve(saved, old["seconds"] if old else None, min(group) if group else None, time_taken)

    # ----- daily puzzles -------------------------------------------------------------------

    @property
    def daily_path(self) -> Path:
        return self.root / "daily.json"

    def daily(self) -> dict[str, dict[str, Any]]:
        """Date (YYYY-MM-DD) -> {"seconds", "when"} for every daily puzzle solved (read as
        :meth:`solved` is)."""
        self._daily = self._current(self.daily_path, self._daily, check_daily_entry, "daily puzzles solved")
        return dict(self._daily)

    def mark_daily(self, date: str, seconds: float) -> bool:
        """Record the daily puzzle of ``date`` as solved (the best time is kept)."""
        time_taken = _seconds(seconds)
        when = time.strftime("%Y-%m-%d %H:%M:%S")

        def merge(records: dict) -> dict:
            old = records.get(date)
            if old is None or time_taken < old["seconds"]:
                records[date] = {"seconds": time_taken, "when": when}
            return records

        if not _DATE.fullmatch(date):
            return False
        self._daily, saved = self._merge_write(self.daily_path, check_daily_entry, "daily puzzles solved", merge,
                                               self.daily())
        return saved
