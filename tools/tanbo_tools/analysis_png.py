"""Pictures for ``tanbo analyse --png``: the position before a mistake, as the handheld draws it.

The board and status panel are the device app's own (``app.game_screen.board_parts``,
rendered as Review renders a ply), drawn by the simulator's display twin
(:class:`tanbo_sim.simulator.Simulator`, headless) at the PicoSystem's
240x240, then scaled up; on top, a ring on the move played (red) and on
hard's move (green). The status panel says the ply, the verdict and both
moves in the handheld's font. Needs the ``dev`` extra (pygame, Blinka).
"""

import io
import os
import tempfile

from . import files

BOARD = "picosystem"  # the larger screen: 12-24 px cells
SCALE = 2
PLAYED = (255, 48, 48)  # ring on the move played
HARD = (40, 220, 60)  # ring on hard's move
TEXT = (240, 240, 240)
CAPTION_PX = 22  # pygame font size of the caption under the screen
CAPTION_PAD = 6
CAPTION_BG = (16, 24, 32)  # the app's screen colour (app.theme.SCREEN)


class Painter:
    """Draws pictures one after another on one simulated board (made once: it loads the app)."""

    def __init__(self, board=BOARD):
        from tanbo_sim.simulator import Simulator
        self._tmp = tempfile.TemporaryDirectory(prefix="tanbo-analyse-")
        self.sim = Simulator(board, nvm_path=os.path.join(self._tmp.name, "board.nvm"))
        self.parts = None  # (variant name, view, status, group) of the last picture

    def _parts(self, variant):
        if self.parts is None or self.parts[0] != variant.name:
            from app.game_screen import board_parts  # the simulator put device/ on the path
            self.parts = None
            self.sim.display.root_group = None
            self.parts = (variant.name,) + board_parts(variant, self.sim.profile.width, self.sim.profile.height)
        return self.parts[1:]

    def draw(self, game, played, best, lines, path, caption=()):
        """Write ``path`` (PNG): ``game``'s position (the ply before the mistake, its last move
        marked as Review marks it) with rings on points ``played`` and ``best``, ``lines`` of
        text in the status panel (what does not fit there is dropped, as on the board) and
        ``caption`` lines in a band under the screen. FileProblem when it cannot be written
        (nothing is left)."""
        import pygame
        view, status, group = self._parts(game.variant)
        view.cursor.hidden = True
        view.render(game, False, None, None, game.last_move(), None, True)
        status.update(game)
        status.say(*lines)
        self.sim.display.root_group = group
        self.sim.display.refresh()
        shot = self.sim.screenshot()
        w, h = shot.get_size()
        image = pygame.transform.scale(shot, (w * SCALE, h * SCALE))
        cell = view.layout.cell * SCALE
        for point, colour in ((best, HARD), (played, PLAYED)):
            if point is not None and point >= 0:
                x, y = view.layout.cell_xy(point)
                centre = (x * SCALE + cell // 2, y * SCALE + cell // 2)
                pygame.draw.circle(image, colour, centre, cell // 2 + SCALE, max(2, cell // 6))
        if caption:
            image = self._captioned(image, caption)
        png = io.BytesIO()
        pygame.image.save(image, png, "png")
        files.write_whole(path, png.getvalue(), "the picture")

    @staticmethod
    def _captioned(image, caption):
        """``image`` with a band of ``caption`` lines under it (pygame's own font)."""
        import pygame
        pygame.font.init()
        font = pygame.font.Font(None, CAPTION_PX)
        w, h = image.get_size()
        line_h = font.get_linesize()
        out = pygame.Surface((w, h + line_h * len(caption) + 2 * CAPTION_PAD))
        out.fill(CAPTION_BG)
        out.blit(image, (0, 0))
        y = h + CAPTION_PAD
        for text, colour in caption:
            out.blit(font.render(text, True, colour), (CAPTION_PAD, y))
            y += line_h
        return out

    def close(self):
        self.sim.close()
        self._tmp.cleanup()
