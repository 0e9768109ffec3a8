"""Validates every YAML file under a folder against Suites/paycheck.schema.json (or the schema named by a second
argument), so the editor schema stays in step with the suites and packs PayCheck ships.

With --expect-invalid LIST (a file naming one suite per line), the suites listed must be flagged by the schema and
the others must pass it: Tests/CommonMistakes, the mistakes a schema can express."""
import json
import pathlib
import sys

import jsonschema
import yaml

arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
expect_file = sys.argv[sys.argv.index("--expect-invalid") + 1] if "--expect-invalid" in sys.argv else None
if expect_file in arguments:
    arguments.remove(expect_file)
root = pathlib.Path(arguments[0])
schema_file = pathlib.Path(arguments[1]) if len(arguments) > 1 else root / "paycheck.schema.json"
schema = json.loads(schema_file.read_text(encoding="utf-8"))
validator = jsonschema.Draft7Validator(schema)
files = sorted(list(root.rglob("*.yaml")) + list(root.rglob("*.yml")))

if expect_file:
    expected = {line.strip() for line in pathlib.Path(expect_file).read_text(encoding="utf-8").splitlines() if line.strip()}
    wrong = []
    for path in files:
        flagged = any(True for _ in validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
        if flagged != (path.name in expected):
            wrong.append(f"{path}: {'flagged' if flagged else 'not flagged'} by the schema, expected the opposite")
    if wrong:
        sys.exit("\n".join(wrong))
    print(f"{len(expected)} of {len(files)} common mistakes flagged by {schema_file.name}, as listed")
    sys.exit(0)

problems = 0
for path in files:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    for error in validator.iter_errors(document):
        problems += 1
        location = "/".join(str(p) for p in error.absolute_path)
        print(f"{path}: {location}: {error.message[:300]}")
if problems:
    sys.exit(f"{problems} schema problems in {len(files)} files")
print(f"{len(files)} suite files valid against {schema_file.name}")
