"""The samples of :class:`boards.common.Tones`, computed once at start (this code
is then dropped from the heap by :func:`boards.hardware`)."""

import math
from array import array

RATE = 8000  # Hz: plenty for beeps, small buffers


def wave(freqs, ms, volume):
    """Signed 8-bit samples (half the heap of 16-bit; plenty for a beep): the sum of
    sine ``freqs`` (Hz) for ``ms`` with a linear fade-out."""
    n = RATE * ms // 1000
    buf = array("b", bytes(n))
    amp = volume * 127 / len(freqs)
    for i in range(n):
        s = 0.0
        for f in freqs:
            s += math.sin(2 * math.pi * f * i / RATE)
        buf[i] = int(amp * s * (n - i) / n)
    return buf


def samples(rawsample):
    """The click and the chord as ``rawsample`` (``audiocore.RawSample``) objects."""
    return (rawsample(wave((1760,), 25, 0.5), sample_rate=RATE),
            rawsample(wave((523, 659, 784), 160, 0.6), sample_rate=RATE))
