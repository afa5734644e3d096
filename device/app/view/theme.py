"""Colours (0xRRGGBB) and the board palette's slots, chosen to read on a small TFT.

Up to six players: black, white, red, blue (4p), yellow and grey (Hexbo's
six; their names: tanbo.variants.PLAYER_NAMES), on a wood board; the root under the cursor and its root space are
green; the cursor is cyan. The six stay apart for a colour-blind player
too: simulated protan, deutan and tritan vision (Machado 2009) leaves every
pair at least 30 CIELAB units apart (green, the root's colour, and purple,
6 from blue for a protan, were the other candidates).
"""

SCREEN = 0x101820  # background outside the board, menus
TEXT = 0xF0F0F0
DIM = 0x8890A0  # secondary text
ACCENT = 0xFFC020  # titles, selected menu line
SELECT_BG = 0x304868  # background of the selected menu line
WARN = 0xFF6060

# Board palette slots (index -> colour); tiles.py draws with these indexes.
OFF = 0  # gaps between 3D slices, margins
WOOD = 1
LINE = 2
SPACE = 3  # root space of the root under the cursor
HINT = 4  # legal-move dot: recoloured to the side to move
PLAYER = 5  # 5..8: players 1..4 (5 and 6: PLAYER_SLOTS)
RIM = 9  # stone edge (large cells only)
RING = 10  # stones of the root under the cursor
LAST = 11  # last-move mark
FLASH = 12  # roots about to vanish
SLOTS = 15  # (at most 16: the tiles are 4 bits a pixel)
PLAYER_SLOTS = (5, 6, 7, 8, 13, 14)  # players 1..6

PLAYER_COLORS = (0x141414, 0xF8F8F8, 0xE82828, 0x2060F0, 0xF0D020, 0x808080)
HINT_COLORS = (0x303030, 0xFFFFFF, 0xB01010, 0x1840B0, 0xA08800, 0x505050)
# The last-move mark on each player's stones: orange on black, black on the
# light stones (white, yellow, grey), white on red and blue; each at least
# 4.4:1 (WCAG contrast) against its stone, where one orange was 1.2:1 on
# yellow (tests/test_last_move_mark.py checks them all).
MARK_COLORS = (0xFFB000, 0x000000, 0xFFFFFF, 0xFFFFFF, 0x000000, 0x000000)

BOARD_COLORS = (SCREEN, 0xD8A657, 0x8A6428, 0xA8E070, 0x303030,
                PLAYER_COLORS[0], PLAYER_COLORS[1], PLAYER_COLORS[2], PLAYER_COLORS[3],
                0x5A4020, 0x20C040, 0xFFB000, 0xFF40FF, PLAYER_COLORS[4], PLAYER_COLORS[5])

CURSOR = 0x00E8FF
CURSOR_EDGE = 0x000000  # the cursor's outer ring: contrast on white and light green
