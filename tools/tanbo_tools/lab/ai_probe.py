"""Time, heap and board work of the AI levels, runnable as is on CPython and MicroPython.

:mod:`tanbo_tools.lab.bench_ai` imports this module in each interpreter (on
MicroPython compiled beside the engine) and reads the JSON line that
:func:`main` or :func:`board_work` prints. Kept in the MicroPython subset:
no f-strings, no typing.

Positions: the variant's setup followed by ``PLIES`` random plies (seeded
with :class:`tanbo.Rng`, so every interpreter searches the same ones, with
the same seeds: the node counts agree). Times are in milliseconds of the
interpreter's own clock.
"""

import gc
import json

from tanbo.ai import DEFAULT_SLOWNESS, choose_move
from tanbo.perf import now_us, random_position

PLIES = (4, 16, 30, 50)  # random plies before each measured move

def positions(variant, seed=1):
    """The measured positions of ``variant``, one game at a time (a 64 KB heap
    holds few 19x19 games); each stops before the end."""
    for plies in PLIES:
        yield random_position(variant, plies, seed + plies)


def search(g, level, seed, stats=None, progress=None, slowness=DEFAULT_SLOWNESS):
    """``choose_move`` for a board of ``slowness`` (default: the AI's, the slowest board)."""
    return choose_move(g, level, seed=seed, progress=progress, stats=stats, slowness=slowness)


def timing(variant, level, slowness=DEFAULT_SLOWNESS):
    """``{"moves", "iterations", "ms_per_move", "max_ms"}`` over :func:`positions`,
    searching with the node budget of a board of ``slowness``."""
    total_us = worst_us = nodes = n = 0
    for g in positions(variant):
        stats = {}
        t0 = now_us()
        search(g, level, n, stats, slowness=slowness)
        dt = now_us() - t0
        total_us += dt
        if dt > worst_us:
            worst_us = dt
        nodes += stats["iterations"]
        n += 1
    return {"moves": n, "iterations": nodes // n, "ms_per_move": round(total_us / n / 1000.0, 2),
            "max_ms": round(worst_us / 1000.0, 2)}


_peak = [0]


def _sample(done, total):
    gc.collect()
    a = gc.mem_alloc()
    if a > _peak[0]:
        _peak[0] = a
    return False


def heap(variant, level):
    """Peak live heap in bytes while searching (``gc.mem_alloc`` after a collection
    at every progress call), absolute and above the heap in use before the search;
    ``{}`` where the interpreter cannot tell."""
    if not hasattr(gc, "mem_alloc"):
        return {}
    worst = top = i = 0
    for g in positions(variant):
        gc.collect()
        before = gc.mem_alloc()
        _peak[0] = before
        search(g, level, i, progress=_sample)
        i += 1
        gc.collect()
        _peak[0] = max(_peak[0], gc.mem_alloc())
        if _peak[0] - before > worst:
            worst = _peak[0] - before
        if _peak[0] > top:
            top = _peak[0]
    return {"search_heap": worst, "peak_heap": top}


def main(variant, level, with_heap=True):
    """Print one JSON line: timing, and heap when ``with_heap``."""
    out = timing(variant, level)
    if with_heap:
        out.update(heap(variant, level))
    print(json.dumps(out))


def board_work(work):
    """The AI's board-time workload (see :mod:`tanbo_tools.board_time`): each
    position of ``work`` (``"LEVEL:VARIANT:SLOWNESS"``)
    searched as :func:`timing` does, between marks (``divmod(0, 1)``,
    ``board_time.MARK``). Prints the nodes of each search."""
    level, variant, slowness = work.split(":")
    slowness = float(slowness)
    games = list(positions(variant))
    nodes = []
    divmod(0, 1)
    i = 0
    for g in games:
        stats = {}
        search(g, level, i, stats, slowness=slowness)
        divmod(0, 1)
        nodes.append(stats["iterations"])
        i += 1
    print(json.dumps({"nodes": nodes}))
