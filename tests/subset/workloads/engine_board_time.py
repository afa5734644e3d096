"""Engine workloads for ../shared/tools/board-time/board_time.py (issue 13.2).

    WORKLOAD=playout9 board_time.py --path core tests/subset/workloads/engine_board_time.py

Each unit is the same fixed work (the seeds do not depend on the unit's
number), so a unit's count divided by the games or plies in it (printed by
running this file with CPython: ``python3 ... --plies``) is exact:

- ``playout9``/``playout19``: ``load_state`` + ``random_playout`` of 10 (9x9)
  or 2 (19x19) games, seeds 0..;
- ``play9``: 4 whole 9x9 games (seeds 0-3, their moves found before the
  units) replayed with ``play()`` (undo records kept), each then undone to
  the start: per ply = play + undo;
- ``search9``: the same plies the way the search plays them
  (``play_unchecked`` + ``undo``);
- ``new9``: 10 x ``Game("9x9")``.
"""

import os
import sys

from tanbo import Game, Rng

WHAT = os.getenv("WORKLOAD") or "playout9"
GAMES = {"playout9": 10, "playout19": 2, "play9": 4, "search9": 4, "new9": 10}[WHAT]


def playouts(variant):
    base = Game(variant)
    scratch = base.copy()
    plies = 0
    for seed in range(GAMES):
        scratch.load_state(base)
        scratch.random_playout(Rng(seed))
        plies += scratch.ply
    return plies


def seeded_games():
    """The moves of GAMES whole 9x9 games, seeds 0.. (found once, outside the units)."""
    games = []
    g = Game("9x9")
    for seed in range(GAMES):
        rng = Rng(seed)
        while g.winner is None:
            g.play(g.legal_move_at(rng.below(g.legal_count())))
        games.append(g.moves())
        while g.ply:
            g.undo()
    return games


def play_undo(g, fast):
    plies = 0
    for moves in GAMES_MOVES:
        for p in moves:
            if not fast:
                g.play(p)
            elif hasattr(g, "play_unchecked"):
                g.play_unchecked(p)
            else:  # the engine before the public search interface
                g._push_ply(p)
                g._place(p, True)
        for p in moves:
            g.undo()
        plies += len(moves)
    return plies


def unit(g):
    if WHAT == "playout9":
        return playouts("9x9")
    if WHAT == "playout19":
        return playouts("19x19")
    if WHAT == "new9":
        for _ in range(GAMES):
            Game("9x9")
        return 0
    return play_undo(g, WHAT == "search9")


g = Game("9x9")
GAMES_MOVES = seeded_games() if WHAT in ("play9", "search9") else ()
if "--plies" in sys.argv:
    print(WHAT, "games/unit", GAMES, "plies/unit", unit(g))
else:
    for _ in range(int(os.getenv("BOARD_TIME_N"))):
        unit(g)
