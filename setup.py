"""The build of ``pip install .`` and of ``make setup``: the package as pyproject.toml
describes it, with the propagation engine compiled ahead of time by mypyc (the same source,
run as Python where no C compiler is at hand: see ``game/compiled.py``)."""

import hashlib
import json
import sys
from pathlib import Path

from setuptools import setup

ENGINE = ("game/bitsets.py", "solvers/propagation/model.py", "solvers/propagation/rules.py")
STAMP = Path("game/compiled-engine.json")


def engine() -> list:
    """The engine's extension modules, each optional (a failed compile leaves the Python source
    to run), and the stamp that names the source they were compiled from."""
    try:
        from mypyc.build import mypycify
        # (type errors outside the engine's own modules do not stop its build)
        modules = mypycify(["--follow-imports=silent", "--ignore-missing-imports", *ENGINE], opt_level="3",
                           group_name="solvers.engine_compiled")
    except Exception as error:  # noqa: BLE001 - no mypyc: the engine runs as Python
        print(f"the propagation engine is not compiled ({error}): it runs as Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True
    STAMP.write_text(json.dumps({path[:-3].replace("/", "."): hashlib.sha256(Path(path).read_bytes()).hexdigest()
                                 for path in ENGINE}, indent=1) + "\n")
    return modules


setup(ext_modules=engine())
