"""The app's logic modules (saves, layout, settings) on the MicroPython unix port, as on a board.

The drawing modules run in the simulator (and, with stand-ins for the
built-ins, in tests/test_device_memory.py).
"""

import binascii
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
from app.store import crc32, save, save_load, settings
from app.view import layout
from tanbo import Game, get_variant

class RamStorage:
    def __init__(self, n):
        self.size = n
        self.d = bytearray(b"\xff" * n)
    def read(self, o, n):
        return bytes(self.d[o:o + n])
    def write(self, o, data):
        self.d[o:o + len(data)] = data

st = RamStorage(4096)
g = Game("9x9")
g.play_move("H7")
g.play_move("B7")
s = settings.Settings()
s.level = 3
save.Saves(st).save(s.pack(), g)
st.d[2048 + 20] ^= 1  # past the record: no harm
packed, loaded, problem = save_load.load(save.Saves(st), settings.SIZE)
t = settings.Settings()
save_load.unpack(t, packed)
print("history", loaded.moves(), t.level, problem)
print("crc", crc32.crc32(b"Tanbo by Mark Steere"), save.checksum(b"Tanbo by Mark Steere"))
st.d[save.HEADER + 3] ^= 0x10
print("damaged", save_load.load(save.Saves(st), settings.SIZE)[2])
for v, w, h in (("9x9", 160, 128), ("19x19", 160, 128), ("19x19", 240, 240), ("1d", 160, 128), ("3d", 240, 240)):
    lay = layout.BoardLayout(get_variant(v), w, h)
    print("cell", v, w, lay.cell)
'''


def test_logic_modules_on_micropython(micropython_exe, tmp_path):
    script = tmp_path / "check.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, MICROPYPATH=os.path.join(REPO, "device") + ":" + os.path.join(REPO, "core"))
    proc = subprocess.run([micropython_exe, "-X", "heapsize=192K", str(script)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "history [25, 19] 3 None"
    crc = binascii.crc32(b"Tanbo by Mark Steere")
    assert lines[1] == "crc %d %d" % (crc, crc)
    assert lines[2] == "damaged CRC mismatch"
    # DESIGN.md: 19x19 at 6 px on 160x128 and 12 px on 240x240; 9x9 at 14 px.
    assert lines[3:] == ["cell 9x9 160 14", "cell 19x19 160 6", "cell 19x19 240 12", "cell 1d 160 16",
                         "cell 3d 240 14"]
