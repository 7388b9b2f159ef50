"""nbgrader's own tools beside this grader: the exchange, nbgrader's configuration, its autograde.

Every nbgrader command here is nbgrader's real one, in a subprocess, with a local exchange in a
temporary folder (c.Exchange.root) and Jupyter's configuration and data folders there too, so
that nothing system-wide is read or written. One semester is run once per module (`semester`):
release, nbgrader's release_assignment, a student's fetch_assignment and submit, collect, grade,
feedback, release_feedback and the student's fetch_feedback; each test reads what it left.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from autograder import samples
from autograder.classroom.gradebook import create_gradebook, open_gradebook
from autograder.classroom.nbgrader_autograde import main as autograde_main
from autograder.classroom.pipeline import grade_class
from autograder.cli import main
from autograder.course import CourseError
from autograder.notebook.lesson import grade_cell_id
from autograder.release import release_assignment

NBGRADER = str(Path(sys.executable).parent / "nbgrader")
TWO_DAYS_LATE = "2027-03-03 10:00:00.000000 UTC"  # bpe_bytes is due 22:59 UTC on 1 March 2027


@dataclasses.dataclass
class Semester:
    root: Path
    course_dir: Path
    exchange: Path
    student_dir: Path  # where the student `ana` works
    env: dict
    log: dict  # nbgrader command -> its CompletedProcess

    def nbgrader(self, *args: str, cwd: Path, student: str = "", course_id: str = "") -> subprocess.CompletedProcess:
        argv = [NBGRADER, *args, f"--Exchange.root={self.exchange}"]
        argv += [f"--course={course_id}"] * bool(course_id) + [f"--student={student}"] * bool(student)
        done = subprocess.run(argv, cwd=cwd, env=self.env, capture_output=True, text=True, timeout=300)
        self.log[args[0]] = done
        return done


def gradebook_of(course, course_dir: Path, student: str, assignment) -> tuple[dict, float | None]:
    """({grade cell: auto score}, late penalty) as nbgrader stores them."""
    with open_gradebook(course, course_dir) as book:
        notebook = book.find_submission_notebook(assignment.notebook, assignment.id, student)
        return {g.name: g.auto_score for g in notebook.grades}, notebook.late_submission_penalty


@pytest.fixture(scope="module")
def semester(tmp_path_factory, course, fast_bpe_bytes):
    assignment = fast_bpe_bytes
    root = tmp_path_factory.mktemp("semester")
    exchange = root / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)  # nbgrader's exchange is writable by everyone
    # nbgrader's commands import jsonschema, which compiles an RFC 3987 grammar when it can (seconds on a
    # busy machine, per command); they skip it here as the `autograder` command does (cli.py)
    no_grammar = root / "no-uri-grammar"
    no_grammar.mkdir()
    (no_grammar / "rfc3987_syntax.py").write_text("raise ImportError('not in these tests')\n")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / "jupyter-config"),
           "JUPYTER_DATA_DIR": str(root / "jupyter-data"), "PYTHONPATH": str(no_grammar),
           "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")}
    run = Semester(root, root / "course", exchange, root / "ana", env, {})
    release_assignment(course, assignment, run.course_dir)
    # The instructor's side runs in the course directory with no --course: its nbgrader_config.py says it.
    assert run.nbgrader("release_assignment", assignment.id, cwd=run.course_dir).returncode == 0
    run.student_dir.mkdir()
    assert run.nbgrader("fetch_assignment", assignment.id, cwd=run.student_dir, course_id=course.id).returncode == 0
    samples.build_notebook(assignment, samples.correct("bpe_bytes"),
                           run.student_dir / assignment.id / f"{assignment.notebook}.ipynb")
    assert run.nbgrader("submit", assignment.id, cwd=run.student_dir, course_id=course.id,
                        student="ana").returncode == 0
    assert run.nbgrader("collect", assignment.id, cwd=run.course_dir).returncode == 0
    # Beside her, one student from an LMS download (no exchange secret) and one late with a notebook
    # that, run anywhere but in the sandbox, leaves a file where only the instructor can write.
    lms = run.course_dir / "submitted" / "lucia" / assignment.id
    lms.mkdir(parents=True)
    samples.build_notebook(assignment, samples.stub(assignment), lms / f"{assignment.notebook}.ipynb")
    late = run.course_dir / "submitted" / "bruno" / assignment.id
    late.mkdir(parents=True)
    notebook_path = samples.build_notebook(assignment, samples.correct("bpe_bytes"),
                                           late / f"{assignment.notebook}.ipynb")
    notebook = nbformat.read(notebook_path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(f"open({str(root / 'escaped')!r}, 'w').write('fuera')"))
    nbformat.write(notebook, notebook_path)
    (late / "timestamp.txt").write_text(TWO_DAYS_LATE + "\n")
    grade_class(course, assignment, run.course_dir, jobs=2)
    assert main(["feedback", assignment.id, "--course-dir", str(run.course_dir)]) == 0
    run.nbgrader("release_feedback", assignment.id, cwd=run.course_dir)
    run.nbgrader("fetch_feedback", assignment.id, cwd=run.student_dir, course_id=course.id, student="ana")
    return run


# --- 1. feedback nbgrader can release ------------------------------------------------------------

def test_the_student_fetches_her_spanish_page_through_nbgraders_exchange(semester, bpe_bytes):
    released = semester.log["release_feedback"]
    assert released.returncode == 0, released.stderr
    fetched = semester.log["fetch_feedback"]
    assert fetched.returncode == 0, fetched.stderr
    pages = list((semester.student_dir / bpe_bytes.id / "feedback").glob(f"*/{bpe_bytes.notebook}.html"))
    assert len(pages) == 1, fetched.stderr
    ours = semester.course_dir / "feedback" / "ana" / bpe_bytes.id / f"{bpe_bytes.notebook}.html"
    assert pages[0].read_bytes() == ours.read_bytes()
    assert 'lang="es"' in pages[0].read_text(encoding="utf-8")


def test_a_submission_without_an_exchange_secret_does_not_stop_the_others_feedback(semester):
    # ana (exchange), lucia (LMS, no secret) and bruno (no secret): one released page each
    assert len(list((semester.exchange / "tokens-y-embeddings" / "feedback").glob("*.html"))) == 3
    lucia = semester.course_dir / "feedback" / "lucia" / "bpe_bytes"
    secret = (lucia / "submission_secret.txt").read_text()
    assert len(secret) == 128
    assert (lucia / "timestamp.txt").read_text() == ""
    assert main(["feedback", "bpe_bytes", "--course-dir", str(semester.course_dir)]) == 0
    assert (lucia / "submission_secret.txt").read_text() == secret  # the same page name at every release


# --- 4. nbgrader's configuration -----------------------------------------------------------------

def test_nbgraders_commands_run_in_the_released_course_directory_without_a_course_flag(semester):
    for command in ("release_assignment", "collect", "release_feedback"):
        done = semester.log[command]
        assert done.returncode == 0 and "No course id" not in done.stderr, (command, done.stderr)
    assert (semester.exchange / "tokens-y-embeddings" / "outbound" / "bpe_bytes").is_dir()


def test_commands_run_inside_a_course_directory_work_in_it(tmp_path, monkeypatch, capsys):
    from nbgrader.api import Gradebook

    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])  # nbgrader's alembic
    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as book:
        book.add_student("ana", first_name="Ana")
    monkeypatch.chdir(tmp_path)
    assert main(["export"]) == 0
    assert "ana" in (tmp_path / "exports" / "grades.csv").read_text(encoding="utf-8")


def test_a_gradebook_we_create_is_the_one_nbgrader_creates_without_its_alembic_subprocess(tmp_path, monkeypatch):
    """nbgrader stamps a new gradebook with the revision `alembic heads` prints, in a subprocess that
    costs seconds; create_gradebook reads it in-process. Same tables, same revision, and nbgrader then
    opens ours without asking alembic."""
    import sqlalchemy
    from nbgrader import api

    monkeypatch.setenv("PATH", str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])  # nbgrader's alembic
    theirs, ours = f"sqlite:///{tmp_path / 'theirs.db'}", f"sqlite:///{tmp_path / 'ours.db'}"
    with api.Gradebook(theirs):
        pass
    create_gradebook(ours)

    def schema(url: str) -> tuple[list, list]:
        engine = sqlalchemy.create_engine(url)
        with engine.connect() as connection:
            tables = connection.execute(sqlalchemy.text("SELECT type, name, sql FROM sqlite_master ORDER BY name"))
            revision = connection.execute(sqlalchemy.text("SELECT version_num FROM alembic_version"))
            found = [tuple(row) for row in tables], [tuple(row) for row in revision]
        engine.dispose()
        return found

    assert schema(ours) == schema(theirs)
    assert len(schema(ours)[0]) > 10
    monkeypatch.setattr(api, "get_alembic_version", lambda: pytest.fail("nbgrader ran alembic on our gradebook"))
    with api.Gradebook(ours) as book:
        book.add_student("ana")
    create_gradebook(ours)  # a gradebook with tables is left alone
    with api.Gradebook(ours) as book:
        assert [s.id for s in book.students] == ["ana"]


def test_two_commands_creating_one_gradebook_at_once_both_succeed(tmp_path, monkeypatch):
    """Each found the database empty; the other one created it first."""
    import sqlalchemy
    from nbgrader import api

    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    create_gradebook(url)  # the command that got there first
    monkeypatch.setattr(sqlalchemy, "inspect", lambda engine: SimpleNamespace(get_table_names=lambda: []))
    create_gradebook(url)  # the one that looked before it did
    monkeypatch.undo()
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as connection:
        stamps = connection.execute(sqlalchemy.text("SELECT version_num FROM alembic_version")).all()
    engine.dispose()
    assert len(stamps) == 1
    monkeypatch.setattr(api, "get_alembic_version", lambda: pytest.fail("nbgrader ran alembic on our gradebook"))
    with api.Gradebook(url) as book:
        book.add_student("ana")
        assert [s.id for s in book.students] == ["ana"]


def test_the_course_directory_comes_from_the_option_then_the_current_directory_then_course_yml(course, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "nbgrader_config.py").write_text(f"c = get_config()\nc.CourseDirectory.root = 'elsewhere'\n")
    assert course.course_directory(Path("mine"), cwd=tmp_path) == Path("mine").resolve()
    assert course.course_directory(None, cwd=tmp_path) == tmp_path / "elsewhere"
    assert course.course_directory(None, cwd=tmp_path / "elsewhere") == course.course_dir.resolve()


def test_nbgraders_db_url_is_the_gradebook_grades_go_to(tmp_path, course, fast_bpe_bytes):
    course_dir, shared = tmp_path / "course", tmp_path / "shared" / "gradebook.db"
    shared.parent.mkdir()
    course_dir.mkdir()
    (course_dir / "nbgrader_config.py").write_text(f"c = get_config()\nc.CourseDirectory.db_url = "
                                                   f"'sqlite:///{shared}'\n")
    release_assignment(course, fast_bpe_bytes, course_dir)
    folder = course_dir / "submitted" / "dani" / fast_bpe_bytes.id
    folder.mkdir(parents=True)
    samples.build_notebook(fast_bpe_bytes, samples.stub(fast_bpe_bytes), folder / "bpe_bytes.ipynb")
    grade_class(course, fast_bpe_bytes, course_dir, jobs=1)
    assert not (course_dir / "gradebook.db").exists()
    scores, _ = gradebook_of(course, course_dir, "dani", fast_bpe_bytes)
    assert set(scores) == {grade_cell_id(f) for f in fast_bpe_bytes.points}
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{shared}") as book:
        assert book.find_submission(fast_bpe_bytes.id, "dani").score == 0
        book.find_grade("checks_merge", "bpe_bytes", fast_bpe_bytes.id, "dani").manual_score = 7.0  # formgrader's
        book.db.commit()
    # feedback, report and export read that gradebook too, manual grades included: there is none in course/
    assert main(["feedback", fast_bpe_bytes.id, "--course-dir", str(course_dir)]) == 0
    page = (course_dir / "feedback" / "dani" / fast_bpe_bytes.id / "bpe_bytes.html").read_text(encoding="utf-8")
    assert "revisada por el profesor" in page
    assert main(["export", "--course-dir", str(course_dir)]) == 0
    assert "\ndani,,,,7,7," in (course_dir / "exports" / "grades.csv").read_text(encoding="utf-8").replace("\r", "")
    assert not (course_dir / "gradebook.db").exists()


def test_two_different_gradebooks_in_course_yml_and_nbgrader_config_are_refused(tmp_path, course):
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\nc.CourseDirectory.db_url = 'sqlite:///a.db'\n")
    assert course.gradebook_url(tmp_path) == f"sqlite:///{tmp_path / 'a.db'}"  # relative to the course directory
    with pytest.raises(CourseError, match="one gradebook"):
        dataclasses.replace(course, gradebook="sqlite:////srv/b.db").gradebook_url(tmp_path)


# --- 5. nbgrader's autograde (formgrader's Autograde button) ---------------------------------------

def test_nbgrader_autograde_grades_in_the_sandbox_with_the_graders_scores_and_penalty(semester, course, bpe_bytes):
    before = gradebook_of(course, semester.course_dir, "bruno", bpe_bytes)
    assert before[1] > 0 and sum(before[0].values()) == bpe_bytes.max_score  # hidden suite, late penalty
    done = semester.nbgrader("autograde", bpe_bytes.id, "--force", cwd=semester.course_dir, student="bruno")
    assert done.returncode == 0, done.stderr
    assert not (semester.root / "escaped").exists(), "nbgrader ran the student's notebook outside the sandbox"
    assert gradebook_of(course, semester.course_dir, "bruno", bpe_bytes) == before
    graded = nbformat.read(semester.course_dir / "autograded" / "bruno" / bpe_bytes.id / "bpe_bytes.ipynb", 4)
    assert "Corrección automática de merge" in str(graded.cells)


def test_nbgraders_autograde_refuses_to_grade_into_a_gradebook_that_is_not_the_graders(semester, course, bpe_bytes,
                                                                                        capsys):
    before = gradebook_of(course, semester.course_dir, "ana", bpe_bytes)
    code = autograde_main([str(course.path), str(semester.course_dir), bpe_bytes.id, "ana",
                           "--db-url", "sqlite:////srv/elsewhere.db"])
    assert code == 2 and "one gradebook" in capsys.readouterr().err
    assert gradebook_of(course, semester.course_dir, "ana", bpe_bytes) == before


def test_formgraders_autograde_button_grades_the_same_way(semester, course, bpe_bytes, monkeypatch):
    """The button calls NbGraderAPI.autograde with the configuration formgrader loads."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.apps.baseapp import NbGrader
    from nbgrader.coursedir import CourseDirectory

    before = gradebook_of(course, semester.course_dir, "bruno", bpe_bytes)
    for name, value in semester.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(semester.course_dir)
    app = NbGrader()
    app.load_config_file()  # as nbgrader's FormgradeExtension.load_config
    api = NbGraderAPI(CourseDirectory(config=app.config), config=app.config)
    outcome = api.autograde(bpe_bytes.id, "bruno")
    assert outcome["success"], outcome.get("log")
    assert not (semester.root / "escaped").exists(), "formgrader ran the student's notebook outside the sandbox"
    assert gradebook_of(course, semester.course_dir, "bruno", bpe_bytes) == before
