"""The daily puzzle's page: a month's calendar with the days solved (and those in progress: a
play saved, not solved yet, as the level browser says of a level), the current and longest
streak, and the button that opens today's puzzle (or a past day's, clicked in the calendar).

A day counts as solved when its puzzle was finished on that day (local time), as in the daily
puzzles of newspapers; a past day's puzzle can still be played, as any level.
"""

from __future__ import annotations

import calendar
import datetime

import pygame

from solvers.authoring import daily
from window import fonts
from window.host import Host
from window.records import clock, days_of, streaks
from window.scenes.browser import in_progress, level_entry
from window.storage import daily_dir
from window.widgets import Button, draw_dialog

WEEK = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
WEEK_ROW = 25             # pixels: the least height of a week's row (a day's number and its time)
WRAPPED = 15              # the font size of a note under the days wrapped onto two lines, and their pitch:
WRAPPED_PITCH = 18
IN_PROGRESS = "in progress"
DAY_STEPS = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_UP: -7, pygame.K_DOWN: 7}


def days_in_progress(app: Host) -> set[datetime.date]:
    """The days whose puzzle, kept in the daily folder, is :func:`in_progress`."""
    solved, played = set(app.storage.solved()), app.storage.played()
    days: set[datetime.date] = set()
    try:
        paths = sorted(daily_dir().glob("*.bs"))
    except OSError:
        return days
    for path in paths:
        try:
            day = datetime.date.fromisoformat(path.stem)
        except ValueError:                      # a damaged day's file kept aside, or another file
            continue
        entry = level_entry(path, app.level_cache)
        if entry is not None and in_progress(entry[1], solved, played):
            days.add(day)
    return days


class DailyScene:
    animating = False

    def __init__(self, app: Host, today: datetime.date | None = None) -> None:
        self.app = app
        self.fixed_today = today                # a test's day; else the calendar follows the clock
        self.play_button = Button("", lambda: self.play(self.today))
        self.solved = app.storage.daily()
        self.days = days_of(self.solved)
        self.in_progress = days_in_progress(app)
        self.set_today(today or datetime.date.today())
        self.back_button = Button("<", lambda: self.turn(-1))
        self.next_button = Button(">", lambda: self.turn(1))
        self.close_button = Button("Close", app.close_overlay)
        self.cells: dict[datetime.date, pygame.Rect] = {}
        self.relayout(app.window_size)

    def set_today(self, today: datetime.date) -> None:
        """Show the calendar as of ``today`` (at the opening, and again past midnight)."""
        self.today = today
        self.month = today.replace(day=1)
        self.selected = today                   # the day the keyboard is on: Enter plays it
        self.streak = streaks(self.days, today)            # counted once a day, not each frame
        side, grade = daily.plan(today)
        self.play_button.label = f"Play today's puzzle ({side}x{side} {grade})"

    @property
    def buttons(self) -> list[Button]:
        return [self.play_button, self.back_button, self.next_button, self.close_button]

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        box = self.box = pygame.Rect(0, 0, min(640, width - 40), min(620, height - 40))
        box.center = (width // 2, height // 2)
        # A short box is laid out tighter, without the week's plan, so that six weeks of days
        # keep room for their numbers (WEEK_ROW each).
        self.compact = box.height - 130 - 130 < 6 * WEEK_ROW
        nav, top, bottom, button = (44, 94, 72, 36) if self.compact else (60, 130, 130, 40)
        self.notes = self.notes_under(box.width - 40)
        bottom += WRAPPED_PITCH * (sum(len(lines) for lines in self.notes) - len(self.notes))
        self.close_button.rect = pygame.Rect(box.right - 110, box.y + 10, 100, 32)
        self.back_button.rect = pygame.Rect(box.x + 20, box.y + nav, 40, 32)
        self.next_button.rect = pygame.Rect(box.right - 60, box.y + nav, 40, 32)
        self.play_button.rect = pygame.Rect(box.x + 20, box.bottom - 16 - button, box.width - 40, button)
        self.grid = pygame.Rect(box.x + 20, box.y + top, box.width - 40, box.height - top - bottom)
        self.place_days()

    def notes_under(self, width: int) -> list[list[tuple[str, int]]]:
        """The notes under the days, each as its lines and their font size: today's puzzle and
        the keys (the keys last), then the week's plan (not in a short box). A note is drawn
        smaller before it is cut, and where even that would cut it, on two lines (a short box
        has no room for them: it is cut)."""
        side, grade = daily.plan(self.today)
        note = ("Solved today: come back tomorrow" if self.today.isoformat() in self.solved else
                f"Today, {daily.DAY_NAMES[self.today.weekday()]}: {side}x{side} {grade}. "
                "Click a past day, or arrows and Enter, to play it; Page Up/Down: months.")
        plan = [f"{name[:3]} {s}x{s} {g}" for name, (s, g) in zip(daily.DAY_NAMES, daily.WEEKDAYS)]
        notes = []
        # Each note with the parts a line breaks between (the plan's: a day each) and their gap.
        for parts, gap, size in ((note.split(" "), " ", 18),) + ((plan, "  ", 15),) * (not self.compact):
            text = gap.join(parts)
            shown, shrunk = fonts.shrink_to_fit(text, size, width)
            if shown == fonts.visible(text) or self.compact:
                notes.append([(shown, shrunk)])
            else:
                lines = fonts.flow(parts, WRAPPED, width, gap, most=2)
                notes.append([(fonts.fit_text(line, WRAPPED, width), WRAPPED) for line in lines])
        return notes

    def place_days(self) -> None:
        weeks = calendar.Calendar().monthdatescalendar(self.month.year, self.month.month)
        cell_w, cell_h = self.grid.width // 7, self.grid.height // max(1, len(weeks))
        x, y = self.grid.topleft
        self.cells = {day: pygame.Rect(x + col * cell_w, y + row * cell_h, cell_w - 4, cell_h - 4)
                      for row, week in enumerate(weeks) for col, day in enumerate(week)
                      if day.month == self.month.month}

    def turn(self, months: int) -> None:
        index = self.month.year * 12 + self.month.month - 1 + months
        # The months a calendar can show: the weeks of December 9999 run past the last date.
        index = min(max(index, datetime.MINYEAR * 12), datetime.MAXYEAR * 12 + 10)
        self.month = datetime.date(index // 12, index % 12 + 1, 1)
        if self.selected.replace(day=1) != self.month:
            self.selected = self.today if self.today.replace(day=1) == self.month else self.month
        self.place_days()

    def select(self, days: int) -> None:
        """Move the selected day (the arrow keys), the month following it."""
        try:
            day = self.selected + datetime.timedelta(days=days)
        except OverflowError:                  # before the first or after the last date
            return
        if day.replace(day=1) != self.month:
            self.turn((day.year - self.month.year) * 12 + day.month - self.month.month)
        self.selected = day

    def play(self, day: datetime.date) -> None:
        if day > self.today:
            return
        self.app.close_overlay()
        self.app.play_daily(day)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.close_overlay()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.play(self.selected)
            elif event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
                self.turn(-1 if event.key == pygame.K_PAGEUP else 1)
            elif event.key in DAY_STEPS:
                self.select(DAY_STEPS[event.key])
            return
        for button in self.buttons:
            if button.handle(event):
                return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for day, rect in self.cells.items():
                if rect.collidepoint(event.pos):
                    self.play(day)
                    return

    def update(self, dt: float) -> bool:
        """Redrawn once the date moves on (a calendar left open past midnight)."""
        if self.fixed_today is None and datetime.date.today() != self.today:
            self.set_today(datetime.date.today())
            self.relayout(self.app.window_size)       # today's note, and the days
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme, box = self.app.theme, self.box
        draw_dialog(surface, theme, box, "Daily puzzle")
        current, longest = self.streak
        # The longest form that fits whole, smaller first (a narrow window has room for the streaks alone).
        room = self.close_button.rect.x - 10 - (box.x + 200)
        forms = (f"Streak {current} day{'s' * (current != 1)}   longest {longest}   days solved {len(self.days)}",
                 f"Streak {current}   longest {longest}   solved {len(self.days)}",
                 f"Streak {current}, longest {longest}")
        summary, size = fonts.first_whole(forms, 20, room, bold=True) or fonts.shrink_to_fit(forms[-1], 20, room,
                                                                                            bold=True)
        fonts.blit_text(surface, summary, size, theme.text, bold=True, topleft=(box.x + 200, box.y + 20))
        fonts.blit_text(surface, self.month.strftime("%B %Y"), 26, theme.text, bold=True,
                        center=(box.centerx, self.back_button.rect.centery))
        for col, name in enumerate(WEEK):
            x = self.grid.x + col * (self.grid.width // 7) + (self.grid.width // 7 - 4) // 2
            fonts.blit_text(surface, name, 18, theme.muted, center=(x, self.grid.y - (9 if self.compact else 16)))
        for day, rect in self.cells.items():
            done = day.isoformat() in self.solved
            future = day > self.today
            fill = theme.solved if done else (theme.background if future else theme.unknown)
            pygame.draw.rect(surface, fill, rect, border_radius=6)
            edge, width = (theme.cursor, 3) if day == self.today else (theme.panel_edge, 1)
            pygame.draw.rect(surface, edge, rect, width, border_radius=6)
            if day == self.selected:          # the keyboard's day: a ring around it, in the gap between days
                pygame.draw.rect(surface, theme.text, rect.inflate(4, 4), 2, border_radius=8)
            colour = theme.on(theme.solved) if done else (theme.muted if future else theme.text)
            number = fonts.blit_text(surface, str(day.day), 20, colour, bold=done, topleft=(rect.x + 6, rect.y + 4))
            if not done and day in self.in_progress:
                # In progress: a half-filled circle top right (a shape, not colour alone), and
                # the browser's words below the number where they fit whole.
                centre = (rect.right - 12, rect.y + 13)
                if centre[0] - 7 >= number.right:
                    pygame.draw.circle(surface, theme.text, centre, 7, 2)
                    pygame.draw.circle(surface, theme.text, centre, 7, draw_top_left=True, draw_bottom_left=True)
                if fonts.font(14).size(IN_PROGRESS)[0] <= rect.width - 10 and \
                        rect.bottom - 3 - fonts.font(14).get_linesize() >= number.bottom:
                    fonts.blit_text(surface, IN_PROGRESS, 14, theme.muted,
                                    bottomright=(rect.right - 5, rect.bottom - 3))
            if done:
                # The time sits below the day's number, or beside it in a cell one line tall.
                beside = rect.bottom - 3 - fonts.font(16).get_linesize() < number.bottom
                room = rect.right - 5 - (number.right + 6 if beside else rect.x + 5)
                # Solved: a tick as well as the fill (colour is not alone), top right, or left of
                # a time beside the number (where there is room between them); beside a number,
                # a time that would be cut short gives its place to the tick.
                tick = pygame.Rect(rect.right - 20, rect.y + 6, 13, 10)
                time = clock(self.solved[day.isoformat()]["seconds"])
                if beside and fonts.fit_text(time, 16, room) != time:
                    tick.midright = (rect.right - 5, rect.centery)
                else:
                    shown = fonts.blit_text(surface, fonts.fit_text(time, 16, room), 16, colour,
                                            bottomright=(rect.right - 5, rect.bottom - 3))
                    if beside:
                        tick.midright = (shown.x - 5, shown.centery)
                if rect.width >= 56 and tick.x >= number.right + 4:
                    pygame.draw.lines(surface, colour, False, [(tick.x, tick.centery), (tick.centerx, tick.bottom),
                                                               (tick.right, tick.top)], 3)
        # Up from the button: the last note's top 30 pixels above it (24 in a short box), a note's
        # lines WRAPPED_PITCH apart, the notes 30.
        top = self.play_button.rect.y - (24 if self.compact else 30)
        for lines in reversed(self.notes):
            for n, (text, size) in enumerate(lines):
                fonts.blit_text(surface, text, size, theme.muted,
                                topleft=(box.x + 20, top - WRAPPED_PITCH * (len(lines) - 1 - n)))
            top -= WRAPPED_PITCH * (len(lines) - 1) + 30
        for button in self.buttons:
            button.draw(surface, theme)
