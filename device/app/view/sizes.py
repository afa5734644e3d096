"""Display-size facts that the layout, the cell planner, the status chips and start-up share (pixels)."""

NO_POINT = 0xFFFF  # a grid cell that holds no point of the board


def text_scale(width, height):
    """1 on 160x128 screens, 2 on 240x240 (6x12 glyphs would be too small there)."""
    return 2 if min(width, height) >= 200 else 1


CHIP_CHARS = 4  # "24/3": stones/roots of one player


def chip_width(scale, icon=0, gap=2):
    """Px of a player's chip in a row of them at text ``scale``: its ``icon``
    (px; 0: the usual 10 a scale), ``gap``, text and a space."""
    return (icon or 10 * scale) + gap + 6 * scale * CHIP_CHARS + 4
