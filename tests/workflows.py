"""A small local runner for the CI templates (tests/test_ci_templates.py).

It runs one job of a GitHub Actions workflow or of a .gitlab-ci.yml the way the CI service
would, as far as one machine allows: the steps in order, in a clean workspace, each `run`
in bash with the environment the service gives it, and the files they leave on disk.

GitHub: `env` of workflow, job and step merged; `${{ secrets.X }}`, `${{ inputs.X }}`,
`${{ env.X }}`, `${{ github.workspace }}`, `${{ github.event_name }}`, `${{ runner.temp }}`,
`${{ steps.ID.outputs.X }}` and `${{ needs.JOB.outputs.X }}` substituted (anything else
is refused, so a template cannot rely on what this runner does not check); a step's `if:` with
success(), failure() and always(); jobs in the order of their `needs`, each job's `outputs`, and a
job's `if:` of the form `needs.JOB.outputs.X == 'value'` (run_github_workflow); CI, GITHUB_ACTIONS,
GITHUB_EVENT_NAME, GITHUB_WORKSPACE, a per-step GITHUB_STEP_SUMMARY (concatenated into the job
summary, as GitHub does), GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and RUNNER_TEMP. Three actions
are understood:
- actions/checkout: the `checkout` callback fills the workspace;
- actions/setup-python: the given Python (a fresh virtualenv) goes first on PATH;
- actions/upload-artifact: every listed path (globs allowed) must exist; the matches are kept.
Any other action is refused.

GitLab: top-level and job `variables`, `rules` of the form `$VAR == "value"`, `before_script`
and `script` in one shell with `set -eo pipefail`, `after_script` in another that always
runs, CI, GITLAB_CI, CI_PROJECT_DIR, CI_JOB_NAME, CI_PIPELINE_SOURCE, and `artifacts`
(`paths` and `reports: junit`, with the job's variables expanded as GitLab Runner does) checked
like GitHub's uploads.

Classroom 50 (check_classroom50_tests, run_classroom50_tests): an assignment's declarative tests
checked against the format Classroom 50's own sources state, and run the way its runner.py runs
them in the student's checkout.
"""

from __future__ import annotations

import dataclasses
import glob
import json
import os
import re
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Callable

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
PASSED_THROUGH = ("LANG", "LC_ALL", "TZ", "SSL_CERT_FILE")  # plus every PIP_* (this machine's registries)


@dataclasses.dataclass
class StepRun:
    name: str
    ran: bool
    returncode: int = 0
    output: str = ""
    seconds: float = 0.0


@dataclasses.dataclass
class JobRun:
    workspace: Path
    steps: list[StepRun]
    succeeded: bool
    artifacts: dict[str, list[Path]]  # artifact name -> files and folders that matched
    summary: str = ""  # GitHub: the job summary (every step's GITHUB_STEP_SUMMARY, in order)
    outputs: dict[str, str] = dataclasses.field(default_factory=dict)  # GitHub: the job's `outputs`

    def step(self, name: str) -> StepRun:
        return next(s for s in self.steps if s.name == name)

    def log(self) -> str:
        return "\n".join(f"--- {s.name} (rc={s.returncode}, ran={s.ran}, {s.seconds:.1f} s)\n{s.output}"
                         for s in self.steps)


def make_python(where: Path) -> Path:
    """A fresh virtualenv that sees this environment's installed packages (what `pip install` would
    fetch from the registry) but not this project's editable install. Returns its bin/ folder.

    Installing into it (`pip install -e .` of a checkout) never touches the project's own venv."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    site = Path(subprocess.run([str(where / "bin" / "python"), "-c",
                                "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # A plain path line: the project venv's own .pth files (its editable install) are not processed.
    (site / "paquetes_instalados.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    # The installed packages' console scripts (alembic, which nbgrader runs, jupyter...), as pip would have
    # installed them; not the project's own `autograder`: a workflow has to install the grader itself.
    installed = Path(sys.executable).parent
    for script in installed.iterdir():
        if (script.is_file() and os.access(script, os.X_OK) and not (where / "bin" / script.name).exists()
                and not script.name.startswith(("python", "pip", "activate", "autograder"))):
            (where / "bin" / script.name).symlink_to(script)
    return where / "bin"


def base_environment(home: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name in PASSED_THROUGH or name.startswith("PIP_")}
    env.update({"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": env.get("LANG", "C.UTF-8"),
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull})
    return env


def _bash(script: str, cwd: Path, env: dict[str, str], path: Path, shell: list[str], timeout: float) -> StepRun:
    path.write_text(script, encoding="utf-8")
    start = time.monotonic()
    done = subprocess.run([*shell, str(path)], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout)
    return StepRun("", True, done.returncode, done.stdout, time.monotonic() - start)


def _artifact_paths(lines: list[str], workspace: Path) -> tuple[list[Path], list[str]]:
    found, missing = [], []
    for pattern in lines:
        matches = sorted(glob.glob(str(workspace / pattern.strip())))
        if matches:
            found += [Path(m) for m in matches]
        else:
            missing.append(pattern.strip())
    return found, missing


# --- GitHub Actions ----------------------------------------------------------------------------

def load_github(path: Path) -> dict:
    workflow = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    if True in workflow:  # YAML 1.1 reads the key `on:` as the boolean True
        workflow["on"] = workflow.pop(True)
    return workflow


JOB_CONDITION = re.compile(r"^needs\.([\w-]+)\.outputs\.([\w-]+)\s*==\s*'([^']*)'$")


def run_github_workflow(workflow_path: Path, workspace: Path, *, event_name: str = "workflow_dispatch",
                        only: tuple[str, ...] | None = None, **job_options) -> dict[str, JobRun | None]:
    """Every job (or those in `only`) in the order of their `needs`; a job whose `if:` is false, or one of
    whose needed jobs failed or was skipped, is None. Each job gets a workspace of its own,
    `workspace/JOB`, as each GitHub job gets a runner of its own."""
    workflow = load_github(workflow_path)
    runs: dict[str, JobRun | None] = {}
    for job_id, job in workflow["jobs"].items():
        if only is not None and job_id not in only:
            continue
        needs = [job["needs"]] if isinstance(job.get("needs"), str) else list(job.get("needs", []))
        unknown = [name for name in needs if name not in runs]
        if unknown:
            raise ValueError(f"{workflow_path}: job {job_id} needs {unknown}, which did not run before it")
        if any(runs[name] is None or not runs[name].succeeded for name in needs):
            runs[job_id] = None
            continue
        if "if" in job:
            condition = EXPRESSION.sub(lambda m: m.group(1), str(job["if"])).strip()
            parsed = JOB_CONDITION.match(condition)
            if not parsed or parsed.group(1) not in needs:
                raise ValueError(f"{workflow_path}: job condition not supported by this runner: {condition}")
            if runs[parsed.group(1)].outputs.get(parsed.group(2), "") != parsed.group(3):
                runs[job_id] = None
                continue
        runs[job_id] = run_github_job(workflow_path, job_id, workspace / job_id, event_name=event_name,
                                      needs={name: runs[name].outputs for name in needs}, **job_options)
    return runs


def run_github_job(workflow_path: Path, job_id: str, workspace: Path, *, checkout: Callable[[Path], None],
                   python_bin: Path, python_version: str, secrets: dict | None = None, inputs: dict | None = None,
                   override_env: dict | None = None, timeout: float = 600, event_name: str = "workflow_dispatch",
                   needs: dict[str, dict[str, str]] | None = None) -> JobRun:
    """One job's run. A job with `needs` or an `if:` runs only through run_github_workflow."""
    workflow = load_github(workflow_path)
    job = workflow["jobs"][job_id]
    if needs is None and ("needs" in job or "if" in job):
        raise ValueError(f"{workflow_path}: job {job_id} has `needs` or `if`: run it with run_github_workflow")
    workspace.mkdir(parents=True, exist_ok=True)
    temp = workspace.parent / f"{workspace.name}-runner-temp"
    home = workspace.parent / f"{workspace.name}-home"
    temp.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    # `steps` and `needs` are kept flat: "ID.outputs.NAME" -> value.
    contexts = {"secrets": dict(secrets or {}), "inputs": dict(inputs or {}),
                "github": {"workspace": str(workspace), "event_name": event_name}, "runner": {"temp": str(temp)},
                "steps": {}, "needs": {f"{name}.outputs.{key}": value for name, outputs in (needs or {}).items()
                                       for key, value in outputs.items()}}
    defaults = {**workflow.get("defaults", {}).get("run", {}), **job.get("defaults", {}).get("run", {})}
    extra_path: list[str] = []
    exported: dict[str, str] = {}
    steps, artifacts, summaries, failed = [], {}, [], False

    def expand(value, env):
        def one(match):
            expression = match.group(1)
            head, _, name = expression.partition(".")
            if head == "env" and name in env:
                return env[name]
            if head in contexts and name in contexts[head]:
                return str(contexts[head][name])
            if head in ("secrets", "inputs", "steps", "needs"):
                return ""  # GitHub gives "" for a secret, input or output that is not set
            raise ValueError(f"{workflow_path}: expression not supported by this runner: ${{{{ {expression} }}}}")
        return EXPRESSION.sub(one, str(value))

    workflow_env = {k: str(v) for k, v in workflow.get("env", {}).items()}
    workflow_env.update(override_env or {})
    for number, step in enumerate(job["steps"], start=1):
        name = step.get("name") or step.get("uses") or step["run"].splitlines()[0]
        condition = str(step.get("if", "success()")).strip()
        condition = EXPRESSION.sub(lambda m: m.group(1), condition).strip()
        if condition not in ("success()", "failure()", "always()"):
            raise ValueError(f"{workflow_path}: condition not supported by this runner: {condition}")
        if (condition == "success()" and failed) or (condition == "failure()" and not failed):
            steps.append(StepRun(name, False))
            continue
        env = base_environment(home)
        env.update({"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace),
                    "GITHUB_EVENT_NAME": event_name, "RUNNER_TEMP": str(temp), "RUNNER_OS": "Linux"})
        scoped = {**workflow_env, **{k: str(v) for k, v in job.get("env", {}).items()}}
        scoped = {k: expand(v, scoped) for k, v in scoped.items()}
        scoped.update({k: expand(v, scoped) for k, v in step.get("env", {}).items()})
        env.update(scoped)
        env.update(exported)
        env["PATH"] = os.pathsep.join(extra_path[::-1] + [env["PATH"]])
        if "uses" in step:
            action = step["uses"].split("@")[0]
            inputs_ = {k: expand(v, env) for k, v in step.get("with", {}).items()}
            run = StepRun(name, True)
            if action == "actions/checkout":
                checkout(workspace)
            elif action == "actions/setup-python":
                assert str(inputs_.get("python-version")) == python_version, inputs_
                extra_path.append(str(python_bin))
            elif action == "actions/upload-artifact":
                found, missing = _artifact_paths(inputs_["path"].splitlines(), workspace)
                artifacts[inputs_["name"]] = found
                if missing:
                    run.returncode, run.output = 1, f"artifact paths with no match: {missing}"
            else:
                raise ValueError(f"{workflow_path}: action not supported by this runner: {step['uses']}")
        else:
            files = {}
            for variable in ("GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH"):
                files[variable] = temp / f"step{number}_{variable.lower()}"
                files[variable].write_text("", encoding="utf-8")
                env[variable] = str(files[variable])
            shell = step.get("shell", defaults.get("shell"))
            command = (["bash", "--noprofile", "--norc", "-eo", "pipefail"] if shell == "bash"
                       else ["bash", "-e"] if shell is None else None)
            if command is None:
                raise ValueError(f"{workflow_path}: shell not supported by this runner: {shell}")
            run = _bash(expand(step["run"], env), workspace, env, temp / f"step{number}.sh", command, timeout)
            run.name = name
            summaries.append(files["GITHUB_STEP_SUMMARY"].read_text(encoding="utf-8"))
            for line in files["GITHUB_ENV"].read_text(encoding="utf-8").splitlines():
                if "=" in line:
                    key, _, value = line.partition("=")
                    exported[key] = value
            extra_path += [line for line in files["GITHUB_PATH"].read_text(encoding="utf-8").splitlines() if line]
            if "id" in step:
                for line in files["GITHUB_OUTPUT"].read_text(encoding="utf-8").splitlines():
                    if "=" in line:
                        key, _, value = line.partition("=")
                        contexts["steps"][f"{step['id']}.outputs.{key}"] = value
        steps.append(run)
        if run.returncode != 0 and not step.get("continue-on-error"):
            failed = True
    outputs = {name: expand(value, {}) for name, value in job.get("outputs", {}).items()}
    return JobRun(workspace, steps, not failed, artifacts, "".join(summaries), outputs)


# --- GitLab CI ---------------------------------------------------------------------------------

RULE = re.compile(r'^\$(\w+)\s*==\s*"([^"]*)"$')


def run_gitlab_job(ci_path: Path, job_name: str, workspace: Path, *, checkout: Callable[[Path], None],
                   python_bin: Path, pipeline_variables: dict | None = None, pipeline_source: str = "push",
                   override_variables: dict | None = None, timeout: float = 600) -> JobRun | None:
    """The job's run, or None when its `rules` keep it out of this pipeline."""
    config = yaml.safe_load(Path(ci_path).read_text(encoding="utf-8"))
    job = config[job_name]
    pipeline_variables = dict(pipeline_variables or {})
    if "rules" in job:
        matched = False
        for rule in job["rules"]:
            parsed = RULE.match(str(rule.get("if", "")).strip())
            if not parsed or set(rule) - {"if"}:
                raise ValueError(f"{ci_path}: rule not supported by this runner: {rule}")
            if pipeline_variables.get(parsed.group(1)) == parsed.group(2):
                matched = True
                break
        if not matched:
            return None
    workspace.mkdir(parents=True, exist_ok=True)
    home = workspace.parent / f"{workspace.name}-home"
    temp = workspace.parent / f"{workspace.name}-runner-temp"
    home.mkdir(exist_ok=True)
    temp.mkdir(exist_ok=True)
    checkout(workspace)  # GitLab fetches the repository before the job's scripts
    env = base_environment(home)
    env["PATH"] = os.pathsep.join([str(python_bin), env["PATH"]])  # the job's image: python:X
    env.update({"CI": "true", "GITLAB_CI": "true", "CI_PROJECT_DIR": str(workspace), "CI_JOB_NAME": job_name,
                "CI_PIPELINE_SOURCE": pipeline_source})
    env.update({k: str(v) for k, v in config.get("variables", {}).items()})
    env.update({k: str(v) for k, v in job.get("variables", {}).items()})
    env.update(override_variables or {})
    env.update(pipeline_variables)
    steps = []
    main = "\n".join(["set -eo pipefail", *job.get("before_script", []), *job["script"]])
    run = _bash(main, workspace, env, temp / "script.sh", ["bash", "--noprofile", "--norc"], timeout)
    run.name = "script"
    steps.append(run)
    succeeded = run.returncode == 0
    if job.get("after_script"):
        after = _bash("\n".join(["set -eo pipefail", *job["after_script"]]), workspace, env, temp / "after.sh",
                      ["bash", "--noprofile", "--norc"], timeout)
        after.name = "after_script"
        steps.append(after)  # its failure does not change the job's status, as in GitLab
    artifacts = {}
    spec = job.get("artifacts", {})
    if spec and (succeeded or spec.get("when") in ("always", "on_failure")):
        # GitLab Runner expands the job's variables (never those a script exported) in artifact paths.
        def runner_expansion(path) -> str:
            return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: env.get(m.group(1) or m.group(2), ""), str(path))
        found, missing = _artifact_paths([runner_expansion(p) for p in spec.get("paths", [])], workspace)
        reports, missing_reports = _artifact_paths([runner_expansion(p) for p in spec.get("reports", {}).values()],
                                                   workspace)
        artifacts = {"paths": found, "reports": reports}
        if missing or missing_reports:
            steps.append(StepRun("artifacts", True, 1, f"artifact paths with no match: {missing + missing_reports}"))
            succeeded = False
    return JobRun(workspace, steps, succeeded, artifacts)


# --- Classroom 50 --------------------------------------------------------------------------------
#
# Its format for an assignment's declarative tests, as foundation50/classroom50 states it in
# schemas/tests-v1.schema.json (at 2f6cb93) and checks it in cli/gh-teacher/internal/assignment/tests.go
# (ValidateTests, at 2357926; the envelope `gh teacher assignment test set --tests FILE` accepts), and how
# cli/gh-teacher/skeleton/dotgithub/scripts/runner.py (at 0c49903) runs it. Written here from those
# sources, not copied: a change on their side is caught only when this table is checked again.

CLASSROOM50_TEST_FIELDS = {"name", "type", "setup", "run", "input", "input-file", "expected", "expected-file",
                           "comparison", "timeout", "exit-code", "points", "failure-details", "show-output",
                           "show-command"}
CLASSROOM50_IO_ONLY = ("input", "input-file", "expected", "expected-file", "comparison")
CLASSROOM50_RUNTIME_FIELDS = {"runs-on", "container", "python", "node", "java", "go", "rust", "apt"}
CLASSROOM50_DEFAULT_TIMEOUT = 10  # seconds, when a test's `timeout` is 0 or absent


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_classroom50_tests(document) -> list[str]:
    """What Classroom 50 would refuse in a tests.json envelope; [] when it is valid."""
    if not isinstance(document, dict):
        return ["not a JSON object (the tests.json envelope)"]
    errors = [f"unknown key {key!r}" for key in sorted(set(document) - {"schema", "tests", "defaults"})]
    if document.get("schema") != "classroom50/tests/v1":
        errors.append(f"schema is {document.get('schema')!r}, not 'classroom50/tests/v1'")
    tests = document.get("tests")
    if not isinstance(tests, list) or not tests:
        return errors + ["'tests' must be a non-empty list"]
    if len(tests) > 100:
        errors.append(f"{len(tests)} tests: at most 100")
    names = set()
    for number, test in enumerate(tests):
        where = f"tests[{number}]"
        if not isinstance(test, dict):
            errors.append(f"{where}: not an object")
            continue
        errors += [f"{where}: unknown key {key!r}" for key in sorted(set(test) - CLASSROOM50_TEST_FIELDS)]
        name, kind = test.get("name"), test.get("type")
        if not isinstance(name, str) or not name or len(name.encode("utf-8")) > 100:
            errors.append(f"{where}: name must be a non-empty string of at most 100 UTF-8 bytes")
        elif any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
            errors.append(f"{where}: name has a control character")
        elif name in names:
            errors.append(f"{where}: duplicate name {name!r}")
        names.add(name)
        if kind not in ("io", "run", "python"):
            errors.append(f"{where}: type {kind!r} is not io, run or python")
        if not isinstance(test.get("run"), str) or not test.get("run"):
            errors.append(f"{where}: run must be a non-empty string")
        for key in ("setup", "input", "input-file", "expected", "expected-file"):
            if key in test and not isinstance(test[key], str):
                errors.append(f"{where}: {key} must be a string")
        if "timeout" in test and not (_is_int(test["timeout"]) and 0 <= test["timeout"] <= 600):
            errors.append(f"{where}: timeout must be an integer from 0 to 600")
        if "points" in test and not (_is_int(test["points"]) and 0 <= test["points"] <= 1000):
            errors.append(f"{where}: points must be an integer from 0 to 1000")
        if "failure-details" in test and test["failure-details"] not in ("full", "actual-only", "none"):
            errors.append(f"{where}: failure-details must be full, actual-only or none")
        for key in ("show-output", "show-command"):
            if key in test and not isinstance(test[key], bool):
                errors.append(f"{where}: {key} must be a boolean")
        if "exit-code" in test and (kind != "run" or not (_is_int(test["exit-code"]) and 0 <= test["exit-code"] <= 255)):
            errors.append(f"{where}: exit-code is an integer from 0 to 255, on a run test only")
        if kind == "io":
            if test.get("comparison") not in ("included", "exact", "regex"):
                errors.append(f"{where}: an io test needs comparison included, exact or regex")
            if test.get("input") and test.get("input-file") or test.get("expected") and test.get("expected-file"):
                errors.append(f"{where}: a field and its -file form are mutually exclusive")
            if test.get("comparison") != "exact" and not (test.get("expected") or test.get("expected-file")):
                errors.append(f"{where}: an empty expected matches everything")
        else:
            errors += [f"{where}: {key} is for io tests only" for key in CLASSROOM50_IO_ONLY if key in test]
    defaults = document.get("defaults", {})
    if not isinstance(defaults, dict) or set(defaults) - {"failure-details", "show-output", "show-command"}:
        errors.append("defaults: only failure-details, show-output and show-command")
    return errors


def check_classroom50_runtime(document) -> list[str]:
    """What `gh teacher assignment add --runtime FILE` would refuse (its closed `runtime` block)."""
    if not isinstance(document, dict):
        return ["not a JSON object"]
    errors = [f"unknown key {key!r}" for key in sorted(set(document) - CLASSROOM50_RUNTIME_FIELDS)]
    for key in ("python", "node", "java", "go", "rust"):
        if key in document and not (isinstance(document[key], str)
                                    and re.fullmatch(r"[A-Za-z0-9._+-]{1,32}", document[key])):
            errors.append(f"{key}: a version like '3.11'")
    return errors


@dataclasses.dataclass
class Classroom50Outcome:
    name: str
    passed: bool
    points: int
    output: str


def run_classroom50_tests(tests_path: Path, workspace: Path, *, checkout: Callable[[Path], None],
                          python_bin: Path) -> list[Classroom50Outcome]:
    """Run an assignment's declarative tests as runner.py does in the student's checkout: in order, each
    `setup` and `run` in a shell of its own with the test's timeout (10 s when 0 or absent), a failed setup
    failing its test; a run test passes on its exit code (`exit-code`, default 0), a python test when
    pytest passes. (runner.py also appends `--json-report` to split a python test's points among its
    cases and falls back to the exit code without it; every test here is worth 0 points, so the split
    changes nothing.) io tests are refused: no template uses them."""
    document = json.loads(Path(tests_path).read_text(encoding="utf-8"))
    errors = check_classroom50_tests(document)
    if errors:
        raise ValueError(f"{tests_path}: not valid for Classroom 50: {errors}")
    workspace.mkdir(parents=True, exist_ok=True)
    home = workspace.parent / f"{workspace.name}-home"
    home.mkdir(exist_ok=True)
    checkout(workspace)
    env = base_environment(home)
    env["PATH"] = os.pathsep.join([str(python_bin), env["PATH"]])  # the runtime's actions/setup-python
    env.update({"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace)})
    outcomes = []
    for test in document["tests"]:
        if test["type"] == "io":
            raise ValueError(f"{tests_path}: io tests are not supported by this runner")
        timeout = test.get("timeout") or CLASSROOM50_DEFAULT_TIMEOUT
        output, passed = "", False
        for phase in ("setup", "run"):
            if not test.get(phase):
                continue
            try:
                done = subprocess.run(test[phase], shell=True, cwd=workspace, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                output += f"{phase} timed out after {timeout}s"
                passed = False
                break
            output += done.stdout
            wanted = test.get("exit-code", 0) if phase == "run" else 0
            passed = done.returncode == wanted
            if not passed:
                break
        outcomes.append(Classroom50Outcome(test["name"], passed, test.get("points", 0), output))
    return outcomes
