"""Cross-checks the JUnit report with junitparser: counts equal the runner's JSON report and console
summary, every testsuite has a name, (classname, name) pairs are unique, times parse as seconds."""
import json
import re
import sys

from junitparser import Error, Failure, JUnitXml, Skipped

junit_path, json_path, console_path = sys.argv[1:4]
xml = JUnitXml.fromfile(junit_path)
report = json.load(open(json_path, encoding="utf-8"))

counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
seen = set()
for suite in xml:
    assert suite.name and suite.name.strip(), "a testsuite has no name"
    for case in suite:
        key = (case.classname, case.name)
        assert key not in seen, f"duplicate testcase {key}"
        seen.add(key)
        float(case.time)
        counts["tests"] += 1
        kinds = {type(r) for r in case.result}
        if Failure in kinds:
            counts["failures"] += 1
        elif Error in kinds:
            counts["errors"] += 1
        elif Skipped in kinds:
            counts["skipped"] += 1

expected = report["counts"]
mine = {"tests": expected["total"], "failures": expected["failed"], "errors": expected["errors"], "skipped": expected["skipped"]}
assert counts == mine, f"junitparser counts {counts} differ from report.json {mine}"

console = open(console_path, encoding="utf-8").read()
match = re.search(r"(\d+) cases?: (\d+) passed, (\d+) failed, (\d+) errors?, (\d+) skipped", console)
assert match, "no summary line in the console output"
total, passed, failed, errors, skipped = map(int, match.groups())
assert (total, failed, errors, skipped) == (counts["tests"], counts["failures"], counts["errors"], counts["skipped"]), (
    f"console summary {match.group(0)!r} differs from junitparser {counts}")
print(f"junitparser: {counts['tests']} tests, {counts['failures']} failures, {counts['errors']} errors, "
      f"{counts['skipped']} skipped — matches report.json and the console summary")
