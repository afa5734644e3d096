class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number, self.pressed = key_number, pressed


class _Queue:
    overflowed = False
    # Events a test script queues, (key number, pressed), read as keypad's
    # queue reads the scanner's: the app takes them in App.step, as on a board.
    pending = []

    def get_into(self, event):
        if not _Queue.pending:
            return False
        event.key_number, event.pressed = _Queue.pending.pop(0)
        return True

    def clear(self):
        del _Queue.pending[:]


class Keys:
    def __init__(self, pins, value_when_pressed=False, pull=True, **kwargs):
        self.events = _Queue()

    def reset(self):
        pass


class ShiftRegisterKeys(Keys):
    def __init__(self, **kwargs):
        self.events = _Queue()
