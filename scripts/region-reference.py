#!/usr/bin/env python3
"""Generate reference distances to region boundaries for the region tests, from GeographicLib.

Writes Tests/LocationKitTests/Resources/region-reference.tsv: polygons whose edges are
WGS84 geodesics, and points at known signed distances from them (negative inside). Each
point is laid out from the geodesic middle of an edge along the geodesic at right angles
to the edge there, so the nearest point of the edge is that middle and the distance is
the one laid out, exactly (GeographicLib solves to about 15 nanometres). Points are kept
closer to their edge than to any other, and the script checks it.

To rerun (from the package root; needs Python 3 and GeographicLib 2.x):

    pip install geographiclib
    python3 scripts/region-reference.py

The random generator is seeded, so the output only changes if this script or
GeographicLib changes.

File format: '#' lines are comments; every other line is tab-separated,

    R  <case>  <ring>  lat lon lat lon ...   (a ring: 0 is the outer one, then the holes)
    P  <case>  lat lon  distance             (a point and its signed distance, metres)
    C  <case>  lat lon radius                (a circle)

with every number written with 17 significant digits.
"""

import math
import random
import sys
from pathlib import Path

from geographiclib.geodesic import Geodesic

SEED = 20261206
GEOD = Geodesic.WGS84
OUTPUT = (
    Path(__file__).resolve().parent.parent
    / "Tests" / "LocationKitTests" / "Resources" / "region-reference.tsv"
)


def number(x):
    return repr(float(x)) if abs(x) >= 1e-300 or x == 0 else "0.0"


def ring_around(lat, lon, radius, count, rng, start=0.0):
    """A convex ring: vertices at `radius` from the centre, counter-clockwise seen from above."""
    ring = []
    for k in range(count):
        azimuth = start - 360.0 * k / count + rng.uniform(-5, 5)
        point = GEOD.Direct(lat, lon, azimuth, radius * rng.uniform(0.9, 1.1))
        ring.append((point["lat2"], point["lon2"]))
    return ring


def edge_points(ring, inside_sign, rng, distances):
    """Points off the middle of each edge: inside (negative) on the left of a counter-clockwise ring."""
    points = []
    for k in range(len(ring)):
        a, b = ring[k], ring[(k + 1) % len(ring)]
        line = GEOD.Inverse(a[0], a[1], b[0], b[1])
        middle = GEOD.Direct(a[0], a[1], line["azi1"], line["s12"] / 2)
        heading = middle["azi2"]
        for d in distances:
            d = d * rng.uniform(0.8, 1.0)
            # Left of the edge (heading - 90) is inside for a counter-clockwise outer ring.
            for side, signed in ((-90, -d * inside_sign), (90, d * inside_sign)):
                point = GEOD.Direct(middle["lat2"], middle["lon2"], heading + side, d)
                points.append((point["lat2"], point["lon2"], signed))
        points.append((middle["lat2"], middle["lon2"], 0.0))
    return points


def distance_to_edge(point, a, b):
    """Brute force: the least distance to 2,001 points along the geodesic edge."""
    line = GEOD.InverseLine(a[0], a[1], b[0], b[1])
    best = math.inf
    for k in range(2001):
        p = line.Position(line.s13 * k / 2000)
        best = min(best, GEOD.Inverse(point[0], point[1], p["lat2"], p["lon2"])["s12"])
    return best


def check(case, rings, points):
    """Each point's laid-out distance is its least distance to any edge, within the brute force's step."""
    for lat, lon, signed in points:
        nearest = min(
            distance_to_edge((lat, lon), ring[k], ring[(k + 1) % len(ring)])
            for ring in rings for k in range(len(ring)))
        step = max(GEOD.Inverse(r[k][0], r[k][1], r[(k + 1) % len(r)][0], r[(k + 1) % len(r)][1])["s12"]
                   for r in rings for k in range(len(r))) / 2000
        if nearest < abs(signed) - step:
            sys.exit(f"{case}: a point {abs(signed)} m off its edge is {nearest} m from another")


def main():
    rng = random.Random(SEED)
    out = [__doc__.strip().replace("\n", "\n# ").join(["# ", ""]), ""]
    cases = []

    # A field of 1 km with edges of a few hundred metres.
    ring = ring_around(48.137, 11.575, 500, 7, rng)
    cases.append(("field", [ring], edge_points(ring, 1, rng, [0.5, 10, 60])))
    # Across the antimeridian (Fiji).
    ring = ring_around(-16.8, 180.0, 2000, 6, rng)
    ring = [(lat, lon - 360 if lon > 180 else lon) for lat, lon in ring]
    cases.append(("antimeridian", [ring], edge_points(ring, 1, rng, [1, 50, 300])))
    # Round the North Pole, 20 km across: the pole itself is inside.
    ring = ring_around(90.0, 0.0, 10000, 8, rng, start=0.0)
    points = edge_points(ring, 1, rng, [2, 200, 1500]) + [(90.0, 0.0, None)]
    cases.append(("pole", [ring], points))
    # A ring round a hole: a harbour with an island. The hole's ring is counter-clockwise
    # too, so its left is the hole's inside: outside the region.
    outer = ring_around(54.32, 10.14, 3000, 9, rng)
    hole = ring_around(54.32, 10.14, 800, 5, rng)
    cases.append(("hole", [outer, hole], edge_points(outer, 1, rng, [3, 100]) + edge_points(hole, -1, rng, [3, 100])))
    # Edges of 300 km, where a geodesic and a straight line in degrees part by kilometres.
    ring = ring_around(60.0, 20.0, 250000, 4, rng)
    cases.append(("large", [ring], edge_points(ring, 1, rng, [10, 1000, 20000])))

    for case, rings, points in cases:
        # The pole's own distance: the least over the edges, by the brute force.
        resolved = []
        for lat, lon, signed in points:
            if signed is None:
                signed = -min(distance_to_edge((lat, lon), r[k], r[(k + 1) % len(r)])
                              for r in rings for k in range(len(r)))
            resolved.append((lat, lon, signed))
        check(case, rings, [p for p in resolved if p[0] != 90.0])
        for index, ring in enumerate(rings):
            out.append("\t".join(["R", case, str(index)] + [number(v) for vertex in ring for v in vertex]))
        for lat, lon, signed in resolved:
            out.append("\t".join(["P", case, number(lat), number(lon), number(signed)]))

    # Circles: the distance to the centre less the radius.
    for k in range(20):
        lat, lon = rng.uniform(-89, 89), rng.uniform(-180, 180)
        radius = 10 ** rng.uniform(1, 5)
        out.append("\t".join(["C", f"circle{k}", number(lat), number(lon), number(radius)]))
        for _ in range(5):
            d = radius * rng.uniform(0, 2)
            point = GEOD.Direct(lat, lon, rng.uniform(-180, 180), d)
            out.append("\t".join(["P", f"circle{k}", number(point["lat2"]), number(point["lon2"]), number(d - radius)]))

    path = Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
