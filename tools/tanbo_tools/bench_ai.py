"""The AI section of ``tanbo bench``: per level and board size, nodes per move, time and heap.

For each variant of :data:`AI_VARIANTS` and each searching level it reports
``nodes`` (search nodes per move at the AI's default board), ``cpython_ms``
(and the worst, ``cpython_max_ms``), ``micropython_ms`` (unix port,
``.mpy``, capped heap), ``micropython_search_heap``/``micropython_peak_heap``
(bytes), and per board (``samd51``, ``rp2040``) board time from exact
instruction counts (:mod:`tanbo_tools.board_time`): ``BOARD_nodes``,
``BOARD_ms`` (and the worst, ``BOARD_max_ms``) and
``BOARD_cortex_m4_instructions`` per move, each board
searching with its own budget where the AI has one per board
(``tanbo.ai.SLOWNESS``), and ``BOARD_cpython_ms``, CPython searching with
that board's budget. Times are the mean over the positions of
:mod:`tanbo_tools.ai_probe`. Nothing is asserted: the machine is shared.

It ends with the level table (:func:`level_table`): the rows the README
and ``tanbo/ai.py`` quote, as they are printed.
"""

import os
import shutil
import sys
import tempfile

from tanbo import ai

from . import ai_probe, board_time, vm
from .progress import Progress

AI_VARIANTS = ("9x9", "13x13", "19x19", "hexbo-5", "hexbo")
# The unix port is a 64-bit build: its objects are about twice a board's,
# and the engine's imports alone take ~33 KB there; the search's own share
# is reported apart (search_heap) and is what the 40 KB budget is about.
AI_HEAP = "96K"
TARGET_MS = {"9x9": 3000, "19x19": 6000, "hexbo-5": 3000, "hexbo": 6000}  # the hard level's answer time on a board

# Runs under valgrind, one search between two marks (see board_time).
BOARD_WORK = """\
import os
import ai_probe
ai_probe.board_work(os.getenv("BOARD_TIME_WORK"))
"""


def compile_lib(dest):
    """``dest`` with the engine and the probe as .mpy: compiling the probe
    on the target would cost heap the search is measured in."""
    return vm.compile_core(dest, modules=[ai_probe.__file__])


def _script(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def on_micropython(exe, lib, heap, variant, level, tmp):
    """The probe's result in a fresh ``micropython -X heapsize=heap`` with ``lib`` on its path."""
    script = _script(tmp, "ai_probe_main.py", "import ai_probe\nai_probe.main(%r, %r)\n" % (variant, level))
    return vm.run_json(exe, script, heap, [lib], timeout=900, grow=True)


def board_slowness():
    """``{board: slowness}`` the AI budgets its nodes by (``tanbo.ai.SLOWNESS``)."""
    return dict(ai.SLOWNESS)


def board_times(lib, levels, variants, tmp):
    """``{level: {variant: {"samd51_ms", "samd51_max_ms", "samd51_nodes", ..., "rp2040_ms", ...}}}``
    per move (valgrind): each board's search (its own node budget) in its own time."""
    script = _script(tmp, "ai_board_work.py", BOARD_WORK)
    out = {}
    progress = Progress(len(levels) * len(variants) * len(board_slowness()), "tanbo bench: AI board time",
                        quiet=QUIET.on)
    for level in levels:
        for v in variants:
            row = out.setdefault(level, {}).setdefault(v, {})
            for board, slowness in board_slowness().items():
                work = "%s:%s:%s" % (level, v, slowness)
                counts, stdout = board_time.count_units(script, 1, [lib], work=work)
                progress.step("%s %s, %s's budget" % (level, v, board))
                nodes = vm.last_json(stdout)["nodes"]
                mean = board_time.estimate(sum(counts) / float(len(counts)))
                worst = board_time.estimate(max(counts))
                row.update({board + "_ms": mean[board + "_ms"], board + "_max_ms": worst[board + "_ms"],
                            board + "_nodes": sum(nodes) // len(nodes),
                            board + "_cortex_m4_instructions": mean["cortex_m4_instructions"]})
    progress.done()
    return out


def board_skipped(args):
    """Why ``tanbo bench`` ``args`` get no board time (a sentence), or None."""
    if getattr(args, "no_micropython", False):
        return "--no-micropython"
    if getattr(args, "no_board", False):
        return "--no-board"
    return board_time.unavailable()


def searching_levels():
    return [level for level in ai.LEVELS if level != "random"]


def run_ai_bench(args, tmp=None):
    """The AI report as a dict (see the module docstring); ``args`` as ``tanbo bench``'s
    (``no_micropython``, ``no_board``)."""
    own_tmp = tmp is None
    if own_tmp:
        tmp = tempfile.mkdtemp(prefix="tanbo-bench-ai-")
    no_mp = getattr(args, "no_micropython", False)
    exe = None if no_mp else vm.micropython_path()
    levels = searching_levels()
    report = {"node": "one stone placed on the search's copy, and its evaluation",
              "positions": "setup + %s random plies" % (ai_probe.PLIES,), "levels": {}}
    try:
        lib = compile_lib(os.path.join(tmp, "ai-mp")) if exe else None
        skip = board_skipped(args)
        report["board"] = {"skipped": skip} if skip else {"boards": board_time.BOARDS}
        board = {}
        if not skip:
            say("measuring the AI's board time: each level's searches counted under valgrind (minutes)")
            board = board_times(lib, levels, AI_VARIANTS, tmp)
        say("measuring the AI levels %s on %s: nodes and CPython ms%s" % (
            ", ".join(levels), ", ".join(AI_VARIANTS), ", MicroPython ms and heap" if lib else ""))
        for level in levels:
            rows = report["levels"][level] = {}
            for variant in AI_VARIANTS:
                rows[variant] = row = _row(level, variant, exe, lib, tmp)
                row.update(board.get(level, {}).get(variant, {}))
                say("ai %-6s %-6s %5d nodes %8.1f ms CPython%s" % (
                    level, variant, row["nodes"], row["cpython_ms"],
                    "".join("  %5d nodes %6.0f ms (worst %6.0f) %s" % (
                        row[b + "_nodes"], row[b + "_ms"], row[b + "_max_ms"], b.upper())
                        for b in ("samd51", "rp2040") if b + "_ms" in row)))
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    say("ai level table (README, tanbo/ai.py):")
    for line in level_table(report):
        say(line)
    return report


def _pair(row, key, fmt):
    """``row``'s figure ``key`` for each board, "a / b" where the boards differ ("-" if unmeasured)."""
    texts = [fmt % row[b + key] if b + key in row else "-" for b in ("samd51_", "rp2040_")]
    return texts[0] if texts[0] == texts[1] else " / ".join(texts)


def level_table(report):
    """The report's level table as Markdown lines: per level and variant, nodes
    and CPython ms with each board's budget, and each board's time."""
    lines = ["| level | board | nodes (SAMD51 / RP2040) | CPython ms | SAMD51 ms | RP2040 ms |",
             "|---|---|---|---|---|---|"]
    for level, rows in report["levels"].items():
        for variant, row in rows.items():
            # one search where both boards' budgets give the same nodes: one time (the default board's)
            same = row.get("samd51_nodes") == row.get("rp2040_nodes") and "cpython_ms" in row
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                level, variant, _pair(row, "nodes", "%d"),
                "%.1f" % row["cpython_ms"] if same else _pair(row, "cpython_ms", "%.1f"),
                "%.0f" % row["samd51_ms"] if "samd51_ms" in row else "-",
                "%.0f" % row["rp2040_ms"] if "rp2040_ms" in row else "-"))
    return lines


def _row(level, variant, exe, lib, tmp):
    row = {}
    for board, slowness in board_slowness().items():
        cp = ai_probe.timing(variant, level, slowness)
        row.update({board + "_nodes": cp["iterations"], board + "_cpython_ms": cp["ms_per_move"]})
        if slowness == ai.DEFAULT_SLOWNESS:  # the AI's default board: the row's own figures
            row.update({"nodes": cp["iterations"], "cpython_ms": cp["ms_per_move"], "cpython_max_ms": cp["max_ms"]})
    if lib:
        mp = on_micropython(exe, lib, AI_HEAP, variant, level, tmp)
        row.update({"micropython_ms": mp["ms_per_move"], "micropython_max_ms": mp["max_ms"],
                    "micropython_search_heap": mp.get("search_heap"),
                    "micropython_peak_heap": mp.get("peak_heap"), "heap_limit": mp.get("heap", AI_HEAP)})
    if level == "hard" and variant in TARGET_MS:
        row["target_ms"] = TARGET_MS[variant]
    return row


class QUIET:
    """``on``: ``tanbo bench --quiet`` asked for no progress lines."""
    on = False


def say(text):
    """A progress line (stderr: stdout is the JSON)."""
    if not QUIET.on:
        print(text, file=sys.stderr)
