"""The user documentation holds together: README.md is a front page of at most 12,000 bytes,
every relative link in it and in docs/guide/*.md reaches a file (and a heading, for a link
with #anchor), and every guide page is listed in the README's Guides index."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
PAGES = [README, *sorted(GUIDE.glob("*.md"))]

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
