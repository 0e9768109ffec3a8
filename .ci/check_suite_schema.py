"""Validates every YAML file under a folder against Suites/paycheck.schema.json, so the editor
schema stays in step with the suites PayCheck ships."""
import json
import pathlib
import sys

import jsonschema
import yaml

root = pathlib.Path(sys.argv[1])
schema = json.loads((root / "paycheck.schema.json").read_text(encoding="utf-8"))
validator = jsonschema.Draft7Validator(schema)
files = sorted(list(root.rglob("*.yaml")) + list(root.rglob("*.yml")))
problems = 0
for path in files:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    for error in validator.iter_errors(document):
        problems += 1
        location = "/".join(str(p) for p in error.absolute_path)
        print(f"{path}: {location}: {error.message[:300]}")
if problems:
    sys.exit(f"{problems} schema problems in {len(files)} files")
print(f"{len(files)} suite files valid against paycheck.schema.json")
