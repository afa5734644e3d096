def fill_region(bitmap, x1, y1, x2, y2, value):
    pass
