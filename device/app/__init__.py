"""The Tanbo app: screens, board renderer, input, saves. Start with :mod:`app.main`."""

VERSION = "0.1.0"
