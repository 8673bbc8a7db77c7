"""A monitor that samples while a stretch of load runs, at the edge: once when started, every
`interval` seconds in a thread of its own, and once more when stopped. The servers' CPU and memory,
a listening socket's queue (monitors.py) and the profile's owners of processes (profiler.py) are
such monitors; each says what one sample is."""
import threading


class Sampler(threading.Thread):
    def __init__(self, interval):
        super().__init__(daemon=True)
        self.interval = interval
        self.stopping = threading.Event()

    def sample(self):
        raise NotImplementedError

    def first_sample(self):
        self.sample()

    def start(self):
        self.first_sample()
        super().start()

    def run(self):
        while not self.stopping.wait(self.interval):
            self.sample()

    def stop(self):
        self.stopping.set()
        self.join()
        self.sample()
