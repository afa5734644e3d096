"""Hostile input, round 2 (issue 27): files of the wrong kind, links, malformed firmware, a full
disk, values the engine cannot hold. Each case is refused with one line naming the file or value
and what is wrong (exit 2 for usage, 1 for a failed operation), never a traceback or a hang, and
leaves nothing half-written. Where a case has a family, hypothesis draws the next member.

Special files are made here (FIFOs, links, sockets); the tests that need them skip where the
OS has none. A full disk is the file-size limit (RLIMIT_FSIZE: writes past it fail with EFBIG,
as a full disk fails them with ENOSPC) in a child process, or ENOSPC raised in this one.
"""

import errno
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time

try:
    import resource
except ImportError:  # not on Windows: no file-size limit to fill a disk with
    resource = None

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tanbo import VARIANTS, Game
import tanbo_files as files
from tanbo_tools.ship import deploy, flash, image, uf2
from tanbo_tools.ship.boards import get_board
from tanbo_tools.puzzle_maker import puzzles as tool_puzzles
from tanbo_tools.cli import main as cli_main
from tools_fixtures import CORE, circuitpy_drive, circuitpython_uf2, fake_device, uf2_block

posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs, links and sockets as POSIX has them")
TANBO = os.path.join(os.path.dirname(sys.executable), "tanbo")
SAMD51, RP2040 = 0x55114460, 0xE48BFF56
PICO, BADGE = get_board("picosystem"), get_board("pybadge")
XIP = 0x10000000


@pytest.fixture(autouse=True)
def no_hang():
    """A test that blocks (a FIFO opened, /dev/zero read whole) fails after two minutes instead."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def hung(signum, frame):
        raise TimeoutError("hung: blocked for 120 s")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_tanbo(*argv, limit=None, timeout=120, **kw):
    """``tanbo ARGV`` in a child; ``limit``: the largest file it may write (a full disk past it)."""
    def child():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails, as on a full disk
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([TANBO] + list(argv), capture_output=True, text=True, timeout=timeout,
                          preexec_fn=child, env=env, **kw)


def one_line_error(err):
    """The refusal's line: exactly one, no traceback."""
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("usage:", " "))]
    assert "Traceback" not in err and len(lines) == 1, err
    return lines[0]


def listing(folder):
    return sorted(os.listdir(str(folder)))


# -- the kinds of file that are not regular files ---------------------------------------------
def make_special(path, kind, target=None):
    """A file of ``kind`` at ``path``: fifo, socket, dir, link (to ``target``), dangling, devzero."""
    path = str(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        s = socket.socket(socket.AF_UNIX)
        s.bind(path)
        s.close()
    elif kind == "dir":
        os.mkdir(path)
    elif kind == "link":
        os.symlink(str(target), path)
    elif kind == "dangling":
        os.symlink(path + ".missing", path)
    elif kind == "devzero":
        os.symlink("/dev/zero", path)
    return path


KINDS = ["fifo", "socket", "dir", "dangling", "devzero"]


@posix
@pytest.mark.parametrize("kind", KINDS + ["devzero-direct"])
def test_read_regular_refuses_each_kind_before_opening_it(tmp_path, kind):
    path = "/dev/zero" if kind == "devzero-direct" else make_special(tmp_path / "f", kind)
    with pytest.raises(files.FileProblem) as exc:
        files.read_regular(path, 1 << 20, "the firmware")
    assert repr(path) in str(exc.value) and "\n" not in str(exc.value)


def test_read_regular_refuses_a_file_over_the_limit_before_reading_it(tmp_path, monkeypatch):
    big = tmp_path / "big.uf2"
    big.write_bytes(b"\0" * 5000)
    monkeypatch.setattr(os, "read", lambda *a: pytest.fail("read a file over the limit"))
    with pytest.raises(files.FileProblem, match="is 5000 bytes, more than 4096"):
        files.read_regular(str(big), 4096, "the firmware")


@posix
@pytest.mark.parametrize("kind", ["fifo", "socket", "dir", "dangling", "link", "devzero"])
def test_a_write_never_goes_through_a_link_or_onto_a_special_file(tmp_path, kind):
    victim = tmp_path / "victim.txt"
    victim.write_text("yours\n")
    path = make_special(tmp_path / "out", kind, victim)
    before = listing(tmp_path)
    with pytest.raises(files.FileProblem, match="only a regular file is written over"):
        files.write_whole(path, b"data")
    assert victim.read_text() == "yours\n" and listing(tmp_path) == before


def enospc_on_fsync(monkeypatch):
    """A disk that fills at the flush: os.fsync raises ENOSPC."""
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)


def test_a_full_disk_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch):
    target = tmp_path / "record.txt"
    target.write_text("old\n")
    enospc_on_fsync(monkeypatch)
    with pytest.raises(files.FileProblem) as exc:
        files.write_whole(str(target), "new\n", "the game record")
    assert exc.value.errno == errno.ENOSPC and "No space left on device" in str(exc.value)
    assert target.read_text() == "old\n" and listing(tmp_path) == ["record.txt"]


# -- item 0: deploy writes only regular files inside the drive -----------------------------------
def built_bundle(tmp_path):
    from tanbo_tools.ship import bundle
    return bundle.build_bundle(BADGE, str(tmp_path / "build"), fake_device(tmp_path / "src"), CORE)


def quiet(*a):
    pass


@posix
def test_deploy_never_writes_the_manifest_through_a_link_leading_out(tmp_path):
    built, drive = built_bundle(tmp_path), circuitpy_drive(tmp_path)
    outside = tmp_path / "outside.json"
    outside.write_text("precious\n")
    os.symlink(str(outside), os.path.join(drive, deploy.DRIVE_MANIFEST))
    with pytest.raises(deploy.DeployError, match="is a symbolic link, not tanbo's record"):
        deploy.deploy(built.root, drive, log=quiet)
    assert outside.read_text() == "precious\n"
    assert not os.path.exists(os.path.join(drive, "code.py"))


@posix
def test_deploy_force_never_writes_an_installed_file_through_a_link(tmp_path):
    built, drive = built_bundle(tmp_path), circuitpy_drive(tmp_path)
    notes = os.path.join(drive, "notes.txt")
    os.symlink("notes.txt", os.path.join(drive, "code.py"))
    with pytest.raises(deploy.DeployError, match="code.py on .* is a symbolic link leading elsewhere on the drive"):
        deploy.deploy(built.root, drive, force=True, log=quiet)
    assert open(notes).read() == "user notes\n"


@posix
@pytest.mark.parametrize("kind", ["fifo", "socket", "dangling", "devzero", "dir"])
def test_deploy_refuses_a_drive_record_of_the_wrong_kind_at_once(tmp_path, kind):
    drive = circuitpy_drive(tmp_path)
    make_special(os.path.join(drive, deploy.DRIVE_MANIFEST), kind)
    with pytest.raises(deploy.DeployError, match=r"\.tanbo-manifest\.json is a .*nothing was written"):
        deploy.read_drive_manifest(drive)


@posix
@pytest.mark.parametrize("kind", ["fifo", "socket", "devzero"])
def test_deploy_refuses_a_special_file_where_the_bundle_has_a_file(tmp_path, kind):
    built, drive = built_bundle(tmp_path), circuitpy_drive(tmp_path)
    make_special(os.path.join(drive, "code.py"), kind)
    with pytest.raises(deploy.DeployError, match=r"code\.py (is a .* on the drive where the bundle has a file|on .* is a symbolic link)"):
        deploy.deploy(built.root, drive, force=True, log=quiet)


@posix
@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_a_special_boot_out_txt_is_no_circuitpy_drive(tmp_path, kind):
    drive = circuitpy_drive(tmp_path)
    os.remove(os.path.join(drive, "boot_out.txt"))
    make_special(os.path.join(drive, "boot_out.txt"), kind)
    proc = run_tanbo("deploy", "--drive", drive, timeout=60, cwd=str(tmp_path))
    assert proc.returncode == 1
    assert "is not a CIRCUITPY drive (boot_out.txt" in one_line_error(proc.stderr)


def test_a_drive_record_nested_too_deep_is_named(tmp_path):
    drive = circuitpy_drive(tmp_path)
    with open(os.path.join(drive, deploy.DRIVE_MANIFEST), "w") as f:
        f.write("[" * 100000 + "]" * 100000)
    with pytest.raises(deploy.DeployError, match="unreadable"):
        deploy.read_drive_manifest(drive)


def test_a_huge_drive_record_is_refused_by_its_size(tmp_path):
    drive = circuitpy_drive(tmp_path)
    with open(os.path.join(drive, deploy.DRIVE_MANIFEST), "w") as f:
        f.write(" " * (deploy.MAX_DRIVE_MANIFEST + 1))
    with pytest.raises(deploy.DeployError, match="more than 1048576"):
        deploy.read_drive_manifest(drive)


@posix
@pytest.mark.parametrize("kind", ["fifo", "devzero", "deep"])
def test_a_bundle_manifest_of_the_wrong_kind_or_depth_is_refused_at_once(tmp_path, kind):
    from tanbo_tools.ship import bundle
    path = tmp_path / "manifest.json"
    if kind == "deep":
        path.write_text("[" * 100000 + "]" * 100000)
    else:
        make_special(path, kind)
    with pytest.raises(ValueError, match="cannot read manifest .*(not a regular file|nested too deep)"):
        bundle.load_manifest(str(path))


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                                    max_size=4), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.one_of(JSON, st.fixed_dictionaries({"files": JSON, "pending": JSON}),
                        st.fixed_dictionaries({"files": st.dictionaries(st.text(max_size=30),
                                                                        st.text(max_size=70))})))
def test_any_drive_record_is_read_or_refused_as_untrusted(tmp_path, record):
    drive = circuitpy_drive(tmp_path, name="CP")
    with open(os.path.join(drive, deploy.DRIVE_MANIFEST), "w") as f:
        json.dump(record, f)
    try:
        owned, pending = deploy.read_drive_manifest(drive)
    except deploy.DeployError as exc:
        assert "\n" not in str(exc)
    else:
        assert all(deploy.is_plain_path(p) for p in list(owned) + list(pending))


# -- item 0: sim --nvm never truncates a file of yours --------------------------------------------
def test_sim_nvm_refuses_a_file_that_is_not_an_nvm_image(tmp_path):
    notes = tmp_path / "notes.bin"
    data = os.urandom(74 * 1024)
    notes.write_bytes(data)
    proc = run_tanbo("sim", "--headless", "--nvm", str(notes))
    assert proc.returncode == 2
    assert "is 75776 bytes, not an NVM image of this board's 8192" in one_line_error(proc.stderr)
    assert notes.read_bytes() == data


@posix
@pytest.mark.parametrize("kind", ["fifo", "link", "dangling", "devzero", "socket"])
def test_sim_outputs_refuse_files_of_the_wrong_kind_at_once(tmp_path, kind):
    victim = tmp_path / "victim.nvm"
    victim.write_bytes(b"\xff" * 8192)
    for option in ("--nvm", "--events", "--screenshot"):
        path = make_special(tmp_path / option.strip("-"), kind, victim)
        proc = run_tanbo("sim", "--headless", option, path, timeout=60)
        assert proc.returncode == 2, proc.stderr
        assert "only a regular file is written over" in one_line_error(proc.stderr)
    assert victim.read_bytes() == b"\xff" * 8192


# -- item 1: a malformed firmware never becomes an image -----------------------------------------
def pico_fw(n=80):
    return [uf2_block(XIP + 256 * i, 256, i, n, RP2040, data=bytes([i]) * 256) for i in range(n)]


def renumbered(blocks):
    """Blocks with their numbers and total made consistent again (so only the mutation shows)."""
    out = []
    for i, b in enumerate(blocks):
        out.append(b[:20] + i.to_bytes(4, "little") + len(blocks).to_bytes(4, "little") + b[28:])
    return out


def with_field(block, offset, value):
    return block[:offset] + value.to_bytes(4, "little") + block[offset + 4:]


MALFORMED = {
    "two blocks at one address": lambda b: renumbered(b[:5] + [b[4]] + b[5:]),
    "476-byte payloads": lambda b: [with_field(x, 16, 476) for x in b],
    "unaligned addresses": lambda b: [with_field(x, 12, XIP + 0x10 + 256 * i) for i, x in enumerate(b)],
    "a 100-byte block in the middle": lambda b: b[:40] + [with_field(b[40], 16, 100)] + b[41:],
    "the same firmware twice": lambda b: b + b,
    "addresses descending": lambda b: renumbered(b[::-1]),
    "two families": lambda b: b[:10] + [with_field(b[10], 28, SAMD51)] + b[11:],
    "a total that changes": lambda b: b[:3] + [with_field(b[3], 24, 81)] + b[4:],
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_firmware_is_refused_by_the_one_check(case):
    data = b"".join(MALFORMED[case](pico_fw()))
    with pytest.raises(uf2.UF2Error) as exc:
        uf2.check_uf2(data, PICO, "fw.uf2")
    assert str(exc.value).startswith("fw.uf2")


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_build_uf2_writes_no_image_of_a_malformed_firmware(tmp_path, capsys, case):
    good = circuitpython_uf2()
    blocks = [good[i:i + 512] for i in range(0, len(good), 512)]
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(b"".join(MALFORMED[case](blocks)))
    code = cli_main(["build", "--board", "picosystem", "--no-verify", "--device", fake_device(tmp_path),
                     "--core", CORE, "--out", str(tmp_path / "out"), "--uf2", str(fw)])
    assert code == 1 and "no image was written" in one_line_error(capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_flash_refuses_a_malformed_firmware_before_copying(tmp_path, case):
    from tools_fixtures import write_tree
    drive = write_tree(tmp_path / "RPI-RP2", {"INFO_UF2.TXT": "UF2 Bootloader v3.0\nBoard-ID: RPI-RP2\n"})
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(b"".join(MALFORMED[case](pico_fw())))
    with pytest.raises(flash.FlashError, match="nothing was written"):
        flash.flash(str(fw), PICO, drive=drive, log=quiet)
    assert listing(drive) == ["INFO_UF2.TXT"]


def uf2_fields(data):
    for i in range(len(data) // 512):
        yield i, [int.from_bytes(data[i * 512 + k:i * 512 + k + 4], "little") for k in range(0, 32, 4)]


def acceptable_to_a_bootloader(data, board):
    """An independent reading of what the RP2040 boot ROM and uf2-samdx1 take (see uf2.py)."""
    count = len(data) // 512
    last = None
    families = set()
    for i, (m0, m1, flags, addr, size, number, total, family) in uf2_fields(data):
        if (number, total) != (i, count):
            return False
        if flags & 0x2000:
            families.add(family)
        if flags & 1:
            continue
        if size != 256 or addr % 256 or (last is not None and addr < last + 256):
            return False
        last = addr
    return families == {board.uf2_family}


FIELD = st.sampled_from([(12, "addr"), (16, "size"), (20, "number"), (24, "total"), (28, "family"), (8, "flags")])
VALUE = st.one_of(st.sampled_from([0, 1, 100, 255, 256, 257, 476, 477, 0x2000, 0x2001, 0x3000, RP2040, SAMD51,
                                   XIP, XIP + 128, 79, 80, 81, 2 ** 32 - 1]),
                  st.integers(0, 2 ** 32 - 1))


@settings(max_examples=300, deadline=None)
@given(edits=st.lists(st.tuples(st.integers(0, 79), FIELD, VALUE), max_size=3),
       splice=st.sampled_from(["none", "drop", "repeat", "swap", "append", "prepend", "renumber-repeat"]),
       at=st.integers(0, 79))
def test_any_firmware_the_check_accepts_a_bootloader_takes(edits, splice, at):
    """Mutated firmware (fields set, blocks dropped, repeated or swapped) is refused with a
    UF2Error or accepted only when an independent reader agrees a bootloader takes it."""
    blocks = pico_fw()
    for i, (offset, _), value in edits:
        blocks[i] = with_field(blocks[i], offset, value)
    if splice == "drop":
        del blocks[at]
    elif splice == "repeat":
        blocks.insert(at, blocks[at])
    elif splice == "renumber-repeat":
        blocks = renumbered(blocks[:at] + [blocks[at]] + blocks[at:])
    elif splice == "swap":
        j = (at + 1) % len(blocks)
        blocks[at], blocks[j] = blocks[j], blocks[at]
    elif splice == "append":
        blocks += pico_fw(3)
    elif splice == "prepend":
        blocks = pico_fw(3) + blocks
    data = b"".join(blocks)
    try:
        uf2.check_uf2(data, PICO, "fw.uf2")
    except uf2.UF2Error as exc:
        assert str(exc).startswith("fw.uf2") and "\n" not in str(exc)
    else:
        assert acceptable_to_a_bootloader(data, PICO)


def test_a_firmware_in_the_builds_own_outputs_is_refused_and_kept(tmp_path, capsys):
    from tanbo_tools.ship import bundle
    version = bundle.project_version()
    out = tmp_path / "out"
    places = [out / image.image_name(PICO, version),
              out / ("tanbo-picosystem-%s-cp10.zip" % version),
              out / ("tanbo-picosystem-%s-cp10" % version) / "fw.uf2"]
    for place in places:
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_bytes(circuitpython_uf2())
        code = cli_main(["build", "--board", "picosystem", "--no-verify", "--device", fake_device(tmp_path),
                         "--core", CORE, "--out", str(out), "--uf2", str(place)])
        line = one_line_error(capsys.readouterr().err)
        assert code == 1 and ("which this build writes" in line or "lies in the bundle folder" in line)
        assert place.read_bytes() == circuitpython_uf2()


def test_an_empty_uf2_name_is_refused_as_usage(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main(["build", "--board", "picosystem", "--out", str(tmp_path / "out"), "--uf2", ""])
    assert exc.value.code == 2 and "argument --uf2: an empty file name" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


# -- item 2: special files never hang a command ---------------------------------------------------
@posix
@pytest.mark.parametrize("kind", ["fifo", "devzero", "socket", "dir"])
def test_firmware_of_the_wrong_kind_is_refused_at_once(tmp_path, kind):
    fw = make_special(tmp_path / "fw.uf2", kind)
    proc = run_tanbo("build", "--board", "picosystem", "--no-verify", "--out", str(tmp_path / "out"),
                     "--uf2", fw, timeout=60)
    assert proc.returncode == 1 and "not a regular file" in one_line_error(proc.stderr)
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nBoard-ID: RPI-RP2\n")
    proc = run_tanbo("flash", fw, "--board", "picosystem", "--drive", str(drive), timeout=60)
    assert proc.returncode == 1 and "not a regular file" in one_line_error(proc.stderr)
    assert listing(drive) == ["INFO_UF2.TXT"]


def test_a_firmware_larger_than_any_board_takes_is_refused_unread(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(uf2, "MAX_FILE", 4096)
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(circuitpython_uf2())
    assert cli_main(["build", "--board", "picosystem", "--no-verify", "--out", str(tmp_path / "o"),
                     "--uf2", str(fw)]) == 1
    assert "more than 4096" in one_line_error(capsys.readouterr().err)


# -- item 3: the engine's API refuses what it cannot hold ---------------------------------------
def state(game):
    return game.position(), game.record(), game.ply, game.winner, game.to_move


@settings(max_examples=120, deadline=None)
@given(mine=st.sampled_from(VARIANTS), theirs=st.sampled_from(VARIANTS), plies=st.integers(0, 6))
def test_load_state_takes_only_a_game_of_the_same_variant(mine, theirs, plies):
    g, other = Game(mine), Game(theirs)
    for _ in range(plies):
        if not other.over:
            other.play(other.legal_moves()[0])
    before = state(g)
    if mine == theirs:
        g.load_state(other)
        assert g.position() == other.position()
        return
    with pytest.raises(ValueError, match="load_state: a %s game cannot load a %s one" % (mine, theirs)):
        g.load_state(other)
    assert state(g) == before


NOT_PLAYERS = st.one_of(st.integers(-2 ** 70, 0), st.integers(5, 2 ** 200), st.floats(allow_nan=True),
                        st.booleans(), st.text(max_size=3), st.just(b"\x01"), st.just([1]), st.just(1 + 0j))


@settings(max_examples=200, deadline=None)
@given(variant=st.sampled_from(VARIANTS), player=NOT_PLAYERS, point=st.integers(-1, 400))
def test_legal_moves_and_is_legal_name_a_value_that_is_no_player(variant, player, point):
    g = Game(variant)
    before = state(g)
    if type(player) is int and 1 <= player <= g.players:
        return
    with pytest.raises(ValueError, match="no such player in %s" % variant):
        g.legal_moves(player)
    with pytest.raises(ValueError, match="no such player in %s" % variant):
        g.is_legal(point, player)
    assert state(g) == before


def test_legal_moves_of_every_player_still_answer():
    g = Game("4p")
    assert [len(g.legal_moves(k)) > 0 for k in g.pids] == [True] * 4
    assert g.is_legal(g.legal_moves(3)[0], 3)


# -- item 4: a full disk leaves nothing half-written ---------------------------------------------
def test_match_record_on_a_full_disk_leaves_no_empty_record(tmp_path, monkeypatch, capsys):
    from tanbo_tools.lab import match
    import argparse
    enospc_on_fsync(monkeypatch)
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    rc = match.run(parser.parse_args(["random", "random", "--games", "2", "--record", str(tmp_path / "rec")]))
    assert rc == 1
    assert "cannot write the game record" in capsys.readouterr().err
    assert listing(tmp_path / "rec") == []


def test_build_on_a_full_disk_leaves_no_zip_and_no_tree(tmp_path, monkeypatch, capsys):
    enospc_on_fsync(monkeypatch)
    out = tmp_path / "out"
    assert cli_main(["build", "--board", "pybadge", "--no-verify", "--device", fake_device(tmp_path),
                     "--core", CORE, "--out", str(out)]) == 1
    assert "No space left on device" in one_line_error(capsys.readouterr().err)
    assert listing(out) == []


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE") or not hasattr(signal, "SIGXFSZ"), reason="no file-size limit to fill a disk with")
@pytest.mark.parametrize("option,what", [("--screenshot", "the screenshot"),
                                         ("--screenshot-every", "the screenshot"),
                                         ("--events", "the events file")])
def test_sim_outputs_on_a_full_disk_fail_and_leave_no_half_file(tmp_path, option, what):
    nvm = tmp_path / "pico.nvm"
    nvm.write_bytes(b"\xff" * 4096)  # the NVM exists: only the output meets the full disk
    target = tmp_path / ("shots" if option == "--screenshot-every" else "out")
    proc = run_tanbo("sim", "--headless", "--board", "picosystem", "--nvm", str(nvm),
                     "--keys", "A,DOWN,A,DOWN,DOWN,UP,A,B,B,A", option, str(target),
                     limit=400 if option == "--events" else 1000)  # this run's events: ~870 bytes
    assert proc.returncode == 1
    assert "cannot write %s" % what in one_line_error(proc.stderr)
    if option == "--screenshot-every":
        assert listing(target) == []
    else:
        assert not target.exists()
    assert listing(tmp_path) == ["pico.nvm"] + (["shots"] if option == "--screenshot-every" else [])


# -- item 5: messages that say what is wrong ----------------------------------------------------
@pytest.mark.parametrize("spec", ["uct:\u00b2", "uct:" + "9" * 30, "uct:" + "9" * 5000, "uct:0", "uct:-5",
                                  "uct:10000001", "uct:\uff11"])
def test_a_bad_uct_spec_says_what_a_uct_player_is(spec, capsys):
    rc = cli_main(["match", spec, "random", "--games", "1"])
    line = one_line_error(capsys.readouterr().err)
    assert rc == 2 and "uct:N with N from 1 to 10000000 playouts a move" in line and "int()" not in line


@posix
@pytest.mark.parametrize("closed", [0, 1])
def test_tanbo_gtp_with_a_closed_stream_says_so(closed):
    proc = subprocess.run([TANBO, "gtp"], input=None if closed == 0 else "name\n", capture_output=True,
                          text=True, timeout=60, preexec_fn=lambda: os.close(closed))
    assert proc.returncode == 1
    assert one_line_error(proc.stderr) == "tanbo gtp: standard input or output is closed: nothing to answer"


KEY = st.one_of(st.sampled_from(["A", "b", "START", "x", "", "wait:", "A*", "*3"]),
                st.text(alphabet="AWaitB*:0123456789\u00b2\u0661 -", max_size=16))


@settings(max_examples=300, deadline=None)
@given(tokens=st.lists(KEY, max_size=5))
@example(tokens=["A*9999999999"])
@example(tokens=["wait:1000000000"])
@example(tokens=["A*37501"])
@example(tokens=["wait:3600000", "A"])
def test_any_key_script_is_steps_or_one_message_quoting_its_token(tokens):
    from tanbo_sim.simulator import MAX_SCRIPT_MS, parse_script
    try:
        steps = parse_script(",".join(tokens))
    except ValueError as exc:
        msg = str(exc)
        assert "\n" not in msg and "int()" not in msg
        token = next(t.strip() for t in tokens if msg.startswith(repr(t.strip())))
        count = token.rpartition("*")[2] if "*" in token else token.partition(":")[2]
        if "whole number" in msg:  # said only of what is not a whole number in range, never of a large one
            assert not (count.strip().isascii() and count.strip().isdigit()) or int(count) == 0
        if "would take" in msg:  # the time said is over the limit, not rounded down onto it
            assert float(msg.split("would take ")[1].split(" s")[0]) > MAX_SCRIPT_MS / 1000
    else:
        assert sum(v if k == "wait" else 96 for k, v in steps) <= MAX_SCRIPT_MS


# -- item 7: an engine's child cannot hold match's output -------------------------------------------
@posix
def test_match_ends_an_engines_whole_process_group(tmp_path):
    pidfile = tmp_path / "child.pid"
    engine = "sh -c %s" % shlex.quote("sleep 1000 & echo $! > %s; exec %s -m tanbo.gtp"
                                      % (shlex.quote(str(pidfile)), shlex.quote(sys.executable)))
    with open(str(tmp_path / "out"), "w") as out, open(str(tmp_path / "err"), "w") as err:
        proc = subprocess.run([TANBO, "match", "gtp:" + engine, "random", "--games", "1", "--variant", "9x9"],
                              stdout=out, stderr=err, timeout=300)
    assert proc.returncode == 0, (tmp_path / "err").read_text()
    pid = int(pidfile.read_text())
    for _ in range(100):  # the kill is sent; the reaping by init may take a moment
        try:
            with open("/proc/%d/stat" % pid) as f:
                alive = f.read().split(") ")[1][0] not in "ZX"
        except FileNotFoundError:
            alive = False
        if not alive:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        pytest.fail("the engine's child outlived the match")


# -- round 3 (issue 34) ---------------------------------------------------------------------------
# item 3: tanbo puzzles reads no special file and writes through no link
@posix
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("action", [["--show", "1"], ["--show", "all"], ["--check"]])
def test_puzzles_refuses_a_collection_of_the_wrong_kind_at_once(tmp_path, capsys, kind, action):
    path = make_special(tmp_path / "p.txt", kind)
    assert cli_main(["puzzles"] + action + ["--file", path]) == 1
    line = one_line_error(capsys.readouterr().err)
    assert line.startswith("tanbo puzzles: ") and repr(path) in line


@posix
@pytest.mark.parametrize("kind", ["fifo", "link", "dangling", "dir"])
def test_puzzles_out_is_written_fresh_whatever_lies_beside_it(tmp_path, capsys, kind):
    victim = tmp_path / "victim.txt"
    victim.write_text("yours\n")
    out = tmp_path / "out" / "p.txt"
    out.parent.mkdir()
    make_special(str(out) + ".tmp", kind, victim)  # the name a temporary file of it once had
    before = listing(out.parent)
    assert cli_main(["puzzles", "--count", "1", "--out", str(out), "--quiet"]) == 0, capsys.readouterr().err
    assert victim.read_text() == "yours\n" and listing(out.parent) == sorted(before + ["p.txt"])
    with tool_puzzles.PuzzleBook(str(out)) as book:
        assert len(book) > 1


@posix
@pytest.mark.parametrize("kind", ["fifo", "link", "dangling", "socket"])
def test_puzzles_out_of_the_wrong_kind_is_refused_before_the_work(tmp_path, capsys, kind):
    victim = tmp_path / "victim.txt"
    victim.write_text("yours\n")
    out = make_special(tmp_path / "p.txt", kind, victim)
    with pytest.raises(SystemExit) as exc:
        cli_main(["puzzles", "--count", "1", "--out", out, "--quiet"])
    assert exc.value.code == 2 and repr(out) in one_line_error(capsys.readouterr().err)
    assert victim.read_text() == "yours\n"


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE") or not hasattr(signal, "SIGXFSZ"), reason="no file-size limit to fill a disk with")
def test_puzzles_out_on_a_full_disk_names_the_file_and_leaves_none(tmp_path):
    out = tmp_path / "p.txt"
    proc = run_tanbo("puzzles", "--count", "1", "--out", str(out), "--quiet", limit=500)
    assert proc.returncode == 1
    assert one_line_error(proc.stderr).startswith("tanbo puzzles: cannot write the collection %r: " % str(out))
    assert listing(tmp_path) == []


# item 5: where a damage is, and every one of them
def _same_length(change):
    """``change`` of an entry's fields (a list of bytes) as a change of its line, its length kept
    (so the index still points at every entry)."""
    def edit(line):
        fields = line.split(b"|")
        change(fields)
        out = b"|".join(fields)
        assert len(out) == len(line) and out != line
        return out
    return edit


def _twice(f):
    first = f[5].split()[0]
    f[5] = first + b" " + first + f[5][2 * len(first) + 1:]


def _arabic_one(f):
    f[2], f[6] = "\u0661".encode(), f[6][:-1]


def _row_short(f):
    f[4] = f[4].replace(b"/", b"", 1).replace(b" ", b". ", 1)


def damaged_collection(tmp_path):
    """The shipped collection with five entries damaged, each its own way: (path, {damage: entry})."""
    data = open(tool_puzzles.DEFAULT_FILE, "rb").read()
    lines = data.split(b"\n")
    count = int(lines[0].split()[2])
    first = 1 + count
    entries = [lines[first + i].split(b"|") for i in range(count)]
    two = next(i for i, f in enumerate(entries) if int(f[2]) >= 2 and len(set(map(len, f[5].split()[:2]))) == 1)
    one = next(i for i, f in enumerate(entries) if f[2] == b"1" and len(f[6]) > 1 and i > 2)
    damage = {"Q": (1, lambda f: f.__setitem__(4, f[4].replace(b".", b"Q", 1))),  # a Q in the position
              "band": (3, lambda f: f.__setitem__(0, b"expert")),  # a band there is not (3: a lesson)
              "twice": (two + 1, _twice),  # the line plays the same point twice
              "digit": (one + 1, _arabic_one),  # the plies in an Arabic-Indic digit one
              "row": (40, _row_short)}  # two rows run together
    for n, change in damage.values():
        lines[first + n - 1] = _same_length(change)(lines[first + n - 1])
    assert len(set(n for n, _ in damage.values())) == len(damage)
    path = tmp_path / "damaged.txt"
    path.write_bytes(b"\n".join(lines))
    return str(path), {name: n for name, (n, _) in damage.items()}


def test_puzzles_check_reports_every_damaged_entry_naming_the_file(tmp_path, capsys):
    path, bad = damaged_collection(tmp_path)
    assert cli_main(["puzzles", "--check", "--file", path]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    named = [int(line.split(": entry ")[1].split(":")[0]) for line in lines[:-1]]
    assert named == sorted(bad.values()), err
    assert all(line.startswith("tanbo puzzles: %s: entry " % path) for line in lines[:-1])
    with tool_puzzles.PuzzleBook(path) as book:
        n = len(book)
    assert lines[-1].startswith("tanbo puzzles: %d of %d entries proved" % (n - len(bad), n))


@pytest.mark.parametrize("damage, words", [("Q", "unknown character 'Q'"), ("band", "band 'expert'"),
                                           ("twice", "occupied"), ("digit", "plies"),
                                           ("row", "points")])  # (the reader counts the points first)
def test_puzzles_show_of_a_damaged_entry_names_the_file_and_the_entry(tmp_path, capsys, damage, words):
    path, bad = damaged_collection(tmp_path)
    n = bad[damage]
    assert cli_main(["puzzles", "--show", str(n), "--file", path]) == 1
    out = capsys.readouterr()
    line = one_line_error(out.err)
    assert line.startswith("tanbo puzzles: %s: entry %d: " % (path, n)) and words in line, line
    assert out.out == ""
    # the readable entries still show; each damaged one is a line of its own
    assert cli_main(["puzzles", "--show", "all", "--file", path]) == 1
    out = capsys.readouterr()
    with tool_puzzles.PuzzleBook(path) as book:
        assert out.out.count("Goal: ") == len(book) - len(bad)
    assert len(out.err.strip().splitlines()) == len(bad)


# item 7: a book that is no regular file is refused at once
@posix
@pytest.mark.parametrize("kind", KINDS)
def test_match_refuses_a_book_of_the_wrong_kind_at_once(tmp_path, capsys, kind):
    path = make_special(tmp_path / "book.txt", kind)
    assert cli_main(["match", "hard", "easy", "--games", "1", "--book", path]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert line.startswith("tanbo match: ") and repr(path) in line


# item 4: Ctrl-C and SIGTERM stop a long command at once, its workers with it, nothing half-written
def group_running(pgid):
    """The processes of group ``pgid`` still running (zombies, which only wait to be reaped, not)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[2]) == pgid and fields[0] not in "ZX":
                out.append(int(name))
    return out


def wait_for(test, what, seconds=180):
    for _ in range(seconds * 20):
        if test():
            return
        time.sleep(0.05)
    pytest.fail("waited %d s for %s" % (seconds, what))


def pids_in(path):
    return [int(word) for word in path.read_text().split()] if path.exists() else []


def engine_spec(pidfile):
    """A GTP engine that leaves a child of its own holding nothing, its pid appended to ``pidfile``."""
    return "gtp:sh -c %s" % shlex.quote("sleep 1000 & echo $! >> %s; exec %s -m tanbo.gtp"
                                       % (shlex.quote(str(pidfile)), shlex.quote(sys.executable)))


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in "ZX"
    except FileNotFoundError:
        return False


STOPS = {
    "train-jobs2": (["train", "--games", "400", "--jobs", "2", "--data", "{out}/pos.jsonl", "--out", "{out}/w.py"], 3),
    "train-jobs1": (["train", "--games", "400", "--every", "1", "--data", "{out}/pos.jsonl", "--out", "{out}/w.py"],
                    "train: 1/400"),
    "book-jobs2": (["book", "--jobs", "2", "--out", "{out}/book.txt"], 3),
    "match-jobs2": (["match", "hard", "hard", "--games", "40", "--jobs", "2", "--record", "{out}/rec"], 3),
    "match-jobs1": (["match", "hard", "hard", "--games", "40", "--record", "{out}/rec"], "game 1:"),
    "match-engines": (["match", "{engine}", "hard", "--games", "40", "--jobs", "2", "--record", "{out}/rec"], 2),
    "puzzles-jobs2": (["puzzles", "--jobs", "2", "--out", "{out}/p.txt"], 3),
}


@posix
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the process group is read from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("case", sorted(STOPS))
def test_a_signal_stops_a_long_command_with_its_workers(tmp_path, case, signum):
    argv, ready = STOPS[case]
    out, pidfile = tmp_path / "out", tmp_path / "engines.pid"
    out.mkdir()
    argv = [a.format(out=out, engine=engine_spec(pidfile)) for a in argv]
    err = tmp_path / "err"

    def child():  # as a terminal starts it, whatever the test's own signal dispositions
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    with open(str(err), "w") as stderr:
        proc = subprocess.Popen([TANBO] + argv, stdout=subprocess.DEVNULL, stderr=stderr, env=env,
                                start_new_session=True, preexec_fn=child)
    try:
        if case == "match-engines":  # the engines run, in sessions of their own
            wait_for(lambda: len(pids_in(pidfile)) >= ready, "two engines")
        elif isinstance(ready, int):  # the workers are up
            wait_for(lambda: len(group_running(proc.pid)) >= ready, "%d processes" % ready)
        else:  # the work has begun
            wait_for(lambda: ready in err.read_text(), repr(ready))
        assert proc.poll() is None, err.read_text()
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)  # a terminal's Ctrl-C: the whole foreground group
        else:
            proc.send_signal(signum)  # kill PID: the command alone
        proc.wait(timeout=60)
        wait_for(lambda: not group_running(proc.pid), "the group to end", 30)
    finally:
        for pid in group_running(proc.pid) + pids_in(pidfile):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        proc.kill()
        proc.wait()
    text = err.read_text()
    assert proc.returncode == 128 + signum, text
    assert "Traceback" not in text
    assert text.splitlines()[-1] == "tanbo %s: %s" % (argv[0], "interrupted" if signum == signal.SIGINT
                                                          else "terminated")
    wait_for(lambda: not any(alive(pid) for pid in pids_in(pidfile)), "the engines' children to end", 30)
    # nothing half-written: no output but whole game records
    left = [name for name in listing(out) if name != "rec"]
    assert left == [], left
    if (out / "rec").exists():
        for name in listing(out / "rec"):
            assert name.startswith("game-") and name.endswith(".txt"), name
            Game.from_record((out / "rec" / name).read_text())


# items 2 and 5: a full disk names the file it stopped
full_disk = pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE") or not hasattr(signal, "SIGXFSZ"),
                               reason="no file-size limit to fill a disk with")


@full_disk
@pytest.mark.parametrize("option, what", [("--data", "the data file"), ("--out", "the weights module")])
def test_train_on_a_full_disk_names_the_file_and_leaves_none(tmp_path, option, what):
    data, out = tmp_path / "pos.jsonl", tmp_path / "w.py"
    argv = ["train", "--games", "2", "--out", str(out)] + (["--data", str(data)] if option == "--data" else [])
    proc = run_tanbo(*argv, limit=2000 if option == "--data" else 500)  # 2 games' positions: ~10 KB
    assert proc.returncode == 1
    target = data if option == "--data" else out
    progress = "".join(line for line in proc.stderr.splitlines(True) if not line.startswith("train: "))
    assert one_line_error(progress).startswith("tanbo train: cannot write %s %r: " % (what, str(target)))
    assert listing(tmp_path) == []


@full_disk
@pytest.mark.parametrize("limit, what", [(2000, "the bundle"), (300000, "the image")])
def test_build_uf2_on_a_full_disk_names_the_file(tmp_path, limit, what):
    fw = tmp_path / "fw.uf2"
    fw.write_bytes(circuitpython_uf2())
    out = tmp_path / "out"
    # 2 KB: a module of the tree (sources: mpy-cross would meet the limit first, in its own file);
    # 300 KB: the tree and zip fit, the 500 KB image does not
    proc = run_tanbo("build", "--board", "picosystem", "--no-verify", "--uf2", str(fw), "--out", str(out),
                     *(["--py"] if what == "the bundle" else []), limit=limit)
    assert proc.returncode == 1
    line = one_line_error(proc.stderr)
    assert line.startswith("tanbo build: error: cannot write %s %r" % (what, str(out / (
        "tanbo-picosystem-%s-cp10" % bundle_version() if what == "the bundle" else "tanbo-picosystem-%s.uf2"
        % bundle_version())))), line
    assert not [name for name in listing(out) if name.startswith(".") or name.endswith(".uf2")]


def bundle_version():
    from tanbo_tools.ship import bundle
    return bundle.project_version()


# -- an output folder is checked without opening a name of the user's ------------------------------
# Each command with the folder, then refused by a later check, as a command line may be.
FOLDER_COMMANDS = {
    "records pull --out": ["records", "pull", "--out", "{dir}", "--port", "/dev/null"],
    "analyse --png": ["analyse", "{tmp}/missing.txt", "--png", "{dir}"],
    "match --record": ["match", "random", "random", "--record", "{dir}", "--opening", "41"],
    "sim --screenshot-every": ["sim", "--headless", "--screenshot-every", "{dir}", "--keys", "JUMP"],
    "screenshots --out": ["screenshots", "--out", "{dir}", "--no-such-option"],
}


@posix
@pytest.mark.parametrize("command", sorted(FOLDER_COMMANDS))
def test_checking_an_output_folder_never_opens_a_file_or_link_of_the_users(tmp_path, command):
    """``FOLDER/.tanbo-probe`` (the name the check wrote through) as a file of yours and as a link to
    one outside: both as they were, and nothing else left in the folder."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    mine, linked = tmp_path / "mine", tmp_path / "linked"
    mine.mkdir()
    linked.mkdir()
    (mine / ".tanbo-probe").write_text("my notes\n")
    os.symlink(str(victim), str(linked / ".tanbo-probe"))
    for folder in (mine, linked):
        argv = [a.replace("{dir}", str(folder)).replace("{tmp}", str(tmp_path)) for a in FOLDER_COMMANDS[command]]
        proc = run_tanbo(*argv, cwd=str(tmp_path))
        assert proc.returncode in (1, 2), proc.stderr
        one_line_error(proc.stderr)
        assert listing(folder) == [".tanbo-probe"]
    assert (mine / ".tanbo-probe").read_text() == "my notes\n"
    assert os.readlink(str(linked / ".tanbo-probe")) == str(victim) and victim.read_text() == "precious\n"
