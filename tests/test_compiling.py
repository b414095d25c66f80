"""Compiled code never makes a run wait, nor runs older than its source: a process that finds
numba's cache empty runs without it (the same conclusions) while one process in the background
compiles it; the engine compiled ahead of time runs only when compiled from its current source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import compiled, levels
from solvers import compiling, propagation
from solvers.engine.verdict import Kind, decide
from solvers.events import Progress, Result, Status
from solvers.search import learning, learning_core

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT / "levels"


def test_the_cache_is_read_as_holding_what_the_warm_up_compiled():
    assert compiling.cached(learning_core.search_slice)
    assert not compiling.cached(object())


def not_compiled(monkeypatch) -> list[str]:
    """A process that finds the cache empty; returns the background builds it asks for."""
    asked: list[str] = []
    monkeypatch.setattr(compiling, "_ready", {})
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: False)
    monkeypatch.setattr(compiling, "compile_in_background", asked.append)
    return asked


def test_without_compiled_clause_learning_the_portfolio_decides_by_the_forward_search(monkeypatch):
    asked = not_compiled(monkeypatch)
    monkeypatch.setattr(learning, "BUILD_WAIT", 0.3)          # a build that never lands
    puzzle = levels.load(LEVELS / "10x10/expert/01.bs")
    *beats, last = learning.events(puzzle, limit=2)
    assert beats and all(isinstance(beat, Progress) for beat in beats)
    assert isinstance(last, Result) and last.status is Status.ERROR and "compiled" in last.message
    assert decide(puzzle).kind is Kind.UNIQUE
    assert asked == ["solvers.search.learning"]


def test_a_background_build_starts_once_while_its_lock_is_fresh(monkeypatch, tmp_path):
    started: list = []
    monkeypatch.setattr(compiling.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(compiling.subprocess, "Popen", lambda *args, **kwargs: started.append(args[0]))
    assert compiling.compile_in_background("solvers.search.learning")
    assert not compiling.compile_in_background("solvers.search.learning")
    assert len(started) == 1 and started[0][-1] == "import solvers.search.learning as m; m.warm_up()"


def test_each_copy_of_the_program_builds_into_its_own_cache_whatever_another_copy_builds(monkeypatch, tmp_path):
    """numba keeps a copy's machine code beside its source: a build another install or checkout
    started fills that one's cache, not this one's, so its lock must not stop this one's build."""
    started: list = []
    monkeypatch.setattr(compiling.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(compiling.subprocess, "Popen", lambda *args, **kwargs: started.append(kwargs["cwd"]))
    monkeypatch.setattr(compiling, "ROOT", tmp_path / "another-checkout")
    assert compiling.compile_in_background("solvers.search.learning")
    monkeypatch.undo()
    monkeypatch.setattr(compiling.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(compiling.subprocess, "Popen", lambda *args, **kwargs: started.append(kwargs["cwd"]))
    assert compiling.compile_in_background("solvers.search.learning")
    assert started == [tmp_path / "another-checkout", compiling.ROOT]


def test_clause_learning_waits_with_heartbeats_for_the_build_in_the_background_then_runs(monkeypatch):
    asked = not_compiled(monkeypatch)
    polls = iter([False, False, False])
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: next(polls, True))   # the build lands
    puzzle = levels.load(LEVELS / "10x10/expert/01.bs")
    *events, last = learning.events(puzzle, limit=2)
    assert sum(isinstance(event, Progress) and "seconds" in event.stats for event in events) >= 2
    assert isinstance(last, Result) and last.status is Status.SOLVED and len(last.solutions) == 1
    assert asked == ["solvers.search.learning"]


def run(*args: str, engine: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("BATTLESHIPS_ENGINE", None)
    if engine:
        env["BATTLESHIPS_ENGINE"] = engine
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


ENGINE_OF = ("import solvers.propagation as p; from game import bitsets; from solvers.propagation import model, rules; "
             "print(p.ENGINE, *(m.__file__.endswith('.py') for m in (bitsets, model, rules)))")
compiled_here = pytest.mark.skipif(propagation.ENGINE != "compiled",
                                   reason="the engine is not compiled here (no C compiler at setup)")


@compiled_here
def test_the_engine_runs_compiled_unless_the_source_is_asked_for(tmp_path):
    assert run("-c", ENGINE_OF).stdout.split() == ["compiled", "False", "False", "False"]
    assert run("-c", ENGINE_OF, engine="python").stdout.split() == ["python", "True", "True", "True"]
    bench = ("main.py", "bench", str(LEVELS / "6x6/easy/01.bs"), "--csv", str(tmp_path / "rows.csv"))
    assert "engine: compiled (mypyc)" in run(*bench).stdout.splitlines()
    assert any(line.startswith("engine: python (") for line in run(*bench, engine="python").stdout.splitlines())


@compiled_here
def test_the_engine_is_current_only_when_compiled_from_every_module_as_it_is_now():
    library, stamp, binaries = compiled.stamp()
    assert set(stamp) == {"game.bitsets", "solvers.propagation.model", "solvers.propagation.rules"}
    assert set(binaries) == {library, *stamp}
    assert compiled.current(library, stamp, binaries)
    for name in stamp:            # as if one source changed since the build
        assert not compiled.current(library, {**stamp, name: "0" * 64}, binaries)
    for name in binaries:         # as if one compiled file changed since the build
        assert not compiled.current(library, stamp, {**binaries, name: "0" * 64})
    one = next(iter(stamp))
    assert not compiled.current(library, {**stamp, "game.puzzle": stamp[one]},                 # one not compiled
                                {**binaries, "game.puzzle": binaries[one]})
    assert not compiled.current("solvers.elsewhere__mypyc", stamp, binaries)                  # no library
    assert not compiled.current(library, {}, binaries)
    assert not compiled.current(library, stamp, {})


def test_a_damaged_compiled_file_is_not_run(tmp_path, monkeypatch):
    # A group of one module in a tree of its own: its source, its compiled file, its library.
    monkeypatch.setattr(compiled, "ROOT", tmp_path)
    (tmp_path / "pkg").mkdir()
    source, binary = tmp_path / "pkg" / "mod.py", tmp_path / "pkg" / f"mod{compiled.SUFFIX}"
    library = tmp_path / "pkg" / f"group__mypyc{compiled.SUFFIX}"
    source.write_text("X = 1\n")
    binary.write_bytes(b"\x7fELF" + bytes(range(256)) * 64)
    library.write_bytes(b"\x7fELF" + bytes(range(255, -1, -1)) * 64)
    modules = {"pkg.mod": compiled.digest_of(source)}
    binaries = {"pkg.mod": compiled.digest_of(binary), "pkg.group__mypyc": compiled.digest_of(library)}
    assert compiled.current("pkg.group__mypyc", modules, binaries)
    for damaged in (binary, library):
        kept = damaged.read_bytes()
        damaged.write_bytes(kept[:100])                    # a copy cut short: loading it would crash
        assert not compiled.current("pkg.group__mypyc", modules, binaries)
        damaged.unlink()                                   # gone
        assert not compiled.current("pkg.group__mypyc", modules, binaries)
        damaged.write_bytes(kept)
    assert compiled.current("pkg.group__mypyc", modules, binaries)


@compiled_here
@pytest.mark.parametrize("solver", ["forward", "logic"])
def test_the_compiled_engine_takes_the_steps_its_source_takes(solver):
    level = str(LEVELS / "10x10/expert/03.bs")
    compiled_run, source_run = (json.loads(run("main.py", "solve", level, "--solver", solver, "--json",
                                               engine=engine).stdout) for engine in (None, "python"))
    for stats in (compiled_run["stats"], source_run["stats"]):
        del stats["seconds"]
    assert compiled_run == source_run and compiled_run["status"] == "solved"


@pytest.mark.parametrize("text", ["", "{", "[]", '{"library": "x"}', '{"library": "x", "modules": [1]}', "\x00" * 9,
                                  '{"library": "x", "modules": {"game.bitsets": "0"}}'])
def test_a_damaged_stamp_is_read_as_nothing_compiled(text, tmp_path, monkeypatch):
    (tmp_path / "stamp.json").write_text(text)
    monkeypatch.setattr(compiled, "STAMP", tmp_path / "stamp.json")
    compiled.stamp.cache_clear()
    try:
        library, modules, binaries = compiled.stamp()
        assert modules == {} and not compiled.current(library, modules, binaries)
    finally:
        compiled.stamp.cache_clear()
