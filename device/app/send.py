"""Send: a game's record printed on the USB serial console, between tanbo.record's marker lines.

``tanbo records pull`` on a computer reads it back (tanbo.replay reads the
record). Printed a line at a time (tanbo.record.record_lines): a 19x19
game's record is never whole on the heap. On the boards ``print`` goes to
CircuitPython's console: with no program holding the computer's port open
(no USB, or the port closed), CircuitPython sends nothing over USB and
returns at once (supervisor/shared/serial.c, serial_write_substring: the
USB write only ``if (tud_cdc_connected())``, DTR set by the host's open),
so a Send nobody hears costs the formatting and the console's own text
(on the display's terminal, which the app does not show), never a wait.
The simulator's console twin is its terminal, or ``tanbo sim --records FILE``.
"""

from tanbo.record import SEND_BEGIN, SEND_END, record_lines
from tanbo.variants import player_name

from app.store.settings import LEVELS


def players_header(players, who):
    """The record's ``Opponent`` header of a game whose :func:`app.store.library.who` byte is ``who``:
    the level and the players the computer moved, by name ("medium (White Red)"), or ``person``."""
    seats = [player_name(p) for p in range(1, players + 1) if who & (1 << (p + 1))]
    if not seats:
        return "person"
    return "%s (%s)" % (LEVELS[who & 3], " ".join(seats))


def send(game, who=None):
    """Print ``game``'s record between SEND_BEGIN and SEND_END (``who``: its
    :func:`app.store.library.who` byte, written as an ``Opponent`` header; None: none)."""
    headers = None if who is None else {"opponent": players_header(game.variant.players, who)}
    print(SEND_BEGIN)
    for line in record_lines(game, headers):
        print(line)
    print(SEND_END)
