"""The player's choices, packed into SIZE bytes for the save record."""

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

    def unpack(self, data):
        """Take values from ``data`` (SIZE bytes); out-of-range values keep the defaults."""
        if len(data) != SIZE:
            return
        self.sound = data[0] & 1 == 1
        sleep = (data[0] >> 1 & 3) + 1 & 3
        if sleep != self.sleep:
            self.sleep = sleep
        self.hints = data[1] == 1
        if data[2] < len(LEVELS):
            self.level = data[2]
        if data[3] < len(GAME_VARIANTS):
            self.variant = data[3]
        if data[4] < len(OPPONENTS):
            self.opponent = data[4]
        if 1 <= data[5] <= 6:
            self.seat = data[5]
        # 1 off, 2 on; 0 (saves made before the setting): the board's default.
        on = data[6] == 2 if 1 <= data[6] <= 2 else self.ponder
        if on != self.ponder:
            self.ponder = on
        on = data[7] == 2  # (0: saves made before the setting, 1: off)
        if on != self.send:
            self.send = on

    def level_name(self):
        return LEVELS[self.level]
