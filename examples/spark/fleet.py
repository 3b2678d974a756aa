#!/usr/bin/env python3
"""Per-vehicle, per-day figures of a fleet's NMEA logs, on Apache Spark.

    spark-submit [--files /path/to/whereami] examples/spark/fleet.py INPUT OUTPUT [options]

INPUT is a folder (read recursively) or a glob of Hadoop's (`logs/*/*.nmea*`,
`s3a://fleet/logs/*/2026-*.nmea.gz`); each file is one receiver's log, plain or gzip. The
vehicle is the name of the folder the file is in (`vehicle/day.nmea`), or what the first
group of `--vehicle-pattern` matches in the path.

Each file is decoded by `whereami` on an executor, one process at a time per task (so a
task keeps one core): `trips --json`, `summary --json` and `export --format csv`, each with
`--jobs 1`. Spark does the rest: it reads the files, spreads them over the executors,
aggregates the days and writes the tables, as Parquet, under OUTPUT:

    daily/    per vehicle and day (UTC, or --time-zone), partitioned by day
    fixes/    every fix, partitioned by day
    trips/    every trip
    files/    one row per file that was decoded: its figures and rejections
    errors/   one row per file that could not be decoded, or was only in part

The job's exit status is 0 when every file was decoded, 2 when some file could not be
(it is in errors/ with counted = false), 1 when the job itself failed.
"""
import argparse
import datetime
import gzip
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import zlib

from pyspark import SparkFiles, StorageLevel
from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import (BooleanType, DoubleType, IntegerType, LongType, MapType, StringType,
                               StructField, StructType, TimestampType)

# The columns of `whereami export --format csv`, typed as the README's table types them:
# Spark parses the rows itself with this schema (no inference over terabytes), each row
# behind the four columns the job adds (vehicle, file, the fix's index in it, trip id).
EXPORT_COLUMNS = [
    ("time", TimestampType()), ("segment", LongType()), ("lat", DoubleType()), ("lon", DoubleType()),
    ("mode", LongType()), ("quality", StringType()), ("eph", DoubleType()), ("accuracySource", StringType()),
    ("altMSL", DoubleType()), ("altHAE", DoubleType()), ("geoidSep", DoubleType()), ("epv", DoubleType()),
    ("speed", DoubleType()), ("track", DoubleType()), ("climb", DoubleType()), ("heading", DoubleType()),
    ("magvar", DoubleType()), ("hdop", DoubleType()), ("vdop", DoubleType()), ("pdop", DoubleType()),
    ("satellitesUsed", LongType()), ("satellitesVisible", LongType()), ("dgpsAge", DoubleType()),
    ("dgpsSta", LongType()), ("distance", DoubleType()), ("pathLength", DoubleType()),
    ("displacement", DoubleType()), ("device", StringType()), ("speedSource", StringType()),
    ("geoidSource", StringType()), ("movingTime", DoubleType()), ("stoppedTime", DoubleType()),
    ("distanceError", DoubleType()),
]
EXPORT_HEADER = ",".join(name for name, _ in EXPORT_COLUMNS)
ROW_SCHEMA = StructType(
    [StructField("vehicle", StringType()), StructField("file", StringType()), StructField("index", LongType()),
     StructField("trip_id", StringType())]
    + [StructField(name, kind) for name, kind in EXPORT_COLUMNS])

def fix_columns():
    """The fixes table's columns, from a row's: the ones positions are queried by, named as
    Spark users name columns. `index` is the fix's place in its file (from 0); `trip_id` is
    null outside every trip."""
    return [
        F.col("vehicle"), F.col("file"), F.col("index"), F.col("time"), F.col("lat"), F.col("lon"),
        F.col("eph").alias("accuracy"), F.col("altMSL").alias("altitude"), F.col("speed"),
        F.col("track").alias("course"), F.col("distance"), F.col("distanceError").alias("distance_error"),
        F.col("movingTime").alias("moving_time"),
        F.col("stoppedTime").alias("stopped_time"),
        F.coalesce(F.col("speedSource") == "receiver", F.lit(False)).alias("speed_measured"), F.col("trip_id"),
    ]


TRIP_SCHEMA = StructType([
    StructField("vehicle", StringType(), False),
    StructField("file", StringType(), False),
    StructField("trip_id", StringType(), False),
    StructField("start", TimestampType(), True),
    StructField("end", TimestampType(), True),
    StructField("duration", DoubleType(), True),
    StructField("distance", DoubleType(), True),
    StructField("distance_error", DoubleType(), True),
    StructField("moving_time", DoubleType(), True),
    StructField("max_speed", DoubleType(), True),
    StructField("mean_speed", DoubleType(), True),
])

FILE_SCHEMA = StructType([
    StructField("vehicle", StringType(), False),
    StructField("file", StringType(), False),
    StructField("bytes", LongType(), False),
    StructField("fixes", LongType(), False),
    StructField("undated_fixes", LongType(), False),
    StructField("first_fix", TimestampType(), True),
    StructField("last_fix", TimestampType(), True),
    StructField("distance", DoubleType(), False),
    StructField("distance_error", DoubleType(), True),
    StructField("moving_time", DoubleType(), False),
    StructField("stopped_time", DoubleType(), False),
    StructField("max_speed", DoubleType(), True),
    StructField("sentences", LongType(), False),
    StructField("rejected", LongType(), False),
    StructField("rejections", MapType(StringType(), LongType()), False),
    StructField("summary", StringType(), False),
])

ERROR_SCHEMA = StructType([
    StructField("vehicle", StringType(), True),
    StructField("file", StringType(), False),
    StructField("reason", StringType(), False),
    StructField("exit_code", IntegerType(), True),
    StructField("counted", BooleanType(), False),
])

# How long one whereami may take on one file: far more than a day's log needs (hundreds of
# MB/s), so that only a hung process reaches it; it is then an error of that file.
DECODE_TIMEOUT = 3600


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="fleet.py", description="Per-vehicle, per-day figures of NMEA logs, with whereami on Spark.")
    parser.add_argument("input", help="a folder (read recursively) or a glob of logs, local, hdfs:// or s3a://")
    parser.add_argument("output", help="where the tables go (daily, fixes, trips, files, errors), as Parquet")
    parser.add_argument("--time-zone", default="UTC",
                        help="days are those of this IANA time zone (default UTC), e.g. Europe/Lisbon")
    parser.add_argument("--vehicle-pattern", default=r"([^/]+)/[^/]+$",
                        help="a regular expression whose first group, searched in the path, names the vehicle "
                        "(default: the file's folder)")
    parser.add_argument("--whereami", default=None,
                        help="whereami on the workers (default: the one shipped with --files, else whereami on PATH)")
    parser.add_argument("--date-from-name", action="store_true",
                        help="give whereami --date from a YYYY-MM-DD in the file's name, for logs without dates")
    parser.add_argument("--mode", default="overwrite", choices=["overwrite", "errorifexists"],
                        help="what to do when OUTPUT's tables exist (default overwrite)")
    return parser.parse_args(argv)


def normalised(path):
    """A file's URI as Spark's rows give it (`file:/logs/x`, not `file:///logs/x`)."""
    return re.sub(r"^file:///", "file:/", path)


def vehicle_of(path, pattern):
    found = re.search(pattern, path)
    return found.group(1) if found and found.groups() else None


def whereami_on_worker(given):
    """The whereami binary to run here: as given, else shipped with --files, else on PATH."""
    if given:
        return given
    try:
        shipped = SparkFiles.get("whereami")
    except Exception:  # No SparkContext files on this worker: fall back to PATH.
        shipped = None
    if shipped and os.path.exists(shipped):
        # --files does not keep the executable bit everywhere: run a private copy that has it.
        if not os.access(shipped, os.X_OK):
            private = os.path.join(tempfile.gettempdir(), f"whereami-{os.getpid()}")
            if not os.path.exists(private):
                shutil.copyfile(shipped, private)
                os.chmod(private, stat.S_IRWXU)
            return private
        return shipped
    found = shutil.which("whereami")
    if not found:
        raise RuntimeError("whereami is neither shipped with --files nor on the workers' PATH (see the README)")
    return found


def timestamp(text):
    """A UTC time of whereami's (`2025-06-14T07:42:13.000Z`), or None."""
    if not text:
        return None
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


def csv_text(text):
    """`text` as one CSV field (RFC 4180), empty for None or "" (null when read back)."""
    if not text:
        return ""
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\r\n') else text


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def decode_file(path, content, options, whereami):
    """Yields (table, row) for one log: its fixes, trips and file row, or its errors."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    vehicle = vehicle_of(path, options.vehicle_pattern)

    def error(reason, exit_code=None, counted=False):
        return ("errors", (vehicle, path, reason, exit_code, counted))

    if vehicle is None:
        yield error(f"no vehicle: --vehicle-pattern {options.vehicle_pattern!r} does not match the path")
        return
    data = bytes(content or b"")
    if not data:
        yield error("empty: the file has no bytes")
        return
    if name.endswith(".gz") or data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as failure:
            yield error(f"damaged gzip: {failure}")
            return
        if not data:
            yield error("empty: the file decompresses to no bytes")
            return
    local_name = name[:-3] if name.endswith(".gz") else name
    common = ["--jobs", "1"]
    dated = re.search(r"(\d{4}-\d{2}-\d{2})", local_name) if options.date_from_name else None
    if dated:
        common += ["--date", dated.group(1)]
    with tempfile.TemporaryDirectory(prefix="whereami-fleet-") as folder:
        local = os.path.join(folder, local_name)
        with open(local, "wb") as file:
            file.write(data)
        outputs = {}
        for command in (["trips", "--json"], ["summary", "--json"], ["export", "--format", "csv"]):
            try:
                run = subprocess.run([whereami] + command + common + [local], capture_output=True,
                                     timeout=DECODE_TIMEOUT)
            except subprocess.TimeoutExpired:
                yield error(f"whereami {command[0]} took more than {DECODE_TIMEOUT} s")
                return
            # whereami names the file it read: the local copy, which the user never saw.
            message = last_line(run.stderr.decode("utf-8", "replace")).replace(local, path)
            message = message.removeprefix("whereami: ")
            if run.returncode != 0:
                yield error(message or f"whereami {command[0]} failed", run.returncode)
                return
            outputs[command[0]] = run.stdout.decode("utf-8")

    summary = json.loads(outputs["summary"])
    trips = []
    for line in outputs["trips"].splitlines():
        item = json.loads(line)
        if item.get("class") == "TRIP":
            # A trip of a log without dates has no start: it is named by its place in the file.
            trip_id = f"{vehicle}:{item['start']}" if item.get("start") else f"{path}#{len(trips) + 1}"
            trips.append((item.get("start") or "", item.get("end") or "", trip_id))
            yield ("trips", (vehicle, path, trip_id, timestamp(item.get("start")), timestamp(item.get("end")),
                             item.get("duration"), item.get("distance"), item.get("distanceError"),
                             item.get("movingTime"),
                             item.get("maxSpeed"), item.get("meanSpeed")))

    rows = outputs["export"].split("\r\n")
    if rows[0] != EXPORT_HEADER:
        yield error(f"this whereami's CSV columns are not those the job reads ({rows[0][:200]}): "
                    "use the whereami this job comes with")
        return
    prefix = f"{csv_text(vehicle)},{csv_text(path)},"
    undated = 0
    trip = 0
    for index, row in enumerate(rows[1:]):
        if not row:
            continue
        # The first column is the time, ISO 8601 in UTC with milliseconds: in that form
        # text compares as time does.
        time = row[:row.index(",")]
        trip_id = ""
        if not time:
            undated += 1
        else:
            # The trips and the fixes are both in time order: a fix between a trip's start
            # and end (inclusive, as whereami gives them) is part of it.
            while trip < len(trips) and trips[trip][1] < time:
                trip += 1
            if trip < len(trips) and trips[trip][0] <= time:
                trip_id = trips[trip][2]
        yield ("fixes", f"{prefix}{index},{csv_text(trip_id)},{row}")

    if undated:
        yield error(f"{undated} of {summary['fixes']} fixes have no date (no RMC or ZDA): they are in fixes/ "
                    "without a time and in no day; give the date with --date-from-name", counted=True)
    if data[-1:] not in (b"\n", b"\r"):
        yield error("truncated: the last line has no line end (counted as rejected; the rest is decoded)",
                    counted=True)
    rejections = {reason: int(count) for reason, count in summary.get("rejections", {}).items()}
    yield ("files", (vehicle, path, len(data), summary["fixes"], undated, timestamp(summary.get("first")),
                     timestamp(summary.get("last")), summary["distance"], summary.get("distanceError"),
                     summary.get("movingTime", 0.0),
                     summary.get("stoppedTime", 0.0), summary.get("maxSpeed"), summary["sentences"],
                     summary["rejected"], rejections, outputs["summary"].strip()))


def decode_partition(files, options):
    whereami = None
    for item in files:
        if whereami is None:
            whereami = whereami_on_worker(options.whereami)
        yield from decode_file(item.path, item.content, options, whereami)


def read_logs(spark, source):
    reader = spark.read.format("binaryFile")
    # A folder is read to the bottom; a glob names the files itself.
    if not any(character in source for character in "*?[{"):
        reader = reader.option("recursiveFileLookup", "true")
    return reader.load(source).select("path", "content")


def day_of(column, time_zone):
    """The day of the UTC timestamps in `column`, in `time_zone` (an IANA name, or UTC)."""
    if time_zone == "UTC":
        return F.to_date(column)
    return F.to_date(F.from_utc_timestamp(F.col(column), time_zone))


def daily_table(fixes, trips, files, time_zone):
    """Per vehicle and day: the day's share of each file's figures, added up."""
    dated = fixes.where(F.col("time").isNotNull()).withColumn("day", day_of("time", time_zone))
    # The figures are the file's so far at each fix: a day's share is their value at its
    # last fix less the day before's (examples/distance-per-day.sql takes the largest
    # distance, the same: distance and moving time only grow; standing time gives back what
    # turns out to have been the start of a movement, so it takes the last).
    per_file = dated.groupBy("vehicle", "file", "day").agg(
        F.max_by("distance", "index").alias("reached"),
        F.max_by("distance_error", "index").alias("reached_error"),
        F.max_by("moving_time", "index").alias("moved"),
        F.max_by("stopped_time", "index").alias("stood"),
        F.count(F.lit(1)).alias("fixes"),
        F.max(F.when(F.col("speed_measured"), F.col("speed"))).alias("max_speed"),
        F.min("lat").alias("min_lat"), F.max("lat").alias("max_lat"),
        F.min("lon").alias("min_lon"), F.max("lon").alias("max_lon"),
        F.min("time").alias("first_fix"), F.max("time").alias("last_fix"))
    in_file = Window.partitionBy("file").orderBy("day")
    for total, share in (("reached", "distance"), ("moved", "moving_time"), ("stood", "stopped_time")):
        per_file = per_file.withColumn(
            share, F.round(F.col(total) - F.coalesce(F.lag(total).over(in_file), F.lit(0.0)), 3))
    # The error bar's variance is a sum over the file's stretches, as the distance is (a
    # trip's error is whereami's the same way): a day's share is its variance at the day's
    # last fix less the day before's. A bar that narrowed (a late rest taught the noise)
    # gives the day no share rather than a negative one.
    per_file = per_file.withColumn("distance_variance", F.greatest(
        F.col("reached_error") ** 2 - F.coalesce(F.lag("reached_error").over(in_file), F.lit(0.0)) ** 2, F.lit(0.0)))
    # A file's rejections are not dated: they count on the day of its first fix.
    rejections = (files.where(F.col("first_fix").isNotNull()).withColumn("day", day_of("first_fix", time_zone))
                  .select("vehicle", "day", "rejected", F.explode_outer("rejections").alias("reason", "count")))
    rejected = rejections.groupBy("vehicle", "day").agg(F.sum(F.coalesce("count", F.lit(0))).alias("rejected"))
    reasons = (rejections.where(F.col("reason").isNotNull()).groupBy("vehicle", "day", "reason")
               .agg(F.sum("count").alias("count")).groupBy("vehicle", "day")
               .agg(F.map_from_entries(F.collect_list(F.struct("reason", "count"))).alias("rejections")))
    trip_counts = (trips.withColumn("day", day_of("start", time_zone)).groupBy("vehicle", "day")
                   .agg(F.count(F.lit(1)).alias("trips")))
    daily = per_file.groupBy("vehicle", "day").agg(
        F.round(F.sum("distance"), 3).alias("distance"),
        # The files' errors are independent: their variances add.
        F.round(F.sqrt(F.sum("distance_variance")), 3).alias("distance_error"),
        F.round(F.sum("moving_time"), 3).alias("moving_time"),
        F.round(F.sum("stopped_time"), 3).alias("stopped_time"),
        F.sum("fixes").alias("fixes"),
        F.countDistinct("file").alias("files"),
        F.max("max_speed").alias("max_speed"),
        F.min("min_lat").alias("min_lat"), F.max("max_lat").alias("max_lat"),
        F.min("min_lon").alias("min_lon"), F.max("max_lon").alias("max_lon"),
        F.min("first_fix").alias("first_fix"), F.max("last_fix").alias("last_fix"))
    daily = (daily.join(trip_counts, ["vehicle", "day"], "left").join(rejected, ["vehicle", "day"], "left")
             .join(reasons, ["vehicle", "day"], "left"))
    empty_map = F.create_map().cast(MapType(StringType(), LongType()))
    return daily.select(
        "vehicle", "day", "distance", "distance_error", "moving_time", "stopped_time",
        F.coalesce("trips", F.lit(0)).cast(LongType()).alias("trips"), "max_speed",
        F.when(F.col("moving_time") > 0, F.round(F.col("distance") / F.col("moving_time"), 3)).alias("mean_speed"),
        "fixes", "files", F.coalesce("rejected", F.lit(0)).cast(LongType()).alias("rejected"),
        F.coalesce("rejections", empty_map).alias("rejections"),
        "min_lat", "max_lat", "min_lon", "max_lon", "first_fix", "last_fix",
        F.lit(time_zone).alias("time_zone"))


def run(spark, options):
    """Writes the tables of the logs options.input names under options.output; returns the
    files that could not be decoded at all, as (path, reason)."""
    # Times are UTC throughout (--time-zone only chooses where a day begins), written as
    # Parquet's standard timestamps rather than Spark's legacy INT96.
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    logs = read_logs(spark, options.input)
    decoded = logs.rdd.mapPartitions(lambda files: decode_partition(files, options))
    # One decoding feeds five tables: keep its rows rather than run whereami again.
    decoded.persist(StorageLevel.MEMORY_AND_DISK)
    fixes = None
    try:
        # Decoded once, here: the tables' queries would otherwise start at the same time
        # and each decode every file before the first had filled the cache.
        decoded.count()
        def table(name, schema):
            return spark.createDataFrame(decoded.filter(lambda item: item[0] == name).map(lambda item: item[1]),
                                         schema)

        rows = decoded.filter(lambda item: item[0] == "fixes").map(lambda item: item[1])
        fixes = (spark.read.schema(ROW_SCHEMA).option("mode", "FAILFAST")
                 .option("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX").csv(rows).select(*fix_columns()))
        # Parsed once, for the days and for the fixes table (here too, before the queries).
        fixes.persist(StorageLevel.MEMORY_AND_DISK)
        fixes.count()
        trips = table("trips", TRIP_SCHEMA)
        files, errors = table("files", FILE_SCHEMA), table("errors", ERROR_SCHEMA)
        zone = options.time_zone
        output = options.output.rstrip("/")
        daily = daily_table(fixes, trips, files, zone)
        daily.write.mode(options.mode).partitionBy("day").parquet(f"{output}/daily")
        fixes.withColumn("day", day_of("time", zone)).write.mode(options.mode).partitionBy("day").parquet(
            f"{output}/fixes")
        trips.write.mode(options.mode).parquet(f"{output}/trips")
        files.write.mode(options.mode).parquet(f"{output}/files")
        # Spark reads no row from an empty file; its file index still lists it.
        seen = {normalised(row.file) for row in files.select("file").union(errors.select("file")).distinct()
                .toLocalIterator()}
        empty = [normalised(path) for path in logs.inputFiles() if normalised(path) not in seen]
        if empty:
            errors = errors.union(spark.createDataFrame(
                [(vehicle_of(path, options.vehicle_pattern), path, "empty: the file has no bytes", None, False)
                 for path in empty], ERROR_SCHEMA))
        errors.write.mode(options.mode).parquet(f"{output}/errors")
        return [(row.file, row.reason) for row in errors.where(~F.col("counted")).select("file", "reason").collect()]
    finally:
        decoded.unpersist()
        if fixes is not None:
            fixes.unpersist()


def main(argv):
    options = parse_arguments(argv)
    spark = SparkSession.builder.appName("whereami fleet").getOrCreate()
    try:
        failed = run(spark, options)
    finally:
        spark.stop()
    for path, reason in failed:
        print(f"fleet: {path}: {reason}", file=sys.stderr)
    if failed:
        print(f"fleet: {len(failed)} file(s) could not be decoded; see {options.output.rstrip('/')}/errors",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
