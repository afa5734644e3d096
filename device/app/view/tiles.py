"""Tile numbers of the board renderer and what the game screen needs of them while it plays.

Tile numbers (constants below) index a strip of ``cell`` x ``cell`` tiles
(drawn once per cell size by :mod:`app.view.tile_art`, whose code is dropped
once a screen is built); their pixels are slots of the board palette
(:mod:`app.view.theme`).
"""

T_OFF = 0
T_EMPTY = 1
T_HINT = 2
T_SPACE = 3
T_SPACE_HINT = 4
T_FLASH = 5
T_LINK = 6  # the 1D line passing through a gap row
TILES = 7  # then 4 tiles (T_EMPTY..T_SPACE_HINT) for each extra arm mask, then the
# stones of the game's players and their rings (the root under the cursor):
# a 2-player board has no tiles for players 3 and 4 (see stone_tile)

# Arms: which half-lines leave a cell's centre (bit set = drawn). Edge
# points draw none outward, so the grid stops at the outer points.
ARM_L = 1
ARM_R = 2
ARM_U = 4
ARM_D = 8
ARMS_2D = ARM_L | ARM_R | ARM_U | ARM_D
ARMS_1D = ARM_L | ARM_R
# Hexbo's cells: no lines (six neighbours would need six arms); each
# empty cell a small hexagon of wood on the dark screen, one pixel row and
# column of which stay dark as the gap to the next cells.
ARMS_HEX = 64


def tile_of(base, arm_set):
    """Tile number of ``base`` (T_EMPTY..T_SPACE_HINT) with arm mask number ``arm_set``."""
    if arm_set == 0:
        return base
    return TILES + (arm_set - 1) * 4 + base - T_EMPTY


def stone_tile(masks):
    """The tile of player 1's stone in a strip drawn for ``masks`` arm masks
    (:func:`app.view.tile_art.tile_bitmap`); the other players' stones follow it,
    then, for ``players`` players, their rings from ``stone_tile(masks) + players``."""
    return TILES + 4 * (masks - 1)


def mark_size(cell):
    """Side of the last-move mark (a square on the stone's centre) for ``cell`` px."""
    return max(2, cell // 4)


def ink(cell, arm_masks):
    """The px of a ``cell`` px cell a stone covers (its top-left square): all of it,
    or on Hexbo's cells (``arm_masks[0] == ARMS_HEX``) all but its gap."""
    return cell - 1 if arm_masks[0] == ARMS_HEX else cell


CURSOR_OUT = 2  # px the cursor sprite reaches outside its cell
