"""Stats: the player's records per board size and grade (levels solved, best and median time,
the target time, hints and checks asked) and the daily puzzle's streaks."""

from __future__ import annotations

import datetime

import pygame

from window import fonts
from window.host import Host
from window.layout import dialog_box
from window.records import STEP_SECONDS, clock, days_of, stats_rows, streaks
from window.widgets import Button, draw_dialog

COLUMNS = (("Size", 0.0), ("Grade", 0.13), ("Solved", 0.29), ("Best", 0.42), ("Median", 0.55),
           ("Target", 0.68), ("Hints", 0.81), ("Checks", 0.91))


class StatsScene:
    animating = False

    def __init__(self, app: Host, today: datetime.date | None = None) -> None:
        self.app = app
        self.rows = stats_rows(app.storage.solved())
        self.streak = streaks(days_of(app.storage.daily()), today or datetime.date.today())
        self.close_button = Button("Close", app.close_overlay)
        self.relayout(app.window_size)

    def relayout(self, size: tuple[int, int]) -> None:
        self.box = dialog_box(size)
        self.close_button.rect = pygame.Rect(self.box.right - 110, self.box.y + 10, 100, 32)

    def cells(self, row) -> tuple[str, ...]:
        return (row.size, row.grade, str(row.solved), clock(row.best), clock(row.median), clock(row.target),
                str(row.hints), str(row.checks))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN):
            self.app.close_overlay()
            return
        self.close_button.handle(event)

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme, box = self.app.theme, self.box
        draw_dialog(surface, theme, box, "Stats")
        current, longest = self.streak
        fonts.blit_text(surface, f"Daily puzzle: streak {current}, longest {longest}", 20, theme.text, bold=True,
                        topleft=(box.x + 20, box.y + 60))
        table = pygame.Rect(box.x + 20, box.y + 100, box.width - 40, box.height - 170)
        for name, at in COLUMNS:
            fonts.blit_text(surface, name, 18, theme.muted, bold=True,
                            topleft=(table.x + int(at * table.width), table.y))
        pygame.draw.line(surface, theme.panel_edge, (table.x, table.y + 24), (table.right, table.y + 24))
        y = table.y + 32
        if not self.rows:
            fonts.blit_text(surface, "No level solved yet: records appear here as you finish levels.", 18,
                            theme.text, topleft=(table.x, y))
        # Each column's text is cut to the column (a grade edited by hand may be 20 wide letters).
        lefts = [table.x + int(at * table.width) for _, at in COLUMNS]
        widths = [right - left - 6 for left, right in zip(lefts, lefts[1:] + [table.right + 6])]
        for row in self.rows:
            if y > table.bottom - 24:
                fonts.blit_text(surface, "...", 18, theme.muted, topleft=(table.x, y))
                break
            for left, width, text in zip(lefts, widths, self.cells(row)):
                fonts.blit_text(surface, fonts.fit_text(text, 18, width), 18, theme.text, topleft=(left, y))
            y += 26
        notes = ("Times are each level's best; hints and checks, those asked in the plays that set them.",
                 "Target: the engine's median deduction steps over the pack's levels of that size and grade,",
                 f"times {STEP_SECONDS} s a step (an assumed pace of a person, not a measured one).")
        for line, note in enumerate(notes):
            fonts.blit_text(surface, fonts.fit_text(note, 16, box.width - 40), 16, theme.muted,
                            topleft=(box.x + 20, box.bottom - 70 + 20 * line))
        self.close_button.draw(surface, theme)
