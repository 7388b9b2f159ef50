"""The `autograder` command (instructor- and CI-facing, in English).

    autograder release ASSIGNMENT | --all        student versions through nbgrader
    autograder release ... --ci PROVIDER         ... plus CI templates (github, gitlab, classroom50): checks for
                                                 students' repositories,
                                                 a grading workflow for the staff repository (docs/ci.md)
    autograder grade ASSIGNMENT                  the whole class: nbgrader's submitted/ tree -> gradebook
    autograder grade ASSIGNMENT --lms DOWNLOAD   import an LMS folder or zip into submitted/, then as above
    autograder grade ASSIGNMENT SUBMISSION...    grade notebooks, .py modules or folders -> results.json
    autograder gradescope ASSIGNMENT             the autograder zip to upload to Gradescope
    autograder feedback ASSIGNMENT               one Spanish HTML feedback page per student in feedback/
    autograder report ASSIGNMENT                 the instructor's HTML report in reports/
    autograder export [--format canvas|moodle]   grades as CSV: our table, or the file Canvas or Moodle imports
    autograder demo                              release, grade sample submissions, show the table
    autograder check-course                      validate course.yml
    autograder audit ASSIGNMENT | --all          how good each hidden suite is: correct corpus, catalogue,
                                                 mutmut's mutants, a lookup table of the lesson's examples

CI mode (`grade --ci`; on by default when CI=true|1, GITHUB_ACTIONS=true or GITLAB_CI=true,
off with --no-ci): stdout gets a short Spanish summary per submission instead of the full
report (the sandbox banner stays on stderr); results.json is written as always, plus a JUnit
XML report (--junit, default junit.xml next to the results) and a Markdown job summary
appended to --summary (default $GITHUB_STEP_SUMMARY when set, kept under GitHub's 1 MiB);
under GitHub Actions, ::error/::notice annotations too. --junit and --summary also work
outside CI mode.

Exit codes:
    0  graded, whatever the scores (a broken file in a batch is just a zero)
    1  the one submission named could not be graded at all (unreadable, nothing to grade),
       or a final score is below --fail-under
    2  bad usage, invalid course.yml or input (unknown assignment, a submission path that does not
       exist, unreadable LMS download...),
       or a machine where the sandbox cannot protect the grader
    3  the grader is broken: the sandbox, a hidden suite or the self-check broke, or the grader
       failed on every submission (never the student's fault); nothing graded can be trusted
    4  some submissions hit a grader error (named on stderr; their students are told it is not
       their fault); every other submission was graded and every output written

This module only parses arguments, calls a stage (release.py, grading/loose.py,
classroom/pipeline.py, classroom/publish.py, packaging/, audit/, demo.py) and maps what
comes back to the exit codes above. It runs past 400 lines because it is also the
command's manual: this text, and every option's help in `_parser`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import sys
import threading
from pathlib import Path

from autograder.course import DEFAULT_COURSE_FILE, CourseError, load_course
from autograder.classroom.layout import CourseLayout
from autograder.files import write_atomically
from autograder.render.grades_csv import FORMATS as EXPORT_FORMATS

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_GRADER_ERROR, EXIT_SOME_UNGRADED = 0, 1, 2, 3, 4


DESCRIPTION = """Release the course's assignments, grade students' notebooks in a sandbox against
hidden test suites, and publish grades, feedback pages and reports.

Start with `autograder demo`; `autograder COMMAND --help` shows each command's examples."""

GRADE_EPILOG = """examples:
  autograder grade bpe_bytes                        the whole class in the course directory
  autograder grade bpe_bytes --lms descarga.zip     import an LMS download first
  autograder grade bpe_bytes --cluster tcp://head:8786   the class on a Dask cluster
  autograder grade bpe_bytes entrega.ipynb          one file -> ./results.json, feedback printed
  autograder grade bpe_bytes a.ipynb b.py carpeta/  several -> ./results/NAME.json
  autograder grade bpe_bytes entrega.ipynb --visible   only the visible checks of the release

exit codes:
  0  graded, whatever the scores
  1  the one submission named could not be graded, or a score is below --fail-under
  2  bad usage: unknown assignment, a file that does not exist, invalid course.yml...
  3  the grader is broken (nothing graded can be trusted)
  4  some submissions hit a grader error; every other one was graded"""

EPILOGS = {
    "release": "examples:\n  autograder release bpe_bytes\n  autograder release --all --ci github\n\n"
               "exit codes: 0 released, 2 bad usage or course.yml, 3 nbgrader failed",
    "gradescope": "example:\n  autograder gradescope bpe_bytes --output bpe_bytes.zip\n\n"
                  "exit codes: 0 written, 2 bad usage or course.yml",
    "feedback": "example:\n  autograder feedback bpe_bytes   (after `autograder grade bpe_bytes`)\n\n"
                "exit codes: 0 written, 2 nothing graded yet, bad usage or course.yml",
    "report": "example:\n  autograder report bpe_bytes     (after `autograder grade bpe_bytes`)\n\n"
              "exit codes: 0 written, 2 nothing graded yet, bad usage or course.yml",
    "export": "examples:\n  autograder export --output notas.csv\n"
              "  autograder export --format canvas --canvas-id bpe_bytes=48213\n"
              "  autograder export bpe_bytes --format moodle\n\n"
              "exit codes: 0 written, 2 nothing graded yet, an output it did not write, bad usage or course.yml",
    "similarity": "examples:\n  autograder similarity bpe_bytes\n"
                  "  autograder similarity bpe_bytes --against ../curso-2025 --output pares.json\n\n"
                  "then `autograder report bpe_bytes` shows the flagged pairs side by side\n\n"
                  "exit codes: 0 written (flagged pairs or not), 2 no submissions, bad usage or course.yml",
    "demo": "example:\n  autograder demo --dir /tmp/demo --jobs 2\n\n"
            "exit codes: 0 done, 2 bad usage or a machine where the sandbox cannot run, 3 grader error",
    "check-course": "example:\n  autograder --course otro/course.yml check-course\n\n"
                    "exit codes: 0 valid, 2 invalid or missing files",
    "audit": "examples:\n  autograder audit bpe_bytes\n  autograder audit --all --fast --html auditoria.html\n\n"
             "exit codes: 0 every check holds, 1 a check failed, 2 bad usage or course.yml",
}


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of processes, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 process, not {value}")
    return value


# The commands that run student code: only they take (and show) the insecure opt-in after their name.
RUNS_STUDENT_CODE = ("grade", "demo", "audit")


def _global_options(parser: argparse.ArgumentParser, default, runs_student_code: bool = True) -> None:
    """--course and the insecure opt-in, before or after the command: after it, `default` is SUPPRESS,
    so that a subcommand that does not see them keeps what was given before it."""
    parser.add_argument("--course", type=Path, default=DEFAULT_COURSE_FILE if default is None else default,
                        metavar="COURSE_YML", help="course.yml to use (default: the project's own)")
    if runs_student_code:
        parser.add_argument("--insecure-run-student-code-as-me", action="store_true",
                            default=False if default is None else default,
                            help="grade even where the sandbox has no namespaces and no root: student code then "
                                 "runs as you and can read the hidden suites and change your files (trusted code "
                                 f"only; for {', '.join(RUNS_STUDENT_CODE)})")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograder", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    _global_options(parser, None)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str, **extra) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=extra.pop("description", help_text),
                                  epilog=extra.pop("epilog", EPILOGS.get(name)),
                                  formatter_class=argparse.RawDescriptionHelpFormatter, **extra)
        _global_options(sub, argparse.SUPPRESS, runs_student_code=name in RUNS_STUDENT_CODE)
        return sub

    course_dir_help = ("nbgrader course directory (default: the current directory if it holds an nbgrader_config.py, "
                       "else course_dir in course.yml)")
    assignment_help = "assignment id from course.yml (`autograder check-course` lists them)"

    release = command("release", "build student versions with nbgrader")
    release.add_argument("assignment", nargs="?", help=assignment_help)
    release.add_argument("--all", action="store_true", help="release every assignment in course.yml")
    release.add_argument("--course-dir", type=Path, help=course_dir_help)
    release.add_argument("--ci", choices=("github", "gitlab", "classroom50"),
                         help="also write CI templates: feedback checks for students' repositories (with "
                              "classroom50: as its declarative tests) and a grading workflow for the staff "
                              "repository (docs/ci.md)")

    grade = command("grade", "grade submissions against the hidden suite", epilog=GRADE_EPILOG)
    grade.add_argument("assignment", nargs="?", help=assignment_help)
    grade.add_argument("submissions", nargs="*", type=Path,
                       help="notebooks, .py modules, folders or .zip files to grade one by one; "
                            "none: the whole class in the course directory")
    grade.add_argument("--course-dir", type=Path, help=course_dir_help)
    grade.add_argument("--lms", type=Path, metavar="DOWNLOAD",
                       help="a folder or .zip downloaded from the LMS (Canvas, Moodle or one file per student), "
                            "imported into the course directory's submitted/ first")
    grade.add_argument("--cluster", metavar="ADDRESS",
                       help="grade the class on the Dask cluster whose scheduler is at ADDRESS "
                            "(tcp://HOST:8786; default: course.cluster in course.yml, else this machine; "
                            "docs/cluster.md)")
    grade.add_argument("--force", action="store_true",
                       help="grade every submission again, even those unchanged since they were graded")
    grade.add_argument("--results", type=Path,
                       help="results.json for one submission; a folder of them for several "
                            "(default: ./results.json or ./results/; with --visible, none: printed only)")
    grade.add_argument("--jobs", type=_jobs, default=None, help="parallel grading processes (default: all cores)")
    grade.add_argument("--quiet", action="store_true", help="print only the summary table")
    grade.add_argument("--visible", action="store_true",
                       help="run only the release's visible checks (what students see), not the hidden suite; "
                            "needs the lesson, not solutions/ (a student's checkout runs it)")
    grade.add_argument("--ci", action=argparse.BooleanOptionalAction, default=None,
                       help="CI mode: short summary, JUnit, job summary, annotations "
                            "(default: on when CI, GITHUB_ACTIONS or GITLAB_CI is set to true)")
    grade.add_argument("--junit", type=Path, metavar="FILE",
                       help="write a JUnit XML report (default in CI mode: junit.xml next to the results)")
    grade.add_argument("--summary", type=Path, metavar="FILE",
                       help="append a Markdown summary (default in CI mode: $GITHUB_STEP_SUMMARY when set)")
    grade.add_argument("--fail-under", type=float, metavar="POINTS",
                       help="exit 1 when a submission's final score is below POINTS")
    grade.add_argument("--lang", choices=("es", "en"),
                       help="language of the messages around the feedback (sandbox banner, files written, errors): "
                            "default es for one submission, which a student may be grading, en for several or a class")

    gradescope = command("gradescope", "build the autograder zip to upload to Gradescope")
    gradescope.add_argument("assignment", help=assignment_help)
    gradescope.add_argument("--output", type=Path, help="default: ./gradescope-ASSIGNMENT.zip")

    for name, help_text in (("feedback", "write one Spanish HTML feedback page per student"),
                            ("report", "write the instructor's HTML report for an assignment")):
        sub = command(name, help_text)
        sub.add_argument("assignment", help=assignment_help)
        sub.add_argument("--course-dir", type=Path, help=course_dir_help)
        if name == "report":
            sub.add_argument("--output", type=Path, help="default: COURSE_DIR/reports/ASSIGNMENT.html")
    export = command("export", "write every student's grades as CSV, or as the file Canvas or Moodle imports")
    export.add_argument("assignment", nargs="?", help="only this assignment (required by --format moodle)")
    export.add_argument("--course-dir", type=Path, help=course_dir_help)
    export.add_argument("--format", choices=EXPORT_FORMATS, default="grades",
                        help="grades: a row per student, a column per assignment (the default); canvas: "
                             "Canvas's gradebook import; moodle: a Moodle assignment's grading worksheet")
    export.add_argument("--canvas-id", action="append", default=[], metavar="ASSIGNMENT=ID",
                        help="the Canvas assignment id of an assignment, for its column \"Title (ID)\" "
                             "(without it, Canvas matches the column by the assignment's title)")
    export.add_argument("--output", type=Path, help="default: COURSE_DIR/exports/grades.csv, canvas-grades.csv "
                                                    "or moodle-ASSIGNMENT.csv")

    similarity = command("similarity", "find pairs of submissions that share much more code than independent work",
                         description="Compare what each student wrote (the release's code, stubs and demos never "
                                     "count), function by function, robust to renaming, reordering, comments and "
                                     "small rewrites. Writes every pair scoring at least half the threshold as JSON "
                                     "(flagged: at or above course.yml similarity.threshold) for the instructor "
                                     "report's section. Pairs to read, never a verdict.")
    similarity.add_argument("assignment", help=assignment_help)
    similarity.add_argument("--course-dir", type=Path, help=course_dir_help)
    similarity.add_argument("--against", type=Path, nargs="+", default=[], metavar="OTHER_DIR",
                            help="nbgrader course directories of earlier semesters: their submissions are compared "
                                 "with this class (not among themselves)")
    similarity.add_argument("--output", type=Path,
                            help="the JSON to write (default: COURSE_DIR/reports/ASSIGNMENT-similarity.json)")
    similarity.add_argument("--cluster", metavar="ADDRESS",
                            help="fingerprint on the Dask cluster whose scheduler is at ADDRESS (default: "
                                 "course.cluster in course.yml, else this machine)")

    demo = command("demo", "release bpe_bytes, grade a generated class, print the table and what to do next")
    demo.add_argument("--dir", type=Path, default=Path("demo"), help="where to put the demo (default: ./demo)")
    demo.add_argument("--jobs", type=_jobs, default=None, help="parallel grading processes (default: all cores)")

    command("check-course", "validate course.yml and print what it defines")

    audit = command(
        "audit", "measure how good each hidden suite is (corpus, catalogue, mutants, lookup table, clauses, domain)",
        description="Grade, for each assignment, the correct corpus (full marks expected), the catalogue of wrong "
                    "implementations (each caught, its hint first), mutmut's mutants of the reference (each must lose "
                    "points unless listed as equivalent) and a lookup table of the lesson's examples; print the clause "
                    "matrix (every rule of the lesson pinned by tests and broken alone by a caught wrong implementation, "
                    "every test pinning a rule) and replay the suite to find calls outside the inputs the lesson "
                    "defines. Exit 0 when every check holds and the mutation score is at least 95%, 1 otherwise.")
    audit.add_argument("assignment", nargs="?", help=assignment_help)
    audit.add_argument("--all", action="store_true", help="audit every assignment")
    audit.add_argument("--fast", action="store_true", help="grade a sample of the mutants (for CI)")
    audit.add_argument("--only", type=_audit_sections, default=AUDIT_SECTIONS, metavar="PARTS",
                       help=f"comma-separated parts to run (default: all of {','.join(AUDIT_SECTIONS)})")
    audit.add_argument("--jobs", type=_jobs, default=None, help="parallel grading processes (default: all cores)")
    audit.add_argument("--output", type=Path, help="also write the Markdown report to this file")
    audit.add_argument("--html", type=Path, help="write the HTML report for instructors to this file")
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tokens-y-embeddings-autograder")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


AUDIT_SECTIONS = ("corpus", "catalogue", "mutant", "lookup", "clause", "domain")


def _audit_sections(text: str) -> tuple[str, ...]:
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [p for p in parts if p not in AUDIT_SECTIONS]
    if unknown or not parts:
        raise argparse.ArgumentTypeError(f"parts are {', '.join(AUDIT_SECTIONS)}; not {', '.join(unknown) or 'none'}")
    return parts


def _stop(signum, frame):
    raise KeyboardInterrupt  # a terminated run (CI cancelled, `kill`) stops like Ctrl-C: cleanly


def _skip_the_uri_grammar() -> None:
    """nbformat validates notebooks with jsonschema, which at import compiles an RFC 3987 grammar
    (about a second) whenever `rfc3987_syntax` is installed, as Jupyter's own dependencies install
    it. The notebook schema checks no URI format, so the grader's commands go without it."""
    sys.modules.setdefault("rfc3987_syntax", None)  # `import rfc3987_syntax` raises ImportError


def main(argv: list[str] | None = None) -> int:
    _skip_the_uri_grammar()
    args = _parser().parse_args(argv)
    if args.insecure_run_student_code_as_me:
        from autograder.sandbox.launcher import INSECURE_OPT_IN

        os.environ[INSECURE_OPT_IN] = "1"  # the grading processes and the Worker read it
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _stop)
        # Python leaves SIGINT ignored when it starts ignored, as in a shell's background job; a local batch
        # then still stops on it (batch._StopRequests) and a cluster run did not: both stop now.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        course = load_course(args.course)
        unfinished = _unfinished_assignments(course, args)
        if unfinished:
            for problem in unfinished:
                print(f"error: {problem}", file=sys.stderr)
            return EXIT_USAGE
        return COMMANDS[args.command](course, args)
    except CourseError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted; results written so far are complete files", file=sys.stderr)
        return 130


def _unfinished_assignments(course, args) -> list[str]:
    """The missing files of the assignments this command works on: an assignment still being
    written is named with what it lacks, never met with a traceback halfway through."""
    if args.command == "check-course":
        return []
    if getattr(args, "all", False):
        targets = list(course.assignments.values())
    elif getattr(args, "assignment", None) in course.assignments:
        targets = [course.assignment(args.assignment)]
    else:
        return []  # no assignment, or an unknown one: the command says so itself
    if args.command == "grade" and args.visible and args.submissions:  # a student's checkout: no solutions/
        return [f"{a.lesson_path}: missing (the lesson the visible checks come from)" for a in targets
                if not a.lesson_path.is_file()]
    to_prove = args.command == "audit"
    return [problem for assignment in targets for problem in assignment.missing_files(to_prove=to_prove)]


def cmd_check_course(course, args) -> int:
    missing = [problem for a in course.assignments.values() for problem in a.missing_files()]
    for problem in missing:
        print(f"error: {problem}", file=sys.stderr)
    if missing:
        return EXIT_USAGE
    print(f"{course.path}: OK — {course.title} ({course.id}), {len(course.assignments)} assignment(s)")
    for assignment in course.assignments.values():
        print(f"  {assignment.id}: {assignment.title} — {assignment.max_score:g} points "
              f"over {len(assignment.points)} functions")
    return EXIT_OK


def cmd_release(course, args) -> int:
    from autograder.release import ReleaseError, release_assignment

    if args.all == bool(args.assignment):
        print("error: name one ASSIGNMENT or pass --all", file=sys.stderr)
        return EXIT_USAGE
    targets = list(course.assignments.values()) if args.all else [course.assignment(args.assignment)]
    for assignment in targets:
        try:
            folder = release_assignment(course, assignment, course.course_directory(args.course_dir))
        except ReleaseError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_GRADER_ERROR
        print(f"released {assignment.id} -> {folder}")
        if args.ci and release_ci_templates(course, assignment, folder, args) != EXIT_OK:
            return EXIT_USAGE
    return EXIT_OK


def release_ci_templates(course, assignment, release_dir: Path, args) -> int:
    """The workflow files a released assignment ships with, so each push by a student is graded in CI."""
    from autograder.packaging.ci_templates import write_ci_templates

    course_dir = course.course_directory(args.course_dir)
    try:
        written = write_ci_templates(course, assignment, release_dir, args.ci, course_dir)
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    for path in written:
        print(f"  {args.ci} CI template -> {path}")
    return EXIT_OK


def cmd_gradescope(course, args) -> int:
    from autograder.packaging.gradescope import build_autograder_zip

    assignment = course.assignment(args.assignment)
    try:
        path = build_autograder_zip(course, assignment, args.output or Path(f"gradescope-{assignment.id}.zip"))
    except (ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(path)
    return EXIT_OK


def ci_detected(environ=os.environ) -> bool:
    """Whether we run in CI, by the variables GitHub Actions, GitLab CI and most other services set."""
    return (environ.get("CI", "").lower() in ("true", "1") or environ.get("GITHUB_ACTIONS") == "true"
            or environ.get("GITLAB_CI") == "true")


def cmd_grade(course, args) -> int:
    from autograder.grading.plugin import SelfCheckFailed
    from autograder.grading.loose import grade_files
    from autograder.render.safe_text import github_stop_commands
    from autograder.render.terminal import batch_table, ci_summary, github_annotations, submission_report

    if args.assignment is None:
        print(f"error: name the assignment to grade: autograder grade ASSIGNMENT [SUBMISSION...]; "
              f"{course.path.name} defines: {', '.join(course.assignments)}", file=sys.stderr)
        return EXIT_USAGE
    assignment = course.assignment(args.assignment)
    ci = ci_detected() if args.ci is None else args.ci
    if not args.submissions:
        return grade_class_command(course, assignment, args, ci)
    if args.lms or args.cluster:
        option = "--lms imports" if args.lms else "--cluster grades"
        print(f"error: {option} a whole class; do not name submissions as well", file=sys.stderr)
        return EXIT_USAGE
    if len(args.submissions) > 1 and args.results and args.results.exists() and not args.results.is_dir():
        print(f"error: --results {args.results} is a file; several submissions need a folder for their "
              "results files", file=sys.stderr)
        return EXIT_USAGE
    spanish = (args.lang or ("es" if len(args.submissions) == 1 else "en")) == "es"  # one submission: a student's
    missing = [path for path in args.submissions if not path.exists() and not path.is_symlink()]
    for path in missing:  # a typo, not a student's empty hand-in: nothing is graded or written
        print(f"error: {path}: no existe ese archivo ni esa carpeta" if spanish else
              f"error: {path}: no such file or folder", file=sys.stderr)
    if missing:
        return EXIT_USAGE
    if (code := sandbox_banner(spanish)) is not None:
        return code

    def show(result):
        if len(args.submissions) == 1 and not args.quiet and not ci:
            print(submission_report(result))

    try:
        results, outputs = grade_files(assignment, args.submissions, args.results, jobs=args.jobs,
                                       visible=args.visible, on_graded=show)
    except SelfCheckFailed as error:
        print(f"GRADER ERROR: {error}", file=sys.stderr)
        return EXIT_GRADER_ERROR
    if ci and not args.quiet:
        summaries = "\n\n".join(ci_summary(r) for r in results)  # ci_log'd: no line is a command
        print(github_stop_commands(summaries) if os.environ.get("GITHUB_ACTIONS") == "true" else summaries)
    if len(results) > 1 or args.quiet:
        print(batch_table(results))
    if ci and os.environ.get("GITHUB_ACTIONS") == "true":
        print("\n".join(line for r in results for line in github_annotations(r, several=len(results) > 1)))
    default_junit = None  # the visible checks write nothing beside the student's files unless asked
    if outputs:  # none for the visible checks unless asked (grading/loose.py)
        where = outputs[0] if len(outputs) == 1 else outputs[0].parent
        print(f"\nresultados guardados en {where}" if spanish else f"\nresults written to {where}", file=sys.stderr)
        default_junit = where.parent / "junit.xml"
    write_reports(results, args, ci, default_junit=default_junit, spanish=spanish)
    return exit_code(results, args, single=len(results) == 1, spanish=spanish)


def grade_class_command(course, assignment, args, ci: bool) -> int:
    from autograder.classroom.gradebook import GradebookError
    from autograder.classroom.pipeline import NothingToGrade, grade_class
    from autograder.classroom.submissions import DownloadError, import_lms, remember_lms_students
    from autograder.cluster import ClusterError
    from autograder.grading.plugin import SelfCheckFailed
    from autograder.render.progress import Progress
    from autograder.render.safe_text import ci_log
    from autograder.render.terminal import batch_table

    course_dir = course.course_directory(args.course_dir)
    if not args.lms and not course_dir.is_dir():
        print(f"error: the course directory {course_dir} does not exist; pass --course-dir, or name submissions "
              f"to grade them one by one (autograder grade {assignment.id} FILE...)", file=sys.stderr)
        return EXIT_USAGE
    names = {}
    if args.lms:
        try:
            imported = import_lms(args.lms, course_dir, assignment)
        except DownloadError as error:  # may quote a file name from the download: the students'
            print(ci_log(f"error: {error}"), file=sys.stderr)
            return EXIT_USAGE
        names = imported.names
        remember_lms_students(course, course_dir, imported)
        print(f"imported {len(imported.imported)} student(s) from {args.lms} into {CourseLayout(course_dir).submitted_root}",
              file=sys.stderr)
        for line in imported.skipped:
            print(ci_log(f"  skipped {line}"), file=sys.stderr)
    cluster = args.cluster or course.cluster or None
    if cluster is None and (code := sandbox_banner(quiet=args.quiet)) is not None:  # on a cluster, each host proves its own
        return code
    try:
        run = grade_class(course, assignment, course_dir, jobs=args.jobs, force=args.force, names=names,
                          progress=lambda total: Progress(total, f"grading {assignment.id}"), cluster=cluster,
                          log=lambda line: print(ci_log(line), file=sys.stderr))
    except (NothingToGrade, GradebookError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except ClusterError as error:
        print(f"GRADER ERROR: {error}", file=sys.stderr)
        return EXIT_GRADER_ERROR
    except SelfCheckFailed as error:
        print(f"GRADER ERROR: {error}", file=sys.stderr)
        return EXIT_GRADER_ERROR
    print(batch_table(run.results))
    if not args.quiet:
        print(f"\ngraded {run.graded}, unchanged since last graded {run.reused} (use --force to grade them again); "
              f"scores are in the gradebook {course.gradebook_url(course_dir)}", file=sys.stderr)
    write_reports(run.results, args, ci, default_junit=Path("junit.xml"))
    return exit_code(run.results, args, single=False)


def write_reports(results, args, ci: bool, default_junit: Path | None, spanish: bool = False) -> None:
    """The JUnit report and the Markdown summary: where asked, and by default in CI mode."""
    from autograder.render.ci_reports import write_ci_reports

    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    for line in write_ci_reports(results, junit=args.junit or (default_junit if ci else None),
                                 summary=args.summary or (Path(step_summary) if ci and step_summary else None),
                                 spanish=spanish):
        print(line, file=sys.stderr)


def exit_code(results, args, single: bool, spanish: bool = False) -> int:
    """The documented exit code (module docstring); grader errors are reported on stderr first."""
    from autograder.grading.results import Outcome
    from autograder.render.safe_text import ci_log

    grader_errors = [r for r in results if r.grader_failed()]
    for r in grader_errors:
        why = r.error_instructor or next(t.instructor_note for t in r.tests if t.outcome is Outcome.GRADER_ERROR)
        heading = "ERROR DEL CORRECTOR (no es culpa tuya; avisa al profesorado con este mensaje) en" if spanish \
            else "GRADER ERROR for"
        print(ci_log(f"{heading} {r.student or r.submission}: {why}"), file=sys.stderr)
    if grader_errors and (single or len(grader_errors) == len(results)):
        return EXIT_GRADER_ERROR
    if grader_errors:
        print(f"{len(grader_errors)} of {len(results)} submissions hit a grader error; the others were graded and "
              f"every output written. Fix the cause and grade again (only those are graded again).", file=sys.stderr)
        return EXIT_SOME_UNGRADED
    if single and results[0].error_student:
        return EXIT_FAILED
    if args.fail_under is not None and any(r.final_score < args.fail_under for r in results):
        print(f"la nota final está por debajo de --fail-under {args.fail_under:g}" if spanish else
              f"a final score is below --fail-under {args.fail_under:g}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def cmd_feedback(course, args) -> int:
    from autograder.classroom.publish import write_feedback_pages

    assignment, course_dir = course.assignment(args.assignment), course.course_directory(args.course_dir)
    pages = _publishing(write_feedback_pages, course, assignment, course_dir)
    if pages is None:
        return EXIT_USAGE
    print(f"wrote {len(pages)} feedback page(s) to {CourseLayout(course_dir).feedback_root}/*/{assignment.id}/",
          file=sys.stderr)
    return EXIT_OK


def cmd_report(course, args) -> int:
    from autograder.classroom.publish import write_report

    assignment, course_dir = course.assignment(args.assignment), course.course_directory(args.course_dir)
    written = _publishing(write_report, course, assignment, course_dir, args.output)
    if written is None:
        return EXIT_USAGE
    print(f"report on {written[1]} submission(s): {written[0]}", file=sys.stderr)
    return EXIT_OK


def cmd_export(course, args) -> int:
    from autograder.classroom.publish import export_grades
    from autograder.render.safe_text import ci_log

    if args.format == "moodle" and not args.assignment:
        print("error: Moodle imports grades one assignment at a time (its grading worksheet); name it: "
              "autograder export ASSIGNMENT --format moodle", file=sys.stderr)
        return EXIT_USAGE
    canvas_ids = dict(pair.partition("=")[::2] for pair in args.canvas_id)
    bad = [pair for pair in args.canvas_id if not pair.partition("=")[2].isdigit()]
    unknown = sorted(set(canvas_ids) - set(course.assignments))
    if bad or unknown:
        print(f"error: --canvas-id takes ASSIGNMENT=NUMBER with an assignment of course.yml; got "
              f"{', '.join(bad + unknown)}", file=sys.stderr)
        return EXIT_USAGE
    assignment_id = course.assignment(args.assignment).id if args.assignment else None
    written = _publishing(lambda: export_grades(course, course.course_directory(args.course_dir), args.output,
                                                format=args.format, assignment_id=assignment_id,
                                                canvas_ids=canvas_ids))
    if written is None:
        return EXIT_USAGE
    print(f"grades of {written.students} student(s) in {written.assignments} assignment(s): {written.path}",
          file=sys.stderr)
    if written.left_out:
        print(ci_log(f"left out {len(written.left_out)} student(s) not imported from {args.format.capitalize()} "
                     f"(autograder grade ID --lms DOWNLOAD): {', '.join(written.left_out)}"), file=sys.stderr)
    return EXIT_OK


def _publishing(stage, *args):
    """Run a publishing stage; None (the reason on stderr) when there is nothing to publish yet, or
    when its output is a file this grader did not write."""
    from autograder.classroom.publish import NothingToPublish, WouldOverwrite

    try:
        return stage(*args)
    except (NothingToPublish, WouldOverwrite) as error:
        print(f"error: {error}", file=sys.stderr)
        return None


def sandbox_banner(spanish: bool = False, quiet: bool = False) -> int | None:
    """The sandbox banner on stderr (sandbox/probe.py); the exit code when grading must not start here.
    `quiet`: said only when grading must not start."""
    import io

    from autograder.sandbox.probe import print_banner

    said = io.StringIO() if quiet else sys.stderr
    code = {None: None, "refused": EXIT_USAGE, "broken": EXIT_GRADER_ERROR}[print_banner(said, spanish=spanish)]
    if quiet and code is not None:
        print(said.getvalue(), end="", file=sys.stderr)
    return code


def cmd_audit(course, args) -> int:
    from autograder.audit.run import audit_assignment
    from autograder.render import audit as render

    if args.all == bool(args.assignment):
        print("error: name one assignment or --all", file=sys.stderr)
        return EXIT_USAGE
    if "mutant" in args.only and importlib.util.find_spec("mutmut") is None:
        print("error: the audit's mutants are made with mutmut, one of the staff's tools: install them with "
              "pip install -e '.[dev]', or leave the mutants out (--only corpus,catalogue,lookup,clause,domain)",
              file=sys.stderr)
        return EXIT_USAGE
    if (code := sandbox_banner()) is not None:
        return code
    ids = list(course.assignments) if args.all else [course.assignment(args.assignment).id]
    audits = []
    for assignment_id in ids:
        print(f"auditing {assignment_id}...", file=sys.stderr)
        try:
            audits.append(audit_assignment(course, course.assignment(assignment_id), fast=args.fast, jobs=args.jobs,
                                           sections=args.only))
        except ValueError as error:  # an equivalent_mutants.yml that does not parse
            print(f"error: {error}", file=sys.stderr)
            return EXIT_USAGE
    text = render.markdown(audits)
    print(text)
    if args.output:
        write_atomically(args.output, text)
    if args.html:
        write_atomically(args.html, render.html(audits))
    return EXIT_OK if all(a.ok for a in audits) else EXIT_FAILED


def cmd_demo(course, args) -> int:
    from autograder.demo import run_demo

    return run_demo(course, args.dir, jobs=args.jobs)


def cmd_similarity(course, args) -> int:
    from autograder.cluster import ClusterError
    from autograder.files import write_atomically
    from autograder.render.safe_text import terminal
    from autograder.similarity import compare_assignment
    from autograder.similarity.report import similarity_document

    assignment, course_dir = course.assignment(args.assignment), course.course_directory(args.course_dir)
    missing = [str(folder) for folder in args.against if not Path(folder).is_dir()]
    if missing:
        print(f"error: --against takes nbgrader course directories; not a folder: {', '.join(missing)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        run = compare_assignment(course, assignment, course_dir, args.against, cluster=args.cluster or course.cluster or None)
    except ClusterError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if not run.codes:
        print(f"error: no submissions of {assignment.id} in {course_dir / 'submitted'}: collect them first "
              "(nbgrader collect, or autograder grade --lms DOWNLOAD)", file=sys.stderr)
        return EXIT_USAGE
    document = similarity_document(run)
    path = write_atomically(args.output or CourseLayout(course_dir).similarity(assignment.id),
                            json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    flagged = [p for p in run.pairs if p.flagged]
    print(f"compared {len(run.codes)} submission(s) of {assignment.id}"
          + (f" with {len(run.earlier)} from earlier semesters" if run.earlier else "")
          + f" in {run.seconds:.1f} s: {len(flagged)} pair(s) at or above {run.threshold} (pairs to read, not verdicts)")
    for pair in flagged:
        print(f"  {terminal(pair.a)}  {terminal(pair.b)}  {pair.score:.2f}  "
              f"{terminal(', '.join(m.unit for m in pair.units)) or '(spread over several functions)'}")
    for code in run.codes:
        if code.problem:
            print(f"  not compared: {terminal(code.student)}: {terminal(code.problem)}")
    print(f"written to {path}; `autograder report {assignment.id}` shows the flagged pairs side by side",
          file=sys.stderr)
    return EXIT_OK


COMMANDS = {"check-course": cmd_check_course, "release": cmd_release, "grade": cmd_grade,
            "gradescope": cmd_gradescope, "feedback": cmd_feedback, "report": cmd_report, "export": cmd_export,
            "demo": cmd_demo, "audit": cmd_audit, "similarity": cmd_similarity}

if __name__ == "__main__":
    sys.exit(main())
