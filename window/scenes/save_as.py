"""Save as: the level editor's prompt for the name of the file its level is saved in.

The prompt keeps what is typed, the file it makes and what the editor says back (a question,
or why nothing was saved); what a name means on disk is the editor's to decide
(``EditorScene.save_typed``). The name offered is selected: the first key typed replaces it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pygame

from game import files
from window import fonts
from window.theme import Theme
from window.widgets import Button, draw_dialog, draw_field, draw_shade, edit_field, handle_all, layout_row, selects_all

MAX_NAME = files.MAX_SLUG           # characters typed: the file's name keeps no more of them
SIZE = 20                           # the name's font size


class SaveAsPrompt:
    def __init__(self, offered: str, folder: Path, save: Callable[[], object], cancel: Callable[[], object],
                 size: tuple[int, int]) -> None:
        self.typed = offered[:MAX_NAME]
        self.fresh = bool(self.typed)           # the name offered (or Ctrl+A), selected: the first key replaces it
        self.folder = folder
        self.asked: Path | None = None          # the file the author was asked about: Save again replaces it
        self.said = ""
        self.problem = False                    # ``said`` is why nothing was saved (not a question)
        self.save, self.cancel = save, cancel
        self.buttons = [Button("Save", save), Button("Cancel", cancel)]
        self.relayout(size)

    @property
    def file(self) -> Path | None:
        """Where the name typed saves the level: its file name part (``files.slug``) with
        ``.bs``, in the folder; None for a name with no letter or digit to make one of."""
        stem = files.slug(self.typed, fallback="")
        return self.folder / f"{stem}.bs" if stem else None

    def ask(self, path: Path, question: str) -> None:
        """Say ``question`` about ``path``; Save (or Enter) again writes over it."""
        self.asked, self.said, self.problem = path, question, False
        self.buttons[0].label = "Replace"

    def tell(self, problem: str) -> None:
        """Say why nothing was saved."""
        self.asked, self.said, self.problem = None, problem, True
        self.buttons[0].label = "Save"

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.TEXTINPUT:
            self.take_typed(event)
            return
        if event.type != pygame.KEYDOWN:
            handle_all(self.buttons, event)
            return
        if event.key == pygame.K_ESCAPE:
            self.cancel()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.save()
        elif selects_all(event) or not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            self.take_typed(event)

    def take_typed(self, event: pygame.event.Event) -> None:
        """A key or a text typed into the name (the name selected is replaced: see ``edit_field``)."""
        edited = edit_field(self.typed, self.fresh, event, MAX_NAME)
        if edited is None:
            return
        typed, self.fresh = edited
        if typed != self.typed:
            self.typed = typed
            self.tell("")                        # another name: any question was about the last one

    def look(self) -> tuple:
        """Everything :meth:`draw` shows."""
        return (self.typed, self.fresh, self.said, self.problem, tuple(self.box),
                tuple(button.look() for button in self.buttons))

    def relayout(self, size: tuple[int, int]) -> None:
        width, height = size
        self.box = pygame.Rect(0, 0, min(600, width - 40), 290)
        self.box.center = (width // 2, height // 2)
        self.field = pygame.Rect(self.box.x + 20, self.box.y + 86, self.box.width - 40, 38)
        layout_row(self.buttons, pygame.Rect(self.box.right - 250, self.box.bottom - 52, 230, 36))

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        box, x, width = self.box, self.box.x + 20, self.box.width - 40
        draw_shade(surface)                      # the editor beneath waits
        draw_dialog(surface, theme, box, "Save as")
        fonts.blit_text(surface, "Name of the level's file:", 17, theme.muted, topleft=(x, box.y + 60))
        draw_field(surface, theme, self.field, self.typed, True, size=SIZE, selected=self.fresh)
        path = self.file
        file = f"File: {path.name}" if path is not None else "File: (type a name with a letter or a digit)"
        fonts.blit_text(surface, fonts.fit_text(file, 17, width), 17, theme.text, topleft=(x, box.y + 134))
        folder = fonts.fit_text(f"in your levels folder, {self.folder}", 15, width)
        fonts.blit_text(surface, folder, 15, theme.muted, topleft=(x, box.y + 156))
        colour = theme.error if self.problem else theme.guess
        for n, line in enumerate(fonts.wrap(self.said, 17, width, most=2) if self.said else []):
            fonts.blit_text(surface, fonts.fit_text(line, 17, width), 17, colour, topleft=(x, box.y + 182 + 20 * n))
        keys = "Enter: replace  Esc: keep it" if self.asked is not None else "Enter: save  Esc: cancel"
        fonts.blit_text(surface, keys, 15, theme.muted,
                        midleft=(x, self.buttons[0].rect.centery))
        for button in self.buttons:
            button.draw(surface, theme)
