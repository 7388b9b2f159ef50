"""Attacks on the grader around the sandbox, for any assignment's hostile corpus (issue 26).

The sandbox holds the student's code; these go for what the grader does with it afterwards
or beside it:

- its decoder, with a reply built to be slow to rebuild: a set whose ints all share one hash
  (each insertion compares with every earlier one, so rebuilding it is quadratic);
- its pytest, with answers of the right type made huge, so that an assertion diff is
  enormous (pytest drops its truncation when `CI` is set: the corpus is graded with `CI=true`,
  as the staff workflows grade);
- its feedback, as a channel: every function raises an exception whose class is named after
  its arguments, from a line whose number depends on them;
- its clean-up, with files dropped in every shared folder the worker can write to.

Each is a pure attack: every graded function is replaced, so a sound grader gives exactly 0.
"""

from __future__ import annotations

from pathlib import Path

from autograder.samples import Sample, cell, reference_cell, replace_all

LEFTOVER_MARKER = "hostile-leftover-marker"  # in the name of every file the leftovers attack drops

# A set of ints that all hash to 0 in CPython (hash(k * (2**61 - 1)) == 0), built once per worker.
# 2,000 keys cost the worker a fraction of a second; the decoder refuses them at 64 shared hashes.
_COLLIDING = cell('''
    def _chocan():
        hecho = globals().get("_CHOCAN")
        if hecho is None:
            hecho = globals()["_CHOCAN"] = {k * (2 ** 61 - 1) for k in range(2_000)}
        return hecho
''')

# The reference's answer made long without changing its type: 100,000 more elements, lines or
# keys. An answer nothing can be added to (a number, an empty container) becomes np.empty(0),
# which the type checks refuse, so the attack earns nothing anywhere.
_INFLATE = cell('''
    import numpy as _np

    _MAS = 100_000


    def _inflado(v):
        if isinstance(v, str) and v:
            return v + "\\nx" * _MAS
        if isinstance(v, (bytes, list)) and v:
            return v + v[-1:] * _MAS
        if isinstance(v, tuple) and v:
            return (_inflado(v[0]),) + v[1:]
        if isinstance(v, dict) and v:
            clave, valor = next(iter(v.items()))
            if isinstance(clave, str):
                extra = {f"{clave}{i}": valor for i in range(_MAS)}
            elif isinstance(clave, int):
                extra = {10 ** 7 + i: valor for i in range(_MAS)}
            elif isinstance(clave, tuple) and all(isinstance(x, int) for x in clave):
                extra = {tuple(10 ** 7 + i for _ in clave): valor for i in range(_MAS)}
            else:
                return _np.empty(0)
            return {**v, **extra}
        return _np.empty(0)
''')

# The arguments, as text, in the class name of the exception raised and in the line it is raised from.
_NAMED_AFTER_INPUT = cell('''
    def _lanza_con_la_entrada(argumentos):
        texto = repr(argumentos)
        clase = type(texto[:200], (ValueError,), {})
        codigo = "\\n" * (sum(texto.encode()) % 500) + "raise clase(texto)"
        exec(compile(codigo, "<canal>", "exec"), {"clase": clase, "texto": texto})
''')

# Every folder a process commonly can write to, and any world-writable one below a few roots.
_LEAVE_FILES = cell(f'''
    import os as _os


    def _deja_archivos():
        carpetas = {{"/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue", "/run/lock", "/var/lock", "/run/shm",
                    _os.getcwd(), _os.path.expanduser("~")}}
        for raiz in ("/run", "/var", "/usr/local", "/srv", "/opt", "/home"):
            for carpeta, hijas, _ in _os.walk(raiz):
                if len(carpetas) > 200:
                    break
                try:
                    if _os.stat(carpeta).st_mode & 0o002:
                        carpetas.add(carpeta)
                except OSError:
                    pass
        for carpeta in carpetas:
            try:
                with open(_os.path.join(carpeta, "{LEFTOVER_MARKER}-%d" % _os.getpid()), "w") as f:
                    f.write("quedó")
            except OSError:
                pass
''')


def grader_attacks(solution: Path, prefix: str) -> list[Sample]:
    """The attacks on the grader for the reference at `solution`, named `PREFIX_...`."""
    return [
        Sample(f"{prefix}_colliding_hash_reply", "hostile",
               "every function answers a set of 2,000 ints that all hash to 0, which the grader would "
               "rebuild in quadratic time after the call's deadline",
               replace=replace_all(solution, "return _chocan()"), first_cells=(_COLLIDING,)),
        Sample(f"{prefix}_assertion_diff_flood", "hostile",
               "every function answers the reference's answer with 100,000 more elements, lines or keys "
               "(same type), so each failed comparison asks pytest for a huge diff; graded with CI=true, "
               "where pytest would not truncate it",
               replace=replace_all(solution, "return _inflado(_H['{name}'](**locals()))"),
               first_cells=(_INFLATE, reference_cell(solution))),
        Sample(f"{prefix}_input_in_exception_details", "hostile",
               "every function raises a ValueError subclass named after its arguments, from a line "
               "whose number is a checksum of them: the hidden inputs, if the feedback names the "
               "exception or the line",
               replace=replace_all(solution, "_lanza_con_la_entrada(locals())"),
               first_cells=(_NAMED_AFTER_INPUT,)),
        Sample(f"{prefix}_leftovers_in_shared_folders", "hostile",
               f"every function drops a file named {LEFTOVER_MARKER}-PID in every shared or world-writable "
               f"folder it can write to, then answers nothing useful",
               replace=replace_all(solution, "_deja_archivos()\nreturn None"), first_cells=(_LEAVE_FILES,)),
    ]
