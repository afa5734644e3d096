"""``tanbo train`` and the weights it writes: features, determinism, the module, errors."""

import argparse
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tanbo import Game, Rng, ai, weights
from tanbo_tools.lab import train, train_data
from tanbo_tools.cli import main as cli_main


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
                       (["--sigma", "1e-200"], "--sigma 1e-200: expected 0.1 to"),
                       (["--sigma", "nan"], "--sigma nan"), (["--sigma", "inf"], "--sigma inf"),
                       (["--seed", "10000000000"], "--seed: '10000000000': expected a whole number from 0 to"),
                       (["--fit", "space,roots"], "roots"), (["--ship", "tempo"], "tempo")):
        rc, err = run_train(capsys, *argv, "--out", out)
        # One line, after argparse's usage lines for a value its type refuses.
        lines = [line for line in err.splitlines() if line.strip() and not line.startswith(("usage:", " "))]
        assert rc == 2 and len(lines) == 1 and word in lines[0], (argv, err)
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
        assert s.terms[0][sp] == weights.ROOT + weights.SPACE[min(sp, last)] + weights.ROOM * sp


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
    (["--label", "playouts:999999999999999"], "--label playouts:999999999999999: expected"),
    (["--label", "playouts:" + "9" * 5000], "--label playouts:" + "9" * 31 + "...: expected"),  # cut
    (["--label", "playouts:\u0661"], "expected outcome or playouts:N"),
    (["--players", "hard"], "'hard' is not a pairing"), (["--players", "hard/nope"], "'nope'"),
    (["--players", "hard/uct:1000,medium/gtp:x"], "'gtp:x'")])
def test_bad_labels_and_pairings_are_refused_clearly(tmp_path, capsys, argv, word):
    out = str(tmp_path / "w.py")
    rc, err = run_train(capsys, "--games", "1", *argv, "--out", out)
    assert rc == 2 and word in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert not os.path.exists(out)


# -- issue 34, item 2: --data reads only its own files, and believes nothing it cannot check ------

def data_key(games=3, seed=2):
    return {"variant": "9x9", "seed": seed, "games": games, "label": "outcome", "players": None}


GOOD_ROW = "[[[2, -1], [3, 1], [11, 4], [20, 1]], 1, 0]"


def data_file(tmp_path, *rows, head=None, end=True):
    """A data file for ``--games 3 --seed 2``: its header, the CPU line, ``rows``, the end line."""
    path = tmp_path / "pos.jsonl"
    lines = [train_data.header(data_key()) if head is None else head, '{"cpu_seconds": 1.5}'] + list(rows)
    if end:
        lines.append('{"positions": %d}' % len(rows))
    path.write_text("\n".join(lines) + "\n")
    return path


def refused(capsys, path, out):
    """Run ``--games 3 --seed 2 --data path``: its one error line; nothing played or written."""
    before = path.read_bytes() if path.exists() else None
    rc = cli_main(["train", "--games", "3", "--seed", "2", "--data", str(path), "--out", str(out)])
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert rc == 1 and len(lines) == 1 and "Traceback" not in err, err
    assert not out.exists() and path.read_bytes() == before
    return lines[0]


@pytest.mark.parametrize("rows, line, words", [
    (["[[[2, -1], [3"], 3, "cut short: no end of line"),
    (["[[[1, 1]], 1]"], 3, "not a list of 2"),
    (["5"], 3, "not 5"),
    (["null"], 3, "not null"),
    (['{"event": 1}'], 3, "an object where a position should be"),
    ([GOOD_ROW, '[[[1, 1]], "x", 0]'], 4, 'label "x"'),
    (['[[["a", 1]], 1, 0]'], 3, 'feature ["a", 1]'),
    (["[[[1.5, 1]], 1, 0]"], 3, "feature [1.5, 1]"),
    (["[[[99, 1]], 1, 0]"], 3, "feature index 99 outside 0-20"),
    (["[[[-1, 1]], 1, 0]"], 3, "feature index -1 outside 0-20"),
    (["[[[3, 1], [1, 1]], 1, 0]"], 3, "feature index 1 after 3"),
    (["[[[1, 1]], 2, 0]"], 3, "label 2: expected 0 or 1"),
    (["[[[1, 1]], -1, 0]"], 3, "label -1"),
    (["[[[1, 1]], 0.5, 0]"], 3, "label 0.5: expected 0 or 1"),  # an outcome is won or lost
    (["[[[1, %d]], 1, 0]" % 10 ** 300], 3, "a number of 301 digits"),
    (["[[[1, 1]], 1, %s]" % ("9" * 5000)], 3, "more than 4096 bytes"),
    (["[[[1, 10000000]], 1, 0]"], 3, "value 10000000 outside"),
    (["[[[1, Infinity]], 1, 0]"], 3, "Infinity is not a number"),
    (["[[[1, 1]], NaN, 0]"], 3, "NaN is not a number"),
    (["[[[1, 1e400]], 1, 0]"], 3, "1e400 is not a finite number"),
    (["[[[1, 1]], 1, 2]"], 3, "held out 2"),
    (["[" * 2000 + "]" * 2000], 3, "nested too deep"),
    (["[" * 100000], 3, "more than 4096 bytes"),
    ([GOOD_ROW, "\udcff"], 4, None),  # not UTF-8: written below
], ids=lambda v: v[:30] if isinstance(v, str) else None)
def test_a_damaged_data_file_is_one_line_naming_it_and_the_line(tmp_path, capsys, rows, line, words):
    if words is None:
        path = data_file(tmp_path, GOOD_ROW, end=False)
        path.write_bytes(path.read_bytes() + b"\xff\xfe\n")
        words = "not UTF-8 text"
    else:
        path = data_file(tmp_path, *rows, end=not rows[-1].endswith("[3"))
        if rows[-1].endswith("[3"):  # cut mid-line: no newline at the end
            path.write_bytes(path.read_bytes()[:-1])
    msg = refused(capsys, path, tmp_path / "w.py")
    assert msg.startswith("tanbo train: --data %r line %d: " % (str(path), line)) and words in msg, msg


def test_a_data_file_cut_at_a_line_end_or_miscounted_is_damaged(tmp_path, capsys):
    path = data_file(tmp_path, GOOD_ROW, GOOD_ROW, end=False)
    assert "line 5: cut short: no end line" in refused(capsys, path, tmp_path / "w.py")
    path = data_file(tmp_path, GOOD_ROW, GOOD_ROW, end=False)
    path.write_text(path.read_text() + '{"positions": 3}\n')
    assert "line 5: the end line counts 3 positions, the file holds 2" in refused(capsys, path, tmp_path / "w.py")
    path.write_text(path.read_text().replace('"positions": 3', '"positions": 2') + GOOD_ROW + "\n")
    assert "line 6: a line after the end line" in refused(capsys, path, tmp_path / "w.py")


@pytest.mark.parametrize("content, why", [
    (b'{"event": 1}\n{"event": 2}\n', "its first line is no header"),  # a user's log: kept, not replaced
    (b"", "it is empty"),
    (b"hello world\n", "not JSON"),
    (b'{"a": [1, 2, 3],\n "b": null}\n', "not JSON"),
    (b'{"variant": "9x9", "seed": 2, "games": 3, "mine": 1}\n', "its first line is no header"),
    (b'{"format": "tanbo train data", "version": 1}\n', "its first line is no header"),
    (b'[1, 2, 3]\n' + (GOOD_ROW + "\n").encode(), "its first line is no header"),
    (b"\x89PNG\r\n\x1a\n\0\0", "not UTF-8"),
    (b'{"format": "tanbo train data", "version": 1, "variant": "9x9"', "cut short"),
    (None, "more than 4096 bytes"),  # a 64 MB line (made in the test): 4 KB of it read
], ids=["log", "empty", "text", "json", "keys", "format", "list", "png", "cut", "64MB"])
def test_data_never_writes_over_a_file_it_did_not_write(tmp_path, capsys, content, why):
    path = tmp_path / "mine.jsonl"
    path.write_bytes(b"[" * (64 << 20) + b"\n" if content is None else content)
    msg = refused(capsys, path, tmp_path / "w.py")
    assert msg.startswith("tanbo train: --data %r is not a data file of tanbo train (line 1: " % str(path))
    assert why in msg and "left as it is" in msg, msg


def test_a_data_file_of_another_format_version_is_refused(tmp_path, capsys):
    head = train_data.header(data_key()).replace('"version": 1', '"version": 2')
    msg = refused(capsys, data_file(tmp_path, GOOD_ROW, head=head), tmp_path / "w.py")
    assert "line 1: format version 2, this program reads 1" in msg


def test_a_data_file_of_an_earlier_run_is_read_and_one_of_other_games_replaced(tmp_path, capsys):
    # Before the header had its format and the file its end line: read as it was written.
    path = data_file(tmp_path, GOOD_ROW, "[[[0, 1], [11, -3], [20, 1]], 0, 1]",
                     head='{"variant": "9x9", "seed": 2, "games": 3}', end=False)
    assert train_data.read(str(path), data_key(), len(train.NAMES)) == (
        [([(2, -1), (3, 1), (11, 4), (20, 1)], 1)], [([(0, 1), (11, -3), (20, 1)], 0)], 1.5)
    # this command's file holding other games: None, so it is played again and written over
    assert train_data.read(str(path), data_key(games=4), len(train.NAMES)) is None
    path = data_file(tmp_path, GOOD_ROW)
    assert train_data.read(str(path), data_key(seed=3), len(train.NAMES)) is None


def test_the_data_file_and_the_weights_module_are_two_files(tmp_path, capsys):
    out = tmp_path / "w.py"
    rc = cli_main(["train", "--games", "1", "--data", str(out), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and "is the weights module written: give two files" in err and not out.exists(), err


VALID_ROW = st.tuples(st.lists(st.tuples(st.integers(0, len(train.NAMES) - 1), st.integers(-99, 99)),
                               max_size=6, unique_by=lambda p: p[0]).map(sorted),
                      st.sampled_from([0, 1]), st.sampled_from([0, 1]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(VALID_ROW, max_size=5), at=st.integers(0, 10 ** 6), cut=st.booleans(),
       byte=st.integers(0, 255))
def test_any_damage_to_a_data_file_is_read_whole_or_refused_naming_it(tmp_path, rows, at, cut, byte):
    path = tmp_path / "fuzz.jsonl"
    train_data.write(str(path), data_key(), [(x, y) for x, y, h in rows if not h],
                     [(x, y) for x, y, h in rows if h], 1.0)
    data = bytearray(path.read_bytes())
    at %= len(data)
    if cut:
        del data[at:]
    else:
        data[at] = byte
    path.write_bytes(bytes(data))
    try:
        got = train_data.read(str(path), data_key(), len(train.NAMES))
    except train_data.BadData as exc:
        msg = str(exc)
        assert msg.startswith("--data %r " % str(path)) and "\n" not in msg
        return
    if got is None:  # the damage fell in the header's games: this command's file, other games
        return
    train_rows, held, cpu = got
    assert len(train_rows) + len(held) == len(rows) and 0 <= cpu
    for x, y in train_rows + held:
        assert y in (0, 1) and all(0 <= j < len(train.NAMES) for j, _ in x)
        assert [j for j, _ in x] == sorted(set(j for j, _ in x))
