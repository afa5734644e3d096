"""Assemble a CIRCUITPY bundle: import closure, compile, tree, manifest, zip.

The output of :func:`build_bundle` in ``out_dir``::

    tanbo-<board>-<version>-cp<N>/CIRCUITPY/   code.py, boot.py (if any), lib/...
    tanbo-<board>-<version>-cp<N>/manifest.json
    tanbo-<board>-<version>-cp<N>.zip          the CIRCUITPY files, unzip onto the drive

The build is reproducible: the same sources and compiler give the same bytes
(sorted entries, fixed zip timestamps and permissions, source names embedded
in ``.mpy`` relative to ``lib/``, no dates in the manifest).
"""

import hashlib
import io
import json
import os
import shutil
import tempfile
import zipfile
from collections import namedtuple

import tanbo_files as files_mod

from .. import mpy
from . import closure
from .boards import BOARDS

# Fixed zip metadata: 1980-01-01 is the earliest date a zip can hold.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
ZIP_MODE = 0o644 << 16
SUPPORTED_CP = (9, 10)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def project_version(repo=REPO):
    """``[project].version`` of pyproject.toml, else ``tanbo.__version__``, else ``0``."""
    try:
        import tomllib
        with open(os.path.join(repo, "pyproject.toml"), "rb") as f:
            return tomllib.load(f)["project"]["version"]
    except (ImportError, OSError, KeyError, ValueError):
        try:
            import tanbo
            return tanbo.__version__
        except (ImportError, AttributeError):
            return "0"


def bundle_name(board, version, cp):
    """``tanbo-<board>-<version>-cp<N>``: names the bundle folder and zip."""
    return "tanbo-%s-%s-cp%d" % (board, version, cp)


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def sha256_file(path):
    """Hex SHA-256 of a file, read in 64 KB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


# What a build made: paths, the manifest dict, and the files as ``{path: bytes}``.
# ``mpy_unpatched`` maps ``lib/...`` paths of compiled modules to their
# MicroPython-header bytes (for running under the MicroPython unix port).
Bundle = namedtuple("Bundle", "name root tree zip_path manifest_path manifest files mpy_unpatched")


def select_sources(board, device_dir, core_dir):
    """The source files a board needs: ``[(bundle path, source path), …]`` and external imports.

    Start points: ``device/code.py``, ``device/boot.py`` if present, and the
    board's hardware module ``boards.<module>``. Other boards' modules are
    not followed (``boards/__init__`` may name them all) unless a board
    module itself imports one (shared code between boards).
    """
    code = os.path.join(device_dir, "code.py")
    if not os.path.isfile(code):
        raise mpy.BuildError("no %s: the device app's entry point is missing" % code)
    scripts = [code]
    boot = os.path.join(device_dir, "boot.py")
    if os.path.isfile(boot):
        scripts.append(boot)
    board_module = os.path.join(device_dir, "boards", board.module + ".py")
    if not os.path.isfile(board_module):
        raise mpy.BuildError("no %s: board %s has no hardware module" % (board_module, board.name))
    others = set("boards." + b.module for b in BOARDS.values() if b.module != board.module)

    board_modules = set("boards." + b.module for b in BOARDS.values())

    def skip(importer, name):
        # A board's module may build on another's (the PyGamer's on the PyBadge's);
        # nothing else takes another board's module in (boards.sleep's import of
        # the board's own, by a name made at run time, reads as all of them).
        return name in others and importer not in board_modules

    roots = [os.path.abspath(device_dir), os.path.abspath(core_dir)]
    try:
        found, external, missing = closure.import_closure(scripts, ["boards." + board.module], roots, skip)
    except (ValueError, SyntaxError) as exc:
        raise mpy.BuildError(str(exc))
    pairs = [(os.path.basename(s), s) for s in scripts]
    seen_dirs = set()
    for mod in found.values():
        pairs.append(("lib/" + mod.relpath, mod.path))
        if mod.is_package:
            seen_dirs.add((os.path.dirname(mod.path), os.path.dirname("lib/" + mod.relpath)))
    for src_dir, dest_dir in sorted(seen_dirs):
        for entry in sorted(os.listdir(src_dir)):
            full = os.path.join(src_dir, entry)
            if os.path.isfile(full) and entry.lower().endswith(mpy.ASSET_EXTS):
                pairs.append((dest_dir + "/" + entry, full))
    if missing:
        raise mpy.BuildError("imports of modules that do not exist: %s" % "; ".join(missing))
    if "tanbo" in external:
        # No firmware provides the engine: the bundle would not start.
        raise mpy.BuildError("the engine package tanbo/ is not in %s (give --core the folder that "
                             "holds tanbo/)" % core_dir)
    return sorted(pairs), external


def build_bundle(board, out_dir, device_dir, core_dir, cp=10, py=False, version=None, cross=None, lines=False):
    """Build the bundle of ``board`` (a :class:`~tanbo_tools.ship.boards.Board`) into ``out_dir``.

    ``py`` ships sources instead of ``.mpy``; ``cross`` overrides the
    mpy-cross binary; ``lines`` keeps source line numbers in the ``.mpy``
    files (see :func:`tanbo_tools.mpy.compile_source`). Returns a :class:`Bundle`; raises BuildError (nothing
    half-written is left in the bundle folder's place on failure).
    """
    if cp not in SUPPORTED_CP:
        raise mpy.BuildError("CircuitPython %r is not supported; choose one of %s"
                             % (cp, ", ".join(str(c) for c in SUPPORTED_CP)))
    version = version or project_version()
    name = bundle_name(board.name, version, cp)
    pairs, external = select_sources(board, device_dir, core_dir)

    files = {}
    unpatched = {}
    compiler = None
    if not py:
        exe = cross or mpy.find_mpy_cross()
        compiler = _compiler_version(exe)
    for dest, src in pairs:
        if py or not dest.startswith("lib/") or not dest.endswith(".py"):
            # code.py and boot.py stay source: CircuitPython only runs them as .py.
            with open(src, "rb") as f:
                files[dest] = f.read()
            continue
        source_name = dest[len("lib/"):]
        raw = mpy.compile_source(src, source_name, exe, lines=lines)
        mpy.check_header(raw, mpy.MAGIC_MICROPYTHON, src)
        dest_mpy = dest[:-3] + ".mpy"
        unpatched[dest_mpy] = raw
        files[dest_mpy] = mpy.to_circuitpython(raw)
    for path, data in files.items():
        if path.endswith(".mpy"):
            mpy.check_header(data, mpy.MAGIC_CIRCUITPYTHON, path)

    manifest = make_manifest(name, board, version, cp, py, files, external, compiler, lines)
    root = os.path.join(out_dir, name)
    tree = os.path.join(root, "CIRCUITPY")
    if os.path.islink(root) or os.path.lexists(root) and not os.path.isdir(root):
        raise ValueError("%s is not a folder made by tanbo build; move it away" % root)
    # Built beside and renamed into place: a full disk or an interrupt leaves the old bundle or
    # none, never half a tree (deploy would copy what is there).
    os.makedirs(out_dir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="." + name + ".", suffix=".part", dir=out_dir)
    try:
        contents = [("CIRCUITPY/" + path, files[path]) for path in sorted(files)]
        contents.append(("manifest.json", manifest_json(manifest).encode("utf-8")))
        for path, data in contents:
            full = os.path.join(work, *path.split("/"))
            try:
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as f:
                    f.write(data)
            except OSError as exc:  # a full disk: say which file of which bundle
                raise files_mod.FileProblem.of("cannot write the bundle %r (its %s): %s (nothing was written)"
                                               % (root, path, files_mod.why(exc)), exc)
        zip_path = os.path.join(out_dir, name + ".zip")
        files_mod.write_whole(zip_path, zip_bytes(files), "the bundle zip")
        if os.path.isdir(root):
            shutil.rmtree(root)  # a stale tree could hold modules this build dropped
        os.replace(work, root)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    manifest_path = os.path.join(root, "manifest.json")
    return Bundle(name, root, tree, zip_path, manifest_path, manifest, files, unpatched)


def _compiler_version(exe):
    import subprocess
    try:
        proc = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        raise mpy.BuildError("cannot run mpy-cross %s: %s" % (exe, exc))
    text = proc.stdout.strip()
    # "MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3": keep the
    # date out so the manifest stays the same across rebuilds of one compiler.
    version = text.split(" on ")[0]
    emits = text.rpartition("; ")[2] if "; " in text else ""
    return (version + ("; " + emits if emits else "")).strip()


def make_manifest(name, board, version, cp, py, files, external, compiler, lines=False):
    """The manifest dict: board, versions, and path/size/sha256 of every file (sorted);
    ``source_lines``: whether the ``.mpy`` files keep line numbers (``tanbo build --lines``)."""
    entries = [{"path": p, "size": len(files[p]), "sha256": sha256_bytes(files[p])}
               for p in sorted(files)]
    return {
        "name": name,
        "board": board.name,
        "board_ids": list(board.board_ids),
        "version": version,
        "circuitpython": cp,
        "format": "py" if py else "mpy",
        "mpy_version": None if py else mpy.MPY_VERSION,
        "source_lines": None if py else bool(lines),
        "compiler": compiler,
        "flash_bytes": board.circuitpy_bytes,
        "total_bytes": sum(e["size"] for e in entries),
        "external_imports": list(external),
        "files": entries,
    }


def manifest_json(manifest):
    return json.dumps(manifest, indent=1, sort_keys=True) + "\n"


MAX_MANIFEST = 16 * 1024 * 1024  # bytes; a bundle's manifest lists a few dozen files in ~10 KB


def load_manifest(path):
    """Read a manifest.json; ValueError quoting the path when it is not one."""
    try:  # by kind and size first: a FIFO or /dev/zero named manifest.json must not hang or fill memory
        data = json.loads(files_mod.read_regular(path, MAX_MANIFEST, "the manifest").decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # FileProblem and JSON errors are ValueErrors
        raise ValueError("cannot read manifest %s: %s" % (path, "nested too deep"
                                                          if isinstance(exc, RecursionError) else exc))
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        raise ValueError("%s is not a tanbo bundle manifest (no file list)" % path)
    return data


def zip_bytes(files):
    """A deterministic zip of ``{path: bytes}``: sorted, fixed dates and modes, deflate level 9."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for path in sorted(files):
            info = zipfile.ZipInfo(path, date_time=ZIP_DATE)
            info.external_attr = ZIP_MODE
            info.create_system = 3  # "Unix" everywhere, so Windows builds give the same bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[path], compresslevel=9)
    return buf.getvalue()


def size_report(bundle, board):
    """Lines describing total size and largest module against the board's CIRCUITPY size."""
    files = bundle.files
    total = sum(len(d) for d in files.values())
    # FAT allocates whole 512-byte sectors at least; show that too.
    on_disk = sum(((len(d) + 511) // 512) * 512 for d in files.values())
    largest = max(files, key=lambda p: (len(files[p]), p))
    flash = board.circuitpy_bytes
    return [
        "files: %d" % len(files),
        "total: %d bytes (%d on a FAT drive with 512-byte sectors) = %.1f%% of %s's %d-byte CIRCUITPY"
        % (total, on_disk, 100.0 * on_disk / flash, board.name, flash),
        "largest module: %s, %d bytes = %.2f%% of CIRCUITPY" % (largest, len(files[largest]),
                                                                100.0 * len(files[largest]) / flash),
    ]
