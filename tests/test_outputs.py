"""Every file the program writes goes through game.files: what happens to a device, a FIFO,
a symbolic link, a hard link, a folder, a full disk, two writers at once and an interrupt.

The tests are named after the case they hold (the numbers of the bug report on outputs).
"""

import csv
import errno
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import main
from game import files, formats, levels
from solvers.common import run_to_result
from solvers.engine import trace
from solvers.events import Status
from tests.conftest import run_to_the_end

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ROOT / "levels" / "6x6" / "easy" / "01.bs"
PYTHON = sys.executable


def run(capsys, *argv):
    code = main.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def cli(*argv, limit_bytes=None, timeout=120, cwd=ROOT):
    """``main.py`` in a process of its own (with a file-size limit: a full disk)."""
    def limit():
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([PYTHON, str(ROOT / "main.py"), *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=limit, env=env, cwd=cwd)


def device(folder: Path, name: str) -> Path:
    """A character device like /dev/null or /dev/full ("null", "full"). As root, a node of its
    own in ``folder``: a program that replaced what it writes (the bug these tests hold) must
    never get to replace the system's /dev/null. Others cannot replace /dev/null anyway."""
    if os.geteuid() != 0:
        return Path("/dev") / name
    node = folder / f"dev-{name}"
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, {"null": 3, "full": 7}[name]))
    return node


def read_only(tmp_path: Path) -> Path:
    """A folder this process cannot write (root writes through permissions: then /sys)."""
    if os.geteuid() == 0:
        return Path("/sys")
    folder = tmp_path / "ro"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o500)
    return folder


def temporaries(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(files.TEMP_PREFIX)]


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


# ----- 1: writing over what is not ours ----------------------------------------------------


@pytest.mark.parametrize("command", ["convert", "generate", "trace"])
def test_1_a_fifo_or_a_symlink_at_the_output_is_never_replaced(tmp_path, capsys, command):
    def write(target):
        argv = {"convert": ["convert", LEVEL, target, "--to", "bs"],
                "generate": ["generate", "--rows", "6", "-o", target],
                "trace": ["solve", LEVEL, "--trace", target]}[command]
        return run(capsys, *argv)

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, out, err = write(fifo)
    assert code == 2 and "FIFO that nobody reads" in one_line(err)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)

    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link"
    link.symlink_to(real.name)
    code, out, err = write(link)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == real.name        # the link is kept
    assert real.read_text() != "old"                                  # its target is written
    assert temporaries(tmp_path) == []


def test_1_a_device_is_written_through_and_stays_a_device(tmp_path, capsys):
    null, full = device(tmp_path, "null"), device(tmp_path, "full")
    code, out, err = run(capsys, "convert", LEVEL, null, "--to", "bs")
    assert code == 0 and stat.S_ISCHR(os.lstat(null).st_mode)
    code, out, err = run(capsys, "convert", LEVEL, full, "--to", "bs")
    assert code == 2 and one_line(err) == f"{full}: cannot be written (No space left on device)"
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_1_a_new_file_gets_the_umask_mode_and_an_old_file_keeps_its_mode(tmp_path, capsys):
    fresh = tmp_path / "fresh.bs"
    assert run(capsys, "convert", LEVEL, fresh)[0] == 0
    (tmp_path / "made-by-open").write_text("")
    assert stat.S_IMODE(fresh.stat().st_mode) == stat.S_IMODE((tmp_path / "made-by-open").stat().st_mode)
    old = tmp_path / "old.bs"
    old.write_text("x")
    old.chmod(0o640)
    assert run(capsys, "convert", LEVEL, old)[0] == 0
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text() != "x"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root writes another user's file")
def test_1_a_file_root_writes_over_stays_its_owners(tmp_path, capsys):
    # The new file renamed over it was root's: its owner could no longer write their own file.
    theirs = tmp_path / "theirs.bs"
    theirs.write_text("old")
    os.chown(theirs, 65534, 65534)
    assert run(capsys, "convert", LEVEL, theirs)[0] == 0
    info = theirs.stat()
    assert (info.st_uid, info.st_gid) == (65534, 65534) and theirs.read_text() != "old"


def acl(*entries: tuple[int, int, int]) -> bytes:
    """A POSIX ACL as the system.posix_acl_* attributes hold it: (tag, permissions, id)."""
    import struct

    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries)


ANY = 0xFFFFFFFF
# owner rw, user 12345 rw, owning group r, mask rw (shown as the group's bits: 0660), others none
NAMED_USER_ACL = acl((0x01, 6, ANY), (0x02, 6, 12345), (0x04, 4, ANY), (0x10, 6, ANY), (0x20, 0, ANY))


def xattrs_or_skip(path: Path) -> None:
    try:
        os.setxattr(path, "user.probe", b"1")
        os.removexattr(path, "user.probe")
    except (OSError, AttributeError) as error:
        pytest.skip(f"no user extended attributes here ({error})")


def test_1_a_replaced_file_keeps_its_extended_attributes_and_acl_and_a_new_one_gets_the_folders(tmp_path, capsys):
    # Renamed over, a file lost its ACL: the user it was shared with could no longer write it,
    # and its group's bits (the ACL's mask) became the owning group's rights.
    out = tmp_path / "shared.bs"
    out.write_text("old")
    xattrs_or_skip(out)
    os.setxattr(out, "user.comment", b"the author's note")
    try:
        os.setxattr(out, "system.posix_acl_access", NAMED_USER_ACL)
    except OSError as error:
        pytest.skip(f"no POSIX ACLs here ({error})")
    mode, kept = out.stat().st_mode, os.getxattr(out, "system.posix_acl_access")
    assert run(capsys, "convert", LEVEL, out)[0] == 0 and out.read_text() != "old"
    assert os.getxattr(out, "user.comment") == b"the author's note"
    assert os.getxattr(out, "system.posix_acl_access") == kept and out.stat().st_mode == mode
    # one without an ACL gets none from the folder's default ACL either: its rights stay its mode's
    plain = tmp_path / "plain.bs"
    plain.write_text("old")
    plain.chmod(0o640)
    os.setxattr(tmp_path, "system.posix_acl_default", NAMED_USER_ACL)
    assert run(capsys, "convert", LEVEL, plain)[0] == 0 and plain.read_text() != "old"
    assert "system.posix_acl_access" not in os.listxattr(plain)
    assert stat.S_IMODE(plain.stat().st_mode) == 0o640
    # a new file gets what the default ACL gives, as open() gives it (it was made 0600, then
    # given the umask's mode: others could read it, and the user the ACL gave rw could not write)
    os.setxattr(tmp_path, "system.posix_acl_default",
                acl((0x01, 6, ANY), (0x02, 6, 12345), (0x04, 4, ANY), (0x10, 6, ANY), (0x20, 0, ANY)))
    fresh, made = tmp_path / "fresh.bs", tmp_path / "made-by-open"
    made.write_text("")
    assert run(capsys, "convert", LEVEL, fresh)[0] == 0
    assert os.getxattr(fresh, "system.posix_acl_access") == os.getxattr(made, "system.posix_acl_access")
    assert fresh.stat().st_mode == made.stat().st_mode


def test_1_a_hard_linked_output_is_written_in_place_and_the_input_itself_is_refused(tmp_path, capsys):
    out, other = tmp_path / "out.bs", tmp_path / "other-name.bs"
    out.write_text("old")
    os.link(out, other)
    inode = out.stat().st_ino
    assert run(capsys, "convert", LEVEL, out)[0] == 0
    assert out.stat().st_ino == inode and other.read_text() == out.read_text() != "old"
    mine = tmp_path / "mine.bs"
    mine.write_bytes(LEVEL.read_bytes())
    code, _, err = run(capsys, "convert", mine, mine)
    assert code == 2 and "is the input" in one_line(err) and mine.read_bytes() == LEVEL.read_bytes()


def test_1_a_read_only_file_is_not_replaced(tmp_path, capsys):
    # A rename beside it replaced it whatever its mode: a file made read-only to keep it was lost.
    kept = tmp_path / "kept.bs"
    kept.write_text("old")
    kept.chmod(0o444)
    link = tmp_path / "link.bs"
    link.symlink_to(kept.name)
    for out in (kept, link):
        code, _, err = run(capsys, "convert", LEVEL, out)
        assert code == 2 and one_line(err) == f"{out}: cannot be written (is a read-only file; not replaced)"
    assert kept.read_text() == "old" and stat.S_IMODE(kept.stat().st_mode) == 0o444 and link.is_symlink()
    assert temporaries(tmp_path) == []


def test_1_a_name_of_standard_output_writes_the_stream_the_shell_gave_never_replacing_its_file(tmp_path):
    # /dev/stdout was followed to the file the shell had opened and a new file renamed over
    # it: what the shell had written before (`{ echo header; main.py ...; } > log`, `>> log`)
    # was lost; on a pipe it was refused ("the folder /proc/N/fd cannot be written").
    expected = levels.dumps(levels.load(LEVEL))
    (tmp_path / "link.bs").symlink_to("/dev/stdout")
    for name in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", tmp_path / "link.bs"):
        log = tmp_path / "log.txt"
        log.write_text("written before\n")
        inode = log.stat().st_ino
        with open(log, "a") as handle:
            done = subprocess.run([PYTHON, str(ROOT / "main.py"), "convert", str(LEVEL), str(name), "--to", "bs"],
                                  stdout=handle, stderr=subprocess.PIPE, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert log.read_text().startswith("written before\n" + expected) and log.stat().st_ino == inode
        piped = subprocess.run([PYTHON, str(ROOT / "main.py"), "convert", str(LEVEL), str(name), "--to", "bs"],
                               capture_output=True, text=True, timeout=60)
        assert piped.returncode == 0 and piped.stdout.startswith(expected), piped.stderr   # then "wrote ..."
    assert (tmp_path / "link.bs").is_symlink() and temporaries(tmp_path) == []


@pytest.mark.parametrize("name, reason", [("/dev/fd/{closed}", "descriptor {closed} is not open"),
                                          ("/dev/stdin", "descriptor 0 is open for reading only")])
def test_1_a_descriptor_that_cannot_be_written_is_one_line(tmp_path, capsys, name, reason):
    closed = os.open(os.devnull, os.O_RDONLY)
    os.close(closed)
    name, reason = name.format(closed=closed), reason.format(closed=closed)
    with open(os.devnull) as nothing:
        done = subprocess.run([PYTHON, str(ROOT / "main.py"), "convert", str(LEVEL), name, "--to", "bs"],
                              stdin=nothing, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and one_line(done.stderr) == f"{name}: cannot be written ({reason})"


def test_1_a_link_that_may_not_be_followed_is_one_line(tmp_path, monkeypatch):
    # another program's /proc/PID/fd/N: os.path.realpath raised, a traceback
    link = tmp_path / "theirs.bs"
    link.symlink_to("elsewhere.bs")

    def denied(path, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))
    monkeypatch.setattr(os.path, "realpath", denied)
    with pytest.raises(files.OutputError, match="theirs.bs: cannot be written \\(Permission denied\\)"):
        files.check(link)


def test_1_a_file_on_the_way_to_an_output_is_named_as_the_file_that_is_not_a_folder(tmp_path, capsys):
    # "cannot be written (Not a directory)" named no culprit; the pack named its own folder
    # ("pack: cannot be written (File exists)") after a level had been made for nothing.
    (tmp_path / "afile").write_text("kept")
    code, _, err = run(capsys, "convert", LEVEL, tmp_path / "afile" / "sub" / "x.bs")
    assert code == 2 and one_line(err).endswith(f"cannot be written ({tmp_path / 'afile'} is not a folder)")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "6x6").write_text("kept")          # where the pack's first levels go
    code, _, err = run(capsys, "generate", "--pack", pack)
    assert code == 2 and err.strip().splitlines()[-1] == \
        f"{pack / '6x6' / 'easy' / '01.bs'}: cannot be written ({pack / '6x6'} is not a folder)"
    assert (pack / "6x6").read_text() == (tmp_path / "afile").read_text() == "kept"


def test_an_output_refused_before_the_work_is_named_as_the_file_that_would_be_written(tmp_path, capsys):
    # The check tried a stand-in name: a .dzn written into a folder was refused as
    # 'FOLDER/level.bs', a pack as 'PACK/x.bs', files neither command would have written.
    (tmp_path / "afile").write_text("kept")
    code, _, err = run(capsys, "convert", LEVEL, f"{tmp_path / 'afile' / 'out'}/", "--to", "dzn")
    assert code == 2 and one_line(err).startswith(f"{tmp_path / 'afile' / 'out' / '01'}.dzn: cannot be written")
    pack = tmp_path / "afile" / "pack"
    code, _, err = run(capsys, "generate", "--pack", pack)
    assert code == 2 and one_line(err).startswith(f"{pack / '6x6' / 'easy' / '01.bs'}: cannot be written")


def test_an_error_s_reason_is_said_one_way_on_one_line():
    # The window's status lines, the settings and the level reader each said an error's reason
    # their own way (the system's, then the message or the kind); one function now.
    assert files.reason(OSError(errno.ENOSPC, "No space left on device")) == "No space left on device"
    assert files.reason(files.OutputError("x", "exists already")) == "exists already"
    assert files.reason(OSError("the disk said\nno")) == "the disk said no"
    assert files.reason(OSError()) == "OSError"


def test_1_every_failed_write_is_said_the_one_way_on_one_line(tmp_path, monkeypatch):
    # why() said "error" for pygame's error and "OSError" for a system error with no strerror;
    # Output said the message of such an error as it was, a newline in it breaking the line.
    class PygameError(RuntimeError):
        pass
    out = tmp_path / "shot.png"
    assert files.why(PygameError("Out of memory"), out) == f"{out}: cannot be written (Out of memory)"
    assert files.why(OSError("disk\nfull"), out) == f"{out}: cannot be written (disk full)"
    assert files.why(OSError(errno.ENOSPC, "No space left on device"), out) == \
        f"{out}: cannot be written (No space left on device)"

    def broken(fd):
        raise OSError("the disk said\nno")
    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(files.OutputError) as failed:
        files.write_text(out, "x")
    assert str(failed.value) == f"{out}: cannot be written (the disk said no)"
    assert failed.value.errno == errno.EIO and list(tmp_path.iterdir()) == []


# ----- 2: a name from a file is never a path -----------------------------------------------


@pytest.mark.parametrize("name", ["../../../../tmp/victim", "/etc/passwd", "evil\x00name", "x" * 10_000,
                                  "..", "", "\u00e9t\u00e9 \u2603"])
def test_2_a_slug_is_a_plain_bounded_file_name(name):
    part = files.slug(name)
    assert 0 < len(part) <= files.MAX_SLUG and "/" not in part and "\x00" not in part
    assert part not in (".", "..") and part.replace("-", "").isalnum()


def test_2_a_slug_spells_the_latin_letters_without_an_accent_to_take_off():
    """'Søren' made 'sren.bs', 'Łódź' 'odz': the letters that no decomposition takes to ASCII
    were dropped, while 'é' became 'e'."""
    assert files.slug("Søren Straße Łódź Æble Œuvre Þór Đorđe été") == "soren-strasse-lodz-aeble-oeuvre-thor-dorde-ete"


def test_2_the_race_screen_saves_its_csv_under_a_slug_of_the_level_name(app, tmp_path):
    import pygame

    from tests.test_ui_play import press
    from tests.test_ui_race import run_to_end
    from window.storage import generated_dir

    press(app, pygame.K_v)
    scene = app.overlay
    scene.title = "../../../../" + str(tmp_path / "victim")
    scene.start()
    run_to_end(app, scene)
    path = scene.save_csv()
    assert path is not None and path.parent == generated_dir() and path.name.endswith("-victim.csv")
    assert not (tmp_path / "victim.csv").exists()
    assert [p for p in generated_dir().iterdir() if p.is_dir()] == []


# ----- 7: a failed write leaves the old file ------------------------------------------------


@pytest.mark.parametrize("argv, name", [
    (["print", LEVEL, "-o", "{}"], "book.pdf"),
    (["print", LEVEL, LEVEL, "--per-page", "1", "-o", "{}"], "pages.png"),
    (["race", LEVEL, "--solvers", "forward,backtracking", "--csv", "{}"], "race.csv"),
    (["bench", LEVEL, "--csv", "{}"], "bench.csv"),
])
def test_7_on_a_full_disk_the_old_file_is_kept_and_no_temporary_is_left(tmp_path, argv, name):
    target = tmp_path / name
    old = b"the good old file\n" * 5
    pages = [target] if name != "pages.png" else [tmp_path / "pages-1.png", tmp_path / "pages-2.png"]
    for page in pages:
        page.write_bytes(old)
    done = cli(*[str(target) if a == "{}" else a for a in argv], limit_bytes=len(old) + 10)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]          # after the progress bar of bench
    assert "Traceback" not in done.stderr
    assert line.startswith(str(target)) and "cannot be written" in line
    assert all(page.read_bytes() == old for page in pages)
    assert temporaries(tmp_path) == []


def test_7_a_set_of_files_whose_last_cannot_be_written_leaves_every_old_file_and_no_new_one(tmp_path):
    # The boards of a file converted into a folder: each was put in place as soon as it was
    # synced, so a full disk on the last (its bytes buffered until then) left the first ones
    # written over and the set half made.
    small = {"rows": 2, "cols": 3, "fleet": {"1": 2}, "row_tallies": [1, 1], "col_tallies": [1, 0, 1],
             "hints": [[0, 0, "sub"]]}
    big = {"rows": 40, "cols": 40, "fleet": {"1": 1}, "row_tallies": [1] + [0] * 39, "col_tallies": [1] + [0] * 39,
           "hints": [[0, 0, "sub"]] + [[r, c, "water"] for r in range(1, 40) for c in range(0, 40, 8)]}
    corpus = tmp_path / "set.jsonl"
    corpus.write_text("".join(json.dumps({"id": ident, **board}) + "\n"
                              for ident, board in (("s1", small), ("s2", small), ("b1", big))))
    out = tmp_path / "out"
    out.mkdir()
    old = b"the good old file\n" * 5
    for name in ("s1.bs", "s2.bs"):
        (out / name).write_bytes(old)
    done = cli("convert", corpus, out, limit_bytes=2048)      # the big board is 4 KB as .bs, the others 153 B
    assert done.returncode == 2 and one_line(done.stderr) == f"{out / 'b1.bs'}: cannot be written (File too large)"
    assert sorted(p.name for p in out.iterdir()) == ["s1.bs", "s2.bs"]
    assert all((out / name).read_bytes() == old for name in ("s1.bs", "s2.bs"))
    # into a new folder: the folders it made are removed with the set (they stayed, empty)
    new = tmp_path / "new" / "deeper"
    done = cli("convert", corpus, new, limit_bytes=2048)
    assert done.returncode == 2 and one_line(done.stderr) == f"{new / 'b1.bs'}: cannot be written (File too large)"
    assert not (tmp_path / "new").exists()


def convert_with_few_files(tmp_path, boards: int, most_open: int, after: str = "") -> subprocess.CompletedProcess:
    """``convert`` of a corpus of ``boards`` tiny boards (then the line ``after``) into a folder,
    by a program allowed ``most_open`` files at once."""
    board = {"rows": 2, "cols": 3, "fleet": {"1": 2}, "row_tallies": [1, 1], "col_tallies": [1, 0, 1],
             "hints": [[0, 0, "sub"]]}
    corpus = tmp_path / "set.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"b{k}", **board}) + "\n" for k in range(boards)) + after)

    def few_files():
        resource.setrlimit(resource.RLIMIT_NOFILE, (most_open, most_open))
    return subprocess.run([PYTHON, str(ROOT / "main.py"), "convert", str(corpus), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, preexec_fn=few_files)


def test_7_a_set_larger_than_the_open_files_allowed_names_the_place(tmp_path):
    # the line named "316 files" (the boards and a margin), not the folder
    done = convert_with_few_files(tmp_path, 300, 60)
    assert done.returncode == 2 and one_line(done.stderr) == \
        f"{tmp_path / 'out'}: cannot be written (at least 2 files at once, and this system lets a program open 60)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.jsonl"]


def test_7_a_set_larger_than_the_open_files_allowed_is_refused_while_it_is_counted(tmp_path):
    # 100 files open at most, 80 of them the program's own: the 21st board is refused as it is read,
    # before the broken line after it (a corpus of millions is not read to its end first)
    done = convert_with_few_files(tmp_path, 30, 100, after="{]\n")
    assert done.returncode == 2 and one_line(done.stderr) == \
        f"{tmp_path / 'out'}: cannot be written (at least 21 files at once, and this system lets a program open 100)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.jsonl"]


def test_7_a_write_dropped_removes_only_the_folders_it_made_and_only_while_empty(tmp_path, monkeypatch):
    kept = tmp_path / "kept"
    kept.mkdir()
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.EIO, "Input/output error")))
        with pytest.raises(files.OutputError):
            files.write_text(kept / "new" / "sub" / "x.bs", "x", parents=True)
    assert list(kept.iterdir()) == []
    for first in ("a", "b"):                    # the output that made the folder dropped first, then last
        with pytest.raises(OSError, match="given up"):
            with files.Outputs(3, tmp_path) as outputs:
                for name in (first, "c", "d"):
                    outputs.add(kept / "new" / "sub" / f"{name}.bs", parents=True).handle.write(b"x")
                if first == "a":
                    outputs.outputs[0].discard()
                raise OSError("given up")
        assert list(kept.iterdir()) == []
    with pytest.raises(OSError):
        with files.Outputs(1, tmp_path) as outputs:
            outputs.add(kept / "new" / "x.bs", parents=True)
            (kept / "new" / "theirs.bs").write_text("another's")   # put in meanwhile
            raise OSError("given up")
    assert [p.name for p in (kept / "new").iterdir()] == ["theirs.bs"]


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB file system of the test's own (a tmpfs: root only), unmounted after the test."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                                           capture_output=True).returncode != 0:
        pytest.skip("a small file system of its own needs root and mount")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def test_7_a_hard_linked_output_on_a_full_disk_keeps_its_old_content(small_disk):
    # Written in place over its old content, the copy stopped when the disk was full: the
    # file held the new content's first 4 KB, the old content lost under both its names.
    old, other = small_disk / "old.bs", small_disk / "other.bs"
    old.write_text("old content\n")
    os.link(old, other)
    room = os.statvfs(small_disk)
    (small_disk / "filler").write_bytes(bytes(room.f_bavail * room.f_frsize - 8192))    # two pages left
    giant = ROOT / "levels" / "giants" / "09-40x40.bs"                                  # 6 KB: two pages
    done = cli("convert", giant, old)
    assert done.returncode == 2 and one_line(done.stderr) == f"{old}: cannot be written (No space left on device)"
    assert old.read_text() == other.read_text() == "old content\n" and temporaries(small_disk) == []
    (small_disk / "filler").unlink()
    assert cli("convert", giant, old).returncode == 0 and other.read_bytes() == giant.read_bytes()


@pytest.mark.parametrize("where", ["folder", "/dev/full", "read-only", "afile/x.png"])
def test_7_replay_screenshot_and_gif_to_a_bad_place_is_one_line(tmp_path, where):
    recorded = tmp_path / "run.jsonl"
    trace.record_run(levels.load(LEVEL), "forward", recorded)
    place = {"folder": tmp_path, "/dev/full": device(tmp_path, "full"), "read-only": read_only(tmp_path) / "s.png",
             "afile/x.png": recorded / "x.png"}[where]
    for flag in ("--screenshot", "--gif"):
        done = cli("replay", recorded, flag, place)
        assert done.returncode == 2 and "cannot be written" in one_line(done.stderr), done.stderr
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("name", ["s.png", "shot", "shot.v2"])     # no image suffix: a TGA was written
def test_7_a_screenshot_is_a_whole_png(tmp_path, name):
    recorded = tmp_path / "run.jsonl"
    trace.record_run(levels.load(LEVEL), "forward", recorded)
    done = cli("replay", recorded, "--screenshot", tmp_path / name)
    assert done.returncode == 0
    assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, place", [
    (["daily", "--date", "2026-01-05"], "full"), (["solvers"], "full"), (["code", LEVEL], "full"),
    (["solve", LEVEL], "full-disk"),
    (["--help"], "full"), (["print", "--help"], "full-disk"),     # argparse dropped its own failure: exit 0
])
def test_7_standard_output_on_a_full_disk_is_one_line_not_a_traceback(tmp_path, argv, place):
    out = device(tmp_path, "full") if place == "full" else tmp_path / "out.txt"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("PYTHONUNBUFFERED", None)       # unbuffered, Python itself drops the rest of a short write
    with open(out, "w") as handle:
        done = subprocess.run([PYTHON, str(ROOT / "main.py"), *map(str, argv)], stdout=handle,
                              stderr=subprocess.PIPE, text=True, timeout=60, env=env,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (8, 8)))
    assert done.returncode == 2
    assert one_line(done.stderr).startswith("standard output: cannot be written (")


def test_7_standard_error_on_a_full_disk_still_exits_2(tmp_path):
    damaged = tmp_path / "cut.bs"
    damaged.write_text('{"size":')
    with open(device(tmp_path, "full"), "w") as full:
        done = subprocess.run([PYTHON, str(ROOT / "main.py"), "code", LEVEL, damaged], stdout=subprocess.PIPE,
                              stderr=full, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout.startswith("bs1-")


# ----- 8: partial traces, and a recording that cannot be written ---------------------------


def test_8_a_full_disk_during_solve_trace_prints_the_solution_then_one_line(tmp_path):
    out = tmp_path / "t.jsonl"
    done = cli("solve", ROOT / "levels" / "10x10" / "easy" / "01.bs", "--solver", "backtracking",
               "--trace", out, limit_bytes=4096)
    assert done.returncode == 2
    assert "solved" in done.stdout and "#" in done.stdout                 # the result is kept
    assert one_line(done.stderr).startswith(f"{out}: cannot be written (")
    assert not out.exists() and temporaries(tmp_path) == []


def test_8_sigterm_during_solve_trace_leaves_no_temporary(tmp_path, corpus_dir):
    line = (corpus_dir / "csplib_prob014_minizinc.jsonl").read_text().splitlines()[-1]
    dense = tmp_path / "dense.jsonl"
    dense.write_text(line + "\n")
    process = subprocess.Popen([PYTHON, str(ROOT / "main.py"), "solve", str(dense), "--solver", "genetic",
                                "--timeout", "60", "--trace", str(tmp_path / "t.jsonl")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not temporaries(tmp_path) and time.time() < deadline:
        time.sleep(0.1)
    assert temporaries(tmp_path)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=10)
    assert process.returncode == 128 + signal.SIGTERM and one_line(err) == "terminated"
    assert temporaries(tmp_path) == [] and not (tmp_path / "t.jsonl").exists()


def test_8_ctrl_c_while_a_set_of_files_is_put_in_place_comes_after_the_last(tmp_path, monkeypatch):
    # The interrupt came between two renames: the first board was in place, the second dropped.
    olds = {name: f"old {name}\n" for name in ("a.bs", "b.bs", "c.bs")}
    for name, text in olds.items():
        (tmp_path / name).write_text(text)
    real_replace = os.replace

    def replace_then_ctrl_c(source, target):
        real_replace(source, target)
        if Path(target).name == "a.bs":
            signal.raise_signal(signal.SIGINT)
    monkeypatch.setattr(os, "replace", replace_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        with files.Outputs(3, tmp_path) as outputs:
            for name in olds:
                outputs.add(tmp_path / name, binary=False).handle.write(f"new {name}\n")
    assert {name: (tmp_path / name).read_text() for name in olds} == {name: f"new {name}\n" for name in olds}
    assert temporaries(tmp_path) == [] and signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_8_ctrl_c_while_an_output_is_opened_leaves_no_temporary(tmp_path, monkeypatch):
    # Only an OSError removed the temporary file just made: Ctrl-C during the thousands of
    # opens of a convert into a folder left one behind, and its descriptor open.
    def interrupted(fd, operation):
        raise KeyboardInterrupt
    monkeypatch.setattr(files.fcntl, "flock", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.Output(tmp_path / "x.bs")
    assert temporaries(tmp_path) == []


def test_8_a_set_of_files_is_synced_once_not_file_by_file(tmp_path, monkeypatch):
    # Each file was fsynced (a few ms each on a journalling disk), and a synced file takes as
    # long to delete: Ctrl-C during a convert of 7,576 boards took 7 s to end, the whole
    # convert 22 s (now 3 s; Ctrl-C at any point ends it within 0.3 s, none or all in place).
    synced = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    monkeypatch.setattr(os, "sync", lambda: synced.append("all"))
    with files.Outputs(50, tmp_path) as outputs:
        for k in range(50):
            outputs.add(tmp_path / f"{k}.bs", binary=False).handle.write(f"board {k}\n")
    assert synced == ["all"] and len(list(tmp_path.glob("*.bs"))) == 50 and temporaries(tmp_path) == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_8_a_signal_while_writing_to_a_reader_that_stopped_reading_ends_the_command(tmp_path, signum):
    # The write given up, its close flushed what was still buffered into the full pipe and
    # waited for ever: Ctrl-C did not end `solve --trace FIFO` once its reader had stopped.
    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)        # holds it open, never reads
    try:
        process = subprocess.Popen([PYTHON, str(ROOT / "main.py"), "solve", str(ROOT / "levels" / "giants" /
                                    "01-20x20.bs"), "--solver", "backtracking", "--timeout", "300", "--trace",
                                    str(fifo)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline, waiting = time.time() + 120, ""
        while "pipe_write" not in waiting and process.poll() is None and time.time() < deadline:
            time.sleep(0.1)
            try:
                waiting = Path(f"/proc/{process.pid}/wchan").read_text()
            except OSError:
                break
        if "pipe_write" not in waiting:
            process.kill()
            process.communicate()
            pytest.skip("the writer was not seen waiting on the pipe")
        process.send_signal(signum)
        try:
            _, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            pytest.fail("the command did not end")
        assert process.returncode == 128 + signum and one_line(err) in ("interrupted", "terminated")
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("started_by_nohup", [False, True])
def test_8_sighup_ends_a_command_as_sigterm_does_unless_it_was_started_to_ignore_it(tmp_path, started_by_nohup):
    """Closing the terminal sends SIGHUP: it killed a command outright, leaving its trace's
    temporary file behind (and a window its play's unsaved clock). It now ends a command as
    SIGTERM does; a command started under ``nohup`` (SIGHUP ignored) runs on."""
    def ignore_hang_up():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    level = ROOT / "levels" / "15x15" / "expert" / "04.bs"
    process = subprocess.Popen([PYTHON, str(ROOT / "main.py"), "solve", str(level),
                                "--solver", "backtracking", "--timeout", "60", "--trace", str(tmp_path / "t.jsonl")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=ignore_hang_up if started_by_nohup else None)
    deadline = time.time() + 60
    while not temporaries(tmp_path) and time.time() < deadline:
        time.sleep(0.1)
    assert temporaries(tmp_path)
    process.send_signal(signal.SIGHUP)
    if started_by_nohup:
        time.sleep(1.0)
        assert process.poll() is None                   # it runs on
        process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=10)
    ended_by = signal.SIGTERM if started_by_nohup else signal.SIGHUP
    assert process.returncode == 128 + ended_by and one_line(err) == "terminated"
    assert temporaries(tmp_path) == [] and not (tmp_path / "t.jsonl").exists()


def test_8_start_up_removes_stale_temporaries_in_runs_and_keeps_live_ones(tmp_path):
    from window.storage import Storage

    runs = tmp_path / "runs"
    runs.mkdir()
    old = time.time() - 3600
    live = files.Output(runs / "live.jsonl")          # a write still going on (another window)
    os.utime(live.staged, (old, old))
    stale = runs / f"{files.TEMP_PREFIX}abc{files.TEMP_SUFFIX}"     # one of a killed program
    stale.write_text("half a trace")
    os.utime(stale, (old, old))
    Storage(tmp_path)
    assert not stale.exists() and live.staged.exists()
    live.commit()
    assert (runs / "live.jsonl").exists() and temporaries(runs) == []


def test_8_a_recording_that_cannot_be_written_ends_the_recording_not_the_run(tmp_path):
    from solvers.engine import registry

    puzzle = levels.load(ROOT / "levels" / "10x10" / "easy" / "01.bs")     # some 17,000 events
    recording = trace.Recording(tmp_path / "run.jsonl", puzzle, "backtracking", {}, 0)

    class Full:
        def write(self, text):
            raise OSError(28, "No space left on device")
    recording.writer.handle = Full()                  # the disk fills during the run
    stream = recording.wrap(lambda: registry.get("backtracking").events(puzzle, trace=True, seed=0, limit=1))
    result = run_to_result(stream())
    assert result.status is Status.SOLVED
    assert recording.failure is not None and "No space left" in str(recording.failure)
    with pytest.raises(files.OutputError):
        recording.finish(result)
    assert list(tmp_path.iterdir()) == []


def test_8_in_the_window_a_run_whose_recording_fails_runs_on_and_says_so(app, monkeypatch):
    said = []
    monkeypatch.setattr(app.play.solver, "notify", said.append)

    class Full:
        def write(self, text):
            raise OSError(28, "No space left on device")
    made = trace.Recording.__init__

    def full_disk(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.writer.handle = Full()
    monkeypatch.setattr(trace.Recording, "__init__", full_disk)
    panel = app.play.solver
    run_to_the_end(app, "backtracking")
    assert panel.watch.solved and panel.watch.trace_path is None
    assert any("the run was not recorded (No space left on device)" in line for line in said), said


# ----- 9: check where output goes before the work -------------------------------------------


@pytest.mark.parametrize("argv", [
    ["solve", LEVEL, "--trace", "{dir}"],
    ["solve", LEVEL, "--trace", "{dir}/no/such/folder/t.jsonl"],
    ["bench", LEVEL, "--csv", "{dir}"],
    ["race", LEVEL, "--csv", "{ro}/x.csv"],
    ["print", LEVEL, "-o", "{ro}/x.pdf"],
    ["generate", "-o", "{dir}"],
])
def test_9_an_unwritable_output_is_refused_before_the_work(tmp_path, capsys, argv, monkeypatch):
    ro = str(read_only(tmp_path))
    from solvers.engine import batch, race

    def never(*args, **kwargs):
        raise AssertionError("the work started")
    for module, name in ((batch, "solve_record"), (trace, "record_run"), (race, "race")):
        monkeypatch.setattr(module, name, never)
    monkeypatch.setattr("solvers.authoring.generator.generate", never)
    code, out, err = run(capsys, *[a.replace("{dir}", str(tmp_path)).replace("{ro}", ro) if isinstance(a, str) else a
                                   for a in argv])
    assert code == 2 and "cannot be written" in one_line(err) and out == ""


def test_9_a_csv_that_fails_after_the_work_does_not_lose_the_table(tmp_path):
    done = cli("race", LEVEL, "--solvers", "forward", "--csv", tmp_path / "r.csv", limit_bytes=20)
    assert done.returncode == 2 and "forward" in done.stdout and "cannot be written" in one_line(done.stderr)


# ----- 10: print streams its pages ----------------------------------------------------------


def test_10_png_pages_are_drawn_one_at_a_time_and_an_interrupt_leaves_none(tmp_path, monkeypatch):
    import weakref

    from window import sheets

    alive, most = weakref.WeakSet(), [0]
    made = sheets.ImageCanvas.page

    def page(self):
        made(self)
        alive.add(self)
        most[0] = max(most[0], sum(len(canvas.images) for canvas in alive))
    monkeypatch.setattr(sheets.ImageCanvas, "page", page)
    puzzle = levels.load(LEVEL)
    items = [sheets.Item(puzzle, f"#{k}") for k in range(6)]
    written = sheets.write(items, tmp_path / "p.png", per_page=1).pages
    assert len(written) == 6 and most[0] <= 2                 # the page drawn and the one written

    drawn = sheets.draw_pages

    def interrupted(items_, canvas, per_page):
        if items_ and items_[0].title == "#3":
            raise KeyboardInterrupt
        return drawn(items_, canvas, per_page)
    monkeypatch.setattr(sheets, "draw_pages", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sheets.write(items, tmp_path / "q.png", per_page=1)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("q", "."))) == []


# ----- 11: two runs writing the same trace; long names -------------------------------------


def test_11_two_solve_traces_of_one_name_at_once_leave_one_valid_trace(tmp_path):
    out = tmp_path / "same.jsonl"
    level = ROOT / "levels" / "10x10" / "easy" / "01.bs"
    argv = [PYTHON, str(ROOT / "main.py"), "solve", str(level), "--solver", "backtracking", "--trace", str(out)]
    runs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for process in runs:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0 and err == ""
    assert trace.read_trace(out).verdict == "solved" and temporaries(tmp_path) == []


def test_11_a_245_character_trace_name_is_written(tmp_path, capsys):
    out = tmp_path / ("t" * 239 + ".jsonl")
    code, _, err = run(capsys, "solve", LEVEL, "--trace", out)
    assert code == 0, err
    assert trace.read_trace(out).verdict == "solved"


# ----- 12: Ctrl-C ---------------------------------------------------------------------------


def test_12_ctrl_c_during_check_of_dense_boards_ends_it_within_a_second(corpus_dir):
    for delay in (2.0, 3.5):
        process = subprocess.Popen([PYTHON, str(ROOT / "main.py"), "check",
                                    str(corpus_dir / "csplib_prob014_minizinc.jsonl"), "--timeout", "30"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        time.sleep(delay)
        sent = time.perf_counter()
        os.killpg(process.pid, signal.SIGINT)             # as a terminal sends it: workers too
        try:
            out, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise
        assert time.perf_counter() - sent < 1.5
        assert process.returncode == 130 and one_line(err) == "interrupted"


# ----- 13: flags, CSPLib ids, the input as the output, long titles, CSV formulas ------------


@pytest.mark.parametrize("argv", [
    ["print", LEVEL, "-o", "x.pdf", "--timeout", value] for value in ("nan", "inf", "1e400", "-5")
] + [["race", LEVEL, "--timeout", value] for value in ("nan", "-5", "inf")] + [
    ["race", LEVEL, "--seed", "-1"], ["replay", "x.jsonl", "--at", "-1"]])
def test_13_every_flag_is_checked_when_parsed(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main.main([str(a) for a in argv])
    assert stop.value.code == 2 and "error: argument" in capsys.readouterr().err


def test_13_a_repeated_csplib_board_id_is_refused(tmp_path):
    sample = (ROOT.parent / "shared" / "corpus" / "raw" / "csplib-rubin-sample.txt")
    text = sample.read_text() if sample.exists() else None
    if text is None:
        pytest.skip("the CSPLib sample is not beside this checkout")
    ids = [line for line in text.splitlines() if line.startswith("Board ID:")]
    repeated = tmp_path / "twice.txt"
    repeated.write_text(text.replace(ids[1], ids[0]))
    with pytest.raises(levels.LevelError, match="repeats the board of line"):
        formats.read(repeated)


def test_13_solve_trace_over_its_own_level_is_refused(tmp_path, capsys):
    mine = tmp_path / "mine.bs"
    mine.write_bytes(LEVEL.read_bytes())
    code, out, err = run(capsys, "solve", mine, "--trace", mine)
    assert code == 2 and "is the input" in one_line(err) and mine.read_bytes() == LEVEL.read_bytes()


@pytest.mark.parametrize("argv", [
    ["solve", LEVEL, "--solver", "{mine}", "--trace", "{mine}"],
    ["solve", LEVEL, "--solver", "cmd:python3 {mine}", "--trace", "{mine}"],
    ["bench", LEVEL, "--solver", "{mine}", "--csv", "{mine}"],
    ["race", LEVEL, "--solver", "{mine}", "--solvers", "forward", "--csv", "{mine}"],
    ["race", LEVEL, "--solvers", "forward,{mine}", "--csv", "{mine}"],
    ["play", LEVEL, "--settings", "{settings}", "--screenshot", "{settings}"],
])
def test_13_an_output_over_a_solver_of_ones_own_or_a_settings_file_is_refused(tmp_path, capsys, monkeypatch, argv):
    # Only the levels were inputs: `solve --solver mine.py --trace mine.py` replaced the
    # player's solver with a trace, `play --settings s.yaml --screenshot s.yaml` their settings.
    monkeypatch.chdir(tmp_path)
    assert main.main(["new-solver", "mine.py"]) == 0
    (tmp_path / "s.yaml").write_text("ui: {}\n")
    kept = {name: (tmp_path / name).read_bytes() for name in ("mine.py", "s.yaml")}
    capsys.readouterr()
    code, _, err = run(capsys, *[str(a).format(mine="mine.py", settings="s.yaml") for a in argv])
    assert code == 2 and "is the input" in one_line(err)
    assert {name: (tmp_path / name).read_bytes() for name in kept} == kept


def test_13_a_long_title_fits_its_slot_on_the_page():
    from fpdf import FPDF

    from window import sheets

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_font("Helvetica", size=11)
    cut = sheets.fit("W" * 100_000, 80.0, pdf.get_string_width)
    assert cut.endswith("...") and pdf.get_string_width(cut) <= 80.0 < pdf.get_string_width(cut + "W")
    assert sheets.fit("short", 80.0, pdf.get_string_width) == "short"


def test_13_csv_cells_are_escaped_against_formulas(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("=HYPERLINK(1).bs").write_bytes(LEVEL.read_bytes())
    out = tmp_path / "b.csv"
    assert run(capsys, "bench", "=HYPERLINK(1).bs", "--csv", out)[0] == 0
    (row,) = list(csv.DictReader(out.open()))[:1]
    assert row["level"].startswith("'") and not row["level"].startswith(("=", "+", "-", "@"))
    assert files.csv_cell("-5") == "'-5" and files.csv_cell(-5) == -5 and files.csv_cell("a=b") == "a=b"


def test_13_a_trace_of_solve_json_is_still_json(tmp_path, capsys):
    code, out, _ = run(capsys, "solve", LEVEL, "--json", "--trace", tmp_path / "t.jsonl")
    assert code == 0 and json.loads(out)["status"] == "solved"


def test_print_to_a_name_ending_with_a_slash_writes_no_file_of_that_name(tmp_path, capsys, monkeypatch):
    """``print -o book.pdf/`` wrote the file ``book.pdf``: its check was asked of the name as a
    path, which drops the slash."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "print", LEVEL, "-o", "book.pdf/")
    assert code == 2 and out == "" and "book.pdf/: cannot be written (names a folder" in one_line(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("exists", [False, True])
def test_an_output_name_ending_with_a_slash_is_a_folder_not_a_file(tmp_path, capsys, monkeypatch, exists):
    monkeypatch.chdir(tmp_path)
    if exists:
        Path("runs").mkdir()
    code, out, err = run(capsys, "solve", LEVEL, "--trace", "runs/")
    assert code == 2 and "runs/: cannot be written (names a folder" in one_line(err)
    assert Path("runs").is_dir() == exists and (not exists or not any(Path("runs").iterdir()))
    assert sorted(p.name for p in tmp_path.iterdir()) == (["runs"] if exists else [])


def test_a_name_ending_with_a_slash_is_refused_by_every_write_not_only_the_commands_checks(tmp_path, capsys):
    # Output took the name as a Path, which drops the slash: new-solver x.py/ wrote x.py.
    with pytest.raises(files.OutputError, match="names a folder: it ends with a slash"):
        files.write_text(f"{tmp_path / 'x.bs'}/", "x")
    named = f"{tmp_path / 'x.py'}/"
    code, _, err = run(capsys, "new-solver", named)
    assert code == 2 and one_line(err) == f"{named}: cannot be written (names a folder: it ends with a slash)"
    assert list(tmp_path.iterdir()) == []
