"""The `autograder` command (instructor- and CI-facing, in English).

    autograder release ASSIGNMENT | --all        student versions through nbgrader
    autograder grade ASSIGNMENT SUBMISSION...    grade notebooks, .py modules or folders
    autograder demo                              release, grade sample submissions, show the table
    autograder check-course                      validate course.yml

Exit codes: 0 graded (whatever the scores), 2 bad usage or course.yml, 3 grader error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from autograder.course import DEFAULT_COURSE_FILE, CourseError, load_course

EXIT_OK, EXIT_USAGE, EXIT_GRADER_ERROR = 0, 2, 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="autograder", description=__doc__.split("\n\n")[0])
    parser.add_argument("--course", type=Path, default=DEFAULT_COURSE_FILE, help="course.yml to use")
    commands = parser.add_subparsers(dest="command", required=True)

    release = commands.add_parser("release", help="build student versions with nbgrader")
    release.add_argument("assignment", nargs="?")
    release.add_argument("--all", action="store_true", help="release every assignment in course.yml")
    release.add_argument("--course-dir", type=Path, help="nbgrader course directory (default: from course.yml)")

    grade = commands.add_parser("grade", help="grade submissions against the hidden suite")
    grade.add_argument("assignment")
    grade.add_argument("submissions", nargs="+", type=Path)
    grade.add_argument("--results", type=Path,
                       help="results.json for one submission; a folder of them for several "
                            "(default: ./results.json or ./results/)")
    grade.add_argument("--jobs", type=int, default=None, help="parallel grading processes (default: all cores)")
    grade.add_argument("--quiet", action="store_true", help="print only the summary table")
    grade.add_argument("--visible", action="store_true",
                       help="run only the release's visible checks (public feedback), not the hidden suite")

    demo = commands.add_parser("demo", help="release bpe_bytes, grade a generated batch, print the table")
    demo.add_argument("--dir", type=Path, default=Path("demo"), help="where to put the demo (default: ./demo)")
    demo.add_argument("--jobs", type=int, default=None)

    commands.add_parser("check-course", help="validate course.yml and print what it defines")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        course = load_course(args.course)
        return COMMANDS[args.command](course, args)
    except CourseError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted; results written so far are complete files", file=sys.stderr)
        return 130


def cmd_check_course(course, args) -> int:
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
            folder = release_assignment(course, assignment, args.course_dir)
        except ReleaseError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_GRADER_ERROR
        print(f"released {assignment.id} -> {folder}")
    return EXIT_OK


def results_paths(submissions: list[Path], results: Path | None) -> list[Path]:
    """One results file per submission, named after it (parent folder added on clashes)."""
    if len(submissions) == 1:
        return [results or Path("results.json")]
    folder = results or Path("results")
    stems = [p.stem if p.suffix else p.name for p in submissions]
    names = [f"{p.resolve().parent.name}-{stem}" if stems.count(stem) > 1 else stem
             for p, stem in zip(submissions, stems)]
    return [folder / f"{name}.json" for name in names]


def cmd_grade(course, args) -> int:
    from autograder.grading.batch import SelfCheckFailed, grade_batch
    from autograder.render.gradescope import write_results
    from autograder.render.terminal import batch_table, submission_report
    from autograder.sandbox.launcher import describe_defences

    assignment = course.assignment(args.assignment)
    print_defences(describe_defences())
    outputs = dict(zip(map(str, args.submissions), results_paths(args.submissions, args.results)))

    def save(result):
        write_results(result, outputs[result.submission])
        if not args.quiet and len(outputs) == 1:
            print(submission_report(result))

    try:
        results = grade_batch(course, assignment, args.submissions, jobs=args.jobs, on_result=save,
                              suite="visible" if args.visible else "hidden")
    except SelfCheckFailed as error:
        print(f"GRADER ERROR: {error}", file=sys.stderr)
        return EXIT_GRADER_ERROR
    if len(results) > 1 or args.quiet:
        print(batch_table(results))
    where = next(iter(outputs.values())) if len(outputs) == 1 else next(iter(outputs.values())).parent
    print(f"\nresults written to {where}", file=sys.stderr)
    grader_errors = [r for r in results if r.error_instructor.startswith("grader error")]
    for r in grader_errors:
        print(f"GRADER ERROR for {r.submission}: {r.error_instructor}", file=sys.stderr)
    return EXIT_GRADER_ERROR if grader_errors else EXIT_OK


def print_defences(defences: dict[str, bool]) -> None:
    """The start-up banner: which sandbox defences this machine gives (English, on stderr)."""
    print(f"sandbox: {sum(defences.values())}/{len(defences)} defences active (docs/security.md)", file=sys.stderr)
    for name, active in defences.items():
        print(f"  {'on ' if active else 'OFF'}  {name}", file=sys.stderr)


def cmd_demo(course, args) -> int:
    from autograder.demo import run_demo

    return run_demo(course, args.dir, jobs=args.jobs)


COMMANDS = {"check-course": cmd_check_course, "release": cmd_release, "grade": cmd_grade, "demo": cmd_demo}

if __name__ == "__main__":
    sys.exit(main())
