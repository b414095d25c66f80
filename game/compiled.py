"""The engine compiled ahead of time: whether it may run, and its source in its place when not.

``setup.py`` (``pip install .``, ``make setup``) compiles the modules of the propagation engine
with mypyc, from their one Python source, into one group whose modules call each other
natively through a library of the group's own. It leaves a stamp naming the library, and each
module with a digest of the source it was compiled from. The group runs compiled only when
its library and every module are there, each compiled from its source as it is now (and
``BATTLESHIPS_ENGINE=python`` does not ask for the source): a process never runs code older
than its source, and a machine without a C compiler runs the same rules as Python. Each
package of the group calls :func:`use_source` first thing, before its modules are imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import sysconfig
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAMP = ROOT / "game" / "compiled-engine.json"     # {"library": name, "modules": {name: sha256 of its source}}
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def source_of(name: str) -> Path:
    return (ROOT / name.replace(".", "/")).with_suffix(".py")


def current(library: str, modules: dict[str, str]) -> bool:
    """Whether the group's ``library`` and every one of its ``modules`` is compiled, each from
    its source as it is now (``modules``: name -> digest of the source compiled)."""
    return bool(modules) and source_of(library).with_suffix(SUFFIX).exists() and all(
        source_of(name).with_suffix(SUFFIX).exists()
        and hashlib.sha256(source_of(name).read_bytes()).hexdigest() == digest for name, digest in modules.items())


@cache
def stamp() -> tuple[str, dict[str, str]]:
    """The stamp's library and modules (none without a stamp: nothing was compiled)."""
    try:
        found = json.loads(STAMP.read_text())
        return str(found["library"]), {str(name): str(digest) for name, digest in found["modules"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "", {}


@cache
def engine() -> str:
    """How the engine runs in this process: "compiled" or "python"."""
    return "compiled" if os.environ.get("BATTLESHIPS_ENGINE") != "python" and current(*stamp()) else "python"


def use_source(package: str) -> None:
    """Import ``package``'s modules of the group from their source, unless the group runs
    compiled: the source of each module that has a compiled one beside it, in the stamp's
    order (each after those it imports)."""
    if engine() == "compiled":
        return
    for name in stamp()[1]:
        parent, _, leaf = name.rpartition(".")
        source = source_of(name)
        if parent != package or name in sys.modules or not source.with_suffix(SUFFIX).exists():
            continue
        spec = importlib.util.spec_from_file_location(name, source)
        assert spec is not None and spec.loader is not None, source
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        setattr(sys.modules[package], leaf, module)
