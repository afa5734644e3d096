"""The player's choices, packed into SIZE bytes for the save record (read back at start
by :func:`app.store.save_load.unpack`: that code is not on the heap under a game)."""

# tanbo.ai.LEVELS, by name: the menus show them without loading the AI
# (tests/test_device_imports.py checks that the two agree).
LEVELS = ("random", "easy", "medium", "hard")

# Variants offered on the new-game screen (names of tanbo.VARIANTS).
# Hexbo after the square boards' (a setting's index stays the variant it was).
GAME_VARIANTS = ("9x9", "13x13", "19x19", "dense-11", "1d", "3d", "4p",
                 "hexbo-5", "hexbo-5-3p", "hexbo-5-6p", "hexbo", "hexbo-3p", "hexbo-6p")
OPPONENTS = ("Computer", "Person")
SIZE = 8


class Settings:
    """sound, hints (bools); level (index into LEVELS); variant (index into
    GAME_VARIANTS); opponent (index into OPPONENTS); seat (1-based player the
    person plays against the computer); ponder (bool: "Think on my time",
    the computer searching on the person's turn at hard, see app.main); send
    (bool: "Send at end", every finished game's record printed on the USB
    console, app.send); sleep (index into app.screens.settings.SLEEP_NAMES: idle time before
    the screen goes dark), packed with sound in the first byte (bits 1-2, 0: the
    default "2 min", so saves made before it read so)."""

    # A class default, set on the object only when it differs: a setting
    # more on the object's own table cost the game screen's heap ~40 bytes.
    # app.start turns it off on boards with too little heap for it.
    ponder = True
    send = False
    sleep = 1  # "2 min"

    def __init__(self):
        self.sound = True
        self.hints = True
        self.level = LEVELS.index("medium")
        self.variant = 0
        self.opponent = 0
        self.seat = 1

    def pack(self):
        return bytes(((1 if self.sound else 0) | (self.sleep + 3) % 4 << 1, 1 if self.hints else 0, self.level,
                      self.variant, self.opponent, self.seat, 2 if self.ponder else 1,
                      2 if self.send else 1))

    def level_name(self):
        return LEVELS[self.level]
