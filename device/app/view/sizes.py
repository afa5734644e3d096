"""Display-size facts that the layout, the cell planner and start-up share (pixels)."""

NO_POINT = 0xFFFF  # a grid cell that holds no point of the board


def text_scale(width, height):
    """1 on 160x128 screens, 2 on 240x240 (6x12 glyphs would be too small there)."""
    return 2 if min(width, height) >= 200 else 1
