"""What the window remembers of the player's choices from one run to the next, and what each
choice accepts: the theme, the palette, the window's size, the solver chosen in the panel and
its speed (each made over a setting of the ``ui`` section, and checked by that setting's rule),
and the New puzzle dialog's size, difficulty and seed (no setting makes them).

``window.storage`` keeps them (``choices.json``); a value this module refuses is dropped there,
and the setting or the default stands in.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

from solvers.authoring.grading import GRADES
from window import settings

OVER_SETTINGS = ("theme", "palette", "window", "speed", "solver")   # choices made over a ui setting
NEW_PUZZLE = "new_puzzle"
SIZES = (6, 8, 10, 15)              # the New puzzle dialog's sizes
DIFFICULTIES = GRADES
MAX_SEED_DIGITS = 9


@dataclass
class Choice:
    """The New puzzle dialog's settings; the app keeps the last one so the dialog reopens the same way."""

    size: int = 8
    difficulty: str = "easy"
    seed: str = ""
    random_seed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: Any) -> Choice:
        """The choice ``data`` holds, as :meth:`to_dict` wrote it; ValueError saying why not."""
        if not (isinstance(data, dict) and set(data) == set(asdict(Choice()))):
            raise ValueError("is not a size, a difficulty, a seed and whether the seed is random")
        size, difficulty, seed, random_seed = data["size"], data["difficulty"], data["seed"], data["random_seed"]
        if not (isinstance(size, int) and not isinstance(size, bool) and size in SIZES):
            raise ValueError(f"size must be one of {', '.join(map(str, SIZES))}")
        if not (isinstance(difficulty, str) and difficulty in DIFFICULTIES):
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        digits = isinstance(seed, str) and (seed == "" or seed.isascii() and seed.isdigit())
        if not (digits and len(seed) <= MAX_SEED_DIGITS):
            raise ValueError(f"seed must be at most {MAX_SEED_DIGITS} digits")
        if not isinstance(random_seed, bool):
            raise ValueError("random_seed must be true or false")
        return Choice(size, difficulty, seed, random_seed)


def rules() -> dict[str, Callable[[Any], Any]]:
    """Choice -> its check: the value to use, or ValueError saying why not."""
    ui = settings.schema()["ui"]
    return {**{key: ui[key].check for key in OVER_SETTINGS}, NEW_PUZZLE: Choice.from_dict}


def check(key: Any, pair: Any) -> bool:
    """Whether ``pair`` is a sound entry of the window's choices for ``key``: the value chosen and
    the setting it was made over (None for a choice no setting makes), each as its rule accepts."""
    rule = rules().get(key) if isinstance(key, str) else None
    if rule is None or not (isinstance(pair, list) and len(pair) == 2):
        return False
    chosen, over = pair
    try:
        rule(chosen)
        if key in OVER_SETTINGS:
            rule(over)
        elif over is not None:
            return False
    except ValueError:
        return False
    return True
