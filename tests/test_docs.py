"""The user documentation holds together: README.md is a front page of at most 12,000 bytes,
every relative link in it, in docs/ARCHITECTURE.md, levels/README.md and docs/guide/*.md reaches a file (and a
heading, for a link with #anchor), every guide page is listed in the README's Guides index,
every `python main.py ...` line they show names a real command, its flags and files that exist,
and every file, module and name of the code they name in `code` exists."""

import argparse
import ast
import importlib
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
PAGES = [README, ROOT / "docs" / "ARCHITECTURE.md", ROOT / "levels" / "README.md", *sorted(GUIDE.glob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def links(page: Path) -> list[str]:
    """The targets of the page's Markdown links and images, outside code blocks."""
    return LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8")))


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for the page's headings: lower case, punctuation dropped, spaces to -."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def broken(page: Path, root: Path = ROOT) -> list[str]:
    """One line per link of the page that reaches no file, or no heading of the file."""
    problems = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            problems.append(f"{page.relative_to(root)}: {target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{page.relative_to(root)}: {target} (no such heading)")
    return problems


def test_the_readme_is_a_front_page_of_at_most_12_kb():
    assert README.stat().st_size <= 12_000


def test_every_relative_link_reaches_a_file_and_heading():
    assert len(PAGES) > 1
    assert [problem for page in PAGES for problem in broken(page)] == []


def test_the_link_check_finds_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [gone](missing.md) ![img](x.png) [bad](#nowhere)\n"
                    "```\n[in code](not-checked.md)\n```\n", encoding="utf-8")
    assert broken(page, tmp_path) == ["page.md: missing.md (no such file)", "page.md: x.png (no such file)",
                                      "page.md: #nowhere (no such heading)"]


def test_every_guide_page_is_in_the_readme_index():
    index = README.read_text(encoding="utf-8").split("## Guides", 1)[1]
    listed = {Path(target).name for target in links(README) if target.startswith("docs/guide/")
              and target in index}
    assert sorted(page.name for page in GUIDE.glob("*.md") if page.name not in listed) == []


def test_the_package_description_is_the_readme():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["readme"] == "README.md"
    assert README.read_text(encoding="utf-8").startswith("# Battleship Solitaire\n")


def test_the_command_line_page_names_every_command_and_flag():
    """docs/guide/command-line.md shows each command with every flag its --help lists."""
    import argparse

    import main

    text = (GUIDE / "command-line.md").read_text(encoding="utf-8")
    commands = next(a for a in main.parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert sorted(commands) == sorted(main.COMMANDS)
    missing = []
    for name, sub in commands.items():
        if f"python main.py {name}" not in text and f"python main.py [{name}]" not in text:
            missing.append(name)
        for action in sub._actions:
            flags = [flag for flag in action.option_strings if flag not in ("-h", "--help")]
            if flags and not any(re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text) for flag in flags):
                missing.append(f"{name}: {flags[-1]}")
    assert missing == []


COMMAND = re.compile(r"(?:python main\.py|battleships)\s+(.*)")
REPO_PATH = re.compile(r"(?:game|solvers|window|tests|docs|levels|assets)/[\w./-]*")
SPAN = re.compile(r"`([^`\n]+)`")
MISTYPED = {"sovle"}  # playing.md shows what a mistyped command gets


def subcommands() -> dict[str, argparse.ArgumentParser]:
    import main

    return next(a for a in main.parser()._actions if isinstance(a, argparse._SubParsersAction)).choices


def shown_commands(page: Path) -> list[str]:
    """What follows `python main.py` (or `battleships`) on each line of the page's code blocks
    (up to a # comment) and in its `code` spans."""
    text = page.read_text(encoding="utf-8")
    lines = [re.sub(r"\s+#\s.*$", "", line) for block in FENCE.findall(text) for line in block.splitlines()]
    lines += SPAN.findall(FENCE.sub("", text))
    return [found.strip() for line in lines for found in COMMAND.findall(line)]


def command_problems(page: Path, root: Path = ROOT) -> list[str]:
    """One line per command shown that does not exist, flag its command does not take, or file of
    the repository that is not there. LEVEL, COMMAND, [play] and --help are placeholders."""
    commands, problems = subcommands(), []
    for line in shown_commands(page):
        words = line.split()
        if not words or not re.fullmatch(r"[a-z][a-z-]*", words[0]) or words[0] in MISTYPED:
            continue
        name = words[0]
        if name not in commands:
            problems.append(f"{page.relative_to(root)}: python main.py {name}: no such command")
            continue
        flags = {flag for action in commands[name]._actions for flag in action.option_strings}
        for word in (word.strip("'\"[]|,()") for word in words[1:]):
            if re.fullmatch(r"--?[a-z][\w-]*", word) and word not in flags:
                problems.append(f"{page.relative_to(root)}: python main.py {name}: no flag {word}")
            elif REPO_PATH.fullmatch(word) and not (ROOT / word).exists():
                problems.append(f"{page.relative_to(root)}: python main.py {name}: no file {word}")
    return problems


def resolves(dotted: str) -> bool:
    """Whether `game.files.slug` (a module, then attributes) names something that exists."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for part in parts[cut:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return False


def defined(path: Path) -> set[str]:
    """The classes, functions and variables a module defines, at any depth."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        for target in getattr(node, "targets", [getattr(node, "target", None)]):
            if isinstance(target, ast.Name):
                names.add(target.id)
    return names


def name_problems(page: Path, root: Path = ROOT) -> list[str]:
    """One line per `path/of/a/file` or `module.name` of the repository that the page names in
    code and that is not there, and per `name` in the parentheses after `path/module.py` that
    the module does not define."""
    text, problems = FENCE.sub("", page.read_text(encoding="utf-8")), []
    for span in SPAN.findall(text):
        if REPO_PATH.fullmatch(span) and not (ROOT / span).exists():
            problems.append(f"{page.relative_to(root)}: {span} (no such file)")
        elif re.fullmatch(r"(?:game|solvers|window)(?:\.\w+)+", span) and not resolves(span):
            problems.append(f"{page.relative_to(root)}: {span} (no such module or name)")
    for path, inside in re.findall(r"`((?:game|solvers|window)/[\w/]+\.py)` \(((?:[^()]|\([^()]*\))*)\)", text):
        names = defined(ROOT / path) if (ROOT / path).is_file() else set()
        for name in re.findall(r"`([A-Za-z_]\w*)(?:\.\w+)?(?:\(\))?`", inside):
            if name not in names:
                problems.append(f"{page.relative_to(root)}: {name} (not in {path})")
    return problems


def test_every_command_shown_is_a_command_with_its_flags_and_files():
    assert sum(len(shown_commands(page)) for page in PAGES) > 50
    assert [problem for page in PAGES for problem in command_problems(page)] == []


def test_every_file_module_and_name_in_code_exists():
    assert [problem for page in PAGES for problem in name_problems(page)] == []


def test_the_command_and_name_checks_find_what_is_gone(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Run `python main.py solve levels/6x6/easy/01.bs --trace RUN.jsonl`, "
                    "`python main.py sovle`, `python main.py LEVEL`.\n\n"
                    "```\npython main.py slove LEVEL      # a comment --not-a-flag\n"
                    "python main.py check levels/nowhere.bs --jobs 2 --fast\n```\n"
                    "`solvers/gone.py`, `game/rules.py`, `game.rules.judge`, `game.rules.jduge`, "
                    "`solvers.generator.build_pack`, `game/files.py` (`slug`, `Output.check`, `sluggish`).\n",
                    encoding="utf-8")
    assert command_problems(page, tmp_path) == [
        "page.md: python main.py slove: no such command",
        "page.md: python main.py check: no file levels/nowhere.bs",
        "page.md: python main.py check: no flag --fast"]
    assert name_problems(page, tmp_path) == [
        "page.md: solvers/gone.py (no such file)", "page.md: game.rules.jduge (no such module or name)",
        "page.md: solvers.generator.build_pack (no such module or name)",
        "page.md: sluggish (not in game/files.py)"]
