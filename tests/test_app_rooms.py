"""The app's house: its rooms, screens reached by name, and no import circle anywhere.

Read from the sources with ``ast`` (every import counted wherever it stands,
inside functions too, and ``__import__``/``loaded`` with a literal name), so
a lazy import added to keep code off the heap cannot bring a circle back.
The heap rule itself (each screen's ``keeps``) is checked by running the
app in the simulator: no module's code is ever loaded twice.
"""

import ast
import os
import sys

import pytest

from tanbo_tools.ship import closure


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.path.join(ROOT, "device", "app")
ROOMS = ("screens", "store", "view")
# Screens other screens are built on: the menu (every menu's rows and
# lines) and the game screen (the puzzle screen plays on its board).
BASES = ("app.screens.menu", "app.screens.game")
# Where each top of the house lies on disk, and the package its modules are in.
TREES = (("core", ""), ("device", ""), ("desktop_sim", ""), ("tools", ""))


def modules(folder):
    """``{dotted name: path}`` for every ``.py`` under ``folder`` (relative to the checkout)."""
    found = {}
    top = os.path.join(ROOT, folder)
    for base, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in names:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(base, name), top)[:-3].split(os.sep)
                dotted = ".".join(rel[:-1] if rel[-1] == "__init__" else rel)
                found[dotted] = os.path.join(base, name)
    return found


def imported(path, package):
    """The absolute names ``path`` (a module of ``package``) imports, read as the bundle's
    closure reads them (``from a import b`` as ``a`` and ``a.b``, ``__import__``/``loaded``
    with a literal name, a package imported by a name built from it as ``pkg.*``)."""
    with open(path, encoding="utf-8") as f:
        return closure.imported_names(f.read(), path, package)


def arrows(known):
    """``{module: set of modules it imports}`` among ``known`` (``{name: path}``)."""
    out = {}
    for name, path in known.items():
        package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        out[name] = {n for n in imported(path, package) if n in known and n != name}
    return out


def circles(graph):
    """The strongly connected parts of ``graph`` with more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def the_house():
    known = {}
    for folder in ("core", "device", "desktop_sim", "tools"):
        known.update(modules(folder))
    return known


def test_no_module_imports_a_module_that_imports_it():
    # A package's __init__ importing its own modules is a face, not a circle:
    # what they import back from it is the package itself.
    graph = arrows(the_house())
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(t + ".")}
    assert circles(graph) == []


def test_the_app_has_its_rooms_and_a_small_top():
    app = modules(os.path.join("device", "app"))
    top = sorted(n for n in app if "." not in n and n != "")
    assert sorted(n for n in app if n in ROOMS) == list(ROOMS)
    assert len(top) - len(ROOMS) <= 12, top
    for room in ROOMS:
        with open(app[room], encoding="utf-8") as f:
            doc = ast.get_docstring(ast.parse(f.read()))
        assert doc and "import" in doc, room  # says what lives there and what it may import


def app_arrows():
    known = {("app." + n if n else "app"): p for n, p in modules(os.path.join("device", "app")).items()}
    return {name: set(imported(path, name if path.endswith("__init__.py") else name.rpartition(".")[0]))
            for name, path in known.items()}


def test_a_screen_never_imports_another_screen():
    for name, names in app_arrows().items():
        if name.startswith("app.screens.") and name not in BASES:
            others = sorted(n for n in names if n.startswith("app.screens.") and n != name
                            and n.rpartition(".")[0] not in BASES and n not in BASES)
            assert not others, "%s imports %s" % (name, others)


@pytest.mark.parametrize("room,never", [
    ("app.view.", ("app.screens", "app.store", "app.main", "app.between", "app.start")),
    ("app.store.", ("app.screens", "app.view", "app.main", "app.between", "app.start", "app.send")),
    ("app.screens.", ("app.main", "app.between", "app.start")),
])
def test_a_room_imports_only_what_lies_below_it(room, never):
    for name, names in app_arrows().items():
        if name.startswith(room):
            bad = sorted(n for n in names if n.startswith(never))
            assert not bad, "%s imports %s" % (name, bad)


def go_names():
    """Every screen name the app's code passes to ``go`` as a literal."""
    found = set()
    for path in modules(os.path.join("device", "app")).values():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "go"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_screen_the_app_asks_for_by_name_is_a_module_with_a_screen_builder():
    names = go_names()
    assert {"title", "new_game", "settings", "game_menu", "result", "rules", "games", "review",
            "puzzles", "puzzle", "puzzle_menu"} <= names
    for name in names:
        path = os.path.join(APP, "screens", name + ".py")
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        assert any(isinstance(n, ast.FunctionDef) and n.name == "screen" for n in tree.body), name


TOUR = ("DOWN,A,wait:200,A,wait:300,START,wait:100,DOWN*5,A,wait:200,"  # a puzzle, its menu, the title
        "A,DOWN*4,A,wait:500,A,wait:3000,START,wait:100,A,wait:100,"  # a 9x9 game, a move, its menu
        "START,DOWN*2,A,DOWN,A,wait:3000,DOWN,A,wait:300,LEFT*3,B,wait:300,"  # resigned, reviewed
        "DOWN*2,A,wait:200,DOWN,A,wait:200,A,wait:300,B,wait:200,B,wait:200,"  # Games, Review, back
        "DOWN*3,A,B,DOWN*4,A,B")  # Rules, Settings

TOUR_SCRIPT = """
import gc, json, sys
from tanbo_sim.simulator import Simulator
sim = Simulator("pybadge", nvm_path=sys.argv[1])
seen, twice = [], {}

def look(i, step):
    seen.append(type(sim.app.screen).__name__)
    gc.collect()
    counts = {}
    for obj in gc.get_objects():  # a module's globals: one per copy of its code alive
        if isinstance(obj, dict) and "__builtins__" in obj and "__file__" in obj:
            name = obj.get("__name__")
            if isinstance(name, str) and name.split(".")[0] in ("app", "tanbo", "boards"):
                counts[name] = counts.get(name, 0) + 1
    for name, n in counts.items():
        if n > 1:
            twice[name] = seen[-1]

sim.run_keys(sys.argv[2], each=look)
print(json.dumps({"seen": seen, "twice": twice}))
"""


def test_no_screen_change_loads_a_second_copy_of_any_module(tmp_path):
    """Each screen's ``keeps`` holds what its kept code imports: a module let go while
    a kept one still holds it would be imported again beside it (its code twice
    on a board's heap). A tour of every screen in a fresh interpreter."""
    import json
    import subprocess

    script = tmp_path / "tour.py"
    script.write_text(TOUR_SCRIPT)
    proc = subprocess.run([sys.executable, str(script), str(tmp_path / "nvm.bin"), TOUR],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert {"PuzzleScreen", "GameScreen", "ReviewScreen", "GamesList", "Help", "Menu"} <= set(out["seen"])
    assert out["twice"] == {}
