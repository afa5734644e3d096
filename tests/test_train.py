"""``tanbo train`` and the weights it writes: features, determinism, the module, errors."""

import argparse
import json
import os

import pytest

from tanbo import Game, Rng, ai, weights
from tanbo_tools.lab import train


def run_train(capsys, *argv):
    """``(exit status, stderr)``: argparse's refusals included (status 2)."""
    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    try:
        rc = train.run(parser.parse_args(list(argv)), argv=list(argv))
    except SystemExit as exc:
        rc = exc.code
    return rc, capsys.readouterr().err


def random_positions(variant, seed, games):
    rng = Rng(seed)
    for _ in range(games):
        g = Game(variant)
        while g.winner is None:
            yield g
            moves = g.legal_moves()
            g.play(moves[rng.below(len(moves))])


@pytest.mark.parametrize("variant", ["9x9", "13x13"])
def test_features_with_the_hand_set_weights_give_hards_evaluation_and_reach(variant):
    # The fit's model is the engine's: its terms, weighted by BASE, are exactly
    # what hard adds up at a root move (evaluation plus reach where it has reach),
    # for the side to move.
    theta = train.base_params()
    with train.base_weights():
        seen = 0
        for g in random_positions(variant, 3, 4):
            x = train.features(g)
            s = ai.Search(g, "hard")
            expected = s.evaluate(s.game) + (s.reach(s.game) if s.with_reach else 0)
            assert sum(theta[j] * v for j, v in x if j != train.I_TEMPO) == expected, g.position()
            seen += 1
        assert seen > 100


def test_base_weights_are_put_back_after_the_games():
    before = (ai.SPACE, ai.REACH, ai.HANGING)
    with train.base_weights():
        assert ai.SPACE == train.BASE["SPACE"]
    assert (ai.SPACE, ai.REACH, ai.HANGING) == before


def test_the_table_of_the_hand_set_parameters_is_the_hand_set_table():
    t = train.table(train.base_params())
    base = train.BASE
    assert (t["ROOT"], t["SPACE"], t["ROOM"], t["HANGING"]) == (
        base["ROOT"], base["SPACE"], base["ROOM"], base["HANGING"])
    # the last band (21-30) starts at no gain: the hand-set table's cap of 20
    assert t["REACH"][:21] == base["REACH"] and set(t["REACH"][20:]) == {base["REACH"][20]}


def test_fit_recovers_a_known_model():
    # Labels drawn from sigmoid(theta . x / K) with a known theta: the fit finds it.
    rng = Rng(11)
    true = [float(v) for v in train.base_params()]
    true[train.I_ROOM] = 90.0
    true[train.I_HANGING] = 150.0
    data = []
    for _ in range(4000):
        x = sorted({rng.below(len(true)): rng.below(5) - 2 for _ in range(4)}.items())
        x = [(j, v) for j, v in x if v]
        p = train._sigmoid(sum(true[j] * v for j, v in x) / 500.0)
        data.append((x, 1 if rng.below(10000) < p * 10000 else 0))
    theta = train.fit(data, train.base_params(), 500.0, sigma=1000.0)
    assert abs(theta[train.I_ROOM] - 90) < 30 and abs(theta[train.I_HANGING] - 150) < 60
    assert train.log_loss(data, theta, 500.0) < train.log_loss(data, train.base_params(), 500.0)


def test_train_is_deterministic_and_writes_a_weights_module(tmp_path, capsys):
    a, b = str(tmp_path / "a.py"), str(tmp_path / "b.py")
    rc, err = run_train(capsys, "--games", "3", "--seed", "4", "--every", "1", "--out", a)
    assert rc == 0, err
    assert "train: 1/3 games" in err and "ETA" in err and "held-out log loss" in err
    # the same seed in two processes gives the same table
    rc, err = run_train(capsys, "--games", "3", "--seed", "4", "--every", "1", "--out", b, "--jobs", "2")
    assert rc == 0, err
    text_a, text_b = open(a).read(), open(b).read()
    table = lambda text: [line for line in text.splitlines() if not line.startswith("#")]
    assert table(text_a) == table(text_b)
    assert "# made by: tanbo train --games 3 --seed 4" in text_a
    space = {}
    exec(compile(text_a, a, "exec"), space)
    for name in ("ROOT", "SPACE", "ROOM", "HANGING", "REACH"):
        assert space[name] is not None
    assert len(space["REACH"]) == train.REACH_BANDS[-1][1] + 1 and space["SPACE"][0] == 0


def test_a_refit_reads_the_kept_positions_and_frees_only_the_groups_asked(tmp_path, capsys):
    data, a, b = str(tmp_path / "d.jsonl"), str(tmp_path / "a.py"), str(tmp_path / "b.py")
    rc, err = run_train(capsys, "--games", "3", "--seed", "2", "--data", data, "--fit", "reach", "--out", a)
    assert rc == 0 and "read from" not in err, err
    rc, err = run_train(capsys, "--games", "3", "--seed", "2", "--data", data, "--fit", "reach", "--out", b)
    assert rc == 0 and "positions read from" in err, err
    table = lambda path: [line for line in open(path) if not line.startswith("#")]
    assert table(a) == table(b)
    fitted = {}
    exec(open(a).read(), fitted)
    base = train.BASE
    assert (fitted["SPACE"], fitted["ROOM"], fitted["HANGING"]) == (base["SPACE"], base["ROOM"], base["HANGING"])
    assert fitted["REACH"][:21] != base["REACH"]
    # all fitted, the reach written: the rest is the hand-set table
    rc, err = run_train(capsys, "--games", "3", "--seed", "2", "--data", data, "--ship", "reach", "--out", b)
    shipped = {}
    exec(open(b).read(), shipped)
    assert (shipped["SPACE"], shipped["ROOM"], shipped["HANGING"]) == (base["SPACE"], base["ROOM"], base["HANGING"])
    assert shipped["REACH"] != fitted["REACH"]  # fitted with the others free
    # other games in the file: played again, not read
    rc, err = run_train(capsys, "--games", "2", "--seed", "2", "--data", data, "--out", b)
    assert rc == 0 and "holds other games" in err, err


def test_bad_options_are_refused_clearly_and_write_nothing(tmp_path, capsys):
    out = str(tmp_path / "w.py")
    for argv, word in ((["--games", "0"], "--games"), (["--variant", "4p"], "2-player"),
                       (["--variant", "nope"], "nope"), (["--sigma", "0"], "--sigma"), (["--jobs", "0"], "--jobs"),
                       (["--fit", "space,roots"], "roots"), (["--ship", "tempo"], "tempo")):
        rc, err = run_train(capsys, *argv, "--out", out)
        assert rc == 2 and word in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert not os.path.exists(out)


def test_the_shipped_weights_module_is_well_formed():
    assert isinstance(weights.ROOT, int) and weights.ROOT > 0
    for table in (weights.SPACE, weights.REACH):
        assert isinstance(table, tuple) and len(table) >= 2 and table[0] == 0
        assert all(isinstance(v, int) and abs(v) < 100000 for v in table)
    assert isinstance(weights.ROOM, int) and isinstance(weights.HANGING, int)
    with open(weights.__file__) as f:
        header = [line for line in f if line.startswith("# made by:")]
    assert len(header) == 1


def test_ai_builds_its_tables_from_the_weights_module():
    assert (ai.ROOT, ai.SPACE, ai.ROOM, ai.HANGING, ai.REACH) == (
        weights.ROOT, weights.SPACE, weights.ROOM, weights.HANGING, weights.REACH)
    s = ai.Search(Game("9x9"), "hard")
    last = len(weights.SPACE) - 1
    for sp in range(20):
        assert s.value[sp] == weights.ROOT + weights.SPACE[min(sp, last)] + weights.ROOM * sp


def test_playout_labels_are_deterministic_per_seed_and_leave_the_games_alone():
    pairs = (("medium", "uct:50"),)
    _, soft = train.play_one(("9x9", 5, 1, 16, pairs))
    assert train.play_one(("9x9", 5, 1, 16, pairs))[1] == soft
    # the playouts draw from their own stream: the same game, the same positions, as with outcomes
    _, hard = train.play_one(("9x9", 5, 1, 0, pairs))
    assert [x for x, _ in soft] == [x for x, _ in hard] and len(soft) > 10
    labels = [y for _, y in soft]
    assert all(0 <= y <= 1 for y in labels) and len(set(labels)) > 3  # shares, not outcomes
    assert labels != [y for _, y in train.play_one(("9x9", 6, 1, 16, pairs))[1]][:len(labels)]


def test_a_playout_label_is_the_share_won_by_the_side_to_move():
    g = Game("9x9")
    for p in (0, 1):
        g.play(g.legal_moves()[p])
    before = (g.ply, list(g.board), g.legal_moves())
    value = train.playout_value(g, 200, Rng(3))
    assert (g.ply, list(g.board), g.legal_moves()) == before
    # counted by hand with the same stream
    rng, won = Rng(3), 0
    for _ in range(200):
        sim = g.copy()
        won += sim.random_playout(rng) == g.to_move
    assert value == won / 200 and 0.2 < value < 0.8


def test_fit_recovers_a_known_model_from_soft_labels():
    # Labels that are the model's own probabilities (as playout shares are): the fit finds theta closely.
    rng = Rng(12)
    true = [float(v) for v in train.base_params()]
    true[train.I_ROOM], true[train.I_HANGING] = 90.0, 150.0
    data = []
    for _ in range(1500):
        x = sorted({rng.below(len(true)): rng.below(5) - 2 for _ in range(4)}.items())
        x = [(j, v) for j, v in x if v]
        data.append((x, train._sigmoid(sum(true[j] * v for j, v in x) / 500.0)))
    theta = train.fit(data, train.base_params(), 500.0, sigma=1000.0)
    assert abs(theta[train.I_ROOM] - 90) < 5 and abs(theta[train.I_HANGING] - 150) < 10
    # a share's log loss is its cross-entropy: least at the true model
    assert train.log_loss(data, true, 500.0) < train.log_loss(data, train.base_params(), 500.0)


def test_playout_labels_and_pairings_reach_the_data_file(tmp_path, capsys):
    data, out = str(tmp_path / "d.jsonl"), str(tmp_path / "w.py")
    argv = ["--games", "2", "--seed", "1", "--label", "playouts:8", "--players", "medium/medium",
            "--data", data, "--out", out]
    rc, err = run_train(capsys, *argv)
    assert rc == 0, err
    lines = open(data).read().splitlines()
    assert '"label": "playouts:8"' in lines[0]
    assert "cpu_seconds" in lines[1]
    assert any(0 < json.loads(line)[1] < 1 for line in lines[2:])
    # another label, the same games: played again, not read as if labelled alike
    # a refit reports the games' CPU time of the run that played them, not its own
    rc, err = run_train(capsys, *argv)
    assert rc == 0 and "positions read from" in err, err
    games_cpu = float(open(out).read().split("(games ")[1].split(",")[0])
    assert games_cpu == round(json.loads(lines[1])["cpu_seconds"] / 3600, 2)
    rc, err = run_train(capsys, *argv[:5], "playouts:4", *argv[6:])
    assert rc == 0 and "holds other games" in err, err


@pytest.mark.parametrize("argv, word", [
    (["--label", "wins"], "--label wins"), (["--label", "playouts:0"], "playouts:0"),
    (["--label", "playouts:x"], "playouts:x"), (["--label", "playouts:100001"], "100001"),
    (["--players", "hard"], "'hard' is not a pairing"), (["--players", "hard/nope"], "'nope'"),
    (["--players", "hard/uct:1000,medium/gtp:x"], "'gtp:x'")])
def test_bad_labels_and_pairings_are_refused_clearly(tmp_path, capsys, argv, word):
    out = str(tmp_path / "w.py")
    rc, err = run_train(capsys, "--games", "1", *argv, "--out", out)
    assert rc == 2 and word in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert not os.path.exists(out)
