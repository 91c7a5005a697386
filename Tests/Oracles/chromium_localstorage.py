#!/usr/bin/env python3
"""An independent reader of Chromium's `Local Storage/leveldb` and legacy `*.localstorage`
files, written to establish the expected values of Tests/RizqProfilesTests (ChromiumCorpusTests,
WebKitCorpusTests) without LevelDB's library or our Swift code.

It parses LevelDB's log files (32 KiB blocks of FULL/FIRST/MIDDLE/LAST records holding write
batches) and table files (footer, index block, data blocks with shared-prefix keys, snappy
through libsnappy's C API via ctypes) by hand, keeps the record with the highest sequence
number for each key (a deletion removes it), and decodes `_<origin>\\0<key>` records with their
format bytes (0x00 UTF-16LE, 0x01 Latin-1). For `*.localstorage` it uses Python's sqlite3 and
decodes the UTF-16LE by hand.

It prints, per origin, the key count and a digest of the items (never a value): SHA-256 over
the items sorted by key, each as `<utf8 length>:<key><utf8 length>:<value>`, as
`originDigest` in ProfileTestSupport.swift computes it.

    Tests/Oracles/chromium_localstorage.py ../shared/corpus/localstorage/chromium-leveldb/*
    Tests/Oracles/chromium_localstorage.py ../shared/corpus/localstorage/chrome-legacy-sqlite/*
"""
import ctypes
import hashlib
import os
import sqlite3
import struct
import sys

snappy = ctypes.CDLL("libsnappy.so.1")


def unsnappy(data):
    length = ctypes.c_size_t()
    assert snappy.snappy_uncompressed_length(data, len(data), ctypes.byref(length)) == 0
    out = ctypes.create_string_buffer(length.value)
    assert snappy.snappy_uncompress(data, len(data), out, ctypes.byref(length)) == 0
    return out.raw[:length.value]


def varint(data, i):
    result = shift = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def write_batch(data, records):
    sequence, count = struct.unpack_from("<QI", data, 0)
    i = 12
    for n in range(count):
        kind = data[i]
        i += 1
        key_length, i = varint(data, i)
        key = data[i:i + key_length]
        i += key_length
        value = None
        if kind == 1:
            value_length, i = varint(data, i)
            value = data[i:i + value_length]
            i += value_length
        records.append((key, sequence + n, kind, value))


def read_log(path, records):
    data = open(path, "rb").read()
    position = 0
    fragment = b""
    while position + 7 <= len(data):
        left = 32768 - position % 32768
        if left < 7:
            position += left
            continue
        _, length, kind = struct.unpack_from("<IHB", data, position)
        if kind == 0 and length == 0:
            position += left
            continue
        payload = data[position + 7:position + 7 + length]
        position += 7 + length
        if len(payload) < length:
            break  # a record cut at the end: the writer stopped there
        if kind == 1:
            write_batch(payload, records)
        elif kind == 2:
            fragment = payload
        elif kind == 3:
            fragment += payload
        elif kind == 4:
            write_batch(fragment + payload, records)
            fragment = b""


def read_block(data, offset, size):
    raw = data[offset:offset + size]
    if data[offset + size] == 1:
        raw = unsnappy(raw)
    restarts = struct.unpack_from("<I", raw, len(raw) - 4)[0]
    end = len(raw) - 4 - 4 * restarts
    i = 0
    key = b""
    entries = []
    while i < end:
        shared, i = varint(raw, i)
        unshared, i = varint(raw, i)
        value_length, i = varint(raw, i)
        key = key[:shared] + raw[i:i + unshared]
        i += unshared
        entries.append((key, raw[i:i + value_length]))
        i += value_length
    return entries


def read_table(path, records):
    data = open(path, "rb").read()
    footer = data[-48:]
    assert struct.unpack_from("<Q", footer, 40)[0] == 0xDB4775248B80FB57, path
    i = 0
    _, i = varint(footer, i)
    _, i = varint(footer, i)
    index_offset, i = varint(footer, i)
    index_size, i = varint(footer, i)
    for _, handle in read_block(data, index_offset, index_size):
        offset, j = varint(handle, 0)
        size, j = varint(handle, j)
        for internal_key, value in read_block(data, offset, size):
            tag = struct.unpack_from("<Q", internal_key, len(internal_key) - 8)[0]
            records.append((internal_key[:-8], tag >> 8, tag & 0xFF, value))


def chromium_string(raw):
    if not raw:
        return ""
    if raw[0] == 1:
        return raw[1:].decode("latin-1")
    if raw[0] == 0:
        return raw[1:].decode("utf-16-le")  # raises on a lone surrogate or odd length
    raise ValueError("unknown format byte")


def digest(items):
    hasher = hashlib.sha256()
    for key, value in sorted(items, key=lambda item: item[0].encode("utf-8")):
        key_bytes, value_bytes = key.encode("utf-8"), value.encode("utf-8")
        hasher.update(b"%d:" % len(key_bytes) + key_bytes + b"%d:" % len(value_bytes) + value_bytes)
    return hasher.hexdigest()


def leveldb_origins(folder):
    records = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".log"):
            read_log(os.path.join(folder, name), records)
        elif name.endswith(".ldb") or name.endswith(".sst"):
            read_table(os.path.join(folder, name), records)
    newest = {}
    for key, sequence, kind, value in records:
        if key not in newest or newest[key][0] < sequence:
            newest[key] = (sequence, kind, value)
    origins = {}
    for key, (_, kind, value) in newest.items():
        if kind == 0 or not key.startswith(b"_"):
            continue  # deleted, or META:/METAACCESS:/VERSION
        separator = key.index(b"\0")
        origins.setdefault(key[1:separator].decode(), []).append((chromium_string(key[separator + 1:]), chromium_string(value)))
    return origins


def localstorage_items(path):
    connection = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
    return [(bytes(key).decode("utf-16-le"), bytes(value).decode("utf-16-le"))
            for key, value in connection.execute("SELECT CAST(key AS BLOB), value FROM ItemTable")]


for path in sys.argv[1:]:
    print("==", path)
    if os.path.isdir(path):
        for origin, items in sorted(leveldb_origins(path).items()):
            print("  %s: %d keys, %s" % (origin, len(items), digest(items)))
    else:
        items = localstorage_items(path)
        print("  %d keys, %s" % (len(items), digest(items)))
