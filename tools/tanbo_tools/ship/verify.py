"""Check a built bundle: ``.mpy`` headers, and a real game under a MicroPython VM.

:func:`play_check` writes a bundle's ``lib/`` to a temporary folder and runs
:data:`GAME_SCRIPT` there under a MicroPython-family VM with a capped heap:
it imports every engine module of the bundle and plays a random 9x9 game to
the end with the public API (run by :mod:`tanbo_tools.vm`). The MicroPython
unix port takes the unpatched (``M``) ``.mpy`` files; a CircuitPython VM
(none ships with the project) would take the bundle as shipped.
"""

import os
import subprocess
import tempfile

from .. import mpy, vm
from ..vm import micropython_path  # noqa: F401  (tanbo build's default VM)

# MicroPython-subset script; argv-free so it runs the same on every VM. Its
# own LCG keeps it independent of the engine's helpers.
GAME_SCRIPT = """\
import tanbo
for name in %(modules)r:
    __import__(name)
g = tanbo.Game("9x9")
x = 12345
limit = 2000
while not g.over and g.ply < limit:
    moves = g.legal_moves()
    if not moves:
        break
    x = (x * 1103515245 + 12345) & 0x3FFFFFFF
    g.play(moves[(x >> 8) %% len(moves)])
print("GAME-OK", g.winner, g.ply)
"""


def engine_modules(paths):
    """Dotted names of the ``lib/tanbo`` modules among bundle ``paths``, sorted."""
    names = []
    for path in paths:
        if path.startswith("lib/tanbo/") and path.endswith((".py", ".mpy")):
            rel = path[len("lib/"):].rsplit(".", 1)[0]
            if rel.endswith("/__init__"):
                rel = rel[:-len("/__init__")]
            names.append(rel.replace("/", "."))
    return sorted(names)


def check_headers(files, magic=mpy.MAGIC_CIRCUITPYTHON):
    """Raise BuildError unless every ``.mpy`` in ``{path: bytes}`` has ``magic`` and mpy v6; return the count."""
    count = 0
    for path in sorted(files):
        if path.endswith(".mpy"):
            mpy.check_header(files[path], magic, path)
            count += 1
    return count


# The check imports every lib/tanbo module at once (a board never loads them
# all): 96K held them with a few KB to spare until tanbo.coach (issue 36,
# ~6 KB of this port's heap) and tanbo.hexbo (4.5 KB with the builder since split off as tanbo.hexbo_make; a square board's game
# never loads it); with both, 104K fails and 108K passes. The search's root lists
# made with it and the position reader's byte table (issue 33) took 2K more:
# 108K fails and 110K passes; 116K leaves room for the next lines.
CHECK_HEAP = "116K"


def play_check(exe, lib_files, heap=CHECK_HEAP, timeout=300):
    """Run :data:`GAME_SCRIPT` under ``exe`` with ``lib_files`` (``{'lib/…': bytes}``) as MICROPYPATH.

    Returns the VM's last output line (``GAME-OK <winner> <plies>``); raises
    BuildError with the VM's error output if it fails.
    """
    modules = engine_modules(lib_files)
    if "tanbo" not in modules:
        raise mpy.BuildError("the bundle has no lib/tanbo package")
    with tempfile.TemporaryDirectory(prefix="tanbo-verify-") as tmp:
        script = os.path.join(tmp, "check_game.py")
        try:
            for path, data in lib_files.items():
                if not path.startswith("lib/"):
                    continue
                full = os.path.join(tmp, *path.split("/"))
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as f:
                    f.write(data)
            with open(script, "w") as f:
                f.write(GAME_SCRIPT % {"modules": modules})
        except OSError as exc:  # a full disk holding the temporary folder: say which
            raise mpy.BuildError("cannot write the check's copy of the bundle in %s: %s"
                                 % (tmp, getattr(exc, "strerror", None) or exc))
        try:
            # Relative paths: the VM keeps each module's path on its heap, so
            # the temporary folder's name must not move the heap's need.
            rc, stdout, stderr = vm.run(exe, os.path.basename(script), heap, ["lib"], timeout=timeout, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise mpy.BuildError("could not run %s: %s" % (exe, exc))
    out = stdout.strip().splitlines()
    if rc != 0 or not out or not out[-1].startswith("GAME-OK"):
        detail = vm.tail(stderr or stdout, 800)
        raise mpy.BuildError("%s could not import the bundle and play a game:\n%s"
                             % (os.path.basename(exe), detail))
    return out[-1]
