from audioio import AudioOut as PWMAudioOut  # noqa: F401  (the same stand-in)
