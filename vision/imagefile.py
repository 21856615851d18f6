"""Picture files decoded within the companion's limits.

A picture's header says how many pixels it holds, and decoding and reading it costs memory and
time in proportion (about 9 bytes a pixel for `vision.read`): a 9 KB JPEG may claim 60,000 x
60,000 pixels (issue 19: 19 s and 5.4 GB).  So the size is read from the header first (JPEG,
PNG, BMP, WebP) and a picture over MAX_PIXELS is not decoded whole: a JPEG is decoded at a half,
a quarter or an eighth of its size (libjpeg scales while decoding, at that fraction of the
memory), anything else is refused with one line.
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

#: The most pixels a picture is decoded with: 25 megapixels, about 230 MB while `vision.read`
#: reads it (a 12-megapixel camera's frames and most photos fit whole).
MAX_PIXELS = 25_000_000
_REDUCED = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
            (8, cv2.IMREAD_REDUCED_COLOR_8))
_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class ImageFileError(ValueError):
    """A picture file that is not a picture this program reads, or too large; one line."""


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) from a JPEG, PNG, BMP or WebP header; None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return "PNG", w, h
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return "BMP", abs(w), abs(h)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        kind = data[12:16]
        if kind == b"VP8X":
            return ("WebP", 1 + int.from_bytes(data[24:27], "little"),
                    1 + int.from_bytes(data[27:30], "little"))
        if kind == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return "WebP", w & 0x3FFF, h & 0x3FFF
        if kind == b"VP8L" and len(data) >= 25:
            bits = int.from_bytes(data[21:25], "little")
            return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker == 0xD9:
            return None
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in _JPEG_FRAMES and i + 9 <= n:
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return "JPEG", w, h
        i += 2 + length
    return None


def decode_image(data: bytes, name: str) -> np.ndarray:
    """The BGR picture in a file's bytes, at most MAX_PIXELS (a larger JPEG at a fraction of its
    size).  ImageFileError naming ``name`` for anything else."""
    size = image_size(data)
    if size is None:
        raise ImageFileError(f"{name}: not a picture this program reads (use JPEG or PNG)")
    kind, w, h = size
    flag = cv2.IMREAD_COLOR
    if w * h > MAX_PIXELS:
        fits = [f for factor, f in _REDUCED if (w // factor) * (h // factor) <= MAX_PIXELS]
        if kind != "JPEG" or not fits:
            raise ImageFileError(
                f"{name}: {w} x {h} pixels is more than the {MAX_PIXELS // 1_000_000} megapixels this "
                "program reads: scale the picture down")
        flag = fits[0]
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag) if data else None
    if image is None:
        raise ImageFileError(f"{name}: not a picture OpenCV can read (use JPEG or PNG)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:  # a header that did not say all
        raise ImageFileError(f"{name}: more than the {MAX_PIXELS // 1_000_000} megapixels this "
                             "program reads: scale the picture down")
    return image


#: The largest picture file read: a 25-megapixel PNG of a noisy picture fits.
MAX_FILE_BYTES = 100_000_000


def read_image_file(path) -> np.ndarray:
    """`decode_image` of a file, refusing one over MAX_FILE_BYTES before reading it whole.
    ImageFileError for those, OSError when it cannot be read.  Read a megabyte at a time: one
    read of MAX_FILE_BYTES + 1 allocated that much for every picture, whatever its size, and a
    `folder:` source reading 150 KB frames peaked at 315 MB (`bench.service`)."""
    chunks, total = [], 0
    with open(path, "rb") as f:
        while chunk := f.read(_READ_CHUNK):
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise ImageFileError(f"{path}: more than {MAX_FILE_BYTES // 1_000_000} MB: not a "
                                     "picture this program reads (scale it down)")
            chunks.append(chunk)
    return decode_image(b"".join(chunks), str(path))


#: How much of a picture file is read at a time (`read_image_file`).
_READ_CHUNK = 1 << 20
