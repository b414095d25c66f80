"""Per-user progress: each level's saved play and which levels are solved.

Files live in the per-user data folder (``window.settings.user_dir()``):
``progress/<key>.json`` holds one level's play (see ``Session.to_dict``) and ``solved.json``
maps level keys to when and how fast they were solved. A level's key is a digest of its
content, not of its path, so a level keeps its progress when the file is moved or renamed.

Writes go through ``game.files`` (a temporary file of ours in the same folder, fsync, rename);
temporary files left by a killed program are removed when storage opens (here, in runs/ and
in generated/). Every file is
checked against a strict schema before it is used. A damaged file is never deleted: it is
moved aside as ``<name>.damaged-<UTC time>.json`` and the player is told once. Each level
has its own progress file, so a damaged one costs that level's play only; in ``solved.json``
the good entries are kept (the damaged file is copied aside, then rewritten without the bad
entries). A file that cannot be written is reported once and the game goes on.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

from game.files import remove_stale
from game.levels import LevelError, atomic_write_text, decode_json, read_bounded
from game.puzzle import Move, Puzzle, initial_grid
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
SOLVED_KEYS = frozenset({"seconds", "name", "when"})


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


write_atomic = atomic_write_text


def remove_orphan_temp_files(folder: Path, older_than: float = ORPHAN_AGE) -> list[Path]:
    """Delete our temporary files in ``folder`` left by a program killed while it saved."""
    return remove_stale(folder, older_than, also=_LEGACY_TEMP)


def aside_path(path: Path) -> Path:
    """``name.damaged-<UTC time>.json`` beside ``path``, not yet taken."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    candidate = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    number = 2
    while os.path.lexists(candidate):
        candidate = path.with_name(f"{path.stem}.damaged-{stamp}-{number}{path.suffix}")
        number += 1
    return candidate


# ----- reading ------------------------------------------------------------------------------


def read_json(path: Path) -> Any:
    """The JSON document in ``path`` within the limits (``game.levels`` reads it, as it reads
    levels); FileNotFoundError when there is none, :class:`Damaged` when it cannot be used."""
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    try:
        data = read_bounded(path)
        return decode_json(data.decode("utf-8"), str(path))
    except LevelError as error:
        raise Damaged(error.reason) from None
    except UnicodeDecodeError:
        raise Damaged("is not UTF-8 text") from None


# ----- schemas ------------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT and value.isprintable()


def check_progress(data: Any, puzzle: Puzzle | None = None) -> dict[str, Any]:
    """``data`` if it is a play as ``Session.to_dict`` writes it, else Damaged. With ``puzzle``:
    every move is on a free cell of the board and changes it, so the play replays whole."""
    if not isinstance(data, dict):
        raise Damaged("is not an object")
    if set(data) != PROGRESS_KEYS:
        raise Damaged(f"has keys {sorted(data)[:6]}; expected {sorted(PROGRESS_KEYS)}")
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
    for number, step in enumerate(history):
        if not (isinstance(step, dict) and set(step) == {"label", "moves"} and _is_text(step["label"])
                and isinstance(step["moves"], list) and step["moves"]):
            raise Damaged(f"step {number + 1} is not a label with a list of moves")
        for text in step["moves"]:
            if not (isinstance(text, str) and _MOVE.fullmatch(text)):
                raise Damaged(f"step {number + 1} has {text!r:.20}, not a move")
            try:
                move = Move.parse(text)
            except ValueError:
                raise Damaged(f"step {number + 1} has {text!r:.20}, not a move") from None
            if board is None:
                continue
            if not puzzle.inside(move.row, move.col) or (move.row, move.col) in puzzle.hints:
                raise Damaged(f"step {number + 1} has {text}, which is not a free cell of this level")
            # A saved step holds only moves that changed the board (Session.apply drops the rest).
            if board[move.row][move.col] == move.value:
                raise Damaged(f"step {number + 1} has {text}, which changes nothing")
            board[move.row][move.col] = move.value
    return data


def check_solved_entry(key: Any, entry: Any) -> bool:
    return (isinstance(key, str) and _KEY.fullmatch(key) is not None and isinstance(entry, dict)
            and set(entry) == SOLVED_KEYS and _is_number(entry["seconds"]) and 0 <= entry["seconds"] <= MAX_SECONDS
            and _is_text(entry["name"]) and _is_text(entry["when"]))


def generated_dir() -> Path:
    """Where the New puzzle dialog saves the levels it makes."""
    return user_dir() / "generated"


def runs_dir() -> Path:
    """Where the window keeps the traces of the runs it shows (the last of each solver, and
    those saved with "Save run")."""
    return user_dir() / "runs"


def _reason(error: OSError) -> str:
    where = f": {error.filename}" if getattr(error, "filename", None) else ""
    return f"{error.strerror or error.__class__.__name__}{where}"


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
        for folder in (self.root, self.root / "progress", self.root / "runs", self.root / "generated"):
            remove_orphan_temp_files(folder)

    @property
    def solved_path(self) -> Path:
        return self.root / "solved.json"

    def progress_path(self, key: str) -> Path:
        return self.root / "progress" / f"{key}.json"

    # ----- messages ------------------------------------------------------------------------

    def tell(self, message: str) -> None:
        if message not in self._messages:
            self._messages.append(message)

    def take_messages(self) -> list[str]:
        """The messages not yet shown, oldest first; each is handed out once."""
        messages, self._messages = self._messages, []
        return messages

    def _move_aside(self, path: Path, problem: str, copy: bool = False) -> bool:
        """Keep a damaged file beside the good ones (renamed, or copied when it is rewritten)."""
        target = aside_path(path)
        try:
            (shutil.copyfile if copy else os.replace)(path, target)
        except OSError as error:
            self.tell(f"{path}: {problem}; it could not be moved aside ({_reason(error)}) and is ignored")
            return False
        self.tell(f"{path}: {problem}; kept as {target.name}")
        return True

    def _saved(self, ok_or_error: OSError | None) -> bool:
        if ok_or_error is None:
            self._save_failing = False
            return True
        if not self._save_failing:
            self.tell(f"progress cannot be saved ({_reason(ok_or_error)})")
            self._save_failing = True
        return False

    # ----- progress ------------------------------------------------------------------------

    def load_progress(self, key: str, puzzle: Puzzle | None = None) -> dict[str, Any] | None:
        """The saved play for ``key``, or None (no file, or a damaged one now moved aside).

        With ``puzzle`` the play is also checked against the level (see check_progress).
        """
        path = self.progress_path(key)
        try:
            return check_progress(read_json(path), puzzle)
        except FileNotFoundError:
            return None
        except Damaged as problem:
            self._move_aside(path, f"damaged saved play ({problem})")
            return None

    def save_progress(self, key: str, data: dict[str, Any]) -> bool:
        """Returns False (and keeps playing) when the folder cannot be written."""
        try:
            write_atomic(self.progress_path(key), json.dumps(data, indent=1))
        except OSError as error:
            return self._saved(error)
        return self._saved(None)

    # ----- solved levels -------------------------------------------------------------------

    def solved(self) -> dict[str, dict[str, Any]]:
        """Key -> {"seconds", "name", "when"} for every solved level whose record is sound.

        Read once; a damaged file is set aside then (bad entries dropped, the rest kept).
        """
        if self._solved is None:
            self._solved = self._read_solved()
        return dict(self._solved)

    def _read_solved(self) -> dict[str, dict[str, Any]]:
        path = self.solved_path
        try:
            data = read_json(path)
        except FileNotFoundError:
            return {}
        except Damaged as problem:
            self._move_aside(path, f"damaged list of solved levels ({problem})")
            return {}
        if not isinstance(data, dict):
            self._move_aside(path, "damaged list of solved levels (not an object)")
            return {}
        good = {key: entry for key, entry in data.items() if check_solved_entry(key, entry)}
        if len(good) != len(data):
            bad = len(data) - len(good)
            if self._move_aside(path, f"{bad} damaged record{'s' if bad > 1 else ''} of solved levels dropped",
                                copy=True):
                try:
                    write_atomic(path, json.dumps(good, indent=1, sort_keys=True))
                except OSError as error:
                    self._saved(error)
        return good

    def is_solved(self, key: str) -> bool:
        return key in self.solved()

    def mark_solved(self, key: str, seconds: float, name: str = "") -> bool:
        """Record a solve; a faster solve of the same level keeps the best time.

        A failure is always reported (the window has just said the level is marked solved).
        """
        records = self.solved()
        old = records.get(key)
        best = seconds if _is_number(seconds) else 0.0
        best = min(best, old["seconds"]) if old else best
        clean_name = name.encode("utf-8", "replace").decode("utf-8")[:MAX_TEXT]
        clean_name = "".join(ch if ch.isprintable() else "?" for ch in clean_name)
        records[key] = {"seconds": round(min(max(best, 0.0), MAX_SECONDS), 1), "name": clean_name,
                        "when": time.strftime("%Y-%m-%d %H:%M:%S")}
        self._solved = records
        try:
            write_atomic(self.solved_path, json.dumps(records, indent=1, sort_keys=True))
        except OSError as error:
            self._save_failing = False
            return self._saved(error)
        return self._saved(None)
