"""Share: the current level's code (copied to the clipboard by *Copy code*) and a field where a
code from someone else is pasted (Ctrl+V) or typed, then opened.

The clipboard is SDL's (``pygame.scrap``); where it cannot be used (no clipboard under some
drivers) the code stays shown in its field to be copied by hand, and the paste field takes
typing.
"""

from __future__ import annotations

import pygame

from game import codes
from window import fonts
from window.host import Host
from window.widgets import Button, draw_dialog, draw_field, edit_field

MAX_TYPED = codes.MAX_CODE


def copy_text(text: str) -> bool:
    """Put ``text`` on the clipboard; False when there is no clipboard to use."""
    try:
        pygame.scrap.put_text(text)
        return pygame.scrap.get_text() == text
    except (pygame.error, AttributeError, NotImplementedError):
        return False


def pasted_text() -> str:
    """The clipboard's text, or "" when there is none (or no clipboard)."""
    try:
        return pygame.scrap.get_text() or "" if pygame.scrap.has_text() else ""
    except (pygame.error, AttributeError, NotImplementedError):
        return ""


def problem(text: str) -> str:
    """Why ``text`` is not a code, in one short line; "" when it is one. The whole text is
    read (the decoder bounds its work): a code cut to the field's length would be blamed for
    a fault it does not have."""
    try:
        codes.decode(text)
    except codes.CodeError as error:
        return f"This code {error.reason}"[:200]      # the reason is said of the code: "is too short..."
    return ""


class ShareScene:
    animating = False

    def __init__(self, app: Host, code: str | None, typed: str = "") -> None:
        self.app = app
        self.code = code or ""
        self.typed = typed[:MAX_TYPED]
        self.selected = False                 # the whole code typed is selected (Ctrl+A)
        self.said = problem(typed) if typed.strip() else ""      # a pasted code that did not open
        self.copy_button = Button("Copy code", self.copy, enabled=bool(self.code))
        self.paste_button = Button("Paste", self.paste)
        self.open_button = Button("Open code", self.open_typed)
        self.close_button = Button("Close", app.close_overlay)
        self.relayout(app.window_size)

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        box = self.box = pygame.Rect(0, 0, min(720, width - 40), 300)
        box.center = (width // 2, height // 2)
        self.code_field = pygame.Rect(box.x + 20, box.y + 88, box.width - 180, 36)
        self.copy_button.rect = pygame.Rect(self.code_field.right + 10, self.code_field.y, 130, 36)
        self.paste_field = pygame.Rect(box.x + 20, box.y + 178, box.width - 320, 36)
        self.paste_button.rect = pygame.Rect(self.paste_field.right + 10, self.paste_field.y, 120, 36)
        self.open_button.rect = pygame.Rect(self.paste_button.rect.right + 10, self.paste_field.y, 130, 36)
        self.close_button.rect = pygame.Rect(box.right - 110, box.y + 10, 100, 32)

    def copy(self) -> None:
        if copy_text(self.code):
            self.said = "Copied: paste it in a message; whoever opens it gets this puzzle"
        else:
            self.said = "No clipboard here: select the code above and copy it by hand"

    def paste(self) -> None:
        text = pasted_text().strip()
        if not text:
            self.said = "The clipboard holds no text: type the code in the field"
            return
        self.typed, self.selected = text[:MAX_TYPED], False
        self.open_code(text)

    def open_typed(self) -> None:
        self.open_code(self.typed.strip())

    def open_code(self, text: str) -> None:
        self.said = problem(text)
        if self.said:
            return
        self.app.close_overlay()
        self.app.open_level(text)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
            if event.key == pygame.K_ESCAPE:
                self.app.close_overlay()
            elif ctrl and event.key == pygame.K_v:
                self.paste()
            elif ctrl and event.key == pygame.K_c:
                self.copy()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.open_typed()
            elif (edited := edit_field(self.typed, self.selected, event, MAX_TYPED)) is not None:
                self.typed, self.selected = edited
            return
        if event.type == pygame.TEXTINPUT and (edited := edit_field(self.typed, self.selected, event, MAX_TYPED)):
            self.typed, self.selected = edited
            return
        for button in (self.copy_button, self.paste_button, self.open_button, self.close_button):
            if button.handle(event):
                return

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        box = self.box
        draw_dialog(surface, theme, box, "Share")
        fonts.blit_text(surface, "This level's code: the whole puzzle in one line", 18, theme.muted,
                        topleft=(box.x + 20, box.y + 62))
        draw_field(surface, theme, self.code_field, self.code or "(no level open)", False, size=20)
        draw_field(surface, theme, self.paste_field, self.typed[-400:], False, size=20, selected=self.selected)
        fonts.blit_text(surface, "Open a code (Ctrl+V pastes it, or type it):", 18, theme.muted,
                        topleft=(box.x + 20, box.y + 152))
        for button in (self.copy_button, self.paste_button, self.open_button, self.close_button):
            button.draw(surface, theme)
        if self.said:
            fonts.blit_text(surface, fonts.fit_text(self.said, 18, box.width - 40), 18, theme.text,
                            topleft=(box.x + 20, box.y + 240))
