"""Engine measurements that run the same on CPython, MicroPython and CircuitPython.

``tanbo bench`` runs :func:`main` in each interpreter and collects the JSON
line it prints; :func:`random_position` gives the AI's tests and bench
their positions. Nothing here is imported by the game itself.
"""

import gc
import time

from .game import FAST_COPY_POINTS, Game
from .rng import Rng


def now_us():
    """Microseconds from some fixed point, on any interpreter (``ticks_us``
    wraps after ~17 min: fine for a bench)."""
    if hasattr(time, "ticks_us"):
        return time.ticks_us()
    if hasattr(time, "perf_counter"):
        return int(time.perf_counter() * 1e6)
    return time.monotonic_ns() // 1000


def random_position(variant, plies, seed):
    """A game of ``variant`` after up to ``plies`` seeded random moves, stopped
    before the end (a move that would end it is taken back). The same game on
    every interpreter: the AI's tests and its bench measure on these."""
    g = Game(variant)
    rng = Rng(seed)
    for _ in range(plies):
        g.play(g.legal_move_at(rng.below(g.legal_count())))
        if g.over:
            g.undo()
            break
    return g


def playouts(variant, seconds=1.0, seed=1):
    """Random playouts of ``variant`` from its setup for about ``seconds``,
    on fast games where a search would copy fast (:data:`tanbo.game.FAST_COPY_POINTS`).

    Returns ``{"playouts_per_s", "plies_per_s", "plies_per_game", "games"}``.
    """
    base = Game(variant)
    base = base.copy(fast=base.variant.size <= FAST_COPY_POINTS)  # as a search copies it
    scratch = base.copy()
    rng = Rng(seed)
    games = plies = 0
    budget = seconds * 1000.0
    t0 = now_us() / 1000.0
    elapsed = 0.0
    while elapsed < budget or games < 3:
        scratch.load_state(base)
        scratch.random_playout(rng)
        plies += scratch.ply
        games += 1
        elapsed = now_us() / 1000.0 - t0
    s = elapsed / 1000.0
    return {"playouts_per_s": round(games / s, 1), "plies_per_s": round(plies / s),
            "plies_per_game": round(plies / games, 1), "games": games}


def heap_of_full_game(variant="19x19", seed=3):
    """Heap use of a whole random game kept with its undo history.

    Returns ``{"after_import", "game_with_history", "peak_live", "plies"}``:
    bytes (``gc.mem_alloc``) live after the imports, held by the finished game
    with its history, and live at the most during it; and the game's length.
    ``{}`` where the interpreter cannot tell.
    """
    if not hasattr(gc, "mem_alloc"):
        return {}
    gc.collect()
    start = gc.mem_alloc()
    g = Game(variant)
    rng = Rng(seed)
    peak = 0
    while not g.over:
        g.play(g.legal_move_at(rng.below(g.legal_count())))
        if g.ply % 16 == 0:
            # live data only: without a collection mem_alloc counts garbage
            gc.collect()
            peak = max(peak, gc.mem_alloc())
    gc.collect()
    end = gc.mem_alloc()
    return {"after_import": start, "game_with_history": end - start, "peak_live": max(peak, end),
            "plies": g.ply}


VARIANTS = ("9x9", "13x13", "19x19", "dense-19", "3d", "hexbo-5", "hexbo")


def main(what, seconds=1.0):
    """Print one JSON line: ``what`` is a variant name (playouts) or ``"heap"``.

    One measurement a process, so each starts from the same clean heap.
    """
    import json
    if what == "heap":
        print(json.dumps(heap_of_full_game()))
    else:
        print(json.dumps(playouts(what, seconds)))
