"""Validates every YAML file under a folder against Suites/paycheck.schema.json (or the schema named by a second
argument), so the editor schema stays in step with the suites and packs PayCheck ships."""
import json
import pathlib
import sys

import jsonschema
import yaml

root = pathlib.Path(sys.argv[1])
schema_file = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else root / "paycheck.schema.json"
schema = json.loads(schema_file.read_text(encoding="utf-8"))
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
print(f"{len(files)} suite files valid against {schema_file.name}")
