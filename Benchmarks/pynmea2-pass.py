#!/usr/bin/python3
"""A peer for the benchmark: pynmea2 (Debian's python3-nmea2) parsing every line of a log
from standard input with checksum checks, reading the position of every GGA and RMC.
Prints the counts, so that the work cannot be skipped."""
import sys

import pynmea2

parsed = failed = 0
total = 0.0
for raw in sys.stdin.buffer:
    line = raw.decode("ascii", "replace").strip()
    if not line or line.startswith("#"):
        continue
    try:
        sentence = pynmea2.parse(line, check=True)
    except (pynmea2.ParseError, ValueError, AttributeError, TypeError, KeyError):
        failed += 1
        continue
    parsed += 1
    if sentence.sentence_type in ("GGA", "RMC"):
        try:
            total += sentence.latitude + sentence.longitude
        except (ValueError, TypeError, AttributeError):
            # A damaged sentence that pynmea2 parsed with fewer fields than its type has.
            failed += 1
print(f"{parsed} parsed, {failed} failed, {total}")
