"""What a call chain costs CircuitPython's pystack, counted on the desktop.

CircuitPython keeps every Python call's frame on a fixed stack of its own
(``MICROPY_ENABLE_PYSTACK``): ``CIRCUITPY_PYSTACK_SIZE`` bytes, 1536 in
CircuitPython 9 and 2048 in 10 unless ``settings.toml`` on the drive sets
another size (read once at boot). A call that does not fit raises
``RuntimeError: pystack exhausted``, wherever it happens: deep in a search,
that ends the game on the board while CPython, Blinka and the unix port
(which has no pystack) run on.

A bytecode function's frame there is ``mp_code_state_t``'s 20-byte header
(32-bit board), 4 bytes a state slot (``n_state``: its locals and its
deepest value stack) and 12 an exception-handler slot (``n_exc_stack``),
rounded up to 8 (``MICROPY_PYSTACK_ALIGN``). Both counts sit in each
function's bytecode prelude in the ``.mpy`` that ``tanbo build`` ships, the
same bytes the board loads (see :mod:`tanbo_tools.mpy`), so
:func:`frame_sizes` reads them from ``mpy-cross``'s output and pairs each
function with CPython's code object for the same source; :class:`Meter`
then charges every CPython call of such a function its board frame (a
``sys.setprofile`` hook) and keeps the peak and the chain of calls that
made it.

Not counted: frames of code that is C on the board (the simulator's twins,
CPython's library), generator frames (on the heap there), and the few
words a call through a bound-method object or with ``*args`` takes from
the pystack for its arguments: budgets keep :data:`ALLOWANCE` for them.
"""

import os
import sys

from ..mpy import compile_source

HEADER = 20  # bytes of mp_code_state_t before its state slots (32-bit, no settrace)
SLOT = 4  # one mp_obj_t
HANDLER = 12  # one mp_exc_stack_t: handler, val_sp, prev_exc
ALIGN = 8  # MICROPY_PYSTACK_ALIGN

# CIRCUITPY_PYSTACK_SIZE when settings.toml does not set it: 1536 bytes in
# CircuitPython 9's py/circuitpy_mpconfig.h, 2048 in 10's.
DEFAULT_SIZE = {9: 1536, 10: 2048}

# Bytes a budget keeps beyond the counted frames: the argument words a call
# through a bound-method object takes (the search's progress callback: 16),
# and a margin for C calls back into Python that the count cannot see.
ALLOWANCE = 64

_CO_GENERATOR = 0x20  # CPython's flag; a MicroPython generator's frame lives in its heap object


def frame_bytes(n_state, n_exc_stack):
    """Bytes of pystack one call of a function with these prelude counts takes."""
    size = HEADER + SLOT * n_state + HANDLER * n_exc_stack
    return (size + ALIGN - 1) & -ALIGN


def _uint(data, i):
    """MicroPython's variable-length unsigned int at ``data[i]``: (value, next index)."""
    v = 0
    while True:
        c = data[i]
        i += 1
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v, i


def _skip_obj(data, i):
    """Index past the constant object at ``data[i]`` (persistentcode.c's load_obj)."""
    kind = data[i]
    i += 1
    if kind <= 4:  # fun table, None, False, True, Ellipsis: no payload
        return i
    n, i = _uint(data, i)
    if kind == 10:  # tuple: n objects
        for _ in range(n):
            i = _skip_obj(data, i)
        return i
    return i + n + (1 if kind in (5, 6) else 0)  # str and bytes end with a NUL


def raw_codes(data, name="<mpy>"):
    """The function tree of ``.mpy`` bytes: nested ``(name, n_pos_args, n_state,
    n_exc_stack, children)`` tuples, the module first, children in definition
    order. ``name`` is None for a name the firmware keeps in its static qstr
    table (``__init__``, ``<module>`` ...). Raises ValueError naming ``name``
    for anything but a bytecode-only version 6 file."""
    if len(data) < 4 or data[0:1] not in (b"M", b"C") or data[1] != 6 or data[2] >> 2:
        raise ValueError("%s: not a bytecode-only .mpy of version 6 (header %r)" % (name, bytes(data[:4])))
    i = 4
    n_qstr, i = _uint(data, i)
    n_obj, i = _uint(data, i)
    qstrs = []
    for _ in range(n_qstr):
        n, i = _uint(data, i)
        if n & 1:
            qstrs.append(None)  # static qstr: an index into the firmware's table
            continue
        n >>= 1
        qstrs.append(bytes(data[i:i + n]).decode())
        i += n + 1
    for _ in range(n_obj):
        i = _skip_obj(data, i)

    def load(i):
        kind_len, i = _uint(data, i)
        if kind_len & 3:
            raise ValueError("%s: native code in the .mpy; only bytecode is measured" % name)
        fun = data[i:i + (kind_len >> 3)]
        i += kind_len >> 3
        # MP_BC_PRELUDE_SIG_DECODE (py/bc.h): xSSSSEAA, then xFSSKAED bytes.
        z = fun[0]
        j = 1
        n_state = (z >> 3) & 0xF
        n_exc = (z >> 2) & 1
        n_args = z & 3
        n = 0
        while z & 0x80:
            z = fun[j]
            j += 1
            n_state |= (z & 0x30) << (2 * n)
            n_exc |= (z & 0x2) << n
            n_args |= (z & 0x4) << n
            n += 1
        # MP_BC_PRELUDE_SIZE_DECODE, then the info section opens with the name.
        while fun[j] & 0x80:
            j += 1
        qstr, _ = _uint(fun, j + 1)
        children = []
        if kind_len & 4:
            count, i = _uint(data, i)
            for _ in range(count):
                child, i = load(i)
                children.append(child)
        return (qstrs[qstr], n_args, n_state + 1, n_exc, children), i

    return load(i)[0]


def _code_children(code):
    return [c for c in code.co_consts if hasattr(c, "co_code")]


def frame_sizes(path, source_name=None):
    """``{(file, first line, name): pystack bytes}`` for every function of the
    Python source at ``path``, the module's own code included. Raises
    ValueError naming the function if CPython's and MicroPython's function
    trees do not pair up."""
    path = os.path.realpath(path)
    with open(path) as f:
        source = f.read()
    tree = raw_codes(compile_source(path, source_name or os.path.basename(path)), path)
    out = {}

    def pair(code, raw):
        name, n_args, n_state, n_exc, children = raw
        # A closure's cells come to it as extra positional arguments.
        if (name is not None and name != code.co_name) or n_args != code.co_argcount + len(code.co_freevars):
            raise ValueError("%s:%d: %s does not pair with the .mpy's %s (%d positional arguments)"
                             % (path, code.co_firstlineno, code.co_name, name or "static name", n_args))
        out[(path, code.co_firstlineno, code.co_name)] = frame_bytes(n_state, n_exc)
        mine = _code_children(code)
        if len(mine) != len(children):
            raise ValueError("%s:%d: %s holds %d functions, its .mpy %d"
                             % (path, code.co_firstlineno, code.co_name, len(mine), len(children)))
        for c, r in zip(mine, children):
            pair(c, r)

    pair(compile(source, path, "exec"), tree)
    return out


def tree_sizes(*folders):
    """:func:`frame_sizes` of every ``.py`` under ``folders``, in one dict."""
    out = {}
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith(".py"):
                    out.update(frame_sizes(os.path.join(root, name)))
    return out


def app_sizes(repo):
    """:func:`tree_sizes` of what goes onto the board from checkout ``repo``:
    the engine (``core/tanbo``) and the app (``device/``)."""
    return tree_sizes(os.path.join(repo, "core", "tanbo"), os.path.join(repo, "device"))


def app_base(sizes, repo):
    """Bytes live on the board's pystack while ``App.step`` runs: ``code.py``'s
    module frame and ``App.run``'s (the simulator calls ``App.step`` itself).
    ``sizes``: :func:`app_sizes` of ``repo``."""
    device = os.path.realpath(os.path.join(repo, "device"))
    code = os.path.join(device, "code.py")
    main = os.path.join(device, "app", "main.py")
    module = [v for (f, _, name), v in sizes.items() if f == code]
    run = [v for (f, _, name), v in sizes.items() if f == main and name == "run"]
    if len(module) != 1 or len(run) != 1:
        raise ValueError("%s: expected code.py without functions and one App.run" % device)
    return module[0] + run[0]


class Meter:
    """Counts the board's pystack over the calls made inside a ``with`` block.

    ``sizes`` is :func:`tree_sizes`'s dict; ``base`` the bytes already in use
    when the block's code runs on the board (the frames of ``code.py`` and
    the calls above the measured one). After the block: ``peak`` (bytes,
    ``base`` included) and ``chain`` (the qualified names of the frames live
    at the peak, outermost first). With a ``limit`` (bytes: the board's
    pystack), a call that would pass it raises ``RuntimeError("pystack
    exhausted")`` where it is made, as the firmware does (CPython then
    stops calling the hook: the count ends there).
    """

    def __init__(self, sizes, base=0, limit=None):
        self.sizes = sizes
        self.base = base
        self.limit = limit
        self.used = base
        self.peak = base
        self.chain = []
        self._stack = []
        self._known = {}

    def _size(self, code):
        size = self._known.get(code)
        if size is None:
            if code.co_flags & _CO_GENERATOR:
                size = 0
            else:
                size = self.sizes.get((os.path.realpath(code.co_filename), code.co_firstlineno, code.co_name), 0)
            self._known[code] = size
        return size

    def _hook(self, frame, event, arg):
        if event == "call":
            size = self._size(frame.f_code)
            if size:
                self._stack.append((frame, size))
                self.used += size
                if self.used > self.peak:
                    self.peak = self.used
                    self.chain = [getattr(f.f_code, "co_qualname", f.f_code.co_name) for f, _ in self._stack]
                    if self.limit is not None and self.used > self.limit:
                        raise RuntimeError("pystack exhausted")
        elif event == "return" and self._stack and self._stack[-1][0] is frame:
            self.used -= self._stack.pop()[1]

    def start(self):
        """Count from here on (``with`` does it for a block)."""
        self._old = sys.getprofile()
        sys.setprofile(self._hook)

    def stop(self):
        """Stop counting; ``peak`` and ``chain`` keep what was seen."""
        sys.setprofile(self._old)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False
