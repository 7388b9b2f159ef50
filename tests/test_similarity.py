"""Similarity flags (issue 27): independent work is not flagged, a copy in disguise is, the release never.

The proof uses code the comparison was not designed around: each assignment's independent correct
corpus (solutions/ID/corpus/, written before this feature, in styles from minbpe's to numpy's), copies
of one of them disguised by autograder/samples/disguise.py, and untouched releases.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import samples
from autograder.cli import main
from autograder.notebook.lesson import load_source_notebook
from autograder.render.report_html import report_page
from autograder.samples.disguise import disguised_copies
from autograder.similarity import class_codes
from autograder.similarity.code import REST, read_student_code, template_sources
from autograder.similarity.compare import compare_class
from autograder.similarity.report import marked_code

from course_content import COURSE

ASSIGNMENTS = tuple(COURSE.assignments)
THRESHOLD = COURSE.similarity_threshold


def _corpus(assignment) -> list[Path]:
    return sorted((Path(assignment.solution_path).parent / "corpus").glob("*.py"))


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    """assignment id -> (its class: independent corpus, disguised copies of the first, two releases; pairs)."""
    made = {}
    for assignment_id in ASSIGNMENTS:
        assignment = COURSE.assignment(assignment_id)
        folder = tmp_path_factory.mktemp(f"similar-{assignment_id}")
        release, template = load_source_notebook(assignment), template_sources(assignment)
        corpus = _corpus(assignment)
        codes = [read_student_code(f"independent-{p.stem}", p, assignment, release, template) for p in corpus]
        for name, source in disguised_copies(corpus[0].read_text(encoding="utf-8"), set(assignment.points)).items():
            path = folder / f"copy-{name.replace('+', '-')}.py"
            path.write_text(source, encoding="utf-8")
            codes.append(read_student_code(f"copy-{name}", path, assignment, release, template))
        for number in (1, 2):
            path = samples.build_notebook(assignment, samples.stub(assignment), folder / f"release-{number}.ipynb")
            codes.append(read_student_code(f"release-{number}", path, assignment, release, template))
        made[assignment_id] = (codes, compare_class(codes, template, THRESHOLD), corpus[0].stem)
    return made


def _flagged(pairs) -> set[frozenset]:
    return {frozenset((p.a, p.b)) for p in pairs if p.flagged}


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_submission_is_read(classes, assignment_id):
    codes, _, _ = classes[assignment_id]
    assert [c.student for c in codes if c.problem] == []
    assert all(c.units for c in codes if not c.student.startswith("release"))


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_independent_correct_solutions_are_not_flagged_against_each_other(classes, assignment_id):
    codes, pairs, _ = classes[assignment_id]
    independent = {c.student for c in codes if c.student.startswith("independent-")}
    assert len(independent) >= 10
    assert [set(pair) for pair in _flagged(pairs) if pair <= independent] == []


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_disguised_copy_is_flagged_against_the_original_and_each_other(classes, assignment_id):
    codes, pairs, original = classes[assignment_id]
    group = [f"independent-{original}"] + [c.student for c in codes if c.student.startswith("copy-")]
    assert len(group) == 9  # rename, reorder, rewrite, restyle, three pairs of them, all
    missed = [(a, b) for a, b in itertools.combinations(group, 2) if frozenset((a, b)) not in _flagged(pairs)]
    assert missed == []


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_an_untouched_release_is_similar_to_nothing(classes, assignment_id):
    codes, pairs, _ = classes[assignment_id]
    assert [c.units for c in codes if c.student.startswith("release")] == [{}, {}]
    assert [(p.a, p.b) for p in pairs if "release-1" in (p.a, p.b) or "release-2" in (p.a, p.b)] == []


def test_the_functions_that_match_are_named_graded_functions_first(classes):
    codes, pairs, original = classes["bpe_bytes"]
    pair = next(p for p in pairs if {p.a, p.b} == {f"independent-{original}", "copy-rename"})
    units = [m.unit for m in pair.units]
    assert set(units) - {REST} <= set(COURSE.assignment("bpe_bytes").points) and len(units) >= 4
    assert REST not in units[:-1]  # the rest, if it matches, comes last
    assert all(m.spans_a and m.spans_b for m in pair.units)


def test_the_same_class_gets_the_same_scores_in_another_process(classes, tmp_path):
    # copydetect hashes k-grams with hash(), which PYTHONHASHSEED changes: our fingerprints must not.
    codes, pairs, _ = classes["bpe_palabras"]
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from autograder.course import load_course\n"
        "from autograder.notebook.lesson import load_source_notebook\n"
        "from autograder.similarity.code import read_student_code, template_sources\n"
        "from autograder.similarity.compare import compare_class\n"
        "a = load_course().assignment('bpe_palabras')\n"
        "r, t = load_source_notebook(a), template_sources(a)\n"
        "paths = sorted((Path(a.solution_path).parent / 'corpus').glob('*.py'))\n"
        "codes = [read_student_code('independent-' + p.stem, p, a, r, t) for p in paths]\n"
        "print(json.dumps([[p.a, p.b, p.score] for p in compare_class(codes, t, float(sys.argv[1]))]))\n")
    independent = [c for c in codes if c.student.startswith("independent-")]
    here = [[p.a, p.b, p.score] for p in compare_class(independent, template_sources(COURSE.assignment("bpe_palabras")),
                                                       THRESHOLD)]
    for seed in ("1", "2"):
        there = subprocess.run([sys.executable, "-c", script, str(THRESHOLD)], capture_output=True, text=True,
                               check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        assert json.loads(there) == here
    assert here  # some pairs score above half the threshold: the comparison is not empty


def test_earlier_semesters_are_compared_with_the_class_not_among_themselves(classes):
    codes, _, original = classes["tokenizacion"]
    assignment = COURSE.assignment("tokenizacion")
    now = [c for c in codes if c.student in (f"independent-{original}", "copy-rename")]
    before = [c for c in codes if c.student in ("copy-reorder", "copy-restyle")]
    pairs = compare_class(now, template_sources(assignment), THRESHOLD, earlier=before)
    assert _flagged(pairs) == {frozenset(p) for p in [(f"independent-{original}", "copy-rename")]} | {
        frozenset((a, b)) for a in (f"independent-{original}", "copy-rename") for b in ("copy-reorder", "copy-restyle")}


def _hand_in(course_dir: Path, assignment, students: dict[str, str]) -> None:
    for student, source in students.items():
        folder = course_dir / "submitted" / student / assignment.id
        folder.mkdir(parents=True)
        (folder / "entrega.py").write_text(source, encoding="utf-8")


def test_the_command_writes_the_pairs_and_the_report_shows_them_escaped(tmp_path, capsys):
    assignment = COURSE.assignment("bpe_bytes")
    original = _corpus(assignment)[1].read_text(encoding="utf-8")
    copy = disguised_copies(original, set(assignment.points))["all"]
    _hand_in(tmp_path, assignment, {"ana": original, "<b>luis": copy, "marta": _corpus(assignment)[5].read_text()})
    broken = tmp_path / "submitted" / "pedro" / assignment.id
    broken.mkdir(parents=True)
    (broken / "entrega.ipynb").write_text("{ not json")
    assert main(["similarity", "bpe_bytes", "--course-dir", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    document = json.loads((tmp_path / "reports" / "bpe_bytes-similarity.json").read_text(encoding="utf-8"))
    assert document["compared"] == 4 and document["threshold"] == THRESHOLD
    assert [u["student"] for u in document["unreadable"]] == ["pedro"] and "not compared: pedro" in printed
    flagged = [p for p in document["pairs"] if p["flagged"]]
    assert [{p["a"], p["b"]} for p in flagged] == [{"ana", "<b>luis"}]
    assert set(flagged[0]) >= {"a", "b", "score", "flagged", "functions", "matches"} and 0 < flagged[0]["score"] <= 1
    assert "not verdicts" in document["note"]
    page = report_page([], assignment, COURSE.title, document)
    assert "Similar submissions" in page and "&lt;b&gt;luis" in page and "<b>luis" not in page and "<mark>" in page


def test_student_code_is_escaped_inside_and_outside_the_marked_spans():
    code = 'x = "</pre><script>alert(1)</script>"'
    shown = marked_code(code, [[4, 20], [0, 2]])
    assert "<script>" not in shown and "</pre><" not in shown.removesuffix("</pre>")
    assert shown.count("<mark>") == 2 and "&lt;script&gt;" in shown


def test_the_command_says_when_there_is_nothing_to_compare(tmp_path, capsys):
    assert main(["similarity", "bpe_bytes", "--course-dir", str(tmp_path)]) == 2
    assert "no submissions of bpe_bytes" in capsys.readouterr().err


def test_the_report_says_how_to_get_the_section_when_it_was_not_computed():
    page = report_page([], COURSE.assignment("bpe_bytes"), COURSE.title, None)
    assert "autograder similarity" in page


def test_class_codes_reads_a_course_directory(tmp_path):
    assignment = COURSE.assignment("embeddings")
    _hand_in(tmp_path, assignment, {"ana": _corpus(assignment)[0].read_text(encoding="utf-8")})
    (read,) = class_codes(assignment, tmp_path)
    assert read.student == "ana" and set(assignment.points) <= set(read.units)
