#!/usr/bin/env python3
"""Generates the benchmark workloads into a directory outside the repository.

    generate.py suites  --workload kv|ptp --cases N --out DIR [--per-file 10]
    generate.py tavern  --workload kv|ptp --cases N --out DIR [--per-file 10]
    generate.py lint    --files N --out DIR
    generate.py pathological --out DIR
    generate.py pool    --count N --threads T --out FILE

Workloads (docs/benchmarks.md explains them):
  kv  (b) raw HTTP: POST a JSON body to /__paycheck/kv, capture body.id, GET it back, assert the value.
  ptp (a) PlacetoPay: createSession -> payer pay (card 4110760000000081) -> querySession, outcome succeeded.

The workloads use only what older and newer binaries share, so that `run.sh --baseline` can run them with both:
`call: createSession|querySession` with documented RedirectRequest fields only (newer binaries lint `with:` keys
strictly), `payer: pay` ({requestId, card}; the route /__paycheck/placetopay/payer/pay is unchanged), and
/__paycheck/kv and /__paycheck/echo. No `mock:` control actions: their routes changed (REST-ish
/__paycheck/placetopay/sites/…, …/notifications, …/notify before; POST /__paycheck/placetopay/mock/<name> after).

`pool` writes pre-signed PlacetoPay auth objects for wrk (LuaJIT has no SHA-256): one line per auth,
"<thread>\t<nonce>\t<tranKey>", all with the same seed (now, valid for 5 minutes), each nonce fresh.
Only the standard library is used, so it runs with any python3.
"""
import argparse
import base64
import datetime
import hashlib
import os
import sys

CARD = "4110760000000081"
LOGIN = "paycheck-test"
SECRET_KEY = "paycheck-test-secret-key"


def chunks(total, size):
    """(file index, first case, last case) for `total` cases, `size` per file."""
    index = 0
    for start in range(1, total + 1, size):
        index += 1
        yield index, start, min(total, start + size - 1)


# --- PayCheck suites -------------------------------------------------------------------------------


def kv_suite(index, first, last):
    lines = [f"suite: Benchmark kv {index:05d}", "tags: [bench]", "cases:"]
    for n in range(first, last + 1):
        lines += [
            f"  - name: kv flow {n}",
            "    steps:",
            "      - http:",
            "          method: POST",
            '          url: "{{ mock.url }}/__paycheck/kv"',
            f'          json: {{ n: {n}, name: "case-{n}", amount: 165000 }}',
            "        expect: { status: 201 }",
            "        capture: { key: body.id }",
            '      - http: { url: "{{ mock.url }}/__paycheck/kv/{{ key }}" }',
            "        expect:",
            "          status: 200",
            "          body:",
            f"            value.n: {n}",
            f'            value.name: "case-{n}"',
        ]
    return "\n".join(lines) + "\n"


def ptp_suite(index, first, last):
    lines = [
        f"suite: Benchmark PlacetoPay {index:05d}",
        "provider: placetopay",
        "tags: [bench]",
        "cases:",
    ]
    for n in range(first, last + 1):
        lines += [
            f"  - name: placetopay flow {n}",
            "    requires: [mock]",
            "    steps:",
            "      - call: createSession",
            "        with:",
            "          payment:",
            f'            reference: "BENCH-{n}"',
            '            description: "PayCheck benchmark"',
            "            amount: { currency: COP, total: 10000 }",
            '          returnUrl: "https://merchant.test/return"',
            "        expect:",
            "          status: 200",
            "          body: { status.status: OK }",
            "        capture: { requestId: body.requestId }",
            "      - payer: pay",
            f'        with: {{ requestId: "{{{{ requestId }}}}", card: "{CARD}" }}',
            "        expect: { status: 200 }",
            "      - call: querySession",
            '        with: { requestId: "{{ requestId }}" }',
            "        expect:",
            "          status: 200",
            "          outcome: succeeded",
            "          body: { status.status: APPROVED }",
        ]
    return "\n".join(lines) + "\n"


# --- Tavern suites (the peer) ----------------------------------------------------------------------

TAVERN_EXT = '''"""Signs PlacetoPay requests for the Tavern peer, exactly like the PlacetoPay adapter (providers.md 1.2):
tranKey = Base64(SHA-256(rawNonce + seed + secretKey)), nonce = Base64(rawNonce), seed = now (ISO 8601)."""
import base64
import datetime
import hashlib
import os

LOGIN = "%s"
SECRET_KEY = "%s"


def auth():
    raw = os.urandom(16)
    seed = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    digest = hashlib.sha256(raw + seed.encode() + SECRET_KEY.encode()).digest()
    return {
        "login": LOGIN,
        "tranKey": base64.b64encode(digest).decode(),
        "nonce": base64.b64encode(raw).decode(),
        "seed": seed,
    }


def create_session(reference):
    return {
        "auth": auth(),
        "payment": {"reference": reference, "description": "PayCheck benchmark",
                    "amount": {"currency": "COP", "total": 10000}},
        "returnUrl": "https://merchant.test/return",
        "ipAddress": "127.0.0.1",
        "userAgent": "Tavern",
    }


def query_session():
    return {"auth": auth()}
''' % (LOGIN, SECRET_KEY)


def tavern_kv(first, last):
    docs = []
    for n in range(first, last + 1):
        docs.append(f"""test_name: kv flow {n}
strict: [json:off]
stages:
  - name: store
    request:
      url: "{{host}}/__paycheck/kv"
      method: POST
      json: {{ n: {n}, name: "case-{n}", amount: 165000 }}
    response:
      status_code: 201
      save:
        json: {{ key: id }}
  - name: read back
    request:
      url: "{{host}}/__paycheck/kv/{{key}}"
      method: GET
    response:
      status_code: 200
      json:
        value: {{ n: {n}, name: "case-{n}" }}
""")
    return "---\n" + "---\n".join(docs)


def tavern_ptp(first, last):
    docs = []
    for n in range(first, last + 1):
        docs.append(f"""test_name: placetopay flow {n}
strict: [json:off]
stages:
  - name: createSession
    request:
      url: "{{host}}/placetopay/api/session"
      method: POST
      json:
        $ext:
          function: placetopay_ext:create_session
          extra_kwargs: {{ reference: "BENCH-{n}" }}
    response:
      status_code: 200
      json:
        status: {{ status: OK }}
      save:
        json: {{ request_id: requestId }}
  - name: payer pay
    request:
      url: "{{host}}/__paycheck/placetopay/payer/pay"
      method: POST
      json: {{ requestId: "{{request_id}}", card: "{CARD}" }}
    response:
      status_code: 200
  - name: querySession
    request:
      url: "{{host}}/placetopay/api/session/{{request_id}}"
      method: POST
      json:
        $ext:
          function: placetopay_ext:query_session
    response:
      status_code: 200
      json:
        status: {{ status: APPROVED }}
""")
    return "---\n" + "---\n".join(docs)


# --- lint corpus -----------------------------------------------------------------------------------


def lint_suite(index):
    """A realistic suite file mixing raw HTTP steps, matchers, captures and templates."""
    return f"""suite: Lint corpus {index:05d}
description: Generated for the lint benchmark.
tags: [bench, lint]
vars:
  reference: "ORDER-{{{{ uuid() }}}}"
  amount: {1000 + index}
cases:
  - name: store and read back {index}
    steps:
      - http:
          method: POST
          url: "{{{{ mock.url }}}}/__paycheck/kv"
          headers: {{ X-Request: "bench-{index}" }}
          json: {{ reference: "{{{{ reference }}}}", amount: "{{{{ amount }}}}", at: "{{{{ now('+5m', 'iso8601') }}}}" }}
        expect:
          status: 201
          headers: {{ Content-Type: {{ contains: json }} }}
          body:
            id: {{ matches: '^kv-\\d+$' }}
            value.amount: {{ type: integer, gt: 0 }}
        capture: {{ key: body.id, stored: body.value }}
      - http: {{ url: "{{{{ mock.url }}}}/__paycheck/kv/{{{{ key }}}}" }}
        expect:
          status: 200
          body:
            value: "{{{{ stored }}}}"
            value.reference: {{ eq: "{{{{ reference }}}}", length: {{ ge: 6 }} }}
  - name: echo {index}
    steps:
      - http:
          method: PUT
          url: "{{{{ mock.url }}}}/__paycheck/echo/items/{index}"
          query: {{ status: 202 }}
          json: {{ items: [1, 2, 3] }}
        expect:
          status: 202
          body:
            method: PUT
            json.items[-1]: 3
            json.items: {{ length: 3 }}
        retry: {{ until: {{ status: 202 }}, every: 10ms, for: 1s }}
        timeout: 2s
"""


# --- pathological files (lint time stays linear, a huge file is refused at once) ---------------------


def pathological(out):
    """`templates.yaml`: 100,000 templates in one value (700 KB; valid). `deep.yaml`: a 10,000-deep block map
    (50 MB; refused by the 4 MiB bound before any YAML is parsed)."""
    with open(os.path.join(out, "templates.yaml"), "w") as f:
        f.write("suite: templates\nprovider: mollie\nvars:\n  a: x\ncases:\n  - name: one\n    steps:\n"
                "      - call: getPayment\n        with: { id: \"" + "{{ a }}" * 100_000 + "\" }\n")
    with open(os.path.join(out, "deep.yaml"), "w") as f:
        f.write("suite: deep\nprovider: mollie\nvars:\n")
        for depth in range(10_000):
            f.write("  " + " " * depth + f"k{depth}:\n")


# --- wrk signing pool ------------------------------------------------------------------------------


def pool(count, threads, out):
    seed = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()
    secret = SECRET_KEY.encode()
    sb = seed.encode()
    with open(out, "w") as f:
        f.write(seed + "\n")
        for i in range(count):
            raw = os.urandom(16)
            key = base64.b64encode(hashlib.sha256(raw + sb + secret).digest()).decode()
            f.write(f"{i % threads}\t{base64.b64encode(raw).decode()}\t{key}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("suites", "tavern"):
        p = sub.add_parser(name)
        p.add_argument("--workload", choices=["kv", "ptp"], required=True)
        p.add_argument("--cases", type=int, required=True)
        p.add_argument("--per-file", type=int, default=10)
        p.add_argument("--out", required=True)
    p = sub.add_parser("lint")
    p.add_argument("--files", type=int, required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("pathological")
    p.add_argument("--out", required=True)
    p = sub.add_parser("pool")
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", required=True)
    args = parser.parse_args()

    if args.command == "pool":
        pool(args.count, args.threads, args.out)
        return
    os.makedirs(args.out, exist_ok=True)
    if args.command == "lint":
        for i in range(1, args.files + 1):
            with open(os.path.join(args.out, f"lint-{i:05d}.yaml"), "w") as f:
                f.write(lint_suite(i))
        return
    if args.command == "pathological":
        pathological(args.out)
        return
    if args.command == "suites":
        render = kv_suite if args.workload == "kv" else ptp_suite
        for index, first, last in chunks(args.cases, args.per_file):
            with open(os.path.join(args.out, f"{args.workload}-{index:05d}.yaml"), "w") as f:
                f.write(render(index, first, last))
        return
    # tavern
    render = tavern_kv if args.workload == "kv" else tavern_ptp
    for index, first, last in chunks(args.cases, args.per_file):
        with open(os.path.join(args.out, f"test_{args.workload}_{index:05d}.tavern.yaml"), "w") as f:
            f.write(render(first, last))
    if args.workload == "ptp":
        with open(os.path.join(args.out, "placetopay_ext.py"), "w") as f:
            f.write(TAVERN_EXT)


if __name__ == "__main__":
    sys.exit(main())
