#!/usr/bin/env python3
"""Live latency of whereami: from an epoch's last byte written to a serial line until its fix is printed.

    swift build -c release
    python3 Benchmarks/latency.py                    # 10 + 2000 epochs 20 ms apart; stdout a pipe, then a pty
    python3 Benchmarks/latency.py --floor            # also a minimal Python relay in whereami's place
    python3 Benchmarks/latency.py --interval 100     # a real 10 Hz receiver (3.5 minutes per row)
    python3 Benchmarks/latency.py --source stdin     # the receiver on standard input (SOURCE -)
    chrt -f 10 python3 Benchmarks/latency.py         # real-time priority (children inherit it)

The receiver is a pseudo-terminal: the benchmark opens a pair, sets the slave raw and
starts the release `whereami print --json /dev/pts/N`, a serial SOURCE (whereami puts
it in termios raw mode itself). It writes the epochs of `generate-log.py`'s u-blox F9
style receiver (RMC, VTG, GGA, GNS, four GSAs, GLL, GST every epoch; eight GSV groups
and ZDA once a second; CRLF, no damaged lines) with UTC times 0.1 s apart, each epoch
in one write(2), then pauses `--interval` milliseconds. For every epoch it takes
time.monotonic_ns() right after the write returned and again when the JSON line with
that epoch's "time" arrives on whereami's standard output; the difference is the
latency: the pty, the reading thread, the decoder (which ends a live cycle at the
sentence it has learned closes every cycle, after two cycles), the location manager's
hand-over to its callback queue, the delegate, rendering, the write to standard output
and the benchmark's own wake-up. The first `--warmup` epochs are not counted.

Standard output is measured two ways (`--stdout both`, the default):

- `pipe`: what a program reading `whereami print --json /dev/ttyUSB0 | ...` sees;
  whereami's output buffering, if any, shows here in full.
- `pty`: standard output is a pseudo-terminal too, on which whereami always flushes
  every line: the decoder + manager + delegate path alone.

`--floor` also runs a minimal relay (Python, below) in whereami's place: it reads the
device and writes a line at each GST. Its latency is what the pty, the pipes and the
scheduler cost on this machine at this moment; on a shared machine the tail of both
comes mostly from there, so compare the two rows measured in the same minutes.

A fix that has not arrived when the stream ends (still in a buffer, say) is counted as
"not delivered"; its latency is unknown, and it is left out of the percentiles.

Only the Python standard library is needed; Linux only (pty, /dev/pts). The benchmark is
not part of the test suite.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import math
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

from bench import machine  # the same machine line as the throughput benchmark

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = Path(__file__).resolve().parent / "generate-log.py"


def load_generator():
    sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
    spec = importlib.util.spec_from_file_location("generate_log", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Epochs:
    """The receiver's epochs, as bytes, with the ISO time whereami prints for each."""

    def __init__(self, seed: int) -> None:
        import random

        self.generator = load_generator()
        self.loop = self.generator.make_loop(random.Random(seed))
        self.start = self.generator.START
        self.rate = self.generator.RATE

    def epoch(self, index: int) -> tuple[bytes, str]:
        second, tenth = divmod(index, self.rate)
        moment = self.start + dt.timedelta(seconds=second)
        values = {
            "T": f"{moment:%H%M%S}.{tenth}0",
            "D": f"{moment:%d%m%y}",
            "Z": f"{moment.day:02d},{moment.month:02d},{moment.year:04d}",
        }
        lines = []
        for pieces, _ in self.loop[index % len(self.loop)]:
            body = "".join(values.get(piece, piece) for piece in pieces)
            lines.append(f"${body}*{self.generator.checksum(body):02X}\r\n")
        stamp = (moment + dt.timedelta(milliseconds=100 * tenth)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        return "".join(lines).encode("latin-1"), stamp


def write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            written = os.write(descriptor, view)
        except BlockingIOError:
            select.select([], [descriptor], [], 1.0)
            continue
        view = view[written:]


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), math.ceil(fraction * len(sorted_values) - 1e-9)))
    return sorted_values[rank - 1]


# The floor: a minimal program in whereami's place. It opens the device raw, reads
# whatever comes and, at each GST (the last sentence of every epoch), writes the epoch's
# NMEA time as a JSON line with one write(2): one thread's wake-up, the pty and the
# output, nothing else.
RELAY = r"""
import os, signal, sys, tty
signal.signal(signal.SIGINT, signal.SIG_DFL)
fd = 0 if sys.argv[1] == "-" else os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY)
if fd: tty.setraw(fd)
pending = b""
while data := os.read(fd, 65536):
    *lines, pending = (pending + data).split(b"\n")
    for line in lines:
        if line[3:6] == b"GST":
            os.write(1, b'{"time":"' + line.split(b",")[1] + b'"}\n')
"""


def nmea_time(stamp: str) -> str:
    """`2025-06-21T18:00:00.100Z` as NMEA writes it: `180000.10`."""
    return stamp[11:13] + stamp[14:16] + stamp[17:19] + "." + stamp[20:22]


def measure(program: str, epochs: Epochs, mode: str, source: str, cycles: int, warmup: int, interval_ms: float) -> dict:
    """Runs `program` (whereami, or the floor when "relay") once on a fresh pseudo-terminal
    (or pipe); returns the latencies in ms and counts."""
    if source == "serial":
        receiver, device = pty.openpty()
        tty.setraw(device)
        path = os.ttyname(device)
        stdin = subprocess.DEVNULL
    else:  # standard input: `cat /dev/ttyUSB0 | whereami print -`
        device, receiver = os.pipe()
        path = "-"
        stdin = device
    argv = [sys.executable, "-c", RELAY, path] if program == "relay" else [program, "print", "--json", path]
    if mode == "pty":
        reader, writer = pty.openpty()
        tty.setraw(reader)
        tty.setraw(writer)  # no output processing: the bytes whereami writes, as they are
    else:
        reader, writer = os.pipe()
    errors = tempfile.TemporaryFile()
    process = subprocess.Popen(argv, stdin=stdin, stdout=writer, stderr=errors, close_fds=True)
    os.close(writer)
    if source == "stdin":
        os.close(device)
        device = -1
    os.set_blocking(receiver, False)
    time.sleep(0.3)  # let it open and configure the device

    written: dict[str, int] = {}  # time field -> monotonic ns after the write
    warm: set[str] = set()  # the time fields of the warm-up epochs
    latencies: dict[str, float] = {}  # time field -> ms
    aliases: dict[str, str] = {}  # the relay's NMEA times -> time fields
    pending = b""
    interval_ns = int(interval_ms * 1e6)

    def collect(deadline_ns: int) -> None:
        nonlocal pending
        while True:
            remaining = (deadline_ns - time.monotonic_ns()) / 1e9
            if remaining <= 0:
                return
            ready, _, _ = select.select([reader] + ([receiver] if source == "serial" else []), [], [], remaining)
            now = time.monotonic_ns()
            if receiver in ready:
                try:
                    os.read(receiver, 65536)  # whereami writes nothing to a receiver; drain anyway
                except OSError:
                    pass
            if reader in ready:
                try:
                    chunk = os.read(reader, 1 << 20)
                except OSError:
                    chunk = b""
                if not chunk:
                    return
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    line = line.strip()
                    if not line.startswith(b"{"):
                        continue
                    stamp = json.loads(line).get("time")
                    stamp = aliases.get(stamp, stamp)
                    sent = written.pop(stamp, None)
                    if sent is None:
                        continue
                    if stamp not in warm:
                        latencies[stamp] = (now - sent) / 1e6

    next_write = time.monotonic_ns()
    for index in range(warmup + cycles):
        data, stamp = epochs.epoch(index)
        if index < warmup:
            warm.add(stamp)
        collect(next_write)
        write_all(receiver, data)
        written[stamp] = time.monotonic_ns()
        if program == "relay":
            aliases[nmea_time(stamp)] = stamp
        next_write = written[stamp] + interval_ns
    # Give the last fixes time to come (a terminal gets them within milliseconds).
    collect(time.monotonic_ns() + 500_000_000)
    undelivered = sum(1 for stamp in written if stamp not in warm)

    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    os.close(reader)
    os.close(receiver)
    if device >= 0:
        os.close(device)
    errors.seek(0)
    stderr = errors.read().decode(errors="replace").strip().splitlines()
    return {"latencies": latencies, "undelivered": undelivered, "stderr": stderr}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--whereami", default=str(ROOT / ".build/release/whereami"), help="the binary to measure")
    parser.add_argument("--cycles", type=int, default=2000, help="epochs measured (default 2000)")
    parser.add_argument("--warmup", type=int, default=10, help="epochs written first and not counted (default 10)")
    parser.add_argument("--interval", type=float, default=20, help="pause after each epoch, in ms (default 20)")
    parser.add_argument("--stdout", choices=("pipe", "pty", "both"), default="both", help="whereami's standard output")
    parser.add_argument(
        "--source", choices=("serial", "stdin"), default="serial",
        help="the receiver: a pseudo-terminal (default) or a pipe on standard input (SOURCE -)",
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the receiver's track (default 7)")
    parser.add_argument("--floor", action="store_true", help="also measure a minimal Python relay in whereami's place")
    parser.add_argument("--samples", metavar="PREFIX", help="also write every latency to PREFIX[.floor].{pipe,pty}.tsv")
    arguments = parser.parse_args()

    whereami = arguments.whereami
    if not os.access(whereami, os.X_OK):
        sys.exit(f"{whereami} not found: build it first with `swift build -c release`")
    epochs = Epochs(arguments.seed)
    sample, _ = epochs.epoch(0)
    plain, _ = epochs.epoch(1)
    policy = "SCHED_FIFO" if os.sched_getscheduler(0) == os.SCHED_FIFO else "normal"
    print(f"machine:  {machine()}; load average {os.getloadavg()[0]:.2f}; {policy} scheduling")
    print(f"whereami: {subprocess.run([whereami, '--version'], capture_output=True, text=True).stdout.strip()} ({whereami})")
    print(
        f"stream:   {arguments.warmup} + {arguments.cycles} epochs, each one write of {len(plain)} bytes"
        f" ({len(sample)} with GSV and ZDA, once a second), then {arguments.interval:g} ms pause"
    )
    print()
    print("| reader | source | stdout | fixes | p50 ms | p90 ms | p99 ms | max ms | not delivered |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    source = "serial (pty)" if arguments.source == "serial" else "standard input (pipe)"
    modes = ("pipe", "pty") if arguments.stdout == "both" else (arguments.stdout,)
    programs = (whereami, "relay") if arguments.floor else (whereami,)
    for program in programs:
        name = "floor (Python relay)" if program == "relay" else "`whereami print --json`"
        for mode in modes:
            result = measure(program, epochs, mode, arguments.source, arguments.cycles, arguments.warmup, arguments.interval)
            values = sorted(result["latencies"].values())
            if arguments.samples:
                suffix = ".floor" if program == "relay" else ""
                with open(f"{arguments.samples}{suffix}.{mode}.tsv", "w") as file:
                    file.writelines(f"{stamp}\t{ms:.3f}\n" for stamp, ms in result["latencies"].items())
            cells = " | ".join(f"{percentile(values, p):.3f}" for p in (0.5, 0.9, 0.99, 1.0))
            print(f"| {name} | {source} | {mode} | {len(values)} | {cells} | {result['undelivered']} |", flush=True)
            for line in result["stderr"][:5]:
                print(f"  {mode} stderr: {line}", file=sys.stderr)

if __name__ == "__main__":
    main()
