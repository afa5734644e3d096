"""CircuitPython 10's ``displayio`` and ``bitmaptools`` as the boards have them, over Blinka.

Blinka draws the pixels; these subclasses keep the firmware's rules that
Blinka does not share (seen on CircuitPython 10.2.1, source:
shared-module/displayio/{Group,TileGrid,Palette,Bitmap}.c and
shared-module/busdisplay/BusDisplay.c of that tag):

- **The 8-bit scale step.** A Group's per-pixel step (its scale times its
  parents') is kept in an ``int8_t`` (``displayio_buffer_transform_t.dx``):
  at 128 or more the firmware silently draws nothing. The twin raises
  ValueError instead, naming the limit.
- **What a refresh sends.** :func:`refresh_areas` lists the rectangles the
  firmware would send, from what changed since the last refresh: per
  TileGrid ONE bounding rectangle of the tiles set (``tg[x, y] = t``, even to
  the same value), or its whole area when its palette or bitmap changed, it
  was shown again or first drawn; the union of old and new place when it
  moved (both separately when that union is over twice its size); the place
  a removed layer last had, per Group; the whole screen, as ONE area,
  after ``root_group`` was set to another group (setting the group it
  shows does nothing; display_core.c ``full_refresh``). The simulator draws exactly these areas, so its
  screenshots show what the board would.
- **Only the firmware's API.** Names Blinka has and CircuitPython 10 has not
  (``Bitmap.blit``) raise AttributeError here.

Areas are ``(x1, y1, x2, y2)``, x2/y2 exclusive, in screen pixels.
"""

import inspect
import types

import bitmaptools as _bitmaptools
import displayio as _blinka

BLINKA_DISPLAYIO = _blinka  # the real one, for the display itself

SCALE_LIMIT = 128  # int8_t dx/dy of displayio_buffer_transform_t


def _union(a, b):
    """displayio_area_union: the bounding box (an empty area adds nothing)."""
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _xy(index, width):
    """(x, y) of an item index: a tuple, or y * width + x."""
    if isinstance(index, tuple):
        return index
    y, x = divmod(index, width)
    return x, y


def _size(a):
    return (a[2] - a[0]) * (a[3] - a[1])


def _scale_error(scale):
    return ValueError("scale %d: CircuitPython draws nothing at a scale of %d or more (the per-pixel "
                      "step is 8 signed bits); use a bigger bitmap or more tiles" % (scale, SCALE_LIMIT))


def _watched(prop, note, on_change=False):
    """Blinka's property ``prop``, calling ``note(obj)`` after each write (only
    after a write that changes the value, with ``on_change``)."""
    def fset(obj, value):
        changed = value != prop.fget(obj)
        prop.fset(obj, value)
        if changed or not on_change:
            note(obj)
    return property(prop.fget, fset)


class _NotInCircuitPython:
    """An attribute Blinka has that CircuitPython 10 has not: AttributeError, with advice."""

    def __init__(self, advice):
        self.advice = advice

    def __set_name__(self, owner, name):
        self.name = "%s.%s" % (owner.__name__, name)

    def __get__(self, obj, owner=None):
        raise AttributeError("%s is not in CircuitPython 10 (%s)" % (self.name, self.advice))


class _OnlyCircuitPython(type):
    """Leaves the names a class refuses (:class:`_NotInCircuitPython`) out of ``dir()``."""

    def __dir__(cls):
        return [n for n in super().__dir__() if not isinstance(inspect.getattr_static(cls, n, None), _NotInCircuitPython)]


class Bitmap(_blinka.Bitmap, metaclass=_OnlyCircuitPython):
    def __init__(self, width, height, value_count):
        super().__init__(width, height, value_count)
        self._cp_dirty = (0, 0, width, height)  # a new bitmap is dirty all over

    def _cp_mark(self, x1, y1, x2, y2):
        x1, y1 = max(x1, 0), max(y1, 0)
        x2, y2 = min(x2, self.width), min(y2, self.height)
        if x1 < x2 and y1 < y2:
            self._cp_dirty = _union(self._cp_dirty, (x1, y1, x2, y2))

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        x, y = _xy(index, self.width)
        self._cp_mark(x, y, x + 1, y + 1)

    def fill(self, value):
        super().fill(value)
        self._cp_mark(0, 0, self.width, self.height)

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        super().dirty(x1, y1, x2, y2)
        self._cp_mark(x1, y1, self.width if x2 == -1 else x2, self.height if y2 == -1 else y2)

    blit = _NotInCircuitPython("use bitmaptools.blit")

    def __dir__(self):
        return dir(type(self))


class Palette(_blinka.Palette):
    def __init__(self, color_count, *, dither=False):
        super().__init__(color_count, dither=dither)
        self._cp_rgb = [0] * color_count
        self._cp_changed = False

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        rgb = self[index]
        if rgb != self._cp_rgb[index]:  # the firmware ignores setting the colour it has
            self._cp_rgb[index] = rgb
            self._cp_changed = True

    def make_transparent(self, palette_index):
        super().make_transparent(palette_index)
        self._cp_changed = True

    def make_opaque(self, palette_index):
        super().make_opaque(palette_index)
        self._cp_changed = True


class TileGrid(_blinka.TileGrid):
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None,
                 default_tile=0, x=0, y=0):
        super().__init__(bitmap, pixel_shader=pixel_shader, width=width, height=height,
                         tile_width=tile_width, tile_height=tile_height, default_tile=default_tile,
                         x=x, y=y)
        self._cp_parent = None
        self._cp_prev = None  # where it was last drawn (None: not drawn)
        self._cp_moved = False
        self._cp_full = False
        self._cp_dirty = None  # tile area changed, in the grid's own pixels
        self._cp_hidden_by_parent = False
        self._cp_rendered_hidden = False

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        x, y = _xy(index, self.width)
        tw, th = self.tile_width, self.tile_height
        self._cp_dirty = _union(self._cp_dirty, (x * tw, y * th, (x + 1) * tw, (y + 1) * th))

    # The firmware checks x/y for a change, not hidden: hidden = False always redraws.
    hidden = _watched(_blinka.TileGrid.hidden, lambda tg: tg._cp_shown(tg.hidden))

    x = _watched(_blinka.TileGrid.x, lambda tg: setattr(tg, "_cp_moved", True), True)
    y = _watched(_blinka.TileGrid.y, lambda tg: setattr(tg, "_cp_moved", True), True)
    pixel_shader = _watched(_blinka.TileGrid.pixel_shader, lambda tg: setattr(tg, "_cp_full", True))
    bitmap = _watched(_blinka.TileGrid.bitmap, lambda tg: setattr(tg, "_cp_full", True))

    def _cp_attach(self, parent):
        self._cp_parent = parent
        if parent is not None:
            self._cp_moved = True
            self._cp_set_hidden_by_parent(parent._cp_hidden_here())

    def _cp_set_hidden_by_parent(self, hidden):
        self._cp_hidden_by_parent = hidden
        self._cp_shown(hidden)

    def _cp_shown(self, hidden):
        """Its own or its parent's ``hidden`` was written: shown again, it redraws whole."""
        self._cp_rendered_hidden = False
        if not hidden:
            self._cp_full = True

    def _cp_transform_changed(self):
        self._cp_moved = True

    def _cp_area(self):
        """Where it is now on the screen (the firmware's current_area)."""
        x, y, step = 0, 0, 1
        g = self._cp_parent
        chain = []
        while g is not None:
            chain.append(g)
            g = g._cp_parent
        for g in reversed(chain):  # from the root down
            x += step * g.x
            y += step * g.y
            step *= g.scale
        x0, y0 = x + step * self.x, y + step * self.y
        return (x0, y0, x0 + step * self.width * self.tile_width, y0 + step * self.height * self.tile_height)

    def _cp_previous_area(self):
        return self._cp_prev

    def _cp_refresh_areas(self, out):
        # displayio_tilegrid_get_refresh_areas
        cur = self._cp_area()
        hidden = self.hidden or self._cp_hidden_by_parent
        if hidden:
            self._cp_rendered_hidden = True
            if self._cp_prev is not None:
                out.append(self._cp_prev)
            return
        if self._cp_moved and self._cp_prev is not None:
            both = _union(self._cp_prev, cur)
            if _size(both) <= 2 * _size(cur):
                out.append(both)
            else:
                out.append(cur)
                out.append(self._cp_prev)
            return
        bm, pal = self.bitmap, self.pixel_shader
        if isinstance(bm, Bitmap) and bm._cp_dirty is not None:
            if bm.width // self.tile_width * (bm.height // self.tile_height) == 1:
                self._cp_dirty = bm._cp_dirty  # replaces the tile area, as the firmware does
            else:
                self._cp_full = True
        if self._cp_full or self._cp_prev is None or (isinstance(pal, Palette) and pal._cp_changed):
            out.append(cur)
            return
        if self._cp_dirty is not None:
            d, step = self._cp_dirty, (cur[2] - cur[0]) // (self.width * self.tile_width)
            out.append((cur[0] + step * d[0], cur[1] + step * d[1], cur[0] + step * d[2], cur[1] + step * d[3]))

    def _cp_finish_refresh(self):
        # displayio_tilegrid_finish_refresh
        hidden = self.hidden or self._cp_hidden_by_parent
        if self._cp_prev is not None and hidden:
            self._cp_prev = None
        elif self._cp_moved or self._cp_prev is None:
            self._cp_prev = self._cp_area()
        self._cp_moved = self._cp_full = False
        self._cp_dirty = None
        if isinstance(self.pixel_shader, Palette):
            self.pixel_shader._cp_changed = False
        if isinstance(self.bitmap, Bitmap):
            self.bitmap._cp_dirty = None


class Group(_blinka.Group):
    def __init__(self, *, scale=1, x=0, y=0):
        if isinstance(scale, int) and scale >= SCALE_LIMIT:
            raise _scale_error(scale)
        super().__init__(scale=scale, x=x, y=y)
        self._cp_parent = None
        self._cp_hidden_by_parent = False
        self._cp_removed = None  # where removed layers were last drawn

    def _cp_hidden_here(self):
        return self.hidden or self._cp_hidden_by_parent

    def _cp_step(self):
        step, g = 1, self
        while g is not None:
            step *= g.scale
            g = g._cp_parent
        return step

    def _cp_max_step(self, step):
        """The largest step in this subtree when this group's parent has ``step``."""
        step *= self.scale
        best = step
        for layer in self:
            if isinstance(layer, Group):
                best = max(best, layer._cp_max_step(step))
        return best

    def _cp_check(self, layer):
        if isinstance(layer, Group):
            step = layer._cp_max_step(self._cp_step())
            if step >= SCALE_LIMIT:
                raise _scale_error(step)

    def append(self, layer):
        self._cp_check(layer)
        super().append(layer)
        layer._cp_attach(self)

    def insert(self, index, layer):
        self._cp_check(layer)
        super().insert(index, layer)
        layer._cp_attach(self)

    def _cp_remove(self, layer):
        self._cp_removed = _union(self._cp_removed, layer._cp_previous_area())
        layer._cp_parent = None

    def pop(self, index=-1):
        layer = super().pop(index)
        self._cp_remove(layer)
        return layer

    def remove(self, layer):
        super().remove(layer)
        self._cp_remove(layer)

    def __setitem__(self, index, value):
        old = self[index]
        self._cp_check(value)
        super().__setitem__(index, value)
        self._cp_remove(old)
        value._cp_attach(self)

    def __delitem__(self, index):
        old = self[index]
        super().__delitem__(index)
        for layer in old if isinstance(index, slice) else (old,):
            self._cp_remove(layer)

    def _cp_attach(self, parent):
        self._cp_parent = parent
        if parent is not None:
            self._cp_transform_changed()
            self._cp_set_hidden_by_parent(parent._cp_hidden_here())

    def _cp_set_hidden_by_parent(self, hidden):
        if self._cp_hidden_by_parent == hidden:
            return
        self._cp_hidden_by_parent = hidden
        if not self.hidden:
            for layer in self:
                layer._cp_set_hidden_by_parent(hidden)

    def _cp_transform_changed(self):
        for layer in self:
            layer._cp_transform_changed()

    @property
    def hidden(self):
        return _blinka.Group.hidden.fget(self)

    @hidden.setter
    def hidden(self, value):
        value = bool(value)
        if value == self.hidden:
            return
        _blinka.Group.hidden.fset(self, value)
        if not self._cp_hidden_by_parent:
            for layer in self:
                layer._cp_set_hidden_by_parent(value)

    @property
    def scale(self):
        return _blinka.Group.scale.fget(self)

    @scale.setter
    def scale(self, value):
        if isinstance(value, int) and value >= 1:
            parent = self._cp_parent._cp_step() if self._cp_parent is not None else 1
            step = 1
            for layer in self:
                if isinstance(layer, Group):
                    step = max(step, layer._cp_max_step(1))
            if parent * value * step >= SCALE_LIMIT:
                raise _scale_error(parent * value * step)
        changed = value != self.scale
        _blinka.Group.scale.fset(self, value)
        if changed:
            self._cp_transform_changed()

    x = _watched(_blinka.Group.x, lambda g: g._cp_transform_changed(), True)
    y = _watched(_blinka.Group.y, lambda g: g._cp_transform_changed(), True)

    def _cp_previous_area(self):
        area = self._cp_removed
        for layer in self:
            area = _union(area, layer._cp_previous_area())
        return area

    def _cp_refresh_areas(self, out):
        # displayio_group_get_refresh_areas: removed layers first, then top to bottom
        if self._cp_removed is not None:
            out.append(self._cp_removed)
        for layer in reversed(list(self)):
            if isinstance(layer, TileGrid):
                if not layer._cp_rendered_hidden:
                    layer._cp_refresh_areas(out)
            else:
                layer._cp_refresh_areas(out)

    def _cp_finish_refresh(self):
        self._cp_removed = None
        for layer in self:
            layer._cp_finish_refresh()


def refresh_areas(root, width, height, full):
    """The areas the firmware sends for this refresh of ``root`` (a twin Group) on a
    ``width`` x ``height`` screen, clipped to it (empty ones dropped); ``full``
    after ``root_group`` was set to another group. Then marks the tree refreshed."""
    if full:
        areas = [(0, 0, width, height)]
    else:
        areas = []
        root._cp_refresh_areas(areas)
    root._cp_finish_refresh()
    out = []
    for x1, y1, x2, y2 in areas:
        x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, width), min(y2, height)
        if x1 < x2 and y1 < y2:
            out.append((x1, y1, x2, y2))
    return out


def attach_root(root):
    """``display.root_group = root``: the firmware updates every transform under it."""
    if isinstance(root, Group):
        root._cp_parent = None
        root._cp_transform_changed()


def _bitmaptools_module():
    m = types.ModuleType("bitmaptools")

    def fill_region(dest_bitmap, x1, y1, x2, y2, value):
        # Corners in either order, as the firmware takes them (all four from the originals).
        x1, y1, x2, y2 = (max(min(x1, x2), 0), max(min(y1, y2), 0),
                          min(max(x1, x2), dest_bitmap.width), min(max(y1, y2), dest_bitmap.height))
        if value & dest_bitmap._value_reject or value < 0:
            raise ValueError("out of range of target")
        for y in range(y1, y2):
            for x in range(x1, x2):
                dest_bitmap._write_pixel(x, y, value)
        if x1 < x2 and y1 < y2:
            dest_bitmap.dirty(x1, y1, x2, y2)  # the twin's dirty() also marks the refresh area

    def blit(dest_bitmap, source_bitmap, x, y, *, x1=0, y1=0, x2=None, y2=None,
             skip_source_index=None, skip_dest_index=None):
        x2 = source_bitmap.width if x2 is None else x2
        y2 = source_bitmap.height if y2 is None else y2
        _bitmaptools.blit(dest_bitmap, source_bitmap, x, y, x1=x1, y1=y1, x2=x2, y2=y2,
                          skip_source_index=skip_source_index, skip_dest_index=skip_dest_index)
        if isinstance(dest_bitmap, Bitmap):
            dest_bitmap._cp_mark(x, y, x + x2 - x1, y + y2 - y1)

    m.fill_region = fill_region
    m.blit = blit
    return m


def modules():
    """``{"displayio": ..., "bitmaptools": ...}``: the twins to put into sys.modules."""
    d = types.ModuleType("displayio")
    d.Bitmap, d.Palette, d.TileGrid, d.Group = Bitmap, Palette, TileGrid, Group
    d.release_displays = _blinka.release_displays
    return {"displayio": d, "bitmaptools": _bitmaptools_module()}
