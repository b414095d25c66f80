"""Solvers of your own as ``SolverSpec`` values, named the way the command line names them.

- ``path/to/mine.py``: a Python file with ``solve(puzzle, report, options)`` (``child``). Its
  options are declared by a literal ``OPTIONS = {"name": default, ...}`` (the type is the
  default's: bool, int or float) and its label by ``LABEL = "..."``; both are read from the
  source without running it, so listing solvers never runs a student's code.
- ``cmd:PROGRAM ARGS...``: any program, split as a shell splits words (no shell runs it).
- an entry point of the group ``battleships.solvers`` in an installed package, whose value
  names a module with ``solve`` (e.g. ``mine = my_package.solver``).

Every one of them also takes the limits of ``LIMITS`` as options, and runs through
``solvers.own.process``.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shlex
import shutil
import stat
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Mapping

from game.files import reason, shown
from game.levels import short_repr
from game.puzzle import Puzzle
from solvers.contract import Option, SolverSpec
from solvers.events import Stream

GROUP = "battleships.solvers"
COMMAND_PREFIX = "cmd:"
LIMITS = (
    Option("time_limit", float, 60.0, 0.1, 86400.0, "seconds of wall time before the run is stopped"),
    Option("memory_mb", int, 1024, 16, 1 << 20, "address space of the solver's process (RLIMIT_AS), in MB"),
    Option("output_mb", int, 512, 1, 1 << 20, "output the solver may write, in MB"),
)
MAX_SOURCE_BYTES = 1 << 20
PAST_TIMEOUT = 1.0       # seconds a solver's own time limit runs past the timeout its caller gives


def within(spec: SolverSpec, timeout: float | None) -> dict[str, float]:
    """The options a solver runs with when its caller gives it ``timeout`` seconds (``solve``,
    ``race``, ``bench --timeout``): a solver of one's own gets a ``time_limit`` a second past
    it, so the caller's timeout is the one that ends it (its default of 60 s would end a run
    given more); the others, and a run without a timeout, get none."""
    if timeout is None or not any(option.name == "time_limit" for option in spec.options):
        return {}
    limit = next(option for option in LIMITS if option.name == "time_limit")
    assert limit.low is not None and limit.high is not None
    return {"time_limit": min(limit.high, max(limit.low, timeout + PAST_TIMEOUT))}


@dataclass(frozen=True)
class ExternalSpec(SolverSpec):
    """A solver of your own: ``kind`` is ``file``, ``module`` or ``exec``; ``target`` the file,
    module or program; ``args`` the program's arguments."""

    kind: str = "file"
    target: str = ""
    args: tuple[str, ...] = ()

    def events(self, puzzle: Puzzle, *, trace: bool = True, seed: int = 0, limit: int = 1,
               options: Mapping[str, Any] | None = None) -> Stream:
        """Started as every solver is; a solver of one's own always reports its moves and gives one
        answer, so ``trace`` and ``limit`` are not passed on."""
        chosen = self.resolve(options)
        limits = {option.name: chosen.pop(option.name) for option in LIMITS}
        return self.function(puzzle, name=self.name, kind=self.kind, target=self.target, args=self.args,
                             options=chosen, seed=seed, **limits)


def is_own(name: str) -> bool:
    """Whether ``name`` names a solver of one's own by path or command (not by a registered name)."""
    return name.startswith(COMMAND_PREFIX) or name.endswith(".py")


def files_of(name: str) -> list[str]:
    """The files a solver of one's own named ``name`` is read from: ``mine.py``, or each word of
    ``cmd:PROGRAM ARGS`` (its program, a script it is given); what an output must never replace."""
    if name.startswith(COMMAND_PREFIX):
        try:
            return shlex.split(name[len(COMMAND_PREFIX):])
        except ValueError:
            return []
    return [name] if name.endswith(".py") else []


def from_name(name: str) -> ExternalSpec:
    """The spec of ``path.py`` or ``cmd:PROGRAM ARGS``; ``ValueError`` with one line if it cannot be."""
    if "\0" in name:
        raise ValueError(f"solver {name!r}: a file or program name cannot hold a NUL character")
    if name.startswith(COMMAND_PREFIX):
        try:
            words = shlex.split(name[len(COMMAND_PREFIX):])
        except ValueError as error:
            raise ValueError(f"solver {name!r}: {error}") from None
        if not words:
            raise ValueError(f"solver {name!r}: give a program after {COMMAND_PREFIX!r}")
        _found_program(name, words[0])
        declared = {"SUMMARY": "a program of your own"}          # a program declares nothing
        return _spec(name, declared, Path(words[0]).name, "exec", words[0], tuple(words[1:]))
    path = Path(name)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"solver {shown(name)}: not a file")
        with open(path, "rb") as handle:            # a regular file: reading it cannot wait
            source = handle.read(MAX_SOURCE_BYTES)
    except FileNotFoundError:
        raise ValueError(f"solver {shown(name)}: no such file") from None
    except OSError as error:                        # a name too long, a folder that is a file...
        raise ValueError(f"solver {shown(name)}: cannot be read ({reason(error)})") from None
    return _spec(name, declarations(source, name), path.stem, "file", str(path.resolve()))


def _found_program(name: str, program: str) -> None:
    """``ValueError`` with one line unless ``program`` names a program that can be run: a path
    to an executable file, or a name the ``PATH`` finds (as a shell would look it up)."""
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.isfile(program):
            raise ValueError(f"solver {short_repr(name)}: no program at {short_repr(program)}")
        if not os.access(program, os.X_OK):
            raise ValueError(f"solver {short_repr(name)}: {short_repr(program)} is not executable")
    elif shutil.which(program) is None:
        raise ValueError(f"solver {short_repr(name)}: no program {short_repr(program)} on the PATH")


def _spec(name: str, declared: Mapping[str, Any], label: str, kind: str, target: str,
          args: tuple[str, ...] = ()) -> ExternalSpec:
    """The spec of a solver of one's own from what its source declares (see :func:`declarations`)."""
    options = []
    for key, default in declared.get("OPTIONS", {}).items():
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"solver {shown(name)}: option name {key!r} is not a name")
        if key in {o.name for o in LIMITS}:
            raise ValueError(f"solver {shown(name)}: option {key!r} is one of the limits every solver takes")
        if type(default) not in (bool, int, float):
            raise ValueError(f"solver {shown(name)}: option {key!r} must default to true/false or a number")
        options.append(Option(key, type(default), default))
    return ExternalSpec(name=name, label=str(declared.get("LABEL", label))[:40], entry="solvers.own.process:events",
                        summary=str(declared.get("SUMMARY") or "a solver of your own")[:200], complete=False,
                        explains=False, options=(*options, *LIMITS), kind=kind, target=target, args=args)


def declarations(source: bytes, name: str) -> dict:
    """``LABEL``, ``SUMMARY`` (the module's docstring's first line) and ``OPTIONS`` of a
    solver's source, read as literals; the code is never run."""
    try:
        tree = ast.parse(source, filename=name)
    except (SyntaxError, ValueError) as error:
        lineno = getattr(error, "lineno", None)
        line = f" (line {lineno})" if lineno else ""
        raise ValueError(f"solver {shown(name)}: is not valid Python{line}: {getattr(error, 'msg', error)}") from None
    found: dict = {}
    doc = ast.get_docstring(tree)
    if doc:
        found["SUMMARY"] = doc.strip().splitlines()[0]
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            key = node.targets[0].id
            if key in ("LABEL", "OPTIONS"):
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    raise ValueError(f"solver {shown(name)}: {key} must be written as a plain value "
                                     f"(line {node.lineno})") from None
                if (key == "OPTIONS") != isinstance(value, dict) or (key == "LABEL" and not isinstance(value, str)):
                    raise ValueError(f"solver {shown(name)}: {key} must be {'a dict' if key == 'OPTIONS' else 'text'}")
                found[key] = value
    return found


@lru_cache(maxsize=1)
def installed() -> dict[str, ExternalSpec]:
    """The solvers installed packages declare in the entry-point group ``battleships.solvers``
    (a broken one is left out: ``problems`` says why)."""
    found = {}
    for point in _entry_points():
        try:
            found[point.name] = _installed(point)
        except ValueError:
            continue
    return found


def problems() -> list[str]:
    """Why each installed solver that is left out is left out."""
    lines = []
    for point in _entry_points():
        try:
            _installed(point)
        except ValueError as error:
            lines.append(str(error))
    return lines


def _entry_points() -> list:
    try:
        return sorted(metadata.entry_points(group=GROUP), key=lambda p: p.name)
    except Exception:  # noqa: BLE001 - a broken installed package must not break the listing
        return []


def _installed(point) -> ExternalSpec:
    module = point.value.partition(":")[0].strip()
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as error:
        raise ValueError(f"installed solver {point.name}: {module} cannot be found ({error})") from None
    if found is None or not found.origin or not Path(found.origin).is_file():
        raise ValueError(f"installed solver {point.name}: {module} cannot be found")
    spec = _spec(point.name, declarations(Path(found.origin).read_bytes()[:MAX_SOURCE_BYTES], point.name), point.name,
                 "module", module)
    return replace(spec, summary=f"{spec.summary} (installed: {module})"[:200])


def pickable(path: Path) -> bool:
    """Whether a file picker offers ``path`` as a solver: a Python file or a program."""
    return path.suffix == ".py" or (path.is_file() and os.access(path, os.X_OK))


def command_name(path: Path) -> str:
    """The solver's name for a picked file: the path of a ``.py`` file, ``cmd:PATH`` for a program."""
    return str(path) if path.suffix == ".py" else COMMAND_PREFIX + shlex.quote(str(path))
