"""Settings: documented defaults shipped in ``assets/settings.yaml``, user overrides on top.

A malformed user file never stops the program: ``load`` returns the defaults together with
a message saying which file is wrong and why.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import yaml

DEFAULTS_PATH = Path(__file__).resolve().parent.parent / "assets" / "settings.yaml"


def user_dir() -> Path:
    """Per-user data folder (XDG on Linux, the usual places elsewhere)."""
    override = os.environ.get("BATTLESHIPS_HOME")
    if override:
        return Path(override)
    if os.name == "nt":
        return Path(os.environ.get("APPDATA", Path.home())) / "battleships"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "battleships"


def user_settings_path() -> Path:
    return user_dir() / "settings.yaml"


def defaults() -> dict[str, Any]:
    with open(DEFAULTS_PATH, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _merge(base: dict, override: dict, where: str, problems: list[str]) -> dict:
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if key not in base:
            problems.append(f"{where}: unknown setting {key!r} ignored")
        elif isinstance(base[key], dict):
            if isinstance(value, dict):
                merged[key] = _merge(base[key], value, f"{where}.{key}" if where else key, problems)
            else:
                problems.append(f"{where}{'.' if where else ''}{key} should be a section, got {value!r}")
        elif base[key] is not None and not isinstance(value, type(base[key])) and not (
                isinstance(base[key], float) and isinstance(value, int)):
            problems.append(f"{where}{'.' if where else ''}{key} should be a {type(base[key]).__name__}, "
                            f"got {value!r}; using {base[key]!r}")
        else:
            merged[key] = value
    return merged


def load(path: Path | None = None) -> tuple[dict[str, Any], list[str]]:
    """(settings, problems): defaults merged with the user file at ``path`` if it exists."""
    settings = defaults()
    path = user_settings_path() if path is None else Path(path)
    if not path.exists():
        return settings, []
    try:
        with open(path, encoding="utf-8") as handle:
            data = yaml.safe_load(handle)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        return settings, [f"{path}: cannot read settings ({error.__class__.__name__}); using defaults"]
    if data is None:
        return settings, []
    if not isinstance(data, dict):
        return settings, [f"{path}: settings must be a mapping of sections; using defaults"]
    problems: list[str] = []
    merged = _merge(settings, data, "", problems)
    return merged, [f"{path}: {p}" for p in problems]
