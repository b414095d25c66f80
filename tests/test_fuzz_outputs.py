"""Fuzzing the output places: every command that writes a file, pointed at every kind of place.

Each case runs ``main.py`` in a process of its own with the output at one kind of place (a
FIFO nobody reads, symbolic links to a file, to a FIFO, to nowhere and to themselves, a
folder, a read-only place, a path through a file, a missing folder, a device like
``/dev/null`` and like ``/dev/full`` (as root, nodes of the test's own), a full disk (a
file-size limit), a 245-character name, a hard-linked file, an old file) and checks what
the bad-output rules promise: exit 0 or 2 and never a traceback; on failure one line naming
the path; the node at the path keeps its kind (a link stays a
link, a FIFO a FIFO); a failed write leaves the old content; no temporary file is left.
The default run tries one command on every kind of place; ``pytest -m slow`` tries every
command on every kind and prints the figures (cases, failures, peak memory of a case).
"""

import os
import random
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from game import files, levels
from solvers.engine import trace
from tests.test_outputs import device, read_only

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"
OLD = b"an old file that must survive\n" * 4
PLACES = ("fifo", "link-to-file", "link-to-fifo", "dangling-link", "link-loop", "folder", "read-only",
          "through-a-file", "missing-folder", "dev-null", "dev-full", "full-disk", "long-name",
          "hard-link", "old-file")


def commands(trace_file: Path) -> dict:
    return {
        "convert": lambda out: ["convert", LEVEL, out, "--to", "bs"],
        "generate": lambda out: ["generate", "--rows", "6", "-o", out],
        "solve-trace": lambda out: ["solve", LEVEL, "--trace", out],
        "print-pdf": lambda out: ["print", LEVEL, "-o", out],
        "print-png": lambda out: ["print", LEVEL, "-o", out],
        "race-csv": lambda out: ["race", LEVEL, "--solvers", "forward", "--csv", out],
        "bench-csv": lambda out: ["bench", LEVEL, "--csv", out],
        "replay-gif": lambda out: ["replay", trace_file, "--gif", out],
        "replay-screenshot": lambda out: ["replay", trace_file, "--screenshot", out],
    }


SUFFIX = {"convert": ".bs", "generate": ".bs", "solve-trace": ".jsonl", "print-pdf": ".pdf", "print-png": ".png",
          "race-csv": ".csv", "bench-csv": ".csv", "replay-gif": ".gif", "replay-screenshot": ".png"}


# Names no output should be refused for, nor shown raw (the command line's fuzz draws them too).
CONTROL_NAMES = ["a\nb", "new\r\nline", "esc\x1b[31mred", "bell\x07", "tab\tname", "del\x7f", "c1\x85nel",
                 "sep\u2028line", "bidi\u202egnp.sb", "-dash", " space ", "\udcff\udcfe"]


def place(kind: str, folder: Path, suffix: str, the_input: Path | None = None) -> tuple[Path, int | None]:
    """The output path of one kind (made in ``folder``), and a file-size limit (full disk).
    ``the_input``: the file the command reads (kind ``the-input``)."""
    out = folder / f"out{suffix}"
    limit = None
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "link-to-file":
        (folder / "real").write_bytes(OLD)
        out.symlink_to("real")
    elif kind == "link-to-fifo":
        os.mkfifo(folder / "pipe")
        out.symlink_to("pipe")
    elif kind == "link-to-folder":
        (folder / "adir").mkdir()
        out.symlink_to("adir")
    elif kind == "dangling-link":
        out.symlink_to("nowhere" + suffix)
    elif kind == "link-loop":
        out.symlink_to(out.name)
    elif kind == "folder":
        out.mkdir()
    elif kind == "read-only":
        out = read_only(folder) / f"out{suffix}"
    elif kind == "through-a-file":
        (folder / "afile").write_bytes(OLD)
        out = folder / "afile" / f"out{suffix}"
    elif kind == "missing-folder":
        out = folder / "no" / "such" / f"out{suffix}"
    elif kind in ("dev-null", "dev-full"):
        out = device(folder, kind[4:])
    elif kind == "full-disk":
        out.write_bytes(OLD)
        limit = len(OLD) + 8
    elif kind == "long-name":
        out = folder / ("n" * (245 - len(suffix)) + suffix)
    elif kind == "longest-name":                # the most a name may have: no room for a temporary beside it
        out = folder / ("n" * (255 - len(suffix)) + suffix)
    elif kind == "huge-name":
        out = folder / ("h" * 100_000 + suffix)
    elif kind == "control-name":
        out = folder / (random.Random(str(folder)).choice(CONTROL_NAMES[:-1]).replace("\x00", "") + suffix)
    elif kind == "bytes-name":
        out = Path(os.fsdecode(os.fsencode(str(folder)) + b"/\xff\xfe" + suffix.encode()))
    elif kind == "the-input":
        assert the_input is not None
        out = the_input
    elif kind == "hard-link":
        out.write_bytes(OLD)
        os.link(out, folder / "other-name")
    elif kind == "old-file":
        out.write_bytes(OLD)
    return out, limit


def snapshot(path: Path):
    """What a path is: the kind of node, a link's text, a regular file's content."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISREG(info.st_mode):
        return ("file", path.read_bytes())
    return (stat.S_IFMT(info.st_mode),)


def run_case(command: str, kind: str, folder: Path, trace_file: Path) -> list[str]:
    """The problems of one case (empty when every promise holds)."""
    out, limit = place(kind, folder, SUFFIX[command])
    argv = [str(a) for a in commands(trace_file)[command](out)]
    before = snapshot(out)

    def fsize():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), *argv], capture_output=True, text=True,
                          timeout=180, preexec_fn=fsize, cwd=folder,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    problems = []
    if done.returncode not in (0, 2):
        problems.append(f"exit {done.returncode}")
    if "Traceback" in done.stderr or "Error:" in done.stderr:
        problems.append("a traceback: " + done.stderr[-300:])
    after = snapshot(out)
    if done.returncode == 2:
        last = (done.stderr.strip().splitlines() or [""])[-1]
        if "cannot be written" not in last and str(out) not in last:
            problems.append(f"no line saying why: {done.stderr[-200:]!r}")
        if before is not None and after != before:
            problems.append(f"the old {before[0]} changed on a failed write")
    if before is not None and before[0] != "file" and (after is None or after[0] != before[0]):
        problems.append(f"a {before[0]} was replaced by {after}")
    if before is not None and before[0] == "link" and after != before:
        problems.append("the link changed")
    left = [p.name for p in folder.rglob(f"{files.TEMP_PREFIX}*") if p.name.endswith(files.TEMP_SUFFIX)]
    if left:
        problems.append(f"temporary files left: {left}")
    if kind in ("dev-null", "dev-full") and not stat.S_ISCHR(os.lstat(out).st_mode):
        problems.append(f"{out} is no longer a device")
    return [f"{command} at {kind}: {problem}" for problem in problems]


@pytest.fixture(scope="module")
def trace_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("trace") / "run.jsonl"
    trace.record_run(levels.load(LEVEL), "forward", path)
    return path


def campaign(names, tmp_path, trace_file) -> tuple[int, list[str]]:
    failures: list[str] = []
    cases = 0
    for command in names:
        for kind in PLACES:
            folder = tmp_path / f"{command}-{kind}"
            folder.mkdir()
            cases += 1
            failures += run_case(command, kind, folder, trace_file)
            if (folder / "ro").exists():
                (folder / "ro").chmod(0o700)
    return cases, failures


def test_every_kind_of_place_for_convert(tmp_path, trace_file):
    cases, failures = campaign(["convert"], tmp_path, trace_file)
    assert cases == len(PLACES) and failures == []


@pytest.mark.slow
def test_every_command_at_every_kind_of_place(tmp_path, trace_file):
    cases, failures = campaign(list(SUFFIX), tmp_path, trace_file)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"\noutput places: {cases} cases, {len(failures)} failures, peak memory of a case {peak} MB")
    assert failures == []
