"""What the play scene shows and how it reaches the screen.

The screen keeps the last frame, so a frame draws again only the parts whose look changed
(the toolbar, the board, the side panel) and reports those areas; the window sends only them
to the display. Each part's look is a cheap key (versions, widget states), compared per frame.
The status line is small and drawn with every frame (the clock ticks in it). When the screen
was overwritten (an overlay, a new theme, a resize) the window asks for everything (``full``).
Drawing goes straight to the screen: every fill or blit lets a solver's thread take the
interpreter for a moment, so off-screen copies would cost more than they save.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, Sequence

import pygame

from window import fonts
from window.board_input import BoardInput
from window.board_view import BoardPicture, BoardView
from window.coach import Coach
from window.layout import STATUS_HEIGHT, STATUS_LINE, Layout
from window.looks import Looks
from window.panel_views import draw_fleet, fleet_height
from window.player_board import PlayerBoard
from window.records import clock
from window.solver_panel import PLOT_ROOM, SolverPanel
from window.theme import Theme
from window.widgets import Button

PANEL_TITLE = 28          # room for the panel's "Fleet" heading
MESSAGE_ROOM = 120        # pixels the status line's message keeps before its neighbours narrow
MESSAGE_SECONDS = 8.0     # a message shown over a resting one (a solve's finish) gives way to it after this
MORE = "F: more"          # after a message cut short on the status line: how to read it whole
MORE_SIZE = 15
MORE_GAP = 8              # pixels between the cut message and MORE
UNCUT = 1 << 20           # a line's width no message fills: the message as it would be shown whole


class StatusLine:
    """The line at the bottom: the latest message, the clock and moves, the button it offers
    ("Undo to first mistake", "Play again"), and while a trial is open its depth with Keep and
    Abandon.

    A *resting* message (``resting``: a solved attempt's finish, its time and record) is shown
    when no other is, and again once a later message has been up for ``MESSAGE_SECONDS``."""

    def __init__(self, message: str) -> None:
        self.said = message
        self.said_at = time.monotonic()
        self.resting: Callable[[], str] = str        # none unless the scene gives one
        self.drawn = ""                              # the message as last drawn

    @property
    def message(self) -> str:
        """The message shown now: the latest one, or the resting one (when there is one) if the
        latest is empty or has had its time."""
        rest = self.resting()
        if rest and (not self.said or time.monotonic() - self.said_at >= MESSAGE_SECONDS):
            return rest
        return self.said

    def notify(self, message: str) -> None:
        """Show ``message`` ("": the resting one, if any)."""
        self.said, self.said_at = message, time.monotonic()

    def stale(self) -> bool:
        """Whether the message shown now is not the one last drawn (a later message gave way)."""
        return self.message != self.drawn

    def draw(self, surface: pygame.Surface, theme: Theme, bar: pygame.Rect, board: PlayerBoard,
             offer: Button | None, trial_buttons: Sequence[Button] = ()) -> None:
        session = board.session
        pygame.draw.rect(surface, theme.panel, bar)
        pygame.draw.line(surface, theme.panel_edge, bar.topleft, bar.topright)
        line = pygame.Rect(bar.x, bar.y, bar.width, STATUS_HEIGHT)     # the clock and the buttons: the top line
        lines = 1 + (bar.height - STATUS_HEIGHT) // STATUS_LINE
        # The solve is claimed while the board shows it; a board changed after it says so (the
        # clock stopped at the solve, which the records keep).
        solved = session.solved and session.solved_now
        state = "SOLVED  " if solved else "solved, then changed  " if session.solved else ""
        offer_width = offer.width_for(line.height - 6) if offer is not None else 0
        target = f" / target {clock(board.target)}" if board.target is not None else ""
        # A narrow window leaves out the target, then narrows the trial's controls, then leaves
        # out the offered button (its key still does it), so that everything stays on the line
        # and the message keeps some room (on the top line, or on the lines below it).
        for shown_target, button_width, chip_width, shown_offer in ((target, 92, 78, offer), ("", 92, 78, offer),
                                                                    ("", 64, 56, offer), ("", 64, 56, None)):
            info = f"{state}time {clock(session.elapsed)}{shown_target}   moves {session.moves_made}"
            taken = (fonts.font(18, True).size(info)[0] + (26 + 2 * button_width + chip_width if session.depth else 0)
                     + (16 + offer_width if shown_offer is not None else 0))
            if line.width - 24 - taken >= (MESSAGE_ROOM if lines == 1 else 0):
                break
        if offer is not None and shown_offer is None:
            offer.rect = pygame.Rect(0, 0, 0, 0)           # not on the line: no click reaches it
        offer = shown_offer
        right = fonts.blit_text(surface, info, 18, theme.solved if solved else theme.text,
                                bold=True, midright=(line.right - 12, line.centery))
        if session.depth:
            right = self._draw_trial(surface, theme, line, session.depth, trial_buttons, right, button_width,
                                     chip_width)
        if offer is not None:
            offer.rect = pygame.Rect(0, line.y + 3, offer_width, line.height - 6)
            offer.rect.right = right.left - 16
            offer.draw(surface, theme)
            right = offer.rect
        self._draw_message(surface, theme, bar, right.left - 30 - bar.x, lines)

    def _draw_message(self, surface: pygame.Surface, theme: Theme, bar: pygame.Rect, beside: int,
                      lines: int) -> None:
        """The message: beside the clock and the buttons (``beside`` pixels), when that leaves it a
        word or two, and on the status line's further lines, wrapped; on a status line of one line,
        a long message is drawn smaller (down to ``fonts.SMALLEST``) before it is cut. A cut message
        ends in ``MORE`` (muted): F, or a click on the line, shows it whole."""
        message = self.drawn = self.message
        widths = ([beside] if beside >= (MESSAGE_ROOM if lines > 1 else 30) else []) + [bar.width - 24] * (lines - 1)
        if not widths:
            return
        shown, size = self._message_lines(message, widths)
        more = fonts.font(MORE_SIZE).size(MORE)[0] + MORE_GAP
        cut = shown != self._message_lines(message, [*widths[:-1], UNCUT])[0]
        if cut and widths[-1] > more + 30:
            shown, size = self._message_lines(message, [*widths[:-1], widths[-1] - more])
        skipped = lines - len(widths)                  # the top line, when the message starts below it
        for n, text in enumerate(shown, start=skipped):
            y = bar.y + (STATUS_HEIGHT // 2 if n == 0 else STATUS_HEIGHT + (n - 1) * STATUS_LINE + STATUS_LINE // 2 - 4)
            drawn = fonts.blit_text(surface, text, size, theme.text, midleft=(bar.x + 12, y))
        if cut:
            fonts.blit_text(surface, MORE, MORE_SIZE, theme.muted, midleft=(drawn.right + MORE_GAP, drawn.centery))

    @staticmethod
    def _message_lines(message: str, widths: Sequence[int]) -> tuple[list[str], int]:
        """The message's lines on lines of ``widths`` pixels, and their font size: one line shrinks
        the font before it cuts; more lines are filled at the usual size."""
        if len(widths) == 1:
            text, size = fonts.shrink_to_fit(message, 18, widths[0])
            return [text], size
        return fonts.fill(message, 18, widths), 18

    @staticmethod
    def _draw_trial(surface: pygame.Surface, theme: Theme, bar: pygame.Rect, depth: int,
                    buttons: Sequence[Button], right: pygame.Rect, button_width: int = 92,
                    chip_width: int = 78) -> pygame.Rect:
        """The open trial's chip (its colour and depth) and its buttons, left of ``right``."""
        x = right.left - 16
        for button in reversed(buttons):
            button.rect = pygame.Rect(0, bar.y + 3, button_width, bar.height - 6)
            button.rect.right = x
            button.draw(surface, theme)
            x = button.rect.left - 6
        chip = pygame.Rect(0, bar.y + 4, chip_width, bar.height - 8)
        chip.right = x - 4
        pygame.draw.rect(surface, theme.trial_colour(depth), chip, border_radius=chip.height // 2)
        fonts.blit_text(surface, f"Trial {depth}", 17, theme.on(theme.trial_colour(depth)), bold=True,
                        center=chip.center)
        return chip


class PlayView:
    """Draws the play scene from its parts; never changes them."""

    def __init__(self, title: tuple[str, str], board: PlayerBoard, solver: SolverPanel, coach: Coach,
                 board_input: BoardInput, toolbar: Sequence[Button], mistake_button: Button, again_button: Button,
                 status: StatusLine, trial_buttons: Sequence[Button] = ()) -> None:
        self.trial_buttons = list(trial_buttons)
        self.title = title                            # the level's name, and its size when the name lacks it
        self.board = board
        self.solver = solver
        self.coach = coach
        self.board_input = board_input
        self.toolbar = list(toolbar)
        self.mistake_button = mistake_button
        self.again_button = again_button
        self.status = status
        self.board_view = BoardView()
        self.looks = Looks()                          # each part's look when last drawn
        self.renders = self.looks.renders             # how often each part was drawn (tests count)

    # ----- what is shown -------------------------------------------------------------------

    def shown(self):
        """The session on screen: the solver's copy while a run is shown, else the player's."""
        return self.solver.watch.board if self.solver.showing else self.board.session

    def fleet(self):
        """The checklist of the board on screen; on a solved one the whole fleet is ticked: its
        unknown cells are water, so every ship is closed, marked water around it or not."""
        report = self.shown().report
        if report.solved:
            return tuple(replace(line, closed=line.wanted) for line in report.fleet)
        return report.fleet

    def fleet_area(self, layout: Layout) -> pygame.Rect:
        """Where the fleet checklist may go: what the solver's controls leave of the panel, and
        the statistics' plot too when listing the fleet one silhouette per length makes room
        for it (a giant's fleet is then listed so, see ``fleet_placement``)."""
        inner = layout.panel.inflate(-20, -20)
        room = inner.height - PANEL_TITLE - 10 - self.solver.room(inner.width)
        if fleet_height(self.board.session.report.fleet, inner.width, 0) <= room - PLOT_ROOM:
            room -= PLOT_ROOM
        return pygame.Rect(inner.x, inner.y + PANEL_TITLE, inner.width, max(60, room))

    def solver_area(self, layout: Layout) -> pygame.Rect:
        """Below the fleet checklist (its height depends on the fleet, not on the board)."""
        panel = layout.panel.inflate(-20, -20)
        fleet = self.fleet_area(layout)
        top = fleet.y + fleet_height(self.board.session.report.fleet, fleet.width, fleet.height) + 10
        return pygame.Rect(panel.x, top, panel.width, panel.bottom - top)

    def picture_key(self) -> tuple:
        """Names the board picture cheaply: it changes whenever the picture may."""
        watch = self.solver.watch
        if watch is not None:
            return "solver", watch, watch.version, self.board_input.cursor
        return "player", self.board.session.version, self.board_input.cursor, self.coach.look()

    def picture(self) -> BoardPicture:
        watch = self.solver.watch
        if watch is None:
            session = self.board.session
            report = session.report
            return BoardPicture(session.puzzle, session.grid, report.rows, report.cols, self.board_input.cursor,
                                report.wrong_cells | self.coach.wrong_cells(), solved=report.solved,
                                highlight=self.coach.highlight(), layers=session.layer_depths(),
                                depth=session.depth)
        report = watch.board.report
        return BoardPicture(watch.puzzle, watch.grid(), report.rows, report.cols, self.board_input.cursor, frozenset(),
                            dict(watch.reasons), frozenset(watch.backtracked), watch.tried, watch.best_fleet(),
                            watch.solved)

    # ----- drawing -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, layout: Layout, theme: Theme,
             full: bool = False) -> list[pygame.Rect] | None:
        """Draw what changed since the last frame (everything if ``full``); the areas drawn (None: all)."""
        banner = bool(self.board.celebrate_until)
        # The banner reaches past the board, so showing or hiding it repaints the scene.
        full = self.looks.changed("scene", (layout, theme, banner)) or full
        if full:
            self.looks.forget("scene")
            surface.fill(theme.background)
        areas = []
        if self.looks.changed("toolbar", (self.title, tuple(b.look() for b in self.toolbar))):
            self._draw_toolbar(surface, layout, theme)
            areas.append(layout.toolbar)
        board = self.board_view.draw(surface, layout, theme, self.picture_key(), self.picture, full)
        areas += board
        if self.looks.changed("panel", (self.fleet(), self.solver.look())):
            panel = layout.panel.inflate(4, 4)
            pygame.draw.rect(surface, theme.background, panel, 12)     # the rounded corners' outside
            self._draw_panel(surface, layout, theme)
            areas.append(panel)
        if banner and (board or full):
            self._draw_banner(surface, layout, theme)
        self.draw_status(surface, layout, theme)
        areas.append(layout.status)
        return None if full else areas

    def draw_status(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> None:
        self.status.draw(surface, theme, layout.status, self.board, self.offered(), self.trial_buttons)

    def offered(self) -> Button | None:
        """The status line's button, if any: "Play again" on a solved level (a new timed attempt),
        "Undo to first mistake" while a hint or a check has found one; none while a solver's run
        is on the board."""
        if self.solver.showing:
            return None
        if self.board.session.solved:
            return self.again_button
        return self.mistake_button if self.coach.offering_undo else None

    def _draw_toolbar(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> None:
        pygame.draw.rect(surface, theme.panel, layout.toolbar)
        for button in self.toolbar:
            button.draw(surface, theme)
        right = layout.toolbar.right - 12
        space = right - (self.toolbar[-1].rect.right + 16)
        if space >= 40:
            shown, size = self.heading(space)
            fonts.blit_text(surface, shown, size, theme.text, bold=True,
                            midright=(right, self.toolbar[-1].rect.centery))

    def heading(self, space: int) -> tuple[str, int]:
        """The title beside the toolbar in ``space`` pixels and its font size: drawn smaller
        before it is cut, and then the name is cut, never the size after it."""
        name, size = self.title
        after = f"  ({size})" if size else ""
        shown, font_size = fonts.shrink_to_fit(name + after, 20, space, bold=True)
        if after and shown != fonts.visible(name + after):
            room = space - fonts.font(font_size, True).size(after)[0]
            shown = fonts.fit_text(name, font_size, room, bold=True) + after
        return shown, font_size

    def _draw_panel(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> None:
        pygame.draw.rect(surface, theme.panel, layout.panel, border_radius=8)
        pygame.draw.rect(surface, theme.panel_edge, layout.panel, 1, border_radius=8)
        inner = layout.panel.inflate(-20, -20)
        fonts.blit_text(surface, "Fleet", 22, theme.text, bold=True, topleft=inner.topleft)
        fleet = self.fleet_area(layout)
        draw_fleet(surface, fleet, self.fleet(), theme, fleet.height)
        self.solver.draw(surface, theme)

    def _draw_banner(self, surface: pygame.Surface, layout: Layout, theme: Theme) -> None:
        board = layout.board
        banner = pygame.Rect(0, 0, min(board.width + 40, 420), 86)
        banner.center = board.center
        pygame.draw.rect(surface, theme.solved, banner, border_radius=14)
        pygame.draw.rect(surface, theme.panel, banner, 3, border_radius=14)
        ink = theme.on(theme.solved)
        fonts.blit_text(surface, "Solved!", 44, ink, bold=True, center=(banner.centerx, banner.y + 30))
        fonts.blit_text(surface, f"in {clock(self.board.session.elapsed)}", 22, ink,
                        center=(banner.centerx, banner.bottom - 18))
