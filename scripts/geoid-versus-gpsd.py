#!/usr/bin/env python3
"""How far gpsd's geoid separation can be from EGM96's, over the whole globe.

gpsd fills in a geoid separation from a 5-degree table (EGM2008 values, bilinear
interpolation; gpsd/geoid.c). whereami uses EGM96 on PROJ's 15-minute grid. The
conformance test allows ellipsoidal heights built on the two to differ by the bound
this script prints. It reads gpsd's table from gpsd's own source file, given as the
argument, and compares at every node of the EGM96 grid:

    scripts/geoid-versus-gpsd.py path/to/gpsd/gpsd/geoid.c [/usr/share/proj/egm96_15.gtx]
"""
import re
import sys

import numpy as np

source = open(sys.argv[1]).read()
grid_path = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/proj/egm96_15.gtx"
body = re.search(r"geoid_delta\[GEOID_ROW\]\[GEOID_COL\]\s*=\s*\{(.*?)\};", source, re.S).group(1)
body = re.sub(r"//[^\n]*", "", body)
table = np.array([int(v) for v in re.findall(r"-?\d+", body)], dtype=float).reshape(37, 73) / 100

raw = open(grid_path, "rb").read()
south, west, dlat, dlon = np.frombuffer(raw[:32], dtype=">f8")
rows, columns = np.frombuffer(raw[32:40], dtype=">i4")
egm96 = np.frombuffer(raw[40:], dtype=">f4").reshape(rows, columns).astype(float)
lat = south + dlat * np.arange(rows)
lon = west + dlon * np.arange(columns)
lat, lon = np.meshgrid(lat, lon, indexing="ij")

# gpsd's interpolation, as in wgs84_separation(): the cell's south-west node by floor,
# the next row and column unless at the table's edge.
i = np.floor((90 + lat) / 5).astype(int)
j = np.floor((180 + lon) / 5).astype(int)
i2 = np.minimum(i + 1, 36)
j2 = np.minimum(j + 1, 72)
x1, y1 = j * 5 - 180.0, i * 5 - 90.0
x2, y2 = j2 * 5 - 180.0, i2 * 5 - 90.0
fx = np.where(x2 > x1, (lon - x1) / np.where(x2 > x1, x2 - x1, 1), 0)
fy = np.where(y2 > y1, (lat - y1) / np.where(y2 > y1, y2 - y1, 1), 0)
south_row = table[i, j] + (table[i, j2] - table[i, j]) * fx
north_row = table[i2, j] + (table[i2, j2] - table[i2, j]) * fx
gpsd = south_row + (north_row - south_row) * fy

difference = np.abs(egm96 - gpsd)
worst = np.unravel_index(np.argmax(difference), difference.shape)
print(f"nodes compared: {difference.size}")
print(f"largest |EGM96 - gpsd|: {difference.max():.3f} m at {lat[worst]:.2f}, {lon[worst]:.2f}")
print(f"99.9th percentile: {np.percentile(difference, 99.9):.3f} m; 99th: {np.percentile(difference, 99):.3f} m")
print(f"RMS: {np.sqrt(np.mean(difference ** 2)):.3f} m")
