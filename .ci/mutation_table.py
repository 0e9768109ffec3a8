#!/usr/bin/env python3
"""The mutation table of the merchant packs: every pack against every reference backend in each of its three correct
designs (SHOP_DESIGN), correct and with each bug the backend can be told to make (SHOP_BUG).

- A correct backend, in every design and with each of two amounts, must pass every case with no finding.
- Each seeded bug must make the pack of every provider it breaks fail, in every design where the bug can show (the
  few where it cannot are listed in NOT_APPLICABLE with the reason), and the table names the cases that caught it.

A correct design that fails or raises a finding above info, or a bug that some design lets through (no failed case and
no finding above info), fails the run (exit 1). Runs go two at a time.

    python3 .ci/mutation_table.py PATH/TO/paycheck            # from the repository's root
    python3 .ci/mutation_table.py PATH/TO/paycheck --markdown # the table as docs/merchant.md shows it
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

# Each backend with its contract and the packs of the providers it integrates (python-shop has no MIT: WebPay Plus
# needs AES, which Python's standard library does not have; nor Yuno, whose pack the reference shop covers).
BACKENDS = [
    ("reference-shop", "ReferenceBackends/swift-shop/contract.yaml", ["mollie", "placetopay", "khipu", "mit", "yuno"]),
    ("python-shop", "ReferenceBackends/python-shop/contract.yaml", ["mollie", "placetopay", "khipu"]),
]
# When the backend asks the provider about a payment: only on a notification; also on the payer's return; also on
# every read of an order that is not final. All three are correct.
DESIGNS = ["notify", "return", "read"]
# A second amount per pack (the packs' own have minor units where the currency has them): every correct design must
# pass with it too, so no expectation is a literal of the default amount.
SECOND_AMOUNT = {"mollie": "1234.56", "placetopay": "35000.25", "khipu": "12990", "mit": "250.75", "yuno": "52000"}
# Each seeded bug and the providers whose integration it breaks (ReferenceBackends/swift-shop/ShopBug.swift).
BUGS = {
    "trust-return": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "no-signature-check": ["mollie", "placetopay", "khipu", "yuno"],
    "double-fulfil": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "decline-paid": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "reuse-nonce": ["placetopay"],
    "pending-paid": ["mollie", "placetopay", "khipu", "yuno"],
    "authorized-paid": ["mollie"],
    "ignore-status-detail": ["khipu"],
    "ignore-expiry": ["mollie", "placetopay"],
    "other-amount": ["mollie", "placetopay", "khipu", "mit", "yuno"],
    "drop-cents": ["mollie", "placetopay", "mit", "yuno"],
    "no-idempotency-key": ["mollie", "yuno"],
    "paid-moved-back": ["yuno"],
    "no-notifications": ["mollie", "khipu", "yuno"],
    # Each raises an error finding (docs/merchant.md, "Findings"); some also fail cases.
    "app-calls-provider": ["mollie", "placetopay", "khipu", "yuno"],
    "new-idempotency-key": ["mollie", "yuno"],
    "no-redirect-url": ["mollie"],
    "no-client-info": ["placetopay"],
    "short-expiration": ["placetopay"],
    "no-checkout-session": ["yuno"],
    "amount-as-text": ["yuno"],
    "plain-mit": ["mit"],
    "reuse-iv": ["mit"],
    # Each raises a warning (or an earlier error rule); docs/merchant.md, "Findings", maps every rule to its bug.
    "public-http": ["mollie", "placetopay", "khipu", "yuno"],
    "amount-as-number": ["mollie"],
    "live-key": ["mollie"],
    "stale-seed": ["placetopay"],
    "sha1-trankey": ["placetopay"],
    "no-reference": ["placetopay"],
    "no-notify-version": ["khipu"],
    "no-transaction-id": ["khipu"],
    "clp-decimals": ["khipu"],
    "wrong-country": ["yuno"],
    "mit-amount-format": ["mit"],
    "reuse-reference": ["mit"],
}
# The bugs only the reference shop can be told to make (python-shop exits on an unknown SHOP_BUG).
REFERENCE_ONLY = {"public-http", "amount-as-number", "live-key", "stale-seed", "sha1-trankey", "no-reference",
                  "no-notify-version", "no-transaction-id", "clp-decimals", "wrong-country", "mit-amount-format",
                  "reuse-reference"}
# (bug, provider, design): a correct-looking mistake no scenario can show in that design, with the reason.
NOT_APPLICABLE = {
    ("pending-paid", "placetopay", "notify"):
        "PlacetoPay notifies final states only (§1.9): a notify-only backend never sees a payment pending at the bank",
    ("pending-paid", "khipu", "notify"):
        "khipu does not notify a transfer still verifying: a notify-only backend never sees it",
}


def run(binary, contract, pack, bug, design, report, amount=None):
    """Runs one pack against one backend; returns (exit code, [failed or errored case names, then the rules of the
    findings above info], the count of those findings)."""
    env = dict(os.environ, SHOP_BUG=bug, SHOP_DESIGN=design)
    command = [binary, "run", "--contract", contract, "--pack", pack, "--fail-on", "findings:warning", "--quiet",
               "--report-json", report, "--report-junit", "", "--report-html", ""]
    if amount:
        command += ["--var", f"amount={amount}"]
    status = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    try:
        with open(report) as handle:
            result = json.load(handle)
    except (OSError, ValueError):
        return status, ["(no report)"], 0
    failed, rules, findings = [], set(), 0
    for suite in result.get("suites", []):
        for case in suite.get("cases", []):
            for step in case.get("steps", []):
                for finding in step.get("findings", []):
                    if finding.get("severity") != "info":
                        findings += 1
                        rules.add(f"finding {finding.get('rule')}")
            failing = next((step for step in case.get("steps", []) if step.get("verdict") in ("failed", "error")), None)
            # A case failed only by a finding (issue `finding`) is listed as that finding's rule, not as a scenario.
            if case.get("verdict") in ("failed", "error") and (failing or {}).get("issue") != "finding":
                failed.append(case["name"])
    return status, failed + sorted(rules), findings


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary, markdown = os.path.abspath(sys.argv[1]), "--markdown" in sys.argv[2:]
    names = [backend for backend, _, _ in BACKENDS]
    problems = []
    with tempfile.TemporaryDirectory() as folder, concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        counter = iter(range(1_000_000))

        def submit(*args, amount=None):
            report = os.path.join(folder, f"report-{next(counter)}.json")
            return pool.submit(run, binary, *args, report, amount=amount)

        clean = {}
        for backend, contract, packs in BACKENDS:
            for pack in packs:
                for design in DESIGNS:
                    for amount in (None, SECOND_AMOUNT[pack]):
                        clean[(backend, pack, design, amount)] = submit(contract, pack, "none", design, amount=amount)
        seeded = {}
        for bug, providers in BUGS.items():
            for pack in providers:
                for backend, contract, packs in BACKENDS:
                    if pack in packs and (backend == "reference-shop" or bug not in REFERENCE_ONLY):
                        for design in DESIGNS:
                            if (bug, pack, design) not in NOT_APPLICABLE:
                                seeded[(bug, pack, backend, design)] = submit(contract, pack, bug, design)
        for (backend, pack, design, amount), future in clean.items():
            status, failed, findings = future.result()
            if status != 0 or failed or findings:
                problems.append(f"{backend} ({design}, amount {amount or 'of the pack'}) without a bug: the {pack} pack "
                                f"exited {status}, failed {failed}, {findings} findings")
        rows = []
        for bug, providers in BUGS.items():
            for pack in providers:
                cells = []
                for backend, _, packs in BACKENDS:
                    if pack not in packs or (backend != "reference-shop" and bug in REFERENCE_ONLY):
                        cells.append("–")
                        continue
                    caught = set()
                    for design in DESIGNS:
                        if (bug, pack, design) in NOT_APPLICABLE:
                            continue
                        status, failed, _ = seeded[(bug, pack, backend, design)].result()
                        if status == 0 or not failed:
                            problems.append(f"{backend} ({design}) with SHOP_BUG={bug}: no case of the {pack} pack caught it (exit {status})")
                            caught.add("UNCAUGHT")
                        caught.update(failed)
                    cells.append("; ".join(sorted(caught)))
                rows.append((pack, bug, cells))
    if markdown:
        print("| provider | seeded bug (`SHOP_BUG`) | " + " | ".join(f"caught in {n} by" for n in names) + " |")
        print("|---|---|" + "---|" * len(names))
        for pack, bug, cells in rows:
            print(f"| {pack} | `{bug}` | " + " | ".join(cells) + " |")
        print()
        print("| provider | seeded bug | design | why no scenario can show it there |")
        print("|---|---|---|---|")
        for (bug, pack, design), reason in NOT_APPLICABLE.items():
            print(f"| {pack} | `{bug}` | `{design}` | {reason} |")
    else:
        for pack, bug, cells in rows:
            print(f"{pack:<11} {bug:<21}")
            for name, cell in zip(names, cells):
                print(f"    {name:<15} {cell}")
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    if not problems:
        print(f"every correct design passes and every seeded bug is caught: {len(DESIGNS)} designs, {len(names)} backends, "
              f"{len(rows)} provider × bug rows, {len(clean)} clean and {len(seeded)} seeded runs", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
