-- The distance travelled per log and UTC day, from `whereami export --format csv` files in
-- tracks/ (one per log). `distance` is the cumulative, jitter-proof distance of each row,
-- so a day's distance is its last value less the day before's; the days of a log add up
-- to what `whereami summary --json` says of it.
WITH days AS (
  SELECT
    parse_filename(filename, true) AS log,
    CAST(timezone('UTC', time) AS DATE) AS day,
    max(distance) AS reached
  FROM read_csv('tracks/*.csv', filename = true)
  WHERE time IS NOT NULL
  GROUP BY ALL
)
SELECT
  log,
  day,
  round(reached - coalesce(lag(reached) OVER (PARTITION BY log ORDER BY day), 0), 3) AS distance
FROM days
ORDER BY log, day;
