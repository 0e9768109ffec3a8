#!/usr/bin/env python3
"""Provider lifecycles on the mock, next to Hummingbird's hello world, measured side by side in one run.

For each round, in turn: HelloBench (`GET /`), then a freshly started `paycheck mock` for each provider, each
driven by `LifecycleBench` (Benchmarks/LifecycleBench) with the same number of sessions and the same concurrency.
A provider session is the stress test's lifecycle (PayCheckTestSupport/Stress): create, the payer's action sent
twice at once, queries — every request signed by the provider's own adapter, as the runner sends it. Figures are
the medians of the rounds (by sessions/s); peak RSS is the server's VmHWM after its run.

Used by bench.py (the full run) and on its own by `Benchmarks/run.sh --lifecycles`, which measures only this and
replaces the section between the markers in docs/benchmarks.md.
"""
import argparse
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from datetime import datetime, timezone

PROVIDERS = ["placetopay", "khipu", "mollie", "mit", "yuno"]
BEGIN = "<!-- lifecycles:begin -->"
END = "<!-- lifecycles:end -->"
WHAT = {
    "hello": "`GET /` on HelloBench",
    "placetopay": "createSession → `payer: pay` (or `cancel`) ×2 at once → querySession ×2",
    "khipu": "createPayment → `payer: pay` ×2 → `mock: conciliate` ×2 (or `payer: reject` ×2) → getPayment ×3",
    "mollie": "createPayment ×2 at once + replay (one Idempotency-Key) → `payer: choose` ×2 per status → getPayment",
    "mit": "generateLink (AES envelope) → hosted page → `payer: pay` ×2 at once → hosted page",
    "yuno": "checkout session → one-time token → createPayment ×2 at once (one X-Idempotency-Key) → by order → "
            "getPayment (PIX: `payer: continue`, `pay` ×2 each)",
}


def log(message):
    print(f"[lifecycle] {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(argv, port, logpath):
    proc = subprocess.Popen(argv, stdout=open(logpath, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{argv[0]} exited early; see {logpath}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"{argv[0]} did not listen on port {port}")


def cpu_seconds(pid):
    """User plus system CPU time of a process so far, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def one(target, paycheck, hello, bench, work, sessions, concurrency):
    port = free_port()
    argv = [hello, "--port", str(port)] if target == "hello" else [paycheck, "mock", "--port", str(port)]
    proc = start(argv, port, os.path.join(work, f"lifecycle-{target}.log"))
    try:
        server_before = cpu_seconds(proc.pid)
        client_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([bench, "--url", f"http://127.0.0.1:{port}", "--target", target, "--sessions", str(sessions),
                              "--concurrency", str(concurrency), "--pid", str(proc.pid)],
                             capture_output=True, text=True, timeout=1800)
        client_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        server_cpu = cpu_seconds(proc.pid) - server_before
    finally:
        stop(proc)
    for line in out.stdout.splitlines():
        if line.startswith("PAYCHECK_LIFECYCLE_JSON "):
            result = json.loads(line[len("PAYCHECK_LIFECYCLE_JSON "):])
            # CPU per request of the server (from /proc) and of LifecycleBench (the client shares the cores): the
            # server's cost per request is what compares the mock with hello world without the client in it.
            client_cpu = (client_after.ru_utime + client_after.ru_stime) - (client_before.ru_utime + client_before.ru_stime)
            requests = max(result["requests"], 1)
            result["server_cpu_us_per_request"] = server_cpu / requests * 1e6
            result["client_cpu_us_per_request"] = client_cpu / requests * 1e6
            return result
    raise SystemExit(f"LifecycleBench {target} gave no figures (exit {out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")


def measure(paycheck, hello, bench, work, sessions=2000, concurrency=32, rounds=1, quiet=None, build=None,
            low_concurrency=4):
    """Every target once per round, interleaved (hello, then each provider), at `concurrency` and again at
    `low_concurrency` sessions at once; medians by sessions/s."""
    loads = []

    def series(level):
        runs = {target: [] for target in ["hello"] + PROVIDERS}
        for number in range(rounds):
            for target in runs:
                load = quiet(f"lifecycle {target} c={level}") if quiet else os.getloadavg()[0]
                loads.append(load)
                # A hello session is one request, a provider's 5 to 8, and each is cheaper: 10× the sessions keep
                # hello's run about as long as the providers' (a run of a fraction of a second is mostly start-up).
                count = sessions * 10 if target == "hello" else sessions
                result = one(target, paycheck, hello, bench, work, count, level)
                result["load"] = load
                runs[target].append(result)
                log(f"round {number + 1}/{rounds} {target} c={level}: {result['sessions_per_s']:.0f} sessions/s, "
                    f"{result['requests_per_s']:.0f} req/s, request p99 {result['request_p99_ms']:.1f} ms, "
                    f"server {result['server_cpu_us_per_request']:.0f} µs/request, "
                    f"peak RSS {result['peak_rss_kib'] / 1024:.0f} MiB")
        rows = []
        for target, results in runs.items():
            ordered = sorted(results, key=lambda x: x["sessions_per_s"])
            row = dict(ordered[len(ordered) // 2])
            row["rounds"] = len(results)
            rows.append(row)
        return rows

    rows = series(concurrency)
    low_rows = series(low_concurrency) if low_concurrency else None
    return {
        "sessions": sessions, "concurrency": concurrency, "rounds": rounds, "rows": rows,
        "low_concurrency": low_concurrency, "low_rows": low_rows,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(), "loads": loads, "bin": os.path.realpath(os.path.dirname(paycheck)),
        "build": build or ("release (`swift build -c release --static-swift-stdlib`)" if "release" in os.path.realpath(paycheck) else
                           f"the binaries in {os.path.dirname(paycheck)}"),
        "command": f"LifecycleBench --url http://127.0.0.1:$PORT --target <provider|hello> --sessions {sessions} "
                   f"--concurrency {concurrency} --pid $SERVER_PID",
    }


def render(result, command=None):
    rows = result["rows"]
    hello = next(row for row in rows if row["target"] == "hello")
    out = [BEGIN, "## Provider lifecycles on the mock, next to the hello-world floor\n"]
    out.append(
        f"Measured side by side in one run on {result['date']} ({result['nproc']} cores): in each of "
        f"{result['rounds']} round(s), HelloBench and then a freshly started `paycheck mock` per provider, each driven by "
        f"`LifecycleBench` with {result['sessions']:,} sessions, {result['concurrency']} at once, over pooled HTTP/1.1 "
        f"connections; medians by sessions/s; all three binaries (paycheck, HelloBench, LifecycleBench) "
        f"{result.get('build', 'release')}. A provider session is the stress test's lifecycle "
        f"(`Sources/PayCheckTestSupport/Stress/`), every request built and signed by the provider's adapter as the "
        f"runner sends it, webhooks answered by a receiver inside LifecycleBench; a hello session is one `GET /`. "
        f"Latencies are of whole sessions and of single requests; peak RSS is the server's VmHWM after its run "
        f"(1-minute loads before each run: {', '.join(f'{x:.2f}' for x in result['loads'])}).\n")
    out.append("| target | session | requests/session | sessions/s | requests/s | req/s vs hello | session p50 | "
               "session p99 | request p50 | request p99 | server CPU per request | client CPU per request | "
               "server peak RSS | problems |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")

    def cpu(row, key):
        return f"{row[key]:,.0f} µs" if key in row else "–"

    for row in rows:
        share = row["requests_per_s"] / hello["requests_per_s"] if hello["requests_per_s"] else 0
        out.append(
            f"| {row['target']} | {WHAT.get(row['target'], '')} | {row['requests_per_session']:.1f} | "
            f"{row['sessions_per_s']:,.0f} | {row['requests_per_s']:,.0f} | {share:.0%} | {row['session_p50_ms']:.2f} ms | "
            f"{row['session_p99_ms']:.2f} ms | {row['request_p50_ms']:.2f} ms | {row['request_p99_ms']:.2f} ms | "
            f"{cpu(row, 'server_cpu_us_per_request')} | {cpu(row, 'client_cpu_us_per_request')} | "
            f"{row['peak_rss_kib'] / 1024:.0f} MiB | {row['problems']} |")
    out.append("")
    low = result.get("low_rows")
    if low:
        low_hello = next(row for row in low if row["target"] == "hello")
        out.append(f"The same lifecycles at {result['low_concurrency']} sessions at once (a lighter load, where latency "
                   "is the server's rather than the queue's; each target's own run, same rounds):\n")
        out.append("| target | requests/s | req/s vs hello at this load | req/s vs hello's best above | request p50 | "
                   "request p99 |\n|---|---|---|---|---|---|")
        for row in low:
            out.append(
                f"| {row['target']} | {row['requests_per_s']:,.0f} | {row['requests_per_s'] / low_hello['requests_per_s']:.0%} | "
                f"{row['requests_per_s'] / hello['requests_per_s']:.0%} | {row['request_p50_ms']:.2f} ms | "
                f"{row['request_p99_ms']:.2f} ms |")
        out.append("")
    out.append(f"Produced by `{command or 'Benchmarks/lifecycle.py'}`, which runs (and rewrites only this section of "
               f"docs/benchmarks.md):\n")
    out.append("```sh")
    release = result.get("bin") is None or "release" in result["bin"]
    if release:
        out.append("for p in paycheck HelloBench LifecycleBench; do swift build -c release --static-swift-stdlib --product $p; done")
        binaries = "$(swift build -c release --static-swift-stdlib --show-bin-path)"
    else:
        out.append("swift build")
        binaries = ".build/debug"
    out.append(f"python3 Benchmarks/lifecycle.py --bin {binaries} "
               f"--sessions {result['sessions']} --concurrency {result['concurrency']} --rounds {result['rounds']}")
    out.append(f"# each run, against a fresh `paycheck mock --port $PORT` or `HelloBench --port $PORT`:")
    out.append(f"#   {result['command']}")
    out.append("```\n")
    out.append("The stress test checks the same lifecycles' invariants (`swift test --filter StressTests`, 50 sessions per "
               "provider; `PAYCHECK_STRESS_SESSIONS=2000` for the large run).")
    out.append(END)
    return "\n".join(out) + "\n"


def splice(path, section):
    """Replaces the marked section of `path`, or inserts it before the wrk section (or at the end)."""
    text = open(path).read() if os.path.exists(path) else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + "\n" + tail
    elif "## The limit: the servers under wrk" in text:
        head, tail = text.split("## The limit: the servers under wrk", 1)
        text = head + section + "\n## The limit: the servers under wrk" + tail
    else:
        text += "\n" + section
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", help="the release bin directory (default: swift build -c release --static-swift-stdlib --show-bin-path)")
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--low-concurrency", type=int, default=4,
                        help="also measure every target at this many sessions at once (0: do not)")
    parser.add_argument("--work", default=None)
    parser.add_argument("--out", default="docs/benchmarks.md")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--command", default=None)
    parser.add_argument("--build", help="how the binaries were built, for the text (default: from --bin)")
    args = parser.parse_args()
    bin_dir = args.bin or subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], capture_output=True,
                                         text=True, check=True).stdout.strip()
    work = args.work or os.environ.get("TMPDIR", "/tmp")
    result = measure(os.path.join(bin_dir, "paycheck"), os.path.join(bin_dir, "HelloBench"),
                     os.path.join(bin_dir, "LifecycleBench"), work, args.sessions, args.concurrency, args.rounds,
                     build=args.build, low_concurrency=args.low_concurrency)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    splice(args.out, render(result, args.command))
    log(f"wrote the lifecycle section of {args.out}")


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    main()
