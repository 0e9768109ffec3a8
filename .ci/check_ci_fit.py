"""Checks the CI-fit artifacts of a run: the merge of 3 shards equals the whole run (counts, every case's
verdict in order, coverage), and the failure reports of the failing fixture (GitHub annotations, GitLab code
quality, JUnit with file and line) point at the failed expectation."""
import json
import re
import sys

from junitparser import JUnitXml

mode = sys.argv[1]

if mode == "merge":
    whole = json.load(open(sys.argv[2], encoding="utf-8"))
    merged = json.load(open(sys.argv[3], encoding="utf-8"))
    junit = JUnitXml.fromfile(sys.argv[4])

    def cases(report):
        return [(s["file"], c["name"], c["verdict"]) for s in report["suites"] for c in s["cases"]]

    assert merged["counts"] == whole["counts"], f"merged counts {merged['counts']} != whole run {whole['counts']}"
    assert cases(merged) == cases(whole), "the merged cases or verdicts differ from the whole run"
    assert merged["coverage"] == whole["coverage"], "the merged coverage differs from the whole run"
    assert merged["exitCode"] == whole["exitCode"] and merged["run"]["mergedFrom"] == 3
    tests = sum(1 for suite in junit for _ in suite)
    assert tests == whole["counts"]["total"], f"merged JUnit has {tests} test cases, the run {whole['counts']['total']}"
    print(f"merge of 3 shards = the whole run: {whole['counts']['total']} cases, same verdicts, order and coverage; "
          f"junitparser reads {tests} test cases")
elif mode == "failures":
    console, quality_path, junit_path, fixture = sys.argv[2:6]
    lines = [line for line in open(console, encoding="utf-8") if line.startswith("::error ")]
    assert len(lines) == 1, f"expected one ::error line, got {lines}"
    match = re.match(r"::error file=([^,]+),line=(\d+),col=(\d+),title=([^:]+)::(.+)", lines[0])
    assert match, lines[0]
    assert match.group(1) == fixture and match.group(2) == "10", lines[0]
    quality = json.load(open(quality_path, encoding="utf-8"))
    assert len(quality) == 1 and quality[0]["location"] == {"path": fixture, "lines": {"begin": 10}}, quality
    junit = JUnitXml.fromfile(junit_path)
    located = [(case.name, case._elem.get("file"), case._elem.get("line")) for suite in junit for case in suite]
    assert all(file == fixture for _, file, _ in located), located
    assert sorted(line for _, _, line in located) == ["10", "11"], located  # the failed expectation; the passing case itself
    print(f"one ::error at {fixture}:10, one code-quality issue there, JUnit cases carry file and line")
else:
    sys.exit(f"unknown mode {mode}")
