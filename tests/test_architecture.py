"""The dependency direction, read from the imports with ast (see the README's design section).

main -> game.ui -> {game.session, game.levels, solvers} -> game.{puzzle, rules}
- nothing but game/ui imports pygame;
- the core (game/, outside game/ui) never imports solvers or game.ui;
- solvers never import game.ui;
- only solvers/runner.py and game/ui start threads.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def sources(folder: str):
    return sorted((ROOT / folder).rglob("*.py"))


def is_under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_only_the_window_imports_pygame():
    offenders = [str(p.relative_to(ROOT)) for folder in ("game", "solvers") for p in sources(folder)
                 if "ui" not in p.relative_to(ROOT).parts and any(is_under(m, "pygame") for m in imports_of(p))]
    offenders += [str(p) for p in [ROOT / "main.py"] if any(is_under(m, "pygame") for m in imports_of(p))]
    assert offenders == []


def test_core_never_imports_solvers_or_the_window():
    for path in sources("game"):
        if "ui" in path.relative_to(ROOT).parts:
            continue
        bad = [m for m in imports_of(path) if is_under(m, "solvers") or is_under(m, "game.ui")]
        assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


def test_solvers_never_import_the_window():
    for path in sources("solvers"):
        bad = [m for m in imports_of(path) if is_under(m, "game.ui") or is_under(m, "game.session")]
        assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


def test_threads_only_in_the_runner_and_the_window():
    allowed = {ROOT / "solvers" / "runner.py"}
    for folder in ("game", "solvers"):
        for path in sources(folder):
            if path in allowed or "ui" in path.relative_to(ROOT).parts:
                continue
            bad = [m for m in imports_of(path) if m in ("threading", "_thread", "concurrent.futures")]
            assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"
