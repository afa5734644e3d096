"""The text protocol: GTP version 2 for Tanbo, on stdin/stdout.

Run it with ``tanbo gtp`` (CPython), or on the interpreters a handheld
runs::

    MICROPYPATH=core micropython -X heapsize=192K -m tanbo.gtp [--variant 9x9]
    MICROPYPATH=core circuitpython -X heapsize=96K -m tanbo.gtp

(MicroPython's 64-bit unix port needs the larger heap to compile the
sources; with ``.mpy`` files, as on a board, a whole 19x19 game fits in 96K,
a 4-player one in 104K. The 32-bit CircuitPython VM plays 19x19 in 96K from
sources, 72K from ``.mpy``.) Memory is the scarce thing here: long answers
are written in pieces (:meth:`GtpEngine.respond`), the AI loads only for a
level other than ``random``, garbage is collected after every command on
MicroPython/CircuitPython, and running out of memory answers
``? out of memory`` instead of ending the session.

Framing (GTP v2): a command is ``[id] name [args...]``; the answer is
``=[id] result`` or ``?[id] message`` followed by a blank line. Control
characters are dropped, ``#`` starts a comment, runs of spaces count as
one; empty lines get no answer. The protocol is ASCII: a line holding any
other byte is refused whole (stdin is read as bytes, so no byte can end the
session), and numbers (ids, sizes, milliseconds) are ASCII digits. Command
names are lower case; colours (the players' names ``black``, ``white``,
``red``, ``blue``, ``yellow``, ``grey``, as the handheld names them; ``b``,
``w`` and ``1``-``6``) and points (``D4``, ``17``, ``333``, Hexbo's ``E5``) are read in any case. Every error leaves the game as it
was. :data:`COMMANDS` lists the commands; README.md has a table.

Note that ``#`` cannot stand for an ``X`` stone in ``tanbo-position`` here
(RULES.md allows it elsewhere): GTP makes it a comment.

``genmove`` uses :func:`tanbo.ai.choose_move` at the configured level; if
that module is missing, it plays a uniformly random legal move. The seed of
each decision is ``seed`` and the ply, so the same commands give the same
answers on CPython, MicroPython and CircuitPython (level ``random`` and the
node-budgeted levels alike; a ``tanbo-movetime`` cap can only cut a search
short, and is the one thing that depends on the clock).
"""

import gc
import sys

from . import __version__
from .game import Game, get_variant
# Game imports position lazily; loading it now, on a fresh heap, spares a
# late compile or load in a fragmented one (showboard after a long game).
from . import position
from .position import quote
from .record import player_of, record_lines
from .rng import Rng
from .numerals import is_digits, small_int
from .variants import PLAYER_CHARS, VARIANTS, player_name

# Memory is tight on a board-sized heap: tanbo.ai loads only when a level
# other than "random" is asked for, and on MicroPython/CircuitPython the
# garbage of each command is collected at once, so the engine's growing undo
# stacks find room next to each other instead of between stale strings.
_COLLECT = sys.implementation.name != "cpython"
_ai = []  # [module or None] once looked for


def _ai_module():
    """:mod:`tanbo.ai`, or None when it is missing (then only ``random`` is known)."""
    if not _ai:
        try:
            from . import ai
        except ImportError:  # the engine alone (e.g. a trimmed bundle): random moves
            ai = None
        _ai.append(ai)
    return _ai[0]


def levels():
    """The levels ``tanbo-level`` accepts."""
    ai = _ai_module()
    return ("random",) if ai is None else ai.LEVELS

NAME = "Tanbo"
PROTOCOL_VERSION = "2"

COMMANDS = (
    "protocol_version", "name", "version", "known_command", "list_commands", "quit",
    "boardsize", "clear_board", "play", "genmove", "undo", "showboard",
    "tanbo-variant", "tanbo-position", "tanbo-legal", "tanbo-rootspace", "tanbo-winner",
    "tanbo-level", "tanbo-movetime", "tanbo-record",
)

# GTP's colours: the players' names (black, white, red, blue, yellow, grey),
# b, w and 1-6, read by the engine's player_of; the stone letters X/O of
# position text are not colours here.
_STONE_LETTERS = ("X", "#", "O", "Y", "Z", "U", "V")

# Upper bound of tanbo-movetime (ms): about a day; keeps the number a small int.
MAX_MOVETIME = 86400000


class GtpError(Exception):
    """A command failed; the message is the text after ``?``."""


class GtpEngine:
    """The protocol state: one game plus the settings of ``genmove``.

    ``handle(line)`` answers one input line (see the module docstring);
    after ``quit``, :attr:`done` is True.
    """

    def __init__(self, variant="19x19", level=None, seed=0, movetime_ms=None):
        """``level`` defaults to ``medium`` when :mod:`tanbo.ai` is present, else ``random``.

        Raises ValueError for an unknown variant or level, a negative seed
        or a bad ``movetime_ms``.
        """
        self._new_game(get_variant(variant))
        # None: "medium" if tanbo.ai is there, else "random"; decided when
        # first needed so that a "random" session never loads the AI.
        self.level = None if level is None else _check_level(level)
        if not isinstance(seed, int) or seed < 0:
            raise ValueError("seed %r: expected an integer >= 0" % (seed,))
        self.seed = seed
        self.movetime_ms = None if movetime_ms is None else _check_movetime(str(movetime_ms))
        self.done = False

    # -- framing ----------------------------------------------------------------
    def handle(self, line):
        """The full answer to ``line`` (ending in a blank line), or None for a blank/comment line."""
        parts = []
        self.respond(line, parts.append)
        return "".join(parts) if parts else None

    def respond(self, line, write):
        """Answer ``line`` by calling ``write(text)`` one or more times (never for a blank line).

        Long answers (a board, a record) are written in pieces, so a 96K
        heap never needs them in one block.
        """
        try:
            data = _clean(line)
            plain = _is_ascii(data)
            words = data.decode().split() if plain else data.split()
        except MemoryError:
            write("? out of memory\n\n")
            return
        if not words:
            return
        ident = ""
        if words[0].isdigit():  # ASCII digits only, as bytes or ASCII text (str's also takes '\u00b2')
            ident = words[0] if plain else words[0].decode()
            words = words[1:]
            if not words:
                write("?%s missing command after the id\n\n" % ident)
                return
        if not plain:
            # Refused before any command reads it, UTF-8 or not: no answer then
            # holds anything but ASCII, and every interpreter gives the same.
            for w in words:
                if not _is_ascii(w):
                    # repr of bytes: the same on every interpreter, unlike a str's
                    write("?%s %s: not ASCII (commands, colours, points and numbers are)\n\n"
                          % (ident, repr(w[:40])[1:]))
                    return
        command = words[0]
        args = words[1:]
        try:
            method = _HANDLERS.get(command)
            if method is None:
                raise GtpError("unknown command: %s" % quote(command))
            result = method(self, args)
        except GtpError as e:
            write("?%s %s\n\n" % (ident, e.args[0]))
            return
        except MemoryError:
            write("?%s out of memory\n\n" % ident)
            return
        except Exception as e:  # an engine bug must not end the session
            write("?%s internal error: %s: %s\n\n" % (ident, type(e).__name__, e))
            return
        if isinstance(result, str):
            write("=%s %s\n\n" % (ident, result))
            return
        # Pieces (a list or generator): validated already, only memory can fail now.
        write("=%s " % ident)
        try:
            for piece in result:
                write(piece)
        except MemoryError:
            write("\n(out of memory)")
        write("\n\n")

    # -- standard GTP v2 ----------------------------------------------------------
    def cmd_protocol_version(self, args):
        _nargs("protocol_version", args, 0)
        return PROTOCOL_VERSION

    def cmd_name(self, args):
        _nargs("name", args, 0)
        return NAME

    def cmd_version(self, args):
        _nargs("version", args, 0)
        return __version__

    def cmd_known_command(self, args):
        _nargs("known_command", args, 1, "COMMAND")
        return "true" if args[0] in _HANDLERS else "false"

    def cmd_list_commands(self, args):
        _nargs("list_commands", args, 0)
        return "\n".join(COMMANDS)

    def cmd_quit(self, args):
        _nargs("quit", args, 0)
        self.done = True
        return ""

    def cmd_boardsize(self, args):
        _nargs("boardsize", args, 1, "SIZE")
        if not args[0].isdigit():  # ASCII by now, so ASCII digits
            raise GtpError("boardsize: %s is not a number" % quote(args[0]))
        # The square boards by rows; the other variants are reached with tanbo-variant.
        name = position.VARIANT_BY_ROWS.get(small_int(args[0], 100))
        if name is None:
            raise GtpError("unacceptable size")
        self._new_game(get_variant(name))
        return ""

    def cmd_clear_board(self, args):
        _nargs("clear_board", args, 0)
        self._new_game(self.game.variant)
        return ""

    def cmd_play(self, args):
        _nargs("play", args, 2, "COLOR POINT")
        g = self.game
        player = self._colour(args[0])
        move = args[1].lower()
        if move == "pass":
            raise GtpError("illegal move: passing is not allowed in Tanbo")
        if move == "resign":
            try:
                g.resign(player)
            except ValueError as e:
                raise GtpError("illegal move: %s" % e)
            return ""
        point = self._point(args[1])
        if g.winner is None:
            self._check_turn("play", player)
        why = g.why_illegal(point)
        if why is not None:
            raise GtpError("illegal move: %s" % why)
        g.play(point)
        return ""

    def cmd_genmove(self, args):
        _nargs("genmove", args, 1, "COLOR")
        g = self.game
        player = self._colour(args[0])
        if g.winner is not None:
            raise GtpError("the game is over (%s won)" % player_name(g.winner))
        self._check_turn("genmove", player)
        # The seed depends on the ply, so undo + genmove repeats a move.
        seed = (self.seed + 7919 * g.ply) & 0xFFFFFF
        if self._level() == "random":
            # The pick of tanbo.ai's "random" level, without its search
            # set-up (a game copy and move buffers: too much for a 96K heap
            # on 19x19).
            point = _kth_legal(g, Rng(seed).below(g.legal_count()))
        else:
            gc.collect()  # a search allocates its buffers in one go: start defragmented
            point = _ai_module().choose_move(g, level=self.level, seed=seed, movetime_ms=self.movetime_ms)
        g.play(point)
        return g.variant.format_point(point)

    def cmd_undo(self, args):
        _nargs("undo", args, 0)
        try:
            self.game.undo()
        except ValueError:
            raise GtpError("cannot undo")
        return ""

    def cmd_showboard(self, args):
        _nargs("showboard", args, 0)
        g = self.game
        v = g.variant
        if g.winner is not None:
            state = "%s won" % _side(g.winner, v.players)
        else:
            state = "%s to move" % _side(g.to_move, v.players)
        counts = "  ".join("%s %d stones %d roots" % (player_name(k), g.stones(k), len(g.roots(k)))
                           for k in range(1, v.players + 1))
        # A leading newline lines the diagram up under "= " (as GNU Go does).
        return ("\n", str(g), "\n%s, ply %d: %s, " % (v.name, g.ply, state), counts)

    # -- Tanbo extensions (DESIGN.md "Text protocol") ------------------------------
    def cmd_tanbo_variant(self, args):
        _nargs("tanbo-variant", args, 1, "NAME")
        try:
            v = get_variant(args[0])
        except ValueError as e:
            raise GtpError(str(e))
        self._new_game(v)
        return ""

    def cmd_tanbo_position(self, args):
        if not args:
            return self.game.position()
        if len(args) < 2:
            raise GtpError("tanbo-position: expected no arguments, or the position text and the side to move "
                           "(e.g. 'X.O/.../... X'), got %s" % quote(args[0]))
        text = " ".join(args)
        # The current variant first: a 19x19-shaped text keeps dense-19;
        # otherwise the shape picks the variant.
        try:
            g = Game.from_position(text, self.game.variant)
        except ValueError:
            try:
                g = Game.from_position(text)
            except ValueError as e:
                raise GtpError(str(e))
        if not g.stones(g.to_move):
            # The engine reads that as a finished game; set by hand it is a
            # mistake (a finished game's own position text has the winner to move).
            raise GtpError("position: %s is to move but has no stones" % player_name(g.to_move))
        self.game = g
        return ""

    def cmd_tanbo_legal(self, args):
        _nargs("tanbo-legal", args, 0)
        return self._points(self.game.legal_moves())

    def cmd_tanbo_rootspace(self, args):
        _nargs("tanbo-rootspace", args, 1, "POINT")
        point = self._point(args[0])
        try:
            return self._points(self.game.root_space(point))
        except ValueError as e:
            raise GtpError(str(e))

    def cmd_tanbo_winner(self, args):
        _nargs("tanbo-winner", args, 0)
        g = self.game
        # The protocol's answer (a script reads it): B or W, a number with more players.
        if g.winner is None:
            return "none"
        return "BW"[g.winner - 1] if g.variant.players == 2 else str(g.winner)

    def cmd_tanbo_level(self, args):
        if not args:
            return self._level()
        self.level = _setting("tanbo-level", args, "NAME", _check_level)
        return ""

    def cmd_tanbo_movetime(self, args):
        if not args:
            return "none" if self.movetime_ms is None else str(self.movetime_ms)
        self.movetime_ms = _setting("tanbo-movetime", args, "MS", _check_movetime)
        return ""

    def cmd_tanbo_record(self, args):
        _nargs("tanbo-record", args, 0)
        return _record_lines(self.game)

    # -- helpers --------------------------------------------------------------------
    def _level(self):
        if self.level is None:
            self.level = "medium" if "medium" in levels() else "random"
        return self.level

    def _new_game(self, v):
        # Drop the old game first: a board-sized heap may not hold two
        # 19x19 games at once.
        old = self.game.variant if getattr(self, "game", None) is not None else v
        self.game = None
        if _COLLECT:
            gc.collect()
        try:
            self.game = Game(v)
        except MemoryError:
            self.game = Game(old)  # out of memory: at least a game to go on with
            raise

    def _colour(self, text):
        player = None if text.upper() in _STONE_LETTERS else player_of(text)
        if player is None:
            raise GtpError("invalid color %s (a name: black, white, red, blue, yellow, grey; b, w or 1-6)"
                           % quote(text))
        players = self.game.players
        if player > players:
            raise GtpError("invalid color %s: %s has %d players" % (quote(text), self.game.variant.name, players))
        return player

    def _point(self, text):
        try:
            return self.game.variant.parse_point(text)
        except ValueError as e:
            raise GtpError("invalid point %s" % e)

    def _check_turn(self, command, player):
        g = self.game
        if player != g.to_move:
            raise GtpError("%s %s: it is %s's turn (Tanbo has a fixed turn order)"
                           % (command, player_name(player), player_name(g.to_move)))

    def _points(self, points):
        fmt = self.game.variant.format_point
        return " ".join([fmt(p) for p in points])


def _record_lines(game):
    """``game``'s record a line at a time, each after a newline, for :meth:`GtpEngine.respond`."""
    for line in record_lines(game):
        yield "\n" + line


def _kth_legal(game, k):
    """The ``k``-th smallest legal point (``game.legal_moves()[k]`` without building that list)."""
    for p in range(game.variant.size):
        if game.is_legal(p):
            if k == 0:
                return p
            k -= 1
    raise ValueError("no legal move %d" % k)


def _clean(line):
    """``line`` (bytes, or str) as bytes without its ``#`` comment, with control
    characters dropped and tabs made spaces.

    Works on the bytes: ``#`` and control characters never occur inside a
    UTF-8 sequence, and the protocol itself is ASCII (see :meth:`GtpEngine.respond`).
    Allocation-light (a long position line is the one big input): the usual
    line has no control character inside, and is only sliced.
    """
    if isinstance(line, str):
        # surrogateescape gives back the bytes a CPython text stream could
        # not decode (MicroPython ignores the argument: its str has none).
        line = line.encode("utf-8", "surrogateescape")
    cut = line.find(b"#")
    if cut >= 0:
        line = line[:cut]
    line = line.strip()
    for c in line:
        if c < 32 or c == 127:
            break
    else:
        return line
    out = bytearray()
    for c in line:
        if c == 9:
            out.append(32)
        elif c >= 32 and c != 127:
            out.append(c)
    return bytes(out)


def _is_ascii(word):
    """False for bytes outside ASCII (no command, colour, point or number has one)."""
    for c in word:
        if c > 126:
            return False
    return True


def _nargs(command, args, n, usage=""):
    if len(args) != n:
        if n == 0:
            raise GtpError("%s takes no arguments, got %d" % (command, len(args)))
        raise GtpError("%s expects %d argument%s (%s), got %d"
                       % (command, n, "" if n == 1 else "s", usage, len(args)))


def _side(player, players):
    return "%s (%s)" % (player_name(player), PLAYER_CHARS[player])


def _setting(command, args, metavar, check):
    """The one argument of a setting command, read by ``check``; GtpError for a bad one."""
    _nargs(command, args, 1, metavar)
    try:
        return check(args[0])
    except ValueError as e:
        raise GtpError(str(e))


def _check_level(level):
    """``level`` in lower case if it is a known level, else ValueError naming the levels."""
    level = str(level).lower()
    if level != "random" and level not in levels():
        raise ValueError("unknown level %s (known: %s)" % (quote(str(level)), ", ".join(levels())))
    return level


def _check_movetime(text):
    """``text`` as milliseconds (a positive integer up to a day), or None for ``none``/``0``."""
    if text.lower() == "none":
        return None
    # is_digits: ASCII only; small_int spares int() thousands of digits.
    n = small_int(text, MAX_MOVETIME + 1) if is_digits(text) else MAX_MOVETIME + 1
    if n > MAX_MOVETIME:
        raise ValueError("movetime %s: expected milliseconds 1-%d, or 0/none for no limit"
                         % (quote(text), MAX_MOVETIME))
    return n or None


def _table():
    table = {}
    for name in COMMANDS:
        table[name] = getattr(GtpEngine, "cmd_" + name.replace("-", "_"))
    return table


_HANDLERS = _table()


def serve(engine, inp=None, out=None):
    """Answer ``inp``'s lines (default stdin) on ``out`` (default stdout) until EOF or ``quit``.

    Standard input is read as bytes where it can be: a text stream raises
    (or, on CPython, smuggles surrogates) on bytes that are not UTF-8, and a
    protocol engine must answer any line. Returns False, answering nothing,
    when there is no input or output stream (started with one closed), else True.
    """
    if inp is None:
        inp = getattr(sys.stdin, "buffer", sys.stdin)
    out = out or sys.stdout
    if inp is None or out is None:
        return False  # started with stdin or stdout closed (CPython sets them to None)
    while not engine.done:
        try:
            line = inp.readline()
        except UnicodeError:  # a text stream without .buffer (CircuitPython): the line is read, not decoded
            line = b"\xff"  # stands for it: refused as not ASCII
        if not line:
            break  # EOF
        try:
            engine.respond(line, out.write)
            if hasattr(out, "flush"):
                out.flush()
        except OSError:
            break  # the controller closed our output: nobody is listening
        if _COLLECT:
            gc.collect()
    return True


USAGE = "usage: tanbo.gtp [--variant NAME] [--level LEVEL] [--seed N] [--movetime MS]"


def parse_args(argv):
    """``{'variant', 'level', 'seed', 'movetime_ms'}`` from ``argv``; ValueError on a bad one."""
    opts = {"variant": "19x19", "level": None, "seed": 0, "movetime_ms": None}
    keys = {"--variant": "variant", "--level": "level", "--seed": "seed", "--movetime": "movetime_ms"}
    i = 0
    while i < len(argv):
        key = keys.get(argv[i])
        if key is None or i + 1 >= len(argv):
            raise ValueError("%s: unknown option or missing value\n%s" % (quote(argv[i]), USAGE))
        value = argv[i + 1]
        if key == "seed":
            if not is_digits(value) or len(value) > 18:
                raise ValueError("--seed %s: expected an integer 0-%d" % (quote(value), 10 ** 18 - 1))
            value = int(value)
        opts[key] = value
        i += 2
    if opts["variant"] not in VARIANTS:
        get_variant(opts["variant"])  # raises the message naming the variants
    return opts


def main(argv=None):
    """Speak GTP on stdin/stdout; options as :func:`parse_args`. Returns the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    try:
        engine = GtpEngine(**parse_args(argv))
    except ValueError as e:
        sys.stderr.write("tanbo.gtp: %s\n" % e)
        return 2
    except MemoryError:
        sys.stderr.write("tanbo.gtp: out of memory starting a game\n")
        return 1
    if not serve(engine):
        return _closed()
    return 0


def _closed():
    if sys.stderr is not None:
        sys.stderr.write("tanbo.gtp: standard input or output is closed: nothing to answer\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
