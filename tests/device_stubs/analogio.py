class AnalogIn:
    value = 32768

    def __init__(self, pin):
        pass
