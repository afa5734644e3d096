"""Reading and writing the files a command is given, as a careful user would.

Reading: a FIFO, a device, a socket or a folder is refused by its kind
(``os.stat``) before it is opened, since opening a FIFO waits for a writer
and ``/dev/zero`` never ends; a regular file larger than the caller's limit
is refused before it is read. The file is opened non-blocking and checked
again on the open descriptor, so one swapped for a FIFO meanwhile cannot
hang the read either.

Writing: the file appears whole or not at all. The bytes go to a new
temporary file beside the target (the same folder, so the same file system),
are flushed to the disk, then renamed over the target; on any failure (a
full disk, an interrupt) the temporary file is removed and the target is as
it was. A target that exists but is not a regular file (a symbolic link, a
FIFO, a device, a folder) is refused, so nothing is ever written through a
link or into something that is not a plain file.

Every refusal is a :class:`FileProblem` (a ValueError) whose message names
the file and what is wrong with it, in one line.
"""

import contextlib
import os
import stat
import tempfile

# The permissions a file created by open() gets here (the umask read once:
# reading it means setting it).
_UMASK = os.umask(0o022)
os.umask(_UMASK)


class FileProblem(ValueError):
    """A file refused or failed; the message names it and says what is wrong. ``errno`` and
    ``strerror`` are the OS error's when one caused it (ENOSPC: the disk is full), else None."""

    errno = strerror = None

    @classmethod
    def of(cls, message, exc):
        problem = cls(message)
        problem.errno, problem.strerror = getattr(exc, "errno", None), getattr(exc, "strerror", None)
        return problem


def why(exc):
    """The OS's words for ``exc`` (``No space left on device``), else its text."""
    return getattr(exc, "strerror", None) or str(exc)


def kind_name(mode):
    """What the file of ``mode`` (an ``st_mode``) is, in words: ``a FIFO (named pipe)``, ..."""
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _stat(path, what, follow=True):
    """``os.stat`` (``os.lstat`` unless ``follow``) of ``path``, or None when nothing is there."""
    try:
        return os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise FileProblem("%s %r: %s" % (what, path, why(exc)))


def check_regular(path, what="file", limit=None):
    """FileProblem naming ``what`` and ``path`` unless it is a regular file (links followed) of at
    most ``limit`` bytes (if given): for a reader that opens the file itself, so that a FIFO is
    refused, never opened (opening one waits for a writer)."""
    st = _stat(path, what)
    if st is None:
        raise FileProblem("cannot read %s %r: there is no such file" % (what, path))
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem("%s %r is %s, not a regular file" % (what, path, kind_name(st.st_mode)))
    if limit is not None and st.st_size > limit:
        raise FileProblem("%s %r is %d bytes, more than %d: not such a file" % (what, path, st.st_size, limit))


def open_regular(path, what="file", limit=None):
    """The regular file at ``path`` open for reading bytes, as a binary file object: see
    :func:`check_regular`, checked again on the open file. Never waits on a FIFO."""
    check_regular(path, what, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError) as exc:
        raise FileProblem("cannot read %s %r: %s" % (what, path, why(exc)))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the stat above
            raise FileProblem("%s %r is not a regular file" % (what, path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path, limit, what="file", head=False):
    """The bytes of the regular file at ``path`` (links followed), at most ``limit`` of them.

    ``head``: a longer file gives its first ``limit`` bytes instead of a
    refusal. FileProblem naming ``what`` and ``path`` when it is missing,
    is not a regular file, is too large, or cannot be read.
    """
    with open_regular(path, what, None if head else limit) as f:
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise FileProblem("cannot read %s %r: %s" % (what, path, why(exc)))
    if len(data) > limit:
        if not head:
            raise FileProblem("%s %r is more than %d bytes: not such a file" % (what, path, limit))
        data = data[:limit]
    return data


def check_target(path, what="file"):
    """FileProblem unless ``path`` is missing or a regular file (not a link to one): what may be
    replaced by a write."""
    st = _stat(path, what, follow=False)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise FileProblem("%s %r is %s; only a regular file is written over"
                          % (what, path, kind_name(st.st_mode)))


def make_folder(path, what="the folder"):
    """Make the folder ``path`` (parents too) if it is not there: for a command whose output
    folder was checked when its command line was read (and removed again, so that a refused
    command line leaves nothing). FileProblem naming ``what`` and ``path`` if it cannot be made."""
    try:
        os.makedirs(path, exist_ok=True)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise FileProblem.of("cannot create %s %r: %s" % (what, path, why(exc)), exc)


def _failed(left, path, exc, what, outcome):
    """Remove ``left``, what a failed write of ``path`` left; the FileProblem naming ``path`` to raise
    for an OSError ``exc`` (``outcome`` says what is left), else None (``exc`` is raised as it is)."""
    try:
        os.remove(left)
    except OSError:
        pass
    if isinstance(exc, OSError):
        return FileProblem.of("cannot write %s %r: %s (%s)" % (what, path, why(exc), outcome), exc)
    return None


@contextlib.contextmanager
def replacing_path(path, what="file"):
    """A new empty file's name, beside ``path``, whose contents become ``path`` when the block ends
    without an error: for writers that take a file name.

    The new file is flushed to the disk, then renamed over ``path``; an
    error removes it and leaves ``path`` as it was (an OSError is raised
    again as a FileProblem naming ``path``). The target is checked with
    :func:`check_target` before and again just before the rename.
    """
    check_target(path, what)
    folder, name = os.path.split(path)
    st = _stat(path, what, follow=False)
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_UMASK
    try:
        # mkstemp: O_EXCL and no link followed, in the target's own folder (so the rename is one
        # file system's). The suffix keeps the target's, for writers that choose a format by it.
        fd, tmp = tempfile.mkstemp(prefix="." + name + ".", suffix=".part" + os.path.splitext(name)[1],
                                   dir=folder or ".")
    except (OSError, ValueError) as exc:
        raise FileProblem("cannot write %s %r: %s (nothing was written)" % (what, path, why(exc)))
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
        finally:
            os.close(fd)
        yield tmp
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        check_target(path, what)  # a link put there meanwhile is replaced, never written through
        os.replace(tmp, path)
    except BaseException as exc:
        problem = _failed(tmp, path, exc, what, "nothing was written")
        if problem is None:
            raise
        raise problem


@contextlib.contextmanager
def replacing(path, what="file", text=False):
    """A file object whose contents become ``path`` when the block ends without an error
    (see :func:`replacing_path`). ``text``: a UTF-8 stream with ``\n`` line ends."""
    with replacing_path(path, what) as tmp:
        flags = os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags)
        with (os.fdopen(fd, "w", encoding="utf-8", newline="\n") if text else os.fdopen(fd, "wb")) as f:
            yield f


@contextlib.contextmanager
def streaming(path, what="file"):
    """A UTF-8 text stream writing ``path`` as it goes (for a log read while it grows).

    Not through a link nor onto anything but a regular file (checked, then
    opened without following links). A run that fails (a full disk, any
    error) removes the file, so no half log is left (a failed write is
    raised again as a FileProblem naming it); an interrupt keeps the lines
    written so far.
    """
    check_target(path, what)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        f = os.fdopen(os.open(path, flags, 0o666), "w", encoding="utf-8", newline="\n")
    except (OSError, ValueError) as exc:
        raise FileProblem.of("cannot write %s %r: %s" % (what, path, why(exc)), exc)
    try:
        with f:
            yield f
    except Exception as exc:
        problem = _failed(path, path, exc, what, "the file was removed")
        if problem is None:
            raise
        raise problem


def write_whole(path, data, what="file"):
    """Write bytes (or text) ``data`` as ``path``, whole or not at all (see :func:`replacing`)."""
    with replacing(path, what, text=isinstance(data, str)) as f:
        f.write(data)


def write_new(path, data, what="file"):
    """Write bytes ``data`` as a new file ``path``, whole or not at all, never over anything:
    FileExistsError (nothing written) when the name is taken, by a file of any kind or a link.

    The bytes go to a temporary file beside ``path``, are flushed to the
    disk, then hard-linked as ``path``: the link is made only if the name
    is free, in one step, so a file that appears meanwhile is not replaced
    and no reader sees half of this one. Where a folder takes no hard links
    (FAT, exFAT), ``path`` is created exclusively (not through a link) and
    written in place; a failure removes it. An OSError is raised as a
    FileProblem naming ``path`` (``errno`` ENOSPC: the disk is full).
    """
    folder, name = os.path.split(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + name + ".", suffix=".part", dir=folder or ".")
    except (OSError, ValueError) as exc:
        raise FileProblem.of("cannot write %s %r: %s (nothing was written)" % (what, path, why(exc)), exc)
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), 0o666 & ~_UMASK)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError:  # EPERM, ENOTSUP...: no hard links here; an exclusive create instead
            _create_exclusive(path, data)
    except BaseException as exc:
        problem = _failed(tmp, path, exc, what, "nothing was written")
        if problem is None or isinstance(exc, FileExistsError):
            raise
        raise problem
    try:
        os.remove(tmp)
    except OSError:
        pass


def _create_exclusive(path, data):
    """Create ``path`` (FileExistsError if anything has the name) and write ``data`` in it,
    flushed to the disk; remove it again if that fails."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        try:
            os.remove(path)
        except OSError:
            pass
        raise
