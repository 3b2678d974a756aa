#!/usr/bin/env python3
"""Decode throughput and peak memory of whereami against its peers and the I/O floor.

    swift build -c release --static-swift-stdlib --product whereami --build-path .build/static
    python3 Benchmarks/bench.py                 # 220 MB seeded log in /tmp, 5 runs, median
    python3 Benchmarks/bench.py --flat          # also peak RSS on a 20 MB and a 2 GB log
    python3 Benchmarks/bench.py --instructions  # also instructions per byte (callgrind, 10 MB log)
    python3 Benchmarks/bench.py --log my.nmea   # your own log instead
    python3 Benchmarks/bench.py --scaling       # also whereami on 1, 2, 4 ... cores
    python3 Benchmarks/bench.py --families      # parallel decoding on eight families of logs
    python3 Benchmarks/bench.py --paper-scaling # ideal speed-up on 4-16 cores, from instructions

The peers, side by side on the same file: gpsd's `gpsdecode -j` (Debian gpsd-clients);
adrianmo/go-nmea (golang-github-adrianmo-go-nmea-dev, with golang-go), a small program
kept in Benchmarks/go-nmea that parses every line and reads every GGA/RMC position;
pynmea2 (python3-nmea2) doing the same in Benchmarks/pynmea2-pass.py, run once (it is
two orders of magnitude slower); a minimal C pass (Benchmarks/minimal-pass.c) that only
checks every checksum and converts every GGA/RMC coordinate, the floor of any decoder;
and `cat` and `wc -l`, the floor of reading. The Go and C programs are built into
.build/bench on first use. Peers that are not installed are left out, and said so.

Every command reads the same file from the page cache (it is read once before the
runs), pinned to one core with `taskset -c 0` when taskset exists, with standard
output to /dev/null. The table gives the median of the runs: wall time, MB/s (10^6
bytes), sentences per second (every `$` and `!` in the input counts as one), peak
resident memory, and the speed relative to `gpsdecode -j` and to `cat`.

Peak RSS comes from GNU time (`/usr/bin/time`, Debian package `time`): it forks the
command from a small process, so the figure is the command's own. (A child forked by
Python inherits Python's resident pages in its maximum, which would hide everything
below ~15 MB.)

Only the Python standard library is needed. The benchmark is not part of the test
suite: it takes a minute and its numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = Path(__file__).resolve().parent / "generate-log.py"
FAMILY_GENERATOR = Path(__file__).resolve().parent / "families.py"
FAMILIES = ("multi-gnss", "garbage", "corpus", "bare", "dateless", "cr-only", "rtk20", "gga-10hz")
# What each family needs to be decoded as its user would: a dateless log is dated.
FAMILY_OPTIONS = {"dateless": ["--date", "2026-01-09"]}


def generated_log(size: str, seed: int) -> Path:
    path = Path(tempfile.gettempdir()) / f"whereami-bench-{size}-seed{seed}.nmea"
    if not path.exists():
        print(f"generating {path} ...", file=sys.stderr)
        partial = path.with_suffix(".partial")
        subprocess.run([sys.executable, str(GENERATOR), "--size", size, "--seed", str(seed), str(partial)], check=True)
        partial.rename(path)
    return path


def family_log(family: str, size: str, seed: int) -> Path:
    path = Path(tempfile.gettempdir()) / f"whereami-family-{family}-{size}-seed{seed}.nmea"
    if not path.exists():
        print(f"generating {path} ...", file=sys.stderr)
        partial = path.with_suffix(".partial")
        subprocess.run(
            [sys.executable, str(FAMILY_GENERATOR), "--family", family, "--size", size, "--seed", str(seed), str(partial)],
            check=True)
        partial.rename(path)
    return path


def split_line(whereami: str, log: Path, options: list[str]) -> str:
    """What `summary -v --jobs 2` says of how it split the file."""
    result = subprocess.run([whereami, "summary", "-v", "--jobs", "2", *options, str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in result.stderr.splitlines():
        if "chunks on" in line or "decoded by one decoder" in line:
            return line.split(": ", 2)[-1]
    return "?"


def families(whereami: str, peers: dict[str, str], gpsdecode: str | None, arguments) -> None:
    """For each family: output identical with 1 and 2 jobs, chunks decoded twice, the
    instructions of 2 jobs against 1 (callgrind, all threads, on a 16 MB log of the
    family), the median per-round speed-up of `summary` on two cores against one over
    alternating rounds (`taskset`), and the peers' times on the same file."""
    one, two = Runner(pin=True, cores=1), Runner(pin=True, cores=2)
    rows = []
    for family in arguments.family or FAMILIES:
        log = family_log(family, arguments.family_size, arguments.seed)
        size = log.stat().st_size
        read_through(log)
        options = FAMILY_OPTIONS.get(family, [])
        identical = all(
            subprocess.run([whereami, *command, "--jobs", "1", *options, str(log)], capture_output=True).stdout
            == subprocess.run([whereami, *command, "--jobs", "2", *options, str(log)], capture_output=True).stdout
            for command in (["summary"], ["print", "--json"]))
        split = split_line(whereami, log, options)
        counts = []
        if arguments.instructions:
            small = family_log(family, "16M", arguments.seed)
            counts = [instructions([whereami, "summary", "--jobs", jobs, *options, str(small)], None) for jobs in ("1", "2")]
        ratios, singles, doubles = [], [], []
        for round in range(arguments.rounds):
            # Alternating which goes first, so that a drift of the machine favours neither.
            order = [(one, singles), (two, doubles)]
            if round % 2:
                order.reverse()
            times = {}
            for runner, samples in order:
                seconds, _ = runner.run([whereami, "summary", *options, str(log)], None)
                samples.append(seconds)
                times[id(runner)] = seconds
            ratios.append(times[id(one)] / times[id(two)])
        peer_times = {}
        if gpsdecode:
            peer_times["gpsdecode"] = one.run([gpsdecode, "-j"], log)[0]
        if "go-nmea" in peers:
            result = subprocess.run(["taskset", "-c", "0", peers["go-nmea"]], stdin=open(log, "rb"),
                                    capture_output=True, text=True)
            start = time.perf_counter()
            subprocess.run(["taskset", "-c", "0", peers["go-nmea"]], stdin=open(log, "rb"), stdout=subprocess.DEVNULL)
            peer_times["go-nmea"] = time.perf_counter() - start
            peer_times["go-nmea parsed"] = result.stdout.split()[0] if result.stdout else "?"
        rows.append((family, size, identical, split, counts, statistics.median(singles), statistics.median(doubles),
                     statistics.median(ratios), peer_times))
        print(f"  {family}: {split}; ratios {' '.join(f'{r:.2f}' for r in ratios)}", file=sys.stderr)

    print()
    print(f"Parallel decoding by family (`summary`, median of {arguments.rounds} alternating rounds on one core"
          " and on two, `taskset`; instructions under callgrind on a 16 MB log of the family, all threads):")
    print()
    print("| family | MB | same output, 1 and 2 jobs | `summary -v --jobs 2` | instructions, 1 → 2 jobs | extra "
          "| 1 core s | 2 cores s | speed-up (per-round median) | `gpsdecode -j` s | go-nmea s (sentences parsed) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for family, size, identical, split, counts, single, double, ratio, peer_times in rows:
        instructions_text = f"{counts[0] / 1e6:,.0f} M → {counts[1] / 1e6:,.0f} M" if counts else "-"
        extra = f"{100 * (counts[1] / counts[0] - 1):+.1f} %" if counts else "-"
        gpsd = f"{peer_times['gpsdecode']:.2f}" if "gpsdecode" in peer_times else "-"
        go = f"{peer_times['go-nmea']:.2f} ({peer_times['go-nmea parsed']})" if "go-nmea" in peer_times else "-"
        print(f"| {family} | {size / 1e6:.0f} | {'yes' if identical else '**no**'} | {split} | {instructions_text} "
              f"| {extra} | {single:.3f} | {double:.3f} | {ratio:.2f}× | {gpsd} | {go} |")


def thread_instructions(argv: list[str]) -> list[int]:
    """Instructions of each thread of `argv` under callgrind (`--separate-threads=yes`),
    the main thread first."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "callgrind.out"
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={report}"] + argv,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f"callgrind of {' '.join(argv)} failed: {result.stderr[-400:]}")
        counts = []
        def thread(path: Path) -> int:
            suffix = path.name.rsplit("-", 1)[-1]
            return int(suffix) if suffix.isdigit() else 1

        for path in sorted(Path(scratch).glob("callgrind.out*"), key=thread):
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith("summary:") or line.startswith("totals:"):
                    counts.append(int(line.split()[1]))
                    break
        return counts


def paper_scaling(whereami: str, arguments) -> None:
    """The ideal speed-up on more cores than this machine has, from per-thread
    instruction counts: with N jobs the work is the workers' and the merger's (the main
    thread, which takes the chunks in order and runs what cannot be split); on N cores it
    cannot take less than the larger of the merger's share and the whole divided by N."""
    print()
    print("Ideal speed-up on more cores, from per-thread instructions (callgrind `--separate-threads=yes`, "
          f"`summary`, {arguments.family_size} logs; speed-up = one thread's instructions / max(merger's, all / N)):")
    print()
    print("| family | jobs | all threads | merger (main thread) | merger's share | ideal speed-up on as many cores |")
    print("| --- | --- | --- | --- | --- | --- |")
    for family in arguments.family or ("multi-gnss", "bare"):
        log = family_log(family, arguments.family_size, arguments.seed)
        options = FAMILY_OPTIONS.get(family, [])
        single = None
        for jobs in (1, 2, 4, 8, 16):
            counts = thread_instructions([whereami, "summary", "--jobs", str(jobs), *options, str(log)])
            total, merger = sum(counts), counts[0]
            single = single or total
            ideal = single / max(merger, total / jobs) if jobs > 1 else 1.0
            print(f"| {family} | {jobs} | {total / 1e6:,.0f} M | {merger / 1e6:,.0f} M | {100 * merger / total:.1f} % "
                  f"| {ideal:.2f}× |", flush=True)


def read_through(path: Path) -> int:
    """Reads the file once (into the page cache) and counts its sentences."""
    sentences = 0
    with open(path, "rb") as file:
        while block := file.read(1 << 22):
            sentences += block.count(b"$") + block.count(b"!")
    return sentences


class Runner:
    def __init__(self, pin: bool, cores: int = 1) -> None:
        self.gnu_time = shutil.which("time", path="/usr/bin:/bin") or ""
        if not self.gnu_time:
            sys.exit("bench.py needs GNU time for peak RSS: apt-get install time")
        cpus = "0" if cores == 1 else f"0-{cores - 1}"
        self.prefix = ["taskset", "-c", cpus] if pin and shutil.which("taskset") else []

    def run(self, argv: list[str], stdin: Path | None) -> tuple[float, int]:
        """Runs `argv` once; returns wall seconds and peak RSS in kB."""
        with tempfile.NamedTemporaryFile("r") as report, open(stdin or os.devnull, "rb") as source:
            command = [self.gnu_time, "-f", "%M", "-o", report.name] + self.prefix + argv
            start = time.perf_counter()
            result = subprocess.run(command, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            seconds = time.perf_counter() - start
            if result.returncode != 0:
                sys.exit(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
            return seconds, int(report.read().split()[-1])


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Linux {platform.release()}"


def version(argv: list[str]) -> str:
    try:
        result = subprocess.run(argv, capture_output=True, text=True)
        return (result.stdout or result.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def build_peers() -> dict[str, str]:
    """Builds the Go and C peers into .build/bench; their paths, for those that built."""
    out = ROOT / ".build/bench"
    out.mkdir(parents=True, exist_ok=True)
    built: dict[str, str] = {}
    here = Path(__file__).resolve().parent
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler:
        target = out / "minimal-pass"
        subprocess.run([compiler, "-O2", "-o", str(target), str(here / "minimal-pass.c")], check=True)
        built["minimal C pass"] = str(target)
    else:
        print("no C compiler: the minimal C pass is left out", file=sys.stderr)
    gocode = Path("/usr/share/gocode")
    if shutil.which("go") and (gocode / "src/github.com/adrianmo/go-nmea").is_dir():
        target = out / "go-nmea"
        environment = dict(os.environ, GO111MODULE="off", GOPATH=str(gocode), GOCACHE=str(out / "gocache"))
        subprocess.run(["go", "build", "-o", str(target), "."], cwd=here / "go-nmea", env=environment, check=True)
        built["go-nmea"] = str(target)
    else:
        print("go or go-nmea missing (golang-go, golang-github-adrianmo-go-nmea-dev): left out", file=sys.stderr)
    return built


def instructions(argv: list[str], stdin: Path | None) -> int:
    """Instructions `argv` executes (valgrind --tool=callgrind), its output to /dev/null."""
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "callgrind.out"
        with open(stdin or os.devnull, "rb") as source:
            result = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={report}"] + argv,
                stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f"callgrind of {' '.join(argv)} failed: {result.stderr[-400:]}")
        for line in result.stderr.splitlines():
            if "Collected :" in line:
                return int(line.split(":")[-1].strip())
    sys.exit(f"callgrind printed no count for {' '.join(argv)}")


def startup(whereami: str, runs: int) -> float:
    """Median wall time of `whereami --version`, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([whereami, "--version"], stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--whereami", default=str(ROOT / ".build/static/release/whereami"),
        help="the binary to measure (default: the release build linked as scripts/package links it)")
    parser.add_argument("--log", help="an NMEA log to decode (default: a seeded one generated in /tmp)")
    parser.add_argument("--size", default="220M", help="size of the generated log (default 220M)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the generated log (default 7)")
    parser.add_argument("--runs", type=int, default=5, help="runs per command; the median is reported (default 5)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the commands to CPU 0")
    parser.add_argument("--no-gpsdecode", action="store_true", help="skip gpsd's gpsdecode")
    parser.add_argument("--flat", action="store_true", help="also peak RSS on a 20 MB and a 2 GB generated log")
    parser.add_argument(
        "--instructions", action="store_true", help="also instructions per byte under callgrind, on a 10 MB log")
    parser.add_argument("--no-peers", action="store_true", help="skip go-nmea, pynmea2 and the minimal C pass")
    parser.add_argument(
        "--scaling", action="store_true",
        help="also whereami on 1, 2, 4, ... cores (taskset), up to all of them, and the speed-up")
    parser.add_argument(
        "--families", action="store_true",
        help="only the parallel-decoding table on the eight log families of Benchmarks/families.py")
    parser.add_argument("--family", action="append", choices=FAMILIES, help="with --families: only this one (repeatable)")
    parser.add_argument("--family-size", default="60M", help="with --families: size of each family's log (default 60M)")
    parser.add_argument("--rounds", type=int, default=7, help="with --families: alternating rounds (default 7)")
    parser.add_argument(
        "--paper-scaling", action="store_true",
        help="only the ideal speed-up on 2 to 16 cores from per-thread instructions (callgrind; "
        "--family multi-gnss and bare unless given)")
    arguments = parser.parse_args()

    whereami = arguments.whereami
    if not os.access(whereami, os.X_OK):
        sys.exit(
            f"{whereami} not found: build it first with `swift build -c release --static-swift-stdlib"
            " --product whereami --build-path .build/static` (the Swift runtime linked in, as the"
            " package ships it), or name another with --whereami")
    gpsdecode = None if arguments.no_gpsdecode else shutil.which("gpsdecode")
    if not arguments.no_gpsdecode and not gpsdecode:
        sys.exit("gpsdecode not found: apt-get install gpsd-clients (or pass --no-gpsdecode)")
    if arguments.paper_scaling:
        paper_scaling(whereami, arguments)
        return
    if arguments.families:
        print(f"machine:   {machine()}")
        print(f"whereami:  {version([whereami, '--version'])} ({whereami})")
        families(whereami, {} if arguments.no_peers else build_peers(), gpsdecode, arguments)
        return
    log = Path(arguments.log) if arguments.log else generated_log(arguments.size, arguments.seed)
    size = log.stat().st_size
    sentences = read_through(log)
    runner = Runner(pin=not arguments.no_pin)

    commands: list[tuple[str, list[str], Path | None]] = [
        ("cat > /dev/null", ["cat", str(log)], None),
        ("wc -l", ["wc", "-l", str(log)], None),
        ("whereami summary", [whereami, "summary", str(log)], None),
        ("whereami print --json", [whereami, "print", "--json", str(log)], None),
    ]
    if gpsdecode:
        commands.append(("gpsdecode -j < log", [gpsdecode, "-j"], log))
    peers = {} if arguments.no_peers else build_peers()
    if "go-nmea" in peers:
        commands.append(("go-nmea < log", [peers["go-nmea"]], log))
    if "minimal C pass" in peers:
        commands.append(("minimal C pass < log", [peers["minimal C pass"]], log))
    pynmea2 = Path(__file__).resolve().parent / "pynmea2-pass.py"
    has_pynmea2 = subprocess.run(["/usr/bin/python3", "-c", "import pynmea2"], capture_output=True).returncode == 0
    if not arguments.no_peers and has_pynmea2:
        commands.append(("pynmea2 < log (1 run)", ["/usr/bin/python3", str(pynmea2)], log))
    elif not arguments.no_peers:
        print("pynmea2 missing (python3-nmea2): left out", file=sys.stderr)

    print(f"machine:   {machine()}")
    print(f"whereami:  {version([whereami, '--version'])} ({whereami})")
    if gpsdecode:
        print(f"gpsdecode: {version([gpsdecode, '-V'])}")
    print(f"log:       {log}, {size / 1e6:.1f} MB, {sentences:,} sentences")
    print(f"runs:      {arguments.runs} per command, median; {'pinned to CPU 0' if runner.prefix else 'not pinned'}")
    print()

    results: dict[str, tuple[float, int]] = {}
    for name, argv, stdin in commands:
        runs = 1 if "1 run" in name else arguments.runs
        samples = [runner.run(argv, stdin) for _ in range(runs)]
        results[name] = (statistics.median(s for s, _ in samples), max(k for _, k in samples))
        print(f"  {name}: {' '.join(f'{s:.3f}' for s, _ in samples)} s", file=sys.stderr)

    reference = results.get("gpsdecode -j < log", (None, 0))[0]
    floor = results["cat > /dev/null"][0]
    header = "| command | median s | MB/s | sentences/s | peak RSS MB | × gpsdecode -j | share of cat speed |"
    print(header)
    print("|" + " --- |" * header.count(" | ") + " --- |")
    for name, (seconds, rss) in results.items():
        ratio = f"{reference / seconds:.1f}×" if reference else "-"
        print(
            f"| `{name}` | {seconds:.3f} | {size / 1e6 / seconds:,.0f} | {sentences / seconds / 1e6:.2f} M"
            f" | {rss / 1024:.1f} | {ratio} | {100 * floor / seconds:.0f} % |"
        )
    print()
    print(f"`whereami --version` start-up: {startup(whereami, 21):.1f} ms (median of 21)")

    if arguments.instructions:
        small = generated_log("10M", arguments.seed)
        small_size = small.stat().st_size
        print()
        print(f"Instructions per byte (valgrind --tool=callgrind, {small_size / 1e6:.1f} MB generated log):")
        print()
        print("| command | instructions | per byte |")
        print("| --- | --- | --- |")
        # One thread: the count of the work itself (a parallel run adds its warm-ups).
        counted = [
            ("whereami summary", [whereami, "summary", "--jobs", "1", str(small)], None),
            ("whereami print --json", [whereami, "print", "--json", "--jobs", "1", str(small)], None),
            ("whereami export --format csv", [whereami, "export", "--format", "csv", "--jobs", "1", str(small)], None),
        ]
        # Valgrind cannot run Go programs (their runtime's signal and stack handling crash it).
        counted += [(f"{name} < log", [path], small) for name, path in peers.items() if name != "go-nmea"]
        for name, argv, stdin in counted:
            count = instructions(argv, stdin)
            print(f"| `{name}` | {count:,} | {count / small_size:.1f} |")

    if arguments.scaling:
        # Medians of more runs than above: the speed-up is a ratio of two noisy figures.
        cores = [1]
        while cores[-1] * 2 <= (os.cpu_count() or 1):
            cores.append(cores[-1] * 2)
        print()
        print(f"Scaling on {log.stat().st_size / 1e6:.0f} MB (taskset; --jobs defaults to the cores allowed; "
              f"median of {2 * arguments.runs + 1} runs):")
        print()
        print("| command | cores | median s | MB/s | speed-up | peak RSS MB |")
        print("| --- | --- | --- | --- | --- | --- |")
        for name, command in (("summary", ["summary"]), ("print --json", ["print", "--json"]),
                              ("export --format csv", ["export", "--format", "csv"])):
            one = None
            for count in cores:
                scaled = Runner(pin=True, cores=count)
                samples = [scaled.run([whereami, *command, str(log)], None) for _ in range(2 * arguments.runs + 1)]
                seconds = statistics.median(s for s, _ in samples)
                one = one or seconds
                rss = max(k for _, k in samples)
                print(f"| `whereami {name}` | {count} | {seconds:.3f} | {size / 1e6 / seconds:,.0f} "
                      f"| {one / seconds:.2f}× | {rss / 1024:.1f} |")

    if arguments.flat:
        every = Runner(pin=False)
        print()
        print(f"Peak RSS, MB, on one core and on all {os.cpu_count()}:")
        print()
        print("| log | `summary`, 1 core | `summary`, all | `print --json`, 1 core | `print --json`, all |")
        print("| --- | --- | --- | --- | --- |")
        for flat_size in ("20M", "2G"):
            flat_log = generated_log(flat_size, arguments.seed)
            read_through(flat_log)
            rss = [
                chosen.run([whereami, *command, str(flat_log)], None)[1]
                for command in (["summary"], ["print", "--json"]) for chosen in (runner, every)
            ]
            print(f"| {flat_log.stat().st_size / 1e6:,.0f} MB | " + " | ".join(f"{k / 1024:.1f}" for k in rss) + " |")


if __name__ == "__main__":
    main()
