#!/usr/bin/env python3
"""Runs the CI jobs `paycheck init --merchant P` (or `paycheck init`) wrote, on this machine, up to and including the
step that runs the pack (or the suites).

    simulate_init_jobs.py FOLDER [--prebuilt BINARY | --source GIT-URL] [--backend DIR] [--only github|gitlab]

FOLDER is the folder init wrote (it holds ci/github-actions.yml, ci/gitlab-ci.yml, contract.yaml and packs/). For
each of the two files, a temporary workspace stands for the merchant's repository: FOLDER is copied into it under its
own name, and the backend's own commands are the one thing replaced: the contract and the program of --backend
(default: ReferenceBackends/python-shop, a standard-library Python backend) take the place of the scaffold's
contract.yaml, whose lines marked EDIT name a backend this machine does not have.

The jobs' shell steps then run in bash, in order (GitHub: every `run:` step of each job, `needs` first, with the
workflow's `env:`, GITHUB_PATH and RUNNER_TEMP; GitLab: `before_script` and `script` of each job, stage by stage, with
its `variables:`), each in the workspace, until the step that runs `paycheck run`. What this machine cannot do is
stood in for, and said: `uses:` actions are not run (the workspace is the checkout, the artifact stays where the
install job left it, the cache is empty), and no image is pulled (the steps run on this machine, which needs git,
curl, bash and, to build from source, Swift 6.1+).

Where paycheck comes from, the job's own install step decides, unedited:
  --prebuilt BINARY  a release made of BINARY (file://…/v$PAYCHECK_VERSION/paycheck-linux-x86_64 and its SHA-256) is
                     set as PAYCHECK_DOWNLOAD and PAYCHECK_SHA256: the job takes its download branch (seconds; .ci/run
                     passes the binary it installed, PAYCHECK_PREBUILT).
  --source GIT-URL   PAYCHECK_SOURCE is set to GIT-URL (a file:// URL of a local clone): the job takes its build branch
                     and builds PayCheck at PAYCHECK_COMMIT with scripts/install.sh (a release build: minutes).
  neither            the jobs run with the variables init wrote.
Exit 0 when every step up to the pack step succeeded in both files; else the failing step's output and exit 1.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def github_steps(workflow):
    """The `run:` steps of every job, `needs` first, as (job, name, script, env)."""
    jobs = workflow["jobs"]
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        needs = jobs[name].get("needs", [])
        for need in [needs] if isinstance(needs, str) else needs:
            visit(need)
        order.append(name)

    for name in jobs:
        visit(name)
    for name in order:
        job = jobs[name]
        print(f"  job {name}" + (f" (its image {job['container']} not pulled: on this machine)" if "container" in job else ""), flush=True)
        for step in job.get("steps", []):
            if "uses" in step:
                action = step["uses"].split("@")[0]
                stand_in = {"actions/checkout": "the workspace is the checkout", "actions/cache": "the cache starts empty"}
                print(f"    uses {step['uses']}: not run ({stand_in.get(action, 'artifacts stay in the workspace')})")
                continue
            env = {**workflow.get("env", {}), **job.get("env", {}), **step.get("env", {})}
            yield name, step.get("name", step["run"].splitlines()[0]), step["run"], env


GITLAB_KEYWORDS = {"stages", "variables", "default", "include", "workflow", "image", "services", "cache", "before_script", "after_script"}


def gitlab_steps(pipeline):
    """The `before_script` and `script` of every job, stage by stage, as (job, name, script, variables)."""
    stages = pipeline.get("stages", [".pre", "build", "test", "deploy", ".post"])
    jobs = {name: job for name, job in pipeline.items() if name not in GITLAB_KEYWORDS and not name.startswith(".")}
    for name in sorted(jobs, key=lambda job: stages.index(jobs[job].get("stage", "test"))):
        job = jobs[name]
        variables = {**pipeline.get("variables", {}), **job.get("variables", {})}
        image = str(job.get("image", "(the default)"))
        for key, value in variables.items():
            image = image.replace(f"${key}", str(value))
        print(f"  job {name} (its image {image} not pulled: on this machine)", flush=True)
        lines = job.get("before_script", []) + job.get("script", [])
        yield name, f"before_script and script, {len(lines)} entries", "\n".join(lines), variables


def run(ci, steps, workspace, overrides, log):
    """Runs the steps in bash until the one that runs `paycheck run`; True when every one succeeded."""
    path_file = workspace.parent / f"{ci}-path"
    path_file.touch()
    temp = workspace.parent / f"{ci}-runner-temp"
    temp.mkdir(exist_ok=True)
    for job, name, script, variables in steps:
        env = dict(os.environ)
        env.update({key: str(value) for key, value in variables.items()})
        env.update(overrides)
        env.update(GITHUB_PATH=str(path_file), GITHUB_WORKSPACE=str(workspace), RUNNER_TEMP=str(temp), CI_PROJECT_DIR=str(workspace), CI="true")
        added = [line for line in path_file.read_text().splitlines() if line]
        env["PATH"] = ":".join(list(reversed(added)) + [env.get("PATH", "/usr/bin:/bin")])
        if "${{" in script:
            print(f"    {job} › {name}: a GitHub expression in a run step cannot be simulated", file=sys.stderr)
            return False
        # GitHub runs `bash --noprofile --norc -eo pipefail`; GitLab stops at the first line that fails.
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=workspace, env=env, capture_output=True, text=True)
        log.write(f"== {ci} › {job} › {name}\n{result.stdout}{result.stderr}\n")
        if result.returncode != 0:
            print(f"    {job} › {name}: exit {result.returncode}\n{result.stdout[-3000:]}{result.stderr[-3000:]}", file=sys.stderr)
            return False
        last = (result.stdout.strip().splitlines() or [""])[-1]
        print(f"    {job} › {name}: ok" + (f" ({last.strip()})" if last else ""), flush=True)
        if "paycheck run" in script:
            return True
    print(f"  {ci}: no step runs 'paycheck run'", file=sys.stderr)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--prebuilt", type=Path, default=os.environ.get("PAYCHECK_PREBUILT") or None)
    where.add_argument("--source")
    parser.add_argument("--backend", type=Path, default=ROOT / "ReferenceBackends/python-shop")
    parser.add_argument("--only", choices=["github", "gitlab"])
    arguments = parser.parse_args()
    folder = arguments.folder.resolve()
    work = Path(tempfile.mkdtemp(prefix="paycheck-init-jobs-"))
    overrides = {}
    if arguments.source:
        overrides = {"PAYCHECK_SOURCE": arguments.source}
        print(f"paycheck: the jobs' build branch, PayCheck's source from {arguments.source}")
    elif arguments.prebuilt:
        files = yaml.safe_load((folder / "ci/github-actions.yml").read_text())
        version = files["env"]["PAYCHECK_VERSION"]
        release = work / "release" / f"v{version}"
        release.mkdir(parents=True)
        shutil.copy2(arguments.prebuilt, release / "paycheck-linux-x86_64")
        digest = hashlib.sha256((release / "paycheck-linux-x86_64").read_bytes()).hexdigest()
        overrides = {"PAYCHECK_DOWNLOAD": (work / "release").as_uri(), "PAYCHECK_SHA256": digest}
        print(f"paycheck: the jobs' download branch, a release made of {arguments.prebuilt} (sha256 {digest[:12]}…)")
    else:
        print("paycheck: the jobs' variables as init wrote them")
    systems = {"github": ("github-actions.yml", github_steps), "gitlab": ("gitlab-ci.yml", gitlab_steps)}
    failed = []
    with open(work / "steps.log", "w") as log:
        for ci, (file, steps) in systems.items():
            if arguments.only and ci != arguments.only:
                continue
            workspace = work / ci / "repository"
            shutil.copytree(folder, workspace / folder.name)
            for item in arguments.backend.iterdir():
                if item.is_file():
                    shutil.copy2(item, workspace / folder.name / item.name)
                elif item.is_dir() and item.name != "__pycache__":
                    shutil.copytree(item, workspace / folder.name / item.name, ignore=shutil.ignore_patterns("__pycache__"))
            print(f"{ci} ({folder.name}/ci/{file}) in {workspace}; the backend: {arguments.backend.name}", flush=True)
            pipeline = yaml.safe_load((workspace / folder.name / "ci" / file).read_text())
            if not run(ci, steps(pipeline), workspace, overrides, log):
                failed.append(ci)
    if failed:
        print(f"the jobs of {', '.join(failed)} did not reach the pack step; every step's output: {work / 'steps.log'}", file=sys.stderr)
        return 1
    print(f"both jobs ran to the pack step and passed; every step's output: {work / 'steps.log'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
