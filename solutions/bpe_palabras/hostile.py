"""Hostile samples for `bpe_palabras`: output floods, threads, import side effects, C-stack overflows.

Each attack replaces every graded function (or makes it useless), so a sound grader gives
it exactly 0. tests/test_hostile.py grades them in one batch next to the reference and the
stub, some of them also as a .py module.
"""


from functools import partial
from pathlib import Path

from autograder.samples import STUB_LINE, Sample, call_arguments, cell, parameter_lists, replace_all
from autograder.samples.grader_attacks import grader_attacks
from autograder.samples.shape_attacks import vacuous_comparison_attacks

SOLUTION = Path(__file__).with_name("solution.py")  # whose signatures the attacks take
_SIGNATURES = parameter_lists(SOLUTION)
_STUB = STUB_LINE
_functions = partial(replace_all, SOLUTION)
_arguments = partial(call_arguments, SOLUTION)
_cell = cell


_FLOOD = _cell('''
    import os, sys

    _MEGA = "x" * 10 ** 6
    for _ in range(300):  # 300 MB through print() while loading
        print(_MEGA)
    sys.stdout.write("y" * 10 ** 8)  # one 100 MB write
    sys.stderr.write(_MEGA * 50)
    try:
        os.write(1, b"z" * 10 ** 7)  # past Python, straight to the worker's fd 1 and 2
        os.write(2, b"z" * 10 ** 7)
    except OSError:
        pass


    def _gritar():
        """50 MB of output in every call, through every stream there is."""
        for _ in range(40):
            print(_MEGA)
        sys.stderr.write(_MEGA * 5)
        sys.__stdout__.write(_MEGA * 5)
''')

_THREADS = _cell('''
    import json, os, struct, sys, threading, time

    _VUELTAS = [0]


    def _girar():
        while True:
            _VUELTAS[0] += 1


    def _hablar():
        while True:
            print("sigo aquí", _VUELTAS[0])
            time.sleep(0.001)


    def _contestar():
        """Answer the grader's later calls before the worker does: forged replies on the reply pipe."""
        try:
            salida = json.loads(sys.argv[1])["out_fd"]
        except Exception:
            return
        time.sleep(0.3)  # after the load: the forged frames land between calls
        while True:
            for aridad in (1, 2, 3, 4):
                mensaje = {"op": "return", "value": ["l", [["s", "aprobado"]]], "same_as": None,
                           "args_after": [None] * aridad}
                datos = json.dumps(mensaje).encode()
                try:
                    os.write(salida, struct.pack(">I", len(datos)) + datos)
                except OSError:
                    return
            time.sleep(0.02)


    for _tarea in (_girar, _hablar, _contestar):
        threading.Thread(target=_tarea, daemon=True).start()
    threading.Thread(target=_girar, daemon=False).start()  # one that would keep the process alive
''')

_IMPORT_EFFECTS = _cell('''
    """Everything a module can do just by being imported."""
    import atexit, builtins, gc, os, resource, subprocess, sys, threading

    for _ruta in ("results.json", "solution.py", "test_hidden.py", "hostile-escape-marker"):
        try:
            with open(_ruta, "w") as _archivo:
                _archivo.write('{"score": 100}')
        except OSError:
            pass
    try:  # a child process in a new session, with the escape marker in its working directory
        subprocess.Popen(["sleep", "300"], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass
    os.chdir("/")
    sys.path.insert(0, "/tmp")
    sys.setrecursionlimit(60)  # the worker's codec now runs out of stack on nested answers
    sys.setswitchinterval(1e-6)
    gc.disable()
    atexit.register(print, "adiós")
    sys.excepthook = threading.excepthook = lambda *args: None
    os.environ["PYTHONHASHSEED"] = "1"
    resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))


    class _Bloqueo:
        """A meta path finder that refuses every module not imported yet."""

        def find_spec(self, name, path=None, target=None):
            raise ImportError(f"bloqueado: {name}")


    sys.meta_path.insert(0, _Bloqueo())
    _importar = builtins.__import__
    builtins.__import__ = lambda name, *args, **kwargs: _importar(name, *args, **kwargs)

    if __name__ == "__main__":
        print("ejecutado como cuaderno")
    else:
        print("importado como módulo", __name__)


    def __getattr__(name):  # PEP 562: any other name of this module is a function that answers None
        return lambda *args, **kwargs: None
''')

_RECURSION = _cell('''
    import json, sys

    sys.setrecursionlimit(10 ** 6)


    def _anidar(n):
        anidado = []
        for _ in range(n):
            anidado = [anidado]
        return anidado


    def _recurrir(n):  # every level goes through C (map, list): the C stack overflows, not the limit
        return list(map(_recurrir, [n + 1]))
''')

HOSTILE: list[Sample] = [
    Sample("magic_flood", "hostile",
           "a cell of 4000 %timeit lines: IPython's transformer needs ~25 s for it (8000 lines, ~100 s), "
           "once spent in the grading process; every function is a stub",
           replace=_functions(), cells=("\n".join(["%timeit x = 1"] * 4000),)),
    Sample("output_flood", "hostile",
           "prints 300 MB (print, sys.stdout.write, sys.stderr, os.write on fds 1 and 2) while loading and "
           "50 MB in every call; every function is a stub",
           replace=_functions("_gritar()\n" + _STUB), first_cells=(_FLOOD,)),
    Sample("threads_left_running", "hostile",
           "leaves threads running from load time: one spins, one prints forever, one writes forged "
           "'return' replies on the reply pipe to answer the grader's later calls, one is not a daemon",
           replace=_functions(), first_cells=(_THREADS,)),
    Sample("import_side_effects", "hostile",
           "importing the module writes results.json and fake suites, starts a child process in a new session, "
           "changes the cwd, sys.path, the recursion limit, RLIMIT_NOFILE, builtins.__import__ and sys.meta_path, "
           "and defines a module __getattr__ that would answer any name",
           replace=_functions(), first_cells=(_IMPORT_EFFECTS,)),
    Sample("c_stack_overflow", "hostile",
           "sys.setrecursionlimit(10**6) and recursion through C (map, json.dumps, comparing two nested lists) "
           "until the C stack overflows, a 10**5-deep answer, and the same crash in a load-time cell",
           replace=_functions(
               get_stats="return json.dumps(_anidar(200_000))",
               merge_pair="return _recurrir(0)",
               train_bpe="return _anidar(100_000)",
               tokenize="return _anidar(300_000) == _anidar(300_000)",
           ), first_cells=(_RECURSION,), cells=("_recurrir(0)",)),
]

# Answers of the wrong type or shape that compare vacuously (issue 11): np.empty(0), np.empty((0, 0)),
# the right answer as a 0-d array, broadcast into a bigger array, with every number inside it an array
# or a float, or inside a list (autograder/samples/shape_attacks.py). Pure attacks: exactly 0.
HOSTILE += vacuous_comparison_attacks(SOLUTION, "bpep")

# Attacks on what the grader does around the sandbox (issue 26): a reply slow to decode, answers made
# for a huge assertion diff, the hidden inputs in exception details, files left in shared folders
# (autograder/samples/grader_attacks.py). Pure attacks: exactly 0.
HOSTILE += grader_attacks(SOLUTION, "bpep")
