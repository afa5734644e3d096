"""CRC-32 (as zlib/binascii) in Python, for CircuitPython builds without ``binascii``.

Imported by :mod:`app.store.save` only where ``binascii.crc32`` is missing, so the
boards that have it do not hold this code in their heap.
"""

_NIBBLE = None


def crc32(data, crc=0):
    """CRC-32 of ``data``, continuing from ``crc``; a 16-entry table built on first use."""
    global _NIBBLE
    if _NIBBLE is None:
        t = []
        for i in range(16):
            c = i
            for _ in range(4):
                c = (c >> 1) ^ (0xEDB88320 if c & 1 else 0)
            t.append(c)
        _NIBBLE = t
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = _NIBBLE[(crc ^ b) & 15] ^ (crc >> 4)
        crc = _NIBBLE[(crc ^ (b >> 4)) & 15] ^ (crc >> 4)
    return crc ^ 0xFFFFFFFF
