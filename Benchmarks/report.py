"""Renders docs/benchmarks.md from the results of bench.py (plus the hand-written Benchmarks/analysis.md)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def ms(us):
    return f"{us / 1000:.2f} ms"


def num(x, digits=0):
    return f"{x:,.{digits}f}"


def status(ok):
    """A target's verdict: met, missed, or not measured (`ok` is None: the run did not measure it)."""
    if ok is None:
        return "not measured"
    return "met" if ok else "**missed**"


def best(rows, key="rps"):
    return max(rows, key=lambda r: r.get(key, 0))


def wrk_table(rows, flows=False):
    head = "| -t | -c | load before | req/s (median) | p50 | p99 | errors |" + (" flows/s |" if flows else "")
    sep = "|---|---|---|---|---|---|---|" + ("---|" if flows else "")
    lines = [head, sep]
    for r in rows:
        lines.append(
            f"| {r['threads']} | {r['connections']} | {r['load']:.2f} | {num(r['rps'])} | {ms(r['p50_us'])} | "
            f"{ms(r['p99_us'])} | {r['errors']} |" + (f" {num(r['flows_per_s'])} |" if flows else ""))
    return "\n".join(lines)


def change(before, after, lower_is_better):
    """`after / before` with what it means, e.g. "0.82× (18% less time)"."""
    if not before or not after:
        return "–"
    ratio = after / before
    delta = abs(ratio - 1)
    if delta < 0.005:
        return f"{ratio:.2f}× (no change)"
    if lower_is_better:
        return f"{ratio:.2f}× ({delta:.0%} {'less' if ratio < 1 else 'more'})"
    return f"{ratio:.2f}× ({delta:.0%} {'more' if ratio > 1 else 'less'})"


def spread(runs, key="wall_s"):
    """" (min–max)" of several runs, nothing for one."""
    values = [x[key] for x in runs]
    return f" ({min(values):.2f}–{max(values):.2f})" if len(values) > 1 else ""


def before_after(r):
    """The "Before/after" section: --baseline against --paycheck, measured interleaved in the same run."""
    c = r["compare"]
    b, a = c["binaries"]["before"], c["binaries"]["after"]
    out = ["## Before/after\n"]
    mock = ("a freshly started standalone mock of the same binary" if c["mock"] == "own"
            else "a freshly started standalone mock of the *after* binary (`--baseline-mock current`: both runners "
                 "talk to the same mock, so only the runner differs)")
    out.append(f"*Before* is `{b['path']}` (commit {b['commit']}, built {b['built']}); *after* is `{a['path']}` "
               f"(commit {a['commit']}, built {a['built']}). Both were measured in this run, alternating run by run "
               f"(before, after, before, after, …; {c['rounds']} run(s) of each per figure, medians), after the "
               "measurements above and with the same sizes and settings; every `paycheck run` writes all three "
               f"reports and talks to {mock}. The wrk rows run each binary's own mock. *after / before*: below 1 "
               "is better for times and memory, above 1 for throughput.\n")

    def best_sweep(k):
        return max(c["sweep"][k], key=lambda s: s["flows_per_s"])

    wb, wa = c["wrk_flow"]["before"], c["wrk_flow"]["after"]
    # The runner is compared with wrk on the mock it talked to.
    wrk_for_before = wa if c["mock"] == "current" else wb
    sb, sa = best_sweep("before"), best_sweep("after")
    rows = []
    rows.append((f"wrk, (a) request mix on the binary's own mock (`-t{wa['threads']} -c{wa['connections']}`)",
                 f"{num(wb['flows_per_s'])} flows/s", f"{num(wa['flows_per_s'])} flows/s",
                 change(wb["flows_per_s"], wa["flows_per_s"], False)))
    rows.append((f"Runner, (a) {sb['cases']:,} cases, best of `--jobs` {'/'.join(str(s['jobs']) for s in c['sweep']['after'])}",
                 f"{num(sb['flows_per_s'])} flows/s (-j{sb['jobs']})", f"{num(sa['flows_per_s'])} flows/s (-j{sa['jobs']})",
                 change(sb["flows_per_s"], sa["flows_per_s"], False)))
    vb, va = sb["flows_per_s"] / wrk_for_before["flows_per_s"], sa["flows_per_s"] / wa["flows_per_s"]
    rows.append(("Runner vs wrk on the (a) mix (target ≥ 50%)", f"{vb:.0%}", f"{va:.0%}", change(vb, va, False)))
    if "wrk_create" in c:
        cb, ca = c["wrk_create"]["before"], c["wrk_create"]["after"]
        rows.append((f"wrk, PlacetoPay createSession on the binary's own mock (`-t{ca['threads']} -c{ca['connections']}`)",
                     f"{num(cb['rps'])} req/s", f"{num(ca['rps'])} req/s", change(cb["rps"], ca["rps"], False)))
        rows.append(("createSession p99 at that load", ms(cb["p99_us"]), ms(ca["p99_us"]), change(cb["p99_us"], ca["p99_us"], True)))
    for target, la in sorted((c.get("lifecycles") or {}).get("after", {}).items()):
        lb = c["lifecycles"]["before"].get(target)
        if target == "hello" or not lb:
            continue
        rows.append((f"Lifecycle {target} on the mock (LifecycleBench, {la['concurrency']} at once): requests/s",
                     num(lb["requests_per_s"]), num(la["requests_per_s"]), change(lb["requests_per_s"], la["requests_per_s"], False)))
        rows.append((f"Lifecycle {target}: request p99", f"{lb['request_p99_ms']:.2f} ms", f"{la['request_p99_ms']:.2f} ms",
                     change(lb["request_p99_ms"], la["request_p99_ms"], True)))
        if "server_cpu_us_per_request" in la and "server_cpu_us_per_request" in lb:
            rows.append((f"Lifecycle {target}: server CPU per request", f"{lb['server_cpu_us_per_request']:.0f} µs",
                         f"{la['server_cpu_us_per_request']:.0f} µs",
                         change(lb["server_cpu_us_per_request"], la["server_cpu_us_per_request"], True)))
    sizes_b = {(s["workload"], s["cases"]): s for s in c["sizes"]["before"]}
    for s in c["sizes"]["after"]:
        t = sizes_b[(s["workload"], s["cases"])]
        label = "(a) PlacetoPay" if s["workload"] == "ptp" else "(b) raw HTTP"
        rows.append((f"Runner wall, {label}, {s['cases']:,} cases, `-j{s['jobs']}`",
                     f"{t['wall_s']:.2f} s{spread(t['runs'])}", f"{s['wall_s']:.2f} s{spread(s['runs'])}",
                     change(t["wall_s"], s["wall_s"], True)))
    big = max(c["sizes"]["after"], key=lambda s: (s["workload"] == "ptp", s["cases"]))
    big_b = sizes_b[(big["workload"], big["cases"])]
    rows.append((f"Peak RSS, (a) {big['cases']:,} cases, `-j{big['jobs']}`", f"{big_b['rss_kb'] / 1024:.0f} MiB",
                 f"{big['rss_kb'] / 1024:.0f} MiB", change(big_b["rss_kb"], big["rss_kb"], True)))

    def peak(k):
        return max(s["rss_kb"] for s in c["sweep"][k] + c["sizes"][k])

    rows.append(("Peak RSS, every runner run of this section (target ≤ 200 MB)", f"{peak('before') / 1024:.0f} MiB",
                 f"{peak('after') / 1024:.0f} MiB", change(peak("before"), peak("after"), True)))
    failed = []
    if "error" in c["lint"]:
        rows.append(("`paycheck lint` of 1,000 generated suite files", "failed (below)", "failed (below)", "–"))
        failed.append(("lint", c["lint"]["error"]))
    else:
        lb, la = c["lint"]["before"], c["lint"]["after"]
        rows.append((f"`paycheck lint` of 1,000 generated suite files (median of {la['runs']})",
                     f"{lb['median_s']:.3f} s", f"{la['median_s']:.3f} s", change(lb["median_s"], la["median_s"], True)))
    if "error" in c["builtin"]:
        rows.append(("`paycheck run` of the built-in suites on the embedded mock", "failed (below)", "failed (below)", "–"))
        failed.append(("built-in suites", c["builtin"]["error"]))
    else:
        bb, ba = c["builtin"]["before"], c["builtin"]["after"]

        def builtin_cell(x):
            own = "" if x["cwd"] == ba["cwd"] else f", the Suites/ of `{x['cwd']}`"
            cases = f"{x['cases']} cases" if x.get("cases") is not None else "? cases"
            return f"{x['median_s']:.3f} s ({cases}{own})"

        rows.append((f"`paycheck run` of the built-in suites on the embedded mock (median of {ba['runs']})",
                     builtin_cell(bb), builtin_cell(ba), change(bb["median_s"], ba["median_s"], True)))
    same = c.get("builtin_same")
    if same and "error" in same:
        failed.append((f"built-in suites of {same.get('cwd', 'the baseline tree')}", same["error"]))
    elif same:
        rows.append((f"`paycheck run` of the *before* tree's built-in suites ({same['cases']} cases), both binaries "
                     f"(median of {same['after']['runs']})", f"{same['before']['median_s']:.3f} s",
                     f"{same['after']['median_s']:.3f} s",
                     change(same["before"]["median_s"], same["after"]["median_s"], True)))
    out.append(f"| figure | before ({b['commit'].split()[0]}) | after ({a['commit'].split()[0]}) | after / before |\n"
               "|---|---|---|---|")
    for row in rows:
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    if "error" not in c["builtin"] and c["builtin"]["before"]["cwd"] != c["builtin"]["after"]["cwd"]:
        out.append("The built-in suites of this tree do not pass with the *before* binary, so it ran the Suites/ of "
                   "its own tree: that row compares different suite sets"
                   + ("; the next row runs the *before* tree's suites with both binaries." if same and "error" not in same
                      else " (the *after* binary does not pass the older suites).") + "\n")
    for name, error in failed:
        out.append(f"{name} failed during the before/after runs:\n\n```\n{error.strip()[-1500:]}\n```\n")

    out.append(f"`--jobs` sweep, workload (a), {sb['cases']:,} cases (wall: median; flows/s from it):\n")
    out.append("| --jobs | load before | before wall | after wall | before flows/s | after flows/s | after / before "
               "flows/s | before peak RSS | after peak RSS |\n|---|---|---|---|---|---|---|---|---|")
    for t, s in zip(c["sweep"]["before"], c["sweep"]["after"]):
        out.append(f"| {s['jobs']} | {s['load']:.2f} | {t['wall_s']:.2f} s{spread(t['runs'])} | "
                   f"{s['wall_s']:.2f} s{spread(s['runs'])} | {num(t['flows_per_s'])} | {num(s['flows_per_s'])} | "
                   f"{s['flows_per_s'] / t['flows_per_s']:.2f}× | {t['rss_kb'] / 1024:.0f} MiB | "
                   f"{s['rss_kb'] / 1024:.0f} MiB |")
    out.append("")
    out.append("wrk on the (a) mix, each run against a fresh mock of the binary named:\n")
    out.append("| mock | -t | -c | load before | req/s (median) | p50 | p99 | errors | flows/s |\n"
               "|---|---|---|---|---|---|---|---|---|")
    for k, w in (("before", wb), ("after", wa)):
        out.append(f"| {k} | {w['threads']} | {w['connections']} | {w['load']:.2f} | {num(w['rps'])} | "
                   f"{ms(w['p50_us'])} | {ms(w['p99_us'])} | {w['errors']} | {num(w['flows_per_s'])} |")
    out.append("")
    return out


def lifecycle_targets(lifecycles):
    """One target per provider: its lifecycle on the mock at ≥ 50% of hello world's requests/s (LifecycleBench,
    the same client and concurrency), with a request p99 under 5 ms at that load."""
    if not lifecycles:
        return []
    rows = {row["target"]: row for row in lifecycles["rows"]}
    low = {row["target"]: row for row in lifecycles.get("low_rows") or []}
    hello = rows["hello"]
    out = []
    for target, row in rows.items():
        if target == "hello":
            continue
        share = row["requests_per_s"] / hello["requests_per_s"]
        measured = (f"{num(row['requests_per_s'])} req/s vs hello {num(hello['requests_per_s'])} req/s, request p99 "
                    f"{row['request_p99_ms']:.1f} ms ({lifecycles['concurrency']} sessions at once)")
        if target in low and "hello" in low:
            l, lh = low[target], low["hello"]
            measured += (f"; at {lifecycles['low_concurrency']} at once {num(l['requests_per_s'])} req/s "
                         f"({l['requests_per_s'] / lh['requests_per_s']:.0%} of hello there), p99 {l['request_p99_ms']:.1f} ms")
        if "server_cpu_us_per_request" in row and "server_cpu_us_per_request" in hello:
            measured += (f"; server CPU {row['server_cpu_us_per_request']:.0f} µs per request vs hello's "
                         f"{hello['server_cpu_us_per_request']:.0f} µs")
        out.append((f"Mock lifecycle, {target}: ≥ 50% of hello world's requests/s, request p99 < 5 ms at that load",
                    measured, f"{share:.0%}", share >= 0.5 and row["request_p99_ms"] < 5))
    return out


def render(r, command):
    m = r["machine"]
    hello = best(r["wrk_hello"])
    create = best(r["wrk_create"])
    flow = best(r["wrk_flow"], "flows_per_s")
    kv = best(r["wrk_kv"], "flows_per_s")
    sweep_best = max(r["sweep"], key=lambda s: s["flows_per_s"])
    sizes = {(s["workload"], s["cases"]): s for s in r["sizes"]}
    largest = max(s["cases"] for s in r["sizes"])
    tavern = {t["workload"]: t for t in r["tavern"]}
    peer = {p["workload"]: p for p in r["peer_paycheck_default"]}
    tavern_size = r["tavern"][0]["cases"]
    rss_max = max([s["rss_kb"] for s in r["sizes"]] + [s["rss_kb"] for s in r["sweep"]])

    targets = []

    ratio = sweep_best["flows_per_s"] / flow["flows_per_s"]
    targets.append((
        "Runner on workload (a), standalone mock, best of `--jobs` 1…32 ≥ 50% of wrk on the same request mix",
        f"{num(sweep_best['flows_per_s'])} flows/s (-j{sweep_best['jobs']}, {sweep_best['cases']:,} cases, whole "
        f"process) vs wrk {num(flow['flows_per_s'])} flows/s",
        f"{ratio:.0%}", ratio >= 0.5))

    ratio = create["rps"] / hello["rps"]
    targets.append((
        "Mock: PlacetoPay createSession ≥ 60% of Hummingbird hello world (best wrk config of each)",
        f"{num(create['rps'])} req/s (-t{create['threads']} -c{create['connections']}) vs hello "
        f"{num(hello['rps'])} req/s (-t{hello['threads']} -c{hello['connections']})",
        f"{ratio:.0%}", ratio >= 0.6))
    targets.append((
        "Mock: createSession p99 < 5 ms at that load",
        f"p99 {ms(create['p99_us'])} at {num(create['rps'])} req/s",
        f"{create['p99_us'] / 5000:.2f}× the limit", create["p99_us"] < 5000))
    # Also the best createSession load whose p99 is under 5 ms, for context.

    targets.extend(lifecycle_targets(r.get("lifecycles")))

    for workload, label in (("ptp", "(a) PlacetoPay"), ("kv", "(b) raw HTTP")):
        t = tavern[workload]
        p = sizes.get((workload, tavern_size)) or peer[workload]
        ratio = p["flows_per_s"] / t["flows_per_s"]
        targets.append((
            f"≥ 20× Tavern's throughput, workload {label}, {tavern_size:,} cases",
            f"PayCheck {num(p['flows_per_s'])} flows/s (-j{p['jobs']}) vs Tavern {num(t['flows_per_s'], 1)} flows/s "
            f"(default -j{r['default_jobs']}: {num(peer[workload]['flows_per_s'])} flows/s, "
            f"{peer[workload]['flows_per_s'] / t['flows_per_s']:.1f}×)",
            f"{ratio:.1f}×", ratio >= 20))

    if largest >= 10000:
        for workload, label in (("ptp", "(a)"), ("kv", "(b)")):
            big, small = sizes[(workload, 10000)], sizes[(workload, 1000)]
            ratio = big["wall_s"] / small["wall_s"]
            targets.append((
                f"10,000 cases ≤ 11× the wall time of 1,000 cases, workload {label}",
                f"{big['wall_s']:.2f} s vs {small['wall_s']:.2f} s", f"{ratio:.1f}×", ratio <= 11))
    else:
        targets.append(("10,000 cases ≤ 11× the wall time of 1,000 cases", "not measured in --quick mode", "–", None))

    targets.append((
        "Peak RSS ≤ 200 MB (every runner run, up to the largest size)",
        f"{rss_max / 1024:.0f} MiB ({rss_max * 1024 / 1e6:.0f} MB)", f"{rss_max * 1024 / 200e6:.0%} of the limit",
        rss_max * 1024 <= 200e6))

    nr = r["no_reports"]
    if len(nr) == 2:
        a_small, a_big = sizes[("ptp", nr[0]["cases"])], sizes[("ptp", nr[1]["cases"])]
        cost_small = a_small["wall_s"] - nr[0]["wall_s"]
        cost_big = a_big["wall_s"] - nr[1]["wall_s"]
        growth = nr[1]["cases"] / nr[0]["cases"]
        # Run-to-run spread of the small runs: below it, the small report cost is not measurable.
        spread = max(max(x["wall_s"] for x in runs["runs"]) - min(x["wall_s"] for x in runs["runs"])
                     for runs in (a_small, nr[0]))
        with_ratio = a_big["wall_s"] / a_small["wall_s"]
        without_ratio = nr[1]["wall_s"] / nr[0]["wall_s"]
        if cost_small > max(spread, 0.05):
            ratio = cost_big / cost_small
            targets.append((
                "Reports without quadratic costs: report cost grows linearly with cases",
                f"reports add {cost_small:.2f} s at {nr[0]['cases']:,} cases and {cost_big:.2f} s at "
                f"{nr[1]['cases']:,} cases (×{growth:.0f} cases)", f"{ratio:.1f}× for ×{growth:.0f}",
                ratio <= growth * 1.5))
        else:
            # The small cost is within the noise: compare how the whole run scales with and without reports.
            targets.append((
                "Reports without quadratic costs: the run scales the same with and without reports",
                f"reports add {cost_big:.2f} s at {nr[1]['cases']:,} cases ({cost_big / nr[1]['cases'] * 1e6:.0f} µs "
                f"per case) and {cost_small:.2f} s at {nr[0]['cases']:,} (within the {spread:.2f} s run-to-run "
                f"spread); wall ×{with_ratio:.1f} with reports vs ×{without_ratio:.1f} without, for ×{growth:.0f} cases",
                f"{with_ratio / without_ratio:.2f}", with_ratio <= without_ratio * 1.2))

    lint = r["lint"]["median_s"]
    targets.append(("`paycheck lint` of 1,000 suite files < 0.5 s", f"{lint:.3f} s (median of {r['lint']['runs']})",
                    f"{lint / 0.5:.0%} of the limit", lint < 0.5))
    labels = {"templates": "100,000 templates in one value", "deep": "a 10,000-deep block map, refused by the size bound"}
    for name, figures in r.get("lint_pathological", {}).items():
        median = figures["median_s"]
        targets.append((f"`paycheck lint` of {labels.get(name, name)} ({figures['bytes'] / 1e6:.1f} MB) < 1 s",
                        f"{median:.3f} s (median of {figures['runs']})", f"{median:.0%} of the limit", median < 1))
    builtin = r["builtin"]["median_s"]
    targets.append(("`paycheck run` of all built-in suites on the embedded mock < 3 s",
                    f"{builtin:.3f} s (median of {r['builtin']['runs']})", f"{builtin / 3:.0%} of the limit",
                    builtin < 3))

    out = []
    out.append("# Benchmarks\n")
    out.append("Generated by `Benchmarks/run.sh` — do not edit by hand; the analysis section comes from "
               "`Benchmarks/analysis.md`.\n")
    out.append("## How to reproduce\n")
    out.append("From a fresh clone, as root (it installs `wrk`, `hyperfine` and `time` with apt-get and Tavern "
               "into a venv under `${TMPDIR:-/tmp}`):\n")
    out.append("```sh\nBenchmarks/run.sh          # everything, medians of 3 runs (about 45 minutes on 2 cores, more if it must wait for a quiet machine)\n"
               "Benchmarks/run.sh --quick  # smaller sizes, one run each, 3 s wrk runs (for iterating)\n"
               "Benchmarks/run.sh --compare OLD/.build/release/paycheck  # also: a Before/after row for every figure, the older "
               "binary against this tree's, interleaved (--baseline is the same)\n"
               "Benchmarks/run.sh --lifecycles  # only the provider lifecycles next to hello world (rewrites only that section)\n```\n")
    out.append(f"This document was produced by `{command}` ({m['mode']} mode) on {m['date']}. It builds "
               "`paycheck` and `HelloBench` with `swift build -c release --static-swift-stdlib`, generates the workloads into a "
               "temporary directory, starts and stops every server itself, and waits before each measurement "
               "until the 1-minute load average is below 1.0 (the loads are listed at the end).\n")

    out.append("## Machine\n")
    out.append("| | |\n|---|---|")
    out.append(f"| nproc | {m['nproc']} |")
    out.append(f"| memory | {m['memory_gib']} GiB |")
    out.append(f"| CPU | {m['cpu']} |")
    out.append(f"| kernel | {m['kernel']} |")
    out.append(f"| Swift | {m['swift']} |")
    out.append(f"| tools | {m['wrk']} · {m['hyperfine']} · {m['tavern']} · Python {m['python']} |")
    out.append(f"| commit | {m['commit']} |\n")

    out.append("## Targets\n")
    out.append("| target | measured | ratio | status |\n|---|---|---|---|")
    for name, measured, ratio, ok in targets:
        out.append(f"| {name} | {measured} | {ratio} | {status(ok)} |")
    out.append("")
    out.append("Throughput is flows per second of wall time of the whole `paycheck run` process (start, load, run, "
               "reports), each flow being one case (workload (a): 3 requests; workload (b): 2 requests).\n")

    if r.get("compare"):
        out.extend(before_after(r))

    if r.get("lifecycles"):
        import lifecycle
        out.append(lifecycle.render(r["lifecycles"], command))
    out.append("## The limit: the servers under wrk\n")
    out.append(f"Each row is the median of {len(r['wrk_hello'][0]['runs'])} run(s) of {r.get('wrk_duration_s', '?')} s "
               "against a freshly started server (the mock is restarted for every run, so its state starts empty); "
               "errors count non-2xx answers, socket errors and failed flow checks.\n")
    out.append("### Hummingbird hello world (`HelloBench`, `GET /`)\n")
    out.append(wrk_table(r["wrk_hello"]) + "\n")
    out.append("### Mock: PlacetoPay createSession (`POST /placetopay/api/session`, signed)\n")
    out.append(wrk_table(r["wrk_create"]) + "\n")
    under = [row for row in r["wrk_create"] if row["p99_us"] < 5000]
    if under:
        u = max(under, key=lambda row: row["rps"])
        out.append(f"Highest createSession load with p99 under 5 ms: {num(u['rps'])} req/s "
                   f"(-t{u['threads']} -c{u['connections']}, p99 {ms(u['p99_us'])}), "
                   f"{u['rps'] / hello['rps']:.0%} of hello world.\n")
    out.append("### Mock: workload (a) request mix (createSession → payer pay → querySession)\n")
    out.append(wrk_table(r["wrk_flow"], flows=True) + "\n")
    out.append("### Mock: workload (b) request mix (POST /__paycheck/kv → GET it back)\n")
    out.append(wrk_table(r["wrk_kv"], flows=True) + "\n")

    out.append("## The runner\n")
    out.append(f"### `--jobs` sweep, workload (a), {r['sweep'][0]['cases']:,} cases, standalone mock\n")
    out.append("| --jobs | wall (median) | run phase | flows/s | requests/s | peak RSS | vs wrk flow mix |\n"
               "|---|---|---|---|---|---|---|")
    for s in r["sweep"]:
        out.append(f"| {s['jobs']} | {s['wall_s']:.2f} s | {s['run_s']:.2f} s | {num(s['flows_per_s'])} | "
                   f"{num(s['flows_per_s'] * 3)} | {s['rss_kb'] / 1024:.0f} MiB | "
                   f"{s['flows_per_s'] / flow['flows_per_s']:.0%} |")
    out.append("")
    out.append(f"### Sizes (`--jobs {r['best_jobs']}`, the best of the sweep)\n")
    out.append("| workload | cases | wall (median) | run phase | flows/s | requests/s | peak RSS | wall / previous size |\n"
               "|---|---|---|---|---|---|---|---|")
    prev = {}
    for s in r["sizes"]:
        per = 3 if s["workload"] == "ptp" else 2
        growth = f"{s['wall_s'] / prev[s['workload']]['wall_s']:.1f}× for ×{s['cases'] // prev[s['workload']]['cases']}" \
            if s["workload"] in prev else "–"
        out.append(f"| {'(a) PlacetoPay' if s['workload'] == 'ptp' else '(b) raw HTTP'} | {s['cases']:,} | "
                   f"{s['wall_s']:.2f} s | {s['run_s']:.2f} s | {num(s['flows_per_s'])} | "
                   f"{num(s['flows_per_s'] * per)} | {s['rss_kb'] / 1024:.0f} MiB | {growth} |")
        prev[s["workload"]] = s
    out.append("")
    out.append("Report cost (workload (a), the same runs with `--report-junit '' --report-json '' --report-html ''`):\n")
    out.append("| cases | with reports | without | reports cost | peak RSS with | peak RSS without |\n"
               "|---|---|---|---|---|---|")
    for n in r["no_reports"]:
        w = sizes[("ptp", n["cases"])]
        out.append(f"| {n['cases']:,} | {w['wall_s']:.2f} s | {n['wall_s']:.2f} s | {w['wall_s'] - n['wall_s']:.2f} s | "
                   f"{w['rss_kb'] / 1024:.0f} MiB | {n['rss_kb'] / 1024:.0f} MiB |")
    out.append("")
    if r.get("rss_breakdown"):
        big = max(n["cases"] for n in r["no_reports"])
        base = next(n for n in r["no_reports"] if n["cases"] == big)
        out.append(f"Peak RSS of one {big:,}-case workload (a) run by report written:\n")
        out.append("| reports | wall | peak RSS | report size |\n|---|---|---|---|")
        out.append(f"| none | {base['wall_s']:.2f} s | {base['rss_kb'] / 1024:.0f} MiB | – |")
        for b in r["rss_breakdown"]:
            out.append(f"| {b['label']} | {b['wall_s']:.2f} s | {b['rss_kb'] / 1024:.0f} MiB | {b['bytes'] / 1e6:.0f} MB |")
        w = sizes[("ptp", big)]
        out.append(f"| all three (the default) | {w['wall_s']:.2f} s | {w['rss_kb'] / 1024:.0f} MiB | – |")
        out.append("")

    out.append(f"## The peer: Tavern, {tavern_size:,} cases\n")
    out.append("| workload | Tavern wall | Tavern flows/s | PayCheck -j best | PayCheck -j default | ratio (best) | ratio (default) |\n"
               "|---|---|---|---|---|---|---|")
    for workload, label in (("ptp", "(a) PlacetoPay"), ("kv", "(b) raw HTTP")):
        t = tavern[workload]
        p = sizes.get((workload, tavern_size))
        d = peer[workload]
        best_cell = num(p["flows_per_s"]) + f" (-j{p['jobs']})" if p else "–"
        best_ratio = f"{p['flows_per_s'] / t['flows_per_s']:.1f}×" if p else "–"
        out.append(f"| {label} | {t['wall_s']:.2f} s | {num(t['flows_per_s'], 1)} | {best_cell} | "
                   f"{num(d['flows_per_s'])} (-j{d['jobs']}) | {best_ratio} | {d['flows_per_s'] / t['flows_per_s']:.1f}× |")
    out.append("")
    out.append("Tavern runs sequentially in one pytest process (its normal mode); workload (a) signs each request in "
               "`placetopay_ext.py` (generated next to the Tavern files) exactly like PlacetoPay.\n")

    out.append("## lint and the built-in suites (hyperfine)\n")
    out.append("| command | median | mean ± σ | min … max | runs |\n|---|---|---|---|---|")
    for key, label in (("lint", "`paycheck lint` of 1,000 generated suite files"),
                       ("builtin", "`paycheck run` of Suites/ on the embedded mock")):
        h = r[key]
        out.append(f"| {label} | {h['median_s']:.3f} s | {h['mean_s']:.3f} ± {h['stddev_s'] or 0:.3f} s | "
                   f"{h['min_s']:.3f} … {h['max_s']:.3f} s | {h['runs']} |")
    out.append("")

    prof = r.get("profile", {})
    out.append("## Profile of the runner (1,000 cases of workload (a))\n")
    if prof.get("available"):
        out.append(f"`{prof['command']}`. Top symbols by self time (≥ 1.5%):\n")
        out.append("| self | object | symbol |\n|---|---|---|")
        for t in prof["top"]:
            out.append(f"| {t['percent']:.1f}% | {t['dso']} | `{t['symbol'].replace('|', '/')}` |")
        out.append("")
        if prof.get("inclusive"):
            out.append("PayCheck's own frames by time including their callees (the whole process, all threads):\n")
            out.append("| incl. | frame |\n|---|---|")
            for t in prof["inclusive"]:
                out.append(f"| {t['percent']:.1f}% | `{t['symbol'].replace('|', '/')}` |")
            out.append("")
    else:
        out.append(f"Not recorded: {prof.get('reason', 'perf unavailable')}.\n")

    analysis = os.path.join(HERE, "analysis.md")
    if os.path.exists(analysis):
        out.append(open(analysis).read().rstrip() + "\n")

    out.append("## Exact commands\n")
    out.append("`$PAYCHECK` is `.build/release/paycheck`, `$PORT` a free port of a freshly started "
               "`$PAYCHECK mock --port $PORT`, `$POOL` a file of pre-signed auth objects "
               "(`Benchmarks/generate.py pool`), `$DIR` a generated workload.\n")
    out.append("```sh")
    out.append("swift build -c release --static-swift-stdlib --product paycheck && swift build -c release --static-swift-stdlib --product HelloBench")
    out.append("python3 Benchmarks/generate.py suites --workload ptp|kv --cases N --out $DIR   # also: tavern, lint, pool")
    out.append(".build/release/HelloBench --port $PORT")
    for key in ("wrk_hello", "wrk_create", "wrk_flow", "wrk_kv"):
        if key in r["commands"]:
            out.append(r["commands"][key])
    out.append("/usr/bin/time -f '%e %M' $PAYCHECK run $DIR --target url=http://127.0.0.1:$PORT --jobs J --quiet "
               "--color never --report-junit $TMP/junit.xml --report-json $TMP/report.json --report-html $TMP/report.html")
    out.append(r["commands"].get("tavern", ""))
    out.append("hyperfine -N --warmup 1 --runs 10 '$PAYCHECK lint $DIR --color never'")
    out.append("hyperfine -N --warmup 1 --runs 10 '$PAYCHECK run --color never --quiet --report-junit … --report-json … --report-html …'")
    if r.get("compare"):
        out.append("# Before/after: the wrk and `paycheck run` commands above with $PAYCHECK = each binary in turn (before, "
                   "after, before, …);")
        out.append("# lint and the built-in suites timed by bench.py (fork to exit, one warm-up each), also alternating.")
    out.append("```\n")

    out.append("## Load average before each measurement\n")
    out.append("| measurement | 1-min load | waited |\n|---|---|---|")
    for l in r["loads"]:
        out.append(f"| {l['label']} | {l['load']:.2f} | {l['waited_s']} s |")
    out.append("")
    return "\n".join(out)
