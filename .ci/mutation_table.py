#!/usr/bin/env python3
"""The mutation table of the merchant packs: every pack against every reference backend, correct and with each bug the
backend can be told to make (SHOP_BUG). A correct backend must pass every case with no finding; each seeded bug that
applies to a provider must make that provider's pack fail, and the table names the cases that caught it. A bug no case
catches fails the run (exit 1).

    python3 .ci/mutation_table.py PATH/TO/paycheck            # from the repository's root
    python3 .ci/mutation_table.py PATH/TO/paycheck --markdown # the table as docs/merchant.md shows it
"""
import json
import os
import subprocess
import sys
import tempfile

# Each backend with its contract and the packs of the providers it integrates (python-shop has no MIT: WebPay Plus
# needs AES, which Python's standard library does not have; nor Yuno, whose pack the reference shop covers).
BACKENDS = [
    ("reference-shop", "examples/reference-shop/contract.yaml", ["mollie", "placetopay", "khipu", "mit", "yuno"]),
    ("python-shop", "Tests/MerchantBackends/python-shop/contract.yaml", ["mollie", "placetopay", "khipu"]),
]
# Each seeded bug and the providers whose integration it breaks (Sources/ReferenceShop/ReferenceShop.swift, ShopBug).
BUGS = {
    "trust-return": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "no-signature-check": ["mollie", "placetopay", "khipu", "yuno"],
    "double-fulfil": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "decline-paid": ["mollie", "khipu", "mit", "yuno"],
    "reuse-nonce": ["placetopay"],
    "pending-paid": ["mollie", "placetopay", "khipu", "yuno"],
    "ignore-expiry": ["mollie", "placetopay"],
    "other-amount": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "no-idempotency-key": ["mollie", "yuno"],
    "paid-moved-back": ["yuno"],
}


def run(binary, contract, pack, bug, report):
    """Runs one pack against one backend; returns (exit code, [failed or errored case names], findings count)."""
    env = dict(os.environ, SHOP_BUG=bug)
    command = [binary, "run", "--contract", contract, "--pack", pack, "--fail-on", "findings", "--quiet",
               "--report-json", report, "--report-junit", "", "--report-html", ""]
    status = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    try:
        with open(report) as handle:
            result = json.load(handle)
    except (OSError, ValueError):
        return status, ["(no report)"], 0
    failed, findings = [], 0
    for suite in result.get("suites", []):
        for case in suite.get("cases", []):
            for step in case.get("steps", []):
                findings += len(step.get("findings", []))
            if case.get("verdict") in ("failed", "error"):
                failed.append(case["name"])
    return status, failed, findings


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary, markdown = os.path.abspath(sys.argv[1]), "--markdown" in sys.argv[2:]
    problems, rows = [], []
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "report.json")
        for backend, contract, packs in BACKENDS:
            for pack in packs:
                status, failed, findings = run(binary, contract, pack, "none", report)
                if status != 0 or failed or findings:
                    problems.append(f"{backend} without a bug: the {pack} pack exited {status}, failed {failed}, {findings} findings")
        for bug, providers in BUGS.items():
            for pack in providers:
                cells = []
                for backend, contract, packs in BACKENDS:
                    if pack not in packs:
                        cells.append("–")
                        continue
                    status, failed, _ = run(binary, contract, pack, bug, report)
                    if status == 0 or not failed:
                        problems.append(f"{backend} with SHOP_BUG={bug}: no case of the {pack} pack caught it (exit {status})")
                        cells.append("UNCAUGHT")
                    else:
                        cells.append("; ".join(sorted(set(failed))))
                rows.append((pack, bug, cells))
    names = [backend for backend, _, _ in BACKENDS]
    if markdown:
        print("| provider | seeded bug (`SHOP_BUG`) | " + " | ".join(f"caught in {n} by" for n in names) + " |")
        print("|---|---|" + "---|" * len(names))
        for pack, bug, cells in rows:
            print(f"| {pack} | `{bug}` | " + " | ".join(cells) + " |")
    else:
        for pack, bug, cells in rows:
            print(f"{pack:<11} {bug:<19}")
            for name, cell in zip(names, cells):
                print(f"    {name:<15} {cell}")
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    if not problems:
        print(f"every seeded bug is caught: {len(rows)} provider × bug rows, {len(names)} backends", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
