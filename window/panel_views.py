"""Draws the side panel's read-only parts: the fleet checklist, statistics, guesses, the plot."""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

import pygame

from game.puzzle import cell_said, ship_name
from game.session import FleetLine
from window import fonts
from window.theme import Theme

T = TypeVar("T")

Silhouette = tuple[int, int, pygame.Rect, str]   # (length, index, rect, "done" | "open" | "extra")


def fleet_height(lines: Sequence[FleetLine], width: int, most: int | None = None) -> int:
    return fleet_placement(lines, pygame.Rect(0, 0, width, 10_000), most)[1]


LABEL_WIDTH = 96


def fleet_placement(lines: Sequence[FleetLine], area: pygame.Rect,
                    most: int | None = None) -> tuple[list[Silhouette], int]:
    """Where each ship silhouette goes in ``area``, and the height used: one per ship, or, when
    those would take more than ``most`` pixels (a giant's fleet), one per length, whose label
    counts its ships."""
    total_cells = sum(line.length * max(line.wanted, line.closed) for line in lines)
    unit = 16 if total_cells <= 60 else (12 if total_cells <= 140 else 9)
    placed: list[Silhouette] = []
    y = area.y
    for line in lines:
        x = area.x + LABEL_WIDTH
        row_height = unit + 8
        for index in range(max(line.wanted, line.closed)):
            width = unit * line.length
            if x + width > area.right and x > area.x + LABEL_WIDTH:
                x = area.x + LABEL_WIDTH
                y += row_height
            state = "extra" if index >= line.wanted else ("done" if index < line.closed else "open")
            placed.append((line.length, index, pygame.Rect(x, y + 4, width, unit), state))
            x += width + unit // 2 + 2
        y += row_height
    if most is None or y - area.y <= most:
        return placed, y - area.y
    longest = max(line.length for line in lines)
    unit = max(4, min(12, (area.width - LABEL_WIDTH) // longest))
    pitch = max(16, min(20, most // len(lines)))        # rows closer (not under 16 px) where room is short
    placed, y = [], area.y
    for line in lines:
        state = "extra" if line.too_many else ("done" if line.done else "open")
        placed.append((line.length, 0, pygame.Rect(area.x + LABEL_WIDTH, y + pitch // 2 - unit // 2, unit * line.length,
                                                   unit), state))
        y += pitch
    return placed, y - area.y


def draw_fleet(surface: pygame.Surface, area: pygame.Rect, lines: Sequence[FleetLine],
               theme: Theme, most: int | None = None) -> list[Silhouette]:
    """One silhouette per ship: filled and ticked once closed on the board, red with '!' if extra
    (or one per length, see :func:`fleet_placement`)."""
    placed, _ = fleet_placement(lines, area, most)
    label_y: dict[int, int] = {}
    for length, _index, rect, state in placed:
        label_y.setdefault(length, rect.centery)
        glyph = pygame.Rect(0, 0, 0, 0)        # the tick or the '!': no cell divider crosses it
        if state == "done":
            pygame.draw.rect(surface, theme.ship, rect, border_radius=rect.height // 2)
            tick = rect.inflate(-rect.height // 2, -rect.height // 2)
            tick.width = min(tick.width, rect.height)
            tick.centerx = rect.centerx
            points = [(tick.x, tick.centery), (tick.centerx, tick.bottom), (tick.right, tick.top)]
            pygame.draw.lines(surface, theme.on(theme.ship), False, points, 3)
            glyph = tick
        elif state == "extra":
            pygame.draw.rect(surface, theme.error, rect, border_radius=rect.height // 2)
            glyph = fonts.blit_text(surface, "!", rect.height + 2, theme.on(theme.error), bold=True, center=rect.center)
        else:
            pygame.draw.rect(surface, theme.muted, rect, 2, border_radius=rect.height // 2)
        for k in range(1, length):
            x = rect.x + rect.width * k // length
            if glyph.width and glyph.left - 2 <= x <= glyph.right + 2:
                continue
            pygame.draw.line(surface, theme.panel, (x, rect.y + 3), (x, rect.bottom - 4))
    for line in lines:
        if line.length not in label_y:
            continue
        colour = theme.error if line.too_many else (theme.met if line.done else theme.text)
        name = f"{line.closed}/{line.wanted} {ship_name(line.length)}"
        fonts.blit_text(surface, fonts.fit_text(name, 17, LABEL_WIDTH - 4), 17, colour,
                        midleft=(area.x, label_y[line.length]))
    return placed


def deepest(items: Sequence, room: int, earlier: int = 0) -> tuple[Sequence, str]:
    """The deepest of ``items`` (deepest last) that fit ``room`` rows, and the line for the row
    above them that says how many shallower ones are left out ("" when all fit; nothing when
    there is no row at all, and with a single row the deepest item, the one a reader most
    wants, rather than a line that lists none). ``earlier``: as many more in force, shallower
    than ``items`` but not known (taken before the events a trace kept); the line counts them
    and says so."""
    if len(items) <= room and not earlier:
        return items, ""
    if room <= 1:
        return items[max(0, len(items) - room):], ""
    shown = items[max(0, len(items) - room + 1):]   # one row says what is left out
    if not earlier:
        return shown, f"... {len(items) - len(shown):,} shallower"
    if not shown:
        return shown, f"{earlier:,} taken before the trace begins"
    return shown, f"... {len(items) - len(shown) + earlier:,} shallower ({earlier:,} taken before the trace begins)"


def decision_said(r: int, c: int, ship: bool, detail: str) -> str:
    """A decision in force as the lists say it: its cell, as the sentences name cells, and
    what it tried (a solver's detail such as "try a cruiser here", else the value)."""
    return f"{cell_said(r, c)}: {detail or ('ship' if ship else 'water')}"


def draw_decisions(surface: pygame.Surface, area: pygame.Rect, title: str, decisions: Sequence[T],
                   say: Callable[[T], str], theme: Theme, bold: bool = False,
                   earlier: int = 0) -> list[tuple[pygame.Rect, T]]:
    """The decisions in force under ``title`` (bold: the panel's heading; else a muted note):
    the deepest that fit (deepest last), each said by ``say`` behind a guess's square, and a
    line for those left out above them (``earlier``: see ``deepest``). Returns each row drawn
    with its decision."""
    size, head = (17, 22) if bold else (15, 20)
    fonts.blit_text(surface, title, size, theme.text if bold else theme.muted, bold=bold, topleft=area.topleft)
    shown, left_out = deepest(decisions, max(0, (area.height - head) // 18), earlier)
    y = area.y + head
    if left_out:
        fonts.blit_text(surface, fonts.fit_text(left_out, 15, area.width), 15, theme.muted, topleft=(area.x, y))
        y += 18
    rows = []
    for decision in shown:
        pygame.draw.rect(surface, theme.guess, (area.x, y + 3, 10, 10))
        fonts.blit_text(surface, fonts.fit_text(say(decision), 15, area.width - 16), 15, theme.text,
                        topleft=(area.x + 16, y))
        rows.append((pygame.Rect(area.x, y, area.width, 18), decision))
        y += 18
    return rows


def draw_lines(surface: pygame.Surface, area: pygame.Rect, rows: Sequence[tuple[str, str]], theme: Theme,
               size: int = 18) -> int:
    """Label / value pairs, two columns; returns the height used."""
    y = area.y
    half = area.width // 2
    for i, (label, value) in enumerate(rows):
        x = area.x + (i % 2) * half
        fonts.blit_text(surface, label, size, theme.muted, topleft=(x, y))
        fonts.blit_text(surface, fonts.fit_text(value, size, half - 80, bold=True), size, theme.text, bold=True,
                        topleft=(x + 78, y))
        if i % 2 == 1 or i == len(rows) - 1:
            y += size + 3
    return y - area.y


PLOT_CURVES = 24      # pixels: the least height for the curves between a plot's two bands of labels
PLOT_SHORTEST = 16    # pixels: the least height of a plot with its labels (one band) above its curves


def plot_note(count: int, more: bool) -> str:
    """What a fitness plot of ``count`` (fewer than two) generations says instead of a curve;
    ``more``: generations may still come (the run goes on, or the replay is before its end)."""
    if more:
        return "fitness plot: waiting for generations"
    return "fitness plot: one generation, no curve" if count else "fitness plot: no generation finished"


def draw_plot(surface: pygame.Surface, area: pygame.Rect, points: Sequence[tuple[int, float, float]],
              theme: Theme, more: bool = True) -> None:
    """Best and mean fitness per generation (lower or higher, whatever the solver reports)."""
    pygame.draw.rect(surface, theme.unknown, area)
    pygame.draw.rect(surface, theme.panel_edge, area, 1)
    if len(points) < 2:
        fonts.blit_text(surface, fonts.fit_text(plot_note(len(points), more), 15, area.width - 8), 15, theme.muted,
                        center=area.center)
        return
    gens = [p[0] for p in points]
    values = [p[1] for p in points] + [p[2] for p in points]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        high = low + 1.0
    first, last = gens[0], max(gens[-1], gens[0] + 1)
    # The labels take bands of their own, the curves what is left: the legend and the highest
    # value in a band at the top, the lowest value and the generation in a band at the bottom;
    # in a plot too short for two bands, the lowest with the highest in the top one; in one
    # too short for that, the curves alone.
    band = fonts.font(fonts.SMALLEST).get_height() + 4
    bands = 2 if area.height - 2 * band >= PLOT_CURVES else (1 if area.height >= PLOT_SHORTEST else 0)
    top = band if bands else 3
    inner = pygame.Rect(area.x + 6, area.y + top, area.width - 12,
                        max(1, area.height - top - (band if bands == 2 else 1)))

    def to_xy(gen: float, value: float) -> tuple[float, float]:
        return (inner.x + (gen - first) / (last - first) * inner.width,
                inner.y + (high - value) / (high - low) * max(0, inner.height - 2))   # 2: the curves' width

    for column, colour in ((2, theme.plot_mean), (1, theme.plot_best)):
        line = [to_xy(p[0], p[column]) for p in points]
        pygame.draw.lines(surface, colour, False, line, 2)
    if not bands:
        return
    legend = fonts.blit_text(surface, "best", fonts.SMALLEST, theme.plot_best, bold=True,
                             topleft=(area.x + 6, area.y + 2))
    legend = fonts.blit_text(surface, "mean", fonts.SMALLEST, theme.plot_mean, bold=True,
                             topleft=(legend.right + 8, area.y + 2))
    room = area.right - 4 - legend.right - 8
    scale = [f"{high:g}", f"{low:g}  gen {gens[-1]}"] if bands == 2 else [f"{low:g}..{high:g}  gen {gens[-1]}"]
    fonts.blit_text(surface, fonts.fit_text(scale[0], fonts.SMALLEST, room), fonts.SMALLEST, theme.muted,
                    topright=(area.right - 4, area.y + 2))
    if bands == 2:
        fonts.blit_text(surface, fonts.fit_text(scale[1], fonts.SMALLEST, area.width - 8), fonts.SMALLEST,
                        theme.muted, bottomright=(area.right - 4, area.bottom - 2))
