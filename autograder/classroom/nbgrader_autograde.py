"""nbgrader's own autograde (`nbgrader autograde`, formgrader's Autograde button) grading with this grader.

Left as it is, nbgrader's Autograde runs each submitted notebook in a Jupyter kernel as the
instructor, scores a grade cell by whether it raised (so only the visible checks count) and
sets the late penalty from its own plugin. The release's nbgrader_config.py replaces its
autograde preprocessors with `SandboxedAutograde` alone (release.py writes the lines):
nbgrader still checks the notebook against the release and copies it to autograded/, then
this preprocessor grades the student's submission the way `autograder grade` does, in a
process of its own (`python -m autograder.classroom.nbgrader_autograde`): the hidden suite,
the sandbox, the scores and late penalty in the gradebook, formgrader's copy of the
notebook; nbgrader writes that copy as its autograded notebook. nbgrader's Execute,
SaveAutoGrades and AssignLatePenalties never run, so no student code runs outside the
sandbox and nothing overwrites the grader's scores. Where the grader cannot grade (no
sandbox on this machine, a gradebook that is not the grader's), the preprocessor fails
with the reason and nbgrader records nothing.

Grading runs in a separate process because formgrader calls autograde inside the Jupyter
server: the grader forks grading processes and handles signals, which a server must not
have done to it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

if __name__ == "__main__":  # run for one submission: without the URI grammar, as the `autograder` command
    sys.modules.setdefault("rfc3987_syntax", None)

import nbformat  # noqa: E402
from nbgrader.preprocessors.base import NbGraderPreprocessor  # noqa: E402
from traitlets import Unicode  # noqa: E402

PREPROCESSOR = f"{__name__}.SandboxedAutograde"


def config_lines(course) -> list[str]:
    """What the release's nbgrader_config.py says to plug this grader into nbgrader's autograde."""
    return ["# nbgrader's autograde (`nbgrader autograde`, formgrader's Autograde button) grades with this",
            "# grader, in its sandbox, with the hidden suite and the late policy of course.yml:",
            f"c.Autograde.autograde_preprocessors = [{PREPROCESSOR!r}]",
            f"c.SandboxedAutograde.course_file = {str(course.path)!r}"]


class SandboxedAutograde(NbGraderPreprocessor):
    """Grades one submitted notebook's submission with this grader (module docstring)."""

    course_file = Unicode("", help="the course.yml this course directory was released from").tag(config=True)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        student, assignment_id = info["student"], info["assignment"]
        course_dir = self._course_dir()
        if not self.course_file:
            raise RuntimeError("c.SandboxedAutograde.course_file is not set in nbgrader_config.py; set it to the "
                               "course's course.yml (`autograder release` writes it). Nothing was graded.")
        command = [sys.executable, "-m", __name__, self.course_file, str(course_dir), assignment_id, student,
                   "--db-url", str(info.get("db_url", ""))]
        self.log.info("Grading %s's %s with the autograder, in its sandbox", student, assignment_id)
        done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            why = "\n".join(line for line in done.stderr.splitlines() if "error" in line.lower()) or done.stderr
            raise RuntimeError(f"the autograder could not grade {student}'s {assignment_id} (exit {done.returncode}); "
                               f"nothing was graded outside its sandbox and nothing was recorded:\n{why.strip()}")
        self.log.info("%s", done.stdout.strip())
        from autograder.classroom.layout import CourseLayout

        graded = CourseLayout(course_dir).autograded(student, assignment_id) / f"{info['notebook']}.ipynb"
        return nbformat.read(graded, as_version=nbformat.NO_CONVERT), resources

    def _course_dir(self) -> Path:
        owner = self.parent
        while owner is not None and getattr(owner, "coursedir", None) is None:
            owner = getattr(owner, "parent", None)
        if owner is None:
            raise RuntimeError("SandboxedAutograde runs only inside nbgrader's autograde")
        return Path(owner.coursedir.root).resolve()


def main(argv: list[str] | None = None) -> int:
    """Grade one student's submission in a course directory, as `autograder grade` grades the class.
    Exit codes as `autograder grade`'s: 2 bad input or no sandbox here, 3 the grader failed."""
    from autograder.classroom.gradebook import GradebookError
    from autograder.classroom.pipeline import NothingToGrade, grade_class
    from autograder.cli import EXIT_GRADER_ERROR, EXIT_OK, EXIT_USAGE, sandbox_banner
    from autograder.course import CourseError, load_course

    parser = argparse.ArgumentParser(prog="python -m autograder.classroom.nbgrader_autograde",
                                     description="nbgrader's autograde, through this grader (one submission)")
    parser.add_argument("course_file", type=Path)
    parser.add_argument("course_dir", type=Path)
    parser.add_argument("assignment")
    parser.add_argument("student")
    parser.add_argument("--db-url", default="", help="the gradebook nbgrader uses; must be the grader's")
    args = parser.parse_args(argv)
    try:
        course = load_course(args.course_file)
        assignment = course.assignment(args.assignment)
        gradebook = course.gradebook_url(args.course_dir)
        if args.db_url and args.db_url != gradebook:
            print(f"error: nbgrader uses the gradebook {args.db_url} but the autograder would record into "
                  f"{gradebook}; set c.CourseDirectory.db_url in {args.course_dir / 'nbgrader_config.py'} (not in "
                  f"another nbgrader configuration) so that both use one gradebook", file=sys.stderr)
            return EXIT_USAGE
        if (code := sandbox_banner()) is not None:
            return code
        run = grade_class(course, assignment, args.course_dir, jobs=1, students={args.student})
    except (CourseError, NothingToGrade, GradebookError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    result = run.results[0]
    if result.grader_failed():
        print(f"error: a grader error while grading {args.student}: {result.error_instructor}", file=sys.stderr)
        return EXIT_GRADER_ERROR
    print(f"{args.student}: {result.final_score:.2f} / {assignment.max_score:g} points "
          f"(late penalty {result.late_penalty:g}), graded in the sandbox")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
