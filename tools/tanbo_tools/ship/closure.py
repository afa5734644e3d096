"""Static import closure: which modules a script reaches, found with ``ast``.

Every ``import``/``from … import`` anywhere in a module counts, including
those inside functions, ``try`` blocks and ``if`` branches (a device module
imported lazily must still be on the board). ``__import__("name")`` with a
literal string counts too, and so does ``loaded("name")``
(:func:`tanbo.variants.loaded`, the engine's loader of the modules a board
drops under a game). A name built from a literal package, as in
``__import__("app.screens." + name)`` (:meth:`app.main.App.go`, the app's
screens loaded by name), counts as every module of that package. Other
computed names cannot be followed, which is why the build adds the target
board's hardware module explicitly.

Modules are looked up in ``roots`` (folders, first match wins) as
``name.py`` or ``name/__init__.py``; names found in no root are *external*
(CircuitPython built-ins such as ``board`` or ``gc``) and are only reported.
"""

import ast
import os


# Calls whose first argument, a literal, names a module they import.
LOADERS = ("__import__", "loaded")


class Module:
    """A source file of the closure: dotted ``name``, ``path``, ``root`` folder, ``is_package``."""

    def __init__(self, name, path, root, is_package):
        self.name = name
        self.path = path
        self.root = root
        self.is_package = is_package

    @property
    def relpath(self):
        """Path relative to its root with ``/`` separators, e.g. ``tanbo/game.py``."""
        return os.path.relpath(self.path, self.root).replace(os.sep, "/")

    def __repr__(self):
        return "Module(%r, %r)" % (self.name, self.relpath)


def find_module(name, roots):
    """The :class:`Module` for dotted ``name`` in ``roots``, or None."""
    parts = name.split(".")
    for root in roots:
        base = os.path.join(root, *parts)
        init = os.path.join(base, "__init__.py")
        if os.path.isfile(init):
            return Module(name, init, root, True)
        if os.path.isfile(base + ".py"):
            return Module(name, base + ".py", root, False)
    return None


def imported_names(source, filename, package):
    """Dotted module names that ``source`` may import (absolute; relative ones resolved in ``package``).

    ``package`` is the package the module belongs to ('' for a top-level
    module or script). For ``from X import a`` both ``X`` and ``X.a`` are
    returned; the caller keeps only those that exist as modules.
    """
    return [name for name, _ in imports(source, filename, package)]


def imports(source, filename, package):
    """Like :func:`imported_names` but as ``(name, required)``: ``required`` is False
    for the ``X.a`` guesses of ``from X import a`` (``a`` may be an attribute)."""
    tree = ast.parse(source, filename)
    guarded = _guarded_nodes(tree)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names.append((alias.name, id(node) not in guarded))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                if node.level - 1 > len(parts) or not parts:
                    raise ValueError("%s:%d: relative import beyond the top-level package"
                                     % (filename, node.lineno))
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module
            names.append((base, id(node) not in guarded))
            for alias in node.names:
                if alias.name != "*":
                    names.append((base + "." + alias.name, False))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in LOADERS and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.append((node.args[0].value, True))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in LOADERS and node.args and isinstance(node.args[0], ast.BinOp)
              and isinstance(node.args[0].op, ast.Add) and isinstance(node.args[0].left, ast.Constant)
              and isinstance(node.args[0].left.value, str) and node.args[0].left.value.endswith(".")):
            names.append((node.args[0].left.value + "*", True))
    return names


def _guarded_nodes(tree):
    """ids of nodes inside ``try:`` bodies that catch ImportError (optional imports)."""
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
            for stmt in node.body:
                for inner in ast.walk(stmt):
                    guarded.add(id(inner))
    return guarded


def _catches_import_error(handler):
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError", "Exception")
               for n in names)


def _with_parents(name):
    """``a.b.c`` -> ``['a', 'a.b', 'a.b.c']`` (importing a submodule runs its packages)."""
    parts = name.split(".")
    return [".".join(parts[:i + 1]) for i in range(len(parts))]


def import_closure(scripts, modules, roots, skip=None):
    """Modules reached from ``scripts`` (file paths) and ``modules`` (dotted names).

    ``skip(importer, name)`` may return True to leave an import edge out (the
    build uses it to keep other boards' hardware modules off the bundle).
    Returns ``(found, external, missing)``: ``found`` maps dotted name ->
    :class:`Module` (insertion order = discovery order), ``external`` is the
    sorted list of imported names found in no root, ``missing`` the sorted
    ``"importer: name"`` strings of submodules of local packages that do not
    exist (an ImportError on the board unless the import is guarded).
    ValueError if a start module is missing.
    """
    found = {}
    external = set()
    missing = set()
    todo = []  # (importer package, source path, filename label)
    for path in scripts:
        todo.append(("", path, None))
    for name in modules:
        if find_module(name, roots) is None:
            raise ValueError("module %r not found in %s" % (name, ", ".join(roots)))
        for part in _with_parents(name):
            _add(part, roots, found, todo)
    while todo:
        owner, path, mod = todo.pop(0)
        with open(path, "rb") as f:
            source = f.read()
        if mod is None:
            package = ""
        elif mod.is_package:
            package = mod.name
        else:
            package = mod.name.rpartition(".")[0]
        importer = mod.name if mod else os.path.basename(path)
        for name, required in _whole_packages(imports(source, path, package), roots):
            for part in _with_parents(name):
                if part in found:
                    continue
                if skip is not None and skip(importer, part):
                    break
                if not _add(part, roots, found, todo):
                    if "." not in part:
                        external.add(part)
                    elif required:
                        # A local package without this submodule. (For
                        # ``from pkg import attr`` attr is usually not a module.)
                        missing.add("%s: %s" % (importer, part))
                    break
    return found, sorted(external), sorted(missing)


def _whole_packages(names, roots):
    """``names`` with each ``"pkg.*"`` (a name built from a literal package) replaced by
    every module of ``pkg`` found in ``roots``."""
    for name, required in names:
        if not name.endswith(".*"):
            yield name, required
            continue
        package = name[:-2]
        mod = find_module(package, roots)
        if mod is None or not mod.is_package:
            yield package, required  # reported as missing or external as any other
            continue
        folder = os.path.dirname(mod.path)
        for entry in sorted(os.listdir(folder)):
            if entry.endswith(".py") and entry != "__init__.py":
                yield package + "." + entry[:-3], required
            elif os.path.isfile(os.path.join(folder, entry, "__init__.py")):
                yield package + "." + entry, required


def _add(name, roots, found, todo):
    mod = find_module(name, roots)
    if mod is None:
        return False
    found[name] = mod
    todo.append((name, mod.path, mod))
    return True
