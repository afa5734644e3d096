"""Review of a finished game: LEFT/RIGHT step back and forth through its plies, B leaves.

The board as the game screen draws it, without cursor, hints or root
highlight; the status shows the ply.
"""

from app.game_screen import board_parts
from boards.common import B, LEFT, RIGHT


class ReviewScreen:
    """Steps through ``game`` (undone and replayed in place, whole again on leaving); ``back()`` runs on B."""

    def __init__(self, game, width, height, back):
        self.game = game
        self.back = back
        self.view, self.status, self.group = board_parts(game.variant, width, height)
        self.view.cursor.hidden = True
        self.redo = []  # plies stepped back over, the latest last
        self.update()

    def update(self):
        g = self.game
        self.view.render(g, False, None, None, g.last_move(), None, True)
        self.status.update(g)
        self.status.say("ply %d" % g.ply, "<>:ply")

    def _forward(self):
        m = self.redo.pop()
        if m < 0:
            self.game.resign(-m)
        else:
            self.game.play(m)

    def key(self, k):
        g = self.game
        if k == LEFT and g.last_move() is not None:
            self.redo.append(g.last_move())
            g.undo()
        elif k == RIGHT and self.redo:
            self._forward()
        elif k == B:
            while self.redo:  # leave the game as it ended: its result and a later review hold
                self._forward()
            self.back()
            return True
        else:
            return False
        self.update()
        return True

    def tick(self, now):
        return False
