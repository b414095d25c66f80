"""Colours. Two themes (light, dark) times two palettes (standard, colour-blind safe).

The colour-blind palette takes its hues from Okabe and Ito's set, which stays distinct for
the common forms of colour blindness; every state also has a glyph or shape in the views, so
colour is never the only signal.

Every theme keeps its text and glyphs legible (WCAG 2 contrast): ``make_theme`` deepens (light
theme) or lightens (dark theme) a state's colour just enough for ``LEGIBLE``'s ratios, and text
on a coloured fill (a trial's chip, an active button, an error mark) is black or white,
whichever reads better (:meth:`Theme.on`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Colour = tuple[int, int, int]
BLACK, WHITE = (0, 0, 0), (255, 255, 255)
TEXT_RATIO = 4.5        # WCAG 2 AA: text
GLYPH_RATIO = 3.0       # WCAG 2 AA: large text, glyphs, outlines and other graphics
# (colour, the backgrounds it is drawn on, the ratio it needs there)
LEGIBLE = (("muted", ("panel", "background", "unknown"), TEXT_RATIO),
           ("error", ("panel", "background", "unknown"), TEXT_RATIO),
           ("solved", ("panel", "background"), TEXT_RATIO),
           ("met", ("panel", "background", "unknown"), TEXT_RATIO),
           ("complete", ("background",), GLYPH_RATIO),
           ("cursor", ("unknown", "panel"), GLYPH_RATIO),
           ("guess", ("unknown",), GLYPH_RATIO),
           ("forced", ("unknown",), GLYPH_RATIO),
           ("backtrack", ("unknown",), GLYPH_RATIO),
           ("best_fleet", ("unknown",), GLYPH_RATIO),
           ("water_glyph", ("water",), GLYPH_RATIO))


def luminance(colour: Colour) -> float:
    """WCAG 2 relative luminance."""
    def channel(value: int) -> float:
        share = value / 255
        return share / 12.92 if share <= 0.03928 else ((share + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def legible(colour: Colour, against: tuple[Colour, ...], ratio: float, towards: Colour) -> Colour:
    """``colour`` mixed towards ``towards`` (black or white) in small steps until its contrast
    with each of ``against`` reaches ``ratio`` (unchanged when it does already)."""
    def mix(c: int, t: int, step: int) -> int:
        return round(c + (t - c) * step / 20)
    for step in range(21):
        mixed = (mix(colour[0], towards[0], step), mix(colour[1], towards[1], step),
                 mix(colour[2], towards[2], step))
        if all(contrast(mixed, back) >= ratio for back in against):
            return mixed
    return towards

@lru_cache(maxsize=256)
def _on(fill: Colour) -> Colour:
    """``Theme.on``, worked out once per colour (a large board asks it for every marked cell)."""
    return BLACK if contrast(fill, BLACK) >= contrast(fill, WHITE) else WHITE


THEMES = ("light", "dark")
PALETTES = ("standard", "colourblind")


@dataclass(frozen=True)
class Theme:
    name: str
    palette: str
    background: Colour
    panel: Colour
    panel_edge: Colour
    text: Colour
    muted: Colour
    grid_line: Colour
    unknown: Colour
    water: Colour
    water_glyph: Colour
    ship: Colour
    hint_ship: Colour
    hint_mark: Colour
    cursor: Colour
    met: Colour
    complete: Colour
    error: Colour
    forced: Colour
    guess: Colour
    backtrack: Colour
    best_fleet: Colour
    button: Colour
    button_hover: Colour
    button_active: Colour
    button_text: Colour
    plot_best: Colour
    plot_mean: Colour
    solved: Colour
    trials: tuple[Colour, ...] = ()      # one colour per trial depth (1 first); see trial_colour

    def on(self, fill: Colour) -> Colour:
        """The colour of text or a glyph drawn on ``fill``: black or white, whichever reads better."""
        return _on(tuple(fill))

    def trial_colour(self, depth: int) -> Colour:
        """The colour of trial ``depth`` (1 = outermost); the depth is also drawn as a digit."""
        return self.trials[(depth - 1) % len(self.trials)]


_LIGHT: dict[str, Colour] = dict(
    background=(236, 239, 243), panel=(250, 251, 252), panel_edge=(200, 206, 214), text=(28, 32, 40),
    muted=(120, 128, 140), grid_line=(172, 182, 194), unknown=(255, 255, 255), water=(206, 228, 246),
    water_glyph=(86, 142, 196), ship=(52, 64, 84), hint_ship=(10, 14, 20), hint_mark=(255, 255, 255),
    cursor=(240, 150, 0), button=(226, 231, 238), button_hover=(210, 218, 228), button_active=(70, 110, 170),
    button_text=(28, 32, 40), best_fleet=(150, 60, 190),
)
_DARK: dict[str, Colour] = dict(
    background=(24, 27, 33), panel=(36, 40, 48), panel_edge=(64, 70, 82), text=(226, 230, 236),
    muted=(140, 148, 160), grid_line=(78, 86, 100), unknown=(46, 51, 61), water=(32, 64, 96),
    water_glyph=(120, 176, 226), ship=(196, 206, 220), hint_ship=(250, 250, 252), hint_mark=(20, 24, 30),
    cursor=(255, 190, 60), button=(54, 60, 72), button_hover=(70, 78, 92), button_active=(90, 140, 210),
    button_text=(226, 230, 236), best_fleet=(210, 140, 250),
)
_STANDARD: dict[str, Colour] = dict(
    met=(40, 150, 70), complete=(150, 158, 170), error=(210, 40, 40), forced=(30, 120, 200),
    guess=(235, 140, 20), backtrack=(200, 50, 60), plot_best=(40, 150, 70), plot_mean=(30, 120, 200),
    solved=(40, 150, 70),
)
# Okabe-Ito: blue, orange, vermilion, bluish green, sky blue.
_COLOURBLIND: dict[str, Colour] = dict(
    met=(0, 158, 115), complete=(150, 158, 170), error=(213, 94, 0), forced=(0, 114, 178),
    guess=(230, 159, 0), backtrack=(204, 121, 167), plot_best=(0, 158, 115), plot_mean=(86, 180, 233),
    solved=(0, 158, 115),
)
_TRIALS: dict[str, tuple[Colour, ...]] = {
    # Trial layers: orange, purple, teal, magenta, brown, blue (no red: that is an error).
    "standard": ((226, 118, 0), (128, 64, 196), (0, 146, 136), (200, 40, 150), (140, 96, 40), (30, 106, 214)),
    # Trial layers: Okabe-Ito orange, sky blue, bluish green, reddish purple, vermilion, blue.
    "colourblind": ((230, 159, 0), (86, 180, 233), (0, 158, 115), (204, 121, 167), (213, 94, 0), (0, 114, 178)),
}


def make_theme(name: str = "light", palette: str = "standard") -> Theme:
    """A theme by name; unknown names fall back to light / standard."""
    name = name if name in THEMES else "light"
    palette = palette if palette in PALETTES else "standard"
    base = dict(_DARK if name == "dark" else _LIGHT)
    base.update(_COLOURBLIND if palette == "colourblind" else _STANDARD)
    if name == "dark":
        base["complete"] = (110, 118, 130)
    towards = WHITE if name == "dark" else BLACK
    for key, against, ratio in LEGIBLE:
        base[key] = legible(base[key], tuple(base[b] for b in against), ratio, towards)
    # A trial's colour frames the board and draws its water's waves: a glyph on an empty cell.
    trials = tuple(legible(c, (base["unknown"],), GLYPH_RATIO, towards) for c in _TRIALS[palette])
    return Theme(name=name, palette=palette, trials=trials, **base)
