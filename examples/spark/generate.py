#!/usr/bin/env python3
"""Writes a fleet's logs for the Spark job's test and its measurement: a folder per vehicle,
a log per day (`vehicle/YYYY-MM-DD.nmea`, some gzip-compressed), from a seeded generator
whose receivers differ from the fixtures' (rates, noise, talkers, decimals, damaged lines).

    examples/spark/generate.py FOLDER [--vehicles 3] [--days 3] [--minutes 30] [--seed 1]

Each day drives trips between stops; the last vehicle's second day runs past midnight.
With --damaged, the set also holds the files a fleet's archive has: a gzip file cut short,
a file that is not NMEA, an empty file, a plain log cut in the middle of a line and a log
without dates (GGA only).
"""
import argparse
import datetime
import gzip
import math
import os
import random


def checksum(body):
    value = 0
    for character in body.encode("ascii"):
        value ^= character
    return f"{value:02X}"


def sentence(body):
    return f"${body}*{checksum(body)}\r\n"


def minutes(value, degrees_width, hemispheres, decimals):
    hemisphere = hemispheres[0] if value >= 0 else hemispheres[1]
    value = abs(value)
    whole = int(value)
    rest = (value - whole) * 60
    text = f"{rest:0{decimals + 3}.{decimals}f}"
    if text.startswith("60"):
        whole, text = whole + 1, f"{0:0{decimals + 3}.{decimals}f}"
    return f"{whole:0{degrees_width}d}{text}", hemisphere


class Vehicle:
    """One receiver on one vehicle: its noise, rate and style are drawn from the seed."""

    def __init__(self, random_source, latitude, longitude):
        self.random = random_source
        self.latitude, self.longitude = latitude, longitude
        self.rate = self.random.choice([1, 1, 2, 5])
        self.decimals = self.random.choice([4, 5, 6])
        self.talker = self.random.choice(["GP", "GN"])
        self.noise = self.random.uniform(0.5, 3.0)         # metres, correlated
        self.white = self.random.uniform(0.05, 0.5)        # metres
        self.speed_noise = self.random.uniform(0.02, 0.1)  # m/s
        self.correlation = self.random.uniform(20, 90)     # seconds
        self.damage = self.random.uniform(0.0, 0.02)       # share of lines with a bad checksum
        self.offset = [0.0, 0.0]
        self.heading = self.random.uniform(0, 360)

    def day(self, start, seconds):
        """The NMEA lines of `seconds` from `start` (a UTC datetime): trips between stops."""
        lines = []
        plan = []
        remaining = seconds
        while remaining > 0:
            stop = min(remaining, self.random.uniform(90, 600))
            plan.append((stop, 0.0))
            remaining -= stop
            if remaining <= 0:
                break
            drive = min(remaining, self.random.uniform(180, 900))
            plan.append((drive, self.random.uniform(5, 20)))
            remaining -= drive
        step = 1.0 / self.rate
        time = start
        speed = 0.0
        alpha = math.exp(-step / self.correlation)
        for duration, target in plan:
            for _ in range(int(duration * self.rate)):
                speed += max(-2 * step, min(2 * step, target - speed))
                if target > 0 and self.random.random() < 0.01 * step:
                    self.heading = (self.heading + self.random.uniform(-90, 90)) % 360
                distance = speed * step
                north = distance * math.cos(math.radians(self.heading))
                east = distance * math.sin(math.radians(self.heading))
                self.latitude += north / 111_320
                self.longitude += east / (111_320 * math.cos(math.radians(self.latitude)))
                for axis in range(2):
                    self.offset[axis] = alpha * self.offset[axis] + math.sqrt(1 - alpha * alpha) * \
                        self.random.gauss(0, self.noise)
                latitude = self.latitude + (self.offset[0] + self.random.gauss(0, self.white)) / 111_320
                longitude = self.longitude + (self.offset[1] + self.random.gauss(0, self.white)) / (
                    111_320 * math.cos(math.radians(self.latitude)))
                measured = max(0.0, speed + self.random.gauss(0, self.speed_noise))
                lines += self.cycle(time, latitude, longitude, measured)
                time += datetime.timedelta(seconds=step)
        return lines

    def cycle(self, time, latitude, longitude, speed):
        clock = time.strftime("%H%M%S") + f".{time.microsecond // 10000:02d}"
        date = time.strftime("%d%m%y")
        lat, ns = minutes(latitude, 2, "NS", self.decimals)
        lon, ew = minutes(longitude, 3, "EW", self.decimals)
        knots = speed / 0.514444
        course = f"{self.heading:.1f}" if speed > 0.5 else ""
        hdop = f"{self.random.uniform(0.6, 1.8):.1f}"
        bodies = [
            f"{self.talker}GGA,{clock},{lat},{ns},{lon},{ew},1,{self.random.randint(6, 14):02d},{hdop},"
            f"{self.random.uniform(20, 120):.1f},M,47.0,M,,",
            f"{self.talker}RMC,{clock},A,{lat},{ns},{lon},{ew},{knots:.2f},{course},{date},,,A",
        ]
        lines = []
        for body in bodies:
            line = sentence(body)
            if self.random.random() < self.damage:
                line = line[:-4] + ("0" if line[-4] != "0" else "1") + line[-3:]
            lines.append(line)
        return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--vehicles", type=int, default=3)
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--damaged", action="store_true")
    options = parser.parse_args()
    source = random.Random(options.seed)
    first = datetime.datetime(2026, 3, 9, tzinfo=datetime.timezone.utc)
    written = []
    for number in range(options.vehicles):
        name = f"van-{number + 1:02d}"
        folder = os.path.join(options.folder, name)
        os.makedirs(folder, exist_ok=True)
        vehicle = Vehicle(random.Random(source.getrandbits(64)), source.uniform(-60, 60), source.uniform(-170, 170))
        for day in range(options.days):
            date = first + datetime.timedelta(days=day)
            crosses = number == options.vehicles - 1 and day == 1
            # Working hours, or the evening shift that runs past midnight.
            start = date + (datetime.timedelta(hours=23, minutes=60 - options.minutes / 2) if crosses
                            else datetime.timedelta(hours=source.uniform(6, 14)))
            text = "".join(vehicle.day(start, options.minutes * 60)).encode("ascii")
            path = os.path.join(folder, date.strftime("%Y-%m-%d") + ".nmea")
            if (number + day) % 3 == 2:
                path += ".gz"
                text = gzip.compress(text, mtime=0)
            with open(path, "wb") as file:
                file.write(text)
            written.append(path)
    if options.damaged:
        damaged = os.path.join(options.folder, "van-01")
        whole = gzip.compress(b"".join(sentence(f"GPRMC,1200{s:02d}.00,A,4807.038,N,01131.000,E,0.0,,090326,,,A")
                                       .encode() for s in range(60)), mtime=0)
        with open(os.path.join(damaged, "2026-03-12.nmea.gz"), "wb") as file:
            file.write(whole[:len(whole) // 2])
        with open(os.path.join(damaged, "2026-03-13.nmea"), "wb") as file:
            file.write(random.Random(options.seed).randbytes(4000))
        open(os.path.join(damaged, "2026-03-14.nmea"), "wb").close()
        # A receiver that sends no RMC nor ZDA: its fixes have a time of day, no date.
        undated = Vehicle(random.Random(options.seed + 1), 48.1, 11.5)
        lines = undated.day(first + datetime.timedelta(days=3, hours=10), 600)
        with open(os.path.join(options.folder, "van-02", "2026-03-12.nmea"), "w", newline="") as file:
            file.write("".join(line for line in lines if "RMC," not in line))
        # A logger killed mid-line: the last day of the second vehicle, cut short.
        cut = [path for path in written if "van-02" in path and path.endswith(".nmea")][-1]
        with open(cut, "rb") as file:
            text = file.read()
        with open(cut, "wb") as file:
            file.write(text[:len(text) * 2 // 3 + 17])


if __name__ == "__main__":
    main()
