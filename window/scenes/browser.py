"""The level browser: every ``.bs`` file under the level folder, grouped by size and difficulty."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Collection

import pygame

from game import levels
from window import fonts
from window.host import Host, LevelCache
from window.layout import dialog_box
from window.list_view import ROW_HEIGHT, ListView, Row
from window.storage import generated_dir, level_key
from window.widgets import Button, draw_dialog

KEYS = "Up/Down: choose  Enter: open  Esc: close"
_DIFFICULTY_ORDER = {"tutorial": 0, "easy": 1, "medium": 2, "hard": 3, "expert": 4}


def _group_order(group: str) -> tuple:
    """tutorial first, then by board size (numbers in the name), then by difficulty; the
    groups without a size (giants, variants) after those with one."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", group))
    words = [w for w in re.split(r"[/\\x\d_-]+", group.lower()) if w]
    rank = min((_DIFFICULTY_ORDER.get(w, 9) for w in words), default=9)
    return (0 if "tutorial" in group else 1, not numbers, numbers, rank, group)


def level_entry(path: Path, cache: LevelCache) -> tuple[str, str, str, str] | None:
    """(name, level key, error, note) of the level file at ``path``, read once while the file is
    unchanged (``cache`` maps (path, mtime) to it across openings); None when the file cannot be
    looked at."""
    try:
        stamp = (str(path), path.stat().st_mtime_ns)
    except OSError:
        return None
    if stamp not in cache:
        try:
            puzzle = levels.load(path)
            cache[stamp] = (puzzle.name or path.stem, level_key(puzzle), "", f"{puzzle.rows}x{puzzle.cols}")
        except (levels.LevelError, OSError) as problem:
            cache[stamp] = (path.stem, "", str(problem), "cannot load")
    return cache[stamp]


def in_progress(key: str, solved: Collection[str], played: Collection[str]) -> bool:
    """Whether the level of ``key`` is in progress: a saved play (``played``), not solved yet,
    so that a player coming back finds the level left half done."""
    return bool(key) and key in played and key not in solved


def scan_levels(root: Path, solved: set[str], cache: LevelCache, group_name: str | None = None,
                played: Collection[str] = ()) -> list[Row]:
    """Rows for the browser (each level read by :func:`level_entry`).

    ``group_name`` puts every level under one heading (the player's generated levels); a level
    :func:`in_progress` is noted so.
    """
    groups: dict[str, list[Row]] = {}
    for path in levels.level_files(root):
        if isinstance(path, levels.LevelError):     # a folder that cannot be read
            continue
        entry = level_entry(path, cache)
        if entry is None:
            continue
        name, key, error, note = entry
        group = str(path.parent.relative_to(root)).replace("\\", "/")
        group = "levels" if group == "." else group
        group = group_name or group
        state = "  solved" if key in solved else ("  in progress" if in_progress(key, solved, played) else "")
        groups.setdefault(group, []).append(Row(name, path, note + state, ticked=key in solved, error=bool(error)))
    rows: list[Row] = []
    for group in sorted(groups, key=_group_order):
        done = sum(r.ticked for r in groups[group])
        rows.append(Row(f"{group}   ({done}/{len(groups[group])} solved)"))
        rows.extend(groups[group])
    return rows


class BrowserScene:
    animating = False

    def __init__(self, app: Host, root: Path, current: Path | None = None) -> None:
        self.app = app
        self.root = root
        solved, played = set(app.storage.solved()), app.storage.played()
        rows = scan_levels(root, solved, app.level_cache, played=played) if root.is_dir() else []
        generated = generated_dir()      # where the New puzzle dialog saves
        if generated.is_dir():
            rows += scan_levels(generated, solved, app.level_cache, group_name="Generated", played=played)
        self.list = ListView(rows or [Row(f"No levels found in {root.name}/")])
        self.close_button = Button("Close", app.close_overlay)
        self.open_button = Button("Open file...", app.open_files)
        self.relayout(app.window_size)
        # The level in play is chosen, in the middle of the list's height (the levels after it in
        # sight), so Down and Enter open the next one.
        if current is not None:
            here = current.resolve()
            at = next((n for n, row in enumerate(self.list.rows)
                       if isinstance(row.value, Path) and row.value.resolve() == here), None)
            if at is not None:
                self.list.scroll = max(0, min(self.list.max_scroll, at * ROW_HEIGHT - self.list.rect.height // 2))
                self.list.select(at)

    def relayout(self, size: tuple[int, int]) -> None:
        box = self.box = dialog_box(size)
        self.close_button.rect = pygame.Rect(box.right - 110, box.y + 10, 100, 32)
        self.open_button.rect = pygame.Rect(box.right - 250, box.y + 10, 130, 32)
        self.list.rect = pygame.Rect(box.x + 10, box.y + 52, box.width - 20, box.height - 62)

    def handle(self, event: pygame.event.Event) -> None:
        """Escape closes; Up, Down, Page Up / Down, Home and End choose a level, Enter opens it;
        Ctrl+O the file dialog."""
        chosen = None
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.close_overlay()
            elif event.key == pygame.K_o and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.app.open_files()
            else:
                chosen = self.list.key(event)[1]
        elif self.close_button.handle(event) or self.open_button.handle(event):
            return
        else:
            chosen = self.list.handle(event)
        if chosen is not None:
            self.app.close_overlay()
            self.app.open_level(chosen)

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        draw_dialog(surface, theme, self.box, "Levels")
        fonts.blit_text(surface, fonts.fit_text(KEYS, 16, self.open_button.rect.x - self.box.x - 130), 16,
                        theme.muted, midleft=(self.box.x + 120, self.close_button.rect.centery))
        self.close_button.draw(surface, theme)
        self.open_button.draw(surface, theme)
        self.list.draw(surface, theme)
