"""The layers run one way, read from the imports with ast (see docs/ARCHITECTURE.md).

    main.py  ->  window/  ->  solvers/  ->  game/

Inside solvers: the base modules (events, contract, common, compiling) <- the rules as
propagators (propagation) <- the solvers (search, logic, genetic) <- engine <- authoring. No
file imports one that imports it back, no package imports a layer above it, only the window
imports pygame, only solvers/engine/runner.py and the window start threads, and no solver
reads the player's settings or sniffs signatures.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Lower layers first; a module may import only from its own layer or those before it.
LAYERS = [
    ["game"],
    ["solvers.events", "solvers.contract", "solvers.common", "solvers.compiling"],
    ["solvers.propagation"],
    ["solvers.search", "solvers.logic", "solvers.genetic"],
    ["solvers.engine", "solvers.own"],
    ["solvers.authoring"],
    ["window"],
    ["main"],
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {module_name(p): p for folder in ("game", "solvers", "window") for p in (ROOT / folder).rglob("*.py")}
    found["main"] = ROOT / "main.py"
    return found


def imports_of(path: Path) -> set[str]:
    """Every module named by an import, at the top or inside a function (relative ones resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def layer_of(name: str) -> int | None:
    if name == "solvers":
        return 1                        # the package's docstring only
    best = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if name == prefix or name.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return None if best is None else best[0]


def project_imports() -> dict[str, set[str]]:
    modules = project_modules()
    graph = {}
    for name, path in modules.items():
        targets = set()
        for imported in imports_of(path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def test_every_module_belongs_to_a_layer():
    assert [name for name in project_modules() if layer_of(name) is None] == []


def test_no_module_imports_a_layer_above_its_own():
    upward = [(name, target) for name, targets in project_imports().items() for target in targets
              if layer_of(target) > layer_of(name)]
    assert upward == []


def test_no_two_files_import_each_other():
    graph = project_imports()
    seen: dict[str, int] = {}
    cycles = []

    def visit(node: str, stack: list[str]) -> None:
        seen[node] = 1
        stack.append(node)
        for target in graph[node]:
            if seen.get(target) == 1:
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in seen:
                visit(target, stack)
        stack.pop()
        seen[node] = 2

    for node in sorted(graph):
        if node not in seen:
            visit(node, [])
    assert cycles == []


def test_only_the_window_imports_pygame():
    offenders = [name for name, path in project_modules().items()
                 if not name.startswith("window") and any(m.split(".")[0] == "pygame" for m in imports_of(path))]
    assert offenders == []


def test_threads_only_in_the_runner_and_the_window():
    offenders = [name for name, path in project_modules().items()
                 if not name.startswith("window") and name != "solvers.engine.runner"
                 and imports_of(path) & {"threading", "_thread", "concurrent.futures"}]
    assert offenders == []


def test_solvers_read_no_settings_and_sniff_no_signatures():
    for name, path in project_modules().items():
        if not name.startswith("solvers"):
            continue
        text = path.read_text(encoding="utf-8")
        assert not {m.split(".")[0] for m in imports_of(path)} & {"yaml", "inspect"}, name
        assert "settings" not in " ".join(imports_of(path)), name
        assert "signature(" not in text, name
