"""Per-user progress: each level's saved play and which levels are solved.

Files live in the per-user data folder (``window.settings.user_dir()``):
``progress/<key>.json`` holds one level's play (see ``Session.to_dict``) and ``solved.json``
maps level keys to when and how fast they were solved. A level's key is a digest of its
content, not of its path, so a level keeps its progress when the file is moved or renamed.

Every write goes to a temporary file in the same folder first and then replaces the old file
with ``os.replace``: a crash or a full disk never leaves a half-written file behind. A file
that cannot be read is treated as absent; losing a saved play must never stop the game.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from game.puzzle import Puzzle
from window.settings import user_dir


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


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp_name, path)
    except BaseException:
        try:
            os.unlink(temp_name)
        except OSError:
            pass
        raise


def _read_json(path: Path) -> Any | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def generated_dir() -> Path:
    """Where the New puzzle dialog saves the levels it makes."""
    return user_dir() / "generated"


class Storage:
    """Progress files under ``root`` (the per-user data folder unless told otherwise)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else user_dir()

    @property
    def solved_path(self) -> Path:
        return self.root / "solved.json"

    def progress_path(self, key: str) -> Path:
        return self.root / "progress" / f"{key}.json"

    def load_progress(self, key: str) -> dict[str, Any] | None:
        data = _read_json(self.progress_path(key))
        return data if isinstance(data, dict) else None

    def save_progress(self, key: str, data: dict[str, Any]) -> bool:
        """Returns False (and keeps playing) when the folder cannot be written."""
        try:
            write_atomic(self.progress_path(key), json.dumps(data, indent=1))
            return True
        except OSError:
            return False

    def solved(self) -> dict[str, dict[str, Any]]:
        data = _read_json(self.solved_path)
        return data if isinstance(data, dict) else {}

    def is_solved(self, key: str) -> bool:
        return key in self.solved()

    def mark_solved(self, key: str, seconds: float, name: str = "") -> bool:
        """Record a solve; a faster solve of the same level keeps the best time."""
        records = self.solved()
        old = records.get(key)
        best = seconds if not isinstance(old, dict) else min(seconds, float(old.get("seconds", seconds)))
        records[key] = {"seconds": round(best, 1), "name": name, "when": time.strftime("%Y-%m-%d %H:%M:%S")}
        try:
            write_atomic(self.solved_path, json.dumps(records, indent=1, sort_keys=True))
            return True
        except OSError:
            return False
