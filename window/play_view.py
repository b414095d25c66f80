"""What the play scene shows and how it reaches the screen.

The scene's parts are drawn into off-screen copies (the toolbar, the board, the side panel),
each drawn again only when what it shows has changed; a frame blits them and reports the
screen areas that differ from the last frame, so the window sends only those to the display.
The status line is small and redrawn with every frame (the clock ticks in it).
"""

from __future__ import annotations

from typing import Callable, Sequence

import pygame

from window import fonts
from window.board_input import BoardInput
from window.board_view import BoardPicture, BoardView
from window.coach import Coach
from window.layout import Layout
from window.panel_views import draw_fleet, fleet_height
from window.player_board import PlayerBoard
from window.solver_panel import SolverPanel
from window.theme import Theme
from window.widgets import Button

PANEL_TITLE = 28          # room for the panel's "Fleet" heading


class StatusLine:
    """The line at the bottom: the latest message, the clock and moves, "Undo to first mistake"."""

    def __init__(self, message: str) -> None:
        self.message = message

    def notify(self, message: str) -> None:
        self.message = message

    def draw(self, surface: pygame.Surface, theme: Theme, bar: pygame.Rect, board: PlayerBoard,
             mistake_button: Button | None) -> None:
        session = board.session
        pygame.draw.rect(surface, theme.panel, bar)
        pygame.draw.line(surface, theme.panel_edge, bar.topleft, bar.topright)
        minutes, seconds = divmod(int(session.elapsed), 60)
        state = "SOLVED  " if session.solved else ""
        info = f"{state}time {minutes}:{seconds:02d}   moves {session.moves_made}"
        right = fonts.blit_text(surface, info, 18, theme.solved if session.solved else theme.text,
                                bold=True, midright=(bar.right - 12, bar.centery))
        if mistake_button is not None:
            mistake_button.rect = pygame.Rect(0, bar.y + 3, 190, bar.height - 6)
            mistake_button.rect.right = right.left - 16
            mistake_button.draw(surface, theme)
            right = mistake_button.rect
        message = fonts.fit_text(self.message, 18, right.left - 30)
        fonts.blit_text(surface, message, 18, theme.text, midleft=(bar.x + 12, bar.centery))


class Cached:
    """One part of the scene kept off screen and drawn again only when its ``key`` changes."""

    def __init__(self, render: Callable[[pygame.Surface], None]) -> None:
        self.render = render
        self.renders = 0
        self._key: object = None
        self._surface: pygame.Surface | None = None

    def draw(self, surface: pygame.Surface, area: pygame.Rect, background, key: object) -> bool:
        """Blit the part; True if it had to be drawn again."""
        fresh = self._surface is None or self._surface.get_size() != surface.get_size()
        if fresh:
            self._surface = pygame.Surface(surface.get_size())
        changed = fresh or key != self._key
        if changed:
            self._surface.set_clip(area)
            self._surface.fill(background, area)
            self.render(self._surface)
            self._surface.set_clip(None)
            self._key = key
            self.renders += 1
        surface.blit(self._surface, area, area)
        return changed


class PlayView:
    """Draws the play scene from its parts; never changes them."""

    def __init__(self, title: str, board: PlayerBoard, solver: SolverPanel, coach: Coach, board_input: BoardInput,
                 toolbar: Sequence[Button], mistake_button: Button, status: StatusLine) -> None:
        self.title = title
        self.board = board
        self.solver = solver
        self.coach = coach
        self.board_input = board_input
        self.toolbar = list(toolbar)
        self.mistake_button = mistake_button
        self.status = status
        self.board_view = BoardView()
        self._layout: Layout | None = None
        self._theme: Theme | None = None
        self._toolbar = Cached(self._draw_toolbar)
        self._panel = Cached(self._draw_panel)
        self._banner: bool | None = None

    # ----- what is shown -------------------------------------------------------------------

    def shown(self):
        """The session on screen: the solver's copy while a run is shown, else the player's."""
        return self.solver.watch.board if self.solver.showing else self.board.session

    def fleet(self):
        return self.shown().report.fleet

    def fleet_area(self, layout: Layout) -> pygame.Rect:
        inner = layout.panel.inflate(-20, -20)
        return pygame.Rect(inner.x, inner.y + PANEL_TITLE, inner.width, 1000)

    def solver_area(self, layout: Layout) -> pygame.Rect:
        """Below the fleet checklist (its height depends on the fleet, not on the board)."""
        panel = layout.panel.inflate(-20, -20)
        top = panel.y + PANEL_TITLE + fleet_height(self.board.session.report.fleet, panel.width) + 10
        return pygame.Rect(panel.x, top, panel.width, panel.bottom - top)

    def picture_key(self) -> tuple:
        """Names the board picture cheaply: it changes whenever the picture may."""
        watch = self.solver.watch
        if watch is not None:
            return "solver", id(watch), watch.version, self.board_input.cursor
        return "player", self.board.session.version, self.board_input.cursor, self.coach.look()

    def picture(self) -> BoardPicture:
        watch = self.solver.watch
        if watch is None:
            session = self.board.session
            report = session.report
            return BoardPicture(session.puzzle, session.grid, report.rows, report.cols, self.board_input.cursor,
                                report.wrong_cells | self.coach.wrong_cells(), solved=report.solved,
                                highlight=self.coach.highlight())
        report = watch.board.report
        return BoardPicture(watch.puzzle, watch.grid(), report.rows, report.cols, self.board_input.cursor, frozenset(),
                            dict(watch.reasons), frozenset(watch.backtracked), watch.tried, watch.best_fleet(),
                            watch.solved)

    # ----- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> list[pygame.Rect] | None:
        """Draw the whole scene; return the areas that differ from the last frame (None: all)."""
        self._layout, self._theme = layout, theme
        banner = bool(self.board.celebrate_until)
        surface.fill(theme.background)
        toolbar_key = (layout.toolbar, theme, self.title, tuple(b.look() for b in self.toolbar))
        toolbar = self._toolbar.draw(surface, layout.toolbar, theme.background, toolbar_key)
        board_areas = self.board_view.draw(surface, layout, theme, (layout, theme, self.picture_key()), self.picture)
        panel_area = layout.panel.inflate(4, 4)
        panel_key = (layout, theme, self.fleet(), self.solver.look())
        panel = self._panel.draw(surface, panel_area, theme.background, panel_key)
        if banner:
            self._draw_banner(surface, layout, theme)
        self.draw_status(surface, layout, theme)
        full = board_areas is None or banner != self._banner
        self._banner = banner
        if full:
            return None
        areas = list(board_areas) + [layout.status]
        if toolbar:
            areas.append(layout.toolbar)
        if panel:
            areas.append(panel_area)
        return areas

    def draw_status(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> None:
        self.status.draw(surface, theme, layout.status, self.board,
                         self.mistake_button if self.coach.offering_undo else None)

    def _draw_toolbar(self, surface: pygame.Surface) -> None:
        layout, theme = self._layout, self._theme
        pygame.draw.rect(surface, theme.panel, layout.toolbar)
        for button in self.toolbar:
            button.draw(surface, theme)
        right = layout.toolbar.right - 12
        space = right - (self.toolbar[-1].rect.right + 16)
        if space >= 40:
            fonts.blit_text(surface, fonts.fit_text(self.title, 20, space, bold=True), 20, theme.text, bold=True,
                            midright=(right, layout.toolbar.centery))

    def _draw_panel(self, surface: pygame.Surface) -> None:
        layout, theme = self._layout, self._theme
        pygame.draw.rect(surface, theme.panel, layout.panel, border_radius=8)
        pygame.draw.rect(surface, theme.panel_edge, layout.panel, 1, border_radius=8)
        inner = layout.panel.inflate(-20, -20)
        fonts.blit_text(surface, "Fleet", 22, theme.text, bold=True, topleft=inner.topleft)
        draw_fleet(surface, self.fleet_area(layout), self.fleet(), theme)
        self.solver.draw(surface, theme)

    def _draw_banner(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> None:
        board = layout.board
        minutes, seconds = divmod(int(self.board.session.elapsed), 60)
        banner = pygame.Rect(0, 0, min(board.width + 40, 420), 86)
        banner.center = board.center
        pygame.draw.rect(surface, theme.solved, banner, border_radius=14)
        pygame.draw.rect(surface, theme.panel, banner, 3, border_radius=14)
        fonts.blit_text(surface, "Solved!", 44, theme.panel, bold=True, center=(banner.centerx, banner.y + 30))
        fonts.blit_text(surface, f"in {minutes}:{seconds:02d}", 22, theme.panel, center=(banner.centerx,
                                                                                           banner.bottom - 18))
