#!/usr/bin/env python3
"""Developer entry point: set up .venv, then start the simulator or run the tests.

    python3 dev.py sim [args...]    # .venv/bin/tanbo sim args...
    python3 dev.py test [args...]   # .venv/bin/python -m pytest args...

Standard library only; needs nothing but Python 3.9+ (3.11 in CI). The
virtual environment lives in ``.venv`` beside this file. The project is
installed into it editable with its pinned ``dev`` extra
(``pip install -e '.[dev]'``) when the venv is new or ``pyproject.toml``
changed since the last successful install: the SHA-256 of pyproject.toml
is kept in ``.venv/tanbo-install.stamp``. Delete that file to force a
reinstall, or ``.venv`` to start over. The exit status is the command's.
"""

import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
STAMP = os.path.join(VENV, "tanbo-install.stamp")
BIN = os.path.join(VENV, "Scripts" if os.name == "nt" else "bin")
EXE_SUFFIX = ".exe" if os.name == "nt" else ""

USAGE = """usage: python3 dev.py sim [args...]    set up .venv and start the simulator
       python3 dev.py test [args...]   set up .venv and run the tests (args go to pytest)"""


def venv_exe(name):
    """Path of program ``name`` inside the venv."""
    return os.path.join(BIN, name + EXE_SUFFIX)


def pyproject_hash():
    with open(PYPROJECT, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_stamp():
    try:
        with open(STAMP) as f:
            return f.read().strip()
    except OSError:
        return None


def say(msg):
    print("dev.py: " + msg, file=sys.stderr, flush=True)


def create_venv():
    say("creating %s" % VENV)
    proc = subprocess.run([sys.executable, "-m", "venv", VENV])
    if proc.returncode != 0 or not os.path.exists(venv_exe("python")):
        say("could not create the virtual environment with %s -m venv.\n"
            "  On Debian/Ubuntu install the venv module first: sudo apt-get install python3-venv"
            % sys.executable)
        return False
    return True


def ensure_venv():
    """Create .venv if needed and (re)install the project when pyproject.toml changed; True if ready."""
    if not os.path.exists(venv_exe("python")):
        if not create_venv():
            return False
    wanted = pyproject_hash()
    if read_stamp() == wanted and os.path.exists(venv_exe("tanbo")):
        return True
    say("installing the project with its pinned dev extra (pyproject.toml changed or new venv)")
    cmd = [venv_exe("python"), "-m", "pip", "install", "--disable-pip-version-check",
           "-e", ROOT + "[dev]"]
    proc = subprocess.run(cmd, cwd=ROOT, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        say("pip install failed (exit %d); fix the error above and rerun" % proc.returncode)
        return False
    # Written only after a successful install, so a failed one is retried.
    with open(STAMP, "w") as f:
        f.write(wanted + "\n")
    return True


def display_hint(args):
    """A hint when the simulator is about to open a window with no display to show it on."""
    if sys.platform != "linux" or "--headless" in args or "-h" in args or "--help" in args:
        return None
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return None
    return ("no display found (DISPLAY and WAYLAND_DISPLAY are unset), so SDL cannot open a window.\n"
            "  Run without a window:  python3 dev.py sim --headless\n"
            "  or run from a desktop session / with X forwarding (ssh -X).")


def run(cmd):
    """Run ``cmd`` in the repository root; return its exit status (130 on Ctrl-C)."""
    try:
        return subprocess.run(cmd, cwd=ROOT).returncode
    except KeyboardInterrupt:
        return 130


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command not in ("sim", "test"):
        print("dev.py: unknown command %r\n%s" % (command, USAGE), file=sys.stderr)
        return 2
    if not ensure_venv():
        return 1
    if command == "sim":
        hint = display_hint(rest)
        if hint:
            say(hint)
        return run([venv_exe("tanbo"), "sim"] + rest)
    return run([venv_exe("python"), "-m", "pytest"] + rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
