class RawSample:
    def __init__(self, buffer, channel_count=1, sample_rate=8000):
        self.buffer = buffer
