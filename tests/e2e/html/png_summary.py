#!/usr/bin/env python3
"""What a screenshot shows, in words a test can compare: its size, and whether the colours of
the HTML report's verdicts (PASS green, FAIL red) are on it, and how much of it is not white.
Reads 8-bit RGB or RGBA PNGs without interlace (what headless Chromium writes); the standard
library only.   png_summary.py FILE.png"""
import struct
import sys
import zlib

COLOURS = {"PASS green": (0x2E, 0x7D, 0x32), "FAIL red": (0xC6, 0x28, 0x28)}


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: depth {depth}, colour type {colour}, interlace {interlace}: not read here")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = pixels(sys.argv[1])
    found = {name: 0 for name in COLOURS}
    inked = 0
    for line in rows:
        for x in range(0, len(line), bpp):
            rgb = tuple(line[x:x + 3])
            if rgb != (255, 255, 255):
                inked += 1
            for name, want in COLOURS.items():
                if rgb == want:
                    found[name] += 1
    print(f"screenshot: {width}x{height}")
    for name, n in found.items():
        print(f"  {name}: {'present' if n >= 50 else 'absent'}")
    share = inked / (width * height)
    print(f"  not white: {'between 2% and 90%' if 0.02 <= share <= 0.9 else f'{share:.1%} (blank or solid)'}")


main()
