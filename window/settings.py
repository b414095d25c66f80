"""Settings: documented defaults shipped in ``assets/settings.yaml``, user overrides on top.

The user's file is checked against a schema (types and ranges, one rule per key). A bad key
gets one line naming the file and the key, and its default is used; the rest of the file
still counts. The file is bounded before it is parsed: its size, and, while it is parsed,
its nesting and node count; YAML anchors and aliases are refused (a few lines of aliases
expand to billions of nodes). The user's file is never moved or rewritten: it is theirs to
edit, so a problem is reported and the defaults stand in until they fix it.
"""

from __future__ import annotations

import copy
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml

from game import files
from game.levels import short_repr
from game.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_NESTING

DEFAULTS_PATH = Path(__file__).resolve().parent.parent / "assets" / "settings.yaml"
MAX_NODES = 10_000            # YAML nodes in a settings file (the defaults have about 60)
# The smallest window a scene lays out for (a smaller one shows the top left of that layout),
# and so the smallest a settings file may ask for.
MIN_WINDOW = (480, 360)
MAX_WINDOW = (7680, 4320)     # 8K; the window also never opens larger than the display
_NUMERIC = re.compile(r"[-+]?[0-9.][0-9_.:eE+-]*")
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def user_dir() -> Path:
    """Per-user data folder (XDG on Linux, the usual places elsewhere). A relative
    ``XDG_DATA_HOME`` is ignored, as the XDG spec says: it would put the records in whatever
    folder the program was started from."""
    override = os.environ.get("BATTLESHIPS_HOME")
    if override:
        return Path(override)
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", Path.home())) / "battleships"
    base = os.environ.get("XDG_DATA_HOME", "")
    return Path(base if os.path.isabs(base) else Path.home() / ".local" / "share") / "battleships"


def user_settings_path() -> Path:
    return user_dir() / "settings.yaml"


def defaults() -> dict[str, Any]:
    with open(DEFAULTS_PATH, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


# ----- the schema ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """What one key accepts: ``check`` returns the value to use or raises ValueError saying why."""

    check: Callable[[Any], Any]


def _choice(*names: str) -> Rule:
    def check(value: Any) -> Any:
        if value not in names or not isinstance(value, str):
            raise ValueError(f"must be one of {', '.join(names)}, not {short_repr(value)}")
        return value
    return Rule(check)


def _number(kind: type, low: float, high: float) -> Rule:
    def check(value: Any) -> Any:
        whole = "a whole number" if kind is int else "a number"
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or (
                kind is int and isinstance(value, float) and not value.is_integer()) or not low <= value <= high:
            raise ValueError(f"must be {whole} from {low:g} to {high:g}, not {short_repr(value)}")
        return kind(value)
    return Rule(check)


def _window(value: Any) -> list[int]:
    text = f"must be [width, height] with width {MIN_WINDOW[0]}..{MAX_WINDOW[0]} and height " \
           f"{MIN_WINDOW[1]}..{MAX_WINDOW[1]}, not {short_repr(value)}"
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and low <= v <= high
            for v, low, high in zip(value, MIN_WINDOW, MAX_WINDOW))):
        raise ValueError(text)
    return list(value)


def schema() -> dict[str, dict[str, Rule]]:
    """Section -> key -> rule: the ui section, and one section per solver with options."""
    from solvers.engine import registry
    from window.theme import PALETTES, THEMES

    sections = {"ui": {
        "theme": _choice(*THEMES),
        "palette": _choice(*PALETTES),
        "window": Rule(_window),
        "speed": _number(float, 0, 100_000),
        "fps": _number(int, 1, 240),
        "solver": _choice(*registry.NAMES),
        "seed": _number(int, 0, 10 ** MAX_DIGITS - 1),
    }}
    for spec in registry.SOLVERS.values():
        if spec.options:
            sections[spec.name] = {option.name: Rule(option.check) for option in spec.options}
    return sections


# ----- reading ------------------------------------------------------------------------------


class _Refused(Exception):
    pass


def _parse_bounded(text: str) -> Any:
    """YAML with no anchors or aliases, at most MAX_NESTING deep and MAX_NODES nodes."""
    loader = _Loader(text)
    depth = nodes = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise _Refused("uses YAML anchors or aliases, which settings do not allow")
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_NESTING:
                    raise _Refused(f"is nested more than {MAX_NESTING} levels deep")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.DocumentStartEvent) and nodes:
                raise _Refused("holds more than one YAML document")
            if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                nodes += 1
                if nodes > MAX_NODES:
                    raise _Refused(f"has more than {MAX_NODES:,} values")
                if isinstance(event, yaml.ScalarEvent) and not event.style and \
                        _NUMERIC.fullmatch(event.value) and sum(ch.isdigit() for ch in event.value) > MAX_DIGITS:
                    raise _Refused(f"has a number longer than {MAX_DIGITS} digits")
    finally:
        loader.dispose()
    # Within these bounds the real load is small and fast.
    return yaml.load(text, Loader=_Loader)


def _read(path: Path) -> tuple[Any, str | None]:
    """(document or None, problem or None)."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, f"is {size:,} bytes; a settings file is at most {MAX_FILE_BYTES:,}"
        if not path.is_file():
            return None, "is not a regular file"
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        return None, f"cannot be read ({files.reason(error)})"
    if len(data) > MAX_FILE_BYTES:
        return None, f"is more than {MAX_FILE_BYTES:,} bytes"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"
    try:
        return _parse_bounded(text), None
    except _Refused as refused:
        return None, str(refused)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f" at line {mark.line + 1}" if mark is not None else ""
        return None, f"is not valid YAML ({error.problem or 'unreadable'}{where})"
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as error:
        return None, f"is not valid YAML ({error.__class__.__name__})"


def validate(data: dict, base: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``base`` with the good keys of ``data`` on top, and one problem per bad key."""
    merged = copy.deepcopy(base)
    problems: list[str] = []
    rules = schema()
    for section, values in data.items():
        if section not in rules:
            problems.append(f"{short_repr(section)}: unknown section ignored")
            continue
        if values is None:
            continue
        if not isinstance(values, dict):
            problems.append(f"{section}: must be a section of keys, not {short_repr(values)}; using the defaults")
            continue
        target = merged.setdefault(section, {})
        for key, value in values.items():
            rule = rules[section].get(key) if isinstance(key, str) else None
            if rule is None:
                name = key if isinstance(key, str) else short_repr(key)
                problems.append(f"{section}.{name}: unknown setting ignored")
                continue
            try:
                target[key] = rule.check(value)
            except ValueError as error:
                problems.append(f"{section}.{key}: {error}; using {short_repr(target.get(key))}")
    return merged, problems


def load(path: Path | None = None) -> tuple[dict[str, Any], list[str]]:
    """(settings, problems): defaults merged with the user file at ``path`` if it exists.

    Each problem is one line naming the file and the key; nothing here raises for a bad file.
    """
    settings = defaults()
    path = user_settings_path() if path is None else Path(path)
    if not os.path.lexists(path):
        return settings, []
    data, problem = _read(path)
    if problem is not None:
        return settings, [f"{path}: {problem}; using the default settings"]
    if data is None:
        return settings, []
    if not isinstance(data, dict):
        return settings, [f"{path}: settings must be a mapping of sections; using the default settings"]
    merged, problems = validate(data, settings)
    return merged, [f"{path}: {p}" for p in problems]
