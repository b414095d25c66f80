"""The engine compiled ahead of time: whether it may run, and its source in its place when not.

``setup.py`` (``pip install .``, ``make setup``) compiles the modules of the propagation engine
with mypyc, from their one Python source, into one group whose modules call each other
natively through a library of the group's own. It leaves a stamp naming the library, each
module with a digest of the source it was compiled from, and a digest of each file it wrote.
The group runs compiled only when its library and every module are there as the build wrote
them, each compiled from its source as it is now (and ``BATTLESHIPS_ENGINE=python`` does not
ask for the source): a process never runs code older than its source, nor loads a damaged
library (a truncated one would crash it), and a machine without a C compiler runs the same
rules as Python. Each package of the group calls :func:`use_source` first thing, before its
modules are imported.
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
# {"library": name, "modules": {name: sha256 of its source}, "binaries": {name: sha256 of its compiled file}}
STAMP = ROOT / "game" / "compiled-engine.json"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def source_of(name: str) -> Path:
    return (ROOT / name.replace(".", "/")).with_suffix(".py")


def current(library: str, modules: dict[str, str], binaries: dict[str, str]) -> bool:
    """Whether the group's ``library`` and every one of its ``modules`` is compiled, each from
    its source as it is now (``modules``: name -> digest of the source compiled), and each
    compiled file is as the build wrote it (``binaries``: name -> its digest, the library's too)."""
    return (bool(modules) and set(binaries) == {library, *modules}
            and all(digest_of(source_of(name)) == digest for name, digest in modules.items())
            and all(digest_of(source_of(name).with_suffix(SUFFIX)) == digest for name, digest in binaries.items()))


def digest_of(path: Path) -> str:
    """The sha256 of the file's bytes ("" when it cannot be read)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


@cache
def stamp() -> tuple[str, dict[str, str], dict[str, str]]:
    """The stamp's library, modules and binaries (none without a stamp: nothing was compiled)."""
    try:
        found = json.loads(STAMP.read_text())
        return (str(found["library"]), {str(name): str(digest) for name, digest in found["modules"].items()},
                {str(name): str(digest) for name, digest in found["binaries"].items()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return "", {}, {}


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
