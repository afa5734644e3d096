"""``tanbo match A B``: play two players against each other and judge the result.

A player is an AI level (``random``, ``easy``, ``medium``, ``hard``),
searching with the slowest board's node budget (the RP2040's, as
:func:`tanbo.ai.choose_move` does by default) or, as ``LEVEL@BOARD``
(``hard@samd51``), with the budget of a board of :data:`tanbo.ai.SLOWNESS`,
or as ``LEVEL@SLOWNESS`` (``hard@1.7``: a board 1.7 times a SAMD51's time
per instruction, so twice an RP2040's nodes), to measure strength against
nodes;
``uct:N`` (plain UCT with N random playouts a move, :mod:`tanbo_tools.lab.uct`) or
``gtp:COMMAND``, an external engine started with ``shlex.split(COMMAND)``
that speaks GTP (``tanbo-variant``, ``clear_board``, ``play``, ``genmove``,
``tanbo-movetime``, ``quit``). Colours alternate: in even games A sits in
the odd seats (Black; players 1 and 3 in ``4p``, 1, 3 and 5 with six), in
odd games B does. With three players (``hexbo-3p``) seats go round in six
games: A holds seat 1, 2, 3 alone, then B does, A the other two, so over
six games both sides held every seat alone and in company. With more than
two players the summary also gives the wins by the winner's seat.

An engine that cannot be started, or refuses the set-up commands, stops the
match (exit 1). One that fails during a game forfeits that game, with a
message and a ``Forfeit:`` line in its record: no answer within
``--timeout`` seconds, a move that is not a legal point (``pass``, ``Q99``,
an occupied point), a refused ``play``, an exit. Engines that do not exit
after ``quit`` are killed.

``--opening N`` starts each game from a position N random legal plies in
(:func:`opening`): drawn from the seed and the game's pair (games 2k and
2k+1 share one, with colours swapped; with three players the six games of
a round of seats share one), so two matches with the same seed
play the same openings, and a match between deterministic players plays
distinct games.

``--book FILE`` gives A, if it is ``hard``, that opening book
(:mod:`tanbo.book`, made by ``tanbo book``): the same budget, the book's
move where it has one.

The summary gives each side's wins, A's win rate with a 95% Wilson score
interval, and the Elo difference (A minus B) implied by that rate and by
the interval's ends. There are no draws in Tanbo.
"""

import math
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

from tanbo import VARIANTS, Game, get_variant, player_name
from tanbo import ponder
from tanbo.ai import DEFAULT_SLOWNESS, LEVELS, NODE_US, SLOWNESS, Search, choose_move, node_budget, nodes_in
from tanbo.gtp import MAX_MOVETIME
from tanbo.position import quote
from tanbo.rng import Rng
import tanbo_files as files

from .. import arg_checks, workers
from ..progress import Progress
from . import uct

Z95 = 1.959964  # two-sided 95% normal quantile
# Seconds a GTP engine may take for one answer (a 19x19 "hard" move on a slow
# interpreter takes a few); --timeout changes it.
DEFAULT_TIMEOUT = 60.0
MAX_TIMEOUT = 86400
MAX_JOBS = 256  # processes; more is a typo, not a faster match
MAX_GAMES = 100000
MAX_SEED = 10 ** 9
MAX_PONDER_MS = 600000  # --ponder-ms: ten minutes a turn is past any player's
QUICK_MS = 300  # a reply searched in at most this much board time appears "at once"
STATS = 7  # LevelPlayer.stats's counts


def add_arguments(parser):
    parser.add_argument("a", metavar="A", help="level (%s; LEVEL@BOARD searches with a board's budget: %s; "
                        "LEVEL@SLOWNESS with that of a board SLOWNESS times a SAMD51's time, e.g. hard@1.7; "
                        "default the slowest's), uct:PLAYOUTS or gtp:COMMAND" % (", ".join(LEVELS), _BOARDS))
    parser.add_argument("b", metavar="B", help="level, LEVEL@BOARD, uct:PLAYOUTS or gtp:COMMAND")
    parser.add_argument("--variant", default="9x9", help="variant (default 9x9)")
    parser.add_argument("--games", type=arg_checks.whole(1, MAX_GAMES, "games"), default=20,
                        help="games to play (default 20, at most %d)" % MAX_GAMES)
    parser.add_argument("--seed", type=arg_checks.whole(0, MAX_SEED), default=0,
                        help="base seed for the AI levels (default 0, at most %d)" % MAX_SEED)
    parser.add_argument("--movetime", type=arg_checks.whole(1, MAX_MOVETIME, "milliseconds"), default=None,
                        metavar="MS",
                        help="wall-time cap per move in milliseconds (default: node budgets only)")
    parser.add_argument("--record", metavar="DIR", type=arg_checks.output_folder,
                        help="save every game record in DIR")
    parser.add_argument("--jobs", type=arg_checks.whole(1, MAX_JOBS, "processes"), default=1,
                        help="games in parallel (default 1, at most %d)" % MAX_JOBS)
    parser.add_argument("--timeout", type=arg_checks.seconds(MAX_TIMEOUT), default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help="longest wait for each answer of a GTP engine; one that misses it "
                             "forfeits the game (default %g, at most %d)" % (DEFAULT_TIMEOUT, MAX_TIMEOUT))
    most = max(max_opening(v) for v in VARIANTS)  # each variant's own limit is checked when it runs
    parser.add_argument("--opening", type=arg_checks.whole(0, most, "plies"), default=0, metavar="N",
                        help="start each game N random legal plies in, the same opening for games 2k and "
                             "2k+1 (colours swapped; with three players for each round of six games), "
                             "drawn from --seed (default 0: the setup)")
    parser.add_argument("--book", metavar="FILE", type=arg_checks.input_file,
                        help="A's opening book, if A is hard (tanbo book; default none)")
    parser.add_argument("--ponder-ms", type=arg_checks.whole(0, MAX_PONDER_MS, "milliseconds"), default=None,
                        metavar="MS",
                        help="levels think on each opponent's turn as long as their board would in MS "
                             "milliseconds (counted in nodes: deterministic for a seed; at most %d)" % MAX_PONDER_MS)
    parser.add_argument("--ponder-only", choices=("A", "B"), default=None,
                        help="with --ponder-ms, only that side ponders (default both: e.g. hard with "
                             "pondering against hard without is --ponder-only A)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: a line per finished game, a bar on a terminal)")


_BOARDS = ", ".join(sorted(SLOWNESS))


def _slowness(text):
    """``text`` as a number if it is a plain decimal such as ``1.7`` (at most
    3 digits, 2 after the point), else None. Its range is node_budget's."""
    whole, dot, tenths = text.partition(".")
    if not (whole.isascii() and whole.isdigit() and len(whole) <= 3
            and (not dot or (tenths.isascii() and tenths.isdigit() and len(tenths) <= 2))):
        return None
    return float(text)


def parse_player(spec):
    """``(kind, value)`` of a player spec: ``("level", (name, slowness))``,
    ``("gtp", argv)`` or ``("uct", spec)``.

    The one place that reads a spec (argument check and player set-up alike).
    ValueError quoting ``spec`` when it names neither, names no board after
    a level's ``@``, or the engine's program is not found.
    """
    level, at, board = spec.partition("@")
    if level in LEVELS:
        if not at:
            return "level", (level, DEFAULT_SLOWNESS)
        if board in SLOWNESS:
            return "level", (level, SLOWNESS[board])
        slowness = _slowness(board)
        if slowness is None:
            raise ValueError("%s: no board %s (boards: %s; or a slowness such as 1.7, SAMD51 = 1.0)"
                             % (quote(spec), quote(board), _BOARDS))
        try:
            node_budget(level, 1, slowness)  # the one check of a slowness's range
        except ValueError as e:
            raise ValueError("%s: %s" % (quote(spec), e))
        return "level", (level, slowness)
    if spec.startswith("gtp:"):
        try:
            argv = shlex.split(spec[4:])
        except ValueError as e:  # an unclosed quote
            raise ValueError("%r: %s" % (spec, e))
        if argv:
            try:
                found = shutil.which(argv[0])
            except ValueError:  # a NUL character
                found = None
            if found is None:
                raise ValueError("%r: no program %r found (a path, or a name on PATH)" % (spec, argv[0]))
            return "gtp", argv
    if spec.startswith(uct.PREFIX):
        uct.parse_spec(spec)
        return "uct", spec
    raise ValueError("%s: not a level (%s), LEVEL@BOARD, uct:PLAYOUTS nor gtp:COMMAND"
                     % (quote(spec), ", ".join(LEVELS)))


def check_player(spec):
    """``spec`` unchanged if :func:`parse_player` reads it; ValueError quoting it otherwise."""
    parse_player(spec)
    return spec


class EngineError(RuntimeError):
    """A GTP engine failed: no answer in time, exited, refused a command or answered nonsense."""


class LevelPlayer:
    """An AI level of :mod:`tanbo.ai` with a board's budget (``slowness``);
    seeds each move from the game, seat and ply.

    With ``ponder_ms``, it thinks on each of the opponent's turns as long as
    its board would in that many milliseconds (:mod:`tanbo.ponder`, in node
    counts, so a seed gives the same game): ``stats`` counts its moves, its
    replies to a pondered turn, the guesses among them, its replies whose
    search after the opponent's move takes at most QUICK_MS of its board's
    time, the nodes it searched on its own turns and on the opponent's, and
    the guesses that were the reply its search expected (the first candidate).
    ``book``: an opening book's path (hard only, not with ``ponder_ms``).
    """

    def __init__(self, level, seed, movetime, slowness=DEFAULT_SLOWNESS, ponder_ms=None, book=None):
        self.level, self.seed, self.movetime, self.slowness = level, seed, movetime, slowness
        self.book = book  # dropped once it is refused
        self.ponder_nodes = None if ponder_ms is None else nodes_in(ponder_ms, slowness)
        self.pondering = None
        self.search = None  # the game's Search (its arena), made at its first move
        self.stats = [0] * STATS  # moves, pondered replies, guessed, quick, nodes, pondered nodes, guessed first

    def start(self, game):
        pass

    def played(self, game, mover, move):
        pass

    def seed_of(self, ply):
        return self.seed * 100003 + ply

    def searched_move(self, game):
        """The point the level's search plays in ``game`` (from the book within its plies, if A has one)."""
        seed = self.seed_of(game.ply)
        if self.book is None:
            return choose_move(game, self.level, seed=seed, movetime_ms=self.movetime, slowness=self.slowness)
        s = Search(game, self.level, seed, None, self.movetime, self.slowness)
        s.book = self.book
        move = s.run()
        if s.book_error:
            print("tanbo match: %s (A plays on without its book)" % s.book_error, file=sys.stderr)
            self.book = None
        return move

    def genmove(self, game):
        """The point to play, or None to resign."""
        if self.ponder_nodes is None:
            return self.searched_move(game)
        stats = self.stats
        stats[0] += 1
        p, self.pondering = self.pondering, None
        s = self.search
        if p is not None:
            k = p.hit(game)
            stats[1] += 1
            stats[2] += k >= 0
            stats[6] += k == 0
            before = s.iterations if k == len(p.found) else 0  # the candidate being searched goes on
            move = p.reply(game, movetime_ms=self.movetime)
            nodes = 0 if 0 <= k < len(p.found) else s.iterations - before
        else:
            if s is None:
                s = self.search = Search(game, self.level, self.seed_of(game.ply), movetime_ms=self.movetime,
                                         slowness=self.slowness)
            else:
                s.start(game, self.seed_of(game.ply), movetime_ms=self.movetime)
            move = ponder.finish(s)
            nodes = s.iterations
        if nodes * NODE_US * self.slowness <= QUICK_MS * 1000:  # board us
            stats[3] += 1
        stats[4] += nodes
        guess = ponder.expected(s)
        after = game.copy()
        after.play(move)
        if after.winner is None and guess >= 0 and after.is_legal(guess):
            p = self.pondering = ponder.Ponder(s, after, guess, self.seed_of(after.ply + 1))
            think(p, self.ponder_nodes)
            stats[5] += p.spent
        return move

    def close(self):
        pass


# Longest answer read from an engine (characters): ours are a few dozen.
MAX_ANSWER = 100000


def think(pondering, nodes):
    """Step ``pondering`` (a :class:`tanbo.ponder.Ponder`) until it has
    spent ``nodes`` (the opponent's time, as ``--ponder-ms`` models it),
    is done or its game is over; True once done. (Here: a board's app
    steps its pondering from its loop, and has no use for this code.)"""
    while not pondering.done and pondering.spent < nodes and pondering.step(nodes - pondering.spent):
        pass
    return pondering.done


class GtpPlayer:
    """An external GTP engine, one process per game.

    Every answer is awaited at most ``timeout`` seconds: a reader thread
    queues the engine's output lines, so a silent engine cannot block the
    match. Output is read as bytes and decoded leniently (an engine's bad
    bytes are its own error, reported, not a crash).
    """

    def __init__(self, argv, movetime, timeout):
        self.argv = argv
        self.name = shlex.join(argv)
        self.movetime = movetime
        self.timeout = timeout
        self.proc = None
        self.lines = None
        self.broken = False

    def send(self, line):
        """The engine's answer to ``line`` (without ``=``); EngineError on ``?``, exit, timeout or nonsense."""
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            self._fail("exited before %r" % line)
        deadline = time.monotonic() + self.timeout
        lines = []
        size = 0
        while True:
            try:
                out = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._fail("gave no answer to %r within %g s (see --timeout)" % (line, self.timeout))
            if out is None:
                self._fail("exited after %r" % line)
            size += len(out) + 1  # blank lines count: an engine spewing them must fail too
            if size > MAX_ANSWER:
                self._fail("answered more than %d characters to %r" % (MAX_ANSWER, line))
            if not out:
                if lines:
                    break
                continue  # blank lines before an answer
            if not lines and out[0] not in "=?":
                self._fail("answered %s to %r: not a GTP answer (= or ?)" % (quote(out), line))
            lines.append(out)
        text = "\n".join(lines)
        if text.startswith("?"):
            self._fail("refused %r: %s" % (line, text[1:].lstrip("0123456789").strip()))
        return text[1:].lstrip("0123456789").strip()

    def _fail(self, what):
        self.broken = True
        raise EngineError("GTP engine %r %s" % (self.name, what))

    def start(self, game):
        try:
            # Its own process group, ended whole at close: a child it left holding the pipes
            # would keep the match's output open.
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         start_new_session=os.name == "posix")
        except OSError as e:
            raise EngineError("cannot start GTP engine %r: %s" % (self.name, e.strerror or e))
        self.lines = queue.Queue()
        threading.Thread(target=_read_lines, args=(self.proc.stdout, self.lines), daemon=True).start()
        self.send("tanbo-variant " + game.variant.name)
        self.send("clear_board")
        if self.movetime is not None:
            self.send("tanbo-movetime %d" % self.movetime)

    def played(self, game, mover, move):
        """Tell the engine that player ``mover`` played ``move`` (a point, or None: resigned)."""
        point = "resign" if move is None else game.variant.format_point(move)
        self.send("play %s %s" % (player_name(mover), point))

    def genmove(self, game):
        """The engine's legal move, or None to resign; EngineError for anything else."""
        colour = player_name(game.to_move)
        answer = self.send("genmove " + colour)
        if answer.lower() == "resign":
            return None
        if answer.lower() == "pass":
            self._fail("passed for %s: there is no passing in Tanbo" % colour)
        try:
            point = game.variant.parse_point(answer)
        except ValueError as e:
            self._fail("answered %s to 'genmove %s': %s" % (quote(answer), colour, e))
        why = game.why_illegal(point)
        if why is not None:
            self._fail("played %s for %s, an illegal move: %s" % (quote(answer), colour, why))
        return point

    def close(self):
        """Stop the engine: ``quit``, then a kill if it is broken or still running after the timeout."""
        proc = self.proc
        if proc is None:
            return
        if not self.broken:
            try:
                self.send("quit")
            except EngineError:
                pass
        self.proc = None
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=0 if self.broken else self.timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        _end_group(proc.pid)
        # stdout is the reader thread's to close: closing it here could wait
        # on that thread's read, forever if a grandchild holds the pipe open.


def _end_group(pgid):
    """Kill what is left of an engine's process group (its children); nothing if none is."""
    if os.name != "posix":
        return
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:  # ProcessLookupError: the group is gone already
        pass


def _read_lines(stream, lines):
    """Queue ``stream``'s lines as text (bad bytes replaced), then None at EOF; close it."""
    with stream:
        while True:
            # Bounded reads: an engine writing without newlines gets its
            # output in pieces (and fails on the answer size), not our memory.
            raw = stream.readline(MAX_ANSWER)
            if not raw:
                break
            lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
    lines.put(None)


def make_player(spec, seed, movetime, timeout=None, ponder_ms=None, book=None):
    """The player of ``spec``; ``book``: an opening book's path for a hard level."""
    kind, value = parse_player(spec)
    if kind == "gtp":
        return GtpPlayer(value, movetime, DEFAULT_TIMEOUT if timeout is None else timeout)
    if kind == "uct":
        return uct.UctPlayer(value, seed)
    return LevelPlayer(value[0], seed, movetime, value[1], ponder_ms, book if value[0] == "hard" else None)


def seats_of_a(index, players):
    """The seats (player numbers) A holds in game ``index``: alternate by game
    (three players: a round of six, see the module docstring)."""
    if players == 3:
        k = index % 6
        alone = 1 + k % 3
        return (alone,) if k < 3 else tuple(s for s in (1, 2, 3) if s != alone)
    first = 1 if index % 2 == 0 else 2
    return tuple(range(first, players + 1, 2))


def round_of(variant):
    """The games of a round of seats of ``variant`` (2, or 6 with three players),
    which share an opening."""
    return 6 if get_variant(variant).players == 3 else 2


# Draws of an opening that leaves the game going, after which each draw is a
# ply shorter: every setup has one (no first ply removes a root).
OPENING_TRIES = 20


def max_opening(variant):
    """The longest ``--opening`` of ``variant``: half its points (a name)."""
    return get_variant(variant).size // 2


def opening(variant, plies, seed, pair):
    """The moves of the random opening of game pair ``pair`` (games ``2 * pair``
    and ``2 * pair + 1``): ``plies`` uniformly random legal moves from the
    setup, drawn by :class:`tanbo.rng.Rng` from ``seed`` and ``pair`` alone.
    An opening that would end the game is drawn again (at most
    ``OPENING_TRIES`` times, then one ply shorter each time).
    """
    rng = Rng(seed * 1000003 + pair * 7919 + 17)
    tries = 0
    while True:
        game = Game(variant)
        moves = []
        while len(moves) < plies and not game.over:
            legal = game.legal_moves()
            m = legal[rng.below(len(legal))]
            game.play(m)
            moves.append(m)
        if not game.over:
            return moves
        tries += 1
        if tries >= OPENING_TRIES:
            plies -= 1


def play_game(a, b, variant, index, seed, movetime, timeout=None, opening_plies=0, book=None, ponder_ms=None,
              ponder_only=None):
    """Play game ``index``; return ``(a_won, record_text, plies, seconds, forfeit, pondered, seat)``,
    ``seat`` the winner's (player number).

    ``opening_plies``: the game starts from :func:`opening` of its pair,
    told to every player as moves played (``plies`` counts them too).
    ``book``: A's opening book (if A is hard).

    ``seconds`` is ``[A's thinking time, A's moves, B's time, B's moves]``
    (wall clock, including a GTP engine's replies); ``pondered`` A's
    :attr:`LevelPlayer.stats` then B's (zeros for other players or without
    ``ponder_ms``; ``ponder_only``: "A" or "B", the side that ponders,
    else both). A GTP engine that fails
    during the game (no answer within ``timeout`` seconds, an illegal or
    unreadable move, a refused ``play``, an exit) forfeits it: its seats
    resign, and ``forfeit`` is the message saying why (else None). One that
    fails to start raises :class:`EngineError`.
    """
    game = Game(variant)
    a_seats = seats_of_a(index, game.players)
    seat_player = {}
    players = []
    for name, spec in (("A", a), ("B", b)):
        p = make_player(spec, seed + index * 7919 + (0 if name == "A" else 1), movetime, timeout,
                        ponder_ms if ponder_only in (None, name) else None, book if name == "A" else None)
        players.append(p)
        for k in game.pids:
            if (k in a_seats) == (name == "A"):
                seat_player[k] = p
    failed = None  # (player, EngineError)
    try:
        for p in players:
            p.start(game)
        if opening_plies:
            failed = _play_opening(game, opening(variant, opening_plies, seed, index // round_of(variant)), players)
            opening_plies = game.ply  # one shorter if the drawn ones all ended the game
        limit = game.variant.max_plies
        clock = [0.0, 0, 0.0, 0]
        while not game.over and failed is None:
            if game.ply > limit:
                raise RuntimeError("game %d passed %d plies: engine bug" % (index + 1, limit))
            mover = game.to_move
            t0 = time.perf_counter()
            try:
                move = seat_player[mover].genmove(game)
            except EngineError as e:
                failed = (seat_player[mover], e)
                break
            side = 0 if mover in a_seats else 2
            clock[side] += time.perf_counter() - t0
            clock[side + 1] += 1
            if move is None:
                game.resign(mover)
            else:
                game.play(move)
            if not game.over:
                for p in players:
                    if p is not seat_player[mover]:
                        try:
                            p.played(game, mover, move)
                        except EngineError as e:
                            failed = (p, e)
                            break
    except (KeyboardInterrupt, SystemExit):
        for p in players:  # the match stops: no goodbye, the engines are ended at once
            if isinstance(p, GtpPlayer):
                p.broken = True
        raise
    finally:
        for p in players:
            p.close()
    pondered = [n for p in players for n in (p.stats if isinstance(p, LevelPlayer) else [0] * STATS)]
    names = {k: (a if k in a_seats else b) for k in game.pids}
    headers = {"seats": " ".join("%s=%s" % (player_name(k), names[k]) for k in game.pids),
               "game": str(index + 1)}
    if opening_plies:
        headers["opening"] = "%d random plies" % opening_plies
    if failed is None:
        return game.winner in a_seats, game.record(**headers), game.ply, clock, None, pondered, game.winner
    a_lost = failed[0] is players[0]
    for k in game.pids:
        if (k in a_seats) == a_lost and game.winner is None and game.stones(k):
            game.resign(k)
    forfeit = "%s (%s) forfeits game %d: %s" % ("A" if a_lost else "B", a if a_lost else b, index + 1, failed[1])
    headers["forfeit"] = forfeit
    return not a_lost, game.record(**headers), game.ply, clock, forfeit, pondered, game.winner


def _play_opening(game, moves, players):
    """Play ``moves`` on ``game``, telling every player; ``(player, EngineError)`` if one refuses, else None."""
    for move in moves:
        mover = game.to_move
        game.play(move)
        for p in players:
            try:
                p.played(game, mover, move)
            except EngineError as e:
                return p, e
    return None


def _play_task(task):
    return (task[3],) + play_game(*task)


def wilson(wins, n, z=Z95):
    """The Wilson score interval ``(low, high)`` of a win rate of ``wins``/``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def elo(p):
    """The Elo difference that gives win rate ``p`` (infinite at 0 and 1)."""
    if p <= 1e-9:  # the interval's ends carry rounding noise
        return -math.inf
    if p >= 1 - 1e-9:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def summary(a, b, wins_a, games):
    """The closing report as text lines."""
    lo, hi = wilson(wins_a, games)
    rate = wins_a / games if games else 0.0

    def fmt(x):
        return ("%+.0f" % x) if math.isfinite(x) else ("+inf" if x > 0 else "-inf")

    return ["A = %s, B = %s, %d games" % (a, b, games),
            "wins: A %d, B %d" % (wins_a, games - wins_a),
            "A win rate: %.1f%% (95%% CI %.1f%%-%.1f%%)" % (100 * rate, 100 * lo, 100 * hi),
            "Elo A-B: %s (95%% CI %s to %s)" % (fmt(elo(rate)), fmt(elo(lo)), fmt(elo(hi)))]


def seat_lines(seat_wins, players):
    """The summary's line of wins by the winner's seat: ``seat_wins[k]`` is
    ``[A's wins, B's wins]`` from seat ``k``."""
    parts = []
    for k in range(1, players + 1):
        parts.append("%s: A %d B %d" % (player_name(k), seat_wins[k][0], seat_wins[k][1]))
    return ["wins by the winner's seat: " + ", ".join(parts)]


def check_book(path):
    """ValueError naming ``path`` and the line unless it is a whole opening book (see
    :func:`tanbo_tools.book.check_file`): refused before the first game, never met in one."""
    from .book import check_file
    check_file(path, "--book")


def ponder_lines(totals, ms):
    """The summary's lines on pondering: per side that pondered, its guesses and quick replies."""
    lines = []
    for side, (moves, replies, guessed, quick, nodes, pondered, first) in (("A", totals[:STATS]),
                                                                           ("B", totals[STATS:])):
        if replies:
            lines.append("pondering %d ms: %s guessed %d of %d replies (%.1f%%; the expected reply %d), "
                         "%d of %d moves (%.1f%%, 95%% CI %.1f-%.1f%%) took at most %d ms of its board's "
                         "search after the opponent's move"
                         % ((ms, side, guessed, replies, 100.0 * guessed / replies, first, quick, moves,
                             100.0 * quick / moves) + tuple(100.0 * x for x in wilson(quick, moves)) + (QUICK_MS,)))
            lines.append("pondering %d ms: %s searched %d nodes a move on its turn, %d on the opponent's"
                         % (ms, side, nodes // moves, pondered // moves))
    return lines


def check_args(args):
    """The match's settings from ``args``; ValueError quoting the first bad one."""
    a, b = check_player(args.a), check_player(args.b)
    variant = get_variant(args.variant).name
    if args.book is not None:
        check_book(args.book)
    if not 0 <= args.opening <= max_opening(variant):
        raise ValueError("--opening %d: expected 0-%d random plies on %s (at most half its points)"
                         % (args.opening, max_opening(variant), variant))
    if args.ponder_only is not None and args.ponder_ms is None:
        raise ValueError("--ponder-only %s without --ponder-ms: no side ponders" % args.ponder_only)
    if args.book is not None and args.ponder_ms is not None:
        raise ValueError("--book with --ponder-ms: a pondering player has no opening book")
    return a, b, variant


def run(args):
    try:
        a, b, variant = check_args(args)
    except ValueError as e:
        print("tanbo match: %s" % e, file=sys.stderr)
        return 2
    if args.record:
        try:
            files.make_folder(args.record)
        except files.FileProblem as e:
            print("tanbo match: %s" % e, file=sys.stderr)
            return 1
    tasks = ((a, b, variant, i, args.seed, args.movetime, args.timeout, args.opening, args.book, args.ponder_ms,
              args.ponder_only) for i in range(args.games))
    progress = Progress(args.games, "tanbo match", quiet=args.quiet)
    wins_a = done = plies = 0
    forfeits = [0, 0]
    clock = [0.0, 0, 0.0, 0]
    pondered = [0] * (2 * STATS)
    players = get_variant(variant).players
    seat_wins = [[0, 0] for _ in range(players + 1)]
    try:
        with workers.mapping(min(args.jobs, args.games), unordered=True) as imap:
            for index, a_won, record, n, spent, forfeit, counts, seat in imap(_play_task, tasks):
                done += 1
                if seat is not None:  # (a forfeit leaves several seats of the other side)
                    seat_wins[seat][0 if a_won else 1] += 1
                for i in range(4):
                    clock[i] += spent[i]
                for i in range(2 * STATS):
                    pondered[i] += counts[i]
                wins_a += a_won
                plies += n
                if forfeit:
                    forfeits[a_won] += 1  # A won: B forfeited
                    progress.say(forfeit)
                if args.record:
                    try:  # whole or not at all: a full disk leaves no empty record
                        files.write_whole(os.path.join(args.record, "game-%03d.txt" % (index + 1)), record,
                                          "the game record")
                    except files.FileProblem as e:
                        raise RuntimeError(str(e))
                progress.step("game %d: %s won; A %d B %d"
                              % (index + 1, "A" if a_won else "B", wins_a, done - wins_a))
    except RuntimeError as e:  # EngineError included: an engine that cannot start stops the match
        progress.close()
        print("tanbo match: %s" % e, file=sys.stderr)
        return 1
    except BaseException:  # an interrupt: the bar's line ended before the command's message
        progress.close()
        raise
    progress.done("%d games" % args.games)
    lines = ["variant %s, mean %.1f plies a game" % (variant, plies / args.games)]
    lines += summary(a, b, wins_a, args.games)
    if players > 2:
        lines += seat_lines(seat_wins, players)
    if forfeits[0] or forfeits[1]:
        lines.append("forfeits (included above): A %d, B %d" % tuple(forfeits))
    lines.append("time per move: A %.1f ms, B %.1f ms" % (1000 * clock[0] / max(clock[1], 1),
                                                       1000 * clock[2] / max(clock[3], 1)))
    if args.ponder_ms is not None:
        lines += ponder_lines(pondered, args.ponder_ms)
    print("\n".join(lines))
    return 0
