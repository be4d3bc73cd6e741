"""Reading and writing files: the one rule for every file the library reads or writes.

Reading: :func:`read_file` is the one way the library reads a file it is given (a rule-set
file, a record, a table file): a regular file, opened without blocking, read up to a size cap
(:mod:`spitemalice.limits`), so neither time nor memory depends on what the path names.

Writing:

Every writer (records, pictures, per-game data, reports, plots, a saved game) goes through
:func:`write_file` or :class:`NewFile`, and a command checks its destinations with
:func:`check_new` before it does any work.  The rule:

* **Never through a link.**  The content is written to a new temporary file beside the
  destination (``.NAME.PID.N.tmp``, created exclusively and never through a link), then
  renamed onto the destination's name.  A rename replaces the name itself: a symbolic link
  planted there is replaced or refused, never followed, so nothing outside the folder named
  is ever written.
* **Never over an existing file unless asked.**  Without ``force`` anything at the name (a
  file, a link, even a dangling one) is refused with :class:`~spitemalice.errors.OutputError`
  and left as it was; the final step is then a hard link of the temporary file to the name,
  which fails if the name appeared meanwhile.  With ``force`` a file or link there is
  replaced.  A folder at the name is always refused.
* **Whole or not at all.**  A reader never sees half a file: until the rename the
  destination holds its old content (or nothing); a write that fails or is interrupted
  removes its temporary file.
* **A secret is its owner's alone.**  A file that holds a secret (the record of a game still
  being played, whose deal's seed gives every hidden card; the play server's table files,
  with the seats' token hashes) is created :data:`SECRET_FILE` (``0o600``), and a folder
  made for such files :data:`SECRET_FOLDER` (``0o700``): the file is created with that mode,
  never widened and narrowed later, so no other user can open it in between.
  ``tests/contract/test_secret_files.py`` lists every writer and which kind it writes.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
import tempfile
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from spitemalice.errors import OutputError
from spitemalice.wording import for_terminal

SECRET_FILE = 0o600
"""The mode of a file holding a secret: read and written by its owner alone."""

SECRET_FOLDER = 0o700
"""The mode of a folder made for secret files (the play server's records folder)."""

PUBLIC_FILE = 0o644
"""The mode of any other file the library writes (less the umask)."""

_TEMPORARY = itertools.count()
FORCE = "--force"
"""How a refusal tells a person on the command line to replace a file (the default
``how_to_replace``); the Python API passes its own (``"overwrite=True"``)."""


class FileRefused(Exception):
    """Why :func:`read_file` would not read a file (callers re-raise their own error)."""


def read_file(path: str | os.PathLike[str], cap: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``cap`` of them.

    The file is opened without blocking (a FIFO cannot hang the reader), must be a regular file
    (not a device such as ``/dev/zero``, a FIFO or a directory), and is read up to ``cap + 1``
    bytes, so neither time nor memory depends on what the path names.

    Raises:
        FileRefused: the file cannot be opened or read, is not a regular file, or is larger
            than ``cap`` bytes; the message says why, without the path.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise FileRefused(str(error.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused("it is not a regular file (a device, FIFO or directory is never "
                              "read)")
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise FileRefused(str(error.strerror)) from None
    finally:
        os.close(fd)
    if size > cap:
        raise FileRefused(f"it is larger than {cap:,} bytes, the most read")
    return b"".join(chunks)


def check_new(path: str | os.PathLike[str], *, force: bool = False, what: str = "",
              how_to_replace: str = FORCE, probe: bool = True) -> Path:
    """Refuse now what :func:`write_file` would refuse at ``path`` later, so a command stops
    before it plays a game rather than after.

    Args:
        path: the file to be written.
        force: whether an existing file or link at ``path`` may be replaced.
        what: how the message names the destination (an option such as ``"--plot"``).
        how_to_replace: how the message says to allow replacing a file.
        probe: whether to make and remove a file in the folder to see that it takes one
            (:class:`NewFile` makes its temporary file at once instead).

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        OutputError: ``path`` is a folder, a device, a named pipe or a socket (never
            replaced, even with ``force``), or exists (as a file or a link) without ``force``,
            or its folder is missing, a file, or cannot be written to, or the system cannot
            look the path up (a name too long, a loop of links); nothing is changed.
    """
    target = Path(path)
    name = _named(target, what)
    try:
        return _checked_new(target, name, force, how_to_replace, probe)
    except OSError as error:  # a name too long, a loop of links: the lookups themselves fail
        raise OutputError(f"{name} cannot be written: {_why(error)}") from None


def _checked_new(target: Path, name: str, force: bool, how_to_replace: str,
                 probe: bool) -> Path:
    """:func:`check_new`'s checks, which may raise the ``OSError`` of a failed lookup."""
    if target.is_dir() and not target.is_symlink():
        raise OutputError(f"{name} is a folder; name a file")
    _refuse_special(target, name)
    if os.path.lexists(target) and not force:
        kind = "a symbolic link" if target.is_symlink() else "a file"
        raise OutputError(f"{name} exists already ({kind}, never written through or over); "
                          f"give {how_to_replace} to replace it, or choose another name")
    folder = target.parent
    if not folder.is_dir():
        missing = "is a file, not a folder" if os.path.lexists(folder) else "does not exist"
        raise OutputError(f"{name}: the folder {for_terminal(str(folder))} {missing}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{name}: the folder {for_terminal(str(folder))} cannot be "
                          "written to")
    if probe:
        _probe(folder, name)
    return target


def _refuse_special(target: Path, name: str) -> None:
    """Refuse a device, a named pipe or a socket at ``target``, whatever ``force`` says: a
    rename over one would put a file in its place (``/dev/null``, run as root).

    Raises:
        OutputError: ``target`` is one of them; the message names it.
    """
    try:
        mode = os.lstat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):  # nothing there (the folder checks follow)
        return
    kinds = ((stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
             (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))
    for test, kind in kinds:
        if test(mode):
            raise OutputError(f"{name} is {kind}, not a file, and only a file is ever "
                              "replaced; choose another name")


def _probe(folder: Path, name: str) -> None:
    """Make and remove a file in ``folder``: ``os.access`` says yes to root, and on a folder
    that refuses new files for its own reasons (``/proc``, a read-only mount seen through a
    writable one), so an output found unwritable only when the run ends (a plot, drawn after
    every game) is refused before the first game instead.

    Raises:
        OutputError: the folder takes no new file; the message says why.
    """
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".spitemalice-probe-")
    except OSError as error:
        raise OutputError(f"{name}: the folder {for_terminal(str(folder))} cannot be "
                          f"written to ({_why(error)})") from None
    os.close(handle)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def write_file(path: str | os.PathLike[str], content: str | bytes, *, force: bool = False,
               what: str = "", how_to_replace: str = FORCE, mode: int = PUBLIC_FILE) -> Path:
    """Write ``content`` (text as UTF-8, or bytes) to ``path`` by the module's rule: through
    a temporary file renamed into place, never through a link, never over an existing file
    without ``force``.  ``mode`` is the new file's permissions (less the umask; ``0o600``
    for a file only its owner may read).

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        OutputError: as :func:`check_new`, or the file cannot be written (the disk is full,
            the name is too long...); the message names the file and why.  Nothing was
            written then, and the temporary file is gone.
    """
    with NewFile(path, force=force, what=what, how_to_replace=how_to_replace,
                 binary=isinstance(content, bytes), mode=mode) as file:
        file.write(content)
    return Path(path)


def make_folder(path: str | os.PathLike[str], *, what: str = "", mode: int = 0o777) -> Path:
    """Make the folder ``path`` (and its parents) unless it exists; ``mode`` as for
    :func:`os.mkdir` (``0o700``: its owner's alone).

    Raises:
        OutputError: it cannot be made (a file of that name is there, no permission).
    """
    folder = Path(path)
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError(f"{_named(folder, what)} is a file, not a folder: name a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=mode)
    except OSError as error:
        raise OutputError(f"{_named(folder, what)}: cannot make the folder: "
                          f"{_why(error)}") from None
    return folder


class NewFile:
    """A file written bit by bit (rows of a run, say) under the module's rule.

    The file is open for writing at :attr:`file` (a temporary name beside ``path``) from the
    start; :meth:`commit` gives it its name (the rename), :meth:`discard` drops it.  Used as
    a context manager, a clean exit commits and an exception discards, unless the caller
    already did one or the other (a run cut short commits what it finished, then re-raises).

    Args:
        path: the destination.
        force: whether an existing file or link at ``path`` may be replaced.
        what: how messages name the destination.
        how_to_replace: how a refusal says to allow replacing.
        binary: open in binary mode; else text, UTF-8, with ``newline`` as :func:`open`.
        mode: the new file's permissions, less the umask (default ``0o644``).

    Raises:
        OutputError: as :func:`check_new` (checked when made, and again at the commit).
    """

    def __init__(self, path: str | os.PathLike[str], *, force: bool = False, what: str = "",
                 how_to_replace: str = FORCE, binary: bool = False,
                 newline: str | None = None, mode: int = PUBLIC_FILE) -> None:
        self.path = check_new(path, force=force, what=what, how_to_replace=how_to_replace,
                              probe=False)
        self.force, self.what, self.how_to_replace = force, what, how_to_replace
        self.temporary = self.path.with_name(
            f".{self.path.name}.{os.getpid()}.{next(_TEMPORARY)}.tmp")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.temporary, flags, mode)
        except OSError as error:
            raise OutputError(f"cannot write {_named(self.path, what)}: "
                              f"{_why(error)}") from None
        # Closed by commit() or discard(): the file outlives this call by design.
        self.file: IO[Any] = (
            open(fd, "wb") if binary  # noqa: SIM115
            else open(fd, "w", encoding="utf-8", newline=newline))  # noqa: SIM115
        self.done = False

    def commit(self) -> Path:
        """Close the file and give it its name; returns the path.

        Raises:
            OutputError: the content could not be written, or the name is taken meanwhile
                (without ``force``) or is a folder; the temporary file is removed.
        """
        if self.done:
            return self.path
        self.done = True
        try:
            self.file.close()
            self._rename()
        except OSError as error:
            self._remove()
            if error.errno == errno.EEXIST:
                check_new(self.path, force=False, what=self.what,
                          how_to_replace=self.how_to_replace)  # raises, naming what is there
            raise OutputError(f"cannot write {_named(self.path, self.what)}: "
                              f"{_why(error)}") from None
        except BaseException:
            self._remove()
            raise
        return self.path

    def discard(self) -> None:
        """Close and remove the temporary file; the destination is left as it was."""
        if self.done:
            return
        self.done = True
        try:
            self.file.close()
        except OSError:
            pass  # its content is dropped anyway
        finally:
            self._remove()

    def _rename(self) -> None:
        if self.path.is_dir() and not self.path.is_symlink():
            raise OutputError(f"{_named(self.path, self.what)} is a folder; name a file")
        if self.force:
            _refuse_special(self.path, _named(self.path, self.what))  # made meanwhile?
            os.replace(self.temporary, self.path)  # replaces a link, never follows it
            return
        try:
            os.link(self.temporary, self.path, follow_symlinks=False)  # fails if taken
        except OSError as error:
            if error.errno == errno.EEXIST or os.path.lexists(self.path):
                raise
            # A file system without hard links: the name was free a moment ago.
            os.rename(self.temporary, self.path)
            return
        os.unlink(self.temporary)

    def _remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.temporary)

    def write(self, content: Any) -> int:
        """Write ``content`` (text, or bytes in binary mode) to the temporary file."""
        return self.file.write(content)

    def __enter__(self) -> NewFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _named(path: Path, what: str) -> str:
    shown = for_terminal(str(path))
    return f"{what} {shown}" if what else shown


def _why(error: OSError) -> str:
    return for_terminal(error.strerror or str(error))


__all__ = ["FORCE", "NewFile", "check_new", "make_folder", "write_file"]
