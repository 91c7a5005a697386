#!/usr/bin/env python3
"""Writes the property-list fixtures of Tests/RizqImportTests/PropertyListReaderTests.swift
with Python's plistlib, a writer independent of Foundation's. Run it from anywhere; it writes
beside itself. The files are committed, so the tests do not need Python; run it again only to
change them (and the tests' expected values with them). No fixture holds anything token-shaped:
the tests make their fake tokens at run time.
"""
import datetime
import json
import os
import plistlib

HERE = os.path.dirname(os.path.abspath(__file__))

# Codable JSON as JSONEncoder writes it for the seed app's UserPreferences.
USER_PREFERENCES = json.dumps(
    {"notificationsEnabled": True, "hapticsEnabled": True, "dailyGoal": 3, "preferredTimeSlots": ["morning", "evening"]},
    separators=(",", ":"),
).encode()

# Every type a defaults plist holds, in a fixed order (plistlib keeps insertion order).
TYPED = {
    "flag_on": True,
    "flag_off": False,
    "zero": 0,
    "streak": 12,
    "negative": -503,
    "two_bytes": 40000,
    "four_bytes": 3000000000,
    "int_max": 2**63 - 1,
    "int_min": -(2**63),
    "uint_max": 2**64 - 1,
    "half": 0.5,
    "one_double": 1.0,
    "huge": 1e300,
    "whole_date": datetime.datetime(2024, 11, 22, 13, 47, 0),
    # XML keeps whole seconds; binary keeps the fraction.
    "precise_date": datetime.datetime(2024, 11, 22, 13, 47, 0, 250000),
    "old_date": datetime.datetime(1900, 1, 1, 0, 0, 0),
    "bytes": b"\x00\x01\xfe\xff",
    "no_bytes": b"",
    "theme_mode": "dark",
    "unicode": "caf\u00e9 \u2014 \u0645\u0631\u062d\u0628\u0627 \U0001F600",
    "empty_text": "",
    "digits_text": "42",
    "markup": "<a & b> \"q\" 'a'\r\n\ttab",
    "cached_journey_ids": [3, 14, 15],
    "empty_list": [],
    "empty_dict": {},
    "nested": {"level1": {"level2": [1, 2.5, True, "x", {"deep": datetime.datetime(2001, 1, 1, 0, 0, 0)}], "blob": b"\x7f"}},
    "user_preferences": USER_PREFERENCES,
}

# Values a suite cannot hold; binary only (XML has no UID).
ODD = {
    "fine": "ok",
    "archived_uid": plistlib.UID(3),
    "nested_uid": {"x": [plistlib.UID(1)]},
    "not_a_number": float("nan"),
    "infinite": float("inf"),
    "lone_surrogate": "a\u0100b",  # patched below: U+0100 becomes a lone 0xD800
    "after": 7,
}


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


write("typed.xml.plist", plistlib.dumps(TYPED, fmt=plistlib.FMT_XML, sort_keys=False))
write("typed.binary.plist", plistlib.dumps(TYPED, fmt=plistlib.FMT_BINARY, sort_keys=False))

odd = plistlib.dumps(ODD, fmt=plistlib.FMT_BINARY, sort_keys=False)
units = "a\u0100b".encode("utf-16be")
assert odd.count(units) == 1
write("odd.binary.plist", odd.replace(units, "a".encode("utf-16be") + b"\xd8\x00" + "b".encode("utf-16be")))

write("root-array.binary.plist", plistlib.dumps(["a", 1], fmt=plistlib.FMT_BINARY))
write("root-array.xml.plist", plistlib.dumps(["a", 1], fmt=plistlib.FMT_XML))
