"""Picture files within limits (issue 19, "read has no size limit"): the header's size is read
before decoding, so a small file that claims a huge picture costs nothing."""

from __future__ import annotations

import logging
import struct
import zlib

import cv2
import numpy as np
import pytest

from device.sources import ImageFolderSource
from vision.imagefile import MAX_PIXELS, decode_image, image_size
from vision.read import ImageReadError, read_image


def _jpeg_claiming(width: int, height: int) -> bytes:
    """A 16 x 16 JPEG whose frame header claims width x height (a "decompression bomb")."""
    ok, data = cv2.imencode(".jpg", np.full((16, 16, 3), 90, np.uint8))
    data = bytearray(data.tobytes())
    i = 2
    while data[i + 1] not in (0xC0, 0xC2):
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    data[i + 5:i + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def _png_claiming(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + b"\x00" * 16)


def test_sizes_come_from_the_headers():
    assert image_size(_jpeg_claiming(60000, 40000)) == ("JPEG", 60000, 40000)
    assert image_size(_png_claiming(12000, 9000)) == ("PNG", 12000, 9000)
    ok, bmp = cv2.imencode(".bmp", np.zeros((30, 40, 3), np.uint8))
    assert image_size(bmp.tobytes()) == ("BMP", 40, 30)
    assert image_size(b"GIF89a....") is None


@pytest.mark.parametrize("data", [_jpeg_claiming(60000, 60000), _png_claiming(12000, 12000)],
                         ids=["jpeg", "png"])
def test_a_picture_claiming_too_many_pixels_is_refused_before_decoding(tmp_path, data):
    """The 9 KB JPEG of the issue took 19 s and 5.4 GB."""
    path = tmp_path / "bomb.img"
    path.write_bytes(data)
    with pytest.raises(ImageReadError, match=r"bomb.img: (60000 x 60000|12000 x 12000) pixels is more than the "
                                             r"25 megapixels this program reads: scale the picture down"):
        read_image(path)


def test_a_large_jpeg_is_read_at_a_fraction_of_its_size():
    ok, data = cv2.imencode(".jpg", np.zeros((4600, 6000, 3), np.uint8))  # 27.6 megapixels
    image = decode_image(data.tobytes(), "big.jpg")
    assert image.shape == (2300, 3000, 3)
    assert image.shape[0] * image.shape[1] <= MAX_PIXELS


def test_a_picture_folder_skips_a_bomb_with_a_warning(tmp_path, caplog):
    folder = tmp_path / "pics"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), np.full((48, 64, 3), 10, np.uint8))
    (folder / "1.jpg").write_bytes(_jpeg_claiming(60000, 60000))
    cv2.imwrite(str(folder / "2.png"), np.full((48, 64, 3), 20, np.uint8))
    source = ImageFolderSource(folder, fps=5)
    source.open()
    with caplog.at_level(logging.WARNING):
        frames = [source.read(), source.read(), source.read()]
    assert [int(f.image[0, 0, 0]) for f in frames[:2]] == [10, 20] and frames[2] is None
    assert "skipping 1.jpg" in caplog.text and "megapixels" in caplog.text


def test_reading_a_picture_file_holds_a_few_times_its_size_not_the_limit(tmp_path):
    """Issue 19 ("any input in under 500 MB"; the service under 150 MB): reading a file at most
    MAX_FILE_BYTES long was one read of that many bytes, which allocated 100 MB for every
    frame of a `folder:` source, whatever its size: `bench.service` peaked at 315 MB.  A 1280 x
    960 frame now costs its own size and its decoded picture's."""
    import tracemalloc

    from vision.imagefile import MAX_FILE_BYTES, read_image_file

    rng = np.random.default_rng(3)
    path = tmp_path / "frame.jpg"
    cv2.imwrite(str(path), rng.integers(0, 255, (960, 1280, 3), dtype=np.uint8))
    decoded = 960 * 1280 * 3
    tracemalloc.start()
    try:
        image = read_image_file(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert image.shape == (960, 1280, 3)
    assert peak < decoded + 3 * path.stat().st_size + 2_000_000 < MAX_FILE_BYTES // 5


def test_a_picture_file_over_the_byte_limit_is_refused_naming_it(tmp_path, monkeypatch):
    import vision.imagefile as imagefile

    path = tmp_path / "big.jpg"
    ok, data = cv2.imencode(".jpg", np.zeros((64, 64, 3), np.uint8))
    path.write_bytes(data.tobytes())
    monkeypatch.setattr(imagefile, "MAX_FILE_BYTES", 100)
    with pytest.raises(imagefile.ImageFileError, match="big.jpg: more than"):
        imagefile.read_image_file(path)
