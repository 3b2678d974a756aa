#!/usr/bin/env python3
"""Write a large, realistic, seeded NMEA 0183 log for the benchmarks.

    python3 Benchmarks/generate-log.py /tmp/whereami-bench.nmea            # 220 MB
    python3 Benchmarks/generate-log.py --size 2G --seed 7 /tmp/big.nmea

The log is what a u-blox F9 style GPS+GLONASS+Galileo+BeiDou receiver writes at
10 Hz (NMEA 4.11, GN talker, CRLF): every epoch RMC, VTG, GGA, GNS, four GSAs (one
per system), GLL and GST; every second the GSV groups of eight signals and ZDA. The
antenna drives round a 2.5 km loop in Munich, starting at 18:00 UTC so that a
log of a few hours crosses midnight, with RTK fixed, RTK float, DGPS and
autonomous stretches. About 1 % of the lines are damaged, each in one of the ways
real logs are: a changed character under the old checksum, a sentence cut off and
glued to the next, a line of binary garbage, a non-printable byte inside a
sentence, an impossible latitude under a correct checksum.

Speed matters more than variety: one loop of the track (3000 epochs, five
minutes) is made once as templates whose time and date fields are filled in per
epoch, with checksums updated by XOR, so 200 MB take a few seconds. Only the
standard library is used; the same seed and size give the same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import sys
from functools import reduce
from operator import xor

LOOP_EPOCHS = 3000  # five minutes at 10 Hz
RATE = 10  # epochs per second
CENTRE = (48.137154, 11.576124)  # Marienplatz, Munich
RADIUS_M = 400.0
START = dt.datetime(2025, 6, 21, 18, 0, 0, tzinfo=dt.timezone.utc)
EARTH_M = 6_371_000.0


def checksum(text: str) -> int:
    return reduce(xor, text.encode("latin-1"), 0)


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def angle(value: float, degree_digits: int, positive: str, negative: str) -> tuple[str, str]:
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    if round(minutes, 6) >= 60:
        degrees, minutes = degrees + 1, 0.0
    return f"{degrees:0{degree_digits}d}{minutes:09.6f}", hemisphere


class Satellite:
    def __init__(self, rng: random.Random, system: str, prn: int, signals: tuple[int, ...]):
        self.system, self.prn, self.signals = system, prn, signals
        self.elevation = rng.uniform(3, 85)
        self.azimuth = rng.uniform(0, 360)
        self.rate = rng.uniform(-0.02, 0.02)
        self.offset = rng.gauss(0, 2)


def make_sky(rng: random.Random) -> list[Satellite]:
    sky = []
    for system, prns, signals in (
        ("GP", rng.sample(range(1, 33), 11), (1, 6)),
        ("GL", rng.sample(range(65, 89), 8), (1, 3)),
        ("GA", rng.sample(range(1, 37), 9), (7, 2)),
        ("GB", rng.sample(range(1, 46), 10), (1, 0xB)),
    ):
        sky += [Satellite(rng, system, prn, signals) for prn in sorted(prns)]
    return sky


def sky_sentences(rng: random.Random, sky: list[Satellite], second: int) -> tuple[list[str], dict[str, list[int]]]:
    """GSV groups for one second, and the satellites used per system."""
    lines: list[str] = []
    used: dict[str, list[int]] = {}
    for system in ("GP", "GL", "GA", "GB"):
        mine = [s for s in sky if s.system == system]
        used[system] = []
        for signal in mine[0].signals:
            rows = []
            for s in mine:
                elevation = max(0.0, min(89.0, s.elevation + s.rate * second))
                azimuth = (s.azimuth + 0.01 * second) % 360
                snr = None if elevation < 5 else int(min(54, max(16, 30 + 18 * math.sin(math.radians(elevation)) + s.offset + rng.gauss(0, 1))))
                rows.append((s.prn, int(elevation), int(azimuth), snr))
                if signal == mine[0].signals[0] and snr is not None and elevation >= 10 and len(used[system]) < 12:
                    used[system].append(s.prn)
            total = (len(rows) + 3) // 4
            for number in range(total):
                parts = [f"{system}GSV", str(total), str(number + 1), f"{len(rows):02d}"]
                for prn, elevation, azimuth, snr in rows[4 * number : 4 * number + 4]:
                    parts += [f"{prn:02d}", f"{elevation:02d}", f"{azimuth:03d}", "" if snr is None else f"{snr:02d}"]
                parts.append(format(signal, "X"))
                lines.append(",".join(parts))
    return lines, used


# A template is a list of text pieces and field names ("T" time, "D" ddmmyy date,
# "Z" ZDA's dd,mm,yyyy); its checksum over the constant pieces is kept with it.
Template = tuple[tuple[str, ...], int]


def template(*pieces: str) -> Template:
    constant = reduce(xor, (checksum(p) for p in pieces if p not in ("T", "D", "Z")), 0)
    return pieces, constant


def make_loop(rng: random.Random) -> list[list[Template]]:
    """The templates of one loop of the track, epoch by epoch."""
    sky = make_sky(rng)
    epochs: list[list[Template]] = []
    used: dict[str, list[int]] = {}
    noise_north = noise_east = 0.0
    for epoch in range(LOOP_EPOCHS):
        second, tenth = divmod(epoch, RATE)
        phase = 2 * math.pi * epoch / LOOP_EPOCHS
        # Quality stretches along the loop: RTK fixed, float, DGPS, autonomous.
        fraction = epoch / LOOP_EPOCHS
        quality, mode, sigma = (
            (4, "R", 0.02) if fraction < 0.55 else (5, "F", 0.3) if fraction < 0.7 else (2, "D", 0.8) if fraction < 0.85 else (1, "A", 2.0)
        )
        noise_north = 0.98 * noise_north + rng.gauss(0, sigma * 0.2)
        noise_east = 0.98 * noise_east + rng.gauss(0, sigma * 0.2)
        north = RADIUS_M * math.sin(phase) + noise_north
        east = RADIUS_M * (1 - math.cos(phase)) + noise_east
        latitude = CENTRE[0] + math.degrees(north / EARTH_M)
        longitude = CENTRE[1] + math.degrees(east / (EARTH_M * math.cos(math.radians(CENTRE[0]))))
        speed = 2 * math.pi * RADIUS_M / (LOOP_EPOCHS / RATE) * (1 + rng.gauss(0, 0.01))
        course = (math.degrees(phase) + 360) % 360
        knots = speed * 3600 / 1852
        lat, ns = angle(latitude, 2, "N", "S")
        lon, ew = angle(longitude, 3, "E", "W")
        altitude = 519.4 + 3 * math.sin(phase * 2) + rng.gauss(0, sigma)
        hdop = 0.5 + 0.1 * math.sin(phase * 3)
        if tenth == 0:
            gsv, used = sky_sentences(rng, sky, second)
        count = sum(len(v) for v in used.values())
        age, station = ("", "") if quality == 1 else ("1.0", "0001")
        lines = [
            template("GNRMC,", "T", f",A,{lat},{ns},{lon},{ew},{knots:.3f},{course:.2f},", "D", f",,,{mode},V"),
            template(f"GNVTG,{course:.2f},T,,M,{knots:.3f},N,{speed * 3.6:.3f},K,{mode}"),
            template(
                "GNGGA,", "T", f",{lat},{ns},{lon},{ew},{quality},{count:02d},{hdop:.2f},{altitude:.2f},M,47.40,M,{age},{station}"
            ),
            template("GNGNS,", "T", f",{lat},{ns},{lon},{ew},{mode * 4},{count:02d},{hdop:.2f},{altitude:.2f},47.40,{age},{station},V"),
        ]
        for system_id, system in enumerate(("GP", "GL", "GA", "GB"), start=1):
            prns = [f"{p:02d}" for p in used[system]] + [""] * (12 - len(used[system]))
            lines.append(template(f"GNGSA,A,3,{','.join(prns)},{hdop * 1.6:.2f},{hdop:.2f},{hdop * 1.3:.2f},{system_id}"))
        if tenth == 0:
            lines += [template(text) for text in gsv]
        lines.append(template(f"GNGLL,{lat},{ns},{lon},{ew},", "T", f",A,{mode}"))
        lines.append(
            template("GNGST,", "T", f",{sigma * 2:.3f},{sigma * 1.2:.3f},{sigma:.3f},{course % 180:.1f},{sigma:.3f},{sigma * 1.1:.3f},{sigma * 1.8:.3f}")
        )
        if tenth == 0:
            lines.append(template("GNZDA,", "T", ",", "Z", ",00,00"))
        epochs.append(lines)
    return epochs


GARBAGE = bytes(b for b in range(256) if b not in b"\r\n$!").decode("latin-1")


def damage(rng: random.Random, line: str) -> tuple[str, str]:
    """One damaged version of a complete line `$...*HH\\r\\n`, and its ending."""
    kind = rng.randrange(5)
    body_end = line.index("*")
    if kind == 0:  # a changed character under the old checksum
        position = rng.randrange(7, body_end)
        replacement = "7" if line[position] != "7" else "3"
        return line[:position] + replacement + line[position + 1 :], ""
    if kind == 1:  # cut off, the next sentence glued to it
        return line[: rng.randrange(8, body_end)], ""
    if kind == 2:  # a line of binary garbage before the sentence's own line
        return "".join(rng.choice(GARBAGE) for _ in range(rng.randrange(10, 60))) + "\r\n" + line, "garbage"
    if kind == 3:  # a non-printable byte inside
        position = rng.randrange(7, body_end)
        return line[:position] + chr(rng.choice((0, 1, 0x1B, 0x7F, 0xB0, 0xFF))) + line[position + 1 :], ""
    # an impossible latitude (minutes 6x) under a correct checksum
    body = line[1:body_end]
    fields = body.split(",")
    for index, field in enumerate(fields):
        if len(field) >= 9 and field[4] == "." and field[:4].isdigit():
            fields[index] = field[:2] + "6" + field[3:]
            body = ",".join(fields)
            return f"${body}*{checksum(body):02X}\r\n", ""
    return line[: rng.randrange(8, body_end)], ""


def generate(path: str, size: int, seed: int) -> tuple[int, int, int]:
    rng = random.Random(seed)
    loop = make_loop(rng)
    digit_pairs = [f"{n:02d}" for n in range(100)]
    written = lines = damaged = 0
    chunk: list[str] = []
    with open(path, "w", encoding="latin-1", newline="") as output:
        banner = ["GNTXT,01,01,02,u-blox AG - www.u-blox.com", "GNTXT,01,01,02,MOD=ZED-F9P", "GNTXT,01,01,02,GPS;GLO;GAL;BDS"]
        for text in banner:
            chunk.append(f"${text}*{checksum(text):02X}\r\n")
        epoch_index = 0
        while written < size:
            second, tenth = divmod(epoch_index, RATE)
            moment = START + dt.timedelta(seconds=second)
            if tenth == 0:
                clock = digit_pairs[moment.hour] + digit_pairs[moment.minute] + digit_pairs[moment.second]
                clock_sum = checksum(clock)
                date = digit_pairs[moment.day] + digit_pairs[moment.month] + digit_pairs[moment.year % 100]
                zda = f"{moment.day:02d},{moment.month:02d},{moment.year:04d}"
                values = {"D": (date, checksum(date)), "Z": (zda, checksum(zda))}
            fraction = f".{tenth}0"
            values["T"] = (clock + fraction, clock_sum ^ checksum(fraction))
            for pieces, constant in loop[epoch_index % LOOP_EPOCHS]:
                total = constant
                text = []
                for piece in pieces:
                    if piece in values:
                        value, value_sum = values[piece]
                        text.append(value)
                        total ^= value_sum
                    else:
                        text.append(piece)
                line = f"${''.join(text)}*{total:02X}\r\n"
                lines += 1
                if rng.random() < 0.01:
                    line, _ = damage(rng, line)
                    damaged += 1
                chunk.append(line)
            epoch_index += 1
            if len(chunk) > 20000:
                block = "".join(chunk)
                output.write(block)
                written += len(block)
                chunk.clear()
        block = "".join(chunk)
        output.write(block)
        written += len(block)
    return written, lines, damaged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="where to write the log (in /tmp: never commit it)")
    parser.add_argument("--size", default="220M", help="at least this many bytes, with K/M/G suffixes (default 220M)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    arguments = parser.parse_args()
    written, lines, damaged = generate(arguments.path, parse_size(arguments.size), arguments.seed)
    print(
        f"{arguments.path}: {written / 1e6:.1f} MB, {lines} sentences, {damaged} damaged ({100 * damaged / lines:.2f} %)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
