class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number, self.pressed = key_number, pressed


class _Queue:
    overflowed = False

    def get_into(self, event):
        return False

    def clear(self):
        pass


class Keys:
    def __init__(self, pins, value_when_pressed=False, pull=True, **kwargs):
        self.events = _Queue()

    def reset(self):
        pass


class ShiftRegisterKeys(Keys):
    def __init__(self, **kwargs):
        self.events = _Queue()
