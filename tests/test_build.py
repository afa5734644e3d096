"""tanbo build: closure, .mpy headers, reproducibility, manifest, verification on real VMs."""

import hashlib
import json
import os
import subprocess
import zipfile

import pytest

from tanbo_tools import mpy
from tanbo_tools.ship import bundle, closure, verify
from tanbo_tools.ship.boards import BOARDS, get_board
from tanbo_tools.cli import main as cli_main
from tools_fixtures import CORE, REPO, fake_device, write_tree

CP_VM = os.environ.get("TANBO_CIRCUITPYTHON")
needs_cp = pytest.mark.skipif(not CP_VM, reason="TANBO_CIRCUITPYTHON (CircuitPython 10.2.1 VM) not set")
needs_mp = pytest.mark.skipif(not verify.micropython_path(), reason="no micropython unix port installed")


def paths_for(board, device):
    pairs, external = bundle.select_sources(get_board(board), device, CORE)
    return [p for p, _ in pairs], external


def build(tmp_path, board="pybadge", out="out", **kw):
    device = kw.pop("device", None) or fake_device(tmp_path)
    return bundle.build_bundle(get_board(board), str(tmp_path / out), device, CORE, **kw)


def test_closure_takes_lazy_imports_and_the_boards_own_module_only(tmp_path):
    device = fake_device(tmp_path)
    paths, external = paths_for("pybadge", device)
    assert "code.py" in paths
    assert "lib/app/screen.py" in paths            # imported inside a function
    assert "lib/tanbo/position.py" in paths        # engine's own lazy import
    assert "lib/boards/pybadge.py" in paths and "lib/boards/common.py" in paths
    assert "lib/boards/pygamer.py" not in paths    # other boards stay off
    assert "lib/boards/picosystem.py" not in paths
    assert "lib/app/unused.py" not in paths        # nothing imports it
    assert "lib/tanbo/perf.py" not in paths        # desktop-only engine module
    assert "lib/app/font.bdf" in paths             # asset of an imported package
    assert {"board", "displayio", "keypad"} <= set(external)
    assert "nothing_here" not in external          # only reached modules are scanned


def test_a_board_module_may_reuse_another_boards_module(tmp_path):
    paths, _ = paths_for("pygamer", fake_device(tmp_path))
    assert "lib/boards/pygamer.py" in paths and "lib/boards/pybadge.py" in paths
    paths, _ = paths_for("picosystem", fake_device(tmp_path / "p"))
    assert "lib/boards/picosystem.py" in paths and "lib/boards/pybadge.py" not in paths


def test_boot_py_is_shipped_when_present(tmp_path):
    device = fake_device(tmp_path, {"boot.py": "import storage\n"})
    paths, external = paths_for("pybadge", device)
    assert "boot.py" in paths and "storage" in external


def test_a_missing_local_module_is_an_error_unless_guarded(tmp_path):
    device = fake_device(tmp_path, {"app/main.py": "def run(hw):\n    from tanbo.nothere import x\n"})
    with pytest.raises(mpy.BuildError, match=r"app\.main: tanbo\.nothere"):
        paths_for("pybadge", device)
    device = fake_device(tmp_path / "g", {"app/main.py": (
        "try:\n    import app.optional\nexcept ImportError:\n    pass\nfrom tanbo import Game\n")})
    paths, _ = paths_for("pybadge", device)
    assert "lib/app/main.py" in paths


def test_relative_import_beyond_top_level_is_an_error(tmp_path):
    device = fake_device(tmp_path, {"code.py": "from . import x\n"})
    with pytest.raises(mpy.BuildError, match="relative import"):
        paths_for("pybadge", device)


def test_imported_names_resolve_relative_imports():
    names = closure.imported_names("from .a import b\nfrom .. import c\nimport x.y\n",
                                   "f.py", "pkg.sub")
    assert set(names) == {"pkg.sub.a", "pkg.sub.a.b", "pkg", "pkg.c", "x.y"}


def test_a_literal_loaded_or_dunder_import_counts_as_an_import():
    # tanbo.variants.loaded("tanbo.game_make") is how a Game reaches the code a
    # board drops under a game: a bundle without it could not start a game.
    src = 'loaded("tanbo.game_make")\n__import__("app.store.library")\nloaded(name)\nother("x.y")\n'
    assert closure.imported_names(src, "m.py", "") == ["tanbo.game_make", "app.store.library"]


def test_an_import_by_a_name_built_from_a_package_takes_that_package_whole(tmp_path):
    # app.main.App.go imports app.screens.NAME by a name made at run time: every
    # screen of the room ships, and only that room (the app's other modules by
    # their imports).
    device = fake_device(tmp_path, {
        "app/main.py": "import tanbo\ndef go(name):\n    __import__('app.screens.' + name)\n",
        "app/screens/__init__.py": "",
        "app/screens/title.py": "from app.view import text\n",
        "app/screens/game.py": "",
        "app/view/__init__.py": "",
        "app/view/text.py": "",
        "app/view/unused.py": "",
    })
    paths, _ = paths_for("pybadge", device)
    for p in ("lib/app/screens/__init__.py", "lib/app/screens/title.py", "lib/app/screens/game.py",
              "lib/app/view/text.py"):
        assert p in paths
    assert "lib/app/view/unused.py" not in paths


def test_the_real_app_ships_every_screen_it_reaches_by_name():
    paths, _ = paths_for("picosystem", os.path.join(REPO, "device"))
    screens = sorted(n[:-3] for n in os.listdir(os.path.join(REPO, "device", "app", "screens")) if n.endswith(".py"))
    assert len(screens) > 10
    for name in screens:
        assert "lib/app/screens/%s.py" % name in paths, name
    # boards.sleep finds the board's own module by a name made at run time: no other board's ships
    assert "lib/boards/sleep.py" in paths and "lib/boards/picosystem.py" in paths
    assert "lib/boards/pybadge.py" not in paths and "lib/boards/pygamer.py" not in paths


def test_every_mpy_has_the_circuitpython_header_and_code_py_stays_source(tmp_path):
    b = build(tmp_path)
    mpys = [p for p in b.files if p.endswith(".mpy")]
    assert mpys and all(p.startswith("lib/") for p in mpys)
    assert not any(p.startswith("lib/") and p.endswith(".py") for p in b.files)
    for p in mpys:
        assert b.files[p][:2] == b"C\x06"
        assert b.mpy_unpatched[p] == b"M" + b.files[p][1:]
    assert b.files["code.py"].startswith(b"import boards")
    assert verify.check_headers(b.files) == len(mpys)
    with pytest.raises(mpy.BuildError, match="header"):
        verify.check_headers({"lib/x.mpy": b"M\x06\x00\x1f"})


def test_check_header_refuses_native_code_and_short_files():
    with pytest.raises(mpy.BuildError, match="native"):
        mpy.check_header(b"C\x06\x28\x1f", b"C", "x.mpy")
    with pytest.raises(mpy.BuildError, match="too short"):
        mpy.check_header(b"C\x06", b"C", "x.mpy")


def test_async_sources_are_refused_naming_the_file(tmp_path, capsys):
    device = fake_device(tmp_path, {"app/main.py": "import tanbo\nasync def run(hw):\n    pass\n"})
    with pytest.raises(mpy.BuildError, match=r"main\.py:2: uses async"):
        build(tmp_path, device=device)
    rc = cli_main(["build", "--board", "pybadge", "--device", device, "--core", CORE,
                   "--out", str(tmp_path / "cli"), "--no-verify"])
    assert rc == 1
    assert "main.py:2: uses async" in capsys.readouterr().err
    # --py ships sources, which CircuitPython compiles itself: allowed.
    b = build(tmp_path, device=device, out="py", py=True)
    assert "lib/app/main.py" in b.files


def test_build_is_reproducible_and_matches_its_manifest(tmp_path):
    a = build(tmp_path, out="a")
    b = build(tmp_path, out="b")
    with open(a.zip_path, "rb") as f1, open(b.zip_path, "rb") as f2:
        assert f1.read() == f2.read()
    with open(a.manifest_path, "rb") as f1, open(b.manifest_path, "rb") as f2:
        assert f1.read() == f2.read()
    assert os.path.basename(a.zip_path) == "tanbo-pybadge-%s-cp10.zip" % bundle.project_version()
    manifest = json.load(open(a.manifest_path))
    assert manifest["board"] == "pybadge" and manifest["circuitpython"] == 10
    assert manifest["version"] == bundle.project_version()
    listed = {e["path"]: e for e in manifest["files"]}
    on_disk = {}
    for dirpath, _, names in os.walk(a.tree):
        for n in names:
            full = os.path.join(dirpath, n)
            on_disk[os.path.relpath(full, a.tree).replace(os.sep, "/")] = open(full, "rb").read()
    assert set(listed) == set(on_disk)
    for path, data in on_disk.items():
        assert listed[path]["size"] == len(data)
        assert listed[path]["sha256"] == hashlib.sha256(data).hexdigest()
    with zipfile.ZipFile(a.zip_path) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == sorted(on_disk)
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
        assert all(z.read(i) == on_disk[i.filename] for i in infos)


def test_rebuild_drops_files_a_previous_build_had(tmp_path):
    device = fake_device(tmp_path, {"app/main.py": "import tanbo\nfrom app import extra\n",
                                    "app/extra.py": "X = 1\n"})
    b = build(tmp_path, device=device)
    assert os.path.exists(os.path.join(b.tree, "lib", "app", "extra.mpy"))
    write_tree(device, {"app/main.py": "import tanbo\n"})
    b = build(tmp_path, device=device)
    assert not os.path.exists(os.path.join(b.tree, "lib", "app", "extra.mpy"))


def test_cp9_and_py_builds_are_named_and_described(tmp_path):
    b = build(tmp_path, cp=9)
    assert b.name.endswith("-cp9") and b.manifest["circuitpython"] == 9
    p = build(tmp_path, out="py", py=True)
    assert p.manifest["format"] == "py" and "lib/tanbo/game.py" in p.files
    assert not any(x.endswith(".mpy") for x in p.files)
    with pytest.raises(mpy.BuildError, match="CircuitPython 8"):
        build(tmp_path, out="x", cp=8)


def test_missing_entry_point_or_board_module_is_a_clear_error(tmp_path):
    device = fake_device(tmp_path)
    os.remove(os.path.join(device, "boards", "picosystem.py"))
    with pytest.raises(mpy.BuildError, match="picosystem.py"):
        build(tmp_path, board="picosystem", device=device)
    os.remove(os.path.join(device, "code.py"))
    with pytest.raises(mpy.BuildError, match="code.py"):
        build(tmp_path, device=device)


@needs_mp
def test_cli_build_verifies_under_micropython_and_prints_sizes(tmp_path, capsys):
    device = fake_device(tmp_path)
    rc = cli_main(["build", "--board", "pygamer", "--device", device, "--core", CORE,
                   "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "(heap 116K) imported the bundle and played a 9x9 game: GAME-OK" in out
    rc = cli_main(["build", "--board", "pygamer", "--py", "--device", device, "--core", CORE,
                   "--out", str(tmp_path / "py")])
    assert rc == 0 and "(heap 192K)" in capsys.readouterr().out
    assert "of pygamer's %d-byte CIRCUITPY" % BOARDS["pygamer"].circuitpy_bytes in out
    assert "largest module: lib/tanbo/game.mpy" in out


@needs_mp
def test_verification_failure_fails_the_build(tmp_path, capsys):
    core = write_tree(tmp_path / "core", {"tanbo/__init__.py": "raise ImportError('broken engine')\n"})
    device = fake_device(tmp_path, {"app/main.py": "import tanbo\n"})
    rc = cli_main(["build", "--board", "pybadge", "--device", device, "--core", core,
                   "--out", str(tmp_path / "out")])
    assert rc == 1
    assert "broken engine" in capsys.readouterr().err


@needs_cp
def test_patched_bundle_plays_under_circuitpython_and_matches_its_mpy_cross(tmp_path):
    b = build(tmp_path)
    line = verify.play_check(CP_VM, b.files)
    assert line.startswith("GAME-OK")
    cp_cross = os.path.join(os.path.dirname(CP_VM), "mpy-cross-cp")
    sources = dict(bundle.select_sources(get_board("pybadge"), os.path.join(str(tmp_path), "device"),
                                         CORE)[0])
    compared = 0
    for path, data in sorted(b.files.items()):
        if not path.endswith(".mpy"):
            continue
        src = sources[path[:-4] + ".py"]
        out = str(tmp_path / "cp.mpy")
        subprocess.run([cp_cross, "-s", path[len("lib/"):-4] + ".py", "-o", out, src], check=True)
        assert open(out, "rb").read() == data, path
        compared += 1
    assert compared >= 6


@needs_cp
def test_circuitpython_refuses_the_unpatched_compile(tmp_path):
    b = build(tmp_path)
    lib = dict(b.files)
    lib.update(b.mpy_unpatched)
    with pytest.raises(mpy.BuildError, match="MicroPython .mpy"):
        verify.play_check(CP_VM, lib)


REAL_DEVICE = os.path.join(REPO, "device")
needs_real = pytest.mark.skipif(not os.path.isfile(os.path.join(REAL_DEVICE, "code.py")),
                                reason="device/code.py not written yet")


@needs_real
@pytest.mark.parametrize("board", sorted(BOARDS))
def test_real_tree_builds_for_every_board(tmp_path, board):
    b = bundle.build_bundle(get_board(board), str(tmp_path), REAL_DEVICE, CORE)
    assert "code.py" in b.files and "lib/tanbo/__init__.mpy" in b.files
    assert "lib/boards/%s.mpy" % get_board(board).module in b.files
    for lazy in ("game_make", "variant_make", "point_text", "hexbo_make", "hexbo_text"):
        assert "lib/tanbo/%s.mpy" % lazy in b.files  # (reached by loaded() or inside a function)
    assert verify.check_headers(b.files) > 0
    assert b.manifest["total_bytes"] < get_board(board).circuitpy_bytes
    if verify.micropython_path():
        lib = dict(b.files)
        lib.update(b.mpy_unpatched)
        assert verify.play_check(verify.micropython_path(), lib).startswith("GAME-OK")
    if CP_VM:
        assert verify.play_check(CP_VM, b.files).startswith("GAME-OK")


def test_a_core_folder_without_the_engine_or_an_out_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    device = fake_device(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    base = ["build", "--board", "pybadge", "--no-verify", "--device", device]
    # Before: the bundle was built without tanbo/, saying the firmware provides it.
    assert cli_main(base + ["--core", str(empty), "--out", str(tmp_path / "o")]) == 1
    assert "engine package tanbo/ is not in" in capsys.readouterr().err
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert cli_main(base + ["--core", CORE, "--out", str(afile)]) == 1
    assert "cannot make the output folder" in capsys.readouterr().err


@pytest.mark.parametrize("heap", ["5", "0", "abc", "١٠٠K", "99999999999K", "-96K", "96KB", "064K", "0x18000",
                                  "65M"])
def test_verify_heap_must_be_a_micropython_heap_size(tmp_path, capsys, heap):
    with pytest.raises(SystemExit) as exc:
        cli_main(["build", "--board", "pybadge", "--verify-heap=" + heap, "--out", str(tmp_path)])
    assert exc.value.code == 2 and repr(heap) in capsys.readouterr().err


def test_mpy_files_leave_out_line_numbers_unless_asked(tmp_path, micropython_exe):
    """The shipped bytecode has no line table (a board loads it onto its heap): a traceback
    names the file and function at line 1; ``lines=True`` (``tanbo build --lines``) keeps
    the real line, in a larger file; the manifest says which a bundle has."""
    src = tmp_path / "fails.py"
    src.write_text("def first():\n    pass\n\n\ndef broken():\n    return 1 // 0\n")
    runs = {}
    for lines in (False, True):
        data = mpy.compile_source(str(src), "fails.py", lines=lines)
        folder = tmp_path / ("lines" if lines else "plain")
        folder.mkdir()
        (folder / "fails.mpy").write_bytes(data)
        proc = subprocess.run([micropython_exe, "-c", "import fails\nfails.broken()"], cwd=str(folder),
                              capture_output=True, text=True, env=dict(os.environ, MICROPYPATH="."))
        runs[lines] = (len(data), proc.stdout + proc.stderr)
    assert 'File "fails.py", line 1, in broken' in runs[False][1], runs[False][1]
    assert 'File "fails.py", line 6, in broken' in runs[True][1], runs[True][1]
    assert runs[False][0] < runs[True][0]
    assert build(tmp_path, out="a").manifest["source_lines"] is False
    assert build(tmp_path, out="b", lines=True).manifest["source_lines"] is True
    assert build(tmp_path, out="c", py=True).manifest["source_lines"] is None


def test_cli_build_lines_keeps_the_line_numbers(tmp_path, capsys):
    assert cli_main(["build", "--board", "pybadge", "--lines", "--no-verify", "--device", fake_device(tmp_path),
                     "--out", str(tmp_path / "out")]) == 0
    assert "mpy with line numbers" in capsys.readouterr().out
    (manifest,) = [os.path.join(d, f) for d, _, fs in os.walk(str(tmp_path / "out")) for f in fs
                   if f == "manifest.json"]
    with open(manifest) as f:
        assert json.load(f)["source_lines"] is True
