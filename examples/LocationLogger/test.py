#!/usr/bin/env python3
"""Checks the LocationLogger example from the outside, as a user runs it (scripts/test runs
this after building it): on every fixture its distance is `whereami summary`'s; on a live
pipe it keeps going through "location unknown" and ends cleanly on Ctrl-C; on a file it
may not read it stops with "denied".

  examples/LocationLogger/test.py LOGGER WHEREAMI

Waits for what the logger prints, never for a guessed time; each wait has a generous
deadline that only a failure reaches.
"""
import glob
import json
import os
import select
import signal
import subprocess
import sys
import tempfile

logger, whereami = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []
DEADLINE = 60.0


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        failures.append(what)


# 1. The distance on every fixture, against `whereami summary --json`.
for log in sorted(glob.glob(os.path.join(root, "fixtures", "*.nmea"))):
    run = subprocess.run([logger, log], capture_output=True, text=True, timeout=DEADLINE)
    summary = json.loads(subprocess.run([whereami, "summary", "--json", log], capture_output=True, text=True,
                                        check=True, timeout=DEADLINE).stdout)
    lines = run.stdout.splitlines()
    expected = f"travelled {summary['distance']:.1f} m"
    name = os.path.basename(log)
    check(run.returncode == 0 and lines and lines[-1] == expected,
          f"{name}: exit {run.returncode}, last line {lines[-1] if lines else None!r}, summary: {expected!r}")
    check(len(lines) - 1 == summary["fixes"], f"{name}: {len(lines) - 1} locations printed, summary counts {summary['fixes']}")


class Child:
    """The logger reading a pipe; its output read as it comes (so no pipe ever fills)."""

    def __init__(self, args, **options):
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        **options)
        self.out, self.err = self.process.stdout.fileno(), self.process.stderr.fileno()
        self.buffers = {self.out: b"", self.err: b""}

    def wait_for(self, stream, text):
        """Reads both streams until `text` has appeared on `stream`; False at the deadline."""
        fd = self.out if stream == "stdout" else self.err
        return self.wait_until(lambda: text.encode() in self.buffers[fd])

    def lines(self):
        return self.buffers[self.out].count(b"\n")

    def wait_until(self, condition):
        """Reads both streams until `condition()` holds; False at the deadline or the end."""
        while not condition():
            ready, _, _ = select.select(list(self.buffers), [], [], DEADLINE)
            if not ready:
                return False
            for fd in ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    return condition()
                self.buffers[fd] += chunk
        return True

    def finish(self):
        rest_out, rest_err = self.process.communicate(timeout=DEADLINE)
        out = self.buffers[self.out] + rest_out
        err = self.buffers[self.err] + rest_err
        return self.process.returncode, out.decode(), err.decode()


walk = open(os.path.join(root, "fixtures", "walk.nmea"), "rb").read().splitlines(keepends=True)
# A cycle is GGA, RMC, GSA and sometimes GSV: 40 lines are about ten fixes.
first, second = b"".join(walk[:40]), b"".join(walk[40:80])

# 2. A live pipe: fixes, then silence ("location unknown", updates go on), fixes again, Ctrl-C.
child = Child([logger, "-"])
child.process.stdin.write(first)
child.process.stdin.flush()
check(child.wait_for("stdout", "distance"), "a live pipe: locations printed as they come")
check(child.wait_for("stderr", "waiting for a fix"), "a silent pipe: 'location unknown' reported")
printed = child.lines()
child.process.stdin.write(second)
child.process.stdin.flush()
check(child.wait_until(lambda: child.lines() > printed), "after the silence: updates resumed")
child.process.send_signal(signal.SIGINT)
status, out, err = child.finish()
check(status == 0 and out.splitlines()[-1].startswith("travelled "),
      f"Ctrl-C: exit {status}, last line {out.splitlines()[-1] if out else None!r}")

# 3. Denied: a log that the user running the logger may not read.
if os.geteuid() == 0:
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        secret = os.path.join(folder, "secret.nmea")
        with open(secret, "wb") as file:
            file.write(first)
        os.chmod(secret, 0o600)
        run = subprocess.run(["runuser", "-u", "nobody", "--", logger, secret], capture_output=True, text=True,
                             timeout=DEADLINE)
        check(run.returncode == 1 and "denied" in run.stderr, f"denied: exit {run.returncode}, {run.stderr.strip()!r}")
else:
    check(False, "denied: needs root (to run the logger as 'nobody' on a file only root may read)")

print(f"LocationLogger: {len(failures)} checks failed" if failures else "LocationLogger: every check passed")
sys.exit(1 if failures else 0)
