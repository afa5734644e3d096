"""The lessons: the first entries of the collection, one rule each.

Written by hand, in the order a newcomer needs the rules (RULES.md 2-6),
each a 7x7 position with the player (Black) to move. ``tanbo puzzles``
proves each like a mined puzzle (exactly one first move reaches the goal)
and refuses to write a collection when one does not.

Two-player Tanbo cannot bound two roots of the other colour with one
stone: a stone fills one point, and a point is root space of at most one
root of each other colour (it touches exactly one of its stones). So
"bound several at once" is taught as the rule that removes every bounded
root at once (yours too), then as the double threat that wins a root.
"""

# (kind, plies, position, goal, why); plies is the line's length.
LESSONS = (
    ("legal", 1, "XXO..../.XO..../......./......./......./......./....... X",
     "Find the legal move", "A stone touches exactly one of yours"),
    ("save", 2, "......./......./..O..../.OXO.../.O...../.....X./....... X",
     "Save your root", "Root space: empty points to grow to"),
    ("remove", 1, "OX..X.O/.X...../......./......./......./......./....... X",
     "Remove a White root", "A root with no root space is removed"),
    ("remove", 1, ".....XO/.....X./......./X....../.OO..../.XO..../OXO.... X",
     "Remove a White root", "A2 bounds your own root: only it goes"),
    ("remove", 1, "......./......./......./X....../X....../......./OXO.... X",
     "Remove a White root", "All bounded roots go at once: B1 too"),
    ("remove", 3, "OO...../...X.../XX.X.XX/XO...OX/XX...XX/......./....... X",
     "Take a root in 2", "Two threats: White can save only one"),
    ("win", 1, "X....../......./......./......./......X/......./.....XO X",
     "Win: remove White", "The last player with stones wins"),
)
