"""``tanbo deploy``: copy a built bundle onto a CIRCUITPY drive, safely.

Example::

    tanbo build --board pybadge && tanbo deploy       # finds the drive itself
    tanbo deploy --drive /media/me/CIRCUITPY --dry-run

Rules it keeps:

- The drive's ``boot_out.txt`` must name the bundle's board (``Board ID:``)
  and CircuitPython major version, else nothing is written.
- Files it installed are listed in ``/.tanbo-manifest.json`` on the drive,
  with their SHA-256. A file on the drive that is not in that list, or whose
  hash is no longer the recorded one (the user edited it), is the user's:
  it is never overwritten (the deploy is refused, naming it) unless
  ``--force`` says so; identical files are adopted. The drive's manifest is
  input like any other: an entry that is not a plain path inside the drive
  (``..``, absolute, a link leading out) makes the whole record untrusted. Files it installed earlier and the new bundle no longer has
  are removed (a stale ``.py`` would shadow a new ``.mpy``); nothing else is
  ever deleted. The one exception to "not ours": CircuitPython's own sample
  ``code.py`` (``print("Hello World!")``) on a fresh drive is replaced.
- A file marked read-only (no write permission for anyone: ``chmod 444``,
  FAT's read-only attribute) is never replaced, even with ``--force``.
- What can be checked is checked before anything is written (free space,
  a writable drive, a file of the user's where a folder is needed, a
  read-only file to replace); ``lib/`` goes first and
  ``code.py`` last (CircuitPython auto-reloads ~0.75 s after a write);
  unchanged files (same SHA-256) are skipped; then sync, read back, compare.
"""

import errno
import json
import os
import re
import shutil
import stat
import sys

import tanbo_files as files

from . import drives
from .boards import BOARDS, board_for_id, get_board
from .bundle import bundle_name, load_manifest, project_version, sha256_file

DRIVE_MANIFEST = ".tanbo-manifest.json"
# Files CircuitPython itself puts on a freshly formatted CIRCUITPY
# (supervisor/shared/filesystem.c: the sample code.py; empty on small builds).
# Replacing them loses nothing of the user's.
STOCK_FILES = {"code.py": (b'print("Hello World!")\n', b"")}
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
# The largest drive record read: 38 files take 4 KB; a record a thousand times that is not ours.
MAX_DRIVE_MANIFEST = 1024 * 1024


class DeployError(Exception):
    """Deploy refused or failed; the message says why and what was written."""


def add_arguments(parser):
    parser.add_argument("--board", choices=sorted(BOARDS),
                        help="expected board (default: the drive's boot_out.txt decides)")
    parser.add_argument("--drive", help="CIRCUITPY folder (default: search mounted drives)")
    parser.add_argument("--bundle", help="bundle folder made by tanbo build (default: "
                        "./build/tanbo-<board>-<version>-cp<N> for the drive's board)")
    parser.add_argument("--dry-run", dest="dry_run", action="store_true",
                        help="show what would be copied, write nothing")
    parser.add_argument("--force", action="store_true",
                        help="replace files of yours that the bundle also has (ones tanbo never "
                             "installed or that you changed since); without it deploy refuses")


def copy_file(src, dst):
    """Copy ``src`` to ``dst`` (its folder exists), whole or not at all: written beside it, flushed
    to the device, then renamed over it (see :func:`tanbo_files.replacing`); never through a
    link or over anything but a regular file."""
    with open(src, "rb") as f:
        data = f.read()
    files.write_whole(dst, data)


def is_plain_path(path):
    """True for a relative ``a/b.py`` path that stays inside its folder on every OS."""
    return (isinstance(path, str) and 0 < len(path) < 256 and not path.startswith("/")
            and not any(c in path for c in "\\:") and not any(ord(c) < 32 for c in path)
            and all(part not in ("", ".", "..") for part in path.split("/")))


def on_drive(drive, path):
    """Full path of plain ``path`` on ``drive``; DeployError if a symbolic link is on the way.

    A FAT drive holds no links, so one there was put by someone else: tanbo
    neither writes, reads for a decision, nor deletes through it, wherever it
    leads (outside the drive, or onto another file of it).
    """
    parts = path.split("/")
    for i in range(1, len(parts) + 1):
        here = os.path.join(drive, *parts[:i])
        if os.path.islink(here):
            real = os.path.realpath(here)
            root = os.path.realpath(drive)
            where = ("outside the drive" if real != root and not real.startswith(root.rstrip(os.sep) + os.sep)
                     else "elsewhere on the drive")
            raise DeployError("%s on %s is a symbolic link leading %s (to %s); tanbo neither writes "
                              "nor deletes through links: nothing was written; remove the link"
                              % ("/".join(parts[:i]), drive, where, real))
    return os.path.join(drive, *parts)


def make_parents(drive, path):
    """Create the folders of bundle ``path`` under ``drive``, never ``drive`` itself.

    A vanished drive leaves its mount point missing (or empty); creating it
    again would write the bundle onto the computer's own disk.
    """
    if not os.path.isdir(drive):
        raise OSError(errno.ENODEV, "drive is gone", drive)
    folder = drive
    for part in path.split("/")[:-1]:
        folder = os.path.join(folder, part)
        if not os.path.isdir(folder):
            os.mkdir(folder)


def sync():
    """Ask the OS to write cached data to disk (POSIX ``sync``; per-file fsync covers Windows)."""
    if hasattr(os, "sync"):
        os.sync()


def cluster_size(drive):
    """Allocation unit of ``drive`` in bytes (512 when the OS cannot say)."""
    try:
        st = os.statvfs(drive)
        return st.f_frsize or st.f_bsize or 512
    except (AttributeError, OSError):
        return 512


def _on_disk(size, cluster):
    return ((size + cluster - 1) // cluster) * cluster


def write_order(paths):
    """``lib/…`` first, then other files, ``code.py`` last (its write restarts the app)."""
    return sorted(paths, key=lambda p: (0 if p.startswith("lib/") else 2 if p == "code.py" else 1, p))


def read_drive_manifest(drive):
    """``({path: sha256}, pending paths)`` of what tanbo installed on ``drive`` (empty if none).

    ``pending`` lists the files an interrupted deploy was writing: they may be
    torn, and stay tanbo's whatever their hash. DeployError when the record
    is unreadable or names anything but plain paths inside the drive.
    """
    path = os.path.join(drive, DRIVE_MANIFEST)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {}, set()
    except OSError as exc:
        raise DeployError("%s is unreadable (%s)" % (path, files.why(exc)))
    if not stat.S_ISREG(st.st_mode):
        raise DeployError("%s is %s, not tanbo's record (a regular file), so it is not trusted and "
                          "nothing was written; remove it by hand" % (path, files.kind_name(st.st_mode)))
    try:
        data = json.loads(files.read_regular(path, MAX_DRIVE_MANIFEST, "the drive's record").decode("utf-8"))
        listed = data["files"]
        pending = data.get("pending", [])
        if not isinstance(listed, dict) or not isinstance(pending, list):
            raise ValueError("files is not a mapping or pending not a list")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise DeployError("%s is unreadable (%s); remove it by hand to let tanbo start afresh"
                          % (path, "nested too deep" if isinstance(exc, RecursionError) else exc))
    for name in list(listed) + pending:
        if not is_plain_path(name) or name == DRIVE_MANIFEST:
            raise DeployError("%s lists %r, which is not a path inside the drive, so the record is "
                              "not trusted and nothing was written; remove that file by hand (tanbo "
                              "will then treat every file as yours)" % (path, name))
        on_drive(drive, name)
    for name, digest in listed.items():
        if not isinstance(digest, str) or not _SHA256.match(digest):
            raise DeployError("%s gives %r for %s, not a SHA-256, so the record is not trusted and "
                              "nothing was written; remove that file by hand" % (path, digest, name))
    return dict(listed), set(pending)


def drive_manifest_text(manifest, files, pending=()):
    """The drive's record of what tanbo installed: bundle ``manifest``, ``{path: sha256}`` and the
    paths a deploy is still writing (``pending``)."""
    data = {"tool": "tanbo deploy", "bundle": manifest.get("name"), "board": manifest.get("board"),
            "version": manifest.get("version"), "files": dict(sorted(files.items()))}
    if pending:
        data["pending"] = sorted(pending)
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def write_drive_manifest(drive, manifest, owned, pending=()):
    """Write the drive's record whole (beside, then renamed; never through a link)."""
    files.write_whole(os.path.join(drive, DRIVE_MANIFEST), drive_manifest_text(manifest, owned, pending),
                      "the drive's record")


class Plan:
    """What a deploy will do: ``copy`` / ``skip`` path lists, ``remove`` (stale own files), bytes needed."""

    def __init__(self):
        self.copy = []
        self.skip = []
        self.remove = []
        self.replaced = []
        self.need = 0


def check_bundle(bundle_dir):
    """Load ``bundle_dir``/manifest.json and verify its CIRCUITPY tree against it; return the manifest."""
    manifest = load_manifest(os.path.join(bundle_dir, "manifest.json"))
    tree = os.path.join(bundle_dir, "CIRCUITPY")
    for entry in manifest["files"]:
        path = entry.get("path") if isinstance(entry, dict) else None
        if not is_plain_path(path) or path == DRIVE_MANIFEST:
            raise DeployError("bundle manifest has an unsafe path %r" % (path,))
        if not isinstance(entry.get("sha256"), str) or not isinstance(entry.get("size"), int):
            raise DeployError("bundle manifest entry %s has no sha256 or size; rebuild with "
                              "tanbo build" % path)
        full = os.path.join(tree, *path.split("/"))
        if not os.path.isfile(full) or sha256_file(full) != entry["sha256"]:
            raise DeployError("bundle file %s is missing or differs from manifest.json; rebuild "
                              "with tanbo build" % full)
    return manifest


def check_drive(drive, manifest):
    """Refuse unless ``drive``'s boot_out.txt names the bundle's board and CircuitPython major."""
    try:
        info = drives.read_boot_out(drive)
    except ValueError as exc:
        raise DeployError(str(exc))
    ids = manifest.get("board_ids") or [manifest.get("board")]
    if info["board_id"] not in ids:
        raise DeployError("%s is a %s board (Board ID:%s) but the bundle is for %s; build for "
                          "that board or pick another drive"
                          % (drive, info["banner"].rpartition("; ")[2] or "different",
                             info["board_id"], manifest.get("board")))
    if info["major"] != manifest.get("circuitpython"):
        raise DeployError("%s runs CircuitPython %s but the bundle is for CircuitPython %s; "
                          "rebuild with --cp %d or update the firmware"
                          % (drive, info["version"], manifest.get("circuitpython"), info["major"]))
    return info


def is_stock(full, path):
    """True when ``full`` is CircuitPython's own sample file for bundle ``path``."""
    stock = STOCK_FILES.get(path)
    if not stock or os.path.getsize(full) > 64:
        return False
    with open(full, "rb") as f:
        return f.read() in stock


def make_plan(drive, manifest, installed, cluster, pending=frozenset(), force=False):
    """Compare bundle and drive file by file; DeployError naming every file that is not ours to replace.

    ``installed`` maps the paths tanbo put on the drive to their hash then;
    ``pending`` paths were being written when a deploy stopped. ``force``
    replaces the user's files instead of refusing.
    """
    plan = Plan()
    wanted = {e["path"]: e for e in manifest["files"]}
    folders, edited, foreign, locked = [], [], [], []
    freed = 0
    for path in write_order(wanted):
        entry = wanted[path]
        dst = on_drive(drive, path)
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if os.path.lexists(os.path.join(drive, *parts[:i])) and not os.path.isdir(
                    os.path.join(drive, *parts[:i])):
                folders.append("%s is a file on the drive where the bundle needs a folder" % parent)
        if os.path.isdir(dst):
            folders.append("%s is a folder on the drive where the bundle has a file" % path)
            continue
        if os.path.lexists(dst) and not os.path.isfile(dst):
            folders.append("%s is %s on the drive where the bundle has a file"
                           % (path, files.kind_name(os.lstat(dst).st_mode)))
            continue
        if os.path.exists(dst):
            digest = sha256_file(dst)
            if digest == entry["sha256"]:
                plan.skip.append(path)
                continue
            if not os.stat(dst).st_mode & 0o222:
                locked.append(path)
            if path in pending or is_stock(dst, path):
                pass
            elif path not in installed:
                foreign.append(path)
            elif digest != installed[path]:
                edited.append(path)
            freed += _on_disk(os.path.getsize(dst), cluster)
        plan.copy.append(path)
        plan.need += _on_disk(entry["size"], cluster)
    if folders:
        raise DeployError("%s; move it away, then deploy again (nothing was written)"
                          % "; ".join(sorted(set(folders))))
    if locked:
        is_, it = ("is", "it") if len(locked) == 1 else ("are", "them")
        raise DeployError("%s on %s %s read-only (no write permission for anyone); tanbo replaces no "
                          "read-only file, even with --force: make %s writable (chmod u+w, or clear the "
                          "read-only attribute) or move %s away, then deploy again (nothing was written)"
                          % (", ".join(locked), drive, is_, it, it))
    if (edited or foreign) and not force:
        reasons = []
        if edited:
            reasons.append("changed since tanbo installed them: %s" % ", ".join(edited))
        if foreign:
            reasons.append("tanbo did not install: %s" % ", ".join(foreign))
        raise DeployError("refusing to overwrite your files (%s); move them away, or deploy with "
                          "--force to replace them (nothing was written)" % "; ".join(reasons))
    plan.replaced = edited + foreign
    # Each file is written beside its old self, then renamed: room for the largest twice.
    plan.need += max([_on_disk(wanted[p]["size"], cluster) for p in plan.copy] or [0])
    for path in sorted(installed):
        dst = on_drive(drive, path)
        if path not in wanted and os.path.isfile(dst):
            if sha256_file(dst) == installed[path]:
                plan.remove.append(path)
                freed += _on_disk(os.path.getsize(dst), cluster)
    # Our own manifest is rewritten too; count it generously.
    plan.need += 2 * cluster + _on_disk(100 * len(wanted) + 1024, cluster)
    plan.need = max(0, plan.need - freed)
    return plan


def write_failure(exc, drive, done, total, path=None):
    """What went wrong while writing (``path``: the file being written or removed), in the user's
    terms, and what to do about it."""
    so_far = "after %d of %d files" % (done, total)
    if not os.path.isdir(drive):
        return ("%s disappeared %s (unplugged, or the board restarted): plug it back in and run "
                "tanbo deploy again; files already copied are kept" % (drive, so_far))
    code = getattr(exc, "errno", None)
    if code == errno.ENOSPC:
        return ("the drive is full: writing to %s failed %s; free some space on it and deploy "
                "again (files tanbo installed before are kept)" % (drive, so_far))
    if code in (errno.EACCES, errno.EPERM) and path is not None and os.access(drive, os.W_OK):
        return ("%s on %s cannot be written (%s) %s: its own permissions forbid it, the drive is "
                "writable; make it writable or move it away, then deploy again (files already "
                "copied are kept)" % (path, drive, files.why(exc), so_far))
    if code in (errno.EROFS, errno.EACCES, errno.EPERM):
        return ("%s is read-only to this computer (%s) %s; if the board's boot.py remounts "
                "CIRCUITPY for itself (storage.remount), undo that, then deploy again"
                % (drive, files.why(exc), so_far))
    return "writing to %s failed %s: %s" % (drive, so_far, exc)


def deploy(bundle_dir, drive, dry_run=False, copy=copy_file, disk_usage=shutil.disk_usage,
           log=print, force=False):
    """Deploy ``bundle_dir`` (made by tanbo build) to the CIRCUITPY folder ``drive``.

    ``copy(src, dst)`` and ``disk_usage(path)`` are injectable (tests simulate
    a full drive or one that disappears). Returns the :class:`Plan`; raises
    DeployError, after saying what was already written, on any failure.
    """
    manifest = check_bundle(bundle_dir)
    info = check_drive(drive, manifest)
    log("drive %s: %s (Board ID:%s)" % (drive, info["banner"], info["board_id"]))
    installed, pending = read_drive_manifest(drive)
    tree = os.path.join(bundle_dir, "CIRCUITPY")
    plan = make_plan(drive, manifest, installed, cluster_size(drive), pending, force)
    free = disk_usage(drive).free
    log("free space: %d bytes; this deploy needs about %d (%d to copy, %d unchanged, %d stale to remove)"
        % (free, plan.need, len(plan.copy), len(plan.skip), len(plan.remove)))
    if plan.need > free:
        raise DeployError("not enough space on %s: %d bytes free, about %d needed; nothing was "
                          "written (free some space on the drive)" % (drive, free, plan.need))
    if dry_run:
        for path in plan.remove:
            log("would remove %s (installed by tanbo, no longer in the bundle)" % path)
        for path in plan.copy:
            log("would copy %s" % path)
        log("dry run: nothing written")
        return plan
    if not os.access(drive, os.W_OK):
        raise DeployError("%s is read-only to this computer; nothing was written (if the board's "
                          "boot.py remounts CIRCUITPY for itself, undo that first)" % drive)
    hashes = {e["path"]: e["sha256"] for e in manifest["files"]}
    if not plan.copy and not plan.remove and installed == hashes and not pending:
        # Writing nothing also spares the board an auto-reload.
        log("already up to date: %d files unchanged, nothing written" % len(plan.skip))
        return plan
    done = []
    current = DRIVE_MANIFEST
    log("writing %d files (%d bytes) to %s" % (
        len(plan.copy), sum(os.path.getsize(os.path.join(tree, *p.split("/"))) for p in plan.copy), drive))
    try:
        # Record intent first: files half-written by an interrupted deploy stay ours.
        owned = dict(installed)
        owned.update(hashes)
        write_drive_manifest(drive, manifest, owned, set(plan.copy) | pending)
        for path in plan.replaced:
            log("replacing %s (yours; --force)" % path)
        for path in plan.remove:
            current = path
            os.remove(on_drive(drive, path))
            log("removed %s" % path)
        for path in plan.copy:
            current = path
            make_parents(drive, path)
            copy(os.path.join(tree, *path.split("/")), on_drive(drive, path))
            done.append(path)
            log("copied %s (%d of %d, %d bytes)" % (path, len(done), len(plan.copy),
                                                     os.path.getsize(on_drive(drive, path))))
        current = None  # (what follows reads, then writes the drive's record)
        sync()
        bad = [p for p in plan.copy if sha256_file(on_drive(drive, p)) != hashes[p]]
        if bad:
            raise DeployError("read-back differs for %s; the drive may be failing or full"
                              % ", ".join(bad))
        current = DRIVE_MANIFEST
        write_drive_manifest(drive, manifest, hashes)
        sync()
    except (OSError, files.FileProblem) as exc:
        raise DeployError(write_failure(exc, drive, len(done), len(plan.copy), current))
    log("read back and verified %d files; %d unchanged" % (len(plan.copy), len(plan.skip)))
    return plan


def pick_drive(board=None, volumes=None):
    """The one mounted CIRCUITPY drive (of ``board`` if given); DeployError if none or several."""
    found = drives.find_circuitpy(volumes)
    if board is not None:
        mine = []
        for path in found:
            try:
                if drives.read_boot_out(path)["board_id"] in board.board_ids:
                    mine.append(path)
            except ValueError:
                pass
        if found and not mine:
            raise DeployError("no CIRCUITPY drive of a %s found (found: %s)" % (board.name, ", ".join(found)))
        found = mine
    if not found:
        raise DeployError("no CIRCUITPY drive found; plug the board in (it must be running "
                          "CircuitPython) or give --drive PATH")
    if len(found) > 1:
        raise DeployError("several CIRCUITPY drives found (%s); choose one with --drive" % ", ".join(found))
    return found[0]


def default_bundle(drive, board=None, out="build"):
    """``<out>/tanbo-<board>-<version>-cp<N>`` for the board and CircuitPython on ``drive``."""
    try:
        info = drives.read_boot_out(drive)
    except ValueError as exc:
        raise DeployError(str(exc))
    if board is None:
        board = board_for_id(info["board_id"])
        if board is None:
            raise DeployError("%s is a board tanbo does not support (Board ID:%s); supported: %s"
                              % (drive, info["board_id"], ", ".join(sorted(BOARDS))))
    return os.path.join(out, bundle_name(board.name, project_version(), info["major"])), board, info


def run(args):
    try:
        board = get_board(args.board) if args.board else None
        drive = args.drive or pick_drive(board)
        if not os.path.isdir(drive):
            raise DeployError("drive folder %s does not exist" % drive)
        if args.bundle:
            bundle_dir = args.bundle
        else:
            bundle_dir, board, info = default_bundle(drive, board)
            if not os.path.isdir(bundle_dir):
                raise DeployError("no bundle at %s; run: tanbo build --board %s --cp %d"
                                  % (bundle_dir, board.name, info["major"]))
        if not os.path.isfile(os.path.join(bundle_dir, "manifest.json")):
            raise DeployError("%s is not a bundle folder made by tanbo build (no manifest.json)"
                              % bundle_dir)
        if board is not None:
            manifest = load_manifest(os.path.join(bundle_dir, "manifest.json"))
            if manifest.get("board") != board.name:
                raise DeployError("bundle %s is for %s, not %s" % (bundle_dir, manifest.get("board"), board.name))
        print("deploying %s to %s%s" % (bundle_dir, drive, " (dry run)" if args.dry_run else ""))
        deploy(bundle_dir, drive, dry_run=args.dry_run, force=args.force)
        return 0
    except (DeployError, ValueError, OSError) as exc:
        print("tanbo deploy: error: %s" % exc, file=sys.stderr)
        return 1
