"""Checks of command-line values the tools share: output files, output folders, whole numbers,
seconds, heap sizes.

Each is an argparse ``type``: a bad value ends the parse with the tool's
usage line, the option, the value quoted (a long one cut) and what is
wanted (exit 2), before anything runs. Paths are tried, not guessed from permission bits: a long
run must not fail at its end because its report cannot be written.

:class:`BadValue` is both argparse's ``ArgumentTypeError`` and a
``ValueError``, so a function that takes the same value from Python code
(``flash.flash(timeout=...)``) can call the same check.
"""

import argparse
import math
import os
import tempfile

import tanbo_files as files

from . import vm


class BadValue(ValueError, argparse.ArgumentTypeError):
    """A value refused; the message quotes it and says what is wanted."""


def quoted(value):
    """``value`` quoted for a message, a long one cut: a value of 5,000 digits is not echoed."""
    from tanbo.position import quote  # when refusing only: build and deploy load no engine
    return quote(str(value))


def _why(exc):
    return getattr(exc, "strerror", None) or str(exc)


def output_file(text):
    """``text`` if a file can be written there: tried now (and removed again if it was not there)."""
    if not text:
        raise BadValue("an empty file name: give the file to write")
    # As given, not normalised: "missing/.." must not become ".".
    parent = os.path.dirname(text) or "."
    if os.path.basename(text) in ("", ".", "..") or os.path.isdir(text):
        raise BadValue("%r is a folder: give a file name" % text)
    if not os.path.isdir(parent):
        raise BadValue("%r: the folder %r does not exist" % (text, parent))
    try:
        files.check_target(text, "the file")  # by kind, before any open: opening a FIFO waits for a reader
    except files.FileProblem as exc:
        raise BadValue(str(exc))
    try:
        existed = os.path.lexists(text)
        with open(text, "ab"):
            pass
        if not existed:
            os.remove(text)
    except (OSError, ValueError) as exc:  # ValueError: a NUL, or a name the file system cannot encode
        raise BadValue("%r: cannot write a file there (%s)" % (text, _why(exc)))
    return text


def input_file(text):
    """``text`` unless it is empty (an empty name is no file, not "none"); the command reads it,
    refusing a missing file or one of the wrong kind with its own message."""
    if not text:
        raise BadValue("an empty file name: give the file to read")
    return text


def output_folder(text):
    """``text`` if files can be written in it: tried by making it (parents too) and a file in it
    under a fresh name (created exclusively, so no file of the user's nor a link is opened),
    then removing what was made, so a refused command line leaves nothing behind (the tool
    makes the folder again when it writes)."""
    if not text:
        raise BadValue("an empty folder name: give the folder to write in")
    if os.path.lexists(text) and not os.path.isdir(text):
        raise BadValue("%r is a file: give a folder" % text)
    missing = _missing_folders(text)
    try:
        try:
            os.makedirs(text, exist_ok=True)
        except (OSError, ValueError) as exc:  # ValueError: a NUL, or a name the file system cannot encode
            raise BadValue("%r: cannot create the folder (%s)" % (text, _why(exc)))
        try:
            fd, probe = tempfile.mkstemp(prefix=".tanbo-probe-", dir=text)
            os.close(fd)
            os.remove(probe)
        except OSError as exc:
            raise BadValue("%r: cannot write files in the folder (%s)" % (text, _why(exc)))
    finally:
        for folder in missing:
            try:
                os.rmdir(folder)
            except (OSError, ValueError):
                pass
    return text


def _missing_folders(path):
    """The folders of ``path`` that do not exist yet, deepest first, as ``os.makedirs`` walks it."""
    missing = []
    while path and not os.path.lexists(path):
        head, tail = os.path.split(path)
        if tail not in ("", os.curdir, os.pardir):
            missing.append(path)
        if head == path:
            break
        path = head
    return missing


def whole(low, high, unit=None, hint=""):
    """An argparse type for a whole number from ``low`` to ``high`` in ASCII digits, returned as an
    int; ``unit`` names what is counted (``"nodes"``), ``hint`` ends the message."""
    what = "a whole number" + (" of " + unit if unit else "")

    def check(text):
        # Digits counted before int(): a value of thousands of them is refused, not converted.
        if not (isinstance(text, str) and text.isascii() and text.isdigit()
                and len(text.lstrip("0")) <= len(str(high)) and low <= int(text) <= high):
            raise BadValue("%s: expected %s from %d to %d%s" % (quoted(text), what, low, high, hint))
        return int(text)
    check.__name__ = "number"  # argparse names the type in its own messages
    return check


def seconds(most):
    """An argparse type for a number of seconds above 0 and at most ``most``, returned as a float."""
    def check(value):
        try:
            t = float(value)
        except (TypeError, ValueError):
            t = math.nan
        if not 0 < t <= most:  # false for nan; inf is above any ``most``
            raise BadValue("%s: expected a number of seconds above 0, at most %g" % (quoted(value), most))
        return t
    check.__name__ = "seconds"  # argparse names the type in its own messages
    return check


def heap_size(text):
    """A MicroPython ``-X heapsize=`` value as the tools accept it (see :func:`vm.heap_bytes`)."""
    try:
        vm.heap_bytes(text)
    except ValueError as exc:
        raise BadValue(str(exc))
    return text.upper()
