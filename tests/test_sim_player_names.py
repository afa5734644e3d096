"""Every player named as the game's own screen names it (Black, White, Red, Blue, Yellow,
Grey: tanbo.variants.player_name), in every variant and seat: the result screen, the
Games list, Review's Send (the record), ``tanbo analyse`` and the text protocol.

A library holding a Hexbo game of 3 or 6 won by player 3 to 6 once made Games fail
to open at all ("Error: saved.", the title, every time)."""

import contextlib
import io
import os
import subprocess
import sys

import pytest

from tanbo import VARIANTS, Game
from tanbo.record import SEND_BEGIN, SEND_END
from tanbo.rng import Rng
from tanbo_sim.simulator import Simulator

from test_sim_games import screen_is

NAMES = ("Black", "White", "Red", "Blue", "Yellow", "Grey")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def game_variants():
    from tanbo_sim.simulator import DEVICE_DIR
    if DEVICE_DIR not in sys.path:
        sys.path.insert(0, DEVICE_DIR)
    from app.store.settings import GAME_VARIANTS
    return GAME_VARIANTS


def won_by(sim, variant, seat, rng):
    """From the title: a game of ``variant`` against the computer at random (the
    person Black), each player a move, then every player but ``seat`` resigns; the
    app sees the end (the result screen). The game."""
    s = sim.app.settings
    s.variant, s.opponent, s.level, s.seat = game_variants().index(variant), 0, 0, 1
    sim.run_keys("A,DOWN*4,A")  # New game, Start
    g = sim.app.screen.game
    assert g.variant.name == variant
    for _ in range(g.players):
        ms = g.legal_moves()
        g.play(ms[rng.below(len(ms))])
    for p in range(1, g.players + 1):
        if p != seat and g.winner is None:
            g.resign(p)
    assert g.winner == seat
    sim.frames(300)
    return g


def sent(sim, keys):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        sim.run_keys(keys)
    text = out.getvalue()
    assert text.count(SEND_BEGIN) == 1 and SEND_END in text
    return text.split(SEND_BEGIN + "\n")[1].split(SEND_END)[0]


@pytest.mark.parametrize("variant", game_variants())
@pytest.mark.parametrize("board", ("pybadge", "pygamer", "picosystem"))
def test_every_seats_win_is_named_on_the_result_the_games_list_and_the_record_sent(board, variant, tmp_path):
    sim = Simulator(board, nvm_path=str(tmp_path / "nvm.bin"))
    try:
        rng = Rng(len(variant))
        players = Game(variant).players
        plies = []
        for seat in range(1, players + 1):
            g = won_by(sim, variant, seat, rng)
            plies.append(g.ply)
            result = sim.app.screen
            assert screen_is(result, "Menu") and result.title.text == NAMES[seat - 1] + " wins!"
            sim.run_keys("B,wait:300")  # the title
        assert sim.app.games == players
        computer = " ".join(NAMES[1:players])  # the seats the computer moved
        for i in range(players):  # the newest first: won by the last seat first
            seat = players - i
            sim.run_keys("DOWN,A" + (",DOWN*%d" % i if i else ""))  # Games
            lst = sim.app.screen
            assert screen_is(lst, "GamesList") and lst.title.text == "Games %d" % players
            rows = [label.text for label in lst.labels]
            assert rows[:players] == ["%-10s %s" % (variant, NAMES[players - 1 - k]) for k in range(players)]
            assert all(len(r) <= lst.cols for r in rows)
            assert lst.goal.text == "random, %d plies" % plies[seat - 1]
            assert len(lst.goal.text) <= lst.cols
            sim.run_keys("A")
            review = sim.app.screen
            assert screen_is(review, "ReviewScreen") and review.game.winner == seat
            record = sent(sim, "START")
            assert "\nPlayers: %s\n" % " ".join(NAMES[:players]) in record
            assert "\nResult: %s\n" % NAMES[seat - 1] in record
            assert "\nOpponent: random (%s)\n" % computer in record
            for loser in range(1, players + 1):
                if loser != seat:
                    assert "resign:" + NAMES[loser - 1] in record
            assert Game.from_record(record).winner == seat
            sim.run_keys("B,wait:300,B,wait:300")  # the list, the title
            assert screen_is(sim.app.screen, "Menu") and sim.app.screen.title.text == "T A N B O"
    finally:
        sim.close()


def resigned_to(variant, seat):
    """A game of ``variant`` in which every player but ``seat`` resigned (each after a move)."""
    g = Game(variant)
    for _ in range(g.players):
        g.play(g.legal_moves()[0])
    for p in range(1, g.players + 1):
        if p != seat and g.winner is None:
            g.resign(p)
    return g


def every_win():
    return [(v, seat) for v in VARIANTS for seat in range(1, Game(v).players + 1)]


def tanbo(*args, stdin=None):
    exe = os.path.join(os.path.dirname(sys.executable), "tanbo")
    return subprocess.run([exe] + list(args), input=stdin, capture_output=True, text=True, timeout=900, cwd=REPO)


def test_tanbo_analyse_names_the_players_as_the_screen_does(tmp_path):
    paths = []
    for v, seat in every_win():
        path = tmp_path / ("%s-%d.txt" % (v, seat))
        path.write_text(resigned_to(v, seat).record())
        paths.append((v, seat, str(path)))
    run = tanbo("analyse", "--budget", "200", "--quiet", *[p for _, _, p in paths])
    assert run.returncode == 0, run.stderr
    sections = run.stdout.split("\n\n")
    assert len(sections) == len(paths)
    for (v, seat, path), section in zip(paths, sections):
        lines = section.strip().splitlines()
        assert lines[0].startswith("%s: %s, %s won, " % (path, v, NAMES[seat - 1])), lines[0]
        players = Game(v).players
        movers = [line.split()[1] for line in lines[2:] if line.split()[0].isdigit()]
        assert movers[:players] == list(NAMES[:players])  # a move each, in turn order
        footers = [line.split(":")[0] for line in lines if ": " in line and "inaccurac" in line]
        assert footers == list(NAMES[:players])


def test_the_text_protocol_names_the_players_as_the_screen_does():
    script = []
    want = []
    for v, seat in every_win():
        players = Game(v).players
        script += ["tanbo-variant " + v]
        want += [""]
        for p in range(1, players + 1):
            # Each seat by its name (any case), a move each: genmove.
            script.append("genmove " + NAMES[p - 1].lower())
            want.append(None)
        for p in range(1, players + 1):
            if p != seat:
                script.append("play %s resign" % NAMES[p - 1].upper())
                want.append("")
        script += ["tanbo-winner", "tanbo-record"]
        # (the protocol's fixed answer: B or W, the winner's number with more players)
        want += ["BW"[seat - 1] if players == 2 else str(seat), None]
    run = tanbo("gtp", stdin="\n".join(script + ["quit"]) + "\n")
    assert run.returncode == 0, run.stderr
    answers = run.stdout.split("\n\n")[:len(script)]
    for command, expect, answer in zip(script, want, answers):
        assert answer.startswith("= "), (command, answer)
        if expect is not None:
            assert answer == "= " + expect, (command, answer)
    records = [a for c, a in zip(script, answers) if c == "tanbo-record"]
    for (v, seat), record in zip(every_win(), records):
        players = Game(v).players
        assert "\nPlayers: %s\n" % " ".join(NAMES[:players]) in record
        assert "\nResult: %s\n" % NAMES[seat - 1] in record
    # The showboard of a finished game: the winner by name, then each player's counts.
    run = tanbo("gtp", stdin="tanbo-variant hexbo-5-6p\nplay 1 resign\nplay white resign\nplay red resign\n"
                             "play Blue resign\nplay YELLOW resign\nshowboard\nquit\n")
    assert run.returncode == 0, run.stderr
    state = run.stdout.split("\n\n")[6].splitlines()[-1]
    assert state.startswith("hexbo-5-6p, ply 5: Grey (V) won, Black 0 stones 0 roots  White 0 stones")
