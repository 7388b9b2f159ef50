"""GradeResult -> Gradescope's results.json (score, tests[] with name/score/status/output/visibility).

Only keys of Gradescope's autograder specification are written: the score, the overall output
(plain text, in Spanish), per-test results with each test's visibility from course.yml and the
graded function as its tag, and stdout hidden from students (it is the instructor's log).
`execution_time` is added when the file is written, so that `to_gradescope` stays a pure
function of what was graded: grading twice gives the same dict.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from autograder.files import write_atomically
from autograder.grading.results import GradeResult
from autograder.render.student_text import overall_output, test_output


def to_gradescope(result: GradeResult) -> dict:
    return {
        "score": round(result.score, 2),
        "max_score": round(result.max_score, 2),
        "output": overall_output(result),
        "output_format": "text",  # whitespace kept, nothing interpreted: hints quote code
        "test_output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [
            {
                "name": test.name,
                "number": f"{index}",
                "score": round(test.score, 2),
                "max_score": round(test.max_score, 2),
                "status": "passed" if test.passed else "failed",
                "output": test_output(test),
                "visibility": test.visibility,
                "tags": [test.function],
            }
            for index, test in enumerate(result.tests, start=1)
        ],
    }


def results_document(result: GradeResult) -> dict:
    """What results.json holds: `to_gradescope` plus the grading time in whole seconds, rounded up
    (a submission graded in 0.4 s took some time, not none)."""
    data = to_gradescope(result)
    return {"score": data.pop("score"), "execution_time": math.ceil(max(0.0, result.duration_seconds)), **data}


def write_results(result: GradeResult, path: Path) -> None:
    write_atomically(path, json.dumps(results_document(result), ensure_ascii=False, indent=2) + "\n")
