#!/usr/bin/env python3
"""Write seeded NMEA 0183 logs of several families, for the parallel-decoding benchmark.

    python3 Benchmarks/families.py --family rtk20 --size 60M --seed 3 /tmp/rtk20.nmea
    python3 Benchmarks/families.py --list

Each family is a kind of log users have that the benchmark's own log
(Benchmarks/generate-log.py) is not, with noise models of its own (positions a random
walk plus white noise, not the fixtures' Gauss-Markov process):

- multi-gnss: 10 Hz, GN/GP/GL/GA/BD talkers, GSV groups once a second, the receiver's
  style changing every 10 minutes (which sentences, which talker, which one ends the
  cycle, with or without VTG/GLL/GNS/ZDA), 1 % of the lines damaged.
- garbage: 5 Hz GGA/RMC/GSA with 1 % damaged lines and bursts of binary garbage (1 to
  64 KB, some without a line end) every 1-3 MB, as a serial link that drops to the wrong
  baud rate writes.
- corpus: the 118 real receivers' logs of ../shared/corpus/gpsd (or --corpus DIR),
  concatenated over and over: receivers changing, time going back, unknown and
  proprietary sentences, most without dates.
- bare: GGA and RMC at 1 Hz, nothing else.
- dateless: GGA and GSA only at 2 Hz (no date anywhere), starting at 22:00 so that it
  passes midnight: decode it with --date.
- cr-only: GGA, RMC and GSV at 1 Hz with CR alone ending each line (old Macintosh-style
  loggers, some chartplotters).
- rtk20: 20 Hz RTK (GGA quality 4/5, RMC, GST every epoch, proprietary $PUBX,00 and
  $PTNL,GGK every epoch, GSV once a second).
- gga-10hz: GGA alone at 10 Hz, dated by a ZDA once a minute: a simple logger's log,
  with a fix every 75 bytes (more events per byte than a chunk may keep).

Only the standard library; the same family, size and seed give the same bytes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import sys
from functools import reduce
from operator import xor
from pathlib import Path
from typing import Iterator

FAMILIES = ("multi-gnss", "garbage", "corpus", "bare", "dateless", "cr-only", "rtk20", "gga-10hz")
CORPUS = Path(__file__).resolve().parent.parent.parent / "shared/corpus/gpsd"
EARTH_M = 6_371_000.0
GARBAGE = bytes(b for b in range(256) if b not in b"\r\n$!").decode("latin-1")


def checksum(text: str) -> int:
    return reduce(xor, text.encode("latin-1"), 0)


def sentence(body: str, end: str = "\r\n") -> str:
    return f"${body}*{checksum(body):02X}{end}"


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def coordinate(value: float, degree_digits: int, positive: str, negative: str, decimals: int) -> str:
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    minutes = round((value - degrees) * 60, decimals)
    if minutes >= 60:
        degrees, minutes = degrees + 1, 0.0
    return f"{degrees:0{degree_digits}d}{minutes:0{3 + decimals}.{decimals}f},{hemisphere}"


class Mover:
    """A receiver's true path (a random heading walk at a random speed) and its noise (a
    random walk, bounded by a pull back, plus white noise): unlike the fixtures' models."""

    def __init__(self, rng: random.Random, rate: float, latitude: float, longitude: float) -> None:
        self.rng = rng
        self.dt = 1 / rate
        self.latitude, self.longitude = latitude, longitude
        self.speed = rng.uniform(0, 25)
        self.course = rng.uniform(0, 360)
        self.walk = [0.0, 0.0]
        self.white = rng.uniform(0.05, 1.5)

    def step(self) -> tuple[float, float, float, float]:
        rng = self.rng
        if rng.random() < 0.002 * self.dt:
            self.speed = rng.choice((0.0, rng.uniform(0.2, 2), rng.uniform(5, 35)))
        self.course = (self.course + rng.gauss(0, 3) * self.dt) % 360
        north = self.speed * self.dt * math.cos(math.radians(self.course))
        east = self.speed * self.dt * math.sin(math.radians(self.course))
        self.latitude += math.degrees(north / EARTH_M)
        self.longitude += math.degrees(east / (EARTH_M * math.cos(math.radians(self.latitude))))
        for axis in range(2):
            self.walk[axis] += rng.gauss(0, 0.3 * math.sqrt(self.dt)) - 0.01 * self.walk[axis] * self.dt
        noisy_north = self.walk[0] + rng.gauss(0, self.white)
        noisy_east = self.walk[1] + rng.gauss(0, self.white)
        latitude = self.latitude + math.degrees(noisy_north / EARTH_M)
        longitude = self.longitude + math.degrees(noisy_east / (EARTH_M * math.cos(math.radians(self.latitude))))
        speed = max(0.0, self.speed + rng.gauss(0, 0.05))
        return latitude, longitude, speed, self.course


def damaged(rng: random.Random, line: str) -> str:
    """`line` damaged in one of the ways real logs are."""
    body_end = line.index("*")
    kind = rng.randrange(4)
    if kind == 0:
        position = rng.randrange(3, body_end)
        return line[:position] + ("7" if line[position] != "7" else "3") + line[position + 1 :]
    if kind == 1:
        return line[: rng.randrange(4, body_end)]
    if kind == 2:
        return "".join(rng.choice(GARBAGE) for _ in range(rng.randrange(10, 60))) + "\r\n" + line
    position = rng.randrange(3, body_end)
    return line[:position] + chr(rng.choice((0, 1, 0x1B, 0x7F, 0xB0, 0xFF))) + line[position + 1 :]


class Sky:
    """Satellites of several systems, their elevations drifting: GSV groups and GSA lists."""

    SYSTEMS = (("GP", 1, 33, 1), ("GL", 65, 89, 2), ("GA", 1, 37, 3), ("BD", 1, 46, 4))

    def __init__(self, rng: random.Random, systems: int = 4) -> None:
        self.rng = rng
        self.satellites = {
            talker: [(prn, rng.uniform(5, 85), rng.uniform(0, 360)) for prn in sorted(rng.sample(range(low, high), rng.randrange(4, 12)))]
            for talker, low, high, _ in self.SYSTEMS[:systems]
        }

    def gsv(self, second: int, gsv_talker: str | None = None) -> list[str]:
        lines = []
        for talker, satellites in self.satellites.items():
            rows = [
                (prn, int(min(89, max(0, e + 0.003 * second))) , int((a + 0.004 * second) % 360), int(20 + e / 3 + self.rng.gauss(0, 2)))
                for prn, e, a in satellites
            ]
            total = (len(rows) + 3) // 4
            for number in range(total):
                fields = [f"{gsv_talker or talker}GSV", str(total), str(number + 1), f"{len(rows):02d}"]
                for prn, elevation, azimuth, snr in rows[4 * number : 4 * number + 4]:
                    fields += [f"{prn:02d}", f"{elevation:02d}", f"{azimuth:03d}", f"{snr:02d}"]
                lines.append(",".join(fields))
        return lines

    def gsa(self, talker: str, hdop: float, with_system: bool) -> list[str]:
        lines = []
        for (system, satellites), (_, _, _, system_id) in zip(self.satellites.items(), self.SYSTEMS):
            prns = [f"{p:02d}" for p, e, _ in satellites if e > 10][:12]
            prns += [""] * (12 - len(prns))
            tail = f",{system_id}" if with_system else ""
            lines.append(f"{talker}GSA,A,3,{','.join(prns)},{hdop * 1.7:.2f},{hdop:.2f},{hdop * 1.4:.2f}{tail}")
            if not with_system:
                break
        return lines


def clock(moment: dt.datetime, decimals: int) -> str:
    text = moment.strftime("%H%M%S")
    if decimals:
        text += f"{moment.microsecond / 1e6:.{decimals}f}"[1:]
    return text


def multi_gnss(rng: random.Random) -> Iterator[str]:
    rate = 10
    mover = Mover(rng, rate, rng.uniform(-60, 60), rng.uniform(-180, 180))
    sky = Sky(rng)
    moment = dt.datetime(2026, 3, 14, 21, 30, tzinfo=dt.timezone.utc)
    epoch = 0
    style = None
    while True:
        if epoch % (rate * 600) == 0:
            # A new style every 10 minutes: another configuration of the same receiver.
            style = {
                "talker": rng.choice(("GN", "GP")),
                "vtg": rng.random() < 0.5,
                "gll": rng.random() < 0.5,
                "gns": rng.random() < 0.4,
                "zda": rng.random() < 0.5,
                "rmc_last": rng.random() < 0.3,
                "decimals": rng.choice((4, 5, 6, 7)),
                "gsv_talker": rng.choice((None, "GN")),
            }
        latitude, longitude, speed, course = mover.step()
        talker, decimals = style["talker"], style["decimals"]
        time = clock(moment, 2)
        lat = coordinate(latitude, 2, "N", "S", decimals)
        lon = coordinate(longitude, 3, "E", "W", decimals)
        knots = speed * 3600 / 1852
        hdop = rng.uniform(0.5, 1.6)
        rmc = f"{talker}RMC,{time},A,{lat},{lon},{knots:.3f},{course:.2f},{moment:%d%m%y},,,A,V"
        bodies = [] if style["rmc_last"] else [rmc]
        if style["vtg"]:
            bodies.append(f"{talker}VTG,{course:.2f},T,,M,{knots:.3f},N,{speed * 3.6:.3f},K,A")
        bodies.append(f"{talker}GGA,{time},{lat},{lon},1,12,{hdop:.2f},{rng.uniform(300, 310):.1f},M,47.4,M,,")
        if style["gns"]:
            bodies.append(f"{talker}GNS,{time},{lat},{lon},AAAA,24,{hdop:.2f},{rng.uniform(300, 310):.1f},47.4,,,V")
        bodies += sky.gsa(talker, hdop, talker == "GN")
        if epoch % rate == 0:
            bodies += sky.gsv(epoch // rate, style["gsv_talker"])
        if style["gll"]:
            bodies.append(f"{talker}GLL,{lat},{lon},{time},A,A")
        if style["zda"] and epoch % rate == 0:
            bodies.append(f"{talker}ZDA,{time},{moment:%d,%m,%Y},00,00")
        if style["rmc_last"]:
            bodies.append(rmc)
        text = "".join(damaged(rng, sentence(b)) if rng.random() < 0.01 else sentence(b) for b in bodies)
        yield text
        epoch += 1
        moment += dt.timedelta(seconds=1 / rate)


def garbage(rng: random.Random) -> Iterator[str]:
    rate = 5
    mover = Mover(rng, rate, rng.uniform(-60, 60), rng.uniform(-180, 180))
    sky = Sky(rng, 2)
    moment = dt.datetime(2026, 7, 2, 6, 0, tzinfo=dt.timezone.utc)
    written = 0
    next_burst = rng.randrange(1 << 20, 3 << 20)
    while True:
        latitude, longitude, speed, course = mover.step()
        time = clock(moment, 1)
        lat = coordinate(latitude, 2, "N", "S", 5)
        lon = coordinate(longitude, 3, "E", "W", 5)
        bodies = [
            f"GPGGA,{time},{lat},{lon},1,09,0.9,{rng.uniform(30, 40):.1f},M,12.1,M,,",
            f"GPRMC,{time},A,{lat},{lon},{speed * 3600 / 1852:.2f},{course:.1f},{moment:%d%m%y},,,A",
        ] + sky.gsa("GP", 0.9, False)
        text = "".join(damaged(rng, sentence(b)) if rng.random() < 0.01 else sentence(b) for b in bodies)
        if written >= next_burst:
            length = rng.randrange(1 << 10, 64 << 10)
            # Some bursts carry line ends, some none: a whole burst becomes one long line.
            alphabet = GARBAGE + ("\r\n" if rng.random() < 0.5 else "")
            text = "".join(rng.choice(alphabet) for _ in range(length)) + "\r\n" + text
            next_burst = written + rng.randrange(1 << 20, 3 << 20)
        yield text
        written += len(text)
        moment += dt.timedelta(seconds=1 / rate)


def corpus(rng: random.Random, directory: Path) -> Iterator[str]:
    logs = sorted(p for p in directory.glob("*.log"))
    if not logs:
        sys.exit(f"no corpus logs in {directory}")
    pieces = [p.read_bytes().decode("latin-1") for p in logs]
    while True:
        # Each round in another order: receivers follow each other differently.
        order = list(range(len(pieces)))
        rng.shuffle(order)
        for index in order:
            text = pieces[index]
            yield text if text.endswith("\n") else text + "\n"


def bare(rng: random.Random, rate: float = 1, end: str = "\r\n", gsv: bool = False) -> Iterator[str]:
    mover = Mover(rng, rate, rng.uniform(-60, 60), rng.uniform(-180, 180))
    sky = Sky(rng, 1)
    moment = dt.datetime(2025, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
    epoch = 0
    while True:
        latitude, longitude, speed, course = mover.step()
        time = clock(moment, 0)
        lat = coordinate(latitude, 2, "N", "S", 4)
        lon = coordinate(longitude, 3, "E", "W", 4)
        bodies = [
            f"GPGGA,{time},{lat},{lon},1,07,1.2,{rng.uniform(10, 20):.1f},M,-3.2,M,,",
            f"GPRMC,{time},A,{lat},{lon},{speed * 3600 / 1852:.1f},{course:.1f},{moment:%d%m%y},3.1,W",
        ]
        if gsv and epoch % int(rate) == 0:
            bodies += sky.gsv(epoch)
        text = "".join(sentence(b, end) for b in bodies)
        yield text
        epoch += 1
        moment += dt.timedelta(seconds=1 / rate)


def dateless(rng: random.Random) -> Iterator[str]:
    rate = 2
    mover = Mover(rng, rate, rng.uniform(-60, 60), rng.uniform(-180, 180))
    sky = Sky(rng, 1)
    # 22:00, so that a log of more than 2 hours (about 5 MB) passes midnight.
    moment = dt.datetime(2026, 1, 9, 22, 0, tzinfo=dt.timezone.utc)
    while True:
        latitude, longitude, _, _ = mover.step()
        time = clock(moment, 1)
        lat = coordinate(latitude, 2, "N", "S", 5)
        lon = coordinate(longitude, 3, "E", "W", 5)
        bodies = [f"GPGGA,{time},{lat},{lon},2,08,1.0,{rng.uniform(50, 60):.2f},M,40.1,M,2.0,0120"]
        bodies += sky.gsa("GP", 1.0, False)
        text = "".join(sentence(b) for b in bodies)
        yield text
        moment += dt.timedelta(seconds=1 / rate)


def rtk20(rng: random.Random) -> Iterator[str]:
    rate = 20
    mover = Mover(rng, rate, rng.uniform(-60, 60), rng.uniform(-180, 180))
    mover.white = rng.uniform(0.005, 0.03)
    sky = Sky(rng, 3)
    moment = dt.datetime(2026, 5, 5, 9, 0, tzinfo=dt.timezone.utc)
    epoch = 0
    while True:
        latitude, longitude, speed, course = mover.step()
        time = clock(moment, 2)
        lat = coordinate(latitude, 2, "N", "S", 8)
        lon = coordinate(longitude, 3, "E", "W", 8)
        quality = 4 if (epoch // (rate * 120)) % 4 else 5
        height = rng.uniform(100, 101)
        bodies = [
            f"GNGGA,{time},{lat},{lon},{quality},18,0.6,{height:.3f},M,31.2,M,1.0,0042",
            f"GNRMC,{time},A,{lat},{lon},{speed * 3600 / 1852:.3f},{course:.2f},{moment:%d%m%y},,,R,V",
            f"GNGST,{time},0.012,0.010,0.008,37.2,{rng.uniform(0.008, 0.02):.3f},{rng.uniform(0.008, 0.02):.3f},0.021",
            # u-blox documents NF, DR, G2, G3, D2, D3, RK and TT; a corrected fix is D3.
            f"PUBX,00,{time},{lat},{lon},{height:.3f},D3,0.01,0.02,{speed * 3.6:.3f},{course:.2f},0.000,,0.6,0.8,0.5,18,0,0",
            f"PTNL,GGK,{time},{moment:%m%d%y},{lat},{lon},3,18,0.6,EHT{height:.3f},M",
        ]
        if epoch % rate == 0:
            bodies += sky.gsv(epoch // rate)
        text = "".join(sentence(b) for b in bodies)
        yield text
        epoch += 1
        moment += dt.timedelta(seconds=1 / rate)


def gga_10hz(rng: random.Random) -> Iterator[str]:
    rate = 10
    mover = Mover(rng, rate, rng.uniform(-60, 60), rng.uniform(-180, 180))
    moment = dt.datetime(2026, 8, 30, 23, 0, tzinfo=dt.timezone.utc)
    while True:
        latitude, longitude, _, _ = mover.step()
        time = clock(moment, 2)
        bodies = [f"GPGGA,{time},{coordinate(latitude, 2, 'N', 'S', 5)},{coordinate(longitude, 3, 'E', 'W', 5)},1,08,1.0,"
                  f"{rng.uniform(500, 501):.1f},M,47.0,M,,"]
        if moment.second == 0 and moment.microsecond == 0:
            bodies.append(f"GPZDA,{time},{moment:%d,%m,%Y},00,00")
        text = "".join(sentence(b) for b in bodies)
        yield text
        moment += dt.timedelta(seconds=1 / rate)


def generate(family: str, path: str, size: int, seed: int, corpus_directory: Path) -> None:
    rng = random.Random(f"{family}-{seed}")
    epochs = {
        "multi-gnss": lambda: multi_gnss(rng),
        "garbage": lambda: garbage(rng),
        "corpus": lambda: corpus(rng, corpus_directory),
        "bare": lambda: bare(rng),
        "dateless": lambda: dateless(rng),
        "cr-only": lambda: bare(rng, end="\r", gsv=True),
        "rtk20": lambda: rtk20(rng),
        "gga-10hz": lambda: gga_10hz(rng),
    }
    if family not in epochs:
        sys.exit(f"unknown family {family}: one of {', '.join(FAMILIES)}")
    written = 0
    with open(path, "w", encoding="latin-1", newline="") as out:
        # Epoch by epoch (a log at a time for the corpus) until the size is reached.
        for text in epochs[family]():
            out.write(text)
            written += len(text)
            if written >= size:
                break


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", help="where to write the log")
    parser.add_argument("--family", choices=FAMILIES, default="multi-gnss")
    parser.add_argument("--size", default="60M", help="at least this many bytes, with K/M/G suffixes (default 60M)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--corpus", default=str(CORPUS), help="the corpus folder for --family corpus")
    parser.add_argument("--list", action="store_true", help="list the families")
    arguments = parser.parse_args()
    if arguments.list:
        print("\n".join(FAMILIES))
        return
    if not arguments.path:
        parser.error("a path is needed")
    generate(arguments.family, arguments.path, parse_size(arguments.size), arguments.seed, Path(arguments.corpus))


if __name__ == "__main__":
    main()
