"""ImageDecoder for the formats that need no codec library: BMP, PNM, PNG (zlib) and
uncompressed TIFF. JPEG, JPEG 2000 and WebP are not supported."""

from __future__ import annotations

import struct
import zlib

import numpy as np

from onnxtext.evaluate.errors import KernelError
from onnxtext.evaluate.registry import kernel


def _bmp(data: bytes) -> np.ndarray:
    off = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    bpp = struct.unpack_from("<H", data, 28)[0]
    comp = struct.unpack_from("<I", data, 30)[0]
    if comp not in (0, 3) or bpp not in (24, 32):
        raise KernelError(f"BMP with {bpp} bits per pixel / compression {comp} is not supported")
    ch = bpp // 8
    stride = (width * ch + 3) & ~3
    h = abs(height)
    rows = np.frombuffer(data, dtype=np.uint8, count=stride * h, offset=off).reshape(h, stride)
    px = rows[:, : width * ch].reshape(h, width, ch)[..., [2, 1, 0]]  # BGR(A) -> RGB
    return px[::-1] if height > 0 else px


def _pnm(data: bytes) -> np.ndarray:
    tokens: list[bytes] = []
    pos = 0
    while len(tokens) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        start = pos
        while not data[pos : pos + 1].isspace():
            pos += 1
        tokens.append(data[start:pos])
        if tokens[0] in (b"P1", b"P4") and len(tokens) == 3:
            break
    magic, w, h = tokens[0], int(tokens[1]), int(tokens[2])
    maxval = int(tokens[3]) if len(tokens) > 3 else 1
    pos += 1
    if maxval > 255:
        raise KernelError("16-bit PNM is not supported")
    if magic == b"P6":
        return np.frombuffer(data, np.uint8, w * h * 3, pos).reshape(h, w, 3)
    if magic == b"P5":
        return np.frombuffer(data, np.uint8, w * h, pos).reshape(h, w, 1)
    if magic in (b"P3", b"P2"):
        c = 3 if magic == b"P3" else 1
        return np.array(data[pos:].split()[: w * h * c], dtype=np.uint8).reshape(h, w, c)
    raise KernelError(f"PNM type {magic.decode()} is not supported")


def _png(data: bytes) -> np.ndarray:
    pos = 8
    idat = []
    width = height = depth = ctype = 0
    palette = None
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if interlace:
                raise KernelError("interlaced PNG is not supported")
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if depth != 8:
        raise KernelError(f"PNG bit depth {depth} is not supported")
    ch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8).reshape(height, 1 + width * ch)
    filters = raw[:, 0]
    cur = raw[:, 1:].astype(np.int32)
    out = np.zeros((height, width * ch), dtype=np.int32)
    prev = np.zeros(width * ch, dtype=np.int32)
    for r in range(height):  # each row is defined by the previous decoded row
        f = filters[r]
        line = cur[r]
        if f == 0:
            dec = line
        elif f == 1:
            dec = np.cumsum(line.reshape(width, ch), axis=0).reshape(-1) & 0xFF
        elif f == 2:
            dec = (line + prev) & 0xFF
        else:
            dec = np.zeros_like(line)
            for i in range(line.size):  # Average / Paeth depend on the pixel just decoded
                a = dec[i - ch] if i >= ch else 0
                b = prev[i]
                c = prev[i - ch] if i >= ch else 0
                if f == 3:
                    pred = (a + b) >> 1
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                dec[i] = (line[i] + pred) & 0xFF
        out[r] = dec
        prev = dec
    img = out.astype(np.uint8).reshape(height, width, ch)
    if ctype == 3:
        if palette is None:
            raise KernelError("palette PNG without PLTE")
        img = palette[img[..., 0]]
    return img


def _tiff(data: bytes) -> np.ndarray:
    e = "<" if data[:2] == b"II" else ">"
    ifd = struct.unpack_from(e + "I", data, 4)[0]
    n = struct.unpack_from(e + "H", data, ifd)[0]
    tags: dict[int, list[int]] = {}
    sizes = {1: 1, 3: 2, 4: 4}
    fmt = {1: "B", 3: "H", 4: "I"}
    for k in range(n):
        tag, typ, count, value = struct.unpack_from(e + "HHI4s", data, ifd + 2 + 12 * k)
        if typ not in sizes:
            continue
        size = sizes[typ] * count
        src = value if size <= 4 else data[struct.unpack(e + "I", value)[0] :][:size]
        tags[tag] = list(struct.unpack(e + fmt[typ] * count, src[:size]))
    if tags.get(259, [1])[0] != 1:
        raise KernelError("compressed TIFF is not supported")
    w, h = tags[256][0], tags[257][0]
    spp = tags.get(277, [1])[0]
    strips = b"".join(data[o : o + c] for o, c in zip(tags[273], tags[279], strict=False))
    return np.frombuffer(strips, np.uint8, w * h * spp).reshape(h, w, spp)[..., :3]


@kernel("", "ImageDecoder", 20)
def image_decoder(encoded, *, pixel_format="RGB"):
    data = np.asarray(encoded, dtype=np.uint8).tobytes()
    if data[:2] == b"BM":
        img = _bmp(data)
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        img = _png(data)
    elif data[:1] == b"P" and data[1:2] in b"123456":
        img = _pnm(data)
    elif data[:4] in (b"II*\x00", b"MM\x00*"):
        img = _tiff(data)
    else:
        raise KernelError("unsupported image format (BMP, PNG, PNM and uncompressed TIFF are supported)")
    if img.shape[2] == 1:
        img = np.repeat(img, 3, axis=2)
    img = img[..., :3]
    if pixel_format == "BGR":
        return np.ascontiguousarray(img[..., ::-1])
    if pixel_format == "Grayscale":
        r, g, b = (img[..., i].astype(np.int64) for i in range(3))
        return ((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16).astype(np.uint8)[..., None]
    return np.ascontiguousarray(img)
