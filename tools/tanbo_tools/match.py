"""``tanbo match A B``: play two players against each other and judge the result.

A player is an AI level (``random``, ``easy``, ``medium``, ``hard``),
``uct:N`` (plain UCT with N random playouts a move, :mod:`tanbo_tools.uct`) or
``gtp:COMMAND``, an external engine started with ``shlex.split(COMMAND)``
that speaks GTP (``tanbo-variant``, ``clear_board``, ``play``, ``genmove``,
``tanbo-movetime``, ``quit``). Colours alternate: in even games A sits in
the odd seats (Black; players 1 and 3 in ``4p``), in odd games B does.

The summary gives each side's wins, A's win rate with a 95% Wilson score
interval, and the Elo difference (A minus B) implied by that rate and by
the interval's ends. There are no draws in Tanbo.
"""

import math
import os
import shlex
import subprocess
import sys
import time

from tanbo import Game, get_variant, player_name
from tanbo.ai import LEVELS, choose_move

from . import uct

Z95 = 1.959964  # two-sided 95% normal quantile


def add_arguments(parser):
    parser.add_argument("a", metavar="A", help="level (%s), uct:PLAYOUTS or gtp:COMMAND" % ", ".join(LEVELS))
    parser.add_argument("b", metavar="B", help="level, uct:PLAYOUTS or gtp:COMMAND")
    parser.add_argument("--variant", default="9x9", help="variant (default 9x9)")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="base seed for the AI levels (default 0)")
    parser.add_argument("--movetime", type=int, default=None, metavar="MS",
                        help="wall-time cap per move in milliseconds (default: node budgets only)")
    parser.add_argument("--record", metavar="DIR", help="save every game record in DIR")
    parser.add_argument("--jobs", type=int, default=1, help="games in parallel (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def check_player(spec):
    """``spec`` unchanged if it names a level or a GTP command; ValueError quoting it otherwise."""
    if spec in LEVELS:
        return spec
    if spec.startswith("gtp:") and shlex.split(spec[4:]):
        return spec
    if spec.startswith(uct.PREFIX):
        uct.parse_spec(spec)
        return spec
    raise ValueError("%r: not a level (%s), uct:PLAYOUTS nor gtp:COMMAND" % (spec, ", ".join(LEVELS)))


class LevelPlayer:
    """An AI level of :mod:`tanbo.ai`; seeds each move from the game, seat and ply."""

    def __init__(self, level, seed, movetime):
        self.level, self.seed, self.movetime = level, seed, movetime

    def start(self, game):
        pass

    def played(self, game, mover, move):
        pass

    def genmove(self, game):
        """The point to play, or None to resign."""
        return choose_move(game, self.level, seed=self.seed * 100003 + game.ply, movetime_ms=self.movetime)

    def close(self):
        pass


class GtpPlayer:
    """An external GTP engine, one process per game."""

    def __init__(self, command, movetime):
        self.argv = shlex.split(command)
        self.movetime = movetime
        self.proc = None

    def send(self, line):
        """The engine's answer to ``line`` (without ``=``); RuntimeError on ``?`` or exit."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if not out:
                raise RuntimeError("GTP engine %r exited after %r" % (" ".join(self.argv), line))
            out = out.rstrip("\r\n")
            if not out and lines:
                break
            if out:
                lines.append(out)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError("GTP engine %r refused %r: %s" % (" ".join(self.argv), line, text[1:].strip()))
        return text.lstrip("=0123456789").strip()

    def start(self, game):
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("tanbo-variant " + game.variant.name)
        self.send("clear_board")
        if self.movetime is not None:
            self.send("tanbo-movetime %d" % self.movetime)

    def played(self, game, mover, move):
        """Tell the engine that player ``mover`` played ``move`` (a point, or None: resigned)."""
        if move is None:
            raise RuntimeError("an opponent of GTP engine %r resigned: GTP has no command for it"
                               % " ".join(self.argv))
        self.send("play %s %s" % (player_name(mover, game.players), game.variant.format_point(move)))

    def genmove(self, game):
        answer = self.send("genmove " + player_name(game.to_move, game.players))
        if answer.lower() == "resign":
            return None
        return game.variant.parse_point(answer)

    def close(self):
        if self.proc is not None:
            try:
                self.send("quit")
            except (RuntimeError, OSError):
                pass
            self.proc.wait(timeout=10)
            self.proc = None


def make_player(spec, seed, movetime):
    if spec.startswith("gtp:"):
        return GtpPlayer(spec[4:], movetime)
    if spec.startswith(uct.PREFIX):
        return uct.UctPlayer(spec, seed)
    return LevelPlayer(spec, seed, movetime)


def seats_of_a(index, players):
    """The seats (player numbers) A holds in game ``index``: alternate by game."""
    first = 1 if index % 2 == 0 else 2
    return tuple(range(first, players + 1, 2))


def play_game(a, b, variant, index, seed, movetime):
    """Play game ``index``; return ``(a_won, record_text, plies, seconds)``.

    ``seconds`` is ``[A's thinking time, A's moves, B's time, B's moves]``
    (wall clock, including a GTP engine's replies).
    """
    game = Game(variant)
    a_seats = seats_of_a(index, game.players)
    seat_player = {}
    players = []
    for name, spec in (("A", a), ("B", b)):
        p = make_player(spec, seed + index * 7919 + (0 if name == "A" else 1), movetime)
        players.append(p)
        for k in game.pids:
            if (k in a_seats) == (name == "A"):
                seat_player[k] = p
    try:
        for p in players:
            p.start(game)
        limit = game.variant.max_plies
        clock = [0.0, 0, 0.0, 0]
        while not game.over:
            if game.ply > limit:
                raise RuntimeError("game %d passed %d plies: engine bug" % (index + 1, limit))
            mover = game.to_move
            t0 = time.perf_counter()
            move = seat_player[mover].genmove(game)
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
                        p.played(game, mover, move)
    finally:
        for p in players:
            p.close()
    names = {k: (a if k in a_seats else b) for k in game.pids}
    headers = {"seats": " ".join("%s=%s" % (player_name(k, game.players), names[k]) for k in game.pids),
               "game": str(index + 1)}
    return game.winner in a_seats, game.record(**headers), game.ply, clock


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


def _bar(done, total, wins_a, width=30):
    filled = width * done // total if total else width
    return "\r[%s%s] %d/%d  A %d B %d" % ("#" * filled, "." * (width - filled), done, total, wins_a, done - wins_a)


def run(args):
    try:
        a, b = check_player(args.a), check_player(args.b)
        variant = get_variant(args.variant).name
        if args.games < 1:
            raise ValueError("--games %d: need at least one game" % args.games)
        if args.jobs < 1:
            raise ValueError("--jobs %d: need at least one" % args.jobs)
        if args.movetime is not None and args.movetime < 1:
            raise ValueError("--movetime %d: must be at least 1 ms" % args.movetime)
    except ValueError as e:
        print("tanbo match: %s" % e, file=sys.stderr)
        return 2
    if args.record:
        os.makedirs(args.record, exist_ok=True)
    tasks = [(a, b, variant, i, args.seed, args.movetime) for i in range(args.games)]
    show = not args.quiet and sys.stderr.isatty()
    wins_a = done = plies = 0
    clock = [0.0, 0, 0.0, 0]
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap_unordered(_play_task, tasks)
    else:
        pool = None
        results = (_play_task(t) for t in tasks)
    try:
        for index, a_won, record, n, spent in results:
            done += 1
            for i in range(4):
                clock[i] += spent[i]
            wins_a += a_won
            plies += n
            if args.record:
                path = os.path.join(args.record, "game-%03d.txt" % (index + 1))
                with open(path, "w") as f:
                    f.write(record)
            if show:
                sys.stderr.write(_bar(done, args.games, wins_a))
                sys.stderr.flush()
    except RuntimeError as e:
        print("\ntanbo match: %s" % e, file=sys.stderr)
        return 1
    finally:
        if pool is not None:
            pool.terminate()
    if show:
        sys.stderr.write("\n")
    lines = ["variant %s, mean %.1f plies a game" % (variant, plies / args.games)]
    lines += summary(a, b, wins_a, args.games)
    lines.append("time per move: A %.1f ms, B %.1f ms" % (1000 * clock[0] / max(clock[1], 1),
                                                       1000 * clock[2] / max(clock[3], 1)))
    print("\n".join(lines))
    return 0
