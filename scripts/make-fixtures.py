#!/usr/bin/env python3
"""Generate the synthetic NMEA 0183 fixtures in fixtures/.

    python3 scripts/make-fixtures.py           # (re)write fixtures/, then check them
    python3 scripts/make-fixtures.py --check   # regenerate in memory, compare with
                                               # fixtures/ byte for byte, then check

Everything is deterministic: every random stream has a fixed seed, so two runs
produce byte-identical files.  Needs Python 3.11+ and geographiclib
(`pip install geographiclib`); nothing else outside the standard library.

The true trajectory of every log is integrated with geographiclib's exact WGS84
geodesics (Geodesic.WGS84.Direct, ten sub-steps per second), so straight legs are
true geodesics and the *.truth.json numbers are exact for the noise-free path.
The reported positions add a slowly wandering first-order Gauss-Markov error;
speed and course come from the true velocity plus small white noise.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import random
import re
import sys
from pathlib import Path

try:
    from geographiclib.geodesic import Geodesic
except ImportError:  # pragma: no cover
    sys.exit("make-fixtures.py needs geographiclib: pip install geographiclib")

WGS84 = Geodesic.WGS84
ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
UTC = dt.timezone.utc
CRLF = "\r\n"
KNOTS_PER_MPS = 3600.0 / 1852.0


# --------------------------------------------------------------------------
# NMEA formatting
# --------------------------------------------------------------------------

def xor_checksum(body: str | bytes) -> int:
    """XOR of all bytes between the leading '$'/'!' and the '*'."""
    if isinstance(body, str):
        body = body.encode("ascii")
    c = 0
    for b in body:
        c ^= b
    return c


def sentence(body: str, lead: str = "$") -> str:
    return f"{lead}{body}*{xor_checksum(body):02X}"


def fmt_angle(value: float, deg_digits: int, pos: str, neg: str) -> tuple[str, str]:
    """ddmm.mmmmmm / dddmm.mmmmmm.  Rounds in integer micro-minutes so that
    the minutes can never print as 60.000000."""
    hemi = pos if value >= 0 else neg
    micro = round(abs(value) * 60.0 * 1_000_000)
    deg, rem = divmod(micro, 60_000_000)
    mins, frac = divmod(rem, 1_000_000)
    return f"{deg:0{deg_digits}d}{mins:02d}.{frac:06d}", hemi


def fmt_lat(lat: float) -> tuple[str, str]:
    return fmt_angle(lat, 2, "N", "S")


def fmt_lon(lon: float) -> tuple[str, str]:
    return fmt_angle(lon, 3, "E", "W")


def fmt_time(t: dt.datetime) -> str:
    return t.strftime("%H%M%S") + f".{t.microsecond // 10000:02d}"


def fmt_date(t: dt.datetime) -> str:
    return t.strftime("%d%m%y")


def fmt_knots(mps: float) -> str:
    return f"{mps * KNOTS_PER_MPS:.3f}"


def fmt_course(deg: float) -> str:
    v = round(deg % 360.0, 2)
    if v >= 360.0:
        v -= 360.0
    return f"{v:.2f}"


def iso(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------
# Noise and motion models
# --------------------------------------------------------------------------

class GaussMarkov:
    """First-order Gauss-Markov process with stationary std-dev `sigma`,
    correlation time `tau` (s), sampled every `step` seconds."""

    def __init__(self, rng: random.Random, sigma: float, tau: float, step: float = 1.0):
        self.rng = rng
        self.phi = math.exp(-step / tau)
        self.q = sigma * math.sqrt(1.0 - self.phi * self.phi)
        self.x = rng.gauss(0.0, sigma)

    def next(self) -> float:
        self.x = self.phi * self.x + self.rng.gauss(0.0, self.q)
        return self.x


def turn_rate(turns, t: float) -> float:
    """Yaw rate (deg/s) from a list of (start_s, duration_s, total_deg) turns,
    each with a raised-cosine rate profile (smooth in and out)."""
    r = 0.0
    for t0, dur, ang in turns:
        if t0 <= t < t0 + dur:
            r += ang / dur * (1.0 - math.cos(2.0 * math.pi * (t - t0) / dur))
    return r


def simulate(lat, lon, heading, n_epochs, target_speed, yaw_rate,
             accel, decel, v0=0.0, substeps=10):
    """Integrate a ground track on the WGS84 ellipsoid.

    Returns one state per 1 Hz epoch: t (s), lat, lon, v (m/s), course (deg,
    the geodesic azimuth of motion), s (metres travelled so far)."""
    h = 1.0 / substeps
    v = v0
    s = 0.0
    hdg = heading
    out = []
    for i in range(n_epochs):
        out.append({"t": float(i), "lat": lat, "lon": lon, "v": v,
                    "course": hdg % 360.0, "s": s})
        for k in range(substeps):
            t = i + k * h
            tgt = target_speed(t)
            if v < tgt:
                v_new = min(tgt, v + accel * h)
            else:
                v_new = max(tgt, v - decel * h)
            d = 0.5 * (v + v_new) * h
            yaw = yaw_rate(t + 0.5 * h)
            r = WGS84.Direct(lat, lon, hdg + 0.5 * yaw * h, d)
            lat, lon = r["lat2"], r["lon2"]
            hdg = r["azi2"] + 0.5 * yaw * h
            v = v_new
            s += d
    return out


def offset(lat: float, lon: float, north: float, east: float) -> tuple[float, float]:
    d = math.hypot(north, east)
    if d == 0.0:
        return lat, lon
    r = WGS84.Direct(lat, lon, math.degrees(math.atan2(east, north)), d)
    return r["lat2"], r["lon2"]


def truth_summary(traj, start: dt.datetime) -> dict:
    length = 0.0
    for a, b in zip(traj, traj[1:]):
        length += WGS84.Inverse(a["lat"], a["lon"], b["lat"], b["lon"])["s12"]
    disp = WGS84.Inverse(traj[0]["lat"], traj[0]["lon"], traj[-1]["lat"], traj[-1]["lon"])["s12"]
    return {
        "start_utc": iso(start),
        "end_utc": iso(start + dt.timedelta(seconds=len(traj) - 1)),
        "epochs": len(traj),
        "path_length_m": round(length, 3),
        "displacement_m": round(disp, 3),
        "start": {"lat": round(traj[0]["lat"], 9), "lon": round(traj[0]["lon"], 9)},
        "end": {"lat": round(traj[-1]["lat"], 9), "lon": round(traj[-1]["lon"], 9)},
        "max_speed_mps": round(max(p["v"] for p in traj), 3),
    }


# --------------------------------------------------------------------------
# Satellite sky and DOP
# --------------------------------------------------------------------------

class Sat:
    def __init__(self, system, prn, el, az, el_rate, az_rate, cno_offset, signals):
        self.system = system          # "GP", "GL", "GA", "GB"
        self.prn = prn
        self.el0, self.az0 = el, az
        self.el_rate, self.az_rate = el_rate, az_rate
        self.cno_offset = cno_offset
        self.signals = signals        # {signal id: C/N0 offset dB}
        self.blocked = False
        self.noise = None

    def el(self, t):
        return min(89.0, self.el0 + self.el_rate * t)

    def az(self, t):
        return (self.az0 + self.az_rate * t) % 360.0


def make_sats(rng, system, prns, els, signal_sets=None, geo=()):
    """A plausible sky: azimuths spread round the horizon, elevations taken
    from `els` in shuffled order, slow drifts (a few degrees in 10 minutes)."""
    n = len(prns)
    order = list(range(n))
    rng.shuffle(order)
    az_offset = rng.uniform(0.0, 360.0)
    sats = []
    for k, prn in enumerate(prns):
        el = els[order[k]] + rng.uniform(-2.0, 2.0)
        az = (az_offset + k * 360.0 / n + rng.uniform(-12.0, 12.0)) % 360.0
        if prn in geo:
            el_rate = az_rate = 0.0
        else:
            if el < 15.0:
                el_rate = rng.uniform(0.002, 0.006)
            else:
                el_rate = rng.choice((-1.0, 1.0)) * rng.uniform(0.002, 0.008)
            az_rate = rng.choice((-1.0, 1.0)) * rng.uniform(0.002, 0.010)
        sigs = signal_sets(prn) if signal_sets else {1: 0.0}
        sats.append(Sat(system, prn, el, az, el_rate, az_rate, rng.gauss(0.0, 1.5), sigs))
    return sats


class Sky:
    """Tracks a fixed set of satellites; every step gives per-satellite
    elevation, azimuth, C/N0 per signal (None = not tracked) and whether the
    satellite is used in the fix.  `horizon`, if given, maps an azimuth to the
    elevation of a local obstruction (a building); a satellite below it is
    not tracked at all."""

    def __init__(self, rng, sats, p_block, p_unblock, limits, mask=10.0, horizon=None):
        self.rng = rng
        self.sats = sats
        self.p_block, self.p_unblock = p_block, p_unblock
        self.limits = limits          # system -> (min used, max used)
        self.mask = mask
        self.horizon = horizon
        for s in sats:
            s.noise = GaussMarkov(rng, 1.0, 20.0)

    def step(self, t):
        rng = self.rng
        obs = []
        for s in self.sats:
            if s.blocked:
                if rng.random() < self.p_unblock:
                    s.blocked = False
            elif rng.random() < self.p_block:
                s.blocked = True
            el, az = s.el(t), s.az(t)
            n = s.noise.next()
            hidden = self.horizon is not None and el < self.horizon(az)
            obs.append({"sat": s, "el": el, "az": az, "n": n, "hidden": hidden})
        for system, (lo, hi) in self.limits.items():
            cand = [o for o in obs if o["sat"].system == system and o["el"] >= self.mask and not o["hidden"]]
            ok = [o for o in cand if not o["sat"].blocked]
            if len(ok) < lo:
                for o in sorted((o for o in cand if o["sat"].blocked), key=lambda o: -o["el"]):
                    if len(ok) >= lo:
                        break
                    o["sat"].blocked = False
                    ok.append(o)
        for o in obs:
            s = o["sat"]
            base = 31.0 + 16.0 * math.sqrt(max(0.0, math.sin(math.radians(o["el"])))) + s.cno_offset + o["n"]
            cnos = {}
            for sig, off in s.signals.items():
                if o["el"] < 5.0 or s.blocked or o["hidden"]:
                    cnos[sig] = None
                else:
                    cnos[sig] = int(round(min(54.0, max(16.0, base + off + rng.gauss(0.0, 0.4)))))
            o["cno"] = cnos
            first = next(iter(s.signals))
            o["used"] = cnos[first] is not None and o["el"] >= self.mask
        for system, (lo, hi) in self.limits.items():
            used = sorted((o for o in obs if o["sat"].system == system and o["used"]),
                          key=lambda o: -o["el"])
            for o in used[hi:]:
                o["used"] = False
        return obs


def invert(m):
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        pv = a[c][c]
        a[c] = [x / pv for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0.0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [row[n:] for row in a]


def dops(used):
    """Geometric PDOP/HDOP/VDOP from elevation/azimuth, one receiver clock
    unknown per constellation."""
    systems = sorted({o["sat"].system for o in used})
    rows = []
    for o in used:
        e, a = math.radians(o["el"]), math.radians(o["az"])
        row = [-math.cos(e) * math.sin(a), -math.cos(e) * math.cos(a), -math.sin(e)]
        row += [1.0 if o["sat"].system == s else 0.0 for s in systems]
        rows.append(row)
    k = len(rows[0])
    ntn = [[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)]
    q = invert(ntn)
    h = math.sqrt(q[0][0] + q[1][1])
    v = math.sqrt(q[2][2])
    return math.sqrt(h * h + v * v), h, v


def gsa_prns(used, width=12):
    prns = sorted(o["sat"].prn for o in used)[:width]
    return ",".join(f"{p:02d}" for p in prns) + "," * (width - len(prns))


def gsv_sentences(talker, obs, signal=None):
    """GSV group for one talker (and one signal id, NMEA 4.10+)."""
    rows = sorted((o for o in obs if o["el"] >= 0.0 and (signal is None or signal in o["cno"])),
                  key=lambda o: o["sat"].prn)
    if not rows:
        return []
    total = (len(rows) + 3) // 4
    out = []
    for m in range(total):
        parts = [f"{talker}GSV", str(total), str(m + 1), f"{len(rows):02d}"]
        for o in rows[4 * m:4 * m + 4]:
            c = o["cno"][signal if signal is not None else next(iter(o["cno"]))]
            parts += [f"{o['sat'].prn:02d}", f"{int(round(o['el'])):02d}",
                      f"{int(round(o['az'])) % 360:03d}", "" if c is None else f"{c:02d}"]
        if signal is not None:
            parts.append(format(signal, "X"))
        out.append(sentence(",".join(parts)))
    return out


# --------------------------------------------------------------------------
# Receiver output shared by the GPS-only logs (walk, corrupted)
# --------------------------------------------------------------------------

def gps_only_epochs(traj, start, sky, rng, geoid_sep, alt_of, h_sigma, h_tau, v_sigma,
                    vel_sigma, gsv_every=5):
    """Per epoch: dict(time, rmc, gga, gsa, gsv list, fix lat/lon)."""
    gm_n = GaussMarkov(rng, h_sigma, h_tau)
    gm_e = GaussMarkov(rng, h_sigma, h_tau)
    gm_u = GaussMarkov(rng, v_sigma, 90.0)
    epochs = []
    for i, p in enumerate(traj):
        t = start + dt.timedelta(seconds=i)
        dn = gm_n.next() + rng.gauss(0.0, 0.05)
        de = gm_e.next() + rng.gauss(0.0, 0.05)
        du = gm_u.next()
        lat, lon = offset(p["lat"], p["lon"], dn, de)
        c = math.radians(p["course"])
        vn = p["v"] * math.cos(c) + rng.gauss(0.0, vel_sigma)
        ve = p["v"] * math.sin(c) + rng.gauss(0.0, vel_sigma)
        spd = math.hypot(vn, ve)
        cog = math.degrees(math.atan2(ve, vn))
        obs = sky.step(p["t"])
        used = [o for o in obs if o["used"]]
        pdop, hdop, vdop = dops(used)
        la, ns = fmt_lat(lat)
        lo, ew = fmt_lon(lon)
        tm = fmt_time(t)
        alt = alt_of(p) + du
        e = {
            "time": t, "lat": lat, "lon": lon, "true": p,
            "rmc": sentence(f"GPRMC,{tm},A,{la},{ns},{lo},{ew},{fmt_knots(spd)},{fmt_course(cog)},{fmt_date(t)},,,A"),
            "gga": sentence(f"GPGGA,{tm},{la},{ns},{lo},{ew},1,{len(used):02d},{hdop:.2f},{alt:.2f},M,{geoid_sep:.2f},M,,"),
            "gsa": sentence(f"GPGSA,A,3,{gsa_prns(used)},{pdop:.2f},{hdop:.2f},{vdop:.2f}"),
            "gsv": gsv_sentences("GP", obs) if i % gsv_every == 0 else [],
            "hdop": hdop,
        }
        epochs.append(e)
    return epochs


def header(name, notes, date=None):
    lines = [f"# Name: {name}"]
    if date:
        lines.append(f"# Date: {date}")
    first, *rest = notes
    lines.append(f"# Notes: {first}")
    lines += [f"#  {r}" for r in rest]
    return lines


def to_bytes(lines) -> bytes:
    return "".join(line + CRLF for line in lines).encode("ascii")


# --------------------------------------------------------------------------
# 1. walk.nmea
# --------------------------------------------------------------------------

def build_walk():
    rng = random.Random(1401)
    start = dt.datetime(2025, 6, 14, 7, 42, 13, tzinfo=UTC)
    n = 1160

    def target(t):
        if 604.0 <= t < 626.0:        # waits at a path crossing
            return 0.0
        return 1.40 + 0.08 * math.sin(2 * math.pi * t / 97.0) + 0.05 * math.sin(2 * math.pi * t / 23.0 + 1.0)

    turns = [(150, 8, 90.0), (322, 5, -40.0), (478, 9, -95.0), (700, 14, 120.0),
             (880, 6, 55.0), (1012, 5, -30.0), (1100, 9, 85.0)]

    def yaw(t):
        return turn_rate(turns, t) + 0.25 * math.sin(2 * math.pi * t / 53.0)

    # Tiergarten, Berlin: starts on a path west of the Grosser Stern, heading east.
    traj = simulate(52.514250, 13.342100, 95.0, n, target, yaw, accel=0.6, decel=1.0)
    prns = sorted(rng.sample(range(1, 33), 12))
    sats = make_sats(rng, "GP", prns, [78, 63, 55, 47, 41, 36, 30, 25, 20, 15, 7, 3])
    sky = Sky(rng, sats, p_block=0.002, p_unblock=0.05, limits={"GP": (8, 10)})

    def alt(p):
        return 34.0 + 1.2 * math.sin(p["s"] / 180.0) + 0.6 * math.sin(p["s"] / 47.0 + 1.0)

    epochs = gps_only_epochs(traj, start, sky, rng, 39.62, alt, 1.0, 60.0, 2.0, 0.05)
    lines = header("Walk through the Tiergarten, Berlin (synthetic)", [
        "1 Hz GPS-only receiver, NMEA 2.3, GP talker: RMC, GGA, GSA each epoch,",
        "GSV every 5 s. Generated by scripts/make-fixtures.py; see README.md.",
    ])
    for e in epochs:
        lines += [e["rmc"], e["gga"], e["gsa"], *e["gsv"]]
    truth = truth_summary(traj, start)
    stop = [i for i, p in enumerate(traj) if p["v"] == 0.0 and i > 0]
    truth.update({
        "file": "walk.nmea",
        "receiver": "GPS only, NMEA 2.3 (GP talker), 1 Hz",
        "location": "Tiergarten, Berlin, Germany",
        "noise": {"horizontal_sigma_m_per_axis": 1.0, "horizontal_tau_s": 60.0,
                  "vertical_sigma_m": 2.0, "velocity_sigma_mps_per_axis": 0.05},
        "stationary_utc": [iso(start + dt.timedelta(seconds=stop[0])), iso(start + dt.timedelta(seconds=stop[-1]))],
    })
    return to_bytes(lines), order_truth(truth), epochs


def order_truth(t: dict) -> dict:
    first = ["file", "start_utc", "end_utc", "epochs", "path_length_m", "displacement_m"]
    return {k: t[k] for k in first} | {k: v for k, v in t.items() if k not in first}


# --------------------------------------------------------------------------
# 2. drive-midnight.nmea
# --------------------------------------------------------------------------

def build_drive():
    rng = random.Random(3112)
    start = dt.datetime(2025, 12, 31, 23, 55, 0, tzinfo=UTC)
    n = 601                                   # 23:55:00 .. 00:05:00 inclusive
    schedule = [(0, 0.0), (5, 13.9), (55, 6.0), (70, 13.9), (115, 0.0), (160, 16.7),
                (200, 8.0), (230, 30.0), (420, 15.0), (450, 13.9), (538, 7.0),
                (560, 10.0), (575, 0.0)]

    def target(t):
        v = 0.0
        for t0, s in schedule:
            if t >= t0:
                v = s
        return v

    turns = [(60, 8, 90.0), (180, 10, -30.0), (205, 18, -100.0), (280, 25, 20.0),
             (350, 30, -35.0), (425, 20, 120.0), (545, 8, 90.0)]

    def yaw(t):
        return turn_rate(turns, t)

    # Lisbon: Avenida da Republica area, heading south.
    traj = simulate(38.750100, -9.145600, 170.0, n, target, yaw, accel=2.0, decel=2.5)

    gps = make_sats(rng, "GP", sorted(rng.sample(range(1, 33), 11)),
                    [74, 61, 52, 44, 38, 31, 26, 20, 14, 9, 4])
    glo = make_sats(rng, "GL", sorted(rng.sample(range(65, 89), 8)),
                    [69, 55, 43, 35, 27, 19, 12, 6])
    sky = Sky(rng, gps + glo, p_block=0.01, p_unblock=0.12,
              limits={"GP": (6, 12), "GL": (4, 12)})

    gm_n = GaussMarkov(rng, 1.2, 45.0)
    gm_e = GaussMarkov(rng, 1.2, 45.0)
    gm_u = GaussMarkov(rng, 2.5, 90.0)
    no_rmc = range(290, 310)                  # 23:59:50 .. 00:00:09
    geoid = 55.07
    stop = [i for i, p in enumerate(traj) if p["v"] == 0.0 and 100 < i < 200]
    stop_txt = "-".join((start + dt.timedelta(seconds=k)).strftime("%H:%M:%S") for k in (stop[0], stop[-1]))

    lines = header("New Year's Eve drive through Lisbon (synthetic)", [
        "1 Hz u-blox M8 style GPS+GLONASS receiver, NMEA 4.10, GN talker.",
        "Crosses midnight into 2026-01-01; no RMC from 23:59:50 to 00:00:09.",
        f"Traffic-light stop {stop_txt}. See fixtures/README.md.",
    ], date="2025-12-31")
    epochs = []
    for i, p in enumerate(traj):
        t = start + dt.timedelta(seconds=i)
        lat, lon = offset(p["lat"], p["lon"], gm_n.next() + rng.gauss(0, 0.05), gm_e.next() + rng.gauss(0, 0.05))
        du = gm_u.next()
        c = math.radians(p["course"])
        vn = p["v"] * math.cos(c) + rng.gauss(0.0, 0.05)
        ve = p["v"] * math.sin(c) + rng.gauss(0.0, 0.05)
        spd = math.hypot(vn, ve)
        cog = fmt_course(math.degrees(math.atan2(ve, vn))) if spd * KNOTS_PER_MPS >= 0.5 else ""
        obs = sky.step(p["t"])
        used = [o for o in obs if o["used"]]
        ugp = [o for o in used if o["sat"].system == "GP"]
        ugl = [o for o in used if o["sat"].system == "GL"]
        pdop, hdop, vdop = dops(used)
        la, ns = fmt_lat(lat)
        lo, ew = fmt_lon(lon)
        tm = fmt_time(t)
        alt = 85.0 + 25.0 * math.sin(p["s"] / 1500.0) + 6.0 * math.sin(p["s"] / 400.0 + 0.7) + du
        ep = [
            sentence(f"GNGGA,{tm},{la},{ns},{lo},{ew},1,{min(12, len(used)):02d},{hdop:.2f},{alt:.2f},M,{geoid:.2f},M,,"),
            sentence(f"GNGSA,A,3,{gsa_prns(ugp)},{pdop:.2f},{hdop:.2f},{vdop:.2f},1"),
            sentence(f"GNGSA,A,3,{gsa_prns(ugl)},{pdop:.2f},{hdop:.2f},{vdop:.2f},2"),
        ]
        if i % 5 == 0:
            ep += gsv_sentences("GP", [o for o in obs if o["sat"].system == "GP"], signal=1)
            ep += gsv_sentences("GL", [o for o in obs if o["sat"].system == "GL"], signal=1)
        if i not in no_rmc:
            ep.append(sentence(f"GNRMC,{tm},A,{la},{ns},{lo},{ew},{fmt_knots(spd)},{cog},{fmt_date(t)},,,A,V"))
        ep.append(sentence(f"GNVTG,{cog},T,,M,{fmt_knots(spd)},N,{spd * 3.6:.3f},K,A"))
        lines += ep
        epochs.append({"time": t, "lat": lat, "lon": lon, "true": p})
    truth = truth_summary(traj, start)
    truth.update({
        "file": "drive-midnight.nmea",
        "receiver": "u-blox M8 style GPS+GLONASS, NMEA 4.10 (GN talker), 1 Hz",
        "location": "Lisbon, Portugal",
        "date_change": {"last_epoch_of_2025": "2025-12-31T23:59:59Z", "first_epoch_of_2026": "2026-01-01T00:00:00Z",
                        "epoch_index_of_midnight": 300},
        "rmc_absent_utc": [iso(start + dt.timedelta(seconds=no_rmc[0])), iso(start + dt.timedelta(seconds=no_rmc[-1]))],
        "rmc_absent_epochs": len(no_rmc),
        "traffic_light_stop_utc": [iso(start + dt.timedelta(seconds=stop[0])), iso(start + dt.timedelta(seconds=stop[-1]))],
        "noise": {"horizontal_sigma_m_per_axis": 1.2, "horizontal_tau_s": 45.0,
                  "vertical_sigma_m": 2.5, "velocity_sigma_mps_per_axis": 0.05},
    })
    return to_bytes(lines), order_truth(truth), epochs


# --------------------------------------------------------------------------
# 3. multi-gnss-burst.nmea
# --------------------------------------------------------------------------

def build_multi():
    rng = random.Random(411)
    start = dt.datetime(2025, 9, 23, 3, 14, 0, tzinfo=UTC)
    n = 120
    lat0, lon0, alt0, geoid = -33.859580, 151.204750, 43.10, 22.37   # Observatory Hill, Sydney

    def phase(i):
        # (GGA quality, mode letter, horizontal sigma per axis m, vertical sigma m)
        if i < 50:
            return 1, "A", 0.60, 1.20
        if i < 80:
            sig = 0.35 - (0.35 - 0.12) * (i - 50) / 29.0
            return 5, "F", sig, 2.0 * sig
        return 4, "R", 0.010, 0.020

    gps = make_sats(rng, "GP", sorted(rng.sample(range(1, 33), 11)),
                    [81, 66, 57, 49, 42, 35, 29, 22, 16, 11, 5],
                    signal_sets=lambda prn: {1: 0.0, 6: -4.0} if prn % 3 != 0 else {1: 0.0})
    glo = make_sats(rng, "GL", sorted(rng.sample(range(65, 89), 8)),
                    [72, 58, 46, 38, 30, 21, 14, 8],
                    signal_sets=lambda prn: {1: 0.0, 3: -3.0} if prn % 7 != 0 else {1: 0.0})
    gal = make_sats(rng, "GA", sorted(rng.sample(range(1, 37), 9)),
                    [77, 62, 51, 43, 36, 28, 21, 13, 7],
                    signal_sets=lambda prn: {7: 0.0, 2: 1.0})
    bds_prns = [1, 3, 4, 6, 9, 13, 16, 20, 29, 35, 44]
    bds = make_sats(rng, "GB", bds_prns, [52, 38, 61, 70, 45, 33, 27, 83, 19, 12, 24],
                    signal_sets=lambda prn: {1: 0.0, 0xB: -1.0} if prn <= 16 else {1: 0.0},
                    geo=(1, 3, 4))
    sky = Sky(rng, gps + glo + gal + bds, p_block=0.0005, p_unblock=0.2,
              limits={"GP": (6, 12), "GL": (5, 12), "GA": (6, 12), "GB": (6, 12)})
    unit_n = GaussMarkov(rng, 1.0, 30.0)
    unit_e = GaussMarkov(rng, 1.0, 30.0)
    unit_u = GaussMarkov(rng, 1.0, 60.0)

    lines = header("Static multi-GNSS receiver on a rooftop, Sydney (synthetic)", [
        "2 minutes at 1 Hz, u-blox F9 style GPS+GLONASS+Galileo+BeiDou, NMEA 4.11.",
        "Autonomous to 03:14:49, RTK float (quality 5) to 03:15:19, then RTK fixed.",
        "See fixtures/README.md.",
    ])
    for txt in ["u-blox AG - www.u-blox.com", "HW UBX 9 00190000", "ROM BASE 0x118B2060",
                "FWVER=HPG 1.32", "PROTVER=27.31", "MOD=ZED-F9P", "GPS;GLO;GAL;BDS",
                "SBAS;QZSS", "ANTSUPERV=", "ANTSTATUS=DONTKNOW", "PF=3FF"]:
        lines.append(sentence(f"GNTXT,01,01,02,{txt}"))
    epochs = []
    orient = 35.0
    for i in range(n):
        t = start + dt.timedelta(seconds=i)
        q, mode, hs, vs = phase(i)
        dn = unit_n.next() * hs + rng.gauss(0.0, 0.003)
        de = unit_e.next() * hs + rng.gauss(0.0, 0.003)
        du = unit_u.next() * vs
        lat, lon = offset(lat0, lon0, dn, de)
        # velocity of a standing receiver: white noise shrinking with the fix quality
        vsig = {1: 0.03, 5: 0.01, 4: 0.004}[q]
        vn = rng.gauss(0.0, vsig)
        ve = rng.gauss(0.0, vsig)
        spd = math.hypot(vn, ve)
        cog = fmt_course(math.degrees(math.atan2(ve, vn)))
        obs = sky.step(float(i))
        used = [o for o in obs if o["used"]]
        pdop, hdop, vdop = dops(used)
        la, ns = fmt_lat(lat)
        lo, ew = fmt_lon(lon)
        tm = fmt_time(t)
        alt = alt0 + du
        age, stn = ("", "") if q == 1 else (("2.0" if i % 17 == 0 else "1.0"), "0000")
        kn = fmt_knots(spd)
        ep = [
            sentence(f"GNRMC,{tm},A,{la},{ns},{lo},{ew},{kn},{cog},{fmt_date(t)},,,{mode},V"),
            sentence(f"GNVTG,{cog},T,,M,{kn},N,{spd * 3.6:.3f},K,{mode}"),
            sentence(f"GNGGA,{tm},{la},{ns},{lo},{ew},{q},{len(used):02d},{hdop:.2f},{alt:.2f},M,{geoid:.2f},M,{age},{stn}"),
            sentence(f"GNGNS,{tm},{la},{ns},{lo},{ew},{mode * 4},{len(used):02d},{hdop:.2f},{alt:.2f},{geoid:.2f},{age},{stn},V"),
        ]
        for sysid, talker in ((1, "GP"), (2, "GL"), (3, "GA"), (4, "GB")):
            u = [o for o in used if o["sat"].system == talker]
            ep.append(sentence(f"GNGSA,A,3,{gsa_prns(u)},{pdop:.2f},{hdop:.2f},{vdop:.2f},{sysid}"))
        for talker, sigs in (("GP", (1, 6)), ("GL", (1, 3)), ("GA", (7, 2)), ("GB", (1, 0xB))):
            mine = [o for o in obs if o["sat"].system == talker]
            for sig in sigs:
                ep += gsv_sentences(talker, mine, signal=sig)
        ep.append(sentence(f"GNGLL,{la},{ns},{lo},{ew},{tm},A,{mode}"))
        orient = (orient + rng.gauss(0.0, 0.8)) % 180.0
        a, b = hs * 1.15, hs * 0.85
        th = math.radians(orient)
        slat = math.sqrt((a * math.cos(th)) ** 2 + (b * math.sin(th)) ** 2)
        slon = math.sqrt((a * math.sin(th)) ** 2 + (b * math.cos(th)) ** 2)
        rms = {1: 1.8, 5: 0.35, 4: 0.02}[q] * (1.0 + 0.1 * rng.random())
        ep.append(sentence(f"GNGST,{tm},{rms:.3f},{a:.3f},{b:.3f},{orient:.1f},{slat:.3f},{slon:.3f},{vs:.3f}"))
        ep.append(sentence(f"GNZDA,{tm},{t.day:02d},{t.month:02d},{t.year:04d},00,00"))
        lines += ep
        epochs.append({"time": t, "lat": lat, "lon": lon, "true": {"lat": lat0, "lon": lon0}})
    traj = [{"lat": lat0, "lon": lon0, "v": 0.0} for _ in range(n)]
    truth = truth_summary(traj, start)
    truth.update({
        "file": "multi-gnss-burst.nmea",
        "receiver": "u-blox F9 style GPS+GLONASS+Galileo+BeiDou, NMEA 4.11 (GN talker), 1 Hz",
        "location": "Observatory Hill, Sydney, Australia (static antenna)",
        "true_position": {"lat": lat0, "lon": lon0, "alt_msl_m": alt0, "geoid_separation_m": geoid},
        "fix_phases": [
            {"quality": 1, "mode": "A", "from_utc": iso(start), "to_utc": iso(start + dt.timedelta(seconds=49)),
             "horizontal_sigma_m_per_axis": 0.6},
            {"quality": 5, "mode": "F", "from_utc": iso(start + dt.timedelta(seconds=50)),
             "to_utc": iso(start + dt.timedelta(seconds=79)), "horizontal_sigma_m_per_axis": "0.35 falling to 0.12"},
            {"quality": 4, "mode": "R", "from_utc": iso(start + dt.timedelta(seconds=80)),
             "to_utc": iso(start + dt.timedelta(seconds=119)), "horizontal_sigma_m_per_axis": 0.01},
        ],
    })
    return to_bytes(lines), order_truth(truth), epochs


# --------------------------------------------------------------------------
# 4. corrupted.nmea
# --------------------------------------------------------------------------

SAFE_GARBAGE = bytes(b for b in range(256) if b not in (0x0A, 0x0D, 0x24, 0x21))  # no CR, LF, '$', '!'
NONPRINTABLE = bytes(b for b in list(range(0x01, 0x20)) + list(range(0x7F, 0x100)) if b not in (0x0A, 0x0D))

KIND_DESCRIPTIONS = {
    "bad_checksum": "checksum does not match (either the *HH digits or one payload character changed); must be rejected",
    "lowercase_checksum": "valid checksum written in lowercase hex; must be accepted",
    "missing_checksum": "'*HH' removed, otherwise intact; rejected unless checksum-less sentences are accepted",
    "truncated_then_glued": "sentence cut mid-way (no '*'), the next sentence follows on the same line; "
                            "the cut one is lost, the glued one is only recoverable by resyncing on '$'",
    "glued_pair": "two complete valid sentences on one line without a line break; recoverable only by resyncing on '$'",
    "garbage_prefix": "binary bytes (incl. NUL and 0xFF) before the '$' of a valid sentence on the same line; "
                      "recoverable only by resyncing on '$'",
    "double_dollar": "'$$GPGGA...' - an extra '$'; the checksum is valid for the sentence after the second '$'",
    "impossible_latitude_minutes": "checksum valid, latitude minutes >= 60; must be rejected on range",
    "impossible_hour": "checksum valid, UTC hour 25; must be rejected on range",
    "lf_only_ending": "valid sentence terminated by LF only; must be accepted",
    "cr_only_ending": "valid sentence terminated by CR only; must be accepted",
    "garbage_line": "inserted line of random bytes incl. NUL and 0xFF (never CR, LF, '$' or '!')",
    "nonprintable_line": "inserted line made only of non-printable bytes",
    "overlong_line": "inserted line longer than 120 characters (one $GPTXT with a valid checksum, one plain text)",
    "proprietary_pgrme": "inserted Garmin $PGRME sentence, valid checksum; to be ignored",
    "unknown_sentence": "inserted $GPXYZ sentence, valid checksum; to be ignored",
    "ais_aivdm": "inserted !AIVDM AIS sentence, valid checksum; to be ignored",
}


def build_corrupted():
    rng = random.Random(2503)
    start = dt.datetime(2025, 3, 8, 18, 20, 0, tzinfo=UTC)
    n = 180

    def target(t):
        return 1.35 + 0.07 * math.sin(2 * math.pi * t / 71.0)

    turns = [(40, 7, -80.0), (96, 6, 45.0), (140, 9, 100.0)]

    def yaw(t):
        return turn_rate(turns, t) + 0.3 * math.sin(2 * math.pi * t / 41.0)

    # University of Colorado campus, Boulder, heading north-east.
    traj = simulate(40.007900, -105.270600, 40.0, n, target, yaw, accel=0.6, decel=1.0, v0=1.3)
    prns = sorted(rng.sample(range(1, 33), 11))
    sats = make_sats(rng, "GP", prns, [71, 60, 49, 42, 37, 30, 24, 18, 13, 8, 4])
    sky = Sky(rng, sats, p_block=0.002, p_unblock=0.05, limits={"GP": (8, 10)})

    def alt(p):
        return 1655.0 + 3.0 * math.sin(p["s"] / 200.0)

    epochs = gps_only_epochs(traj, start, sky, rng, -17.21, alt, 1.0, 60.0, 2.0, 0.05)

    # The clean sentence stream.
    stream = []
    for k, e in enumerate(epochs):
        for typ in ("rmc", "gga", "gsa"):
            stream.append({"epoch": k, "type": typ.upper(), "text": e[typ]})
        for s in e["gsv"]:
            stream.append({"epoch": k, "type": "GSV", "text": s})

    drng = random.Random(666)
    kind_of: dict[int, str] = {}

    def free(i):
        return i not in kind_of

    def pick(kind, count, pred):
        cand = [i for i in range(len(stream)) if free(i) and pred(i)]
        chosen = sorted(drng.sample(cand, count))
        for i in chosen:
            kind_of[i] = kind
        return chosen

    is_fix = lambda i: stream[i]["type"] in ("GGA", "RMC")
    pair_ok = lambda i: i + 1 < len(stream) and free(i + 1)

    # Glue/truncation first (they need two free neighbours).
    for i in pick("truncated_then_glued", 4, pair_ok):
        kind_of[i + 1] = "truncated_then_glued (the glued sentence)"
    rmc_pairs = lambda i: stream[i]["type"] == "RMC" and pair_ok(i) and stream[i + 1]["type"] == "GGA"
    for i in pick("glued_pair", 2, rmc_pairs) + pick("glued_pair", 1, lambda i: stream[i]["type"] == "GSA" and pair_ok(i)):
        kind_of[i + 1] = "glued_pair (second sentence)"
    n_bad = round(0.02 * len(stream))
    pick("bad_checksum", n_bad, lambda i: True)
    pick("lowercase_checksum", 8, lambda i: is_fix(i) and re.search(r"\*[0-9]?[A-F]", stream[i]["text"]) is not None)
    pick("missing_checksum", 4, is_fix)
    pick("impossible_latitude_minutes", 1, lambda i: stream[i]["type"] == "GGA")
    pick("impossible_latitude_minutes", 1, lambda i: stream[i]["type"] == "RMC")
    pick("impossible_hour", 1, lambda i: stream[i]["type"] == "GGA")
    pick("impossible_hour", 1, lambda i: stream[i]["type"] == "RMC")
    pick("double_dollar", 2, lambda i: stream[i]["type"] == "GGA")
    pick("garbage_prefix", 2, is_fix)
    pick("lf_only_ending", 5, lambda i: True)
    pick("cr_only_ending", 3, lambda i: True)

    # Inserted lines go in front of stream index k (never inside a glued line).
    def insert_ok(k):
        return k > 0 and " (" not in kind_of.get(k, "")
    slots = [k for k in range(len(stream)) if insert_ok(k)]
    insert_kinds = (["garbage_line"] * 5 + ["nonprintable_line"] * 2 + ["overlong_line"] * 2 +
                    ["proprietary_pgrme"] * 3 + ["unknown_sentence"] * 2 + ["ais_aivdm"] * 2)
    where = sorted(drng.sample(slots, len(insert_kinds)))
    kinds_shuffled = insert_kinds[:]
    drng.shuffle(kinds_shuffled)
    inserts: dict[int, list[str]] = {}
    for k, kind in zip(where, kinds_shuffled):
        inserts.setdefault(k, []).append(kind)

    def garbage(lo, hi):
        body = bytearray(drng.choice(SAFE_GARBAGE) for _ in range(drng.randint(lo, hi)))
        body[drng.randrange(len(body))] = 0x00
        body[drng.randrange(len(body))] = 0xFF
        if 0x00 not in body:
            body.insert(0, 0x00)
        if 0xFF not in body:
            body.append(0xFF)
        return bytes(body)

    ais_msgs = ["1,1,,A,15M67FC000G?ufbE`FepT@3n00Sa,0", "1,1,,B,13u?etPv2;0n:dDPwUM1U1Cb069D,0"]
    xyz_i = ais_i = overlong_i = 0

    def inserted(kind, k):
        nonlocal xyz_i, ais_i, overlong_i
        e = epochs[stream[k]["epoch"]]
        if kind == "garbage_line":
            return garbage(4, 40)
        if kind == "nonprintable_line":
            return bytes(drng.choice(NONPRINTABLE) for _ in range(drng.randint(12, 30)))
        if kind == "overlong_line":
            overlong_i += 1
            if overlong_i == 1:
                msg = "BOOT " + "".join(drng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ") for _ in range(130))
                return sentence(f"GPTXT,01,01,02,{msg}").encode("ascii")
            return ("Firmware banner: " + "lorem ipsum dolor sit amet " * 7).strip().encode("ascii")
        if kind == "proprietary_pgrme":
            hpe = 2.0 * e["hdop"] * 2.5
            return sentence(f"PGRME,{hpe:.1f},M,{hpe * 1.6:.1f},M,{hpe * 1.9:.1f},M").encode("ascii")
        if kind == "unknown_sentence":
            xyz_i += 1
            return sentence(f"GPXYZ,{fmt_time(e['time'])},{xyz_i},7,,B").encode("ascii")
        if kind == "ais_aivdm":
            ais_i += 1
            return sentence(f"AIVDM,{ais_msgs[ais_i - 1]}", lead="!").encode("ascii")
        raise AssertionError(kind)

    def damaged(i):
        """Bytes for stream[i] with its own (single-sentence) damage applied."""
        kind = kind_of.get(i)
        text = stream[i]["text"]
        body, cs = text[1:].split("*")
        if kind == "bad_checksum":
            if drng.random() < 0.5:
                return f"${body}*{int(cs, 16) ^ drng.randint(1, 255):02X}".encode("ascii"), "digits"
            digits = [j for j, ch in enumerate(body) if ch.isdigit() and j > 6]
            j = drng.choice(digits)
            ch = str((int(body[j]) + drng.randint(1, 9)) % 10)
            return f"${body[:j]}{ch}{body[j + 1:]}*{cs}".encode("ascii"), "payload"
        if kind == "lowercase_checksum":
            return f"${body}*{cs.lower()}".encode("ascii"), None
        if kind == "missing_checksum":
            return f"${body}".encode("ascii"), None
        if kind == "impossible_latitude_minutes":
            f = body.split(",")
            li = 2 if f[0].endswith("GGA") else 3
            f[li] = f[li][:2] + str(60 + drng.randint(0, 39)) + f[li][4:]
            return sentence(",".join(f)).encode("ascii"), f[li]
        if kind == "impossible_hour":
            f = body.split(",")
            f[1] = "25" + f[1][2:]
            return sentence(",".join(f)).encode("ascii"), f[1]
        if kind == "double_dollar":
            return ("$" + text).encode("ascii"), None
        if kind == "garbage_prefix":
            return garbage(3, 12) + text.encode("ascii"), None
        return text.encode("ascii"), None

    head = header("Damaged walk on the CU Boulder campus (synthetic)", [
        "3 minutes, 1 Hz GPS-only receiver (NMEA 2.3, GP talker) with deliberate",
        "damage; corrupted.expected.json lists every defect by line number.",
    ])
    out = [(h.encode("ascii"), b"\r\n") for h in head]
    defects: dict[str, list[int]] = {k: [] for k in KIND_DESCRIPTIONS}
    detail: dict[str, list] = {"bad_checksum": [], "impossible_latitude_minutes": [], "impossible_hour": []}
    # status of each GGA/RMC under the policies: (strict, resync, missing_cs)
    status: dict[int, tuple[bool, bool, bool]] = {}
    i = 0
    while i < len(stream):
        for kind in inserts.get(i, []):
            out.append((inserted(kind, i), b"\r\n"))
            defects[kind].append(len(out))
        kind = kind_of.get(i)
        if kind in ("truncated_then_glued", "glued_pair"):
            text = stream[i]["text"]
            if kind == "truncated_then_glued":
                cut = drng.randint(12, int(len(text) * 0.6))
                first = text[:cut].encode("ascii")
                status[i] = (False, False, False)
            else:
                first = text.encode("ascii")
                status[i] = (False, True, False)
            status[i + 1] = (False, True, False)
            out.append((first + stream[i + 1]["text"].encode("ascii"), b"\r\n"))
            defects[kind].append(len(out))
            i += 2
            continue
        data, info = damaged(i)
        term = {"lf_only_ending": b"\n", "cr_only_ending": b"\r"}.get(kind, b"\r\n")
        out.append((data, term))
        if kind in defects:
            defects[kind].append(len(out))
        if kind in detail:
            detail[kind].append({"line": len(out), "variant": info})
        status[i] = {
            None: (True, True, True), "lowercase_checksum": (True, True, True),
            "lf_only_ending": (True, True, True), "cr_only_ending": (True, True, True),
            "bad_checksum": (False, False, False), "impossible_latitude_minutes": (False, False, False),
            "impossible_hour": (False, False, False), "missing_checksum": (False, False, True),
            "double_dollar": (False, True, False), "garbage_prefix": (False, True, False),
        }[kind]
        i += 1
    data = b"".join(c + t for c, t in out)

    # Expected survivors, from the bookkeeping above.
    def survivors(resync, missing):
        ok = 0
        lost = []
        for k in range(n):
            parts = {}
            for j, s in enumerate(stream):
                if s["epoch"] == k and s["type"] in ("GGA", "RMC"):
                    st = status[j]
                    good = st[0] or (resync and st[1]) or (missing and st[2])
                    parts[s["type"]] = (good, kind_of.get(j) or "ok")
            if parts["GGA"][0] and parts["RMC"][0]:
                ok += 1
            else:
                lost.append({"utc": fmt_time(epochs[k]["time"]), "gga": parts["GGA"][1] if not parts["GGA"][0] else "ok",
                             "rmc": parts["RMC"][1] if not parts["RMC"][0] else "ok"})
        return ok, lost

    strict, lost = survivors(False, False)
    expected = {
        "file": "corrupted.nmea",
        "line_numbering": "1-based over the whole file including the '#' header; a line ends at CRLF, "
                          "at a lone LF or at a lone CR",
        "total_lines": len(out),
        "total_bytes": len(data),
        "epochs_total": n,
        "first_epoch_utc": iso(start),
        "last_epoch_utc": iso(start + dt.timedelta(seconds=n - 1)),
        "epochs_with_valid_gga_and_rmc": strict,
        "epochs_with_valid_gga_and_rmc_by_policy": {
            "strict": strict,
            "resync_on_dollar": survivors(True, False)[0],
            "accept_missing_checksum": survivors(False, True)[0],
            "resync_and_accept_missing_checksum": survivors(True, True)[0],
        },
        "policies": {
            "strict": "a line is a sentence only if it is exactly '$' + body + '*' + two hex digits (either case), the "
                      "body is printable ASCII without '$', '!' or '*', and the XOR of the body matches; GGA and RMC must "
                      "also have their NMEA 2.3 field count (GGA 14 fields, RMC 12 after the address) and in-range "
                      "values (hh<24, mm<60, ss<60; latitude minutes <60 and <=90 deg; longitude minutes <60 and "
                      "<=180 deg; N/S/E/W; GGA quality 1-8; RMC status A and a real ddmmyy date). An epoch counts when "
                      "its GGA and its RMC (same UTC time) are both accepted",
            "resync_on_dollar": "as strict, but every line is also split before each '$' and each piece judged on "
                                "its own (bytes before the first '$' are dropped)",
            "accept_missing_checksum": "as strict, but a sentence without any '*' is accepted if its fields are valid",
            "resync_and_accept_missing_checksum": "both relaxations together",
        },
        "defects": {k: {"count": len(v), "lines": v, "description": KIND_DESCRIPTIONS[k]}
                    for k, v in defects.items()},
        "defect_details": detail,
        "lost_epochs_strict": lost,
    }
    return data, expected, epochs


# --------------------------------------------------------------------------
# 5. static-hour.nmea
# --------------------------------------------------------------------------

STATIC_GSA_EVERY = 5            # with GSA every epoch the file is ~770 KB, over the 700 KB budget
STATIC_MAX_BYTES = 700_000
STATIC_COURSE_MIN_KN = 0.1      # course field empty below this printed speed


def build_static_hour():
    sky_rng = random.Random(7052)
    rng = random.Random(2604)
    start = dt.datetime(2025, 5, 6, 10, 0, 0, tzinfo=UTC)
    n = 3600
    # Rooftop in central Madrid; a taller building to the south-west and west
    # (azimuth 180-300 deg) hides everything below 40 deg elevation there.
    lat0, lon0, alt0, geoid = 40.419850, -3.701240, 682.40, 51.68
    h_sigma, h_tau, white = 1.5, 60.0, 0.05
    v_sigma, v_tau = 3.0, 90.0
    vel_sigma = 0.08
    # Multipath off that building: a 30 s excursion of 6 m towards azimuth 60 deg,
    # raised-cosine edges of 6 s (epochs mp0 .. mp0 + 29).
    mp0, mp_len, mp_edge, mp_peak, mp_az = 1980, 30, 6.0, 6.0, 60.0

    def multipath(i):
        k = i - mp0
        if not 0 <= k < mp_len:
            return 0.0
        x = k + 0.5
        return mp_peak * 0.5 * (1.0 - math.cos(math.pi * min(x, mp_len - x, mp_edge) / mp_edge))

    prns = sorted(sky_rng.sample(range(1, 33), 11))
    sats = make_sats(sky_rng, "GP", prns, [76, 62, 55, 51, 45, 42, 34, 27, 20, 13, 7])
    sky = Sky(sky_rng, sats, p_block=0.0002, p_unblock=0.03, limits={"GP": (7, 10)},
              horizon=lambda az: 40.0 if 180.0 <= az < 300.0 else 0.0)
    gm_n = GaussMarkov(rng, h_sigma, h_tau)
    gm_e = GaussMarkov(rng, h_sigma, h_tau)
    gm_u = GaussMarkov(rng, v_sigma, v_tau)

    mp_txt = "-".join((start + dt.timedelta(seconds=k)).strftime("%H:%M:%S") for k in (mp0, mp0 + mp_len - 1))
    lines = header("Static receiver on a rooftop, Madrid (synthetic)", [
        "One hour at 1 Hz, GPS-only receiver, NMEA 2.3, GP talker: GGA and RMC",
        f"each epoch, GSA every {STATIC_GSA_EVERY} s, no GSV. The antenna never moves;",
        f"multipath excursion {mp_txt}. See fixtures/README.md.",
    ], date=start.strftime("%Y-%m-%d"))
    epochs = []
    printed = []
    hdops, nsats = [], []
    worst = 0.0
    for i in range(n):
        t = start + dt.timedelta(seconds=i)
        m = multipath(i)
        dn = gm_n.next() + rng.gauss(0.0, white) + m * math.cos(math.radians(mp_az))
        de = gm_e.next() + rng.gauss(0.0, white) + m * math.sin(math.radians(mp_az))
        du = gm_u.next()
        lat, lon = offset(lat0, lon0, dn, de)
        # Doppler velocity of a standing receiver: white noise around zero
        vn = rng.gauss(0.0, vel_sigma)
        ve = rng.gauss(0.0, vel_sigma)
        kn = fmt_knots(math.hypot(vn, ve))
        cog = fmt_course(math.degrees(math.atan2(ve, vn))) if float(kn) >= STATIC_COURSE_MIN_KN else ""
        obs = sky.step(float(i))
        used = [o for o in obs if o["used"]]
        pdop, hdop, vdop = dops(used)
        la, ns = fmt_lat(lat)
        lo, ew = fmt_lon(lon)
        tm = fmt_time(t)
        ep = [
            sentence(f"GPGGA,{tm},{la},{ns},{lo},{ew},1,{len(used):02d},{hdop:.2f},{alt0 + du:.2f},M,{geoid:.2f},M,,"),
            sentence(f"GPRMC,{tm},A,{la},{ns},{lo},{ew},{kn},{cog},{fmt_date(t)},,,A"),
        ]
        if i % STATIC_GSA_EVERY == 0:
            ep.append(sentence(f"GPGSA,A,3,{gsa_prns(used)},{pdop:.2f},{hdop:.2f},{vdop:.2f}"))
        lines += ep
        hdops.append(float(f"{hdop:.2f}"))
        nsats.append(len(used))
        fix = (parse_coord(la, ns, 2, "N", "S", 90.0), parse_coord(lo, ew, 3, "E", "W", 180.0))
        printed.append(fix)
        worst = max(worst, WGS84.Inverse(fix[0], fix[1], lat0, lon0)["s12"])
        epochs.append({"time": t, "lat": lat, "lon": lon, "true": {"lat": lat0, "lon": lon0}})
    noisy = sum(WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(printed, printed[1:]))
    traj = [{"lat": lat0, "lon": lon0, "v": 0.0} for _ in range(n)]
    truth = order_truth(truth_summary(traj, start) | {"file": "static-hour.nmea"})
    truth = {k: truth[k] for k in ("file", "start_utc", "end_utc", "epochs", "path_length_m", "displacement_m")} | {
        "noisy_path_length_m": round(noisy, 3),
        "noisy_path_length_note": "sum of WGS84 geodesic distances between successive printed GGA/RMC fixes "
                                  "(the rounded ddmm.mmmmmm coordinates as written), i.e. what a naive "
                                  "distance accumulator over-counts for a receiver that never moves",
        "max_fix_error_m": round(worst, 3),
    } | {k: v for k, v in truth.items() if k not in ("file", "start_utc", "end_utc", "epochs",
                                                       "path_length_m", "displacement_m")}
    truth.update({
        "receiver": "GPS only, NMEA 2.3 (GP talker), 1 Hz",
        "location": "rooftop in central Madrid, Spain (static antenna)",
        "true_position": {"lat": lat0, "lon": lon0, "alt_msl_m": alt0, "geoid_separation_m": geoid},
        "sentences": {"GGA": "every epoch", "RMC": "every epoch", "GSA": f"every {STATIC_GSA_EVERY} s",
                      "GSV": "none"},
        "course_empty_below_kn": STATIC_COURSE_MIN_KN,
        "gga_satellites_range": [min(nsats), max(nsats)],
        "hdop_range": [min(hdops), max(hdops)],
        "noise": {"horizontal_sigma_m_per_axis": h_sigma, "horizontal_tau_s": h_tau,
                  "horizontal_white_sigma_m_per_axis": white,
                  "vertical_sigma_m": v_sigma, "vertical_tau_s": v_tau,
                  "velocity_sigma_mps_per_axis": vel_sigma},
        "multipath_excursion": {"from_utc": iso(start + dt.timedelta(seconds=mp0)),
                                "to_utc": iso(start + dt.timedelta(seconds=mp0 + mp_len - 1)),
                                "peak_offset_m": mp_peak, "toward_azimuth_deg": mp_az,
                                "profile": f"raised-cosine edges of {mp_edge:g} s, added to the Gauss-Markov error"},
    })
    return to_bytes(lines), truth, epochs


# --------------------------------------------------------------------------
# Reference reader used by the checks
# --------------------------------------------------------------------------

LINE_RE = re.compile(rb"([^\r\n]*)(\r\n|\r|\n|$)")
SENTENCE_RE = re.compile(rb"^([$!])([\x20-\x7e]+?)\*([0-9A-Fa-f]{2})$")
NOCS_RE = re.compile(rb"^\$([\x20-\x7e]+)$")


def split_lines(data: bytes):
    """[(content, terminator)] splitting at CRLF, LF or CR."""
    out = []
    pos = 0
    while pos < len(data):
        m = LINE_RE.match(data, pos)
        out.append((m.group(1), m.group(2)))
        pos = m.end()
    return out


def parse_sentence(piece: bytes, allow_missing=False):
    """Return the body (str) of a valid sentence, else None."""
    m = SENTENCE_RE.match(piece)
    if m:
        body = m.group(2)
        if any(c in body for c in b"$!*"):
            return None
        if xor_checksum(body) != int(m.group(3), 16):
            return None
        return body.decode("ascii")
    if allow_missing:
        m = NOCS_RE.match(piece)
        if m and b"*" not in piece and b"$" not in m.group(1) and b"!" not in m.group(1):
            return m.group(1).decode("ascii")
    return None


def valid_time(s):
    m = re.fullmatch(r"(\d\d)(\d\d)(\d\d)(\.\d+)?", s)
    return bool(m) and int(m.group(1)) < 24 and int(m.group(2)) < 60 and int(m.group(3)) < 60


def parse_coord(v, h, deg_digits, pos, neg, limit):
    m = re.fullmatch(r"(\d{%d})(\d\d\.\d+)" % deg_digits, v)
    if not m or h not in (pos, neg):
        return None
    deg, mins = int(m.group(1)), float(m.group(2))
    if mins >= 60.0:
        return None
    val = deg + mins / 60.0
    if val > limit:
        return None
    return -val if h == neg else val


def decode_fix(body: str):
    """GGA/RMC -> (type, time, lat, lon) if valid per the strict policy."""
    f = body.split(",")
    typ = f[0][2:]
    if typ == "GGA" and len(f) == 15:
        if not valid_time(f[1]) or f[6] not in "12345678" or f[6] == "":
            return None
        lat = parse_coord(f[2], f[3], 2, "N", "S", 90.0)
        lon = parse_coord(f[4], f[5], 3, "E", "W", 180.0)
    elif typ == "RMC" and len(f) in (13, 14):
        if not valid_time(f[1]) or f[2] != "A":
            return None
        try:
            dt.datetime.strptime(f[9], "%d%m%y")
        except ValueError:
            return None
        lat = parse_coord(f[3], f[4], 2, "N", "S", 90.0)
        lon = parse_coord(f[5], f[6], 3, "E", "W", 180.0)
    else:
        return None
    if lat is None or lon is None:
        return None
    return typ, f[1], lat, lon


def count_epochs(data: bytes, resync: bool, missing: bool) -> int:
    fixes: dict[str, set] = {}
    for content, _ in split_lines(data):
        pieces = [content]
        if resync:
            pieces = [b"$" + p for p in content.split(b"$")[1:]]
        for p in pieces:
            body = parse_sentence(p, allow_missing=missing)
            if body is None:
                continue
            fx = decode_fix(body)
            if fx:
                fixes.setdefault(fx[1], set()).add(fx[0])
    return sum(1 for v in fixes.values() if v == {"GGA", "RMC"})


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

class CheckError(Exception):
    pass


def require(cond, msg):
    if not cond:
        raise CheckError(msg)


def check_clean(name: str, data: bytes, truth: dict, epochs, max_error: float = 8.0) -> dict:
    """Every line CRLF-terminated; '#' header then only valid, uppercase-
    checksummed sentences; GGA positions agree with the truth."""
    lines = split_lines(data)
    require(all(t == b"\r\n" for _, t in lines), f"{name}: a line does not end in CRLF")
    in_header = True
    n_sent = 0
    maxlen = 0
    gga = []
    rmc_dates = []
    for no, (content, _) in enumerate(lines, 1):
        if content.startswith(b"#"):
            require(in_header, f"{name}:{no}: comment after the header")
            continue
        in_header = False
        m = SENTENCE_RE.match(content)
        require(m is not None, f"{name}:{no}: not a sentence: {content[:60]!r}")
        require(m.group(3) == m.group(3).upper(), f"{name}:{no}: lowercase checksum")
        body = parse_sentence(content)
        require(body is not None, f"{name}:{no}: bad checksum")
        n_sent += 1
        maxlen = max(maxlen, len(content))
        f = body.split(",")
        if f[0].endswith("GGA"):
            require(valid_time(f[1]), f"{name}:{no}: bad time")
            lat = parse_coord(f[2], f[3], 2, "N", "S", 90.0)
            lon = parse_coord(f[4], f[5], 3, "E", "W", 180.0)
            require(lat is not None and lon is not None, f"{name}:{no}: bad position")
            gga.append((f[1], lat, lon))
        if f[0].endswith("RMC"):
            rmc_dates.append((f[1], f[9]))
    require(len(gga) == truth["epochs"] == len(epochs), f"{name}: {len(gga)} GGA for {truth['epochs']} epochs")
    worst = 0.0
    prev = None
    for (tm, lat, lon), e in zip(gga, epochs):
        require(tm == fmt_time(e["time"]), f"{name}: GGA time {tm} != {fmt_time(e['time'])}")
        sec = int(tm[:2]) * 3600 + int(tm[2:4]) * 60 + int(tm[4:6])
        if prev is not None:
            require((sec - prev) % 86400 == 1, f"{name}: GGA times not 1 s apart at {tm}")
        prev = sec
        err = WGS84.Inverse(lat, lon, e["true"]["lat"], e["true"]["lon"])["s12"]
        worst = max(worst, err)
        # also the printed value must round-trip the generated noisy fix to < 1 cm
        rt = WGS84.Inverse(lat, lon, e["lat"], e["lon"])["s12"]
        require(rt < 0.01, f"{name}: printed position off by {rt:.4f} m at {tm}")
    require(worst < max_error, f"{name}: a fix is {worst:.1f} m from the truth")
    return {"sentences": n_sent, "max_line_chars": maxlen, "worst_error_m": round(worst, 2),
            "rmc": len(rmc_dates), "rmc_dates": sorted({d for _, d in rmc_dates}), "gga": gga}


def check_corrupted(data: bytes, expected: dict) -> dict:
    lines = split_lines(data)
    require(len(lines) == expected["total_lines"], "corrupted: line count differs from expected.json")
    d = expected["defects"]

    def line(no):
        return lines[no - 1]

    for no in d["bad_checksum"]["lines"]:
        c, _ = line(no)
        require(SENTENCE_RE.match(c) and parse_sentence(c) is None, f"corrupted:{no}: bad checksum line validates")
    for no in d["lowercase_checksum"]["lines"]:
        c, _ = line(no)
        require(parse_sentence(c) is not None and re.search(rb"\*[0-9a-f]{2}$", c) and re.search(rb"[a-f]", c[-2:]),
                f"corrupted:{no}: lowercase checksum line wrong")
    for no in d["missing_checksum"]["lines"]:
        c, _ = line(no)
        require(b"*" not in c and parse_sentence(c, allow_missing=True), f"corrupted:{no}: missing checksum line wrong")
    for no in d["lf_only_ending"]["lines"]:
        require(line(no)[1] == b"\n" and parse_sentence(line(no)[0]), f"corrupted:{no}: LF-only line wrong")
    for no in d["cr_only_ending"]["lines"]:
        require(line(no)[1] == b"\r" and parse_sentence(line(no)[0]), f"corrupted:{no}: CR-only line wrong")
    for no in d["double_dollar"]["lines"]:
        c, _ = line(no)
        require(c.startswith(b"$$GPGGA") and parse_sentence(c[1:]), f"corrupted:{no}: $$ line wrong")
    for kind in ("glued_pair", "truncated_then_glued"):
        for no in d[kind]["lines"]:
            c, _ = line(no)
            require(c.count(b"$") == 2 and parse_sentence(c) is None, f"corrupted:{no}: {kind} line wrong")
            a, b = (b"$" + p for p in c.split(b"$")[1:])
            require(parse_sentence(b) is not None, f"corrupted:{no}: glued second sentence invalid")
            require((parse_sentence(a) is not None) == (kind == "glued_pair"), f"corrupted:{no}: first part wrong")
    for no in d["garbage_prefix"]["lines"]:
        c, _ = line(no)
        require(not c.startswith(b"$") and b"\x00" in c and b"\xff" in c and parse_sentence(c[c.index(b"$"):]),
                f"corrupted:{no}: garbage prefix line wrong")
    for no in d["garbage_line"]["lines"]:
        c, _ = line(no)
        require(b"\x00" in c and b"\xff" in c and b"$" not in c, f"corrupted:{no}: garbage line wrong")
    for no in d["nonprintable_line"]["lines"]:
        c, _ = line(no)
        require(all(b < 0x20 or b >= 0x7F for b in c), f"corrupted:{no}: printable byte in non-printable line")
    for no in d["overlong_line"]["lines"]:
        require(len(line(no)[0]) > 120, f"corrupted:{no}: overlong line too short")
    for kind, prefix in (("proprietary_pgrme", b"$PGRME,"), ("unknown_sentence", b"$GPXYZ,"), ("ais_aivdm", b"!AIVDM,")):
        for no in d[kind]["lines"]:
            c, _ = line(no)
            require(c.startswith(prefix) and parse_sentence(c), f"corrupted:{no}: {kind} line wrong")
    for kind in ("impossible_latitude_minutes", "impossible_hour"):
        for no in d[kind]["lines"]:
            c, _ = line(no)
            body = parse_sentence(c)
            require(body is not None and decode_fix(body) is None, f"corrupted:{no}: {kind} not rejected")
    # every line that is not a listed defect is a clean, uppercase, CRLF sentence or a header comment
    listed = {no for v in d.values() for no in v["lines"]}
    for no, (c, t) in enumerate(lines, 1):
        if no in listed or c.startswith(b"#"):
            continue
        require(t == b"\r\n" and SENTENCE_RE.match(c) and c[-2:] == c[-2:].upper() and parse_sentence(c),
                f"corrupted:{no}: unlisted damage {c[:50]!r}")
    # independent recount of the surviving epochs
    pol = expected["epochs_with_valid_gga_and_rmc_by_policy"]
    got = {
        "strict": count_epochs(data, False, False),
        "resync_on_dollar": count_epochs(data, True, False),
        "accept_missing_checksum": count_epochs(data, False, True),
        "resync_and_accept_missing_checksum": count_epochs(data, True, True),
    }
    require(got == pol, f"corrupted: recount {got} != expected {pol}")
    require(pol["strict"] == expected["epochs_with_valid_gga_and_rmc"], "corrupted: strict count mismatch")
    return got


def check_static_hour(data: bytes, truth: dict, epochs) -> dict:
    """Independent re-read of static-hour.nmea: sentence mix, field formats,
    ranges, and the noisy path length recomputed from the printed fixes."""
    name = "static-hour.nmea"
    info = check_clean(name, data, truth, epochs, max_error=15.0)
    require(len(data) < STATIC_MAX_BYTES, f"{name}: {len(data)} bytes, over {STATIC_MAX_BYTES}")
    require(truth["path_length_m"] == 0.0 and truth["displacement_m"] == 0.0, f"{name}: truth not static")
    tp = truth["true_position"]
    bodies = [parse_sentence(c) for c, _ in split_lines(data) if not c.startswith(b"#")]
    kinds = [b.split(",")[0] for b in bodies]
    require(set(kinds) == {"GPGGA", "GPRMC", "GPGSA"}, f"{name}: sentence types {sorted(set(kinds))}")
    n = truth["epochs"]
    require(kinds.count("GPGSA") == (n + STATIC_GSA_EVERY - 1) // STATIC_GSA_EVERY, f"{name}: GSA count")
    gga = {}
    k = -1
    for b in bodies:
        f = b.split(",")
        if f[0] == "GPGGA":
            k += 1
            require(f[6] == "1" and 7 <= int(f[7]) <= 10, f"{name}: GGA quality/satellites at {f[1]}")
            require(re.fullmatch(r"\d\.\d\d", f[8]) and 0.8 <= float(f[8]) <= 1.6, f"{name}: HDOP {f[8]} at {f[1]}")
            require(abs(float(f[9]) - tp["alt_msl_m"]) < 15.0 and f[11] == f"{tp['geoid_separation_m']:.2f}",
                    f"{name}: altitude/geoid at {f[1]}")
            gga[f[1]] = f[2:6]
        elif f[0] == "GPRMC":
            require(f[1] in gga and f[3:7] == gga[f[1]], f"{name}: RMC {f[1]} does not follow its GGA")
            require(f[2] == "A" and f[12] == "A" and f[9] == fmt_date(epochs[k]["time"]), f"{name}: RMC fields at {f[1]}")
            require(re.fullmatch(r"\d+\.\d{3}", f[7]) is not None, f"{name}: speed format {f[7]}")
            if float(f[7]) < STATIC_COURSE_MIN_KN:
                require(f[8] == "", f"{name}: course given at {f[7]} kn ({f[1]})")
            else:
                require(re.fullmatch(r"\d{1,3}\.\d\d", f[8]) and float(f[8]) < 360.0, f"{name}: course {f[8]!r} at {f[1]}")
        else:
            require(k % STATIC_GSA_EVERY == 0, f"{name}: GSA in epoch {k}")
    require(len(gga) == n, f"{name}: {len(gga)} distinct GGA times")
    fixes = [(lat, lon) for _, lat, lon in info["gga"]]
    noisy = sum(WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(fixes, fixes[1:]))
    require(abs(round(noisy, 3) - truth["noisy_path_length_m"]) < 0.0005,
            f"{name}: noisy path {noisy:.3f} m != truth {truth['noisy_path_length_m']}")
    worst = max(WGS84.Inverse(lat, lon, tp["lat"], tp["lon"])["s12"] for lat, lon in fixes)
    require(abs(round(worst, 3) - truth["max_fix_error_m"]) < 0.0005, f"{name}: max_fix_error_m")
    return info | {"noisy_path_length_m": round(noisy, 3)}


# --------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------

README = """\
# NMEA fixtures

Synthetic but realistic NMEA 0183 logs for the WhereAmI tests, all written by
`scripts/make-fixtures.py` (do not edit by hand). Regenerate with
`python3 scripts/make-fixtures.py` (needs `pip install geographiclib`; fixed
seeds, byte-identical output, self-checks every checksum and position);
`python3 scripts/make-fixtures.py --check` only verifies that the files here
are up to date. Common to all logs: CRLF line endings (except the deliberate
damage in corrupted.nmea), gpsd-style `# Name:` / `# Notes:` header lines,
latitude `ddmm.mmmmmm`, longitude `dddmm.mmmmmm`, time `hhmmss.ss`, speed in
knots (3 decimals), course (2 decimals), altitude and geoid separation (2
decimals). True paths are exact WGS84 geodesics (geographiclib); reported
fixes add a slowly wandering Gauss-Markov error. Each `<name>.truth.json`
gives start/end UTC, the epoch count, the geodesic length of the noise-free
1 Hz path (sum of WGS84 distances between consecutive true positions), the
true start-to-end displacement in metres, and the noise parameters.

**walk.nmea** - {walk_epochs} epochs ({walk_start} to {walk_end}): a ~19
minute walk at ~1.4 m/s through the Tiergarten, Berlin, with seven turns and
a ~20 s pause, from a GPS-only NMEA 2.3 receiver (GP talker): RMC (date, mode
A), GGA (quality 1, 8-10 satellites), GSA every epoch, three-part GSV (12
satellites, some without SNR) every 5 s. Tests the ordinary decode path and
distance accumulation against walk.truth.json.

**drive-midnight.nmea** - {drive_epochs} epochs (2025-12-31 23:55:00 to
2026-01-01 00:05:00 UTC, west longitudes): a 0-30 m/s drive through Lisbon
with braking, turns and a traffic-light stop, from a u-blox M8 style
GPS+GLONASS NMEA 4.10 receiver. Epoch order GGA, GSA (system id 1), GSA
(system id 2), GPGSV/GLGSV with signal id (every 5 s), RMC (`...,A,V`), VTG.
RMC is absent 23:59:50-00:00:09, so the decoder must roll the date and year
itself when GGA wraps 235959.00 -> 000000.00. Course is empty while the speed
is below 0.5 kn; GGA's satellite count is capped at 12 though the GSAs list
more.

**multi-gnss-burst.nmea** - {multi_epochs} epochs ({multi_start} to
{multi_end}, southern hemisphere): a static u-blox F9 style NMEA 4.11
receiver in Sydney. GNTXT banner, then RMC, VTG, GGA, GNS, GSA per
constellation (system ids 1-4), GSV per constellation and signal (GPS 1/6,
GLONASS 1/3, Galileo 7/2, BeiDou 1 and hex `B`), GLL, GST, ZDA. Autonomous
(quality 1, ~0.6 m jitter) 50 s, RTK float (5) 30 s, RTK fixed (4) 40 s.
Satellite counts exceed 12 and GGA/GNS lines exceed 82 characters, as on real
F9 receivers. Tests talkers, system/signal ids, RTK qualities, and that a
jitter-proof distance of a standing receiver stays near 0.

**corrupted.nmea** - 180 epochs ({corr_start} to {corr_end}, Boulder,
negative geoid separation): a GPS-only walk like walk.nmea with bad (~2%),
lowercase and missing checksums, truncated and glued sentences, binary
garbage (NUL, 0xFF) lines and prefixes, overlong and non-printable lines,
LF-only and CR-only endings, `$$GPGGA`, `$PGRME`, `$GPXYZ`, `!AIVDM`,
latitude minutes >= 60 and hour 25. corrupted.expected.json lists every
defect's line numbers (1-based, counting the header; a line ends at CRLF, LF
or a lone CR) and how many epochs keep a valid GGA and RMC: {corr_strict}
for a strict reader, more under the relaxed policies it defines. Tests that
framing and parsing reject damage, keep the good fixes and never crash.

**static-hour.nmea** - {static_epochs} epochs ({static_start} to
{static_end}, west longitude): a GPS-only NMEA 2.3 receiver (GP
talker) standing perfectly still for one hour on a rooftop in central Madrid.
Per epoch GGA (quality 1, {static_sats} satellites, HDOP drifting slowly between
{static_hdop} as satellites pass behind a taller building to the
south-west, altitude ~{static_alt:.0f} m, geoid separation {static_geoid:.2f} m) then RMC (date,
mode A); GSA only every {static_gsa} s (every epoch would exceed the 700 KB budget)
and no GSV. The fixes wander several metres round the antenna (Gauss-Markov,
1.5 m per axis, tau 60 s; vertical 3 m), plus a {static_mp_peak:g} m multipath excursion
{static_mp}. RMC speed is Doppler white noise around 0 (0.08 m/s
per axis, mostly 0.000-0.250 kn); the course is empty when the printed speed
is below 0.1 kn. static-hour.truth.json gives path_length_m and
displacement_m 0, the true position, and noisy_path_length_m = {static_noisy} m:
the sum of WGS84 geodesic distances between successive printed (rounded)
fixes, i.e. what a naive accumulator over-counts. Tests that a jitter-proof
distance stays near 0 over a long run.
"""


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def dumps(obj) -> bytes:
    text = json.dumps(obj, indent=2, ensure_ascii=True)
    # keep lists of line numbers on one line
    text = re.sub(r"\[\s+(-?\d+(?:,\s+-?\d+)*)\s+\]",
                  lambda m: "[" + ", ".join(re.split(r",\s*", m.group(1))) + "]", text)
    return (text + "\n").encode("ascii")


def generate():
    """Return ({relative name: bytes}, {name: (data, truth/expected, epochs)})."""
    walk, walk_truth, walk_ep = build_walk()
    drive, drive_truth, drive_ep = build_drive()
    multi, multi_truth, multi_ep = build_multi()
    corr, corr_exp, _ = build_corrupted()
    static, static_truth, static_ep = build_static_hour()
    readme = README.format(
        walk_epochs=walk_truth["epochs"], walk_start=walk_truth["start_utc"], walk_end=walk_truth["end_utc"],
        drive_epochs=drive_truth["epochs"],
        multi_epochs=multi_truth["epochs"], multi_start=multi_truth["start_utc"], multi_end=multi_truth["end_utc"],
        corr_start=corr_exp["first_epoch_utc"], corr_end=corr_exp["last_epoch_utc"],
        corr_strict=corr_exp["epochs_with_valid_gga_and_rmc"],
        static_epochs=static_truth["epochs"], static_start=static_truth["start_utc"],
        static_end=static_truth["end_utc"],
        static_sats="-".join(map(str, static_truth["gga_satellites_range"])),
        static_hdop=" and ".join(f"{h:.2f}" for h in static_truth["hdop_range"]),
        static_alt=static_truth["true_position"]["alt_msl_m"],
        static_geoid=static_truth["true_position"]["geoid_separation_m"],
        static_gsa=STATIC_GSA_EVERY,
        static_mp=" to ".join(static_truth["multipath_excursion"][k][11:19] for k in ("from_utc", "to_utc")),
        static_noisy=f"{static_truth['noisy_path_length_m']:.3f}",
        static_mp_peak=static_truth["multipath_excursion"]["peak_offset_m"],
    )
    files = {
        "walk.nmea": walk, "walk.truth.json": dumps(walk_truth),
        "drive-midnight.nmea": drive, "drive-midnight.truth.json": dumps(drive_truth),
        "multi-gnss-burst.nmea": multi, "multi-gnss-burst.truth.json": dumps(multi_truth),
        "corrupted.nmea": corr, "corrupted.expected.json": dumps(corr_exp),
        "README.md": readme.encode("ascii"),
        "static-hour.nmea": static, "static-hour.truth.json": dumps(static_truth),
    }
    ctx = {"walk": (walk_truth, walk_ep), "drive": (drive_truth, drive_ep), "multi": (multi_truth, multi_ep),
           "static": (static_truth, static_ep)}
    return files, ctx


def run_checks(files, ctx) -> list[str]:
    report = []
    for key, name in (("walk", "walk.nmea"), ("drive", "drive-midnight.nmea"), ("multi", "multi-gnss-burst.nmea")):
        truth, ep = ctx[key]
        info = check_clean(name, files[name], truth, ep)
        if key == "drive":
            require(info["rmc"] == truth["epochs"] - truth["rmc_absent_epochs"], "drive: RMC count")
            require(info["rmc_dates"] == ["010126", "311225"], f"drive: RMC dates {info['rmc_dates']}")
        report.append(f"{name}: {truth['epochs']} epochs, {info['sentences']} sentences, "
                      f"longest line {info['max_line_chars']} chars, worst fix {info['worst_error_m']} m from truth")
    exp = json.loads(files["corrupted.expected.json"])
    got = check_corrupted(files["corrupted.nmea"], exp)
    report.append(f"corrupted.nmea: {exp['total_lines']} lines, {sum(v['count'] for v in exp['defects'].values())} "
                  f"defects, surviving epochs {got}")
    truth = json.loads(files["static-hour.truth.json"])
    info = check_static_hour(files["static-hour.nmea"], truth, ctx["static"][1])
    report.append(f"static-hour.nmea: {truth['epochs']} epochs, {info['sentences']} sentences, "
                  f"{len(files['static-hour.nmea'])} bytes, longest line {info['max_line_chars']} chars, "
                  f"worst fix {info['worst_error_m']} m from truth, noisy path {info['noisy_path_length_m']} m")
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="do not write; regenerate in memory, compare with fixtures/ and validate")
    args = ap.parse_args(argv)
    files, ctx = generate()
    again, _ = generate()
    if again != files:
        print("generator is not deterministic", file=sys.stderr)
        return 1
    if args.check:
        stale = [n for n, b in files.items() if not (FIXTURES / n).exists() or (FIXTURES / n).read_bytes() != b]
        if stale:
            print("fixtures out of date (run python3 scripts/make-fixtures.py): " + ", ".join(stale), file=sys.stderr)
            return 1
        on_disk = {n: (FIXTURES / n).read_bytes() for n in files}
    else:
        FIXTURES.mkdir(exist_ok=True)
        for n, b in files.items():
            (FIXTURES / n).write_bytes(b)
        on_disk = {n: (FIXTURES / n).read_bytes() for n in files}
    try:
        report = run_checks(on_disk, ctx)
    except CheckError as e:
        print(f"CHECK FAILED: {e}", file=sys.stderr)
        return 1
    for n in files:
        print(f"{'checked' if args.check else 'wrote'} fixtures/{n} ({len(files[n])} bytes)")
    for line in report:
        print("ok: " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
