"""A small local runner for the CI templates (tests/test_ci_templates.py).

It runs one job of a GitHub Actions workflow or of a .gitlab-ci.yml the way the CI service
would, as far as one machine allows: the steps in order, in a clean workspace, each `run`
in bash with the environment the service gives it, and the files they leave on disk.

GitHub: `env` of workflow, job and step merged; `${{ secrets.X }}`, `${{ inputs.X }}`,
`${{ env.X }}`, `${{ github.workspace }}` and `${{ runner.temp }}` substituted (anything else
is refused, so a template cannot rely on what this runner does not check); `if:` with
success(), failure() and always(); CI, GITHUB_ACTIONS, GITHUB_WORKSPACE, a per-step
GITHUB_STEP_SUMMARY (concatenated into the job summary, as GitHub does), GITHUB_OUTPUT,
GITHUB_ENV, GITHUB_PATH and RUNNER_TEMP. Three actions are understood:
- actions/checkout: the `checkout` callback fills the workspace;
- actions/setup-python: the given Python (a fresh virtualenv) goes first on PATH;
- actions/upload-artifact: every listed path (globs allowed) must exist; the matches are kept.
Any other action is refused.

GitLab: top-level and job `variables`, `rules` of the form `$VAR == "value"`, `before_script`
and `script` in one shell with `set -eo pipefail`, `after_script` in another that always
runs, CI, GITLAB_CI, CI_PROJECT_DIR, CI_JOB_NAME, CI_PIPELINE_SOURCE, and `artifacts`
(`paths` and `reports: junit`) checked like GitHub's uploads.
"""

from __future__ import annotations

import dataclasses
import glob
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


def run_github_job(workflow_path: Path, job_id: str, workspace: Path, *, checkout: Callable[[Path], None],
                   python_bin: Path, python_version: str, secrets: dict | None = None, inputs: dict | None = None,
                   override_env: dict | None = None, timeout: float = 600) -> JobRun:
    workflow = load_github(workflow_path)
    job = workflow["jobs"][job_id]
    workspace.mkdir(parents=True, exist_ok=True)
    temp = workspace.parent / f"{workspace.name}-runner-temp"
    home = workspace.parent / f"{workspace.name}-home"
    temp.mkdir(exist_ok=True)
    home.mkdir(exist_ok=True)
    contexts = {"secrets": dict(secrets or {}), "inputs": dict(inputs or {}),
                "github": {"workspace": str(workspace)}, "runner": {"temp": str(temp)}}
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
            if head in ("secrets", "inputs"):
                return ""  # GitHub gives "" for a secret or input that is not set
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
                    "RUNNER_TEMP": str(temp), "RUNNER_OS": "Linux"})
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
        steps.append(run)
        if run.returncode != 0 and not step.get("continue-on-error"):
            failed = True
    return JobRun(workspace, steps, not failed, artifacts, "".join(summaries))


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
        found, missing = _artifact_paths(list(spec.get("paths", [])), workspace)
        reports, missing_reports = _artifact_paths([str(p) for p in spec.get("reports", {}).values()], workspace)
        artifacts = {"paths": found, "reports": reports}
        if missing or missing_reports:
            steps.append(StepRun("artifacts", True, 1, f"artifact paths with no match: {missing + missing_reports}"))
            succeeded = False
    return JobRun(workspace, steps, succeeded, artifacts)
