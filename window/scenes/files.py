"""Open a level (or pick a solver of one's own) from anywhere: a folder listing, a typed path,
keyboard and mouse."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pygame

from game import files
from game.formats import SUFFIXES
from window.host import Host
from window.layout import dialog_box
from window.list_view import ListView, Row
from window.widgets import Button, draw_dialog, draw_field, edit_field

LEVEL_SUFFIXES = tuple(SUFFIXES)          # .bs, and the text formats in circulation


class FileScene:
    animating = False

    def __init__(self, app: Host, folder: Path, pick: Callable[[Path], object] | None = None,
                 shown: Callable[[Path], bool] | None = None, title: str = "Open a level",
                 cancel: Callable[[], object] | None = None) -> None:
        """``pick`` takes the chosen file (default: open it as a level); ``shown`` says which
        files are listed (default: levels); ``cancel`` is what Esc and Cancel do (default:
        close the picker)."""
        self.app = app
        self.folder = folder
        self.pick = pick or app.open_level
        self.levels = pick is None              # a path to nothing is refused here (a caller's pick says why itself)
        self.shown = shown or (lambda entry: entry.suffix.lower() in LEVEL_SUFFIXES)
        self.title = title
        self.note = "level" if shown is None else ""
        self.typed = ""
        self.selected = False                  # the whole path typed is selected (Ctrl+A)
        self.error = ""
        self.list = ListView([])
        self.cancel = cancel or app.close_overlay
        self.close_button = Button("Cancel", self.cancel)
        self.up_button = Button("Up", lambda: self.enter(self.folder.parent))
        self.enter(folder)
        self.relayout(app.window_size)

    def enter(self, folder: Path) -> None:
        try:
            with os.scandir(folder) as found:   # (a folder's entries say what they are: one stat less each)
                entries = sorted(((_is_folder(entry), Path(entry.path)) for entry in found
                                  if not entry.name.startswith(".")),
                                 key=lambda item: (not item[0], item[1].name.lower()))
        except OSError as error:
            self.error = f"Cannot open {folder}: {files.reason(error)}"
            return
        self.folder = folder.resolve()
        self.typed, self.selected = str(self.folder) + os.sep, False
        self.error = ""
        rows = [Row(".. (parent folder)", self.folder.parent)] if self.folder.parent != self.folder else []
        for is_folder, entry in entries:
            if is_folder:
                rows.append(Row(entry.name + "/", entry, "folder"))
            elif self.shown(entry):
                rows.append(Row(entry.name, entry, self.note))
        self.list = ListView(rows or [Row("(no folders or files to pick here)")])
        self.list.rect = getattr(self, "list_rect", pygame.Rect(0, 0, 0, 0))

    def choose(self, path: Path) -> None:
        if _is_folder(path):
            self.enter(path)
            return
        try:
            if self.levels:
                os.stat(path)
        except (OSError, ValueError) as error:    # a typed path mistyped: said here, the dialog stays to mend it
            self.error = f"Cannot open {path}: {files.reason(error)}"
            return
        self.app.close_overlay()
        self.pick(path)

    def relayout(self, size: tuple[int, int]) -> None:
        box = self.box = dialog_box(size)
        self.close_button.rect = pygame.Rect(box.right - 110, box.y + 10, 100, 32)
        self.up_button.rect = pygame.Rect(box.right - 200, box.y + 10, 80, 32)
        self.input_rect = pygame.Rect(box.x + 10, box.y + 52, box.width - 20, 32)
        self.list_rect = pygame.Rect(box.x + 10, box.y + 96, box.width - 20, box.height - 130)
        self.list.rect = self.list_rect

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            taken, chosen = self.list.key(event)
            if chosen is not None:
                self.choose(chosen)
            elif taken:
                pass
            elif event.key == pygame.K_ESCAPE:
                self.cancel()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.choose(Path(os.path.expanduser(self.typed)))   # "~nobody" stays as typed
            else:
                self.type(event)
            return
        if event.type == pygame.TEXTINPUT:
            self.type(event)
            return
        if self.close_button.handle(event) or self.up_button.handle(event):
            return
        chosen = self.list.handle(event)
        if chosen is not None:
            self.choose(chosen)

    def type(self, event: pygame.event.Event) -> None:
        """Backspace and the text typed edit the path (see ``edit_field``: Ctrl+A selects it)."""
        def change(text: str) -> str | None:
            if event.type == pygame.TEXTINPUT:
                # The folder's path as the dialog wrote it, then "/" or "~": a path from the root or
                # the home folder is being typed, in its place (as a desktop's file chooser takes it).
                fresh = text == str(self.folder) + os.sep and event.text[:1] in (os.sep, "/", "~")
                return event.text if fresh else text + event.text
            return text[:-1] if event.key == pygame.K_BACKSPACE else None

        edited = edit_field(self.typed, self.selected, event, 0, change)
        if edited is not None:
            self.typed, self.selected = edited
            self.list.select(None)             # Enter now opens what was typed

    def update(self, dt: float) -> bool:
        return False

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        hint = self.error or ("Click a folder to enter it, a file to pick it (or Up/Down and Enter); "
                              "or type a path and press Enter. Esc: cancel.")
        draw_dialog(surface, theme, self.box, self.title, footer=hint,
                    footer_colour=theme.error if self.error else None)
        self.close_button.draw(surface, theme)
        self.up_button.draw(surface, theme)
        draw_field(surface, theme, self.input_rect, self.typed, True, size=18, selected=self.selected, end=True)
        self.list.draw(surface, theme)


def _is_folder(entry: os.DirEntry | Path) -> bool:
    """Whether ``entry`` is a folder or a link to one (not one that cannot be followed, nor a
    path that cannot be looked at: a name too long, a folder not to be read)."""
    try:
        return entry.is_dir()
    except OSError:
        return False
