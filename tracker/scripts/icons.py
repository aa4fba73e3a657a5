"""Draw the app icons (static/icons/*.png) from the favicon's design, with no image library.

    python tracker/scripts/icons.py

static/favicon.svg is a blue card with a white "T" on a 32-unit grid. The PNGs the web app
manifest needs are drawn here from the same shapes (a rounded rectangle and two strokes with
round ends), each pixel sampled 4 x 4 times for smooth edges, and written as plain RGBA PNGs
with zlib. Run it again only when the favicon's design changes; the PNGs are committed.
"""

import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parents[2] / "static" / "icons"
BLUE = (0x1F, 0x5F, 0xBF)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4

# The favicon's shapes on its 32 x 32 grid.
CARD = (5, 3, 27, 29, 4)  # left, top, right, bottom, corner radius
STROKES = [((11, 10), (21, 10)), ((16, 10), (16, 23))]  # the T, 3 units wide, round caps
STROKE_HALF = 1.5


def _in_card(x: float, y: float) -> bool:
    left, top, right, bottom, radius = CARD
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def _on_stroke(x: float, y: float) -> bool:
    for (x1, y1), (x2, y2) in STROKES:
        # Distance from the point to the segment: a capsule is every point within half the width.
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
        if (x - x1 - t * dx) ** 2 + (y - y1 - t * dy) ** 2 <= STROKE_HALF**2:
            return True
    return False


def draw(size: int, maskable: bool) -> bytes:
    """RGBA rows of the icon at `size` pixels. A maskable icon fills the whole square with the card's
    blue (the launcher cuts its own shape) and keeps the T well inside the central safe circle."""
    scale = 32 / size
    rows = []
    for py in range(size):
        row = bytearray([0])  # PNG filter type 0 for this row
        for px in range(size):
            blue = white = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) * scale
                    y = (py + (sy + 0.5) / SAMPLES) * scale
                    if _on_stroke(x, y):
                        white += 1
                    elif maskable or _in_card(x, y):
                        blue += 1
            covered = blue + white
            if not covered:
                row += b"\0\0\0\0"
                continue
            row += bytes(round((BLUE[i] * blue + WHITE[i] * white) / covered) for i in range(3))
            row.append(round(255 * covered / SAMPLES**2))
        rows.append(bytes(row))
    return b"".join(rows)


def png(size: int, pixels: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels, 9)) + chunk(b"IEND", b"")


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in [("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)]:
        (ICONS / name).write_bytes(png(size, draw(size, maskable)))
        print(f"static/icons/{name}")


if __name__ == "__main__":
    main()
