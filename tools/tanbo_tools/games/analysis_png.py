"""Pictures for ``tanbo analyse --png``: the position before a mistake, as the handheld shows it.

The screen is the device app's own Review (``app.screens.review.ReviewScreen``)
on the position before the move, as its coach leaves it when the verdict
is in: hard's move under the cursor, the verdict and hard's move in the
status panel (the longest wording that fits). It is drawn by the
simulator's display twin (:class:`tanbo_sim.simulator.Simulator`,
headless) at the PicoSystem's 240x240, scaled up; on top, a red ring on the
move played (which Review does not mark), and a caption under the screen
says it all in words. Needs the ``dev`` extra (pygame, Blinka).
"""

import io
import os
import tempfile

import tanbo_files as files

BOARD = "picosystem"  # the larger screen: 12-24 px cells
SCALE = 2
PLAYED = (255, 48, 48)  # ring on the move played
HARD = (0, 232, 255)  # hard's move: the cursor's colour (app.view.theme.CURSOR), in the caption
TEXT = (240, 240, 240)
CAPTION_PX = 22  # pygame font size of the caption under the screen
CAPTION_PAD = 6
CAPTION_BG = (16, 24, 32)  # the app's screen colour (app.view.theme.SCREEN)


class Answer:
    """What Review's coach leaves when it is done (``best``, ``verdict``): a finished
    :class:`tanbo.coach.Coach` as ``ReviewScreen`` reads one."""

    def __init__(self, best, verdict):
        self.best = best
        self.verdict = verdict


class Painter:
    """Draws pictures one after another on one simulated board (made once: it loads the app)."""

    def __init__(self, board=BOARD):
        from tanbo_sim.simulator import Simulator
        self._tmp = tempfile.TemporaryDirectory(prefix="tanbo-analyse-")
        self.sim = Simulator(board, nvm_path=os.path.join(self._tmp.name, "board.nvm"))

    def draw(self, game, played, best, verdict, path, caption=()):
        """Write ``path`` (PNG): Review on ``game`` (positioned before the move, not changed)
        once its coach has judged it ``verdict`` with hard's move ``best``; a ring on point
        ``played`` (None: none, a resignation); ``caption`` lines ``(text, colour)`` in a band
        under the screen. Returns the board's layout (``app.view.layout.BoardLayout``, in screen
        pixels: the PNG's are ``SCALE`` times those). FileProblem when it cannot be written
        (nothing is left)."""
        import pygame
        from app.screens.review import ReviewScreen  # (the simulator put device/ on the path)
        display = self.sim.display
        display.root_group = None  # the last picture's screen let go before this one is built
        review = ReviewScreen(game, self.sim.profile.width, self.sim.profile.height, back=None)
        review.coach = Answer(best, verdict)
        review._judged()  # as its tick() does when the coach is done
        review.update()
        display.root_group = review.group
        display.refresh()
        view = review.view
        shot = self.sim.screenshot()
        w, h = shot.get_size()
        image = pygame.transform.scale(shot, (w * SCALE, h * SCALE))
        cell = view.layout.cell * SCALE
        if played is not None and played >= 0:
            x, y = view.layout.cell_xy(played)
            centre = (x * SCALE + cell // 2, y * SCALE + cell // 2)
            pygame.draw.circle(image, PLAYED, centre, cell // 2 + SCALE, max(2, cell // 6))
        if caption:
            image = self._captioned(image, caption)
        png = io.BytesIO()
        pygame.image.save(image, png, "png")
        files.write_whole(path, png.getvalue(), "the picture")
        return view.layout

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
