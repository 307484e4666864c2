"""The networks of the scale sweep: the embedded generation 3's output layer times F.

    python3 rescale.py embedded.nnue s08.nnue 0.8

Multiplies the network file's last 2 x 128 + 1 integers (the output weights, side to move's
half first, and the output bias) by F and rounds them, so that the engine's evaluation is
F times generation 3's. `cutlab train --output-scale F` does the same to the float weights
before quantising (it rounds once, this twice: a weight may differ by one unit).
"""
import struct
import sys

src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
data = bytearray(open(src, "rb").read())
n = 2 * 128 + 1
start = len(data) - 2 * n
values = struct.unpack("<%dh" % n, data[start:])
data[start:] = struct.pack(
    "<%dh" % n, *(max(-32768, min(32767, round(v * factor))) for v in values)
)
open(dst, "wb").write(data)
