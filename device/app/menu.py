"""A text menu screen: a title, rows of actions or choices, a footer of key hints.

Rows are laid out in character cells (up to 20 columns, fewer where 20
would touch the screen's edges: 19 of 2x text on PicoSystem's 240 px);
UP/DOWN moves the selection, LEFT/RIGHT (or A) changes a choice, A runs an
action, B goes back.
"""

import sys

import displayio

from app import theme
from app.text import Label
from boards.common import A, B, DOWN, LEFT, RIGHT, UP

COLS = 20
MARGIN = 3  # px (times the text scale) kept clear at the left and right edges


def fits(app):
    """How many text lines (``lines`` and rows) a :class:`Menu` holds between its title
    and its footer on ``app``'s screen: 8 on 160x128, 7 on 240x240 (2x text)."""
    s = app.scale
    return (app.height - 4 * s - 24 * s) // (12 * s)


def back_to(app, screen):
    """An action that shows game (or puzzle) screen ``screen`` again, with the
    hints setting as it is now (the settings may have changed meanwhile)."""

    def back():
        screen.hints = app.settings.hints
        screen.update()
        app.show(screen)
    return back


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
        gap = cols - len(self.label) - len(value) - 2
        return self.label + " " * max(1, gap) + "<" + value + ">"


class Menu:
    """``title``, ``rows`` (list of Row), ``back()`` for B (None: B does nothing),
    ``lines``: extra text shown under the title (e.g. credits, a warning); those
    that do not fit above the rows go, the first first (:func:`fits`)."""

    def __init__(self, app, title, rows, back=None, lines=(), footer="A:ok  B:back"):
        # Off the game screen, the code of its thinking on the person's turn
        # (tanbo.ponder, ~3 KB) goes: a pondering paused under a menu keeps
        # it alive through its objects, and the next one imports it again.
        sys.modules.pop("tanbo.ponder", None)
        getattr(sys.modules.get("tanbo"), "__dict__", {}).pop("ponder", None)
        self.app = app
        self.rows = rows
        self.back = back
        s, W, H = app.scale, app.width, app.height
        cw, lh = 6 * s, 12 * s
        cols = self.cols = min(COLS, (W - 2 * MARGIN * s) // cw)
        x0 = (W - cols * cw) // 2
        self.group = displayio.Group()
        self.title = Label(x0, 2 * s, cols, theme.ACCENT, scale=s, text=title)
        self.group.append(self.title.group)
        y = 2 * s + lh
        self.notes = []
        # Issue 33: the title's Continue row and a notice met the footer on
        # 240x240. The rows stay whole; the first lines (the title's credits,
        # before its notice) make room.
        for line in lines[max(0, len(lines) + len(rows) - fits(app)):]:
            label = Label(x0, y, cols, theme.DIM, scale=s, text=line)
            self.group.append(label.group)
            self.notes.append(label)
            y += lh
        y += 2 * s
        self.labels = []
        for row in rows:
            label = Label(x0, y, cols, theme.TEXT, theme.SCREEN, scale=s, text=row.text(cols))
            self.group.append(label.group)
            self.labels.append(label)
            y += lh
        self.footer = Label(x0, H - lh, cols, theme.DIM, scale=s, text=footer)
        self.group.append(self.footer.group)
        self.index = 0
        self._mark(0, True)

    def _mark(self, i, on):
        pal = self.labels[i].palette
        pal[0] = theme.SELECT_BG if on else theme.SCREEN
        self.labels[i].set_color(theme.ACCENT if on else theme.TEXT)

    def refresh_rows(self):
        for row, label in zip(self.rows, self.labels):
            label.text = row.text(self.cols)

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
        shown = max(1, min(count, (app.height - 4 * s - 3 * lh) // lh))
        Menu.__init__(self, app, title, [Row("") for _ in range(shown)], None, footer=footer)
        self.goal = Label(self.labels[0].group.x, app.height - 2 * lh, self.cols, theme.DIM, scale=s)
        self.group.append(self.goal.group)
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
