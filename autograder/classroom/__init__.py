"""A whole class in an nbgrader course directory.

    submissions.py  who submitted what: nbgrader's submitted/ tree, or an LMS download imported into it
    state.py        what was already graded: results stored beside each submission, keyed by content hashes
    gradebook.py    scores, timestamps and late penalties into nbgrader's gradebook
    autograded.py   the graded notebooks nbgrader's formgrader shows
    pipeline.py     the stages above, in order, for one assignment
    nbgrader_autograde.py  nbgrader's own autograde (and formgrader's button) through that pipeline, sandboxed
"""
