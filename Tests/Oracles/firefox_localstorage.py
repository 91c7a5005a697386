#!/usr/bin/env python3
"""An independent reader of Firefox's `localStorage`, written to establish the expected values of
Tests/RizqProfilesTests (FirefoxCorpusTests, FirefoxProfilesTests) without our Swift code or
libsnappy.

- LSNG `storage/default/<origin>/ls/data.sqlite`: Python's sqlite3; the origin from the
  `database` table; each value decompressed by a raw-snappy decoder written here when
  `compression_type` is 1, then UTF-8 (`conversion_type` 1) or UTF-16LE code units (0); the
  decoded length is checked against `utf16_length`.
- `webappsstore.sqlite`: the origin from `originKey` (the ASCII host reversed, a dot, `:scheme`,
  `:port`, the scheme's default port left out) and `originAttributes`.

It prints, per origin, the key count and a digest of the items (never a value): SHA-256 over the
items sorted by key, each as `<utf8 length>:<key><utf8 length>:<value>`, as `originDigest` in
ProfileTestSupport.swift computes it. With --keys, each key with its value's UTF-16 length and
the first 16 hex digits of the SHA-256 of its UTF-8 (`shortDigest`).

    Tests/Oracles/firefox_localstorage.py ../shared/corpus/localstorage/firefox-lsng/*/*/ls/*.sqlite
    Tests/Oracles/firefox_localstorage.py ../shared/corpus/localstorage/firefox-webappsstore/*
    Tests/Oracles/firefox_localstorage.py --install-hash /usr/lib/firefox-esr

--install-hash prints the name Firefox gives an installation in profiles.ini: CityHash64 (v1.0)
of the folder's UTF-16LE code units, in upper-case hexadecimal.
"""
import hashlib
import os
import shutil
import sqlite3
import sys
import tempfile

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}


def unsnappy(data):
    """Raw snappy: a varint length, then literals and back-references."""
    length = shift = i = 0
    while True:
        byte = data[i]
        i += 1
        length |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            break
    out = bytearray()
    while i < len(data):
        tag = data[i]
        i += 1
        kind = tag & 3
        if kind == 0:
            size = tag >> 2
            if size >= 60:
                extra = size - 59
                size = int.from_bytes(data[i:i + extra], "little")
                i += extra
            size += 1
            out += data[i:i + size]
            i += size
            continue
        if kind == 1:
            size, offset = ((tag >> 2) & 7) + 4, ((tag >> 5) << 8) | data[i]
            i += 1
        elif kind == 2:
            size, offset = (tag >> 2) + 1, int.from_bytes(data[i:i + 2], "little")
            i += 2
        else:
            size, offset = (tag >> 2) + 1, int.from_bytes(data[i:i + 4], "little")
            i += 4
        for _ in range(size):
            out.append(out[-offset])
    assert len(out) == length, "snappy length"
    return bytes(out)


def connect(path):
    # A private copy: the corpus is read-only and its names hold characters URIs do not allow.
    folder = tempfile.mkdtemp()
    shutil.copy(path, folder + "/copy.sqlite")
    connection = sqlite3.connect(folder + "/copy.sqlite")
    connection.text_factory = bytes
    return connection


def read_lsng(path):
    db = connect(path)
    origin = db.execute("SELECT origin FROM database").fetchone()[0].decode()
    items = []
    rows = db.execute("SELECT key, utf16_length, conversion_type, compression_type, value FROM data")
    for key, utf16_length, conversion, compression, value in rows:
        if isinstance(value, str):
            value = value.encode()
        raw = unsnappy(value) if compression == 1 else value
        text = raw.decode("utf-8") if conversion == 1 else raw.decode("utf-16-le")
        assert len(text.encode("utf-16-le")) // 2 == utf16_length, (key, utf16_length)
        items.append((key.decode("utf-8"), text))
    return {origin: items}


def origin_of(attributes, origin_key):
    parts = origin_key.split(":")
    port = None
    if len(parts) >= 3 and parts[-1].isdigit():
        port = int(parts.pop())
    scheme = parts.pop()
    reversed_host = ":".join(parts)
    assert reversed_host.endswith("."), origin_key
    host = reversed_host[:-1][::-1]
    if scheme == "file":
        return "file://" + host + attributes
    if ":" in host:
        host = "[" + host + "]"
    suffix = "" if port is None or DEFAULT_PORTS.get(scheme) == port else ":%d" % port
    return scheme + "://" + host + suffix + attributes


def read_webappsstore(path):
    db = connect(path)
    origins = {}
    columns = [row[1].decode() if isinstance(row[1], bytes) else row[1] for row in db.execute("PRAGMA table_info(webappsstore2)")]
    if "originKey" not in columns:
        return origins
    for attributes, origin_key, key, value in db.execute("SELECT originAttributes, originKey, key, value FROM webappsstore2"):
        origin = origin_of(attributes.decode(), origin_key.decode())
        origins.setdefault(origin, []).append((key.decode("utf-8"), value.decode("utf-8")))
    return origins


def digest(items):
    data = b""
    for key, value in sorted(items, key=lambda item: item[0].encode("utf-8")):
        for part in (key, value):
            encoded = part.encode("utf-8")
            data += str(len(encoded)).encode() + b":" + encoded
    return hashlib.sha256(data).hexdigest()


def short_digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# CityHash64 v1.0 (the copy in Firefox's sources), for --install-hash.
MASK = (1 << 64) - 1
K0, K1, K2, K3 = 0xC3A5C85C97CB3127, 0xB492B66FBE98F273, 0x9AE16A3B2F90404F, 0xC949D7C7509E6557


def load64(s, i):
    return int.from_bytes(s[i:i + 8], "little")


def load32(s, i):
    return int.from_bytes(s[i:i + 4], "little")


def rotate(value, shift):
    return value if shift == 0 else ((value >> shift) | (value << (64 - shift))) & MASK


def shift_mix(value):
    return value ^ (value >> 47)


def hash16(u, v):
    multiplier = 0x9DDFEA08EB382D69
    a = ((u ^ v) * multiplier) & MASK
    a ^= a >> 47
    b = ((v ^ a) * multiplier) & MASK
    b ^= b >> 47
    return (b * multiplier) & MASK


def weak32(s, i, a, b):
    w, x, y, z = load64(s, i), load64(s, i + 8), load64(s, i + 16), load64(s, i + 24)
    a = (a + w) & MASK
    b = rotate((b + a + z) & MASK, 21)
    c = a
    a = (a + x + y) & MASK
    b = (b + rotate(a, 44)) & MASK
    return (a + z) & MASK, (b + c) & MASK


def city64(s):
    n = len(s)
    if n <= 16:
        if n > 8:
            a, b = load64(s, 0), load64(s, n - 8)
            return hash16(a, rotate((b + n) & MASK, n)) ^ b
        if n >= 4:
            return hash16((n + (load32(s, 0) << 3)) & MASK, load32(s, n - 4))
        if n > 0:
            y = s[0] + (s[n >> 1] << 8)
            z = n + (s[n - 1] << 2)
            return (shift_mix(((y * K2) & MASK) ^ ((z * K3) & MASK)) * K2) & MASK
        return K2
    if n <= 32:
        a, b = (load64(s, 0) * K1) & MASK, load64(s, 8)
        c, d = (load64(s, n - 8) * K2) & MASK, (load64(s, n - 16) * K0) & MASK
        return hash16((rotate((a - b) & MASK, 43) + rotate(c, 30) + d) & MASK, (a + rotate(b ^ K3, 20) - c + n) & MASK)
    if n <= 64:
        z = load64(s, 24)
        a = (load64(s, 0) + (n + load64(s, n - 16)) * K0) & MASK
        b, c = rotate((a + z) & MASK, 52), rotate(a, 37)
        a = (a + load64(s, 8)) & MASK
        c = (c + rotate(a, 7)) & MASK
        a = (a + load64(s, 16)) & MASK
        vf, vs = (a + z) & MASK, (b + rotate(a, 31) + c) & MASK
        a = (load64(s, 16) + load64(s, n - 32)) & MASK
        z = load64(s, n - 8)
        b, c = rotate((a + z) & MASK, 52), rotate(a, 37)
        a = (a + load64(s, n - 24)) & MASK
        c = (c + rotate(a, 7)) & MASK
        a = (a + load64(s, n - 16)) & MASK
        wf, ws = (a + z) & MASK, (b + rotate(a, 31) + c) & MASK
        r = shift_mix(((vf + ws) * K2 + (wf + vs) * K0) & MASK)
        return (shift_mix((r * K0 + vs) & MASK) * K2) & MASK
    x, y, z = load64(s, 0), load64(s, n - 16) ^ K1, load64(s, n - 56) ^ K0
    v, w = weak32(s, n - 64, n, y), weak32(s, n - 32, (n * K1) & MASK, K0)
    z = (z + shift_mix(v[1]) * K1) & MASK
    x = (rotate((z + x) & MASK, 39) * K1) & MASK
    y = (rotate(y, 33) * K1) & MASK
    remaining, i = (n - 1) & ~63, 0
    while True:
        x = (rotate((x + y + v[0] + load64(s, i + 16)) & MASK, 37) * K1) & MASK
        y = (rotate((y + v[1] + load64(s, i + 48)) & MASK, 42) * K1) & MASK
        x ^= w[1]
        y ^= v[0]
        z = rotate(z ^ w[0], 33)
        v = weak32(s, i, (v[1] * K1) & MASK, (x + w[0]) & MASK)
        w = weak32(s, i + 32, (z + w[1]) & MASK, y)
        z, x = x, z
        i += 64
        remaining -= 64
        if remaining == 0:
            break
    return hash16((hash16(v[0], w[0]) + shift_mix(y) * K1 + z) & MASK, (hash16(v[1], w[1]) + x) & MASK)


def main(arguments):
    if arguments[:1] == ["--install-hash"]:
        for folder in arguments[1:]:
            print(folder, "%X" % city64(folder.encode("utf-16-le")))
        return
    show_keys = "--keys" in arguments
    for path in (argument for argument in arguments if argument != "--keys"):
        db = connect(path)
        tables = {row[0].decode() for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        origins = read_lsng(path) if "data" in tables else read_webappsstore(path)
        print(os.path.basename(os.path.dirname(os.path.dirname(path))) if "data" in tables else os.path.basename(path))
        for origin in sorted(origins):
            items = origins[origin]
            print("  %s %d %s" % (origin, len(items), digest(items)))
            if show_keys:
                for key, value in items:
                    print("    %r %d %s" % (key, len(value.encode("utf-16-le")) // 2, short_digest(value)))


if __name__ == "__main__":
    main(sys.argv[1:])
