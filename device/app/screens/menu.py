"""A text menu screen: a title, rows of actions or choices, a footer of key hints.

Rows are laid out in character cells (up to 20 columns, fewer where 20
would touch the screen's edges: 19 of 2x text on PicoSystem's 240 px);
UP/DOWN moves the selection, LEFT/RIGHT (or A) changes a choice, A runs an
action, B goes back.
"""

import sys

import displayio

from app import GAUGE
from app.view import theme
from app.store.settings import OPPONENTS
from app.view.text import Label
from boards.common import A, B, DOWN, LEFT, RIGHT, UP

COLS = 20
MARGIN = 3  # px (times the text scale) kept clear at the left and right edges


def fits(app):
    """How many text lines (``lines`` and rows) a :class:`Menu` holds between its title
    and its footer on ``app``'s screen: 8 on 160x128, 7 on 240x240 (2x text)."""
    s = app.scale
    return (app.display.height - 4 * s - 24 * s) // (12 * s)


def back_to(app, screen):
    """An action that shows game (or puzzle) screen ``screen`` again, with the
    hints setting as it is now (the settings may have changed meanwhile); the
    caller redraws what else it changed (an undo)."""

    def back():
        if screen.hints != app.settings.hints:
            screen.hints = app.settings.hints
            screen.update()
        else:
            # The board is as it was left: only the status line again (the
            # gauge may have changed). A render is 43 ms of an RP2040 on 19x19
            # before the panel is sent.
            screen.show_status()
        app.show(screen)
    return back


def with_gauge(text, cols):
    """``text`` with the battery gauge (``app.GAUGE``, kept by app.power_due) at the right
    end of ``cols`` columns; alone without one."""
    gauge = GAUGE[0]
    if not gauge:
        return text
    return text + " " * max(1, cols - len(text) - len(gauge)) + gauge


def warm_game_code(app, menu):
    """Have ``menu`` load what a game's start runs while the player looks at it
    (:meth:`Menu.tick`): its board then comes ~0.2 s sooner on a PicoSystem. Not on a
    SAMD51's heap (``app.small_heap``), which keeps the room for the game's search."""
    if not app.small_heap:
        menu.warm = ["tanbo.game_make", "app.view.build", "app.screens.game", "app.between"]


def computer_seats(app, players):
    """The players the computer moves in a game of ``players``: all but the person's
    seat (none against a person)."""
    s = app.settings
    if OPPONENTS[s.opponent] == "Person":
        return ()
    seat = min(s.seat, players)
    return tuple(p for p in range(1, players + 1) if p != seat)


def set_background(label, bg):
    """Change ``label``'s background (0xRRGGBB, None: transparent): a palette change,
    so the whole label redraws; none if it has that background. (Here, not in
    app.view.text: a game's heap keeps that module's code.)"""
    if label.bg != bg:
        pal = label.palette
        if bg is None:
            pal.make_transparent(0)
        else:
            if label.bg is None:
                pal.make_opaque(0)
            pal[0] = bg
        label.bg = bg


class Row:
    """A menu line: ``label`` and either ``choices`` (strings; ``get()``/``set(i)``
    read and write the chosen index) or an ``action()`` run by A."""

    def __init__(self, label, action=None, choices=None, get=None, set=None):
        self.label = label
        self.action = action
        self.choices = choices
        self.get = get
        self.set = set

    def text(self, cols=COLS):
        """The row as ``cols`` characters: a choice's value at the right end."""
        if self.choices is None:
            return self.label
        value = self.choices[self.get()]
        # One string made, not five: each is looked up among the interned strings.
        return "%-*s <%s>" % (cols - len(value) - 3, self.label, value)


class Menu:
    """``title``, ``rows`` (list of Row), ``back()`` for B (None: B does nothing),
    ``lines``: extra text shown under the title (e.g. credits, a warning); those
    that do not fit above the rows go, the first first (:func:`fits`);
    ``after``: a function of more lines under the rows (e.g. the settings' free
    heap), called only where one fits.

    Its lines sit on one grid whatever the menu (the title; below a gap, the
    notes and rows; the footer at the bottom). Built while another menu is on
    show, it takes over that menu's group and its labels at the same places,
    changing only their text and colours (see :meth:`_line`); the app then keeps the
    group on the panel (:meth:`app.main.App.show`), and CircuitPython sends
    only the cells that changed and the lines that came or went, where a new
    group sends the whole panel (~0.4 s on a PicoSystem's wire,
    docs/board-costs.md#refreshes). The menu it took over is not shown again (no caller keeps one
    under another menu).
    """

    # The app's code stays under a menu, and what sets a game up (a puzzle
    # menu's Start again); the engine's thinking on the player's time and
    # the coach go (app.let_go).
    keeps = ("app.", "tanbo.game_make")

    over = None  # the game or puzzle screen a box menu is drawn over (None: the whole screen)
    warm = ()  # modules loaded while the menu waits for a key, the last first (see tick)

    def __init__(self, app, title, rows, back=None, lines=(), footer="A:ok  B:back", after=(), over=None):
        self.app = app
        self.rows = rows
        self.back = back
        s, W, H = app.scale, app.display.width, app.display.height
        cw, lh = 6 * s, 12 * s
        cols = self.cols = min(COLS, (W - 2 * MARGIN * s) // cw)
        self.x0 = (W - cols * cw) // 2
        self.shown = {}
        if over is not None:
            self._box(over, title, lines, footer)
            return
        prev = app.screen
        if isinstance(prev, Menu) and prev.shown is not None and prev.over is None:
            # Its lines by place: y (px) -> Label.
            self.group, self.spare, prev.shown = prev.group, prev.shown, None
        else:
            self.group, self.spare = displayio.Group(), {}
        self.title = self._line(2 * s, theme.ACCENT, None, title)
        # The gap under the title, not between the notes and the rows: a row of
        # one menu and a note of another on the same line share a label.
        y = 4 * s + lh
        self.notes = []
        # The rows stay whole; the first lines (the title's credits, before
        # its notice) make room.
        for line in lines[max(0, len(lines) + len(rows) - fits(app)):]:
            self.notes.append(self._line(y, theme.DIM, None, line))
            y += lh
        self.labels = []
        for row in rows:
            self.labels.append(self._line(y, theme.TEXT, theme.SCREEN, row.text(cols)))
            y += lh
        y += 6 * s
        # As many as end above the footer; none asked for without room for one.
        for line in after() if after and y + lh <= H - lh else ():
            if y + lh > H - lh:
                break
            self._line(y, theme.DIM, None, line)
            y += lh
        self.footer = self._line(H - lh, theme.DIM, None, footer)
        # Lines the last menu had and this one has not: blanked, not removed. A
        # group's removed layers are sent as ONE area around all of them (most
        # of the panel for a few lines far apart); a blanked line sends its old
        # text's cells. They stay for a subclass's own lines and the next menu.
        for y in self.spare:
            label = self.spare[y]
            label.text = ""
            if label.bg == theme.SELECT_BG:
                set_background(label, theme.SCREEN)
            self.shown[y] = label
        self.index = 0
        self._mark(0, True)

    def _box(self, over, title, lines, footer):
        """Lay the menu out as a box over screen ``over``: its lines opaque, a column wider
        than its longest, centred; the title a bar. Only the box is sent to the panel
        when it comes and goes (:meth:`app.main.App.show`), the board stays in view."""
        self.over = over
        s, W, H = self.app.scale, self.app.display.width, self.app.display.height
        cw, lh = 6 * s, 12 * s
        texts = [title, footer or ""] + list(lines) + [row.text(0) for row in self.rows]
        cols = self.cols = min(self.cols, max(len(t) for t in texts) + 1)
        self.x0 = (W - cols * cw) // 2
        y = (H - (len(lines) + len(self.rows) + 1 + (footer is not None)) * lh) // 2
        self.group, self.spare = displayio.Group(), {}
        self.title = self._line(y, theme.SCREEN, theme.ACCENT, title)
        self.notes = []
        for line in lines:
            y += lh
            self.notes.append(self._line(y, theme.DIM, theme.SCREEN, line))
        self.labels = []
        for row in self.rows:
            y += lh
            self.labels.append(self._line(y, theme.TEXT, theme.SCREEN, row.text(cols)))
        self.footer = None if footer is None else self._line(y + lh, theme.DIM, theme.SCREEN, footer)
        self.index = 0
        self._mark(0, True)

    def _line(self, y, fg, bg, text):
        """A label of the menu's width at height ``y`` (px), ``bg`` None: transparent:
        the last menu's at that place, its text and colours changed, or a new one."""
        label = self.spare.pop(y, None)
        if label is None:
            label = Label(self.x0, y, self.cols, fg, bg, scale=self.app.scale, text=text)
            self.group.append(label.group)
        else:
            label.text = text
            label.set_color(fg)
            set_background(label, bg)
        self.shown[y] = label
        return label

    def _mark(self, i, on):
        label = self.labels[i]
        set_background(label, theme.SELECT_BG if on else theme.SCREEN)
        label.set_color(theme.ACCENT if on else theme.TEXT)

    def refresh_rows(self):
        for row, label in zip(self.rows, self.labels):
            label.text = row.text(self.cols)

    def opening(self, line, name, then, *args):
        """Run ``then(*args)``, which builds and shows a whole screen, after "Opening..."
        on ``line`` (a label of this menu) at once, one line's cells on the panel;
        without it when screen ``name``'s code is loaded already (:attr:`warm`; None:
        never), whose screen then comes within 0.45 s of a PicoSystem
        (docs/board-costs.md#refreshes)."""
        if name is None or "app.screens." + name not in sys.modules:
            line.text = "Opening..."
            self.app.refresh()
        then(*args)

    def key(self, k):
        """Handle a pressed (or repeated) key; True if anything changed on screen."""
        row = self.rows[self.index]
        if k in (UP, DOWN):
            n = len(self.rows)
            self._mark(self.index, False)
            self.index = (self.index + (1 if k == DOWN else n - 1)) % n
            self._mark(self.index, True)
            return True
        if row.choices is not None and k in (LEFT, RIGHT, A):
            n = len(row.choices)
            row.set((row.get() + (n - 1 if k == LEFT else 1)) % n)
            self.refresh_rows()
            return True
        if k == A and row.action is not None:
            row.action()
            return True
        if k == B and self.back is not None:
            self.back()
            return True
        return False

    def tick(self, now):
        """Load the last of :attr:`warm`'s modules while the app is idle (the panel
        shows all, no press pending), one a step: the step a key comes in waits
        for one module's load at most (under 50 ms of an RP2040)."""
        app = self.app
        if self.warm and not (app.dirty or app.busy):
            try:
                __import__(self.warm.pop())
            except MemoryError:
                self.warm = ()  # ahead of need only: Start loads what is missing
        return False


class ScrollMenu(Menu):
    """A menu whose rows are a window scrolling over ``count`` entries (at least
    one; :meth:`row_text` of each as it comes into view), with a line above the
    footer (``goal``). UP/DOWN move the selection (held: repeats), LEFT/RIGHT a
    page, A runs :meth:`chosen`, B :meth:`left`. The puzzle list and the games list."""

    def __init__(self, app, title, count, footer):
        self.count = count
        s, lh = app.scale, 12 * app.scale
        # Title, its gap, the rows, the goal line and the footer.
        shown = max(1, min(count, (app.display.height - 4 * s - 3 * lh) // lh))
        Menu.__init__(self, app, title, [Row("") for _ in range(shown)], None, footer=footer)
        self.goal = self._line(app.display.height - 2 * lh, theme.DIM, None, "")
        self.top = 0

    def scroll_to(self, i):
        """Mark entry ``i`` (0-based) selected, the rows scrolled to show it."""
        shown = len(self.labels)
        top = self.top
        if i < top:
            top = i
        elif i >= top + shown:
            top = i - shown + 1
        if top != self.top or not self.rows[0].label:
            self.top = top
            for k, row in enumerate(self.rows):
                row.label = self.row_text(top + k) if top + k < self.count else ""
            self.refresh_rows()
        k = i - top
        if k != self.index:
            self._mark(self.index, False)
            self.index = k
            self._mark(k, True)

    def select(self, i):
        """Select entry ``i``: scrolled to (subclasses add its goal line)."""
        self.scroll_to(i)

    def selected(self):
        """The selected entry, 0-based."""
        return self.top + self.index

    def key(self, k):
        i = self.selected()
        if k == UP or k == DOWN:
            self.select((i + (1 if k == DOWN else self.count - 1)) % self.count)
        elif k == LEFT or k == RIGHT:
            page = len(self.labels)
            self.select(max(0, i - page) if k == LEFT else min(self.count - 1, i + page))
        elif k == A:
            self.chosen(i)
        elif k == B:
            self.left()
        else:
            return False
        return True
