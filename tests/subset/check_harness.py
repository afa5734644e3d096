"""Subset facts the engine relies on, checked on every interpreter.

Run by tests/subset/run.py on CPython and the MicroPython unix port (the
VM CircuitPython is built on, as the boards run it). Each test pins one behaviour of ``bytearray``/``array``
or an idiom from core/tanbo that differs easily between implementations;
if one of these fails on an interpreter, the engine's storage code is wrong
there. Plain asserts only.
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython: const is the identity
    def const(x):
        return x

_BIG = const(1 << 15)


def test_const_fallback_is_the_identity_on_ints():
    assert _BIG == 32768
    assert const(255) + 1 == 256


def test_bytearray_slice_assignment_copies_in_place():
    a = bytearray(b"\xff" * 5)
    alias = a
    src = bytearray(b"\x01\x02\x03\x04\x05")
    a[:] = src
    assert alias is a and a == bytearray(b"\x01\x02\x03\x04\x05")
    src[0] = 9  # a copy, not a view: later writes to src leave a alone
    assert a[0] == 1
    a[1:3] = b"\x07\x08"
    assert list(alias) == [1, 7, 8, 4, 5] and len(a) == 5


def test_bytearray_cells_hold_bytes_and_grow_by_append():
    b = bytearray(3)
    assert list(b) == [0, 0, 0]
    b[2] = 255
    b.append(4)
    assert b[2] == 255 and b[-1] == 4 and len(b) == 4
    c = bytearray(b)  # copy constructor: independent storage
    c[0] = 1
    assert b[0] == 0


def test_array_h_from_bytes_is_raw_cells():
    # game.py builds NIL-filled arrays as array("H", b"\xff\xff" * n).
    full = array("H", b"\xff\xff" * 3)
    zero = array("H", bytes(2) * 4)
    assert len(full) == 3 and full[0] == 65535 and full[2] == 0xFFFF
    assert len(zero) == 4 and zero[3] == 0


def test_array_append_index_and_slice_copy():
    a = array("H")
    for v in (0, 1, 65535, 300):
        a.append(v)
    assert len(a) == 4 and a[2] == 65535 and a[-1] == 300
    a[1] = 7
    b = array("H", a)  # copy constructor: independent storage
    b[0] = 5
    assert a[0] == 0 and list(b) == [5, 7, 65535, 300]
    c = array("H", bytes(8))
    c[:] = a  # same-length slice assignment between arrays of one type
    assert list(c) == [0, 7, 65535, 300]


def test_signed_array_holds_negative_moves():
    # Resignations are stored as -player in array("h").
    m = array("h")
    m.append(-2)
    m.append(360)
    assert m[0] == -2 and m[1] == 360


def test_value_error_message_survives_str():
    try:
        raise ValueError("bad point 'Z9'")
    except ValueError as e:
        assert str(e) == "bad point 'Z9'"
        assert type(e).__name__ == "ValueError"
