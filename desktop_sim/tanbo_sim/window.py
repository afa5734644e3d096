"""The simulator window: the device screen scaled up, the keyboard map beside it, 60 fps.

Keys: arrows = D-pad, Z = A, X = B, Enter = START, Shift = SELECT, Esc or
closing the window quits. The app's clock is real time here.
"""

import signal
import time

from tanbo_sim.interrupts import Interrupts
from tanbo_sim.simulator import FRAME_MS, Simulator

KEYMAP_TEXT = (("arrows", "D-pad"), ("Z", "A  (place)"), ("X", "B  (undo)"),
               ("Enter", "START (menu)"), ("Shift", "SELECT (hints)"), ("Esc", "quit"))


def _keymap():
    import pygame
    return {pygame.K_UP: "UP", pygame.K_DOWN: "DOWN", pygame.K_LEFT: "LEFT", pygame.K_RIGHT: "RIGHT",
            pygame.K_z: "A", pygame.K_SPACE: "A", pygame.K_x: "B", pygame.K_RETURN: "START",
            pygame.K_LSHIFT: "SELECT", pygame.K_RSHIFT: "SELECT"}


def run_window(board, scale, nvm, steps=(), events=None, power=((3.9, 3.9, 0), "battery")):
    """Open the window and run until it is closed; ``steps`` (a parsed key script) play first;
    ``events``: a stream for the refresh/NVM lines (:mod:`tanbo_sim.events`)."""
    # SIGTERM too, as a headless run: its exception (the command's Terminated),
    # raised inside a pygame call, was swallowed there and the window ran on
    # (1 run in ~20 on a loaded machine; CI saw it).
    with Interrupts((signal.SIGINT, signal.SIGTERM)) as interrupts:
        return _run(board, scale, nvm, steps, events, interrupts, power)


def _run(board, scale, nvm, steps, events, interrupts, power):
    import pygame
    sim = Simulator(board, nvm_path=nvm, headless=False, events_out=events, battery=power[0], power=power[1])
    try:
        w, h = sim.profile.width * scale, sim.profile.height * scale
        pygame.display.set_caption("Tanbo - %s simulator" % sim.profile.name)
        font = pygame.font.Font(None, 22)
        panel = 220
        window = pygame.display.set_mode((w + panel, max(h, 200)))
        keys = _keymap()
        start = time.monotonic()
        sim.now = 0
        sim.clock = lambda: int((time.monotonic() - start) * 1000)
        if sim.app is not None:
            sim.app.clock = sim.clock
            sim.app.sleep = time.sleep
        quit_flag = []

        def pump():
            interrupts.check()
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                    quit_flag.append(True)
                elif event.type in (pygame.KEYDOWN, pygame.KEYUP) and event.key in keys:
                    sim.wiring.set(keys[event.key], event.type == pygame.KEYDOWN)

        def draw():
            window.fill((24, 24, 32))
            screen = pygame.transform.scale(sim.display.surface, (w, h))
            level = int(255 * sim.display.brightness)
            if level < 255:  # the backlight dimmed or off: the panel darkens
                screen.fill((level, level, level), special_flags=pygame.BLEND_MULT)
            window.blit(screen, (0, 0))
            y = 10
            lines = [(sim.profile.name, "")] + list(KEYMAP_TEXT)
            if sim.profile.keymap_note:
                lines.append(("", sim.profile.keymap_note))
            for k, v in lines:
                window.blit(font.render(k, True, (255, 200, 64)), (w + 10, y))
                window.blit(font.render(v, True, (220, 220, 220)), (w + 80, y))
                y += 24
            pygame.display.flip()

        # While the AI thinks, the app refreshes its indicator: read keys then too.
        sim.frame_hook = lambda: (pump(), draw())
        for kind, value in steps:
            if kind == "wait":
                time.sleep(value / 1000)
            else:
                sim.wiring.set(value, True)
                sim.app.step()
                sim.wiring.set(value, False)
            if sim.app is not None:
                sim.app.step()
        draw()
        clock = pygame.time.Clock()
        while not quit_flag:
            pump()
            if sim.app is not None:
                sim.app.step()
                if sim.battery[2] > 0:
                    sim.now = sim.clock()
                    sim.wiring.power(sim.power_state, sim.volts())
            clock.tick(1000 // FRAME_MS)
    finally:
        sim.close()
        pygame.quit()
    return 0
