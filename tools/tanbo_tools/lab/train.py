"""``tanbo train``: fit the evaluation's weights (:mod:`tanbo.weights`) to game outcomes.

Texel tuning: play varied games, label every position after the opening by
whether its side to move went on to win, and fit the weights by logistic
regression of that label on the evaluation's terms, so that
``sigmoid(evaluation / K)`` predicts the outcome. The evaluation is linear
in its weights, so its terms are the features (each summed over live
roots, own roots plus, the opponent's minus; the side to move's view):

- ``space1`` .. ``space11``: roots with that root space (11: 11 or more);
  their weights are ``ROOT + SPACE[s]`` (ROOT stays 1,000: a live root
  always has space, so the two are one weight);
- ``room``: points of root space (``ROOM``);
- ``hanging``: minus the roots with space 1 whose owner is not to move
  (``HANGING``);
- ``reach1-2`` .. ``reach21-30``: how many of a root's reached points
  (:meth:`tanbo.ai.Search.reach`) fall in each band; the weights are
  ``REACH``'s increments a point in that band (cap 30: the table grows);
- ``tempo``: 1 (the side to move's edge; fitted, not shipped: every leaf of
  a search iteration has the same side to move).

``K`` is first fitted with the hand-set weights held (one number, golden
section), then the weights by Newton's method (a handful of iterations:
21 weights), with a Gaussian prior of ``--sigma`` points around the
hand-set weights of issue 13, so that a weight the games say little about
stays where it was. Every fifth game is held out and its log loss printed
for the hand-set and the fitted weights. ``--fit`` frees some groups of
weights only (the others keep the hand-set values), ``--ship`` writes some
groups of the fit only (``--ship reach``: all fitted together, the reach
written with the hand-set rest); ``--data FILE`` keeps
the labelled positions, so a refit of the same games does not replay them.

Labels (``--label``): ``outcome`` (1 if the side to move went on to win)
or ``playouts:N``, the share of N uniformly random playouts from the
position (the engine's ``random_playout``, as the UCT yardstick runs
them) that its side to move wins: what the UCT's own machinery sees of
the position, a soft label in [0, 1] fitted with the same log loss.

Games: a random opening of 2-8 plies, then two players drawn from
``PLAYERS`` (hard with a PicoSystem's budget and with less, medium, a
small UCT), or one of ``--players``' pairings ``A/B`` (colours drawn). All of them use the hand-set weights, so a run gives the same
table whatever weights file it replaces. Seeded and deterministic
(``--jobs`` changes the speed only). 2-player variants only.

The table is written as integers to ``--out`` (default: the engine's
``tanbo/weights.py``) with the command line and seed in its header.
"""

import math
import os
import sys
import time
from contextlib import contextmanager

from tanbo import Game, Rng, get_variant, ai
from tanbo.position import quote

import tanbo_files as files

from .. import arg_checks, workers
from . import match, train_data

# Opponents drawn for each side of a game (uniformly; repeats weight them).
PLAYERS = ("hard", "hard", "hard@6", "hard@12", "medium", "uct:400")
OPENING = (2, 8)  # random plies before the players take over, inclusive
HOLDOUT = 5  # every HOLDOUT-th game is held out of the fit
MAX_GAMES = 100000
MAX_PLAYOUTS = 100000  # a position's --label playouts:N
MAX_SEED = 10 ** 9
# --sigma's range, points: below, the prior's 1/sigma^2 swamps any data (hold a group with --fit
# instead) and soon overflows; above, it is no prior at all.
SIGMA = (0.1, 1e6)

# The hand-set weights of issue 13 (084f444): the games' evaluation and the
# fit's prior.
BASE = {
    "ROOT": 1000,
    "SPACE": (0, 0, 140, 240, 310, 360, 400, 430, 455, 475, 490, 500),
    "ROOM": 30,
    "HANGING": 450,
    "REACH": tuple(sum(80 if i <= 4 else (40 if i <= 10 else 20) for i in range(1, t + 1))
                   for t in range(21)),
}
SPACE_CAP = len(BASE["SPACE"]) - 1
# REACH bands (first, last point): the fit gives one increment a point per band.
REACH_BANDS = ((1, 2), (3, 4), (5, 7), (8, 10), (11, 15), (16, 20), (21, 30))
NAMES = (["space%d" % s for s in range(1, SPACE_CAP + 1)] + ["room", "hanging"]
         + ["reach%d-%d" % band for band in REACH_BANDS] + ["tempo"])
I_ROOM = SPACE_CAP
I_HANGING = SPACE_CAP + 1
I_REACH = SPACE_CAP + 2
I_TEMPO = len(NAMES) - 1
# --fit's groups: the parameters (indices into NAMES) each one frees.
GROUPS = {"space": tuple(range(SPACE_CAP)), "room": (I_ROOM,), "hanging": (I_HANGING,),
          "reach": tuple(range(I_REACH, I_TEMPO))}


def add_arguments(parser):
    parser.add_argument("--games", type=arg_checks.whole(1, MAX_GAMES, "games"), default=1600,
                        help="games to play (default 1600)")
    parser.add_argument("--seed", type=arg_checks.whole(0, MAX_SEED), default=0, help="seed of the games (default 0)")
    parser.add_argument("--variant", default="9x9", help="2-player variant (default 9x9)")
    parser.add_argument("--sigma", type=float, default=300.0,
                        help="prior's standard deviation around the hand-set weights, in points (default 300; "
                             "%s-%d)" % SIGMA)
    parser.add_argument("--jobs", type=arg_checks.whole(1, 64, "processes"), default=1,
                        help="games in parallel (default 1, at most 64)")
    parser.add_argument("--every", type=arg_checks.whole(1, MAX_GAMES, "games"), default=50,
                        help="a progress line every N games (default 50)")
    parser.add_argument("--fit", default=",".join(GROUPS), metavar="GROUPS",
                        help="weights fitted, the others held at the hand-set values: a comma list of %s "
                             "(default all)" % ", ".join(GROUPS))
    parser.add_argument("--ship", default=",".join(GROUPS), metavar="GROUPS",
                        help="fitted weights written, the others written with the hand-set values "
                             "(same groups as --fit; default all)")
    parser.add_argument("--data", type=arg_checks.output_file, default=None, metavar="FILE",
                        help="keep the labelled positions in FILE (JSON lines) and read them back when it "
                             "holds the same games (--variant, --seed, --games, --label, --players): a refit "
                             "without replaying; a file this command did not write is never written over")
    parser.add_argument("--label", default="outcome", metavar="LABEL",
                        help="a position's label: outcome (the side to move won, 0/1) or playouts:N (the share "
                             "of N random playouts from it the side to move wins; N 1-%d)" % MAX_PLAYOUTS)
    parser.add_argument("--players", default=None, metavar="PAIRS",
                        help="the games' players: a comma list of pairings A/B (tanbo match's players), one "
                             "drawn a game, colours drawn (default: each seat from %s)" % ", ".join(PLAYERS))
    parser.add_argument("--out", type=arg_checks.output_file, default=None,
                        help="weights module to write (default: the engine's tanbo/weights.py)")


# -- the games ----------------------------------------------------------------------

@contextmanager
def base_weights():
    """tanbo.ai's evaluation set to :data:`BASE` for the block (put back after)."""
    saved = {k: getattr(ai, k) for k in BASE}
    for k, v in BASE.items():
        setattr(ai, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(ai, k, v)


def features(game):
    """The evaluation's terms (:data:`NAMES`) for ``game``'s side to move, as (index, value) pairs."""
    me = game.to_move
    s_ = ai.Search(game, "hard")
    g = s_.game
    reach = s_.with_reach  # (hard values reach on small boards only)
    if reach:
        s_.label_reach(g)
    x = {I_TEMPO: 1}
    hang = 0
    for r in range(len(g.alive)):
        if not g.alive[r]:
            continue
        w = 1 if g.root_player[r] == me else -1
        s = g.space[r]
        j = min(s, SPACE_CAP) - 1
        x[j] = x.get(j, 0) + w
        x[I_ROOM] = x.get(I_ROOM, 0) + w * s
        if s == 1 and g.root_player[r] != me:
            hang -= w  # its term loses weight x HANGING
        t = s_.work[3][r] if reach else 0
        for b, (lo, hi) in enumerate(REACH_BANDS):
            n = min(t, hi) - lo + 1
            if n > 0:
                x[I_REACH + b] = x.get(I_REACH + b, 0) + w * n
    if hang:
        x[I_HANGING] = hang
    return sorted((j, v) for j, v in x.items() if v)


def _cut(text, limit=40):
    """An option's value for a message: a long one cut (the message stays one readable line)."""
    return text if len(text) <= limit else text[:limit] + "..."


def parse_label(text):
    """``--label``'s playouts a position: 0 for ``outcome``, N for ``playouts:N``; ValueError naming ``text``."""
    if text == "outcome":
        return 0
    n = text[len("playouts:"):] if text.startswith("playouts:") else ""
    # ASCII digits, few enough for int() (which reads other scripts' digits and refuses 5,000 of them)
    if not (n.isascii() and n.isdigit() and len(n) <= len(str(MAX_PLAYOUTS)) and 1 <= int(n) <= MAX_PLAYOUTS):
        raise ValueError("--label %s: expected outcome or playouts:N with N from 1 to %d"
                         % (_cut(text), MAX_PLAYOUTS))
    return int(n)


def parse_players(text):
    """``--players``' pairings as ((A, B), ...) (None: :data:`PLAYERS`); ValueError naming the bad one."""
    if text is None:
        return None
    pairs = []
    for item in text.split(","):
        pair = tuple(item.split("/"))
        if len(pair) != 2:
            raise ValueError("--players %s: %s is not a pairing A/B" % (_cut(text), quote(item)))
        for spec in pair:
            try:
                kind, _ = match.parse_player(spec)
            except ValueError:
                kind = None
            if kind is None or kind == "gtp":
                raise ValueError("--players %s: %s is not a built-in player (hard, medium, uct:N, ...)"
                                 % (_cut(text), quote(spec)))
        pairs.append(pair)
    return tuple(pairs)


def playout_value(game, playouts, rng):
    """The share of ``playouts`` random playouts from ``game`` (not mutated) won by its side to move."""
    me, sim, won = game.to_move, game.copy(), 0
    for _ in range(playouts):
        sim.load_state(game)
        if sim.random_playout(rng) == me:
            won += 1
    return won / playouts


def play_one(task):
    """Game ``index`` of a run: (index, [(features, label)] for its positions after the opening).

    ``task``: (variant, seed, index[, playouts a label (0: the outcome)[, pairings]]).
    """
    variant, seed, index = task[:3]
    playouts = task[3] if len(task) > 3 else 0
    pairs = task[4] if len(task) > 4 else None
    rng = Rng(seed * 1000003 + index)
    game = Game(variant)
    for _ in range(OPENING[0] + rng.below(OPENING[1] - OPENING[0] + 1)):
        moves = game.legal_moves()
        game.play(moves[rng.below(len(moves))])
        if game.winner is not None:
            return index, []
    if pairs is None:
        specs = [PLAYERS[rng.below(len(PLAYERS))] for _ in (1, 2)]
    else:
        specs = list(pairs[rng.below(len(pairs))])
        if rng.below(2):
            specs.reverse()
    seats = {c: match.make_player(specs[c - 1], seed * 7919 + index * 2 + c, None) for c in (1, 2)}
    positions = []
    # the playouts' own stream, so a label's N leaves the games' moves alone
    labeller = Rng(seed * 1000003 + index + 0x5EED0000)
    with base_weights():
        while game.winner is None:
            label = playout_value(game, playouts, labeller) if playouts else game.to_move
            positions.append((features(game), label))
            game.play(seats[game.to_move].genmove(game))
    if playouts:
        return index, positions
    return index, [(x, 1 if mover == game.winner else 0) for x, mover in positions]


# -- the fit --------------------------------------------------------------------------

def base_params():
    """:data:`BASE` as the fit's parameter vector (points, as :data:`NAMES`)."""
    theta = [float(BASE["ROOT"] + BASE["SPACE"][s]) for s in range(1, SPACE_CAP + 1)]
    theta += [float(BASE["ROOM"]), float(BASE["HANGING"])]
    reach = BASE["REACH"]
    for lo, hi in REACH_BANDS:
        theta.append(float(reach[lo] - reach[lo - 1]) if hi < len(reach) else 0.0)
    theta.append(0.0)
    return theta


def _sigmoid(z):
    if z < -40:
        return 0.0
    if z > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))


def log_loss(data, theta, k):
    """Mean log loss of ``sigmoid(theta . x / k)`` against the labels of ``data``."""
    total = 0.0
    for x, y in data:
        p = _sigmoid(sum(theta[j] * v for j, v in x) / k)
        p = min(max(p, 1e-12), 1 - 1e-12)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)  # y may be a share (playouts)
    return total / max(1, len(data))


def fit_k(data, theta):
    """The scale ``K`` (points) that best fits ``theta`` to ``data``: golden section on log K."""
    lo, hi = math.log(10.0), math.log(100000.0)
    r = (math.sqrt(5) - 1) / 2
    a, b = hi - r * (hi - lo), lo + r * (hi - lo)
    fa, fb = log_loss(data, theta, math.exp(a)), log_loss(data, theta, math.exp(b))
    for _ in range(40):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - r * (hi - lo)
            fa = log_loss(data, theta, math.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + r * (hi - lo)
            fb = log_loss(data, theta, math.exp(b))
    return math.exp((lo + hi) / 2)


def _solve(h, g):
    """``x`` with ``h x = g`` (Gaussian elimination with partial pivoting; ``h`` is copied)."""
    n = len(g)
    a = [row[:] + [g[i]] for i, row in enumerate(h)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[p] = a[p], a[c]
        for i in range(c + 1, n):
            f = a[i][c] / a[c][c]
            if f:
                for j in range(c, n + 1):
                    a[i][j] -= f * a[c][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (a[i][n] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def fit(data, theta0, k, sigma, free=None, iterations=12):
    """The parameters minimising the log loss on ``data`` plus the prior ``N(theta0, sigma^2)`` (Newton).

    Only the indices in ``free`` move (default all); the others keep ``theta0``'s values.
    """
    n = len(theta0)
    held = [] if free is None else [j for j in range(n) if j not in free]
    theta = list(theta0)
    prior = 1.0 / (sigma * sigma)
    for _ in range(iterations):
        grad = [(theta[j] - theta0[j]) * prior for j in range(n)]
        hess = [[prior if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in data:
            p = _sigmoid(sum(theta[j] * v for j, v in x) / k)
            e = (p - y) / k
            w = p * (1 - p) / (k * k)
            for a, (i, vi) in enumerate(x):
                grad[i] += e * vi
                row = hess[i]
                wv = w * vi
                for j, vj in x[a:]:
                    row[j] += wv * vj
        for i in range(n):  # the pairs were added above the diagonal only (x is sorted)
            for j in range(i):
                hess[i][j] = hess[j][i]
        for j in held:  # a zero step: its row says so
            grad[j] = 0.0
            hess[j] = [1.0 if i == j else 0.0 for i in range(n)]
        step = _solve(hess, grad)
        theta = [theta[j] - step[j] for j in range(n)]
        if max(abs(s) for s in step) < 0.01:
            break
    return theta


# -- the table ------------------------------------------------------------------------

def table(theta):
    """The fitted parameters as the weights module's integers: a dict like :data:`BASE`."""
    root = BASE["ROOT"]
    space = (0,) + tuple(int(round(theta[s - 1])) - root for s in range(1, SPACE_CAP + 1))
    reach = [0]
    for b, (lo, hi) in enumerate(REACH_BANDS):
        for _ in range(lo, hi + 1):
            reach.append(reach[-1] + theta[I_REACH + b])
    return {"ROOT": root, "SPACE": space, "ROOM": int(round(theta[I_ROOM])),
            "HANGING": int(round(theta[I_HANGING])), "REACH": tuple(int(round(v)) for v in reach)}


def module_text(weights, made_by):
    """The text of a weights module holding ``weights`` (see :func:`table`), ``made_by`` its header lines."""
    with open(os.path.join(os.path.dirname(ai.__file__), "weights.py")) as f:
        docstring = f.read().split('"""')[1]
    lines = ['"""%s"""' % docstring, ""]
    lines += ["# " + line for line in made_by]
    for name in ("ROOT", "SPACE", "ROOM", "HANGING", "REACH"):
        lines.append("%s = %r" % (name, weights[name]))
    return "\n".join(lines) + "\n"


# -- the command ----------------------------------------------------------------------

def check_args(args):
    """ValueError naming the first bad option of ``args``."""
    if not SIGMA[0] <= args.sigma <= SIGMA[1]:  # false for nan
        raise ValueError("--sigma %g: expected %s to %d points" % (args.sigma, SIGMA[0], SIGMA[1]))
    for option, value in (("--fit", args.fit), ("--ship", args.ship)):
        unknown = [g for g in value.split(",") if g not in GROUPS]
        if unknown:
            raise ValueError("%s %s: unknown group %s (known: %s)" % (option, value, unknown[0], ", ".join(GROUPS)))
    if get_variant(args.variant).players != 2:
        raise ValueError("--variant %s: training takes 2-player variants only" % args.variant)
    parse_label(args.label)
    parse_players(args.players)
    if args.data and os.path.realpath(args.data) == os.path.realpath(out_path(args)):
        raise ValueError("--data %s is the weights module written: give two files" % args.data)


def out_path(args):
    """The weights module a run writes: ``--out``, else the engine's ``tanbo/weights.py``."""
    return args.out or os.path.join(os.path.dirname(ai.__file__), "weights.py")


def generate(args, say):
    """Play ``args.games`` games; (training, held-out) lists of (features, label), in game order."""
    playouts, pairs = parse_label(args.label), parse_players(args.players)
    tasks = [(args.variant, args.seed, i, playouts, pairs) for i in range(args.games)]
    train, held = [], []
    start = time.time()
    with workers.mapping(min(args.jobs, args.games)) as imap:
        for done, (index, positions) in enumerate(imap(play_one, tasks), 1):
            (held if index % HOLDOUT == HOLDOUT - 1 else train).extend(positions)
            if done % args.every == 0 or done == args.games:
                spent = time.time() - start
                say("train: %d/%d games, %d positions, %.0f s, ETA %.0f s"
                    % (done, args.games, len(train) + len(held), spent, spent / done * (args.games - done)))
    return train, held


def load_or_generate(args, say):
    """(training, held-out, CPU seconds the games took): :func:`generate`'s lists, read from
    ``args.data`` when it holds this run's games (with the CPU time they took then), else played
    (and written there). train_data.BadData for a file that is not this command's or is
    damaged; files.FileProblem when it cannot be written."""
    key = {"variant": args.variant, "seed": args.seed, "games": args.games, "label": args.label,
           "players": args.players}
    if args.data:
        kept = train_data.read(args.data, key, len(NAMES))
        if kept is not None:
            say("train: %d positions read from %s" % (len(kept[0]) + len(kept[1]), args.data))
            return kept
        if os.path.lexists(args.data):
            say("train: %s holds other games: playing them again" % args.data)
    cpu0 = _cpu_seconds()
    train, held = generate(args, say)
    cpu = _cpu_seconds() - cpu0
    if args.data:
        train_data.write(args.data, key, train, held, cpu)
    return train, held, cpu


def _cpu_seconds():
    """CPU seconds of this process and its finished workers (a loaded machine's wall time says little)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def run(args, argv=None):
    """Play, fit, write the weights module; 2 for a bad option."""
    try:
        check_args(args)
        get_variant(args.variant)
    except (ValueError, KeyError) as e:
        print("tanbo train: %s" % (e.args[0] if e.args else e), file=sys.stderr)
        return 2

    def say(line):
        print(line, file=sys.stderr, flush=True)

    out = out_path(args)
    start = time.time()
    try:
        train, held, games_cpu = load_or_generate(args, say)
    except (train_data.BadData, files.FileProblem) as e:
        print("tanbo train: %s" % e, file=sys.stderr)
        return 1
    cpu1 = _cpu_seconds()
    if not train:
        print("tanbo train: no positions to fit (every game ended in its opening)", file=sys.stderr)
        return 1
    theta0 = base_params()
    k = fit_k(train, theta0)
    say("train: K = %.0f points, fitting %d weights to %d positions" % (k, len(theta0), len(train)))
    free = sorted(set(j for g in args.fit.split(",") for j in GROUPS[g]) | {I_TEMPO})
    theta = fit(train, theta0, k, args.sigma, free)
    before, after = log_loss(held, theta0, k), log_loss(held, theta, k)
    say("train: held-out log loss %.4f (hand-set) -> %.4f (fitted), %d positions" % (before, after, len(held)))
    say("train: " + ", ".join("%s %.0f" % (name, v) for name, v in zip(NAMES, theta)))
    command = " ".join(["tanbo", "train"] + list(sys.argv[2:] if argv is None else argv))
    made_by = ["made by: %s" % command,
               "seed %d, %d games of %s (%d positions, %d held out), %.2f CPU-hours (games %.2f, fit %.2f), "
               "%.2f hours wall" % (args.seed, args.games, args.variant, len(train), len(held),
                                    (games_cpu + _cpu_seconds() - cpu1) / 3600, games_cpu / 3600,
                                    (_cpu_seconds() - cpu1) / 3600, (time.time() - start) / 3600),
               "K = %.0f; held-out log loss %.4f (hand-set) -> %.4f; tempo %.0f (not used)"
               % (k, before, after, theta[I_TEMPO])]
    shipped = set(j for g in args.ship.split(",") for j in GROUPS[g])
    text = module_text(table([theta[j] if j in shipped else theta0[j] for j in range(len(theta))]), made_by)
    try:
        files.write_whole(out, text, "the weights module")
    except files.FileProblem as e:
        print("tanbo train: %s" % e, file=sys.stderr)
        return 1
    say("train: wrote %s" % out)
    return 0
