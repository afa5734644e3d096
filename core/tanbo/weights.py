"""The evaluation's weights, in points (a won game is worth 1,000,000).

:mod:`tanbo.ai` builds its tables from these: a live root with root space
``s`` is worth ``ROOT + SPACE[min(s, len(SPACE) - 1)] + ROOM * s``, less
``HANGING`` if ``s`` is 1 and its owner is not to move; a root that reaches
``t`` empty points first (:meth:`tanbo.ai.Search.reach`) gains
``REACH[min(t, len(REACH) - 1)]``. Own roots count plus, the others' minus.

``tanbo train`` (tools/tanbo_tools/lab/train.py) rewrites this file; the
command line and seed that made it are in the header below, so the table
can be made again.
"""

# made by: hand. It beats the fitted tables against uct:5000, so they are not
# used (docs/ai.md#learned-weights-tanbo-train-coretanboweightspy).
ROOT = 1000
SPACE = (0, 0, 140, 240, 310, 360, 400, 430, 455, 475, 490, 500)
ROOM = 30
HANGING = 450
REACH = (0, 80, 160, 240, 320, 360, 400, 440, 480, 520, 560, 580, 600, 620, 640, 660, 680, 700, 720, 740, 760)
