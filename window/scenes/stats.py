"""Stats: the player's records per board size and grade (levels solved, best and median time,
the target time, hints and checks asked) and the daily puzzle's streaks."""

from __future__ import annotations

import datetime

import pygame

from window import fonts
from window.host import Host
from window.layout import dialog_box
from window.records import STEP_SECONDS, clock, days_of, stats_rows, streaks
from window.scenes.dialog import ReadOnlyDialog
from window.widgets import draw_dialog

# Each column's left edge, as a share of the table: wide enough at the smallest window (a table
# of 400 px) for its heading (drawn smaller there) and its widest usual cell ("medium", "1:02:03").
COLUMNS = (("Size", 0.0), ("Grade", 0.11), ("Solved", 0.25), ("Best", 0.38), ("Median", 0.505),
           ("Target", 0.64), ("Hints", 0.765), ("Checks", 0.875))


class StatsScene(ReadOnlyDialog):
    def __init__(self, app: Host, today: datetime.date | None = None) -> None:
        super().__init__(app)
        self.rows = stats_rows(app.storage.solved())
        self.streak = streaks(days_of(app.storage.daily()), today or datetime.date.today())
        self.relayout(app.window_size)

    def relayout(self, size: tuple[int, int]) -> None:
        self.box = dialog_box(size)
        self.place_close(self.box, 100)

    def cells(self, row) -> tuple[str, ...]:
        return (row.size, row.grade, str(row.solved), clock(row.best), clock(row.median), clock(row.target),
                str(row.hints), str(row.checks))

    def draw(self, surface: pygame.Surface) -> None:
        theme, box = self.app.theme, self.box
        draw_dialog(surface, theme, box, "Stats")
        current, longest = self.streak
        fonts.blit_text(surface, f"Daily puzzle: streak {current}, longest {longest}", 20, theme.text, bold=True,
                        topleft=(box.x + 20, box.y + 60))
        table = pygame.Rect(box.x + 20, box.y + 100, box.width - 40, box.height - 170)
        lefts = [table.x + int(at * table.width) for _, at in COLUMNS]
        widths = [right - left - 6 for left, right in zip(lefts, lefts[1:] + [table.right + 6])]
        # The headings at one size, the largest at which each fits its column (smaller in a narrow window).
        size = min(fonts.shrink_to_fit(name, 18, width, bold=True)[1] for (name, _), width in zip(COLUMNS, widths))
        for (name, _), left, width in zip(COLUMNS, lefts, widths):
            fonts.blit_text(surface, fonts.fit_text(name, size, width, bold=True), size, theme.muted, bold=True,
                            midleft=(left, table.y + 9))
        pygame.draw.line(surface, theme.panel_edge, (table.x, table.y + 24), (table.right, table.y + 24))
        y = table.y + 32
        if not self.rows:
            fonts.blit_text(surface, "No level solved yet: records appear here as you finish levels.", 18,
                            theme.text, topleft=(table.x, y))
        # Each column's text is cut to the column (a grade edited by hand may be 20 wide letters).
        # Rows 26 px apart; when they do not all fit, the last line that does says "..." (it ran
        # into the notes below when drawn past the table's bottom).
        room = max(0, (table.bottom - y - fonts.font(18).get_linesize()) // 26 + 1)
        rows = self.rows if len(self.rows) <= room else self.rows[:max(0, room - 1)]
        for row in rows:
            for left, width, text in zip(lefts, widths, self.cells(row)):
                fonts.blit_text(surface, fonts.fit_text(text, 18, width), 18, theme.text, topleft=(left, y))
            y += 26
        if len(rows) < len(self.rows) and room:
            fonts.blit_text(surface, "...", 18, theme.muted, topleft=(table.x, y))
        notes = ("Times are each level's best; hints and checks, those asked in the plays that set them.",
                 "Target: the engine's median deduction steps over the pack's levels of that size and grade,",
                 f"times {STEP_SECONDS} s a step (an assumed pace of a person, not a measured one).")
        width = box.width - 40
        shown = [fonts.first_whole([note], 16, width) for note in notes]
        if all(shown):                                      # a note a line, smaller if need be
            lines = [line for line in shown if line is not None]
        else:                                               # a narrow window: the notes flow on the three lines
            paragraph = " ".join(notes)
            size = next((size for size in (16, 15, fonts.SMALLEST) if len(fonts.wrap(paragraph, size, width)) <= 3),
                        fonts.SMALLEST)
            lines = [(text, size) for text in fonts.fill(paragraph, size, [width] * 3)]
        for n, (text, size) in enumerate(lines):
            fonts.blit_text(surface, text, size, theme.muted, topleft=(box.x + 20, box.bottom - 70 + 20 * n))
        self.close_button.draw(surface, theme)
