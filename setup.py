"""The build of ``pip install .`` and of ``make setup``: the package as pyproject.toml
describes it, with the propagation engine compiled ahead of time by mypyc (the same source,
run as Python where no C compiler is at hand: see ``game/compiled.py``)."""

import hashlib
import json
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ENGINE = ("game/bitsets.py", "solvers/propagation/model.py", "solvers/propagation/rules.py")
GROUP = "solvers.engine_compiled"           # its library, which every module of the group needs
STAMP = "game/compiled-engine.json"


class BuildEngine(build_ext):
    """``build_ext``, then the stamp naming the source of what it compiled and the digest of
    each file it wrote: none unless every module of the group was compiled by this very build."""

    def run(self) -> None:
        stamp = Path(STAMP) if self.inplace else Path(self.build_lib, STAMP)
        stamp.unlink(missing_ok=True)
        built = [Path(self.get_ext_fullpath(ext.name)) for ext in self.extensions]
        for path in built:
            path.unlink(missing_ok=True)
        super().run()
        if built and all(path.exists() for path in built):
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(json.dumps({
                "library": f"{GROUP}__mypyc",
                "modules": {path[:-3].replace("/", "."): digest(Path(path)) for path in ENGINE},
                "binaries": {ext.name: digest(path) for ext, path in zip(self.extensions, built)},
            }, indent=1) + "\n")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def engine() -> list:
    """The engine's extension modules, each optional: a failed compile leaves the source to run."""
    try:
        from mypyc.build import mypycify
        # (type errors outside the engine's own modules do not stop its build)
        modules = mypycify(["--follow-imports=silent", "--ignore-missing-imports", *ENGINE], opt_level="3",
                           group_name=GROUP)
    except Exception as error:  # noqa: BLE001 - no mypyc: the engine runs as Python
        print(f"the propagation engine is not compiled ({error}): it runs as Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True
    return modules


setup(ext_modules=engine(), cmdclass={"build_ext": BuildEngine})
