"""The installed program: `pip install .` gives a `battleships` command that finds the built-in
levels and the settings without the checkout. The install itself is slow (a fresh virtual
environment and the dependencies from the package index), so it is marked slow; the checks on
pyproject.toml that keep it right run every time."""

import shutil
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_package_depends_on_what_requirements_txt_pins():
    pinned = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert sorted(PROJECT["project"]["dependencies"]) == sorted(pinned)


def test_every_level_and_the_settings_are_package_data():
    """A file under levels/ or assets/ that no package-data pattern names would be missing
    from an install (screenshots are for the README and the guides only)."""
    data = PROJECT["tool"]["setuptools"]["package-data"]
    missing = []
    for package in ("levels", "assets"):
        for path in (ROOT / package).rglob("*"):
            relative = path.relative_to(ROOT / package).as_posix()
            if path.is_file() and not relative.startswith("screenshots/") and not any(
                    fnmatch(relative, pattern) or fnmatch(relative, pattern.replace("**/", ""))
                    for pattern in data[package]):
                missing.append(f"{package}/{relative}")
    assert missing == []
    assert PROJECT["project"]["scripts"]["battleships"] == "main:main"


@pytest.mark.slow
def test_pip_install_gives_a_battleships_command_that_works_outside_the_checkout(tmp_path):
    # install from a copy, so the build leaves nothing in the checkout
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "__pycache__", "build", "*.egg-info", "*.so",
                                                                "compiled-engine.json"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    python = bin_dir / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source)],
                   check=True, cwd=tmp_path)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    level = site / "levels" / "6x6" / "easy" / "01.bs"
    assert level.is_file() and (site / "assets" / "settings.yaml").is_file()
    command = str(bin_dir / "battleships")
    shown = subprocess.run([command, "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 0 and "convert" in shown.stdout
    checked = subprocess.run([command, "check", str(level)], capture_output=True, text=True, cwd=tmp_path)
    assert checked.returncode == 0 and "unique" in checked.stdout, checked.stderr
    # the propagation engine was compiled by the install, where a C compiler is at hand
    engine = subprocess.run([str(python), "-c", "import solvers.propagation as p; print(p.ENGINE)"],
                            capture_output=True, text=True, cwd=tmp_path).stdout.strip()
    assert engine == ("compiled" if shutil.which("cc") or shutil.which("gcc") else "python")
