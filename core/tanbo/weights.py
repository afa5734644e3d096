"""The evaluation's weights, in points (a won game is worth 1,000,000).

:mod:`tanbo.ai` builds its tables from these: a live root with root space
``s`` is worth ``ROOT + SPACE[min(s, len(SPACE) - 1)] + ROOM * s``, less
``HANGING`` if ``s`` is 1 and its owner is not to move; a root that reaches
``t`` empty points first (:meth:`tanbo.ai.Search.reach`) gains
``REACH[min(t, len(REACH) - 1)]``. Own roots count plus, the others' minus.

``tanbo train`` (tools/tanbo_tools/train.py) rewrites this file; the
command line and seed that made it are in the header below, so the table
can be made again.
"""

# made by: tanbo train --seed 1 --jobs 2 --every 100 --ship reach
# seed 1, 1600 games of 9x9 (73515 positions, 18110 held out), 0.80 hours wall
# with 2 workers on a loaded 2-core machine (~0.4 CPU-hours: 0.9 CPU-s a game)
# K = 536; held-out log loss 0.4806 (hand-set) -> 0.4394 (all fitted); tempo 76 (not used)
# The run was made before --ship existed and wrote every group; this file is
# its REACH with the hand-set rest, which is what --ship reach writes. All
# fitted groups lost 29 of 100 to the hand-set table; this one won 65 of 100.
ROOT = 1000
SPACE = (0, 0, 140, 240, 310, 360, 400, 430, 455, 475, 490, 500)
ROOM = 30
HANGING = 450
REACH = (0, 106, 212, 357, 502, 621, 740, 860, 972, 1083, 1195, 1223, 1250, 1278, 1305, 1333, 1335, 1336, 1338, 1340, 1341, 1371, 1400, 1429, 1458, 1488, 1517, 1546, 1575, 1605, 1634)
