#!/usr/bin/env python3
"""Checks the Spark job (examples/spark/fleet.py) as a user runs it, in Spark's local mode
(`local[2]`), on a generated fleet: three vehicles over three days, one day past midnight,
with a damaged gzip file, a file that is not NMEA, an empty file and a log cut mid-line.

    examples/spark/test.py WHEREAMI

Run with the Python of .build/python (scripts/install-dependencies test puts pyspark and
DuckDB there, and Debian's Java 17). The job's main runs twice in one warm Java process,
as spark-submit would run it: first with WHEREAMI shipped to the executors as `--files`
ships it (scripts/test gives the package's release binary), then named with --whereami,
as if installed on the workers, counting days in another time zone. Every figure of the
tables is checked against `whereami summary --json`, `trips --json` and `export --format
csv` on each file, and the distances per day against examples/distance-per-day.sql run by
DuckDB on the same logs.
"""
import collections
import datetime
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile
import zoneinfo

import duckdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fleet  # noqa: E402  (beside this file)

whereami = os.path.abspath(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
failures = []
# Far beyond what the job takes (tens of seconds), so that only a hung job reaches it.
DEADLINE = 600
ZONE = "Pacific/Auckland"


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        failures.append(what)


def close(a, b, tolerance=0.0005):
    return a is not None and b is not None and abs(a - b) <= tolerance


def run_job(arguments):
    """Runs the job's main, as spark-submit does, in this process's warm Spark: its exit status."""
    try:
        return fleet.main(arguments)
    except SystemExit as exit:
        return exit.code


def table(output, name):
    rows = duckdb.sql(f"SELECT * FROM read_parquet('{output}/{name}/**/*.parquet', hive_partitioning = true)")
    columns = rows.columns
    return [dict(zip(columns, row)) for row in rows.fetchall()]


def utc(text):
    if text is None:
        return None
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


with tempfile.TemporaryDirectory(prefix="whereami-spark-") as work:
    # One Java process for both runs, as spark-submit would start it: local mode on two
    # cores, few shuffle partitions for a small fleet, no web UI. Each run's main makes
    # its session in it and stops it, as on a cluster. For a run this short, the JIT's
    # optimising tier and parallel GC threads cost more than they save: without them the
    # test took 44 s of CPU time instead of 77 (on the 2-core machine CI shares).
    os.environ["PYSPARK_SUBMIT_ARGS"] = (
        "--master local[2] --conf spark.ui.enabled=false --conf spark.sql.shuffle.partitions=4 "
        f"--driver-java-options \"-Djava.io.tmpdir={work} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC\" pyspark-shell")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    # The job is imported here, not run as spark-submit's main script: its functions reach
    # the Python workers by name, so they must find it as spark-submit --py-files would.
    os.environ["PYTHONPATH"] = here + os.pathsep + os.environ.get("PYTHONPATH", "")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    logs_folder = os.path.join(work, "logs")
    subprocess.run([sys.executable, os.path.join(here, "generate.py"), logs_folder, "--vehicles", "3", "--days", "3",
                    "--minutes", "20", "--damaged"], check=True)
    logs = sorted(glob.glob(os.path.join(logs_folder, "*", "*")))

    # What whereami says of each good log, on its own: the reference for every figure.
    plain = os.path.join(work, "plain")
    os.makedirs(plain)
    reference = {}
    for log in logs:
        with open(log, "rb") as file:
            data = file.read()
        try:
            data = gzip.decompress(data) if log.endswith(".gz") else data
        except (OSError, EOFError):
            continue
        if not data or not data.startswith(b"$"):
            continue
        vehicle = os.path.basename(os.path.dirname(log))
        name = f"{vehicle}_{os.path.basename(log).split('.')[0]}"
        path = os.path.join(plain, name + ".nmea")
        with open(path, "wb") as file:
            file.write(data)

        def run(*command):
            return subprocess.run([whereami, *command, path], capture_output=True, text=True, check=True,
                                  timeout=DEADLINE).stdout

        def trips(*options):
            return [item for item in map(json.loads, run("trips", "--json", *options).splitlines())
                    if item["class"] == "TRIP"]

        entry = {"vehicle": vehicle, "name": name, "plain": path, "summary": json.loads(run("summary", "--json")),
                 "trips": trips()}
        # A log without dates: what whereami says given the date in its name (--date-from-name).
        entry["undated"] = entry["summary"].get("first") is None
        date = ["--date", os.path.basename(log)[:10]] if entry["undated"] else []
        entry["dated"] = json.loads(run("summary", "--json", *date)) if date else entry["summary"]
        entry["dated trips"] = trips(*date) if date else entry["trips"]
        reference["file:" + log] = entry
    check(len(reference) == 10, f"{len(reference)} good logs generated, 10 expected")
    check(sum(entry["undated"] for entry in reference.values()) == 1, "one log has no dates")
    dated = [entry for entry in reference.values() if not entry["undated"]]

    # 1. The binary shipped to the executors as --files ships it, days in UTC.
    from pyspark.sql import SparkSession
    SparkSession.builder.getOrCreate().sparkContext.addFile(whereami)
    output = os.path.join(work, "out")
    status = run_job([logs_folder, output])
    check(status == 2, f"a fleet with damaged files ends with exit status 2, not {status}")
    if status not in (0, 2):
        sys.exit(1)

    errors = {os.path.basename(row["file"]): row for row in table(output, "errors")}
    check(set(errors) == {"2026-03-12.nmea.gz", "2026-03-13.nmea", "2026-03-14.nmea", "2026-03-11.nmea",
                          "2026-03-12.nmea"}, f"the errors table holds the five files in trouble: {sorted(errors)}")
    expected = {
        "2026-03-12.nmea.gz": ("damaged gzip", None, False),
        "2026-03-13.nmea": ("it is not NMEA 0183", 65, False),
        "2026-03-14.nmea": ("empty", None, False),
        "2026-03-11.nmea": ("truncated", None, True),
        "2026-03-12.nmea": ("fixes have no date", None, True),
    }
    for name, (reason, code, counted) in expected.items():
        row = errors.get(name, {})
        check(reason in (row.get("reason") or "") and row.get("exit_code") == code and row.get("counted") is counted
              and row.get("vehicle") in ("van-01", "van-02"), f"{name}: {row}")

    files = {row["file"]: row for row in table(output, "files")}
    check(set(files) == set(reference), f"the files table has every good log: {sorted(set(files) ^ set(reference))}")
    for path, expected in reference.items():
        row, summary = files.get(path, {}), expected["summary"]
        same = (row.get("fixes") == summary["fixes"] and row.get("distance") == summary["distance"]
                and row.get("distance_error") == summary["distanceError"]
                and row.get("moving_time") == summary["movingTime"] and row.get("stopped_time") == summary["stoppedTime"]
                and row.get("max_speed") == summary.get("maxSpeed") and row.get("sentences") == summary["sentences"]
                and row.get("rejected") == summary["rejected"] and row.get("rejections") == summary["rejections"]
                and row.get("first_fix") == utc(summary.get("first")) and row.get("last_fix") == utc(summary.get("last"))
                and row.get("vehicle") == expected["vehicle"]
                and row.get("undated_fixes") == (summary["fixes"] if expected["undated"] else 0))
        check(same, f"{expected['name']}: the files row is whereami summary's" + ("" if same else f": {row} {summary}"))

    # The fixes: as many per file as the summary counts, each trip's between its ends.
    fixes = table(output, "fixes")
    per_file = collections.Counter(row["file"] for row in fixes)
    check(all(per_file[path] == expected["summary"]["fixes"] for path, expected in reference.items()),
          "the fixes table has each file's fixes")
    check(all(row["day"] == (row["time"].date() if row["time"] else None) for row in fixes),
          "each fix is in its UTC day's partition, and an undated fix in none")
    trips = table(output, "trips")
    check(len(trips) == sum(len(expected["trips"]) for expected in reference.values()),
          f"{len(trips)} trips, as whereami trips finds them")
    by_trip = collections.defaultdict(list)
    for row in fixes:
        if row["trip_id"] is not None:
            by_trip[row["trip_id"]].append(row["time"])
    for trip in trips:
        times = by_trip.get(trip["trip_id"], [])
        if trip["start"] is None:
            # An undated trip: in the table, but no fix can be placed in it by time.
            check(not times and trip["trip_id"].endswith(("#1", "#2", "#3", "#4")), f"undated {trip['trip_id']}")
            continue
        check(times and min(times) == trip["start"] and max(times) == trip["end"],
              f"trip {trip['trip_id']}: its fixes run from its start to its end")
    check(set(by_trip) <= {trip["trip_id"] for trip in trips}, "every trip id of a fix names a trip")
    # Each trip's figures are whereami trips --json's, its error bar too.
    expected_trips = {(expected["vehicle"], trip["start"]): trip for expected in reference.values()
                      for trip in expected["trips"] if trip.get("start")}
    dated_trips = [trip for trip in trips if trip["start"] is not None]
    wrong = [trip["trip_id"] for trip in dated_trips
             if (expected := expected_trips.get((trip["vehicle"], trip["start"].strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z")))
             is None or trip["distance"] != expected["distance"] or trip["distance_error"] != expected["distanceError"]]
    check(dated_trips and not wrong, f"each trip's distance and its error are whereami's: wrong {wrong}")
    # The last fix of each file carries the file's error bar, as the summary does.
    last_fix = {}
    for row in fixes:
        if row["file"] not in last_fix or row["index"] > last_fix[row["file"]]["index"]:
            last_fix[row["file"]] = row
    check(all(last_fix[path]["distance_error"] == expected["summary"]["distanceError"]
              for path, expected in reference.items()), "each file's last fix has the summary's distance error")

    # The days: each vehicle's days add up to its files' summaries.
    daily = table(output, "daily")
    check([column for column in duckdb.sql(
        f"SELECT * FROM read_parquet('{output}/daily/**/*.parquet', hive_partitioning = true)").columns] == [
        "vehicle", "distance", "distance_error", "moving_time", "stopped_time", "trips", "max_speed", "mean_speed", "fixes", "files",
        "rejected", "rejections", "min_lat", "max_lat", "min_lon", "max_lon", "first_fix", "last_fix", "time_zone",
        "day"], "the daily table's columns")

    def totals_agree(daily, zone, logs):
        """Each vehicle's days against `logs`: (summary, trips) of each file that has days."""
        for vehicle in ("van-01", "van-02", "van-03"):
            days = [row for row in daily if row["vehicle"] == vehicle]
            mine = [(summary, trips) for name, summary, trips in logs if name == vehicle]
            summaries = [summary for summary, _ in mine]
            rejections = collections.Counter()
            for summary in summaries:
                rejections.update(summary["rejections"])
            day_rejections = collections.Counter()
            for row in days:
                day_rejections.update(row["rejections"])
            speeds = [summary["maxSpeed"] for summary in summaries if summary.get("maxSpeed") is not None]
            shares = len(days) + len(summaries)
            # Each day adds a share of a file's error variance; a bar that narrowed gives no
            # share, so the days' variances add up to at least the files' (less rounding).
            day_variance = sum(row["distance_error"] ** 2 for row in days)
            file_variance = sum(s["distanceError"] ** 2 for s in summaries)
            agree = {
                "distance": close(sum(row["distance"] for row in days), sum(s["distance"] for s in summaries),
                                  0.0005 * shares),
                "moving time": close(sum(row["moving_time"] for row in days), sum(s["movingTime"] for s in summaries),
                                     0.0005 * shares),
                "stopped time": close(sum(row["stopped_time"] for row in days),
                                      sum(s["stoppedTime"] for s in summaries), 0.0005 * shares),
                "distance error": day_variance >= file_variance - 0.01 * shares * (1 + max(
                    [row["distance_error"] for row in days] + [s["distanceError"] for s in summaries])),
                "fixes": sum(row["fixes"] for row in days) == sum(s["fixes"] for s in summaries),
                "trips": sum(row["trips"] for row in days) == sum(len(trips) for _, trips in mine),
                "max speed": max(row["max_speed"] for row in days if row["max_speed"] is not None) == max(speeds),
                "first fix": min(row["first_fix"] for row in days) == min(utc(s.get("first")) for s in summaries),
                "last fix": max(row["last_fix"] for row in days) == max(utc(s.get("last")) for s in summaries),
                "rejected": sum(row["rejected"] for row in days) == sum(s["rejected"] for s in summaries),
                "rejections": day_rejections == rejections,
                "time zone": all(row["time_zone"] == zone for row in days),
                "files": sum(row["files"] for row in days) >= len(mine),
            }
            wrong = [name for name, good in agree.items() if not good]
            check(not wrong, f"{vehicle} ({zone}): its days add up to its files' summaries; wrong: {wrong}"
                  + ("" if not wrong else f"; days {days}, summaries {summaries}"))

    # Undated fixes are in no day.
    totals_agree(daily, "UTC", [(entry["vehicle"], entry["summary"], entry["trips"]) for entry in dated])
    # A day that is one whole file is that file's summary, figure for figure.
    whole = 0
    for row in daily:
        within = [expected for expected in dated if expected["vehicle"] == row["vehicle"]
                  and utc(expected["summary"].get("first")).date() == row["day"]
                  and utc(expected["summary"].get("last")).date() == row["day"]]
        if len(within) != 1 or row["files"] != 1:
            continue
        whole += 1
        summary = within[0]["summary"]
        check(row["distance"] == summary["distance"] and row["distance_error"] == summary["distanceError"]
              and row["moving_time"] == summary["movingTime"]
              and row["stopped_time"] == summary["stoppedTime"] and row["fixes"] == summary["fixes"]
              and row["max_speed"] == summary["maxSpeed"] and row["trips"] == len(within[0]["trips"])
              and row["mean_speed"] == round(summary["distance"] / summary["movingTime"], 3)
              and row["first_fix"] == utc(summary.get("first")) and row["last_fix"] == utc(summary.get("last"))
              and row["rejections"] == summary["rejections"],
              f"{row['vehicle']} {row['day']}: the day is {within[0]['name']}'s summary")
    check(whole >= 6, f"{whole} days are one whole file each")
    midnight = [expected for expected in dated
                if utc(expected["summary"].get("first")).date() != utc(expected["summary"].get("last")).date()]
    check(len(midnight) == 1, "one log runs past midnight")
    two_days = [row for row in daily if row["vehicle"] == "van-03" and row["day"] == datetime.date(2026, 3, 11)]
    check(len(two_days) == 1 and two_days[0]["files"] == 2, "the day after midnight has two files' shares")

    # The same days from DuckDB's example, on the same logs: equal to the millimetre.
    tracks = os.path.join(work, "tracks")
    os.makedirs(tracks)
    for expected in dated:
        subprocess.run([whereami, "export", "--format", "csv", "-o", os.path.join(tracks, expected["name"] + ".csv"),
                        expected["plain"]], check=True, capture_output=True, timeout=DEADLINE)
    with open(os.path.join(root, "examples", "distance-per-day.sql")) as file:
        query = file.read()
    previous = os.getcwd()
    os.chdir(work)
    try:
        duck = duckdb.sql(query).fetchall()
    finally:
        os.chdir(previous)
    duck_days = collections.defaultdict(float)
    for log, day, distance in duck:
        duck_days[(log.split("_")[0], day)] += distance
    spark_days = {(row["vehicle"], row["day"]): row["distance"] for row in daily}
    check({key: round(value, 3) for key, value in duck_days.items()} == spark_days,
          f"the days' distances are DuckDB's example's exactly ({len(spark_days)} vehicle-days)")

    # 2. The binary as if installed on the workers (--whereami), days in another zone.
    zoned = os.path.join(work, "zoned")
    status = run_job([logs_folder, zoned, "--whereami", whereami, "--time-zone", ZONE, "--date-from-name"])
    check(status == 2, f"the second run ends with exit status 2 too, not {status}")
    zone = zoneinfo.ZoneInfo(ZONE)

    def local_day(moment):
        return moment.replace(tzinfo=datetime.timezone.utc).astimezone(zone).date()

    daily = table(zoned, "daily")
    # With --date-from-name the log without dates has its day too.
    totals_agree(daily, ZONE, [(entry["vehicle"], entry["dated"], entry["dated trips"])
                               for entry in reference.values()])
    errors = {os.path.basename(row["file"]): row for row in table(zoned, "errors")}
    check("2026-03-12.nmea" not in errors and len(errors) == 4, f"dated by its name: {sorted(errors)}")
    check(all(local_day(row["first_fix"]) == row["day"] == local_day(row["last_fix"]) for row in daily),
          f"in {ZONE}, each day's fixes are of that local day")
    check(any(local_day(row["first_fix"]) != row["first_fix"].date() for row in daily),
          f"some day differs from the UTC day in {ZONE}")
    fixes = table(zoned, "fixes")
    check(all(row["day"] == local_day(row["time"]) for row in fixes), f"each fix is in its {ZONE} day's partition")

if failures:
    print(f"spark test: {len(failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("spark test: every check passed")
