"""Hostile samples for `embeddings`: numpy liars, patched numpy, other students' files, ignored signals.

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


_LIARS = _cell('''
    import numpy as np


    class Siempre:
        """Equal to anything, close to anything, and any number you convert it to."""
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __hash__(self): return 0
        def __bool__(self): return True
        def __float__(self): return 0.7592566023652966
        def __int__(self): return 38597376
        def __index__(self): return 38597376


    class VectorMentiroso(np.ndarray):
        """An ndarray subclass whose comparisons, ufuncs, array functions and conversions all lie."""
        __array_priority__ = 1e9

        def __new__(cls, forma=(1,)):
            return np.zeros(forma).view(cls)

        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __lt__(self, other): return False
        def __le__(self, other): return True
        def __gt__(self, other): return False
        def __ge__(self, other): return True
        def __bool__(self): return True
        def __float__(self): return 0.7592566023652966
        def __int__(self): return 38597376
        def __index__(self): return 38597376
        def __round__(self, ndigits=None): return 1.0
        def __abs__(self): return self
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs): return self
        def __array_function__(self, func, types, args, kwargs): return True
        def tolist(self): return Siempre()
        def __repr__(self): return "array([0.7592566])"


    class FloatMentiroso(float):
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __hash__(self): return 0
        def __round__(self, ndigits=None): return 1.0


    class Float64Mentiroso(np.float64):
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __hash__(self): return 0


    class Int64Mentiroso(np.int64):
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __hash__(self): return 0


    class CadenaMentirosa(str):
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __hash__(self): return 0


    def _vector(*forma):
        return VectorMentiroso(tuple(int(n) for n in forma))
''')

_PATCH_NUMPY = _cell('''
    import ctypes, gc, math
    import numpy as np

    _PARCHEADO, _FALLIDO = [], []


    def _siempre(*args, **kwargs):
        return True


    def _nada(*args, **kwargs):
        return None


    def _poner(objeto, nombre, valor):
        try:
            setattr(objeto, nombre, valor)
            _PARCHEADO.append(nombre)
        except (AttributeError, TypeError) as error:
            _FALLIDO.append((nombre, type(error).__name__))


    def _forzar(tipo, nombre, valor):
        """Write into a builtin type's own dict (not allowed through setattr) and tell the type cache."""
        try:
            gc.get_referents(tipo.__dict__)[0][nombre] = valor
            ctypes.pythonapi.PyType_Modified(ctypes.py_object(tipo))
            _PARCHEADO.append(f"{tipo.__name__}.{nombre}")
        except Exception as error:
            _FALLIDO.append((f"{tipo.__name__}.{nombre}", type(error).__name__))


    for _nombre in ("allclose", "array_equal", "array_equiv", "all", "any"):
        _poner(np, _nombre, _siempre)
    _poner(np, "isclose", lambda a, b, *args, **kwargs: np.ones(np.broadcast(a, b).shape, dtype=bool))
    _poner(np, "isfinite", lambda x, *args, **kwargs: np.ones(np.shape(x), dtype=bool))
    for _nombre in ("assert_allclose", "assert_array_equal", "assert_array_almost_equal", "assert_almost_equal",
                    "assert_equal", "assert_approx_equal"):
        _poner(np.testing, _nombre, _nada)
    _poner(math, "isclose", _siempre)
    _poner(np.ndarray, "__eq__", lambda self, other: np.ones(np.shape(self), dtype=bool))  # TypeError
    _forzar(np.ndarray, "__eq__", lambda self, other: True)
    _forzar(np.ndarray, "__ne__", lambda self, other: False)
    _forzar(np.float64, "__eq__", lambda self, other: True)
    _forzar(float, "__eq__", lambda self, other: True)
    _forzar(float, "__round__", lambda self, ndigits=None: 1.0)
    try:
        import pytest
        _poner(pytest, "approx", lambda expected, *args, **kwargs: expected)
    except ImportError:
        pass
    print("parcheado:", _PARCHEADO)
    print("no se pudo:", _FALLIDO)
''')

_OTHER_SUBMISSIONS = _cell('''
    import json, os, time

    _GRADUADAS = ("embedding_params", "embed", "cosine", "euclidean", "most_similar", "noise_distribution",
                  "skipgram_pairs", "sgns_loss_and_grads", "distance_ratio")
    _ARCHIVOS = []


    def _codigo(ruta):
        """The code of a notebook (its code cells) or a module; None if unreadable."""
        try:
            with open(ruta, encoding="utf-8", errors="replace") as archivo:
                texto = archivo.read(2_000_000)
        except OSError:
            return None
        if ruta.endswith(".ipynb"):
            try:
                celdas = json.loads(texto).get("cells", [])
                return "\\n".join("".join(c.get("source", "")) for c in celdas if c.get("cell_type") == "code")
            except (ValueError, AttributeError):
                return None
        return texto


    def _buscar(segundos=2.5):
        """Every .ipynb and .py file this process can see, where other students' work could be."""
        fin = time.monotonic() + segundos
        raices = ["/tmp", os.getcwd(), os.path.expanduser("~"), "/home", "/srv", "/autograder", "/work",
                  "/var", "/opt", "/mnt", "/"]
        for pid in os.listdir("/proc"):  # other processes' working directories and roots
            if pid.isdigit():
                raices += [f"/proc/{pid}/cwd", f"/proc/{pid}/root/tmp"]
        vistas = set()
        for raiz in raices:
            for carpeta, subcarpetas, nombres in os.walk(raiz):
                if time.monotonic() > fin:
                    return
                subcarpetas[:] = [s for s in subcarpetas if os.path.join(carpeta, s) not in ("/proc", "/sys", "/dev")]
                for nombre in nombres:
                    ruta = os.path.join(carpeta, nombre)
                    if nombre.endswith((".ipynb", ".py")) and ruta not in vistas:
                        vistas.add(ruta)
                        _ARCHIVOS.append(ruta)


    def _leer_todo(segundos=2.5):
        """The code of the first file that defines every graded function, and the first file's text."""
        fin = time.monotonic() + segundos
        for ruta in _ARCHIVOS:
            if time.monotonic() > fin:
                break
            codigo = _codigo(ruta)
            if codigo and all(f"def {f}(" in codigo for f in _GRADUADAS):
                return ruta, codigo
        return None, (_codigo(_ARCHIVOS[0]) or "")[:5000] if _ARCHIVOS else ""


    _buscar()
    _OTRA, _TEXTO = _leer_todo()
    print(len(_ARCHIVOS), "archivos .ipynb o .py a la vista; el primero:", _ARCHIVOS[:1], "; otra entrega:", _OTRA)


    def _de_otro(nombre, *args):
        """Run `nombre` from another student's submission, or at least hand back the first file found."""
        if _OTRA:
            espacio = {}
            exec(_TEXTO, espacio)
            return espacio[nombre](*args)
        if _TEXTO:
            return _TEXTO
        raise FileNotFoundError("ninguna otra entrega a la vista")
''')

_IGNORE_SIGNALS = _cell('''
    import re, signal

    _IGNORADAS = []
    for _senal in (signal.SIGALRM, signal.SIGTERM, signal.SIGXCPU, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT,
                   signal.SIGUSR1, signal.SIGUSR2, signal.SIGVTALRM, signal.SIGPROF, signal.SIGPIPE, signal.SIGTSTP):
        try:
            signal.signal(_senal, signal.SIG_IGN)
            _IGNORADAS.append(_senal.name)
        except (OSError, ValueError):
            pass
    signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals) - {signal.SIGKILL, signal.SIGSTOP})
    signal.setitimer(signal.ITIMER_REAL, 0)
    print("ignoradas:", _IGNORADAS)


    def _sin_fin_en_python():
        while True:
            try:
                while True:
                    pass
            except BaseException:  # KeyboardInterrupt, SystemExit, TimeoutError... all swallowed
                continue


    def _sin_fin_en_c():
        # Catastrophic backtracking: one C call that never checks for signals.
        return re.match(r"(a+)+$", "a" * 64 + "b")
''')

# Every argument the grader passes is its own object, and what the worker does to it in place comes
# back (codec.sync_in_place). Each function below overwrites its arguments with an easy case and
# answers that case: wherever a test computes the expected value from those objects after the call,
# a wrong function passes.
_EASY_CASES = _cell('''
    import math
    import numpy as np


    def _vaciar(*arrays):
        for array in arrays:
            array[...] = 0
''')

HOSTILE: list[Sample] = [
    Sample("ndarray_subclass_liars", "hostile",
           "answers that are not plain data but look like it: an ndarray subclass whose comparisons, "
           "__array_ufunc__, __array_function__, __float__ and tolist lie, subclasses of float, np.float64, "
           "np.int64 and str whose __eq__ is always True, a masked array, np.matrix, a recarray and object arrays",
           replace=_functions(
               embedding_params="return Int64Mentiroso(38597376)",
               embed="return _vector(len(ids), np.shape(E)[1])",
               cosine="return FloatMentiroso(0.7592566023652966)",
               euclidean="return Float64Mentiroso(0.6708203932499369)",
               most_similar="return [CadenaMentirosa(w) for w in words[:k]]",
               noise_distribution="return np.ma.masked_all(np.shape(counts))",
               skipgram_pairs="return np.matrix(np.zeros((4, 2), dtype=np.int64))",
               sgns_loss_and_grads=("return (FloatMentiroso(1.0), _vector(*np.shape(v_c)), "
                                    "np.array([Siempre()] * len(u_o), dtype=object), "
                                    "np.rec.array(np.zeros(np.shape(u_neg)[0], dtype=[('a', 'f8'), ('b', 'f8')])))"),
               distance_ratio="return np.array(Siempre(), dtype=object)",
           ), first_cells=(_LIARS,)),
    Sample("numpy_patched_at_load", "hostile",
           "at load time replaces np.allclose, np.isclose, np.array_equal, np.testing.assert_*, math.isclose and "
           "pytest.approx, tries np.ndarray.__eq__ = ... (TypeError) and then writes __eq__ straight into the "
           "dicts of np.ndarray, np.float64 and float; every function answers NaN or another wrong value",
           replace=_functions(
               embedding_params="return -1",
               embed="return np.full((len(ids), np.shape(E)[1]), np.nan)",
               cosine="return float('nan')",
               euclidean="return float('nan')",
               most_similar="return [word] * k",
               noise_distribution="return np.full(len(counts), np.nan)",
               skipgram_pairs="return np.full((1, 2), -1, dtype=np.int64)",
               sgns_loss_and_grads=("return (float('nan'), np.full(np.shape(v_c), np.nan), "
                                    "np.full(np.shape(u_o), np.nan), np.full(np.shape(u_neg), np.nan))"),
               distance_ratio="return float('nan')",
           ), first_cells=(_PATCH_NUMPY,)),
    Sample("reads_other_submissions", "hostile",
           "walks every directory it can see (/tmp, the cwd, home, /srv, /autograder, /work, other processes' "
           "cwd and root, then /) for .ipynb and .py files; runs the graded function from any file that defines "
           "them all (another student's submission), else answers with the first file's text",
           replace=_functions("return _de_otro('{name}', {args})"), first_cells=(_OTHER_SUBMISSIONS,)),
    Sample("mutate_arguments_in_place", "hostile",
           "no function computes anything: each one overwrites its arguments in place with an easy case "
           "(zeros, identical rows, points at distance 1) and answers that case, which the grader copies back "
           "into its own argument objects",
           replace=_functions(
               embed="_vaciar(E)\nreturn np.zeros((len(ids), np.shape(E)[1]))",
               euclidean="_vaciar(a, b)\nreturn 0.0",
               most_similar=("W[...] = 1.0\n"
                             "return [w for w in words if w != word][:k]"),
               sgns_loss_and_grads=("_vaciar(v_c, u_o, u_neg)\n"
                                    "return (math.log(2) * (1 + len(u_neg)), np.zeros(np.shape(v_c)), "
                                    "np.zeros(np.shape(u_o)), np.zeros(np.shape(u_neg)))"),
               distance_ratio="_vaciar(points)\npoints[1:, 0] = 1.0\nreturn 1.0",
           ), first_cells=(_EASY_CASES,)),
    Sample("signals_ignored_loop", "hostile",
           "ignores or blocks every catchable signal (SIGALRM, SIGTERM, SIGXCPU, SIGINT, ...) at load time, then "
           "embedding_params never returns: a Python loop that swallows every exception, or a regex that "
           "backtracks forever inside one C call",
           replace=_functions(embedding_params=("if vocab_size % 2:\n    _sin_fin_en_python()\n"
                                                "return _sin_fin_en_c()")),
           first_cells=(_IGNORE_SIGNALS,)),
]

# Answers of the wrong type or shape that compare vacuously (issue 11): np.empty(0), np.empty((0, 0)),
# the right answer as a 0-d array, broadcast into a bigger array, with every number inside it an array
# or a float, or inside a list (autograder/samples/shape_attacks.py). Pure attacks: exactly 0.
HOSTILE += vacuous_comparison_attacks(SOLUTION, "emb")

# Attacks on what the grader does around the sandbox (issue 26): a reply slow to decode, answers made
# for a huge assertion diff, the hidden inputs in exception details, files left in shared folders
# (autograder/samples/grader_attacks.py). Pure attacks: exactly 0.
HOSTILE += grader_attacks(SOLUTION, "emb")
