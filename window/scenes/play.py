"""The playing scene: the board, the player's input, the side panel and the status line."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from game import rules
from game.puzzle import Cell, Grid, Puzzle
from game.session import Session, fleet_lines, tally_states
from window import fonts
from window.board_view import BoardPicture, draw_board
from window.coach import CoachActions
from window.hints import CELL_KINDS, HintHelper
from window.host import Host
from window.layout import Layout, compute_layout
from window.panel_views import draw_fleet, fleet_height
from window.solver_panel import SolverPanel
from window.storage import level_key
from window.widgets import Button, layout_row

ARROWS = {pygame.K_UP: (-1, 0), pygame.K_DOWN: (1, 0), pygame.K_LEFT: (0, -1), pygame.K_RIGHT: (0, 1)}
KEY_VALUES = {pygame.K_w: Cell.WATER, pygame.K_s: Cell.SHIP, pygame.K_SPACE: Cell.UNKNOWN,
              pygame.K_DELETE: Cell.UNKNOWN, pygame.K_BACKSPACE: Cell.UNKNOWN}
CELEBRATION_SECONDS = 2.5
HELD_BACK = "The board is being animated: Stop or Reset the solver to edit your own marks"


@dataclass(frozen=True)
class Derived:
    """The judge's view of one board: tally states, fleet checklist, provably wrong cells."""

    grid: Grid
    rows: tuple
    cols: tuple
    fleet: tuple
    bad: frozenset
    solved: bool


class PlayScene(CoachActions):
    animating = False
    clock_changed = False
    celebrate_until = 0.0

    def __init__(self, app: Host, puzzle: Puzzle, path: Path | None) -> None:
        self.app = app
        self.puzzle = puzzle
        self.path = path
        self.key = level_key(puzzle)
        saved = app.storage.load_progress(self.key, puzzle)
        self.session = Session.from_dict(puzzle, saved) if saved else Session(puzzle)
        self.was_solved = self.session.solved
        self.saved_version = self.session.version
        self.cursor: tuple[int, int] | None = None     # keyboard cursor (UI state, not undone)
        self.drag: Cell | None = None                  # the value a drag paints
        self.drag_last: tuple[int, int] | None = None
        self._derived: Derived | None = None
        self.message = "Progress restored" if saved else "Left click: water, then ship. Right click: the other way."
        self.hints = HintHelper(puzzle)
        self._on_screen: tuple | None = None      # (picture, layout, banner) of the last frame drawn
        self.solver = SolverPanel(puzzle, app.settings, self.notify, self.keep_solver_board)
        self.undo_button, self.redo_button = Button("Undo", self.undo), Button("Redo", self.redo)
        self.toolbar = [Button("New", app.open_new_level), Button("Levels", app.open_browser),
                        Button("Open...", app.open_files), self.undo_button, self.redo_button,
                        Button("Restart", self.restart), Button("Hint", self.hint), Button("Check", self.check),
                        Button("Theme", app.toggle_theme), Button("Palette", app.toggle_palette)]
        # Shown in the status line while a hint or a check has found a mistake.
        self.mistake_button = Button("Undo to first mistake", self.undo_to_mistake, active=True)
        self.layout: Layout = compute_layout(app.window_size, puzzle.rows, puzzle.cols)
        self.relayout(app.window_size)

    # ----- helpers -------------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self.puzzle.name or (self.path.stem if self.path else "level")

    def notify(self, message: str) -> None:
        self.message = message

    def relayout(self, size: tuple[int, int]) -> None:
        self.layout = compute_layout(size, self.puzzle.rows, self.puzzle.cols)
        bar = self.layout.toolbar.inflate(-16, -12)
        # The rest is for the level's title (less of it in a narrow window).
        width = min(bar.width - min(260, bar.width // 5), len(self.toolbar) * 86)
        layout_row(self.toolbar, pygame.Rect(bar.x, bar.y, width, bar.height), gap=6)
        panel = self.layout.panel.inflate(-20, -20)
        top = panel.y + 28 + fleet_height(self.shown_fleet(), panel.width) + 10
        self.solver.place(pygame.Rect(panel.x, top, panel.width, panel.bottom - top))

    def fleet_area(self) -> pygame.Rect:
        inner = self.layout.panel.inflate(-20, -20)
        return pygame.Rect(inner.x, inner.y + 28, inner.width, 1000)

    def shown_grid(self):
        return self.solver.watch.grid() if self.solver.showing else self.session.grid

    def shown_fleet(self):
        return self.derived().fleet

    def close(self) -> None:
        self.hints.cancel()
        self.solver.close()
        self.save()

    def save(self) -> None:
        if self.session.version != self.saved_version:
            self.app.storage.save_progress(self.key, self.session.to_dict())
            self.saved_version = self.session.version

    def _after_change(self) -> None:
        self.save()
        if self.session.solved and not self.was_solved:
            self.was_solved = True
            minutes, seconds = divmod(int(self.session.elapsed), 60)
            self.message = f"Solved! {minutes}:{seconds:02d} - well done. The level is marked solved."
            self.celebrate_until = time.monotonic() + CELEBRATION_SECONDS
            self.app.storage.mark_solved(self.key, self.session.elapsed, self.title)

    # ----- player actions ------------------------------------------------------------------

    def _editable(self) -> bool:
        if self.solver.running:
            self.message = HELD_BACK
            return False
        if self.solver.showing:
            # A finished run: the player's marks come back and the action goes ahead on them
            # (the action meant the player's game; "Keep solver's board" is the way to take it).
            self.solver.reset()
            self.message = "The solver's board is put away: your own marks are back"
        return True

    def undo(self) -> None:
        if self._editable() and self.session.undo():
            self._after_change()

    def redo(self) -> None:
        if self._editable() and self.session.redo():
            self._after_change()

    def restart(self) -> None:
        if self._editable() and self.session.restart():
            self.message = "Restarted (Ctrl+Z brings your marks back)"
            self._after_change()

    def keep_solver_board(self) -> None:
        watch = self.solver.watch
        if watch is None or watch.running:
            return
        grid = watch.grid()
        self.solver.reset()
        if self.session.replace_board(grid, "keep solver board"):
            self.message = "Kept the solver's board (Ctrl+Z to undo)"
            self._after_change()

    def _click_cell(self, row: int, col: int, button: int) -> None:
        if not self._editable():
            return
        if self.session.is_hint(row, col):
            self.message = "Given cells cannot be changed"
            return
        self.drag = self.session.cycle(row, col, forward=(button == 1))
        self.drag_last = (row, col)
        self._after_change()

    def _key_down(self, event: pygame.event.Event) -> None:
        ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if ctrl and event.key == pygame.K_z:
            self.redo() if event.mod & pygame.KMOD_SHIFT else self.undo()
        elif ctrl and event.key == pygame.K_y:
            self.redo()
        elif event.key in ARROWS:
            dr, dc = ARROWS[event.key]
            r, c = self.cursor or (0, 0)
            if self.cursor is not None:
                r = min(self.puzzle.rows - 1, max(0, r + dr))
                c = min(self.puzzle.cols - 1, max(0, c + dc))
            self.cursor = (r, c)
        elif event.key in KEY_VALUES and self.cursor is not None:
            if not self._editable():
                return
            if self.session.is_hint(*self.cursor):
                self.message = "Given cells cannot be changed"
            elif self.session.set_cell(*self.cursor, KEY_VALUES[event.key]):
                self._after_change()
        elif event.key == pygame.K_h and not ctrl:
            self.hint()
        elif event.key == pygame.K_c and not ctrl:
            self.check()
        elif event.key == pygame.K_u and not ctrl:
            self.undo_to_mistake()
        elif event.key == pygame.K_n and not ctrl:
            self.app.open_new_level()
        elif event.key == pygame.K_r and not ctrl:
            self.restart()
        elif event.key == pygame.K_ESCAPE and self.solver.showing:
            self.solver.reset()
            self.message = "Solver reset: your own marks are back"
        elif event.key == pygame.K_l and not ctrl:
            self.app.open_browser()
        elif event.key == pygame.K_o and ctrl:
            self.app.open_files()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self._key_down(event)
            return
        if self.solver.handle(event):
            return
        for button in self.toolbar:
            if button.handle(event) and event.type != pygame.MOUSEMOTION:
                return
        if self.offering_undo and self.mistake_button.handle(event) and event.type != pygame.MOUSEMOTION:
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            cell = self.layout.cell_at(event.pos)
            if cell is not None:
                self._click_cell(*cell, event.button)
                return
            tally = self.layout.tally_at(event.pos)
            if tally is not None and self._editable():
                if self.session.fill_line_with_water(*tally):
                    self._after_change()
                else:
                    self.message = f"That {tally[0]}'s ship count is not met yet"
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            cell = self.layout.cell_at(event.pos)
            if cell is not None and cell != self.drag_last:
                self.drag_last = cell
                if self.session.paint(*cell, self.drag):
                    self._after_change()
        elif event.type == pygame.MOUSEBUTTONUP and self.drag is not None:
            self.drag = None
            self.session.end_merge()

    def update(self, dt: float) -> bool:
        """True if the scene must be redrawn; a mere clock tick only sets ``clock_changed``."""
        before = int(self.session.elapsed)
        self.session.tick(dt)
        changed = self.solver.update(dt)
        if self.hints.poll():
            self._hint_arrived()
            changed = True
        self.animating = self.solver.running or self.hints.thinking
        self.undo_button.enabled = self.session.can_undo
        self.redo_button.enabled = self.session.can_redo
        self.clock_changed = int(self.session.elapsed) != before
        if self.celebrate_until and time.monotonic() > self.celebrate_until:
            self.celebrate_until = 0.0          # the banner goes away: one more redraw
            changed = True
        return changed

    # ----- drawing -------------------------------------------------------------------------

    def derived(self) -> Derived:
        """What the judge says about the board on screen; recomputed only when that board changes."""
        grid = self.shown_grid()
        if self._derived is None or self._derived.grid is not grid:
            rows, cols = tally_states(self.puzzle, grid)
            bad: set = set()
            if not self.solver.showing:
                bad = {cell for v in rules.provable_violations(self.puzzle, grid)
                       if v.kind in CELL_KINDS for cell in v.cells}
            self._derived = Derived(grid, rows, cols, fleet_lines(self.puzzle, grid), frozenset(bad),
                                    not self.solver.showing and rules.is_solved(self.puzzle, grid))
        return self._derived

    def picture(self) -> BoardPicture:
        seen = self.derived()
        watch = self.solver.watch
        if watch is None:
            return BoardPicture(self.puzzle, seen.grid, seen.rows, seen.cols, self.cursor,
                                seen.bad | self.hints.wrong_cells(seen.grid),
                                solved=seen.solved, highlight=self.hints.cells(seen.grid))
        return BoardPicture(self.puzzle, seen.grid, seen.rows, seen.cols, self.cursor, frozenset(),
                            dict(watch.reasons), watch.backtracked, watch.tried, watch.best_fleet(), watch.solved)

    def draw(self, surface: pygame.Surface) -> list[pygame.Rect] | None:
        """Draw the whole scene; return the areas that differ from the last frame (None: all).

        The window sends only those areas to the screen, which matters when the display is
        remote or unaccelerated. The record of what is on screen is display bookkeeping, not
        game state: nothing reads it but this comparison.
        """
        theme = self.app.theme
        layout = self.layout
        picture = self.picture()
        surface.fill(theme.background)
        pygame.draw.rect(surface, theme.panel, layout.toolbar)
        for button in self.toolbar:
            button.draw(surface, theme)
        size = f"{self.puzzle.rows}x{self.puzzle.cols}"
        title = self.title if size in self.title else f"{self.title}  ({size})"
        right = layout.toolbar.right - 12
        space = right - (self.toolbar[-1].rect.right + 16)
        if space >= 40:
            fonts.blit_text(surface, fonts.fit_text(title, 20, space, bold=True), 20, theme.text, bold=True,
                            midright=(right, layout.toolbar.centery))
        draw_board(surface, layout, picture, theme)
        pygame.draw.rect(surface, theme.panel, layout.panel, border_radius=8)
        pygame.draw.rect(surface, theme.panel_edge, layout.panel, 1, border_radius=8)
        inner = layout.panel.inflate(-20, -20)
        fonts.blit_text(surface, "Fleet", 22, theme.text, bold=True, topleft=inner.topleft)
        draw_fleet(surface, self.fleet_area(), self.derived().fleet, theme)
        self.solver.draw(surface, theme)
        if self.celebrate_until:
            self._draw_banner(surface)
        self.draw_status(surface)
        record = (picture, layout, bool(self.celebrate_until))
        areas = None if self._on_screen is None else changed_areas(self._on_screen, record)
        self._on_screen = record
        return areas

    def _draw_banner(self, surface: pygame.Surface) -> None:
        theme, board = self.app.theme, self.layout.board
        minutes, seconds = divmod(int(self.session.elapsed), 60)
        banner = pygame.Rect(0, 0, min(board.width + 40, 420), 86)
        banner.center = board.center
        pygame.draw.rect(surface, theme.solved, banner, border_radius=14)
        pygame.draw.rect(surface, theme.panel, banner, 3, border_radius=14)
        fonts.blit_text(surface, "Solved!", 44, theme.panel, bold=True, center=(banner.centerx, banner.y + 30))
        fonts.blit_text(surface, f"in {minutes}:{seconds:02d}", 22, theme.panel, center=(banner.centerx,
                                                                                           banner.bottom - 18))

    def draw_status(self, surface: pygame.Surface) -> None:
        theme, bar = self.app.theme, self.layout.status
        pygame.draw.rect(surface, theme.panel, bar)
        pygame.draw.line(surface, theme.panel_edge, bar.topleft, bar.topright)
        minutes, seconds = divmod(int(self.session.elapsed), 60)
        state = "SOLVED  " if self.session.solved else ""
        info = f"{state}time {minutes}:{seconds:02d}   moves {self.session.moves_made}"
        right = fonts.blit_text(surface, info, 18, theme.solved if self.session.solved else theme.text,
                                bold=True, midright=(bar.right - 12, bar.centery))
        if self.offering_undo:
            self.mistake_button.rect = pygame.Rect(0, bar.y + 3, 190, bar.height - 6)
            self.mistake_button.rect.right = right.left - 16
            self.mistake_button.draw(surface, theme)
            right = self.mistake_button.rect
        message = fonts.fit_text(self.message, 18, right.left - 30)
        fonts.blit_text(surface, message, 18, theme.text, midleft=(bar.x + 12, bar.centery))


def changed_areas(before: tuple, after: tuple) -> list[pygame.Rect] | None:
    """Screen areas where two frames differ: changed cells (with their neighbours, whose
    shapes depend on them), changed tallies, and the panel, toolbar and status line."""
    old, old_layout, old_banner = before
    new, layout, banner = after
    if (layout is not old_layout or banner != old_banner or old.puzzle is not new.puzzle
            or old.solved != new.solved or tuple(old.best_fleet) != tuple(new.best_fleet)):
        return None
    cells: set = set()
    old_reasons, new_reasons = old.reasons or {}, new.reasons or {}
    for r in range(layout.rows):
        old_row, new_row = old.grid[r], new.grid[r]
        for c in range(layout.cols):
            if (old_row[c] != new_row[c] or old_reasons.get((r, c)) != new_reasons.get((r, c))
                    or ((r, c) in old.backtracked) != ((r, c) in new.backtracked)):
                cells.update(((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
    for attribute in ("cursor", "tried"):
        for cell in (getattr(old, attribute), getattr(new, attribute)):
            if getattr(old, attribute) != getattr(new, attribute) and cell is not None:
                cells.add(cell)
    cells |= old.highlight ^ new.highlight
    cells |= old.error_cells ^ new.error_cells
    areas = [layout.cell_rect(r, c).inflate(8, 8) for r, c in cells if 0 <= r < layout.rows and 0 <= c < layout.cols]
    areas += [layout.row_tally_rect(r) for r in range(layout.rows) if old.row_states[r] != new.row_states[r]]
    areas += [layout.col_tally_rect(c) for c in range(layout.cols) if old.col_states[c] != new.col_states[c]]
    areas += [layout.panel.inflate(4, 4), layout.toolbar, layout.status]
    return areas
