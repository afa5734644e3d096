"""displayio for the heap probe: the firmware's buffers, their board sizes counted; draws nothing."""

# Board bytes (32-bit, CircuitPython 10) of the C objects made and of their buffers.
BOARD_BYTES = [0]
UNIX_BYTES = [0]  # what the same buffers take here (bytearrays: the same size)
_STRUCT = {"Bitmap": 40, "Palette": 24, "TileGrid": 96, "Group": 40}


def _count(kind, buffer_bytes):
    BOARD_BYTES[0] += _STRUCT[kind] + buffer_bytes
    UNIX_BYTES[0] += buffer_bytes
    return bytearray(buffer_bytes)


class Bitmap:
    def __init__(self, width, height, value_count):
        bits = 1
        while (1 << bits) < value_count:
            bits *= 2
        self.width, self.height = width, height
        self._data = _count("Bitmap", (width * bits + 31) // 32 * 4 * height)

    def __setitem__(self, xy, value):
        pass

    def __getitem__(self, xy):
        return 0


class Palette:
    def __init__(self, n, dither=False):
        self.n = n
        self._data = _count("Palette", 12 * n)

    def __setitem__(self, i, value):
        pass

    def __len__(self):
        return self.n

    def make_transparent(self, i):
        pass

    def make_opaque(self, i):
        pass


class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, width=1, height=1, tile_width=None, tile_height=None,
                 default_tile=0, x=0, y=0):
        self.bitmap, self.pixel_shader = bitmap, pixel_shader
        self.width, self.height = width, height
        self.tile_width = tile_width or bitmap.width
        self.tile_height = tile_height or bitmap.height
        self.x, self.y, self.hidden = x, y, False
        self._tiles = _count("TileGrid", width * height)

    def __setitem__(self, i, value):
        pass

    def __getitem__(self, i):
        return 0


class Group:
    def __init__(self, scale=1, x=0, y=0):
        self.scale, self.x, self.y, self.hidden = scale, x, y, False
        self._children = []
        _count("Group", 0)

    def append(self, item):
        BOARD_BYTES[0] += 4
        self._children.append(item)

    def insert(self, i, item):
        BOARD_BYTES[0] += 4
        self._children.insert(i, item)

    def remove(self, item):
        BOARD_BYTES[0] -= 4
        self._children.remove(item)

    def pop(self, i=-1):
        BOARD_BYTES[0] -= 4
        return self._children.pop(i)

    def __len__(self):
        return len(self._children)

    def __getitem__(self, i):
        return self._children[i]


class Display:
    """board.DISPLAY: size only."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.auto_refresh = True
        self.root_group = None

    def refresh(self, **kwargs):
        return True
