"""Small widgets: buttons, a stepped slider and the dialogs' frame. They draw themselves and report clicks.

A widget keeps only UI state (hover, the dragged knob); what a click means is up to the scene.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import pygame

from window import fonts
from window.theme import Colour, Theme


def draw_dialog(surface: pygame.Surface, theme: Theme, box: pygame.Rect, title: str,
                title_at: tuple[int, int] = (14, 14), footer: str = "", footer_colour: Colour | None = None) -> None:
    """A dialog's panel, its edge and its title (``title_at``: offset from the top left), and a
    line along its foot (``footer``: its keys, or what went wrong) cut to the dialog's width."""
    pygame.draw.rect(surface, theme.panel, box, border_radius=10)
    pygame.draw.rect(surface, theme.panel_edge, box, 2, border_radius=10)
    fonts.blit_text(surface, title, 28, theme.text, bold=True, topleft=(box.x + title_at[0], box.y + title_at[1]))
    if footer:
        fonts.blit_text(surface, fonts.fit_text(footer, 16, box.width - 24), 16, footer_colour or theme.muted,
                        topleft=(box.x + 12, box.bottom - 27))


def draw_shade(surface: pygame.Surface) -> None:
    """Darken all of ``surface``: what lies beneath a dialog waits for it."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 110))
    surface.blit(shade, (0, 0))


@dataclass
class Button:
    label: str
    action: Callable[[], object]            # what a click runs (its result is not used)
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    enabled: bool = True
    active: bool = False              # a toggled or selected state, drawn filled
    hover: bool = False

    def handle(self, event: pygame.event.Event) -> bool:
        """True if the event was a click on this button (the action has run)."""
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.rect.collidepoint(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            if self.enabled:
                self.action()
            return True
        return False

    def look(self) -> tuple:
        """Everything :meth:`draw` shows, to tell whether it must be drawn again."""
        return self.label, self.enabled, self.active, self.hover, tuple(self.rect)

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        if self.rect.width <= 0:
            return
        fill = theme.button_active if self.active else (theme.button_hover if self.hover and self.enabled
                                                          else theme.button)
        pygame.draw.rect(surface, fill, self.rect, border_radius=6)
        pygame.draw.rect(surface, theme.panel_edge, self.rect, 1, border_radius=6)
        colour = theme.on(fill) if self.active else (theme.button_text if self.enabled else theme.muted)
        label, size = self.shown()
        fonts.blit_text(surface, label, size, colour, center=self.rect.center)

    def shown(self) -> tuple[str, int]:
        """The label as drawn, and its font size: a narrow button first tries a smaller font,
        and only then cuts its label short; cut to nothing but the ellipsis, it shows the label's
        first letter instead, so that a row of such buttons still tells them apart."""
        room = self.rect.width - 8
        shown, size = fonts.shrink_to_fit(self.label, _label_size(self.rect.height), room)
        if shown == fonts.ELLIPSIS != self.label:
            shown = fonts.fit_text(self.label[:1], size, room)
        return shown, size

    def width_for(self, height: int, pad: int = 28) -> int:
        """The width that shows the whole label on a button ``height`` pixels high, at its
        largest font, with ``pad`` pixels beside it."""
        return fonts.font(_label_size(height)).size(self.label)[0] + pad


def _label_size(height: int) -> int:
    """A button label's largest font size for a button ``height`` pixels high."""
    return max(14, min(22, height - 12))


def typed_digit(event: pygame.event.Event) -> bool:
    """Whether a key press typed one of 0-9 (not Unicode's other digits, ² or ①, which int()
    refuses or a person would not mean as a number)."""
    return event.unicode.isascii() and event.unicode.isdigit()


def typed_text(text: str, event: pygame.event.Event, most: int) -> str | None:
    """``text`` as a key press edits it: Backspace takes its last character off, a printable
    character is added while ``text`` is shorter than ``most``; None for any other key. A text
    that came without a key press of its own (``composed``: an input method's, or a key the
    system has no key code for) is added as typed, its printable characters up to ``most``."""
    if event.type == pygame.TEXTINPUT:
        added = "".join(ch for ch in event.text if ch.isprintable()) if getattr(event, "composed", False) else ""
        return (text + added)[:max(most, len(text))] if added else None
    if event.key == pygame.K_BACKSPACE:
        return text[:-1]
    if event.unicode and event.unicode.isprintable() and len(text) < most:
        return text + event.unicode
    return None


def selects_all(event: pygame.event.Event) -> bool:
    """Whether a key press is Ctrl+A (Cmd+A on a Mac): select the whole text of a field."""
    return event.type == pygame.KEYDOWN and event.key == pygame.K_a and bool(event.mod & (pygame.KMOD_CTRL |
                                                                                           pygame.KMOD_META))


GIVE_UP_SELECTION = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END)


def edit_field(text: str, selected: bool, event: pygame.event.Event, most: int,
               change: Callable[[str], str | None] | None = None) -> tuple[str, bool] | None:
    """A text field's (text, whether it is all selected) after ``event``, as desktop text fields
    take it; None when the event is not the field's. Ctrl+A selects the whole text; while it is
    selected, the event's ``change`` (what it does to a text: :func:`typed_text` unless given)
    works on an empty text, so that a character typed replaces the selection and Backspace
    clears it; an arrow, Home or End gives the selection up (typing goes on from the end)."""
    if selects_all(event):
        return text, bool(text)
    if selected and event.type == pygame.KEYDOWN and event.key in GIVE_UP_SELECTION:
        return text, False
    changed = (change or (lambda now: typed_text(now, event, most)))("" if selected else text)
    return None if changed is None else (changed, False)


def draw_field(surface: pygame.Surface, theme: Theme, rect: pygame.Rect, text: str, focused: bool,
               size: int = 17, selected: bool = False, end: bool = False) -> None:
    """A text field: its box (edged in the cursor's colour while typed in), its text cut to the
    box's width, a caret at its end while typed in; ``selected``: the text on the selection's
    colour (the next key typed replaces it); ``end``: a text too long shows its end (a path)."""
    pygame.draw.rect(surface, theme.unknown, rect, border_radius=4)
    pygame.draw.rect(surface, theme.cursor if focused else theme.panel_edge, rect, 1, border_radius=4)
    caret = "|" if focused and not selected else ""
    if end:
        shown = fonts.visible(text[-fonts.MAX_SHOWN:], fonts.MAX_SHOWN)
        while shown and fonts.font(size).size(shown + caret)[0] > rect.width - 10:
            shown = shown[1:]
        shown += caret
    else:
        shown = fonts.fit_text(text + caret, size, rect.width - 10)
    colour = theme.text
    if selected and text:
        mark = pygame.Rect((rect.x + 4, rect.y + 4), (fonts.font(size).size(shown)[0] + 4, rect.height - 8))
        pygame.draw.rect(surface, theme.button_active, mark.clip(rect.inflate(-4, -4)), border_radius=3)
        colour = theme.on(theme.button_active)
    fonts.blit_text(surface, shown, size, colour, midleft=(rect.x + 6, rect.centery))


def handle_all(widgets: Sequence, event: pygame.event.Event) -> bool:
    """Give ``event`` to the widgets in turn; True when one took a click or a drag (mouse
    motion goes on to every widget, which all need it for their hover state)."""
    for widget in widgets:
        if widget.handle(event) and event.type != pygame.MOUSEMOTION:
            return True
    return False


def layout_row(buttons: Sequence[Button], area: pygame.Rect, gap: int = 6,
               widths: Sequence[int] | None = None) -> None:
    """Place buttons left to right in ``area``; equal widths unless given."""
    if not buttons:
        return
    if widths is None:
        each = (area.width - gap * (len(buttons) - 1)) // len(buttons)
        widths = [each] * len(buttons)
    x = area.x
    for button, width in zip(buttons, widths):
        button.rect = pygame.Rect(x, area.y, width, area.height)
        x += width + gap


@dataclass
class StepSlider:
    """A slider over a fixed list of values (e.g. speeds from 1 move/s to instant)."""

    values: Sequence[float]
    labels: Sequence[str]
    index: int
    on_change: Callable[[float], None]
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    dragging: bool = False

    @property
    def value(self) -> float:
        return self.values[self.index]

    def _index_at(self, x: int) -> int:
        span = max(1, self.rect.width)
        fraction = min(1.0, max(0.0, (x - self.rect.x) / span))
        return round(fraction * (len(self.values) - 1))

    def set_index(self, index: int) -> None:
        index = max(0, min(len(self.values) - 1, index))
        if index != self.index:
            self.index = index
            self.on_change(self.value)

    def handle(self, event: pygame.event.Event) -> bool:
        grab = self.rect.inflate(12, 16) if self.rect.width > 0 else self.rect     # a hidden slider takes nothing
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and grab.collidepoint(event.pos):
            self.dragging = True
            self.set_index(self._index_at(event.pos[0]))
            return True
        if event.type == pygame.MOUSEMOTION and self.dragging:
            if not event.buttons[0]:              # its button-up went elsewhere (an overlay)
                self.dragging = False
                return False
            self.set_index(self._index_at(event.pos[0]))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return True
        return False

    def look(self) -> tuple:
        return self.index, tuple(self.rect)

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        if self.rect.width <= 0:
            return
        track = pygame.Rect(self.rect.x, self.rect.centery - 2, self.rect.width, 4)
        pygame.draw.rect(surface, theme.panel_edge, track, border_radius=2)
        steps = len(self.values) - 1
        for i in range(steps + 1):
            x = self.rect.x + self.rect.width * i // max(1, steps)
            pygame.draw.line(surface, theme.muted, (x, self.rect.centery + 5), (x, self.rect.centery + 8))
        knob_x = self.rect.x + self.rect.width * self.index // max(1, steps)
        filled = pygame.Rect(self.rect.x, track.y, knob_x - self.rect.x, 4)
        pygame.draw.rect(surface, theme.button_active, filled, border_radius=2)
        pygame.draw.circle(surface, theme.button_active, (knob_x, self.rect.centery), 8)
        pygame.draw.circle(surface, theme.panel, (knob_x, self.rect.centery), 3)
