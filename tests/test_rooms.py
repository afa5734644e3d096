"""The house's arrows run one way (README "Layout", docs/tools.md "Where the code is").

Read from the sources with ``ast``, every import counted wherever it stands
(inside functions too): a room of ``tanbo_tools`` imports the shared modules
at its top, never another room; those import no room; nothing under core/,
device/ or desktop_sim/ imports the tools; ``tanbo_files`` imports nothing of
the project. And pyproject.toml lists every package, so an install that is
not editable has them all.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "tools", "tanbo_tools")


def sources(folder):
    """Every ``.py`` file under ``folder`` (relative to the checkout)."""
    for base, dirs, names in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.join(base, name)


def module_name(path):
    """``tanbo_tools.ship.build`` for tools/tanbo_tools/ship/build.py (packages by their __init__)."""
    rel = os.path.relpath(path, os.path.dirname(TOOLS))[:-3].split(os.sep)
    return ".".join(rel[:-1] if rel[-1] == "__init__" else rel)


def imported(path):
    """The absolute names ``path`` imports: ``a.b`` for ``import a.b`` and for ``from a import b``."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = module_name(path) if path.endswith("__init__.py") else module_name(path).rpartition(".")[0]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names += [base + "." + alias.name for alias in node.names]
    return names


ROOMS = sorted(d for d in os.listdir(TOOLS) if os.path.exists(os.path.join(TOOLS, d, "__init__.py")))
TOP = sorted(n[:-3] for n in os.listdir(TOOLS) if n.endswith(".py") and n != "__init__.py")


def room_of(name):
    """The room a ``tanbo_tools.…`` name lies in, or None (the top, or not the tools)."""
    parts = name.split(".")
    return parts[1] if parts[0] == "tanbo_tools" and len(parts) > 1 and parts[1] in ROOMS else None


def test_the_rooms_are_the_documented_ones():
    assert ROOMS == ["games", "lab", "play", "puzzle_maker", "ship"]
    assert len(TOP) <= 12, TOP  # the entry point and what the rooms share
    for room in ROOMS:
        with open(os.path.join(TOOLS, room, "__init__.py"), encoding="utf-8") as f:
            doc = ast.get_docstring(ast.parse(f.read()))
        assert doc and "never another room" in doc, room


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_imports_no_other_room(room):
    for path in sources(os.path.join("tools", "tanbo_tools", room)):
        for name in imported(path):
            other = room_of(name)
            assert other in (None, room), "%s imports %s, of the room %s" % (os.path.relpath(path, ROOT), name, other)


def test_the_shared_modules_import_no_room():
    for name in TOP + ["__init__"]:
        path = os.path.join(TOOLS, name + ".py")
        rooms = [n for n in imported(path) if room_of(n)]
        assert not rooms, "%s imports %s" % (name, rooms)


@pytest.mark.parametrize("folder", ["core", "device", "desktop_sim"])
def test_nothing_below_the_tools_imports_them(folder):
    for path in sources(folder):
        for name in imported(path):
            assert name.split(".")[0] != "tanbo_tools", "%s imports %s" % (os.path.relpath(path, ROOT), name)


def test_tanbo_files_imports_nothing_of_the_project():
    for path in sources(os.path.join("desktop_sim", "tanbo_files")):
        for name in imported(path):
            assert not name.split(".")[0].startswith("tanbo"), "%s imports %s" % (path, name)


def test_every_module_imports():
    """A relative import left pointing at the old flat layout fails here, not in a command."""
    import importlib
    import pkgutil

    import tanbo_tools

    names = [m.name for m in pkgutil.walk_packages(tanbo_tools.__path__, "tanbo_tools.")]
    assert len(names) > 30
    for name in names:
        importlib.import_module(name)


def test_every_command_names_a_module_of_a_room():
    from tanbo_tools import cli

    for command, (module, _help) in cli.COMMANDS.items():
        room, _, name = module.partition(".")
        assert room in ROOMS and os.path.exists(os.path.join(TOOLS, room, name + ".py")), (command, module)


def test_pyproject_lists_every_package():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    listed = ast.literal_eval(text.split("\npackages = ", 1)[1].split("\n", 1)[0])
    for room in ROOMS:
        assert "tanbo_tools." + room in listed
    for package in ("tanbo", "tanbo_tools", "tanbo_sim", "tanbo_files"):
        assert package in listed
