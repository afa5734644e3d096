class _Out:
    def __init__(self, pin, **kwargs):
        pass

    def play(self, sample, loop=False):
        pass

    def stop(self):
        pass


AudioOut = PWMAudioOut = _Out
