"""device/ must run on CircuitPython: it imports only CircuitPython modules, tanbo and itself."""

import ast
import os

import pytest

DEVICE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "device")

# Modules CircuitPython 9/10 provides on these boards, plus the engine and the app's own packages.
ALLOWED = {
    "board", "displayio", "bitmaptools", "terminalio", "vectorio", "fontio", "keypad", "digitalio", "analogio",
    "audioio", "audiopwmio", "audiocore", "synthio", "microcontroller", "supervisor", "gc", "time",
    "struct", "os", "sys", "math", "array", "binascii", "micropython", "random",
    "alarm", "neopixel_write",  # (boards.sleep: the PicoSystem's pin alarms, the PyBadge's NeoPixels off)
    "tanbo", "app", "boards",
}
FORBIDDEN_SYNTAX = (ast.AsyncFunctionDef, ast.Await)


def device_files():
    out = []
    for root, _, files in os.walk(DEVICE):
        out.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(".py"))
    return out


def test_device_has_the_fixed_layout():
    for rel in ("code.py", "boards/__init__.py", "boards/pybadge.py", "boards/pygamer.py",
                "boards/picosystem.py", "app/__init__.py", "app/main.py"):
        assert os.path.isfile(os.path.join(DEVICE, rel)), rel


@pytest.mark.parametrize("path", device_files(), ids=lambda p: os.path.relpath(p, DEVICE))
def test_imports_are_circuitpython_modules(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    bad = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "%s: relative import (use app.x / boards.x)" % path
            names = [node.module]
        elif isinstance(node, FORBIDDEN_SYNTAX):
            bad.append("async code at line %d" % node.lineno)
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            for inner in ast.walk(node.format_spec):
                if isinstance(inner, ast.FormattedValue):
                    bad.append("nested format spec at line %d" % node.lineno)
        for name in names:
            if name.split(".")[0] not in ALLOWED:
                bad.append("imports %s (line %d)" % (name, node.lineno))
    assert not bad, "%s: %s" % (os.path.relpath(path, DEVICE), "; ".join(bad))


def test_allow_list_check_catches_a_bad_import(tmp_path):
    # The scan itself must fail on a desktop-only import.
    tree = ast.parse("import pygame\nfrom typing import List\n")
    found = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    names = [(n.names[0].name if isinstance(n, ast.Import) else n.module) for n in found]
    assert [n for n in names if n.split(".")[0] not in ALLOWED] == ["pygame", "typing"]


def test_the_apps_level_names_are_the_ais():
    import sys
    sys.path.insert(0, DEVICE)
    from app.store.settings import LEVELS
    from tanbo.ai import LEVELS as AI_LEVELS
    assert LEVELS == AI_LEVELS
