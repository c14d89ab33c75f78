#!/usr/bin/env python3
"""Reads a PNG screenshot with the standard library and describes it (CLI-094).

Usage: png_regions.py SCREENSHOT.png '[{"name": "label", "rect": [x, y, width, height]}, ...]'

Prints one JSON object: the image's width and height, how many distinct colours it has (counted up to 1000), and
for each region its most frequent colour ("#rrggbb"), its pixel count and how many of its pixels are dark (every
channel below 110), so a test can tell a blank page from a drawing and find a view painted where its frame says.
Only what Chromium writes is supported: 8-bit greyscale, RGB or RGBA, not interlaced.
"""
import json
import struct
import sys
import zlib
from collections import Counter


def read_png(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour_type, _, _, interlace = header
    channels = {0: 1, 2: 3, 6: 4, 4: 2}.get(colour_type)
    if depth != 8 or channels is None or interlace != 0:
        raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour type {colour_type}, interlace {interlace})")
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous, offset = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line

    def pixel(x, y):
        row = rows[y]
        if channels == 1 or channels == 2:
            value = row[x * channels]
            return (value, value, value)
        return tuple(row[x * channels:x * channels + 3])

    return width, height, pixel


def main():
    width, height, pixel = read_png(sys.argv[1])
    regions = json.loads(sys.argv[2]) if len(sys.argv) > 2 else []
    colours = set()
    for y in range(0, height, 2):
        for x in range(0, width, 2):
            colours.add(pixel(x, y))
            if len(colours) >= 1000:
                break
    result = {"width": width, "height": height, "colors": len(colours), "regions": {}}
    for region in regions:
        x, y, w, h = (int(round(v)) for v in region["rect"])
        counts, dark = Counter(), 0
        for py in range(max(y, 0), min(y + h, height)):
            for px in range(max(x, 0), min(x + w, width)):
                colour = pixel(px, py)
                counts[colour] += 1
                dark += all(channel < 110 for channel in colour)
        top = counts.most_common(1)
        result["regions"][region["name"]] = {
            "dominant": "#%02x%02x%02x" % top[0][0] if top else None,
            "pixels": sum(counts.values()),
            "dark": dark,
        }
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
