"""The developer entry points: dev.py, .ci/run and the README's commands agree and behave."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from interpreters import REPO


def load_dev():
    spec = importlib.util.spec_from_file_location("dev_script", os.path.join(REPO, "dev.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read(rel):
    with open(os.path.join(REPO, rel)) as f:
        return f.read()


def test_readme_starts_with_the_two_commands_and_credits_the_designer():
    text = read("README.md")
    assert "Tanbo was invented by Mark Steere" in text
    first_block = text.split("```")[1]
    commands = [line.split("#")[0].strip() for line in first_block.strip().splitlines()]
    assert commands == ["python3 dev.py sim", "python3 dev.py test"]


def test_ci_runs_exactly_the_readme_test_command():
    script = read(".ci/run")
    assert script.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in script
    runs = [l.strip() for l in script.splitlines() if "dev.py" in l and not l.strip().startswith("#")]
    assert runs == ["exec python3 dev.py test </dev/null"]
    assert subprocess.run(["bash", "-n", os.path.join(REPO, ".ci", "run")]).returncode == 0
    assert os.access(os.path.join(REPO, ".ci", "run"), os.X_OK)


def test_dev_rejects_unknown_commands_without_touching_the_venv(tmp_path):
    # Run a copy elsewhere: an unknown command must fail before creating any venv.
    script = tmp_path / "dev.py"
    script.write_text(read("dev.py"))
    proc = subprocess.run([sys.executable, str(script), "bogus"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and "unknown command 'bogus'" in proc.stderr
    assert not (tmp_path / ".venv").exists()


@pytest.mark.parametrize("env,args,hint", [
    ({}, [], True),
    ({}, ["--headless"], False),
    ({"DISPLAY": ":0"}, [], False),
    ({"WAYLAND_DISPLAY": "wayland-0"}, [], False),
    ({"SDL_VIDEODRIVER": "dummy"}, [], False),
])
def test_sim_display_hint(monkeypatch, env, args, hint):
    dev = load_dev()
    monkeypatch.setattr(dev.sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    message = dev.display_hint(args)
    assert (message is not None) == hint
    if hint:
        assert "--headless" in message


def test_install_runs_only_when_pyproject_changed_and_succeeded(tmp_path, monkeypatch):
    dev = load_dev()
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("python", "tanbo"):  # an existing venv with the project installed
        (bin_dir / name).write_text("")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    monkeypatch.setattr(dev, "BIN", str(bin_dir))
    monkeypatch.setattr(dev, "EXE_SUFFIX", "")
    monkeypatch.setattr(dev, "PYPROJECT", str(tmp_path / "pyproject.toml"))
    monkeypatch.setattr(dev, "STAMP", str(tmp_path / "venv" / "stamp"))
    calls = []
    status = {"rc": 0}

    class Done:
        def __init__(self, rc):
            self.returncode = rc

    def fake_run(cmd, **kw):
        calls.append(cmd)
        return Done(status["rc"])

    monkeypatch.setattr(dev.subprocess, "run", fake_run)
    assert dev.ensure_venv() and len(calls) == 1  # no stamp yet: install
    assert calls[0][1:4] == ["-m", "pip", "install"] and calls[0][-1].endswith("[dev]")
    assert dev.ensure_venv() and len(calls) == 1  # unchanged: nothing to do
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'y'\n")
    status["rc"] = 1
    assert not dev.ensure_venv() and len(calls) == 2  # changed, install fails
    assert dev.read_stamp() != dev.pyproject_hash()  # so the next run retries
    status["rc"] = 0
    assert dev.ensure_venv() and len(calls) == 3
    assert dev.read_stamp() == dev.pyproject_hash()
