"""tanbo deploy against folders laid out like real CIRCUITPY drives."""

import collections
import json
import os
import shutil

import pytest

import tanbo_files as files
from tanbo_tools.ship import bundle, deploy, drives
from tanbo_tools.ship.boards import get_board
from tanbo_tools.cli import main as cli_main
from tools_fixtures import CORE, boot_out, circuitpy_drive, fake_device, write_tree

Usage = collections.namedtuple("Usage", "total used free")


def snapshot(folder):
    """``{relative path: bytes}`` of every file under ``folder``."""
    out = {}
    for dirpath, _, names in os.walk(folder):
        for n in names:
            full = os.path.join(dirpath, n)
            with open(full, "rb") as f:
                out[os.path.relpath(full, folder).replace(os.sep, "/")] = f.read()
    return out


def make_bundle(tmp_path, board="pybadge", out="build", extra=None, **kw):
    device = fake_device(tmp_path / ("src-" + out), extra)
    return bundle.build_bundle(get_board(board), str(tmp_path / out), device, CORE, **kw)


@pytest.fixture
def built(tmp_path):
    return make_bundle(tmp_path)


@pytest.fixture
def drive(tmp_path):
    return circuitpy_drive(tmp_path)


def quiet(*a):
    pass


USER_FILES = {"boot_out.txt", "settings.toml", "lib/my_driver.py", "notes.txt"}


def test_parse_boot_out_reads_version_and_board_id():
    info = drives.parse_boot_out(boot_out("pimoroni_picosystem", "9.2.8", "Pimoroni PicoSystem with rp2040"))
    assert info["version"] == "9.2.8" and info["major"] == 9
    assert info["board_id"] == "pimoroni_picosystem"
    assert info["banner"].endswith("Pimoroni PicoSystem with rp2040")
    with pytest.raises(ValueError, match="'hello'"):
        drives.parse_boot_out("hello\n")


def test_find_circuitpy_needs_label_and_boot_out(tmp_path):
    good = circuitpy_drive(tmp_path)
    other = write_tree(tmp_path / "USB", {"boot_out.txt": boot_out()})
    empty = write_tree(tmp_path / "CIRCUITPY1", {"x.txt": ""})
    vols = [(good, "CIRCUITPY"), (other, "USB"), (empty, "CIRCUITPY1")]
    assert drives.find_circuitpy(vols) == [good]
    assert deploy.pick_drive(get_board("pybadge"), vols) == good
    with pytest.raises(deploy.DeployError, match="no CIRCUITPY drive of a pygamer"):
        deploy.pick_drive(get_board("pygamer"), vols)
    with pytest.raises(deploy.DeployError, match="no CIRCUITPY drive found"):
        deploy.pick_drive(None, [])


def test_linux_and_macos_mount_points_are_scanned_without_user(tmp_path, monkeypatch):
    monkeypatch.delenv("USER", raising=False)
    circuitpy_drive(tmp_path / "media" / "alice")
    circuitpy_drive(tmp_path / "run" / "media" / "bob", name="CIRCUITPY1", board_id="pygamer")
    write_tree(tmp_path / "media" / "alice" / "PYBADGEBOOT", {"INFO_UF2.TXT": "UF2\nBoard-ID: SAMD51\n"})
    linux = drives.mounted_volumes("linux", root=str(tmp_path))
    found = drives.find_circuitpy(linux)
    assert [os.path.relpath(p, str(tmp_path)) for p in found] == [
        os.path.join("media", "alice", "CIRCUITPY"), os.path.join("run", "media", "bob", "CIRCUITPY1")]
    assert [os.path.basename(p) for p, _ in drives.find_bootloaders(linux)] == ["PYBADGEBOOT"]
    assert deploy.pick_drive(get_board("pygamer"), linux).endswith("CIRCUITPY1")
    with pytest.raises(deploy.DeployError, match="several CIRCUITPY drives"):
        deploy.pick_drive(None, linux)
    circuitpy_drive(tmp_path / "Volumes")
    mac = drives.mounted_volumes("darwin", root=str(tmp_path))
    assert drives.find_circuitpy(mac) == [str(tmp_path / "Volumes" / "CIRCUITPY")]


def test_fresh_deploy_copies_lib_first_code_last_and_keeps_user_files(built, drive):
    before = snapshot(drive)
    order = []

    def recording_copy(src, dst):
        order.append(os.path.relpath(dst, drive).replace(os.sep, "/"))
        deploy.copy_file(src, dst)

    plan = deploy.deploy(built.root, drive, copy=recording_copy, log=quiet)
    after = snapshot(drive)
    for path in USER_FILES:
        assert after[path] == before[path]
    for path, data in built.files.items():
        assert after[path] == data
    assert order[-1] == "code.py" and all(p.startswith("lib/") for p in order[:-1])
    assert set(plan.copy) == set(built.files)
    own = json.loads(after[deploy.DRIVE_MANIFEST])
    assert set(own["files"]) == set(built.files) and own["board"] == "pybadge"


def test_second_deploy_skips_unchanged_files(built, drive):
    deploy.deploy(built.root, drive, log=quiet)
    copies = []
    plan = deploy.deploy(built.root, drive, copy=lambda s, d: copies.append(d), log=quiet)
    assert copies == [] and plan.copy == [] and len(plan.skip) == len(built.files)
    before = os.stat(os.path.join(drive, deploy.DRIVE_MANIFEST)).st_mtime_ns
    os.utime(os.path.join(drive, deploy.DRIVE_MANIFEST), ns=(1, 1))
    deploy.deploy(built.root, drive, log=quiet)
    assert os.stat(os.path.join(drive, deploy.DRIVE_MANIFEST)).st_mtime_ns == 1  # not rewritten
    assert before != 1


def test_update_copies_only_changes_and_removes_only_its_own_stale_files(tmp_path, drive):
    old = make_bundle(tmp_path, out="old", extra={"app/main.py": "import tanbo\nfrom app import extra\n",
                                                  "app/extra.py": "X = 1\n"})
    deploy.deploy(old.root, drive, log=quiet)
    assert os.path.exists(os.path.join(drive, "lib", "app", "extra.mpy"))
    new = make_bundle(tmp_path, out="new", extra={"app/main.py": "import tanbo\n"})
    plan = deploy.deploy(new.root, drive, log=quiet)
    assert plan.copy == ["lib/app/main.mpy"]
    assert plan.remove == ["lib/app/extra.mpy"]
    after = snapshot(drive)
    assert "lib/app/extra.mpy" not in after
    assert USER_FILES <= set(after)


def test_switching_from_py_to_mpy_removes_shadowing_sources(tmp_path, drive):
    py = make_bundle(tmp_path, out="py", py=True)
    deploy.deploy(py.root, drive, log=quiet)
    assert os.path.exists(os.path.join(drive, "lib", "tanbo", "game.py"))
    mp = make_bundle(tmp_path, out="mpy")
    deploy.deploy(mp.root, drive, log=quiet)
    assert not os.path.exists(os.path.join(drive, "lib", "tanbo", "game.py"))
    assert os.path.exists(os.path.join(drive, "lib", "tanbo", "game.mpy"))


def test_a_users_own_code_py_is_never_overwritten(built, drive):
    write_tree(drive, {"code.py": "print('my own program')\n"})
    before = snapshot(drive)
    with pytest.raises(deploy.DeployError, match=r"did not install: code\.py"):
        deploy.deploy(built.root, drive, log=quiet)
    assert snapshot(drive) == before


@pytest.mark.parametrize("sample", [b'print("Hello World!")\n', b""])
def test_circuitpythons_sample_code_py_is_replaced(built, drive, sample):
    write_tree(drive, {"code.py": sample})
    plan = deploy.deploy(built.root, drive, log=quiet)
    assert "code.py" in plan.copy
    assert snapshot(drive)["code.py"] == built.files["code.py"]


def test_an_identical_file_already_there_is_adopted(built, drive):
    write_tree(drive, {"code.py": built.files["code.py"]})
    plan = deploy.deploy(built.root, drive, log=quiet)
    assert "code.py" in plan.skip


@pytest.mark.parametrize("board_id,version,match", [
    ("pygamer", "10.2.1", "Board ID:pygamer.*bundle is for pybadge"),
    ("pybadge", "9.2.8", "runs CircuitPython 9.2.8 but the bundle is for CircuitPython 10"),
])
def test_wrong_board_or_version_is_refused_before_writing(built, tmp_path, board_id, version, match):
    drive = circuitpy_drive(tmp_path, name="CIRCUITPY", board_id=board_id, version=version)
    before = snapshot(drive)
    with pytest.raises(deploy.DeployError, match=match):
        deploy.deploy(built.root, drive, log=quiet)
    assert snapshot(drive) == before


def test_a_folder_without_boot_out_is_not_a_drive(built, tmp_path):
    folder = write_tree(tmp_path / "stick", {"a.txt": "x"})
    with pytest.raises(deploy.DeployError, match="not a CIRCUITPY drive"):
        deploy.deploy(built.root, folder, log=quiet)


def test_too_small_drive_is_refused_before_anything_is_written(built, drive):
    before = snapshot(drive)
    logged = []
    with pytest.raises(deploy.DeployError, match="not enough space.*nothing was written"):
        deploy.deploy(built.root, drive, disk_usage=lambda p: Usage(2 ** 21, 2 ** 21 - 4096, 4096),
                      log=logged.append)
    assert snapshot(drive) == before
    assert any(line.startswith("free space: 4096 bytes") for line in logged)


def test_drive_vanishing_mid_copy_is_reported_and_a_later_deploy_recovers(built, drive, tmp_path):
    calls = []
    saved = str(tmp_path / "saved")

    def vanishing_copy(src, dst):
        calls.append(dst)
        if len(calls) == 3:
            shutil.move(drive, saved)  # unplugged
        deploy.copy_file(src, dst)

    with pytest.raises(deploy.DeployError, match=r"disappeared.*after 2 of \d+ files"):
        deploy.deploy(built.root, drive, copy=vanishing_copy, log=quiet)
    assert not os.path.exists(drive)  # the mount point was not recreated on the host disk
    shutil.move(saved, drive)  # plugged back in
    plan = deploy.deploy(built.root, drive, log=quiet)
    assert len(plan.skip) == 2
    assert {p: snapshot(drive)[p] for p in built.files} == built.files


def test_half_written_file_from_an_interrupted_deploy_is_replaced(built, drive):
    def torn_copy(src, dst):
        with open(src, "rb") as f, open(dst, "wb") as g:
            g.write(f.read()[:10])
        raise OSError(5, "Input/output error")

    with pytest.raises(deploy.DeployError, match="Input/output error"):
        deploy.deploy(built.root, drive, copy=torn_copy, log=quiet)
    deploy.deploy(built.root, drive, log=quiet)
    assert {p: snapshot(drive)[p] for p in built.files} == built.files


def test_read_back_mismatch_fails(built, drive):
    def bad_copy(src, dst):
        with open(dst, "wb") as g:
            g.write(b"garbage")

    with pytest.raises(deploy.DeployError, match="read-back differs"):
        deploy.deploy(built.root, drive, copy=bad_copy, log=quiet)


def test_tampered_bundle_is_refused(built, drive):
    with open(os.path.join(built.tree, "code.py"), "ab") as f:
        f.write(b"# edited\n")
    with pytest.raises(deploy.DeployError, match="differs from manifest"):
        deploy.deploy(built.root, drive, log=quiet)


def test_dry_run_writes_nothing(built, drive):
    before = snapshot(drive)
    logged = []
    plan = deploy.deploy(built.root, drive, dry_run=True, log=logged.append)
    assert snapshot(drive) == before
    assert len(plan.copy) == len(built.files)
    assert "would copy code.py" in logged


def test_cli_finds_the_default_bundle_for_the_drives_board(tmp_path, drive, monkeypatch, capsys):
    work = tmp_path / "work"
    work.mkdir()
    bundle.build_bundle(get_board("pybadge"), str(work / "build"), fake_device(tmp_path / "src"), CORE)
    monkeypatch.chdir(work)
    assert cli_main(["deploy", "--drive", drive]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and os.path.exists(os.path.join(drive, "code.py"))
    assert cli_main(["deploy", "--drive", drive, "--board", "pygamer"]) == 1
    assert "no bundle at" in capsys.readouterr().err


def test_cli_refuses_a_bundle_for_another_board(built, drive, capsys):
    assert cli_main(["deploy", "--drive", drive, "--bundle", built.root, "--board", "pygamer"]) == 1
    assert "is for pybadge, not pygamer" in capsys.readouterr().err
    assert cli_main(["deploy", "--drive", drive, "--bundle", drive]) == 1
    assert "no manifest.json" in capsys.readouterr().err


# Hostile drives (issue 15): the drive's own manifest and layout are input too.

def installed_drive(built, drive):
    deploy.deploy(built.root, drive, log=quiet)
    with open(os.path.join(drive, deploy.DRIVE_MANIFEST)) as f:
        return json.load(f)


def sha(data):
    return bundle.sha256_bytes(data)


@pytest.mark.parametrize("entry", ["../victim.txt", "lib/../../victim.txt", "/abs/victim.txt",
                                   "C:/victim.txt", "lib\\..\\..\\victim.txt", "", "./code.py",
                                   "lib//x.py", "a\0b", 7])
def test_a_drive_manifest_naming_paths_outside_the_drive_is_refused(built, drive, tmp_path, entry):
    record = installed_drive(built, drive)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    record["files"][entry if isinstance(entry, str) else "x"] = sha(b"precious\n") if entry != 7 else 7
    with open(os.path.join(drive, deploy.DRIVE_MANIFEST), "w") as f:
        json.dump(record, f)
    before = snapshot(drive)
    with pytest.raises(deploy.DeployError, match="not trusted"):
        deploy.deploy(make_bundle(tmp_path, out="v2", extra={"app/new.py": "x = 1\n"}).root,
                      drive, log=quiet)
    assert victim.read_bytes() == b"precious\n" and snapshot(drive) == before


def test_a_symlinked_folder_is_not_followed_out_of_the_drive(built, drive, tmp_path):
    installed_drive(built, drive)
    outside = write_tree(tmp_path / "outside", {"x.py": "mine\n"})
    os.symlink(outside, os.path.join(drive, "lib", "evil"))
    path = os.path.join(drive, deploy.DRIVE_MANIFEST)
    with open(path) as f:
        record = json.load(f)
    record["files"]["lib/evil/x.py"] = sha(b"mine\n")
    with open(path, "w") as f:
        json.dump(record, f)
    with pytest.raises(deploy.DeployError, match="lib/evil.*outside the drive"):
        deploy.deploy(built.root, drive, log=quiet)
    assert snapshot(outside) == {"x.py": b"mine\n"}
    # The bundle's own paths are checked the same way: lib/ linked away is refused.
    drive2 = circuitpy_drive(tmp_path / "d2")
    shutil.rmtree(os.path.join(drive2, "lib"))
    os.symlink(outside, os.path.join(drive2, "lib"))
    with pytest.raises(deploy.DeployError, match="outside the drive"):
        deploy.deploy(built.root, drive2, log=quiet)
    assert snapshot(outside) == {"x.py": b"mine\n"}


def test_a_file_the_user_edited_after_install_is_refused_by_name_unless_forced(built, drive, tmp_path):
    installed_drive(built, drive)
    with open(os.path.join(drive, "code.py"), "a") as f:
        f.write("# my tweak\n")
    edited = snapshot(drive)["code.py"]
    v2 = make_bundle(tmp_path, out="v2", extra={"code.py": "print('v2')\n"})
    with pytest.raises(deploy.DeployError, match=r"changed since tanbo installed them: code\.py\).*--force"):
        deploy.deploy(v2.root, drive, log=quiet)
    assert snapshot(drive)["code.py"] == edited
    deploy.deploy(v2.root, drive, force=True, log=quiet)
    assert snapshot(drive)["code.py"] == b"print('v2')\n"


def test_a_file_where_a_folder_is_needed_is_found_before_anything_is_written(built, tmp_path):
    drive = circuitpy_drive(tmp_path)
    write_tree(drive, {"lib/tanbo": "a file of mine\n"})
    before = snapshot(drive)
    with pytest.raises(deploy.DeployError, match="lib/tanbo is a file.*needs a folder") as err:
        deploy.deploy(built.root, drive, log=quiet)
    assert "when the drive is back" not in str(err.value)
    assert snapshot(drive) == before


@pytest.mark.parametrize("errno_, match", [(28, "the drive is full"), (30, "read-only")])
def test_a_full_or_read_only_drive_is_named_as_such(built, drive, errno_, match):
    def failing_copy(src, dst):
        raise OSError(errno_, os.strerror(errno_))

    with pytest.raises(deploy.DeployError, match=match) as err:
        deploy.deploy(built.root, drive, copy=failing_copy, log=quiet)
    assert "when the drive is back" not in str(err.value)


def test_a_read_only_drive_is_found_before_anything_is_written(built, drive, monkeypatch):
    real = os.access
    monkeypatch.setattr(deploy.os, "access",
                        lambda p, mode, **kw: False if mode == os.W_OK else real(p, mode, **kw))
    before = snapshot(drive)
    with pytest.raises(deploy.DeployError, match="read-only.*nothing was written"):
        deploy.deploy(built.root, drive, log=quiet)
    assert snapshot(drive) == before


def test_a_read_only_file_of_the_users_is_named_before_anything_is_written_even_forced(built, drive, capsys):
    """``chmod 444 code.py`` on the drive: deploy --force names the file and why, before writing
    anything, and does not blame the drive or boot.py."""
    write_tree(drive, {"code.py": "print('my own program')\n"})
    os.chmod(os.path.join(drive, "code.py"), 0o444)
    before = snapshot(drive)
    assert cli_main(["deploy", "--drive", drive, "--bundle", built.root, "--force"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tanbo deploy: error: code.py on %s is read-only" % drive), err
    assert "even with --force" in err[0] and "nothing was written" in err[0] and "boot.py" not in err[0]
    assert snapshot(drive) == before and os.stat(os.path.join(drive, "code.py")).st_mode & 0o777 == 0o444
    os.chmod(os.path.join(drive, "code.py"), 0o644)  # made writable, as the message says: deployed
    assert cli_main(["deploy", "--drive", drive, "--bundle", built.root, "--force"]) == 0
    assert snapshot(drive)["code.py"] == built.files["code.py"]


@pytest.mark.parametrize("errno_", [13, 1])  # EACCES, EPERM: the file's own permissions, on a writable drive
def test_a_file_that_cannot_be_written_is_named_with_its_cause(built, drive, errno_):
    def copy(src, dst):
        if dst.endswith("code.py"):
            raise files.FileProblem.of("cannot write file %r: %s (nothing was written)"
                                       % (dst, os.strerror(errno_)), OSError(errno_, os.strerror(errno_)))
        deploy.copy_file(src, dst)

    with pytest.raises(deploy.DeployError) as err:
        deploy.deploy(built.root, drive, copy=copy, log=quiet)
    total = len(built.files)
    assert str(err.value).startswith("code.py on %s cannot be written (%s) after %d of %d files"
                                     % (drive, os.strerror(errno_), total - 1, total))
    assert "boot.py" not in str(err.value) and "read-only to this computer" not in str(err.value)
