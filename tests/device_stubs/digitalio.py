class DigitalInOut:
    def __init__(self, pin):
        self.value = False

    def switch_to_output(self, value=False, drive_mode=None):
        self.value = value

    def switch_to_input(self, pull=None):
        self.value = True


class Pull:
    UP = 1
    DOWN = 2
