"""Fuzzing the whole command line: invocations drawn at random, each run as a process of its own.

A seeded generator draws invocations of every command: hostile flag values (negative, NaN,
infinite, huge, non-ASCII digits), hostile ``--fleet`` JSON, options that contradict, batches
with one bad level among good ones, names with control characters or bytes that are not UTF-8,
output flags aimed at every kind of place that is not ours (a device, a FIFO, links to a file,
a folder and nowhere, a folder, another command's input, a name of 100,000 characters, a full
disk), and odd environments (no HOME, an unwritable one, a read-only working folder). Each runs
with a time limit and a memory cap (RLIMIT_AS), and every run is held to the contract of the
command line:

- the exit status is 0, 1 or 2 (docs/guide/command-line.md), never a traceback;
- exit 2 says why in one line per bad input, naming it, and never a control character that
  would break the line or drive the terminal;
- what is not the program's is never replaced: a device stays a device, a link keeps its text
  and its target its content, a FIFO stays a FIFO, and an old file is as it was after a failed
  write; no temporary file is left; nothing outside the run's folder changes.

Ctrl-C is tried apart: each long command gets SIGINT after 0.3 to 2 s and must end within a
second, exit 130, print ``interrupted`` and leave an old output file as it was.

The default run draws ``QUICK`` invocations (about half a minute on two cores);
``pytest -m slow`` runs the campaign and prints its figures.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game import files, levels
from solvers.engine import trace
from tests.test_fuzz_outputs import CONTROL_NAMES, OLD, place
from tests.test_outputs import read_only

ROOT = Path(__file__).resolve().parents[1]
MAIN = ROOT / "main.py"
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"
MEMORY_CAP = 3 << 30                    # RLIMIT_AS of each run: far above any command's 1 GB
RUN_SECONDS = 60                        # a run still going after this is a hang
QUICK, CAMPAIGN = 35, 1000


# ----------------------------------------------------------------- values

NUMBERS = ["0", "1", "2", "-1", "-0", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e400",
           "1e-400", "1e-320", "0.5", "2.5", "1e3", "1_000", "0x10", "+3", " 3", "3 ", "", " ", "x", "--",
           "9" * 13, "9" * 30, "9" * 100_000, "1" + "0" * 12, "\u0663", "\uff15", "5\n", "1e6",
           "1000001", "999999999999", "-9" * 3, "\udcff", "1\udcff"]
SMALL_VALID = ["0", "0.2", "1", "2"]


def numbers(rng: random.Random, valid: list[str]) -> str:
    return rng.choice(valid if rng.random() < 0.3 else NUMBERS)


def fleet_text(rng: random.Random) -> str:
    """A ``--fleet`` value: valid, nearly valid or hostile JSON."""
    kind = rng.randrange(14)
    if kind == 0:
        return "[" * rng.choice([33, 1000, 100_000])
    if kind == 1:
        return '{"1":' * rng.choice([31, 32, 33, 5000]) + "1" + "}" * 10
    if kind == 2:
        return json.dumps({str(rng.randint(1, 4)): rng.choice([10 ** 12, 10 ** 13, 2 ** 63, 200, 201, 10 ** 100])})
    if kind == 3:
        return rng.choice(['{"1": 1.0}', '{"1": 1.5}', '{"1": 1e2}', '{"1": -0.0}', '{"1": NaN}', '{"1": Infinity}',
                           '{"1": 1e999}', '{"1": -1}'])
    if kind == 4:
        return rng.choice(['{"1": "2"}', '{"a": 1}', '{"": 1}', '{" 1": 1}', '{"01": 1}', '{"1.0": 1}',
                           '{"\u0663": 1}', '{"1e1": 1}', '{"1": null}', '{"1": true}', '{"1": [1]}',
                           '{"1": {"1": 1}}', '{"\\u0000": 1}', '{"\\ud800": 1}'])
    if kind == 5:
        return rng.choice(["", " ", "null", "1", '"x"', "[]", "{}", "{", "}", '{"1":1,}', "{'1': 1}",
                           '{"1":1} {"2":1}', "\ufeff{\"1\": 1}", '{"1":1,"1":2}', "x" * 100_000])
    if kind == 6:
        return json.dumps({str(n): 1 for n in range(1, rng.choice([11, 12, 100]))})
    if kind == 7:
        return json.dumps({"1": 0, "2": 0})
    if kind == 8:
        return json.dumps({"1": rng.randint(1, 30)})
    if kind == 9:
        return json.dumps({"10": rng.randint(1, 3), "1": rng.randint(0, 5)})
    if kind == 10:
        return '{"1": ' + "1" * rng.choice([12, 13, 5000]) + "}"
    if kind == 11:
        return json.dumps({str(k): 1 for k in range(1, 5)}) + " " * rng.choice([0, 100_000])
    if kind == 12:
        return '{"1": 1' + ', "1": 1' * rng.choice([1, 1000]) + "}"
    return json.dumps({"4": 1, "3": 2, "2": 3, "1": 4})


# ----------------------------------------------------------------- places

PLACES = ("new", "old-file", "fifo", "link-to-file", "link-to-folder", "dangling-link", "link-loop", "folder",
          "dev-null", "dev-full", "full-disk", "longest-name", "huge-name", "control-name", "bytes-name",
          "through-a-file", "missing-folder", "read-only", "the-input", "hard-link")



# ----------------------------------------------------------------- a case

@dataclass
class Case:
    argv: list[str]
    what: str                                   # the family, for the figures
    names: list[str] = field(default_factory=list)      # what an error line may name
    fsize: int | None = None
    env: dict = field(default_factory=dict)
    unset: tuple = ()
    cwd: str | None = None
    bad_inputs: int = 1                         # error lines expected on exit 2 (at most)
    exit_2: bool = False                        # the case must be refused
    no_output: str | None = None                # a path that must not exist afterwards
    stdout_closed: bool = False                 # started with standard output closed (`>&-`)


def inputs(folder: Path) -> dict[str, str]:
    """The inputs of a run, made in its folder: a level, a bad one, a corpus, a trace, a CSPLib file."""
    shutil.copy(LEVEL, folder / "in.bs")
    (folder / "bad.bs").write_bytes(b"\xff\xfe{\"rows\": 1e999")
    (folder / "set.jsonl").write_text(json.dumps(CORPUS_LINE) + "\n{]\n")
    shutil.copy(TRACE, folder / "run.jsonl")
    return {"level": str(folder / "in.bs"), "bad": str(folder / "bad.bs"), "set": str(folder / "set.jsonl"),
            "trace": str(folder / "run.jsonl")}


CORPUS_LINE = {"id": "c-1", "rows": 2, "cols": 3, "fleet": {"1": 2}, "row_tallies": [1, 1], "col_tallies": [1, 0, 1],
               "hints": [[0, 0, "sub"]]}


# each command that writes: (the suffix of its output, argv for an output name)
WRITERS = {
    "solve-trace": (".jsonl", lambda io, out: ["solve", io["level"], "--trace", out]),
    "bench-csv": (".csv", lambda io, out: ["bench", io["level"], "--csv", out]),
    "race-csv": (".csv", lambda io, out: ["race", io["level"], "--solvers", "forward,logic", "--csv", out]),
    "generate-o": (".bs", lambda io, out: ["generate", "--rows", "6", "-o", out]),
    "daily-o": (".bs", lambda io, out: ["daily", "--date", "2026-01-05", "-o", out]),
    "print-pdf": (".pdf", lambda io, out: ["print", io["level"], "-o", out]),
    "print-png": (".png", lambda io, out: ["print", io["level"], io["level"], "--per-page", "1", "-o", out]),
    "convert": (".bs", lambda io, out: ["convert", io["level"], out]),
    "convert-dzn": (".dzn", lambda io, out: ["convert", io["level"], out]),
    "new-solver": (".py", lambda io, out: ["new-solver", out]),
}
MAKERS = ("generate-o", "daily-o", "new-solver")
SLOW_WRITERS = {
    "replay-gif": (".gif", lambda io, out: ["replay", io["trace"], "--gif", out]),
    "replay-png": (".png", lambda io, out: ["replay", io["trace"], "--screenshot", out]),
    "play-png": (".png", lambda io, out: ["play", io["level"], "--autorun", "--exit-after-solve", "--screenshot", out]),
}


def output_case(rng: random.Random, folder: Path, io: dict, slow: bool) -> tuple[Case, str]:
    writers = {**WRITERS, **(SLOW_WRITERS if slow else {})}
    name = rng.choice(sorted(writers))
    kind = rng.choice(PLACES)
    if kind == "the-input" and name in MAKERS:
        kind = "old-file"                       # a command that reads no level: the level is just a file
    suffix, argv = writers[name]
    made, limit = place(kind, folder, suffix, Path(io["level"] if name != "replay-gif" else io["trace"]))
    out = str(made)
    pages = os.path.splitext(out)[0] + "-"         # print's PNG pages: out-1.png, out-2.png
    return Case(argv(io, out), f"output {name} at {kind}", names=[out, pages, "standard output"], fsize=limit), out


FLAGS = [  # (argv before, flag, valid values)
    (["solve", "{level}"], "--timeout", SMALL_VALID),
    (["solve", "{level}"], "--seed", ["0", "7", "999999999999"]),
    (["solve", "{level}", "--solver", "genetic"], "--seed", ["0", "3"]),
    (["check", "{level}"], "--timeout", SMALL_VALID),
    (["check", "{level}"], "--jobs", ["1", "2", "1024"]),
    (["bench", "{level}", "--csv", "{folder}/b.csv"], "--timeout", SMALL_VALID),
    (["bench", "{level}", "--csv", "{folder}/b.csv"], "--seed", ["0", "5"]),
    (["bench", "--hints", "{level}"], "--reading", ["0", "0.01"]),
    (["bench", "--generate", "6x6"], "--count", ["1", "2"]),
    (["bench", "--count", "1"], "--generate", ["6x6", "1x1", "6X7"]),
    (["generate"], "--rows", ["1", "3", "8"]),
    (["generate", "--rows", "6"], "--cols", ["1", "9"]),
    (["generate", "--rows", "6"], "--seed", ["0", "999999999999"]),
    (["generate", "--rows", "7", "--difficulty", "easy"], "--timeout", SMALL_VALID),
    (["generate", "--rows", "6"], "--difficulty", ["easy", "hard"]),
    (["print", "{level}", "-o", "{folder}/p.pdf"], "--per-page", ["1", "4", "9"]),
    (["print", "{level}", "-o", "{folder}/p.pdf", "--solutions"], "--timeout", SMALL_VALID),
    (["race", "{level}", "--solvers", "forward,logic"], "--timeout", SMALL_VALID),
    (["race", "{level}", "--solvers", "forward,genetic", "--timeout", "1"], "--seed", ["0", "1"]),
    (["replay", "{trace}", "--print"], "--at", ["0", "5", "36"]),
    (["daily"], "--date", ["2026-11-27", "0001-01-01", "9999-12-31"]),
]
WORDS = ["2026-02-30", "2026-13-01", "0000-01-01", "20261127", "2026-W01-1", "\uff12026-01-01", "easy ", "EASY",
         "forward", "cmd:", "cmd:'", "cmd:/nonexistent", "mine.py", "/", ".", "..", "6x", "x6", "0x0", "61x61",
         "-6x6", "6x6x6", "\u0666x\u0666", "60x60", "forward,\udcff", "\udcfe"]


def flag_case(rng: random.Random, folder: Path, io: dict) -> Case:
    before, flag, valid = rng.choice(FLAGS)
    value = rng.choice(valid) if rng.random() < 0.25 else rng.choice(NUMBERS + WORDS)
    argv = [part.format(folder=folder, **io) for part in before] + [f"{flag}={value}" if value.startswith("-")
                                                                       else flag, *([] if value.startswith("-")
                                                                                    else [value])]
    return Case(argv, f"flag {argv[0]} {flag}", names=[flag])


def fleet_case(rng: random.Random, folder: Path, io: dict) -> Case:
    text = fleet_text(rng)
    argv = rng.choice([["generate", "--rows", rng.choice(["6", "8", "10"])],
                       ["bench", "--generate", "6x6", "--count", "1"]])
    return Case(argv + [f"--fleet={text}"], f"fleet {argv[0]}", names=["--fleet", "the fleet"])


def batch_case(rng: random.Random, folder: Path, io: dict) -> Case:
    """Several inputs of which some are bad (missing, not a level, a folder, a FIFO, a control name)."""
    bad_kinds = ["bad", "missing", "fifo", "empty-name", "control", "bytes", "folder-of-nothing", "huge"]
    chosen = rng.sample(bad_kinds, rng.randint(1, 2))
    bad = []
    for kind in chosen:
        if kind == "bad":
            bad.append(io["bad"])
        elif kind == "missing":
            bad.append(str(folder / "missing.bs"))
        elif kind == "fifo":
            os.mkfifo(folder / "pipe.bs")
            bad.append(str(folder / "pipe.bs"))
        elif kind == "empty-name":
            bad.append("")
        elif kind == "control":
            name = folder / (rng.choice(CONTROL_NAMES[:-1]).replace("\x00", "") + ".bs")
            name.write_bytes(b"{")
            bad.append(str(name))
        elif kind == "bytes":
            bad.append(os.fsdecode(os.fsencode(str(folder)) + b"/\xff.bs"))
        elif kind == "folder-of-nothing":
            (folder / "empty").mkdir()
            bad.append(str(folder / "empty"))
        elif kind == "huge":
            bad.append("y" * 100_000 + ".bs")
    paths = [io["level"], *bad, io["level"]]
    rng.shuffle(paths)
    old = folder / "old.out"
    command = rng.choice(["solve", "check", "code", "print", "bench", "solve-json", "check-json"])
    if command == "print":
        old = old.with_suffix(rng.choice([".pdf", ".png"]))
        old.write_bytes(OLD)
        argv = ["print", *paths, "-o", str(old)]
    elif command == "bench":
        argv = ["bench", *paths, "--csv", str(folder / "rows.csv"), "--timeout", "5"]
    else:
        argv = [command.split("-")[0], *paths, *(["--json"] if command.endswith("json") else []),
                *(["--timeout", "5"] if command != "code" else [])]
    names = [p for p in bad] + [files.shown(p) if p else "''" for p in bad]
    return Case(argv, f"batch {command}", names=names, bad_inputs=len(bad), exit_2=True)


def contradiction_case(rng: random.Random, folder: Path, io: dict) -> Case:
    """Options that cannot all be meant at once: each must be refused, not silently dropped."""
    out = str(folder / "x.bs")
    cases = [
        (["generate", "--pack", str(folder / "pack"), "-o", out], "-o", out),
        (["generate", "--pack", str(folder / "pack"), "--rows", "5"], "--rows", None),
        (["generate", "--pack", str(folder / "pack"), "--fleet", '{"1": 1}'], "--fleet", None),
        (["replay", io["trace"], "--print", "--gif", str(folder / "x.gif")], "--gif", str(folder / "x.gif")),
        (["replay", io["trace"], "--print", "--screenshot", str(folder / "x.png")], "--screenshot",
         str(folder / "x.png")),
        (["bench", io["level"], "--hints", "--csv", str(folder / "h.csv")], "--csv", str(folder / "h.csv")),
        (["bench", "--generate", "6x6", "--count", "1", "--csv", str(folder / "g.csv")], "--csv",
         str(folder / "g.csv")),
        (["daily", "--date", "2026-01-05", "-o", out, "--code"], "--code", None),
        (["solve", io["level"], io["level"], "--trace", str(folder / "t.jsonl")], "--trace",
         str(folder / "t.jsonl")),
    ]
    argv, flag, never = rng.choice(cases)
    return Case(argv, f"contradiction {argv[0]} {flag}", names=[flag, "--"], exit_2=True, no_output=never)


def name_case(rng: random.Random, folder: Path, io: dict) -> Case:
    """A name with control characters, bytes that are not UTF-8, or 100,000 characters, as an
    input, a solver or an output's folder."""
    name = rng.choice(CONTROL_NAMES + ["z" * 100_000])
    where = rng.randrange(5)
    if where == 0:
        argv = [rng.choice(["solve", "check", "code"]), str(folder / (name + ".bs"))]
    elif where == 1:
        argv = ["solve", io["level"], "--solver", str(folder / (name + ".py"))]
    elif where == 2:
        argv = ["convert", io["level"], str(folder / name / "x.bs")]
    elif where == 3:
        argv = ["race", str(folder / (name + ".bs"))]
    else:
        argv = ["replay", str(folder / (name + ".jsonl")), "--print"]
    return Case(argv, f"name {argv[0]}", names=[], exit_2=True)


def environment_case(rng: random.Random, folder: Path, io: dict) -> Case:
    """No HOME, an unwritable one, a read-only working folder (where bench writes its CSV)."""
    argv = rng.choice([["bench", io["level"]], ["solve", io["level"]], ["daily", "--code"], ["solvers"],
                       ["generate", "--rows", "5", "-o", "rel.bs"], ["convert", io["level"], "rel.dzn"],
                       ["new-solver", "mine.py"], ["race", io["level"], "--solvers", "forward", "--csv", "r.csv"]])
    env, unset, cwd, closed = {}, (), None, False
    setting = rng.randrange(5)
    if setting == 0:
        unset = ("HOME", "BATTLESHIPS_HOME")
    elif setting == 1:
        env = {"HOME": "/proc/self", "BATTLESHIPS_HOME": "/proc/self/battleships"}
    elif setting == 2:
        cwd = str(read_only(folder))
    elif setting == 3:
        env = {"LC_ALL": "C", "LANG": "C"}
    else:
        closed = True
    return Case(argv, f"environment {argv[0]} {setting}", names=["bench-forward.csv", "rel.bs", "rel.dzn",
                                                                  "mine.py", "r.csv", "mine_test.py", "test_mine.py",
                                                                  "standard output"],
                env=env, unset=unset, cwd=cwd, stdout_closed=closed)


FAMILIES = (output_case, flag_case, fleet_case, batch_case, contradiction_case, name_case, environment_case)


# ----------------------------------------------------------------- running and judging

def snapshot(path: str):
    """What is at a path: the kind of node, a link's text (and its target's content), a file's content."""
    try:
        info = os.lstat(path)
    except (OSError, ValueError):
        return None
    if stat.S_ISLNK(info.st_mode):
        target = os.path.join(os.path.dirname(path), os.readlink(path))
        return ("link", os.readlink(path), snapshot(target) if os.path.realpath(target) != path else None)
    if stat.S_ISREG(info.st_mode):
        return ("file", hashlib.sha256(Path(path).read_bytes()).hexdigest())
    if stat.S_ISDIR(info.st_mode):
        return ("folder", tuple(sorted(os.listdir(path))))
    return (stat.S_IFMT(info.st_mode), info.st_rdev)


def tree(folder: Path) -> dict:
    """Every node under ``folder`` (for what a run must not touch)."""
    return {str(p): snapshot(str(p)) for p in folder.rglob("*")}


def run(case: Case, folder: Path) -> subprocess.CompletedProcess:
    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        if case.fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (case.fsize, case.fsize))
        if case.stdout_closed:
            os.close(1)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "BATTLESHIPS_HOME": str(folder / "home"), **case.env}
    for name in case.unset:
        env.pop(name, None)
    argv = [sys.executable, str(MAIN), *case.argv]
    try:
        return subprocess.run([os.fsencode(a) for a in argv], capture_output=True, timeout=RUN_SECONDS,
                              preexec_fn=limits, env=env, cwd=case.cwd or folder)
    except subprocess.TimeoutExpired as expired:
        return subprocess.CompletedProcess(argv, "hang", expired.stdout or b"", expired.stderr or b"")


PROGRESS = re.compile(r"bench .*\[[#.]+\] \d+/\d+ ")


def error_lines(err: str) -> list[str]:
    """stderr without argparse's usage lines and bench's progress bar."""
    return [line for line in err.splitlines()
            if line.strip() and not line.startswith(("usage:", " ")) and not PROGRESS.match(line)]


def judge(case: Case, done: subprocess.CompletedProcess, before: dict, after: dict, watched: str | None,
          old: object, inputs: list[str]) -> list[str]:
    """The promises ``done`` broke (``before`` and ``after``: the run's folder; ``watched``: the
    output place and ``old`` what was there; ``inputs``: the files it read)."""
    problems = []
    err = done.stderr.decode("utf-8", "replace")
    out = done.stdout.decode("utf-8", "replace")
    if done.returncode == "hang":
        problems.append(f"still running after {RUN_SECONDS} s")
    elif done.returncode not in (0, 1, 2):
        problems.append(f"exit {done.returncode}")
    if "Traceback" in err or "Traceback" in out:
        problems.append("a traceback: " + err[-600:])
    if case.exit_2 and done.returncode != 2:
        problems.append(f"exit {done.returncode}, not a refusal (2)")
    lines = error_lines(err)
    failed = done.returncode not in (0, 1)      # 1: a run timed out or a solver failed; what it wrote is whole
    if done.returncode == 2:
        if not lines and not case.exit_2:
            problems.append("exit 2 without a line saying why")
        if len(lines) > case.bad_inputs:
            problems.append(f"{len(lines)} error lines: {[line[:120] for line in lines]}")
        named = [n for n in case.names if n]
        if named and lines and not any(any(files.shown(n) in line or n in line for n in named) for line in lines):
            problems.append(f"the line names none of {[files.shown(n)[:80] for n in named]}: {lines[0][:200]!r}")
    for line in err.splitlines() + out.splitlines():
        if any(ord(ch) < 32 and ch != "\t" or 0x7f <= ord(ch) < 0xa0 or ch in "\u2028\u2029\u202e" for ch in line):
            problems.append(f"a control character in an output line: {line[:120]!r}")
            break
    if any(len(line) > 2000 for line in lines):
        problems.append(f"an error line of {max(map(len, lines)):,} characters")
    if watched is not None:
        now = snapshot(watched)
        if old is not None and old[0] != "file" and (now is None or now[0] != old[0]):
            problems.append(f"a {old[0]} was replaced by {now and now[0]}")
        if old is not None and old[0] == "link" and (now is None or now[:2] != old[:2]):
            problems.append(f"the link changed: {old[:2]} -> {now and now[:2]}")
        if old is not None and old[0] == "link" and failed and now != old:
            problems.append("a failed write changed the link's target")
        if old is not None and old[0] == "file" and failed and now != old:
            problems.append("the old file changed on a failed write")
    if case.no_output and os.path.lexists(case.no_output):
        problems.append(f"{case.no_output} was written though the run was refused")
    left = [p for p in after if os.path.basename(p).startswith(files.TEMP_PREFIX)]
    if left:
        problems.append(f"temporary files left: {left}")
    changed = [p for p in before if before[p] != after.get(p) and before[p] is not None and before[p][0] != "folder"
               and (failed or p in inputs)]
    if changed:
        problems.append(f"{'an input' if set(changed) & set(inputs) else 'a file'} changed: {changed[:3]}")
    return problems


@pytest.fixture(scope="module")
def trace_made(tmp_path_factory):
    global TRACE
    TRACE = tmp_path_factory.mktemp("trace") / "run.jsonl"
    trace.record_run(levels.load(LEVEL), "forward", TRACE)
    return TRACE


TRACE = Path()


CACHES = (".hypothesis/", "__pycache__/", ".pytest_cache/", ".mypy_cache/", ".ruff_cache/")


def repository_state() -> str:
    """The checkout's changed, new and ignored files, but for the caches other test runs fill."""
    done = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"], cwd=ROOT,
                          capture_output=True, text=True)
    return "\n".join(line for line in done.stdout.splitlines() if not any(cache in line for cache in CACHES))


def campaign(count: int, seed: int, tmp_path: Path, slow: bool = False) -> tuple[int, list[str], dict]:
    rng = random.Random(seed)
    failures: list[str] = []
    families: dict[str, int] = {}
    start = repository_state()
    for index in range(count):
        folder = tmp_path / f"case-{index}"
        folder.mkdir()
        (folder / "home").mkdir()
        io = inputs(folder)
        family = FAMILIES[index % len(FAMILIES)] if index < len(FAMILIES) else rng.choice(FAMILIES)
        watched = None
        if family is output_case:
            case, watched = output_case(rng, folder, io, slow)
        else:
            case = family(rng, folder, io)
        families[case.what.split()[0]] = families.get(case.what.split()[0], 0) + 1
        old = snapshot(watched) if watched else None
        before = tree(folder)
        began = time.perf_counter()
        done = run(case, folder)
        if os.environ.get("CLI_FUZZ_LOG"):
            print(f"#{index} {time.perf_counter() - began:5.1f} s exit {done.returncode} {case.what}: "
                  f"{short(case.argv)[:160]}", file=sys.stderr)
        after = tree(folder)
        problems = judge(case, done, before, after, watched, old, list(io.values()))
        failures += [f"#{index} {case.what} {short(case.argv)}: {p}" for p in problems]
        if problems and os.environ.get("CLI_FUZZ_LOG"):
            print("\n".join(f"FAILED #{index}: {p[:300]}" for p in problems), file=sys.stderr)
        for ro in folder.rglob("ro"):
            ro.chmod(0o700)
        shutil.rmtree(folder, ignore_errors=True)
    if repository_state() != start:
        failures.append("the checkout changed: " + repository_state()[:500])
    return count, failures, families


def short(argv: list[str]) -> str:
    return " ".join(files.shown(a)[:60] for a in argv)


def test_a_quick_campaign_of_invocations_keeps_every_promise(tmp_path, trace_made):
    count, failures, _ = campaign(QUICK, 20261127, tmp_path)
    assert failures == [], "\n".join(failures)


@pytest.mark.slow
def test_the_long_campaign_keeps_every_promise(tmp_path, trace_made):
    started = time.perf_counter()
    count, failures, families = campaign(CAMPAIGN, 7, tmp_path, slow=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"\ncommand-line campaign: {count} invocations ({families}), {len(failures)} failures, "
          f"{time.perf_counter() - started:.0f} s, peak memory of a run {peak} MB")
    assert failures == [], "\n".join(failures[:40])


# ----------------------------------------------------------------- Ctrl-C

HARD = ROOT / "levels" / "15x15" / "expert" / "01.bs"
GIANT = ROOT / "levels" / "giants" / "09-40x40.bs"
LONG_RUNS = {  # (argv with {old} for an old output file that must survive, its suffix)
    "solve": (["solve", str(GIANT), "--solver", "backtracking", "--timeout", "1000", "--trace", "{old}"], ".jsonl"),
    "bench": (["bench", str(ROOT / "levels"), "--solver", "backtracking", "--timeout", "30", "--csv", "{old}"],
              ".csv"),
    "generate": (["generate", "--rows", "40", "--seed", "3", "-o", "{old}"], ".bs"),
    "generate-graded": (["generate", "--rows", "60", "--difficulty", "expert", "-o", "{old}"], ".bs"),
    "race": (["race", str(HARD), "--timeout", "30", "--csv", "{old}"], ".csv"),
    # one to a page: a 40x40 board is refused four to a page (its cells would be too small to read)
    "print": (["print", str(ROOT / "levels"), "--solutions", "--per-page", "1", "-o", "{old}"], ".pdf"),
    "check": (["check", str(ROOT / "levels" / "giants"), "--timeout", "100"], None),
}


def interrupted(argv: list[str], delay: float, folder: Path) -> tuple[float, int, str]:
    """Run ``main.py argv``, send SIGINT to its process group (as a terminal sends Ctrl-C)
    after ``delay`` seconds: how long it took to end after the signal, its status, its stderr."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "BATTLESHIPS_HOME": str(folder / "home")}
    process = subprocess.Popen([sys.executable, str(MAIN), *argv], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, cwd=folder, env=env, start_new_session=True)
    time.sleep(delay)
    sent = time.perf_counter()
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return float("inf"), -9, ""
    return time.perf_counter() - sent, process.returncode, err.decode("utf-8", "replace")


def whole(path: Path) -> bool:
    """Whether ``path`` holds a whole output of its kind (a run that ended just before the signal)."""
    try:
        if path.suffix == ".bs":
            levels.load(path)
        elif path.suffix == ".jsonl":
            trace.read_trace(path)
        elif path.suffix == ".pdf":
            return path.read_bytes().rstrip().endswith(b"%%EOF")
        elif path.suffix == ".csv":
            return path.read_text().count("\n") >= 2 and path.read_text().endswith("\n")
        return True
    except (OSError, ValueError):
        return False


LATENCIES: list[float] = []


def ctrl_c_problems(name: str, delay: float, folder: Path) -> list[str]:
    argv, suffix = LONG_RUNS[name]
    old = folder / f"old{suffix}" if suffix else None
    if old is not None:
        old.write_bytes(OLD)
    seconds, status, err = interrupted([a.format(old=old) for a in argv], delay, folder)
    LATENCIES.append(seconds)
    problems = []
    if status == 0 and seconds < 1:
        return []                     # it ended before the signal came: nothing to judge
    if seconds > 1.0:
        problems.append(f"ended {seconds:.2f} s after Ctrl-C")
    # A run whose work was done and written whole when the signal came can meet it in Python's
    # own teardown, which no handler sees: it ends as killed by SIGINT (a shell's 130 too).
    done = status == -signal.SIGINT and not err.strip() and old is not None and whole(old)
    if not done and (status != 130 or error_lines(err) != ["interrupted"]):      # bench's progress bar aside
        problems.append(f"exit {status}, stderr {err[-300:]!r}")
    if old is not None and old.read_bytes() != OLD and not whole(old):
        problems.append("the old output file was replaced by a part of the new one")
    left = [p.name for p in folder.rglob(f"{files.TEMP_PREFIX}*")]
    if left:
        problems.append(f"temporary files left: {left}")
    return [f"{name} after {delay:.1f} s: {p}" for p in problems]


@pytest.mark.parametrize("name", ["generate", "race"])
def test_ctrl_c_ends_a_long_command_within_a_second_and_keeps_the_old_file(tmp_path, name):
    assert ctrl_c_problems(name, 1.0, tmp_path) == []


@pytest.mark.slow
def test_ctrl_c_campaign_over_every_long_command(tmp_path):
    rng = random.Random(130)
    failures, runs = [], 0
    for name in LONG_RUNS:
        for _ in range(6):
            folder = tmp_path / f"{name}-{runs}"
            folder.mkdir()
            runs += 1
            failures += ctrl_c_problems(name, rng.uniform(0.1, 2.0), folder)
    print(f"\nCtrl-C: {runs} runs, {len(failures)} failures, slowest end {max(LATENCIES):.2f} s after the signal, "
          f"median {sorted(LATENCIES)[len(LATENCIES) // 2]:.2f} s")
    assert failures == [], "\n".join(failures)


# ----------------------------------------------------------------- what the campaign found


def in_process(*argv) -> tuple[int, str, str]:
    """main() in this process: its status (a usage error's too), its output and its errors."""
    import contextlib
    import io

    import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main.main([str(a) for a in argv])
        except SystemExit as leaving:
            status = leaving.code
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", ["a\nb", "esc\x1b[2Jclear", "bell\x07", "sep\u2028line", "bidi\u202egnp.sb",
                                  "\udcff\udcfe"])
def test_a_name_with_control_characters_is_shown_escaped_on_its_one_line(tmp_path, name):
    level = str(tmp_path / (name + ".bs"))
    for argv in (["check", level], ["code", level], ["race", level], ["solve", LEVEL, "--solver", level[:-3] + ".py"],
                 ["generate", "--rows", "5", "-o", str(tmp_path / name / "x.bs")],
                 ["convert", LEVEL, str(tmp_path / name / "x.bs")]):
        status, out, err = in_process(*argv)
        lines = error_lines(err + out)
        assert status == 2 and len(lines) == 1, (argv, err)
        assert repr(name)[1:-1] in lines[0] and lines[0].isprintable(), lines[0]


def test_a_name_shown_in_a_message_is_cut_to_a_bounded_line():
    name = "z" * 100_000 + "/x.bs"
    shown = files.shown(name)
    assert len(shown) < files.MAX_SHOWN + 40 and shown.endswith("/x.bs (100,005 characters)")
    assert files.shown("plain/name.bs") == "plain/name.bs"
    assert files.shown(b"\xff.bs") == repr("\udcff.bs")


def test_an_output_under_a_folder_of_100_000_characters_is_one_bounded_line(tmp_path):
    status, _, err = in_process("convert", LEVEL, tmp_path / ("z" * 100_000) / "x.bs")
    lines = error_lines(err)
    assert status == 2 and len(lines) == 1 and len(lines[0]) < 2 * files.MAX_SHOWN, len(lines[0])


@pytest.mark.parametrize("argv, never", [
    (["generate", "--pack", "{tmp}/pack", "-o", "{tmp}/x.bs"], "pack"),
    (["generate", "--pack", "{tmp}/pack", "--rows", "5"], "pack"),
    (["daily", "--date", "2026-01-05", "-o", "{tmp}/x.bs", "--code"], "x.bs"),
    (["replay", "{trace}", "--print", "--gif", "{tmp}/x.gif"], "x.gif"),
    (["replay", "{trace}", "--print", "--screenshot", "{tmp}/x.png"], "x.png"),
    (["bench", LEVEL, "--hints", "--csv", "{tmp}/x.csv"], "x.csv"),
    (["bench", "--generate", "6x6", "--csv", "{tmp}/x.csv"], "x.csv"),
    (["bench", "--runner", "--window", LEVEL], None),
])
def test_options_that_cannot_both_be_meant_are_refused_naming_both(tmp_path, trace_made, argv, never):
    status, out, err = in_process(*[str(a).format(tmp=tmp_path, trace=trace_made) for a in argv])
    line = error_lines(err)
    assert status == 2 and len(line) == 1 and "cannot be given together" in line[0], err
    flags = [a for a in map(str, argv) if a.startswith("-")]
    assert sum(flag in line[0] for flag in flags) == 2
    assert never is None or not (tmp_path / never).exists()


def test_ctrl_c_while_the_program_is_still_loading_is_the_one_line_of_any_interrupt(tmp_path):
    """The signal falls in an import (made certain by raising it there): no traceback."""
    code = ("import builtins, os, runpy, signal, sys\n"
            "real = builtins.__import__\n"
            "def hooked(name, *args, **kwargs):\n"
            "    if name == 'solvers.engine.registry':\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n"
            "    return real(name, *args, **kwargs)\n"
            "builtins.__import__ = hooked\n"
            f"sys.path.insert(0, {str(ROOT)!r})\n"
            f"sys.argv = ['main.py', 'check', {str(LEVEL)!r}]\n"
            f"runpy.run_path({str(MAIN)!r}, run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 130 and done.stderr == "interrupted\n" and done.stdout == "", done.stderr[-500:]


@pytest.mark.parametrize("fleet, problem", [('{"10": 2, "1": 0}', "longer than a 6x6 board"),
                                            ('{"1": 30}', "cannot fit on a 6x6 board")])
def test_bench_generate_with_a_fleet_the_board_cannot_take_is_one_line_not_a_traceback(fleet, problem):
    status, out, err = in_process("bench", "--generate", "6x6", "--count", "1", "--fleet", fleet)
    lines = error_lines(err)
    assert status == 2 and out == "" and len(lines) == 1 and lines[0].startswith("bench: the fleet ")
    assert problem in lines[0] and "Traceback" not in err


def test_a_command_started_with_standard_output_closed_says_so_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, str(MAIN), "generate", "--rows", "5", "-o", str(tmp_path / "g.bs")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2 and done.stderr == "standard output: cannot be written (it is closed)\n"
    assert not (tmp_path / "g.bs").exists()


@pytest.mark.parametrize("argv", [["bench", "{folder}", "--csv", "{folder}/sub/01.bs"],
                                  ["solve", "{folder}", "--trace", "{folder}/sub/01.bs"]])
def test_an_output_that_is_a_level_of_an_input_folder_is_refused(tmp_path, argv):
    (tmp_path / "sub").mkdir()
    shutil.copy(LEVEL, tmp_path / "sub" / "01.bs")
    before = (tmp_path / "sub" / "01.bs").read_bytes()
    status, _, err = in_process(*[a.format(folder=tmp_path) for a in argv])
    assert status == 2 and error_lines(err) == [f"{tmp_path}/sub/01.bs: cannot be written "
                                                f"(is the input {tmp_path}/sub/01.bs; give another name)"]
    assert (tmp_path / "sub" / "01.bs").read_bytes() == before


def test_a_screenshot_to_a_name_that_is_not_utf8_is_written(tmp_path, trace_made):
    out = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff\xfe.png")
    done = run(Case(["replay", str(trace_made), "--screenshot", out], "screenshot"), tmp_path)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-500:]
    assert Path(out).read_bytes().startswith(b"\x89PNG")


def test_print_of_solutions_not_decided_in_time_names_the_timeout(tmp_path):
    status, _, err = in_process("print", LEVEL, "-o", tmp_path / "p.pdf", "--solutions", "--timeout", "0")
    assert status == 2 and error_lines(err) == [f"{LEVEL}: has no single solution to print "
                                                f"(not decided within --timeout 0 s)"]
    assert not (tmp_path / "p.pdf").exists()
