#!/usr/bin/env python3
"""PayCheck benchmarks: measures every figure of docs/benchmarks.md and writes it.

Called by Benchmarks/run.sh (which installs the tools and builds the release binaries); see that file.
Only the standard library is used. Every server it starts is stopped when it exits.

With --baseline OLD_PAYCHECK it also measures the runner figures of that older binary and of --paycheck side by
side, interleaved (old, new, old, new, ...: drift of the machine hits both alike), and the report gains a
"Before/after" section: wrk on the (a) mix against each binary's mock, the runner's flows/s on (a) over the --jobs
sweep (and so "runner vs wrk"), the wall times of (a) and (b) at the two largest sizes, peak RSS, `paycheck lint`
and the built-in suites.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WRK_DIR = os.path.join(HERE, "wrk")


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def median(values):
    return statistics.median(values) if values else float("nan")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


class Bench:
    def __init__(self, args):
        self.args = args
        self.quick = args.quick
        self.work = args.work
        self.paycheck = args.paycheck
        self.hello = args.hello
        self.venv = args.venv
        self.reps = 1 if self.quick else 3
        self.duration = 3 if self.quick else 10
        self.sizes = [100, 1000] if self.quick else [100, 1000, 10000]
        self.sweep_size = 1000 if self.quick else 10000
        self.tavern_size = 100 if self.quick else 1000
        self.jobs_sweep = [1, 2, 4, 8, 16, 32]
        # -t/-c pairs for wrk: one and two threads, several connection counts.
        self.wrk_configs = [(1, 16), (2, 64)] if self.quick else [(1, 16), (1, 64), (2, 64), (2, 256)]
        self.max_wait = (120 if self.quick else 600) if args.max_wait is None else args.max_wait
        # Before/after: the older binary, and whose mock its runner talks to ("own": its own mock; "current":
        # the mock of --paycheck for both runners, which isolates the runner from changes of the mock).
        self.baseline = os.path.abspath(args.baseline) if args.baseline else None
        self.baseline_mock = args.baseline_mock
        self.servers = []
        self.loads = []  # (label, load before, seconds waited)
        self.results = {}
        self.commands = {}

    # --- hygiene ---------------------------------------------------------------------------------

    def quiet(self, label):
        """Waits until the 1-minute load average is below 1.0 (polling every 10 s, at most max_wait)."""
        start = time.time()
        load = loadavg()
        while load >= 1.0 and time.time() - start < self.max_wait:
            time.sleep(10)
            load = loadavg()
        waited = time.time() - start
        self.loads.append({"label": label, "load": load, "waited_s": round(waited)})
        if load >= 1.0:
            log(f"{label}: load still {load:.2f} after {waited:.0f} s; measuring anyway (recorded)")
        return load

    # --- servers ---------------------------------------------------------------------------------

    def start(self, argv, port, name):
        import lifecycle  # one way to start a server and wait for its port (Benchmarks/lifecycle.py)
        proc = lifecycle.start(argv, port, os.path.join(self.work, f"{name}.log"))
        self.servers.append(proc)
        return proc

    def stop(self, proc):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc in self.servers:
            self.servers.remove(proc)

    def stop_all(self):
        for proc in list(self.servers):
            self.stop(proc)

    def fresh_mock(self, binary=None):
        """A standalone `paycheck mock` (of --paycheck unless told) with empty state on a free port."""
        port = free_port()
        binary = binary or self.paycheck
        name = "mock" if binary == self.paycheck else "mock-baseline"
        proc = self.start([binary, "mock", "--port", str(port)], port, name)
        return proc, port

    def mock_for(self, runner):
        """The binary whose mock `runner` talks to: its own, or --paycheck's with --baseline-mock current."""
        return self.paycheck if self.baseline_mock == "current" else runner

    # --- tools -----------------------------------------------------------------------------------

    def wrk(self, script, url, threads, connections, env=None):
        argv = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{self.duration}s", "--latency", "-s",
                os.path.join(WRK_DIR, script), url]
        out = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, **(env or {})},
                             timeout=self.duration + 60)
        for line in out.stdout.splitlines():
            if line.startswith("PAYCHECK_WRK_JSON "):
                return json.loads(line[len("PAYCHECK_WRK_JSON "):])
        raise SystemExit(f"wrk gave no summary:\n{out.stdout}\n{out.stderr}")

    def timed(self, argv, cwd=None, env=None):
        """Runs argv under /usr/bin/time; returns (wall s, peak RSS KiB, exit code, stdout)."""
        stats = os.path.join(self.work, "time.txt")
        full = ["/usr/bin/time", "-f", "%e %M", "-o", stats] + argv
        out = subprocess.run(full, capture_output=True, text=True, cwd=cwd, env={**os.environ, **(env or {})})
        wall, rss = open(stats).read().strip().splitlines()[-1].split()
        return float(wall), int(rss), out.returncode, out.stdout + out.stderr

    def generate(self, *args):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), *map(str, args)], check=True)

    def pool(self, count, threads):
        path = os.path.join(self.work, "pool.txt")
        self.generate("pool", "--count", count, "--threads", threads, "--out", path)
        return path

    # --- measurements ----------------------------------------------------------------------------

    def wrk_series(self, key, script, path, needs_mock, needs_pool, hello_port=None):
        """wrk over every -t/-c config, median of reps; fresh mock (and pool) for each run."""
        rows = []
        for threads, connections in self.wrk_configs:
            load = self.quiet(f"wrk {key} -t{threads} -c{connections}")
            runs = []
            for _ in range(self.reps):
                if needs_mock:
                    runs.append(self.wrk_on_mock(script, path, threads, connections, needs_pool))
                else:
                    env = {"PAYCHECK_POOL": self.fresh_pool(threads)} if needs_pool else {}
                    runs.append(self.wrk(script, f"http://127.0.0.1:{hello_port}{path}", threads, connections, env))
            row = wrk_row(runs, threads, connections, load)
            rows.append(row)
            log(f"wrk {key} -t{threads} -c{connections}: {row['rps']:.0f} req/s, p99 {row['p99_us'] / 1000:.2f} ms"
                + (f", {row['flows_per_s']:.0f} flows/s" if "flows_per_s" in row else ""))
        self.results[f"wrk_{key}"] = rows
        self.commands[f"wrk_{key}"] = (
            ("PAYCHECK_POOL=$POOL " if needs_pool else "")
            + f"wrk -t<T> -c<C> -d{self.duration}s --latency -s Benchmarks/wrk/{script} http://127.0.0.1:$PORT{path}")
        return rows

    def fresh_pool(self, threads):
        """A pool with more signed auth objects than any server here can use in one wrk run."""
        ceiling = max(60000, int(self.results.get("hello_best_rps", 60000) * 1.3))
        return self.pool(ceiling * self.duration, threads)

    def wrk_on_mock(self, script, path, threads, connections, needs_pool, binary=None):
        """One wrk run against a freshly started mock of `binary` (default --paycheck)."""
        env = {"PAYCHECK_POOL": self.fresh_pool(threads)} if needs_pool else {}
        proc, port = self.fresh_mock(binary)
        try:
            return self.wrk(script, f"http://127.0.0.1:{port}{path}", threads, connections, env)
        finally:
            self.stop(proc)

    def run_suite_once(self, suite_dir, jobs, with_reports=True, binary=None):
        """One `paycheck run` of suite_dir by `binary` (default --paycheck) against a fresh standalone mock."""
        binary = binary or self.paycheck
        proc, port = self.fresh_mock(self.mock_for(binary))
        try:
            reports = self.report_args() if with_reports else self.report_args(none=True)
            argv = [binary, "run", suite_dir, "--target", f"url=http://127.0.0.1:{port}",
                    "--jobs", str(jobs), "--quiet", "--color", "never", *reports]
            wall, rss, code, out = self.timed(argv)
        finally:
            self.stop(proc)
        m = re.search(r"(\d+) cases?: (\d+) passed, (\d+) failed, (\d+) errors?", out)
        if code != 0 or not m or m.group(1) != m.group(2):
            raise SystemExit(f"{binary} run {suite_dir} did not pass (exit {code}):\n{out[-3000:]}")
        inner = re.search(r" in ([\d.]+) s", out)
        return {"wall_s": wall, "rss_kb": rss, "cases": int(m.group(1)),
                "run_s": float(inner.group(1)) if inner else None}

    def run_suites(self, key, suite_dir, jobs, with_reports=True):
        """`paycheck run` of suite_dir against a fresh standalone mock; median of reps."""
        return suite_result(key, jobs, [self.run_suite_once(suite_dir, jobs, with_reports) for _ in range(self.reps)])

    def report_args(self, none=False, prefix=""):
        """Every report (JUnit, JSON, HTML) into the work directory, or none at all."""
        args = []
        for flag, name in (("--report-junit", "junit.xml"), ("--report-json", "report.json"),
                           ("--report-html", "report.html")):
            args += [flag, "" if none else os.path.join(self.work, prefix + name)]
        return args

    def tavern(self, workload, size):
        directory = os.path.join(self.work, f"tavern-{workload}-{size}")
        if not os.path.isdir(directory):
            self.generate("tavern", "--workload", workload, "--cases", size, "--out", directory)
        runs = []
        self.quiet(f"tavern {workload} {size}")
        for _ in range(self.reps):
            proc, port = self.fresh_mock()
            cfg = os.path.join(self.work, "tavern-global.yaml")
            with open(cfg, "w") as f:
                f.write(f"name: PayCheck benchmark\nvariables:\n  host: http://127.0.0.1:{port}\n")
            try:
                argv = [os.path.join(self.venv, "bin", "pytest"), "-q", "-p", "no:cacheprovider", directory,
                        "--tavern-global-cfg", cfg]
                wall, rss, code, out = self.timed(argv, cwd=directory, env={"PYTHONPATH": directory})
            finally:
                self.stop(proc)
            m = re.search(r"(\d+) passed", out)
            if code != 0 or not m or int(m.group(1)) != size:
                raise SystemExit(f"Tavern {workload} {size} did not pass (exit {code}):\n{out[-3000:]}")
            runs.append({"wall_s": wall, "rss_kb": rss})
        wall = median([r["wall_s"] for r in runs])
        result = {"workload": workload, "cases": size, "runs": runs, "wall_s": wall, "flows_per_s": size / wall}
        log(f"tavern {workload} {size}: {wall:.2f} s, {size / wall:.1f} flows/s")
        self.commands["tavern"] = ("PYTHONPATH=$DIR $VENV/bin/pytest -q -p no:cacheprovider $DIR "
                                   "--tavern-global-cfg $DIR/../tavern-global.yaml")
        return result

    def hyperfine(self, key, argv, cwd, runs, prepare=None, ignore_failure=False):
        out_json = os.path.join(self.work, f"hyperfine-{key}.json")
        command = " ".join(shlex.quote(a) for a in argv)
        hf = ["hyperfine", "--warmup", "1", "--runs", str(runs), "--export-json", out_json, "--style", "basic",
              *(["--ignore-failure"] if ignore_failure else []), "-N", command]
        subprocess.run(hf, cwd=cwd, check=True, capture_output=True, text=True)
        data = json.load(open(out_json))["results"][0]
        return {"median_s": data["median"], "mean_s": data["mean"], "stddev_s": data.get("stddev"),
                "min_s": data["min"], "max_s": data["max"], "runs": len(data["times"])}

    # --- before/after (--baseline) ----------------------------------------------------------------

    def binaries(self):
        """The binaries this run measures, labelled: ("before", baseline) first, then ("after", --paycheck)."""
        return ([("before", self.baseline)] if self.baseline else []) + [("after", self.paycheck)]

    def binary_info(self, binary):
        """Where a binary comes from: the commit of the git work tree it sits in, and when it was built."""
        where = os.path.dirname(os.path.realpath(binary))

        def git(*args):
            out = subprocess.run(["git", "-C", where, *args], capture_output=True, text=True)
            return out.stdout.strip() if out.returncode == 0 else ""

        top = git("rev-parse", "--show-toplevel")
        commit = git("rev-parse", "--short", "HEAD") or "?"
        dirty = bool(git("status", "--porcelain", "--untracked-files=no")) if top else False
        built = datetime.datetime.fromtimestamp(os.path.getmtime(binary), datetime.timezone.utc)
        return {"path": binary, "tree": top or None, "commit": commit + (" (with uncommitted changes)" if dirty else ""),
                "built": built.strftime("%Y-%m-%d %H:%M UTC")}

    def exec_once(self, argv, cwd):
        """Runs argv once: (wall s from fork to exit, peak RSS KiB from wait4, exit code, output)."""
        out_path = os.path.join(self.work, "exec-output.txt")
        with open(out_path, "wb") as out:
            start = time.perf_counter()
            proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here; keeps Popen from waiting again
        with open(out_path, errors="replace") as f:
            text = f.read()
        return wall, usage.ru_maxrss, proc.returncode, text

    def interleaved(self, label, argvs, cwds, runs):
        """argvs[k] for each binary label k, alternating run by run (one warm-up each first); every run must
        exit 0. Returns per label the median, mean, σ, min, max of the wall times and the peak RSS."""
        times = {k: [] for k in argvs}
        rss = {k: 0 for k in argvs}
        for i in range(runs + 1):
            for k, argv in argvs.items():
                wall, peak, code, out = self.exec_once(argv, cwds[k])
                if code != 0:
                    raise SystemExit(f"{label} ({k}) exited {code}: {' '.join(argv)}\n{out[-3000:]}")
                if i > 0:  # i == 0 is the warm-up
                    times[k].append(wall)
                    rss[k] = max(rss[k], peak)
        return {k: {"median_s": median(v), "mean_s": statistics.mean(v),
                    "stddev_s": statistics.stdev(v) if len(v) > 1 else None, "min_s": min(v), "max_s": max(v),
                    "runs": len(v), "times": v, "rss_kb": rss[k]} for k, v in times.items()}

    def preflight(self):
        """Before anything long: every binary lints the generated workloads and passes small runs of (a) and (b)
        on its mock, and the built-in suites pass (the baseline falls back to the Suites/ of its own tree)."""
        small = {}
        for workload in ("ptp", "kv"):
            small[workload] = os.path.join(self.work, f"preflight-{workload}")
            self.generate("suites", "--workload", workload, "--cases", 20, "--out", small[workload])
        lint_dir = os.path.join(self.work, "preflight-lint")
        self.generate("lint", "--files", 10, "--out", lint_dir)
        self.builtin_cwd = {}
        self.builtin_cases = {}
        for label, binary in self.binaries():
            for directory in (small["ptp"], small["kv"], lint_dir):
                wall, peak, code, out = self.exec_once([binary, "lint", directory, "--color", "never"], ROOT)
                if code != 0:
                    raise SystemExit(f"{binary} lint {directory} (a generated workload) failed with exit {code}:\n"
                                     f"{out[-3000:]}")
            for workload in ("ptp", "kv"):
                self.run_suite_once(small[workload], 4, binary=binary)
            argv = [binary, "run", "--color", "never", "--quiet", *self.report_args(prefix="builtin-")]
            tree = self.binary_info(binary)["tree"] if binary != self.paycheck else None
            for cwd in [ROOT] + ([tree] if tree and tree != ROOT else []):
                wall, peak, code, out = self.exec_once(argv, cwd)
                if code == 0:
                    break
                log(f"{label}: the built-in suites of {cwd} do not pass with {binary} (exit {code})")
            if code != 0:
                raise SystemExit(f"built-in suites fail with {binary} (exit {code}):\n{out[-3000:]}")
            self.builtin_cwd[label] = cwd
            m = re.search(r"(\d+) cases?:", out)
            self.builtin_cases[label] = int(m.group(1)) if m else None
            log(f"preflight {label}: {binary} lints and passes the generated workloads; built-in suites of {cwd} pass "
                f"({self.builtin_cases[label]} cases)")
        # When the baseline needed the Suites/ of its own tree, the two built-in figures are of different suites:
        # if --paycheck passes those older suites too, they are also timed with both binaries (the same work).
        self.builtin_same = None
        if self.baseline and self.builtin_cwd["before"] != ROOT:
            older = self.builtin_cwd["before"]
            argv = [self.paycheck, "run", "--color", "never", "--quiet", *self.report_args(prefix="builtin-")]
            wall, peak, code, out = self.exec_once(argv, older)
            if code == 0:
                self.builtin_same = older
            log(f"preflight after: the built-in suites of {older} " + ("pass" if code == 0 else f"fail (exit {code})"))

    def compare(self, suites, lint_dir):
        """The runner figures of --baseline and --paycheck, interleaved run by run (before, after, before, …),
        at the sizes and settings of the main run; each `paycheck run` against a fresh mock (see mock_for)."""
        r = self.results
        pair = self.binaries()
        rounds = self.reps
        c = {"rounds": rounds, "mock": self.baseline_mock, "binaries": {k: self.binary_info(b) for k, b in pair}}

        # wrk on the (a) mix, against each binary's own mock, at the main run's best -t/-c for that mix.
        flow = max(r["wrk_flow"], key=lambda row: row.get("flows_per_s", 0))
        threads, connections = flow["threads"], flow["connections"]
        load = self.quiet(f"before/after wrk flow -t{threads} -c{connections}")
        runs = {k: [] for k, _ in pair}
        for _ in range(rounds):
            for k, binary in pair:
                runs[k].append(self.wrk_on_mock("flow.lua", "", threads, connections, True, binary=binary))
        c["wrk_flow"] = {k: wrk_row(v, threads, connections, load) for k, v in runs.items()}
        log("before/after wrk flow: " + ", ".join(f"{k} {row['flows_per_s']:.0f} flows/s" for k, row in c["wrk_flow"].items()))

        # wrk on PlacetoPay createSession, the same way, at the main run's best -t/-c for it.
        create = max(r["wrk_create"], key=lambda row: row["rps"])
        load = self.quiet(f"before/after wrk create -t{create['threads']} -c{create['connections']}")
        runs = {k: [] for k, _ in pair}
        for _ in range(rounds):
            for k, binary in pair:
                runs[k].append(self.wrk_on_mock("create.lua", "", create["threads"], create["connections"], True, binary=binary))
        c["wrk_create"] = {k: wrk_row(v, create["threads"], create["connections"], load) for k, v in runs.items()}
        log("before/after wrk create: " + ", ".join(f"{k} {row['rps']:.0f} req/s" for k, row in c["wrk_create"].items()))

        # Each provider's lifecycle on each binary's mock (LifecycleBench of this tree), one round of each binary
        # after the other, medians by sessions/s.
        if self.args.lifecycle_bench:
            import lifecycle
            per_round = {k: [] for k, _ in pair}
            for _ in range(rounds):
                for k, binary in pair:
                    per_round[k].append(lifecycle.measure(
                        binary, self.hello, self.args.lifecycle_bench, self.work, sessions=500 if self.quick else 2000,
                        concurrency=32, rounds=1, quiet=self.quiet, low_concurrency=0)["rows"])
            c["lifecycles"] = {}
            for k, rounds_rows in per_round.items():
                merged = {}
                for rows in rounds_rows:
                    for row in rows:
                        merged.setdefault(row["target"], []).append(row)
                c["lifecycles"][k] = {t: sorted(v, key=lambda x: x["sessions_per_s"])[len(v) // 2] for t, v in merged.items()}

        # The runner on (a) over the --jobs sweep (its best is the figure compared with wrk).
        size = self.sweep_size
        c["sweep"] = {k: [] for k, _ in pair}
        for jobs in self.jobs_sweep:
            load = self.quiet(f"before/after runner (a) {size} jobs={jobs}")
            runs = {k: [] for k, _ in pair}
            for _ in range(rounds):
                for k, binary in pair:
                    runs[k].append(self.run_suite_once(suites[("ptp", size)], jobs, binary=binary))
            for k, v in runs.items():
                c["sweep"][k].append({**suite_result("ptp", jobs, v), "workload": "ptp", "load": load})
            log(f"before/after runner (a) {size} -j{jobs}: " + ", ".join(
                f"{k} {c['sweep'][k][-1]['wall_s']:.2f} s" for k, _ in pair))

        # Wall times of (a) and (b) at the two largest sizes, at the --jobs of the main run's sizes table.
        jobs = r["best_jobs"]
        c["jobs"] = jobs
        c["sizes"] = {k: [] for k, _ in pair}
        for workload in ("ptp", "kv"):
            for size in self.sizes[-2:]:
                if workload == "ptp" and size == self.sweep_size:
                    for k, _ in pair:  # the same runs as the sweep's row of this --jobs
                        c["sizes"][k].append(next(s for s in c["sweep"][k] if s["jobs"] == jobs))
                    continue
                load = self.quiet(f"before/after runner {workload} {size}")
                runs = {k: [] for k, _ in pair}
                for _ in range(rounds):
                    for k, binary in pair:
                        runs[k].append(self.run_suite_once(suites[(workload, size)], jobs, binary=binary))
                for k, v in runs.items():
                    c["sizes"][k].append({**suite_result(workload, jobs, v), "workload": workload, "load": load})
                log(f"before/after runner {workload} {size} -j{jobs}: " + ", ".join(
                    f"{k} {c['sizes'][k][-1]['wall_s']:.2f} s" for k, _ in pair))

        # lint and the built-in suites, timed here (not by hyperfine) so that the binaries alternate run by run.
        # A failure here (e.g. Suites/ edited during the run) is recorded instead of losing the figures above.
        n = 3 if self.quick else 10
        self.quiet("before/after lint")
        try:
            c["lint"] = self.interleaved("lint", {k: [b, "lint", lint_dir, "--color", "never"] for k, b in pair},
                                         {k: ROOT for k, _ in pair}, n)
            log("before/after lint: " + ", ".join(f"{k} {v['median_s']:.3f} s" for k, v in c["lint"].items()))
        except SystemExit as error:
            c["lint"] = {"error": str(error)}
            log(f"before/after lint failed: {str(error)[:500]}")
        self.quiet("before/after built-in suites")
        try:
            c["builtin"] = self.interleaved(
                "built-in suites",
                {k: [b, "run", "--color", "never", "--quiet", *self.report_args(prefix=f"builtin-{k}-")] for k, b in pair},
                self.builtin_cwd, n)
            for k, _ in pair:
                c["builtin"][k]["cwd"] = self.builtin_cwd[k]
                c["builtin"][k]["cases"] = self.builtin_cases[k]
            log("before/after built-in suites: " + ", ".join(f"{k} {v['median_s']:.3f} s" for k, v in c["builtin"].items()))
        except SystemExit as error:
            c["builtin"] = {"error": str(error)}
            log(f"before/after built-in suites failed: {str(error)[:500]}")
        if self.builtin_same:
            try:
                c["builtin_same"] = self.interleaved(
                    "built-in suites of the baseline's tree",
                    {k: [b, "run", "--color", "never", "--quiet", *self.report_args(prefix=f"builtin-same-{k}-")]
                     for k, b in pair}, {k: self.builtin_same for k, _ in pair}, n)
                c["builtin_same"]["cwd"] = self.builtin_same
                c["builtin_same"]["cases"] = self.builtin_cases["before"]
            except SystemExit as error:
                c["builtin_same"] = {"error": str(error)}
                log(f"before/after built-in suites of {self.builtin_same} failed: {str(error)[:500]}")
        r["compare"] = c
        return c

    # --- the whole run ---------------------------------------------------------------------------

    def machine(self):
        mem = 0
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = int(line.split()[1]) * 1024
        cpu = ""
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break

        def version(argv):
            try:
                out = subprocess.run(argv, capture_output=True, text=True)
                return (out.stdout or out.stderr).strip().splitlines()[0]
            except (OSError, IndexError):
                return "?"

        commit = version(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain"], capture_output=True, text=True).stdout
        return {
            "nproc": os.cpu_count(), "memory_gib": round(mem / 2**30, 1), "cpu": cpu,
            "kernel": platform.release(), "swift": version(["swift", "--version"]),
            "wrk": version(["wrk", "--version"]).split(" Copyright")[0], "hyperfine": version(["hyperfine", "--version"]),
            "tavern": version([os.path.join(self.venv, "bin", "python"), "-c",
                               "import importlib.metadata as m; print('tavern', m.version('tavern'), '/ pytest', m.version('pytest'))"]),
            "python": platform.python_version(), "commit": commit + (" (with uncommitted changes)" if dirty.strip() else ""),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "mode": "quick" if self.quick else "full",
        }

    def run(self):
        r = self.results
        r["machine"] = self.machine()
        r["wrk_duration_s"] = self.duration
        self.preflight()
        hello_port = free_port()
        hello = self.start([self.hello, "--port", str(hello_port)], hello_port, "hello")

        # 3. The limit: hello world, then the mock's own capacity (createSession, flow mix, kv mix).
        rows = self.wrk_series("hello", "hello.lua", "/", needs_mock=False, needs_pool=False, hello_port=hello_port)
        r["hello_best_rps"] = max(row["rps"] for row in rows)
        self.stop(hello)
        self.wrk_series("create", "create.lua", "", needs_mock=True, needs_pool=True)
        self.wrk_series("flow", "flow.lua", "", needs_mock=True, needs_pool=True)
        self.wrk_series("kv", "kv.lua", "", needs_mock=True, needs_pool=False)

        # 3b. Each provider's lifecycle on the mock next to hello world, side by side (Benchmarks/lifecycle.py).
        if self.args.lifecycle_bench:
            import lifecycle
            r["lifecycles"] = lifecycle.measure(
                self.paycheck, self.hello, self.args.lifecycle_bench, self.work, sessions=500 if self.quick else 2000,
                concurrency=32, rounds=self.reps, quiet=self.quiet)
            self.commands["lifecycles"] = r["lifecycles"]["command"]

        # 2. Workloads at several sizes.
        suites = {}
        for workload in ("ptp", "kv"):
            for size in sorted(set(self.sizes + [self.sweep_size, self.tavern_size])):
                directory = os.path.join(self.work, f"suites-{workload}-{size}")
                self.generate("suites", "--workload", workload, "--cases", size, "--out", directory)
                suites[(workload, size)] = directory

        # 5a. --jobs sweep on workload (a).
        sweep = []
        for jobs in self.jobs_sweep:
            self.quiet(f"runner sweep (a) jobs={jobs}")
            res = self.run_suites("sweep", suites[("ptp", self.sweep_size)], jobs)
            sweep.append(res)
            log(f"runner (a) {self.sweep_size} cases -j{jobs}: {res['wall_s']:.2f} s wall, "
                f"{res['flows_per_s']:.0f} flows/s, {res['rss_kb'] / 1024:.0f} MiB")
        r["sweep"] = sweep
        best_jobs = max(sweep, key=lambda s: s["flows_per_s"])["jobs"]
        r["best_jobs"] = best_jobs

        # 2. Sizes, both workloads, at the best --jobs of the sweep.
        sizes = []
        for workload in ("ptp", "kv"):
            for size in self.sizes:
                self.quiet(f"runner {workload} {size}")
                res = self.run_suites(workload, suites[(workload, size)], best_jobs)
                res["workload"] = workload
                sizes.append(res)
                log(f"runner {workload} {size} cases -j{best_jobs}: {res['wall_s']:.2f} s wall, "
                    f"{res['flows_per_s']:.0f} flows/s, {res['rss_kb'] / 1024:.0f} MiB")
        r["sizes"] = sizes

        # Report cost: the same runs of workload (a) (the largest reports) without writing reports.
        no_reports = []
        for size in self.sizes[-2:]:
            self.quiet(f"runner ptp {size} without reports")
            res = self.run_suites("ptp-noreports", suites[("ptp", size)], best_jobs, with_reports=False)
            no_reports.append(res)
            log(f"runner ptp {size} without reports: {res['wall_s']:.2f} s, {res['rss_kb'] / 1024:.0f} MiB")
        r["no_reports"] = no_reports

        # Peak RSS of the largest workload (a) run by report: where the memory goes.
        largest = self.sizes[-1]
        breakdown = []
        for label, keep in (("JUnit only", "junit"), ("JSON only", "json"), ("HTML only", "html")):
            self.quiet(f"runner ptp {largest} {label}")
            args = []
            for flag, name in (("--report-junit", "junit"), ("--report-json", "json"), ("--report-html", "html")):
                args += [flag, os.path.join(self.work, f"only.{name}") if name == keep else ""]
            proc, port = self.fresh_mock()
            try:
                wall, rss, code, out = self.timed([self.paycheck, "run", suites[("ptp", largest)], "--target",
                                                   f"url=http://127.0.0.1:{port}", "--jobs", str(best_jobs), "--quiet",
                                                   "--color", "never", *args])
            finally:
                self.stop(proc)
            if code != 0:
                raise SystemExit(f"paycheck run ({label}) failed with exit {code}:\n{out[-2000:]}")
            size = os.path.getsize(os.path.join(self.work, f"only.{keep}"))
            breakdown.append({"label": label, "wall_s": wall, "rss_kb": rss, "bytes": size})
            log(f"runner ptp {largest} {label}: {wall:.2f} s, {rss / 1024:.0f} MiB, report {size / 1e6:.0f} MB")
        r["rss_breakdown"] = breakdown

        # 4. The peer: Tavern, and PayCheck at the same size with its default --jobs.
        r["tavern"] = [self.tavern(w, self.tavern_size) for w in ("ptp", "kv")]
        default_jobs = os.cpu_count() or 1
        r["default_jobs"] = default_jobs
        peer = []
        for workload in ("ptp", "kv"):
            self.quiet(f"runner {workload} {self.tavern_size} default jobs")
            peer.append(self.run_suites(workload, suites[(workload, self.tavern_size)], default_jobs))
            peer[-1]["workload"] = workload
        r["peer_paycheck_default"] = peer

        # 5. lint of 1,000 suite files, and the built-in suites on the embedded mock.
        lint_dir = os.path.join(self.work, "lint-1000")
        self.generate("lint", "--files", 1000, "--out", lint_dir)
        self.quiet("lint")
        r["lint"] = self.hyperfine("lint", [self.paycheck, "lint", lint_dir, "--color", "never"], ROOT,
                                   runs=3 if self.quick else 10)
        log(f"lint 1000 files: {r['lint']['median_s']:.3f} s")
        # Pathological files: lint time linear in the input, a file past the bound refused at once (exit 2).
        patho_dir = os.path.join(self.work, "lint-pathological")
        self.generate("pathological", "--out", patho_dir)
        r["lint_pathological"] = {}
        for name in ("templates", "deep"):
            path = os.path.join(patho_dir, f"{name}.yaml")
            r["lint_pathological"][name] = self.hyperfine(
                f"lint-{name}", [self.paycheck, "lint", path, "--color", "never"], ROOT, runs=3 if self.quick else 10,
                ignore_failure=True)
            r["lint_pathological"][name]["bytes"] = os.path.getsize(path)
            log(f"lint {name}.yaml: {r['lint_pathological'][name]['median_s']:.3f} s")
        self.quiet("built-in suites")
        r["builtin"] = self.hyperfine(
            "builtin", [self.paycheck, "run", "--color", "never", "--quiet", *self.report_args(prefix="builtin-")], ROOT,
            runs=3 if self.quick else 10)
        log(f"built-in suites: {r['builtin']['median_s']:.3f} s")

        # Before/after: the same runner figures for --baseline and --paycheck, interleaved. The figures so far are
        # saved first, and a failure of this part is logged, so that it never loses them.
        if self.baseline:
            r["loads"] = self.loads
            r["commands"] = self.commands
            with open(os.path.join(self.work, "results.json"), "w") as f:
                json.dump(r, f, indent=1)
            try:
                self.compare(suites, lint_dir)
            except Exception as error:  # noqa: BLE001 — reported, the main figures are still written
                import traceback
                log(f"before/after failed: {error}\n{traceback.format_exc()}")
                r.pop("compare", None)

        # Profile of the runner on 1,000 cases of workload (a), if perf works here.
        r["profile"] = self.profile(suites[("ptp", 1000)], best_jobs)

        r["loads"] = self.loads
        r["commands"] = self.commands
        with open(os.path.join(self.work, "results.json"), "w") as f:
            json.dump(r, f, indent=1)
        return r

    def profile(self, suite_dir, jobs):
        if not shutil.which("perf"):
            return {"available": False, "reason": "perf is not installed"}
        proc, port = self.fresh_mock()
        data = os.path.join(self.work, "perf.data")
        try:
            self.quiet("perf profile")
            argv = ["perf", "record", "-F", "499", "-g", "-o", data, "--", self.paycheck, "run", suite_dir,
                    "--target", f"url=http://127.0.0.1:{port}", "--jobs", str(jobs), "--quiet", "--color", "never",
                    *self.report_args()]
            out = subprocess.run(argv, capture_output=True, text=True)
            if out.returncode != 0:
                return {"available": False, "reason": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
        finally:
            self.stop(proc)
        summary = profile_summary(data)
        summary["command"] = ("perf record -F 499 -g -- paycheck run <1,000 cases of (a)> --target url=… "
                              f"--jobs {jobs}; perf report --sort symbol (--no-children and --children)")
        return summary


def wrk_row(runs, threads, connections, load):
    """The median of wrk runs of one -t/-c config (p50/p99 of the median run; errors summed)."""
    best = sorted(runs, key=lambda r: r["rps"])[len(runs) // 2]  # the median run
    row = {"threads": threads, "connections": connections, "load": load, "runs": runs,
           "rps": median([r["rps"] for r in runs]), "p50_us": best["p50_us"], "p99_us": best["p99_us"],
           "errors": sum(r["non2xx"] + r["connect_errors"] + r["read_errors"] + r["write_errors"]
                         + r["timeouts"] + r.get("failures", 0) for r in runs)}
    if "flows" in best:
        row["flows_per_s"] = median([r["flows"] / (r["duration_us"] / 1e6) for r in runs])
    return row


def suite_result(key, jobs, runs):
    """The median of `paycheck run`s of one suite directory (peak RSS: the largest of the runs)."""
    cases = runs[0]["cases"]
    wall = median([r["wall_s"] for r in runs])
    return {"key": key, "jobs": jobs, "cases": cases, "runs": runs, "wall_s": wall,
            "run_s": median([r["run_s"] for r in runs if r["run_s"] is not None]),
            "rss_kb": max(r["rss_kb"] for r in runs), "flows_per_s": cases / wall}


def profile_summary(data):
    """Top self-time symbols, and the PayCheck frames with the most time inclusive of their callees."""
    def rows(children):
        mode = "--children" if children else "--no-children"
        text = subprocess.run(["perf", "report", "-i", data, mode, "--sort", "dso,symbol", "--stdio", "-g", "none",
                               "--percent-limit", "1.5"], capture_output=True, text=True).stdout
        found = []
        for line in text.splitlines():
            m = (re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)", line) if children
                 else re.match(r"\s+([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)", line))
            if not m:
                continue
            # perf may append empty columns ("-      -") after the symbol.
            raw = re.sub(r"(\s+-)+\s*$", "", m.group(m.lastindex)).strip()
            symbol = demangle(raw).strip()
            dso = m.group(m.lastindex - 1)
            found.append({"percent": float(m.group(1)), "dso": dso, "symbol": symbol[:150]})
        return found

    self_rows = rows(children=False)[:15]
    keep = re.compile(r"PayCheck|Redactor|Reporter|Observation|JSONText|SuiteLoader|SuiteParser|CaseExecutor|"
                      r"ExchangeRecorder|Runner|Transcript|XMLText|JSONDecoder\.decode|HTTPClient\.execute")
    inclusive = [r for r in rows(children=True) if r["dso"] == "paycheck" and keep.search(r["symbol"])
                 and not r["symbol"].startswith(("partial apply", "closure", "thunk", "protocol witness", "specialized closure"))]
    return {"available": True, "top": self_rows, "inclusive": inclusive[:20]}


def demangle(symbol):
    if not symbol.startswith("$s") or not shutil.which("swift"):
        return symbol
    out = subprocess.run(["swift", "demangle", "--simplified", "--compact", symbol], capture_output=True, text=True)
    return out.stdout.strip() or symbol


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--paycheck", required=True)
    parser.add_argument("--hello", required=True)
    parser.add_argument("--venv", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--command", default="Benchmarks/run.sh")
    parser.add_argument("--lifecycle-bench", help="the LifecycleBench binary: also measure each provider's lifecycle")
    parser.add_argument("--results", help="render docs from an earlier results.json instead of measuring")
    parser.add_argument("--baseline", "--compare", dest="baseline", help="an older paycheck binary: also measure it against --paycheck, interleaved, "
                                           "and add a Before/after section")
    parser.add_argument("--baseline-mock", choices=["own", "current"], default="own",
                        help="the mock each runner of the Before/after runs talks to: its own binary's (default), or "
                             "--paycheck's for both (isolates the runner)")
    parser.add_argument("--max-wait", type=float, help="longest wait for a quiet machine before each measurement, in "
                                                       "seconds (default 600, --quick 120; the load is recorded)")
    args = parser.parse_args()
    if args.baseline and not (os.path.isfile(args.baseline) and os.access(args.baseline, os.X_OK)):
        parser.error(f"--baseline {args.baseline}: not an executable file")
    bench = Bench(args)

    def on_signal(signum, frame):
        bench.stop_all()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        results = json.load(open(args.results)) if args.results else bench.run()
        perf_data = os.path.join(args.work, "perf.data")
        if args.results and results.get("profile", {}).get("available") and os.path.exists(perf_data):
            command = results["profile"].get("command", "")
            results["profile"] = profile_summary(perf_data)
            results["profile"]["command"] = command.replace("--no-children --sort dso,symbol",
                                                            "--sort symbol (--no-children and --children)")
    finally:
        bench.stop_all()
    import report
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(report.render(results, args.command))
    log(f"wrote {args.out}")


if __name__ == "__main__":
    sys.dont_write_bytecode = True  # no __pycache__ in the repository
    sys.path.insert(0, HERE)
    main()
