"""Every variant's tables, field by field, as the builders made them before
they left the heap (tanbo.variant_make, tanbo.hexbo_make).

Engine checks in the MicroPython subset: run by tests/subset/run.py on
CPython, the MicroPython unix port and the CircuitPython VM alike. The
digests were taken from the variants of fa1e19d, when tanbo.variants built
the square, 1D, 3D and 4p boards itself: a variant built by the split-off
builder must be the same object, field by field.
"""

import gc
import sys

import tanbo
import tanbo.variants
from tanbo import get_variant

# Every field a variant has: the box's, the rules', the notation's, Hexbo's rows.
FIELDS = ("name", "width", "height", "depth", "dims", "size", "players", "description", "setup",
          "setup_points", "max_plies", "node_cost", "space_weight", "hex_side")
HEX_FIELDS = ("rows", "row_start", "row_first_col", "row_len")

# digest(get_variant(name)) at fa1e19d, by the variant's name.
DIGESTS = {
    "19x19": 161702918, "13x13": 129038390, "9x9": 168833595, "dense-7": 239301229,
    "dense-11": 257805075, "dense-15": 263608450, "dense-19": 50521901, "4p": 104290655,
    "1d": 217653888, "3d": 120672699, "hexbo-5": 118757878, "hexbo": 81972599,
    "hexbo-5-3p": 167626380, "hexbo-3p": 215878262, "hexbo-5-6p": 222654618, "hexbo-6p": 259682277,
    "hexbo-4": 79924966, "hexbo-4-3p": 14703294, "hexbo-4-6p": 227592456, "hexbo-6": 216293928,
    "hexbo-6-3p": 239722824, "hexbo-6-6p": 46621142, "hexbo-7": 58990494, "hexbo-7-3p": 43599273,
    "hexbo-7-6p": 254294608, "hexbo-8": 77142282, "hexbo-8-3p": 141058005, "hexbo-8-6p": 79115338,
    "hexbo-10": 100245338, "hexbo-10-3p": 647730, "hexbo-10-6p": 42655542,
}

NAMES = ["hexbo-%d%s" % (n, p) for n in range(4, 11) for p in ("", "-3p", "-6p")]


def digest(v):
    """A 28-bit digest of every field of ``v`` and of its steps, point by point."""
    h = 0
    parts = [getattr(v, f) for f in FIELDS]
    if v.hex_side:
        parts += [getattr(v, f) for f in HEX_FIELDS]
    parts += v.steps
    for part in parts:
        for ch in repr(part) + "|":
            h = (h * 131 + ord(ch)) & 0xFFFFFFF
    return h


def _forget_variants():
    # (every variant of every side would not fit the port's capped heap at once)
    tanbo.variants._cache.clear()
    tanbo.variants._tables.clear()
    gc.collect()


def test_every_variant_is_built_as_before():
    for name in list(tanbo.VARIANTS) + NAMES:
        _forget_variants()
        v = get_variant(name)
        assert digest(v) == DIGESTS[v.name], name
        v = None
    _forget_variants()


def test_the_builders_leave_the_heap_and_shapes_share_their_steps():
    # (the builders' code would otherwise stay under every game on a board: docs/board-costs.md)
    a = get_variant("19x19")
    for module in ("variant_make", "hexbo_make"):
        assert "tanbo." + module not in sys.modules and module not in tanbo.__dict__, module
    b, c = get_variant("4p"), get_variant("dense-19")  # built after the drop: the same table
    assert a.steps is b.steps and a.steps is c.steps and "tanbo.variant_make" not in sys.modules
    assert get_variant(" 9X9 ") is get_variant("9x9") and get_variant("hexbo-9") is get_variant("hexbo")


def test_an_unknown_variant_is_refused_and_no_builder_stays():
    for bad in ("10x10", "dense-9", "hexbo-3", "hexbo-11", "hexbo-5-4p", "hexbo-05", "hexbo-x"):
        try:
            get_variant(bad)
        except ValueError as e:
            assert "unknown variant" in str(e), bad
        else:
            raise AssertionError("%s accepted" % bad)
        assert "tanbo.variant_make" not in sys.modules and "tanbo.hexbo_make" not in sys.modules, bad
