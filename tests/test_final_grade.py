"""One final grade per student everywhere, and late work explained.

A late student is graded into a real nbgrader gradebook; then the instructor grades a function by
hand the way formgrader does (nbgrader's Grade row: manual_score, extra_credit) without grading
again. The terminal table, the student's page, the report, grades.csv and `nbgrader export` must
then all give the same final grade, nbgrader's: manual scores over auto scores, extra credit on
top, minus a late penalty taken from that very score.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder import samples
from autograder.classroom.gradebook import open_gradebook
from autograder.classroom.pipeline import grade_class
from autograder.cli import main
from autograder.release import release_assignment
from autograder.render.terminal import batch_table, submission_report

from test_classroom import TWO_DAYS_LATE, hand_in, nbgrader_export, our_export

# Due 2027-03-01 23:59 +01:00; handed in 2027-03-03 10:00 UTC: 35 h 1 min late, two days begun.
# The tests earn 100; the instructor gives encode 12.5 of its 20 and decode 1 point of extra credit:
# 93.5 counts, the late penalty is 2 x 10 % of it, 18.7, and the final grade 74.8.
MANUAL = {"encode": (12.5, None), "decode": (None, 1.0)}
FINAL, PENALTY = 74.8, 18.7


@pytest.fixture(scope="module")
def late_class(tmp_path_factory, course, bpe_bytes):
    """One late student with a correct notebook, graded once into a fresh course directory."""
    course_dir = tmp_path_factory.mktemp("late") / "course"
    release_assignment(course, bpe_bytes, course_dir)
    hand_in(course_dir, "bruno", bpe_bytes, samples.correct("bpe_bytes"), timestamp=TWO_DAYS_LATE)
    run = grade_class(course, bpe_bytes, course_dir, jobs=1)
    assert [r.final_score for r in run.results] == [80]
    return course_dir


def set_by_hand(course, course_dir: Path, grades: dict) -> None:
    """What formgrader's grade API does (nbgrader's formgrader/apihandlers.py, GradeHandler.put)."""
    with open_gradebook(course, course_dir) as book:
        for function, (manual_score, extra_credit) in grades.items():
            grade = book.find_grade(f"checks_{function}", "bpe_bytes", "bpe_bytes", "bruno")
            grade.manual_score, grade.extra_credit = manual_score, extra_credit
            grade.needs_manual_grade = grade.manual_score is None and grade.auto_score is None
        book.db.commit()


def page(course_dir: Path) -> str:
    assert main(["feedback", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
    html = (course_dir / "feedback" / "bruno" / "bpe_bytes" / "bpe_bytes.html").read_text(encoding="utf-8")
    return re.sub(r"<[^>]+>", " ", html)  # the words a student reads, tags aside


def card(text: str, label: str) -> str:
    return re.search(rf"{label}\s+(\S+)", text).group(1)


def test_a_manual_grade_typed_after_grading_gives_one_final_grade_everywhere(late_class, course, capsys):
    course_dir = late_class
    set_by_hand(course, course_dir, MANUAL)
    try:
        # The student's page, first and alone: it also stores the penalty nbgrader export reads.
        text = page(course_dir)
        assert card(text, "Nota final") == f"{FINAL:.2f}"
        assert card(text, "Penalización por retraso") == f"−{PENALTY:.2f}"
        assert re.search(r"encode\s+revisada por el profesor \(la corrección automática dio 20\.00\)\s+12\.50 / 20",
                         text), text
        assert "+1.00 de crédito extra del profesor" in text
        assert f"Penalización: 2 × 10 % = 20 % de 93.50 puntos = −{PENALTY:.2f}." in text

        theirs = nbgrader_export(course_dir)["bruno"]
        assert (float(theirs["raw_score"]), float(theirs["late_submission_penalty"]), float(theirs["score"])) == \
            pytest.approx((93.5, PENALTY, FINAL))

        assert main(["report", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
        report = (course_dir / "reports" / "bpe_bytes.html").read_text(encoding="utf-8")
        row = re.search(r'<tr><td data-sort="bruno".*?</tr>', report).group(0)
        assert re.findall(r'data-sort="([\d.]+)"', row)[:3] == ["93.5", str(PENALTY), str(FINAL)]
        assert "graded by the instructor: encode 12.5 (tests: 20), decode +1 extra credit" in row

        assert float(our_export(course_dir)["bruno"]["bpe_bytes (100)"]) == pytest.approx(FINAL)

        capsys.readouterr()
        assert main(["grade", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
        out, err = capsys.readouterr()
        assert "graded 0, unchanged since last graded 1" in err, err[-400:]  # nothing graded again
        bruno = next(line for line in out.splitlines() if line.startswith("bruno"))
        assert bruno.split()[1:5] == ["93.50", "100", f"{-PENALTY:.2f}", f"{FINAL:.2f}"], bruno
        assert "graded by the instructor: encode 12.5 (tests: 20)" in bruno
    finally:
        set_by_hand(course, course_dir, {function: (None, None) for function in MANUAL})
    # Taken back, the grade is the tests' again everywhere; `autograder export` alone stores the penalty again.
    assert float(our_export(course_dir)["bruno"]["bpe_bytes (100)"]) == pytest.approx(80)
    assert float(nbgrader_export(course_dir)["bruno"]["late_submission_penalty"]) == pytest.approx(20)
    assert card(page(course_dir), "Nota final") == "80"


def test_late_work_is_explained_in_the_course_time_zone(late_class, course, bpe_bytes):
    course_dir = late_class
    text = page(course_dir)
    assert "Fecha límite: 2027-03-01 23:59 (UTC+01:00)" in text
    assert "Entregada: 2027-03-03 11:00 (UTC+01:00)" in text  # 10:00 UTC, on the course's clock
    assert "Retraso: 1 día, 11 h y 1 min; cuentan 2 días (un día empezado cuenta entero)." in text
    assert "Penalización: 2 × 10 % = 20 % de 100.00 puntos = −20.00." in text
    assert ("Regla del curso: 15 min de cortesía; se resta un 10 % de la puntuación por cada día o fracción de día "
            "de retraso; con más de 7 días de retraso no se obtiene ningún punto.") in text

    run = grade_class(course, bpe_bytes, course_dir)  # graded already: what the terminal shows again
    assert run.graded == 0
    terminal = submission_report(run.results[0])  # what the student reads there, in Spanish
    assert "Fecha límite: 2027-03-01 23:59 (UTC+01:00)" in terminal and "cuentan 2 días" in terminal
    table = batch_table(run.results)  # what the instructor reads
    assert ("bruno: due 2027-03-01 23:59 (UTC+01:00), submitted 2027-03-03 11:00 (UTC+01:00): "
            "1 d 11 h 1 min late, 2 days charged, -20.00") in table
    assert "late policy: 15 min grace, -10% of the score per day or part of a day, nothing after 7 days" in table

    with open_gradebook(course, course_dir) as book:
        book.grant_extension("bpe_bytes", "bruno", days=1)
    try:
        text = page(course_dir)
        assert ("Fecha límite: 2027-03-01 23:59 (UTC+01:00), con una prórroga de 1 día: 2027-03-02 23:59 (UTC+01:00)"
                in text)
        assert "Retraso: 11 h y 1 min; cuenta 1 día" in text and card(text, "Nota final") == "90"
    finally:
        with open_gradebook(course, course_dir) as book:
            book.grant_extension("bpe_bytes", "bruno")


def test_a_stored_result_keeps_its_manual_grades_and_late_rule():
    import dataclasses

    from autograder.grading.results import GradeResult, LoadSummary, ManualGrade, TestResult, result_from_dict
    from autograder.late import LatePolicy

    tests = [TestResult("test_encode", "encode", "encode", 0.0, 20.0, "wrong"),
             TestResult("test_decode", "decode", "decode", 10.0, 10.0, "passed")]
    result = GradeResult("bpe_bytes", "s", tests, LoadSummary(), 30.0, late_policy=LatePolicy(15, 10, 7),
                         manual=[ManualGrade("encode", 12.5), ManualGrade("decode", None, 1.0)], late_penalty=2.35)
    assert result.auto_score == 10 and result.score == 23.5 and result.final_score == 21.15
    assert result.by_function() == {"encode": (12.5, 20.0), "decode": (11.0, 10.0)}
    assert result_from_dict(dataclasses.asdict(result)) == result
    terminal = submission_report(result)
    assert "encode   12.50 / 20  — revisada por el profesor (la corrección automática dio 0.00)" in terminal
    assert "decode   11.00 / 10  — +1.00 de crédito extra del profesor" in terminal


def test_a_manual_grade_typed_for_an_earlier_submission_is_flagged_when_the_student_hands_in_again(
        late_class, course, bpe_bytes, capsys):
    """nbgrader's own autograde flags such a cell for review; so does this grader, and it keeps the
    instructor's score (it still counts, as in nbgrader) until they save the cell again in formgrader."""
    course_dir = late_class
    set_by_hand(course, course_dir, {"encode": (12.5, None)})
    folder = hand_in(course_dir, "bruno", bpe_bytes, timestamp=TWO_DAYS_LATE, files={"notas.txt": b"otra entrega\n"})

    def bruno_line() -> tuple[str, str]:
        capsys.readouterr()
        assert main(["grade", "bpe_bytes", "--course-dir", str(course_dir)]) == 0
        out, err = capsys.readouterr()
        return next(line for line in out.splitlines() if line.startswith("bruno")), err

    def flagged() -> bool:
        with open_gradebook(course, course_dir) as book:
            grade = book.find_grade("checks_encode", "bpe_bytes", "bpe_bytes", "bruno")
            assert grade.manual_score == 12.5
            return grade.needs_manual_grade

    try:
        line, err = bruno_line()
        assert "graded 1," in err
        assert "encode 12.5 (tests: 20) typed for an earlier submission: review it in formgrader" in line, line
        assert line.split()[1] == "92.50" and flagged()  # the instructor's 12.5 still counts
        assert "esa revisión es de una entrega anterior; el profesor la revisará de nuevo" in page(course_dir)

        line, err = bruno_line()  # nothing new handed in: the flag stays until the instructor reviews
        assert "graded 0," in err and "earlier submission" in line and flagged()

        set_by_hand(course, course_dir, {"encode": (12.5, None)})  # saved again in formgrader
        line, _ = bruno_line()
        assert "encode 12.5 (tests: 20)" in line and "earlier submission" not in line and not flagged()
    finally:
        set_by_hand(course, course_dir, {"encode": (None, None)})
        (folder / "notas.txt").unlink()


def test_a_class_graded_again_quietly_prints_only_its_table(late_class, capsys):
    assert main(["grade", "bpe_bytes", "--course-dir", str(late_class)]) == 0  # graded, whatever came before
    capsys.readouterr()
    assert main(["grade", "bpe_bytes", "--course-dir", str(late_class), "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no sandbox banner, no "graded 0, unchanged..." line
    assert out.splitlines()[0].startswith("submission") and "1 submission; mean 80.00" in out
