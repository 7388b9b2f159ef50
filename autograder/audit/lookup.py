"""A lookup table of the lesson's published examples, written as a submission.

Each graded function answers the calls that the release's visible checks make (the lesson's
worked examples) with the reference's recorded answer, and raises NotImplementedError on
anything else. It is what a student who copies the lesson's examples hands in, and a suite
must not pay it more than the tests of those examples are worth.
"""

from __future__ import annotations

import contextlib
import inspect
import json

from autograder.grading.plugin import load_reference
from autograder.grading.visible import run_checks_cells
from autograder.notebook.lesson import load_source_notebook
from autograder.samples import Sample, parameter_lists
from autograder.sandbox import codec


def _key(arguments: dict) -> str:
    return json.dumps(codec.encode_value(dict(arguments)), sort_keys=True)


def published_answers(assignment) -> dict[str, dict[str, list]]:
    """{function: {arguments as JSON: encoded answer}} for every call the visible checks make."""
    reference = load_reference(assignment.solution_path)
    answers: dict[str, dict[str, list]] = {name: {} for name in assignment.points}

    def recording(name):
        function = getattr(reference, name)

        def call(*args, **kwargs):
            bound = inspect.signature(function).bind(*args, **kwargs)
            bound.apply_defaults()
            try:
                key = _key(bound.arguments)
            except codec.CodecError:
                return function(*args, **kwargs)
            result = function(*args, **kwargs)
            with contextlib.suppress(codec.CodecError):
                answers[name][key] = codec.encode_value(result)
            return result
        return call

    run_checks_cells(load_source_notebook(assignment), {name: recording(name) for name in assignment.points})
    return answers


TABLE_CELL = '''
import json as _json
from autograder.sandbox import codec as _codec

_TABLA = _json.loads({table!r})


def _respuesta(nombre, argumentos):
    clave = _json.dumps(_codec.encode_value(dict(argumentos)), sort_keys=True)
    if clave not in _TABLA[nombre]:
        raise NotImplementedError("este caso no está en los ejemplos del enunciado")
    return _codec.decode_value(_TABLA[nombre][clave])
'''


def lookup_table(assignment) -> Sample:
    answers = published_answers(assignment)
    replace = {name: f"def {name}({parameters}):\n    return _respuesta({name!r}, locals())"
               for name, parameters in parameter_lists(assignment).items() if name in assignment.points}
    return Sample("published_lookup_table", "lookup", "the lesson's published examples answered by heart",
                  replace=replace, first_cells=(TABLE_CELL.format(table=json.dumps(answers)).strip(),))
