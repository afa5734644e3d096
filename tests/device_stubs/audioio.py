class AudioOut:
    def __init__(self, pin, **kwargs):
        pass

    def play(self, sample, loop=False):
        pass

    def stop(self):
        pass
