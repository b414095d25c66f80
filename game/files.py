"""Writing a file: the one way every output of the program reaches the disk.

Levels, traces, sheets (PDF and PNG pages), GIFs, CSVs, screenshots, saved progress and the
solved list are all written by :class:`Output` (or its short forms :func:`write_text`,
:func:`write_bytes`, :func:`write_with`). What it does with the path it is given:

- a regular file, or nothing yet: the content goes to a temporary file of a unique, short name
  beside it (``.battleships-XXXXXXXX.tmp``, so any name the folder accepts works), which is
  synced and then renamed over the path: a reader sees the old file or the new one, never a
  mix, and a failed or interrupted write leaves the old file as it was and no temporary file.
  The new file gets the old file's mode, its ACL and ``user.*`` extended attributes (where the
  file system has them) and, written by root, its owner; a file that was not there is made as
  ``open`` makes one (the umask, or the folder's default ACL).
- a regular file with other hard links: written in place once the whole new content has been
  staged beside it, as ``cp`` does, so every name of the file sees the new content.
- a symbolic link: followed, as a shell's ``>`` follows it; its target is written as above.
  The link itself is never replaced.
- a character device or a FIFO (``/dev/null``, a terminal, a pipe someone reads): written
  through, never replaced; a FIFO that nobody reads is refused rather than waited on.
- a name of a descriptor the program was given (``/dev/stdout``, ``/dev/fd/3``,
  ``/proc/self/fd/1``): that descriptor is written, whatever it is open on (a pipe, or a file
  the shell opened with ``>`` or ``>>``, written from where the shell left it, never replaced).
- a folder, a socket, a block device, a folder that cannot be written, a file made read-only
  (its mode, or this user's rights: as a shell's ``>`` refuses it), the input file itself:
  refused with :class:`OutputError`, a one-line reason, before anything is written.

:func:`check` runs the same tests without writing, so a command checks where its output goes
before the work starts. A temporary file is locked while it is written; :func:`remove_stale`
deletes the ones no program holds any more (a program killed while it wrote).
"""

from __future__ import annotations

import base64
import errno
import fcntl
import os
import re
import stat
import sys
import tempfile
import time
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Callable, Iterable, Iterator, Self, Union

PathLike = Union[str, os.PathLike]
TEMP_PREFIX, TEMP_SUFFIX = ".battleships-", ".tmp"
# A temporary file no program has locked for this long belongs to a program that was killed
# (one being created is locked within microseconds).
STALE_AGE = 10.0
MAX_SLUG = 80
MAX_SHOWN = 1000        # characters of a name in a message (any real path is shorter)


class OutputError(OSError):
    """An output that cannot be written; ``str()`` is one line naming the path and the reason."""

    def __init__(self, path: PathLike, reason: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, reason, str(path))
        self.path, self.reason = str(path), reason
        self.result: object = None  # what was computed, when only its copy on disk failed

    def __str__(self) -> str:
        return f"{shown(self.path)}: cannot be written ({self.reason})"


def failure(path: PathLike, error: BaseException, about: str = "", code: int = errno.EIO) -> OutputError:
    """``error``, met while writing ``path``, as the :class:`OutputError` naming it (an
    OutputError as it is), with its :func:`reason`; ``about``: what failed, said before the
    reason; ``code``: the errno when the error has none."""
    if isinstance(error, OutputError):
        return error
    said = reason(error)
    return OutputError(path, f"{about}: {said}" if about else said, getattr(error, "errno", None) or code)


def reason(error: BaseException) -> str:
    """Why ``error`` happened, on one line, for a message that names the file itself: the
    system's reason (``strerror``; an :class:`OutputError`'s is its own), else the error's
    message, else its kind."""
    return shown(" ".join(str(getattr(error, "strerror", None) or error).split()) or error.__class__.__name__)


def why(error: BaseException, path: PathLike) -> str:
    """One line naming ``path`` and why writing it failed."""
    return str(failure(path, error))


def shown(name: PathLike, width: int = MAX_SHOWN) -> str:
    """A name (a path, a flag's value) as a one-line message shows it: as it is when it is plain
    text; quoted and escaped as Python writes a string when it holds a character that is not
    printable (a newline that would break the line, an escape that would drive the terminal, a
    byte that is not UTF-8, a mark that turns text around); cut in its middle, with its length,
    when it is longer than ``width`` characters."""
    text = os.fsdecode(name) if isinstance(name, bytes) else str(name)
    if len(text) > width:
        text = f"{text[:width // 2]}...{text[-width // 4:]} ({len(text):,} characters)"
    return text if text.isprintable() else repr(text)


_SWEPT: set[str] = set()


# A name of a descriptor this program has open: /dev/stdout, /dev/fd/N, /proc/self/fd/N.
_DESCRIPTOR = re.compile(r"/dev/(?:fd/(?P<n>[0-9]{1,9})|(?P<std>stdin|stdout|stderr))"
                         r"|/proc/(?P<pid>self|thread-self|[0-9]+)/fd/(?P<m>[0-9]{1,9})")
_STANDARD = {"stdin": 0, "stdout": 1, "stderr": 2}


def descriptor(path: PathLike) -> int | None:
    """The descriptor of this program that ``path`` names (``/dev/stdout``, ``/dev/fd/3``,
    ``/proc/self/fd/1``, or a symbolic link to one of them), else None. Opening such a name
    opens its file again, at its start: a file the shell opened for the command (``> log``,
    ``>> log``) would be written over from its first byte, or replaced, losing what was
    written to it before; the descriptor itself is written instead, as a shell's ``>&N``."""
    text = os.path.abspath(os.fsdecode(path))
    for _ in range(40):                 # links followed one at a time; a loop ends here
        found = _DESCRIPTOR.fullmatch(text)
        if found:
            if found["pid"] not in (None, "self", "thread-self", str(os.getpid())):
                return None             # another program's descriptor: its file, as any file
            return _STANDARD[found["std"]] if found["std"] else int(found["n"] or found["m"])
        try:
            link = os.readlink(text)
        except (OSError, ValueError):
            return None
        text = os.path.normpath(os.path.join(os.path.dirname(text), link))
    return None


def _check_descriptor(path: PathLike, number: int) -> None:
    """Refuse a descriptor that is not open for writing."""
    try:
        flags = fcntl.fcntl(number, fcntl.F_GETFL)
    except (OSError, OverflowError):
        raise OutputError(path, f"descriptor {number} is not open", errno.EBADF) from None
    if flags & os.O_ACCMODE == os.O_RDONLY:
        raise OutputError(path, f"descriptor {number} is open for reading only", errno.EBADF)


def _dup_through(number: int) -> int:
    """A descriptor of our own on the same open file (its offset shared, as ``>&N`` shares it),
    after what this program printed to it (standard output, standard error) is flushed."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None and stream.fileno() == number:
                stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    return os.dup(number)


def _target(path: Path) -> Path:
    """Where a write of ``path`` lands: symbolic links followed (a dangling one: its target)."""
    if not os.path.islink(path):
        return path
    try:
        target = Path(os.path.realpath(path))
    except OSError as error:            # a link that may not be read (another program's /proc/PID/fd/N)
        raise failure(path, error, code=errno.EACCES) from None
    if os.path.islink(target):
        raise OutputError(path, "a loop of symbolic links", errno.ELOOP)
    return target


def _kind(mode: int) -> str | None:
    """Why a node of this mode is refused, or None when it can be written."""
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a file"
    if stat.S_ISBLK(mode):
        return "is a block device; not written"
    return None


def check(path: PathLike, inputs: Iterable[PathLike] = (), parents: bool = False, probe: bool = True,
          new: bool = False) -> Path:
    """Refuse (:class:`OutputError`) an output that cannot be written, before any work: a
    folder, a socket or block device, a place that cannot be written, a name too long, or one
    of ``inputs``; a missing folder unless ``parents`` (then it will be made, as ``mkdir -p``
    makes it); with ``new``, anything already at the path (a file, a link, a device). The
    folder is tried by making a temporary file there (with ``probe``: asking ``access`` is
    wrong for root and read-only mounts). Returns where the write will land (symbolic links
    followed)."""
    if not str(path):                   # Path("") would be the current folder
        raise OutputError("''", "an empty name is not a file name", errno.ENOENT)
    if str(path).endswith(tuple(filter(None, (os.sep, os.altsep)))):    # Path() would drop the "/"
        raise OutputError(path, "names a folder: it ends with a slash", errno.EISDIR)
    path = Path(path)
    if path.name in ("", ".", ".."):
        raise OutputError(path, "is a folder, not a file name", errno.EISDIR)
    if "\0" in str(path):
        raise OutputError(repr(str(path)), "a file name cannot hold a NUL character", errno.EINVAL)
    if new and os.path.lexists(path):
        raise _exists(path)
    number = descriptor(path)
    if number is not None:
        _check_descriptor(path, number)
        return path
    target = _target(path)
    try:
        info = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):     # a file on the way: the folders below name it
        info = None
    except OSError as error:
        raise failure(path, error) from None
    if info is not None:
        refused = _kind(info.st_mode)
        if refused:
            raise OutputError(path, refused, errno.EISDIR if refused == "is a folder" else errno.EINVAL)
        for source in inputs:
            try:
                other = os.stat(source)
            except (OSError, ValueError):   # no such input, or a name the system refuses
                continue
            if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino) and stat.S_ISREG(info.st_mode):
                raise OutputError(path, f"is the input {shown(source)}; give another name", errno.EINVAL)
        if not stat.S_ISREG(info.st_mode):
            if not os.access(target, os.W_OK):
                raise OutputError(path, "permission denied", errno.EACCES)
            return target
        if not os.access(target, os.W_OK) or not info.st_mode & 0o222:
            # made read-only (by its owner, or for everyone): a rename beside it would replace it
            raise OutputError(path, "is a read-only file; not replaced", errno.EACCES)
    folder = wanted = target.parent
    while not folder.exists():           # up to the nearest that is there
        if os.path.lexists(folder) or folder == folder.parent:
            raise OutputError(path, f"{shown(folder)} is a broken link", errno.ENOENT)
        folder = folder.parent
    if not folder.is_dir():
        raise OutputError(path, f"{shown(folder)} is not a folder", errno.ENOTDIR)
    if folder != wanted and not parents:
        raise OutputError(path, f"no folder {shown(wanted)}", errno.ENOENT)
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if any(len(os.fsencode(part)) > longest for part in target.relative_to(folder).parts if part != ".."):
        raise OutputError(path, "file name too long", errno.ENAMETOOLONG)
    if not probe:                        # the caller's own temporary file is the try
        return target
    try:                                 # a real try: permissions, a read-only mount, root
        fd, name = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
    except OSError as error:
        raise failure(path, error, f"the folder {shown(folder)} cannot be written", errno.EACCES) from None
    os.close(fd)
    os.unlink(name)
    return target


class _Committed:
    """A write that a ``with`` block commits when it ends normally and discards otherwise."""

    def commit(self) -> object:
        """Put what was written in place (what a subclass returns is its own)."""
        raise NotImplementedError

    def discard(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


class Output(_Committed):
    """One file being written: ``handle`` takes the content, :meth:`commit` puts it in place,
    :meth:`discard` drops it. As a context manager: commit on success, discard on any
    exception (Ctrl-C included). The checks of :func:`check` run when it opens."""

    def __init__(self, path: PathLike, binary: bool = False, inputs: Iterable[PathLike] = (),
                 parents: bool = False, buffering: int = -1, new: bool = False) -> None:
        self.target = check(path, inputs, parents, probe=False, new=new)   # as given: Path() drops a final "/"
        self.path = Path(path)
        self._new = new                     # never over a file made meanwhile: linked into place
        self._placed: tuple[int, int] | None = None      # the new file linked in place (device, inode)
        self._temporary: Path | None = None
        self._in_place = False
        self._done = False
        self._sealed = False
        self._made: list[Path] = []         # the folders this write made, deepest first
        number = descriptor(self.path)
        info = _stat(self.target) if number is None else None
        fd = -1
        try:
            if number is not None:
                fd = _dup_through(number)
            elif info is not None and not stat.S_ISREG(info.st_mode):
                fd = _open_through(self.path, self.target, info)
            else:
                self._make_folders(self.target.parent)
                remove_stale(self.target.parent, once=True)
                # a file replaced: no one else may read the new content until it has the old
                # file's mode; a new file: made as ``open`` makes it (0o666 less the umask, or
                # what the folder's default ACL gives), its mode left as made
                fd = self._new_temporary(0o600 if info is not None else 0o666)
                fcntl.flock(fd, fcntl.LOCK_EX)
                self._in_place = info is not None and info.st_nlink > 1
                self._mode = stat.S_IMODE(info.st_mode) if info is not None else None
                self._owner = (info.st_uid, info.st_gid) if info is not None else None
            self.handle: IO[Any] = (os.fdopen(fd, "wb", buffering=buffering) if binary
                                    else os.fdopen(fd, "w", buffering=buffering, encoding="utf-8", newline="\n"))
        except BaseException as error:      # Ctrl-C too: no temporary file left, no descriptor open
            if fd >= 0 and not hasattr(self, "handle"):
                os.close(fd)
            self._unlink()
            self._remove_folders()
            if isinstance(error, OSError):
                raise failure(self.path, error) from None
            raise

    def _new_temporary(self, mode: int) -> int:
        """A new temporary file of ours beside the target, open for writing and reading back (a
        trace rewrites its start from what it wrote, as mkstemp's file allowed); its name is kept
        before the file is made, so an interrupt at any point leaves none that is not known."""
        for _ in range(100):
            part = base64.b32encode(os.urandom(5)).decode("ascii").lower()
            self._temporary = self.target.parent / f"{TEMP_PREFIX}{part}{TEMP_SUFFIX}"
            try:
                return os.open(self._temporary, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
            except FileExistsError:
                self._temporary = None              # another's: never removed as ours
        raise FileExistsError(errno.EEXIST, "no free temporary name")

    @property
    def staged(self) -> Path | None:
        """The temporary file holding what was written so far (None when written through)."""
        return self._temporary

    @property
    def through(self) -> bool:
        """Written straight to a device or FIFO (not atomic: there is nothing to replace)."""
        return self._temporary is None

    def flush(self) -> None:
        """Hand every byte written to the system, still beside the path: where a full disk
        shows. On failure nothing is left (OutputError)."""
        if not self._done:
            with self._or_discard():
                self.handle.flush()

    def seal(self, synced: bool = False) -> None:
        """Bring every byte written to the disk (flushed and synced), still beside the path;
        ``synced``: the caller has synced the disk already. On failure nothing is left
        (OutputError)."""
        if self._done or self._sealed:
            return
        self.flush()
        with self._or_discard():
            if self._temporary is not None:
                fd = self.handle.fileno()
                if not synced:
                    os.fsync(fd)
                if self._owner is not None and self._owner != (os.geteuid(), os.getegid()):
                    try:                # root writing another's file: it stays theirs, as in place
                        os.fchown(fd, *self._owner)
                    except PermissionError:
                        pass            # only root may give a file away
                if self._mode is not None:
                    os.fchmod(fd, self._mode)
                    if not self._in_place:
                        _copy_attributes(self.target, fd)
        self._sealed = True

    def commit(self) -> Path:
        """Put the content in place; on failure the old file is as it was (OutputError)."""
        if self._done:
            return self.path
        self.seal()
        with self._or_discard():
            if self._temporary is not None:
                if self._in_place:
                    _copy_in_place(self._temporary, self.target)
                    self._unlink()
                elif self._new:
                    info = os.fstat(self.handle.fileno())
                    _link_new(self._temporary, self.target, self.path)
                    self._placed = (info.st_dev, info.st_ino)
                    self._unlink()
                else:
                    os.replace(self._temporary, self.target)
                    self._temporary = None
            self.handle.close()
        self._done = True
        self._made = []
        return self.path

    def withdraw(self) -> None:
        """A new file this write put in place (``new``) removed again, while it is the one
        written: a set that fails after it leaves none of its new files."""
        if self._placed is not None:
            try:
                info = os.lstat(self.target)
                if (info.st_dev, info.st_ino) == self._placed:
                    os.unlink(self.target)
            except OSError:
                pass
            self._placed = None

    @contextmanager
    def _or_discard(self) -> Iterator[None]:
        """A step of the write: on any failure what was written is dropped; an OSError becomes
        an OutputError naming the path."""
        try:
            yield
        except BaseException as error:
            self.discard()
            if isinstance(error, OSError):
                raise failure(self.path, error) from None
            raise

    def discard(self) -> None:
        """Drop what was written (nothing is left beside the path)."""
        self._done = True
        if self._temporary is None:
            _drop_buffer(self.handle)
        try:
            self.handle.close()
        except (OSError, ValueError):
            pass
        self._unlink()
        self._remove_folders()

    def _make_folders(self, folder: Path) -> None:
        """``folder`` made, and every folder missing above it (as ``mkdir -p``), each noted as
        made by this write as soon as it is."""
        missing = []
        while not os.path.isdir(folder) and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
        for folder in reversed(missing):
            try:
                os.mkdir(folder)
            except FileExistsError:     # made meanwhile by another: not ours
                if not os.path.isdir(folder):
                    raise
                continue
            self._made.insert(0, folder)

    def _remove_folders(self) -> None:
        """The folders this write made, removed while they are empty (a write given up leaves
        no empty folder behind); one another write has put something in stays, and so do
        the folders above it (tried again at the next discard: a set of files drops each)."""
        while self._made:
            try:
                os.rmdir(self._made[0])
            except FileNotFoundError:
                pass
            except OSError:
                return
            del self._made[0]

    def _unlink(self) -> None:
        if self._temporary is not None:
            try:
                os.unlink(self._temporary)
            except FileNotFoundError:
                pass
            self._temporary = None


def _drop_buffer(handle: IO[Any]) -> None:
    """What a write-through handle still buffers goes nowhere when it closes: its descriptor is
    made /dev/null first. Flushed to a reader that stopped reading (a FIFO, a pipe), the close
    of a write given up (Ctrl-C) waited for ever."""
    try:
        fd = handle.fileno()
        null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
    except (OSError, ValueError):       # closed already
        return
    try:
        os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _open_through(path: Path, target: Path, info: os.stat_result) -> int:
    """A character device or FIFO opened for writing (never created, truncated or replaced)."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        if error.errno == errno.ENXIO and stat.S_ISFIFO(info.st_mode):
            raise OutputError(path, "is a FIFO that nobody reads", errno.ENXIO) from None
        raise
    os.set_blocking(fd, True)
    return fd


# The extended attributes a replaced file keeps: the user's own and its access ACL.
_KEPT_ATTRIBUTE = re.compile(r"user\..*|system\.posix_acl_access", re.DOTALL)
# A system, file system or file that has no such attributes, or may not be given one.
_NO_ATTRIBUTES = {errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM, errno.ENOSYS}


def _copy_attributes(source: Path, fd: int) -> None:
    """The kept extended attributes of ``source`` (``user.*``, and its ACL, which says who else
    may read or write it) given to the file open as ``fd``, and those of ``fd`` that ``source``
    has not (an ACL inherited from the folder) removed: a file replaced keeps its rights. Passed
    over where the system or the file system has none, or refuses one; any other failure
    (a full disk) is raised."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = [name for name in os.listxattr(source) if _KEPT_ATTRIBUTE.fullmatch(name)]
        extra = [name for name in os.listxattr(fd) if _KEPT_ATTRIBUTE.fullmatch(name) and name not in names]
    except OSError as error:
        if error.errno in _NO_ATTRIBUTES:
            return
        raise
    for name in extra:
        try:
            os.removexattr(fd, name)
        except OSError as error:
            if error.errno not in (*_NO_ATTRIBUTES, errno.ENODATA):
                raise
    for name in names:
        try:
            value = os.getxattr(source, name)
        except OSError as error:    # gone meanwhile, or a user attribute of a file we may not read
            if error.errno in (*_NO_ATTRIBUTES, errno.ENODATA, errno.EACCES):
                continue
            raise
        try:
            os.setxattr(fd, name, value)
        except OSError as error:
            if error.errno not in _NO_ATTRIBUTES:
                raise


def _exists(path: PathLike) -> OutputError:
    return OutputError(path, "exists already; it is not replaced", errno.EEXIST)


def _link_new(source: Path, target: Path, path: PathLike) -> None:
    """``source`` put at ``target``, which must not exist: a hard link fails if anything was
    made there since it was checked, where a rename would replace it. A file system without
    hard links: looked at once more, then renamed."""
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise _exists(path) from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
            raise
        if os.path.lexists(target):
            raise _exists(path) from None
        os.replace(source, target)


def _copy_in_place(source: Path, target: Path) -> None:
    """The staged content copied over a hard-linked file (its inode kept, so every link sees it)."""
    with open(source, "rb") as staged, open(target, "r+b") as out:
        try:        # the room first: a full disk fails here, before a byte of the old file changes
            getattr(os, "posix_fallocate", lambda *_: None)(out.fileno(), 0, os.fstat(staged.fileno()).st_size)
        except OSError as error:
            if error.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):     # a system that cannot
                raise
        while chunk := staged.read(1 << 20):
            out.write(chunk)
        out.truncate()
        out.flush()
        os.fsync(out.fileno())


class Outputs(_Committed):
    """Several files written one after another and put in place together (the pages of a
    print, the boards of a file converted into a folder): each is written to its temporary
    file as it comes, so only one is in memory; :meth:`commit` renames them all,
    :meth:`discard` (or any exception inside ``with``) drops them all. Each holds an open file
    until then, so the limit on open files is raised to fit; ``where`` (the folder or the
    book the set is written as) is named when it cannot be."""

    def __init__(self, count: int, where: PathLike) -> None:
        self.outputs: list[Output] = []
        _room_for_files(count, where)

    def add(self, path: PathLike, binary: bool = True, inputs: Iterable[PathLike] = (),
            parents: bool = False, new: bool = False) -> Output:
        self.outputs.append(Output(path, binary=binary, inputs=inputs, parents=parents, new=new))
        return self.outputs[-1]

    def commit(self) -> list[Path]:
        """Every file flushed before the first is put in place: a full disk on the last leaves
        every old file as it was and none of the new ones. Then the disk is synced once for the
        set (a file's own fsync costs milliseconds, and a synced file as many to delete, so a
        set dropped after its files were synced one by one took seconds to end) and the files
        are renamed; a stop signal (Ctrl-C, SIGTERM, SIGHUP) that comes meanwhile is taken
        after the last: never a set half renamed."""
        try:
            for output in self.outputs:
                output.flush()
            with _stops_held():
                os.sync()
                for output in self.outputs:
                    output.seal(synced=True)
                return [output.commit() for output in self.outputs]
        except BaseException:
            for output in self.outputs:
                output.withdraw()
            self.discard()
            raise

    def discard(self) -> None:
        for output in reversed(self.outputs):   # the last first: the folder the first made is empty by then
            output.discard()


@contextmanager
def _stops_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP held back until the block ends: one that comes meanwhile is
    noted, then given to the handler it was meant for. (Python runs every handler in the main
    thread, so a signal mask would not hold it: another thread takes the signal for it.)"""
    import signal

    came: list[int] = []
    held: dict[int, Any] = {}
    try:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            handler = signal.getsignal(signum)
            if handler is not None and handler != signal.SIG_IGN:    # None: not Python's to change
                held[signum] = signal.signal(signum, lambda number, frame: came.append(number))
    except ValueError:          # not the main thread: only it may change handlers (and runs them)
        pass
    try:
        yield
    finally:
        for stop, handler in held.items():
            signal.signal(stop, handler)
        for number in came:
            signal.raise_signal(number)


OWN_FILES = 80
"""Open files kept for the program's own use beside a set of :class:`Outputs`."""


def most_at_once() -> int | None:
    """The most files a set of :class:`Outputs` may hold on this system (None: no limit)."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return None if hard == resource.RLIM_INFINITY else hard - OWN_FILES


def too_many(count: int, where: PathLike, counting: bool = False) -> OutputError:
    """The refusal of a set of ``count`` files (``counting``: at least that many, while they are
    still being counted) that cannot be open at once; ``where`` names the set."""
    import resource

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return OutputError(where, f"{'at least ' if counting else ''}{count:,} files at once, and this system lets "
                              f"a program open {hard:,}", errno.EMFILE)


def _room_for_files(count: int, where: PathLike) -> None:
    """The limit on open files raised to hold ``count`` more (and the program's own)."""
    import resource

    needed = count + OWN_FILES
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        most = most_at_once()
        if most is not None and count > most:
            raise too_many(count, where)
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def write_with(path: PathLike, fill: Callable[[IO[bytes]], object], inputs: Iterable[PathLike] = (),
               parents: bool = False) -> Path:
    """Write ``path`` by ``fill(handle)`` (a binary file to write into, e.g. for Pillow or pygame)."""
    with Output(path, binary=True, inputs=inputs, parents=parents) as out:
        fill(out.handle)
    return out.path


def write_bytes(path: PathLike, data: bytes, inputs: Iterable[PathLike] = (), parents: bool = False) -> Path:
    return write_with(path, lambda handle: handle.write(data), inputs, parents)


def write_text(path: PathLike, text: str, inputs: Iterable[PathLike] = (), parents: bool = False) -> Path:
    """Write ``text`` (UTF-8, newlines as ``\\n``) to ``path`` as this module writes files."""
    with Output(path, inputs=inputs, parents=parents) as out:
        out.handle.write(text)
    return out.path


def remove_stale(folder: PathLike, older_than: float = STALE_AGE, also: re.Pattern | None = None,
                 once: bool = False) -> list[Path]:
    """Delete the temporary files in ``folder`` that no program holds any more (a write killed
    half way), older than ``older_than`` seconds; ``also``: other names of ours (of older
    versions). With ``once``, a folder is looked at once per run."""
    folder = str(folder)
    if once:
        if folder in _SWEPT:
            return []
        _SWEPT.add(folder)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        ours = (entry.name.startswith(TEMP_PREFIX) and entry.name.endswith(TEMP_SUFFIX)) or \
            (also is not None and also.fullmatch(entry.name))
        if not ours:
            continue
        try:
            young = now - entry.stat(follow_symlinks=False).st_mtime < older_than
            if young or not entry.is_file(follow_symlinks=False):
                continue
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue                                # a write still going on
            finally:
                os.close(fd)
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            pass
    return removed


# Latin letters that no decomposition takes to ASCII, spelled as they are in ASCII.
_SPELLED = str.maketrans({"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O",
                          "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH",
                          "ı": "i", "ħ": "h", "Ħ": "H"})


def slug(text: str, fallback: str = "untitled", limit: int = MAX_SLUG) -> str:
    """A file name part made from any text (a level's name, a solver's, a title): ASCII letters,
    digits and single hyphens, at most ``limit`` characters, never empty, never a path. Accents
    go (``é`` is ``e``) and the Latin letters without one are spelled out (``ø`` ``o``, ``ß``
    ``ss``); letters of other scripts go."""
    plain = unicodedata.normalize("NFKD", str(text)[: limit * 8].translate(_SPELLED))
    plain = plain.encode("ascii", "ignore").decode("ascii")
    cut = re.sub(r"[^A-Za-z0-9]+", "-", plain).strip("-").lower()[:limit].strip("-")
    return cut or fallback


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A CSV cell that a spreadsheet will not run as a formula: text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return gets a leading apostrophe; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return value


def write_csv(path: PathLike, header: list[str], rows: Iterable[list]) -> Path:
    """A table as CSV written by :class:`Output`, every cell through :func:`csv_cell`."""
    import csv

    with Output(path) as out:
        writer = csv.writer(out.handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([csv_cell(cell) for cell in row])
    return out.path
