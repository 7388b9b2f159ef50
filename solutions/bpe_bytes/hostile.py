"""Hostile samples for `bpe_bytes`: attacks on the grader (see autograder/samples/__init__.py)."""


from functools import partial
from pathlib import Path

from autograder.samples import STUB_LINE, Sample, call_arguments, cell, parameter_lists, replace_all
from autograder.samples.grader_attacks import grader_attacks
from autograder.samples.shape_attacks import vacuous_comparison_attacks
from autograder.samples import xss as _xss

# Each attack replaces every graded function (or makes it useless), so a sound grader gives
# it exactly 0. tests/test_hostile.py grades them all in one batch next to the reference.

SOLUTION = Path(__file__).with_name("solution.py")  # whose signatures the attacks take
_SIGNATURES = parameter_lists(SOLUTION)
_STUB = STUB_LINE
_functions = partial(replace_all, SOLUTION)
_arguments = partial(call_arguments, SOLUTION)
_cell = cell


_LIAR = _cell('''
    class Siempre:
        """Igual a todo: la comparación, el hash, la longitud y hasta la clase mienten."""
        def __eq__(self, other): return True
        def __ne__(self, other): return False
        def __lt__(self, other): return False
        def __le__(self, other): return True
        def __gt__(self, other): return False
        def __ge__(self, other): return True
        def __hash__(self): return 0
        def __bool__(self): return True
        def __len__(self): return 258
        def __iter__(self): return iter(())
        def __getitem__(self, key): return self
        def __contains__(self, item): return True
        def __float__(self): return 2.2
        def __int__(self): return 0
        def __index__(self): return 0
        def __repr__(self): return "{(97, 97): 256}"
        def __reduce__(self): return (dict, ())
        def keys(self): return []
        def items(self): return []
        def values(self): return []
        @property
        def __class__(self): return dict
''')

_SUBCLASSES = _cell('''
    def _mentir(base):
        return type(base.__name__.capitalize() + "Mentiroso", (base,), {
            "__eq__": lambda self, other: True, "__ne__": lambda self, other: False,
            "__hash__": lambda self: 0, "__repr__": base.__repr__})

    EnteroMentiroso, FloatMentiroso = _mentir(int), _mentir(float)
    CadenaMentirosa, BytesMentirosos = _mentir(str), _mentir(bytes)
    ListaMentirosa, TuplaMentirosa, DictMentiroso = _mentir(list), _mentir(tuple), _mentir(dict)
''')

_IN_WORKER = _cell('''
    import os as _os, sys as _sys

    def _en_el_sandbox():
        """True only inside the grader's sandboxed worker with its process limit and dropped uid."""
        import resource
        principal = _sys.modules.get("__main__")
        spec = getattr(principal, "__spec__", None)
        dentro = getattr(spec, "name", "") == "autograder.sandbox.worker"
        limitado = resource.getrlimit(resource.RLIMIT_NPROC)[0] != resource.RLIM_INFINITY
        return dentro and limitado and _os.geteuid() != 0
''')

_FIND_HIDDEN = _cell('''
    import json, os, sys, time

    _ENCONTRADO, _INTENTADO = {}, []
    _NOMBRES = ("test_hidden.py", "solution.py")


    def _raices():
        raices = {"/", "/work", "/work/main", "/srv", "/opt", "/app", "/autograder", "/autograder/source",
                  "/proc/1/cwd", "/proc/self/cwd", "/proc/1/root/work/main", "/proc/self/root/work/main",
                  os.path.expanduser("~"), os.path.dirname(sys.prefix),
                  os.path.dirname(os.path.dirname(sys.executable))}
        carpeta = os.getcwd()
        while True:
            raices.add(carpeta)
            if os.path.dirname(carpeta) == carpeta:
                break
            carpeta = os.path.dirname(carpeta)
        try:
            import autograder
            paquete = os.path.dirname(os.path.abspath(autograder.__file__))
            raices.update({paquete, os.path.dirname(paquete)})
        except Exception:
            pass
        try:  # the worker's own command line lists what the grader hides
            config = json.loads(sys.argv[1])
            for ruta in config.get("hide", []) + config.get("files_to_hide", []):
                raices.update({ruta, os.path.dirname(ruta), os.path.dirname(os.path.dirname(ruta))})
        except Exception:
            pass
        try:
            for linea in open("/proc/self/mountinfo"):
                punto = linea.split()[4]
                raices.update({punto, os.path.dirname(punto)})
        except Exception:
            pass
        return sorted(raices)


    def _desenmascarar():
        """Try to lift every tmpfs and /dev/null bind the grader mounted over the hidden paths (not our cwd)."""
        import ctypes
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            for linea in list(open("/proc/self/mountinfo"))[::-1]:
                campos, tipo = linea.split(" - ")[0].split(), linea.split(" - ")[1].split()[0]
                punto = campos[4]
                sistema = punto.startswith(("/dev", "/proc", "/sys", "/run"))
                if tipo in ("tmpfs", "devtmpfs") and punto != os.getcwd() and not sistema:
                    libc.umount2(punto.encode(), 2)  # MNT_DETACH
        except Exception:
            pass


    def _leer(ruta):
        _INTENTADO.append(ruta)
        try:
            with open(ruta, encoding="utf-8", errors="replace") as archivo:
                texto = archivo.read(200_000)
        except Exception:
            return
        if texto.strip():
            _ENCONTRADO[ruta] = texto


    def _buscar():
        if _INTENTADO:
            return _ENCONTRADO
        _desenmascarar()
        for raiz in _raices():
            for nombre in _NOMBRES:
                _leer(os.path.join(raiz, "solutions", "bpe_bytes", nombre))
                _leer(os.path.join(raiz, "bpe_bytes", nombre))
                _leer(os.path.join(raiz, nombre))
        limite = time.monotonic() + 2.0
        for raiz, carpetas, archivos in os.walk("/"):
            if time.monotonic() > limite:
                break
            carpetas[:] = [c for c in carpetas if os.path.join(raiz, c) not in ("/proc", "/sys", "/dev")]
            for nombre in archivos:
                if nombre in _NOMBRES:
                    _leer(os.path.join(raiz, nombre))
        return _ENCONTRADO


    _buscar()
    print("rutas probadas:", len(_INTENTADO))
    for _ruta, _texto in _ENCONTRADO.items():
        print("ENCONTRADO", _ruta)
        print(_texto[:3000])
''')

_FROM_HIDDEN = '''
textos = _buscar()
for ruta, texto in textos.items():
    if "def {name}(" in texto:
        espacio = {}
        exec(texto, espacio)
        return espacio["{name}"](ARGS)
raise FileNotFoundError(" | ".join(t[:300] for t in textos.values()) or "nada: %d rutas" % len(_INTENTADO))
'''

_FAKE_RESULTS = _cell('''
    import json, os, sys

    _FALSO = {"score": 100.0, "output": "Todo correcto", "stdout_visibility": "visible",
              "tests": [{"name": n, "score": p, "max_score": p, "status": "passed"}
                        for n, p in (("get_stats", 10), ("merge", 15), ("train_bpe", 25), ("build_vocab", 10),
                                     ("encode", 20), ("decode", 10), ("compression_ratio", 10))]}


    def _escribir_resultados():
        destinos = ["results.json", "../results.json", "/tmp/results.json", "/var/tmp/results.json",
                    "/dev/shm/results.json", "/autograder/results/results.json", "/work/main/results.json",
                    os.path.expanduser("~/results.json")]
        try:
            import autograder
            raiz = os.path.dirname(os.path.dirname(os.path.abspath(autograder.__file__)))
            destinos += [os.path.join(raiz, n) for n in ("results.json", "results/results.json", "tests/results.json")]
            destinos.append(os.path.join(os.path.dirname(os.path.abspath(autograder.__file__)), "results.json"))
        except Exception:
            pass
        carpeta = os.getcwd()
        while os.path.dirname(carpeta) != carpeta:
            carpeta = os.path.dirname(carpeta)
            destinos.append(os.path.join(carpeta, "results.json"))
        for destino in destinos:
            try:
                os.makedirs(os.path.dirname(os.path.abspath(destino)), exist_ok=True)
                with open(destino, "w") as archivo:
                    json.dump(_FALSO, archivo)
                print("escrito", destino)
            except Exception as error:
                print("no se pudo escribir", destino, type(error).__name__)
        texto = json.dumps(_FALSO)
        print(texto)
        try:
            sys.__stdout__.write(texto + "\\n")
            sys.__stdout__.flush()
            os.write(1, texto.encode())
            os.write(2, texto.encode())
        except Exception:
            pass


    _escribir_resultados()
''')

_ORACLE = _cell('''
    import gc, json, sys


    def _canal():
        """The worker's (send, receive) pair: from the caller's frames, from gc, or from sys.argv."""
        marco = sys._getframe(1)
        while marco is not None:
            canal = marco.f_locals.get("channel")
            if isinstance(canal, tuple) and len(canal) == 2 and all(map(callable, canal)):
                return canal
            marco = marco.f_back
        funciones = {}
        for objeto in gc.get_objects():
            nombre = getattr(objeto, "__qualname__", "") if callable(objeto) else ""
            if nombre in ("serve.<locals>.send", "serve.<locals>.receive"):
                funciones[objeto.__qualname__.rsplit(".", 1)[1]] = objeto
        if len(funciones) == 2:
            return funciones["send"], funciones["receive"]
        from autograder.sandbox import codec
        config = json.loads(sys.argv[1])
        return (lambda m: codec.write_frame(config["out_fd"], m)), (lambda: codec.read_frame(config["in_fd"]))


    def _oraculo(nombre, *args):
        """Ask the grader's reference for the answer, with a forged helper callback."""
        trabajador = sys.modules["__main__"]
        return trabajador.served.served_helper(nombre, None, _canal(), [])(*args)
''')

_WORKER_PATCH = _cell('''
    import sys
    from autograder.sandbox import codec as _codec

    _trabajador = sys.modules["__main__"]
    _codificar = _codec.encode_value


    def _codificar_mentira(value, depth=0):
        # A liar cannot be sent as data; the closest thing to "equal to anything" is NaN.
        if type(value).__name__ == "Siempre":
            return ["f", "nan"]
        return _codificar(value, depth)


    _codec.encode_value = _codificar_mentira
    _trabajador.codec.encode_value = _codificar_mentira
    _responder = _trabajador._reply_with
    _VACIO = {"l": ["l", []], "d": ["d", []], "S": ["S", []]}


    def _mentira(argumentos):
        # "Returned NaN" (equal to nothing, but the closest a value gets) and "emptied every list, dict, set".
        estados = [_VACIO.get(a[0]) if isinstance(a, list) and a else None for a in argumentos]
        return {"op": "return", "value": ["f", "nan"], "same_as": None, "args_after": estados}


    def _responder_mentira(result, args):
        # First ask the grader's reference for the function being graded (refused for these), then lie.
        nombre = getattr(_responder_mentira, "actual", None)
        marco = sys._getframe(1)
        canal = marco.f_locals.get("channel")
        if nombre and canal:
            try:
                return _responder(_trabajador.served.served_helper(nombre, None, canal, [])(*args), args)
            except Exception:
                pass
        return _mentira([_codificar(a) if type(a) in (list, dict, set) else None for a in args])


    _trabajador._reply_with = _responder_mentira
    _llamar = _trabajador.Student.call


    def _llamar_mentira(self, request, channel):
        _responder_mentira.actual = request.get("name") if request.get("name") not in ("get_stats", "merge") else None
        respuesta = _llamar(self, request, channel)
        return respuesta if respuesta.get("op") == "return" else _mentira(request.get("args", []))


    _trabajador.Student.call = _llamar_mentira
''')

_OVERSIZED = _cell('''
    import sys

    _trabajador = sys.modules["__main__"]
    _GRANDE = 256 * 1024
    _describir = _trabajador._describe_exception


    def _describir_enorme(exc, frames):
        descripcion = _describir(exc, frames)
        descripcion.update(type="Enorme" + "E" * _GRANDE, builtin="B" * _GRANDE, message="M" * _GRANDE,
                           frames=[["<celda 1>", 1, "F" * 1024]] * 256)
        return descripcion


    _trabajador._describe_exception = _describir_enorme
    _llamar = _trabajador.Student.call


    def _llamar_enorme(self, request, channel):
        if request.get("name") in ("build_vocab", "decode"):
            return {"op": "missing", "name": "N" * _GRANDE}
        return _llamar(self, request, channel)


    _trabajador.Student.call = _llamar_enorme
    raise ValueError("y esta celda falla con un mensaje enorme")
''')

_MALFORMED = _cell('''
    import sys

    _trabajador = sys.modules["__main__"]
    _RESPUESTAS = {
        "get_stats": {"op": "raise",
                      "error": {"type": "ValueError", "builtin": "ValueError", "message": "x", "frames": None}},
        "merge": {"op": "raise", "error": {"type": 7, "builtin": ["ValueError"], "message": None, "frames": 7}},
        "train_bpe": {"op": "return", "value": ["l", [["i", 1]]], "same_as": 0, "args_after": None},
        "build_vocab": {"op": "return", "value": ["q", 1], "same_as": -1, "args_after": [None]},
        "encode": {"op": "return", "value": None, "same_as": True, "args_after": [None, None]},
        "decode": {"op": "callback", "name": ["decode"], "args": "x", "kwargs": 3},
        "compression_ratio": {"op": "aprobado", "score": 100},
    }


    def _llamar_roto(self, request, channel):
        return _RESPUESTAS.get(request.get("name"), {"op": "raise"})


    _trabajador.Student.call = _llamar_roto
''')

_TRACE = _cell('''
    import sys, threading

    _eventos = []


    def _rastreador(frame, event, arg):
        if len(_eventos) < 20000:
            _eventos.append((frame.f_code.co_filename, frame.f_code.co_name, event))
        return _rastreador


    def _perfil(frame, event, arg):
        # Rewrite the worker's reply on its way out: every call "returned NaN" and "emptied" its list,
        # dict and set arguments (a type-changing lie would merely crash the worker).
        if event == "return" and frame.f_code.co_name == "call" and type(arg) is dict and "request" in frame.f_locals:
            vacio = {list: ["l", []], dict: ["d", []], set: ["S", []]}
            estados = [vacio.get(type(a)) for a in frame.f_locals.get("args", [])]
            arg.clear()
            arg.update({"op": "return", "value": ["f", "nan"], "same_as": None, "args_after": estados})


    sys.settrace(_rastreador)
    threading.settrace(_rastreador)
    sys.setprofile(_perfil)
    threading.setprofile(_perfil)
''')

_NETWORK = _cell('''
    _RED = []


    def _hay_red():
        if _RED:
            return _RED[0]
        import socket
        ok = False
        for destino in (("1.1.1.1", 53), ("8.8.8.8", 53), ("127.0.0.1", 22), ("127.0.0.1", 80),
                        ("127.0.0.1", 8000), ("127.0.0.1", 8888), ("10.0.2.2", 80)):
            try:
                socket.create_connection(destino, timeout=0.5).close()
                ok = True
                break
            except OSError:
                pass
        if not ok:
            try:
                socket.getaddrinfo("pypi.org", 443)
                ok = True
            except OSError:
                pass
        _RED.append(ok)
        return ok
''')

_IPYTHON_MAGICS = _cell('''
    %load_ext autoreload
    %autoreload 2
    !cat /work/main/solutions/bpe_bytes/test_hidden.py
    %run /work/main/solutions/bpe_bytes/solution.py
    solucion = !cat /work/main/solutions/bpe_bytes/solution.py
    %env PYTHONPATH=/work/main/solutions/bpe_bytes
''')

_IPYTHON_HOOKS = _cell('''
    ip = get_ipython()
    _intentos = {
        "events.register": lambda: ip.events.register("post_run_cell", lambda resultado: None),
        "input_transformers_post": lambda: ip.input_transformers_post.append(lambda lineas: lineas),
        "input_transformers_cleanup": lambda: ip.input_transformers_cleanup.append(lambda lineas: lineas),
        "ast_transformers": lambda: ip.ast_transformers.append(object()),
        "user_ns": lambda: ip.user_ns.update(get_stats=lambda ids, counts=None: {}),
        "run_cell": lambda: ip.run_cell(open("/work/main/solutions/bpe_bytes/solution.py").read()),
        "run_line_magic": lambda: ip.run_line_magic("run", "/work/main/solutions/bpe_bytes/solution.py"),
        "system": lambda: ip.system("cp /work/main/solutions/bpe_bytes/solution.py ."),
        "getoutput": lambda: ip.getoutput("cat /work/main/solutions/bpe_bytes/test_hidden.py"),
        "register_magic": lambda: ip.register_magic_function(lambda linea: None, "line", "trampa"),
    }
    for _nombre, _intento in _intentos.items():
        try:
            print(_nombre, "->", repr(_intento())[:80])
        except Exception as error:
            print(_nombre, "falló:", type(error).__name__)
''')

_CELL_MAGIC = _cell('''
    %%capture salida
    print("nada que ver aquí")
''')

_PATCH_BUILTINS = _cell('''
    import builtins

    class Mentira:
        """Not data; patched builtins try to pass it off as a dict of length 258."""
        def __eq__(self, other): return True
        def __hash__(self): return 0
        def items(self): return [(Mentira(), Mentira())]
        def keys(self): return [Mentira()]
        def values(self): return [Mentira()]


    _type, _isinstance, _len, _sorted = builtins.type, builtins.isinstance, builtins.len, builtins.sorted


    def type(*args):  # noqa: A001
        if _len(args) == 1 and _type(args[0]) is Mentira:
            return dict
        return _type(*args)


    builtins.type = type
    builtins.isinstance = lambda obj, cls: True if _type(obj) is Mentira else _isinstance(obj, cls)
    builtins.len = lambda obj: 258 if _type(obj) is Mentira else _len(obj)
    builtins.sorted = lambda it, *a, **k: list(it) if _type(it) is Mentira else _sorted(it, *a, **k)
    builtins.print = lambda *a, **k: None
''')

_ESCAPE = '''
import os, time
os.setpgid(0, 0)  # leave the process group the grader kills
with open("hostile-escape-marker", "w") as marca:
    marca.write(str(os.getpid()))
fin = time.monotonic() + 150
while time.monotonic() < fin:
    time.sleep(0.2)
raise TimeoutError("sigo vivo")
'''

HOSTILE: list[Sample] = [
    # Indices 0, 3, 6, ... also feed the demo (autograder/demo.py takes every third): keep them cheap.
    Sample("lying_eq_object", "hostile",
           "every function returns an object whose __eq__, __hash__, __len__ and even __class__ lie",
           replace=_functions("""
               if isinstance(locals().get("counts"), dict):
                   counts[Siempre()] = Siempre()
               return Siempre()
           """), first_cells=(_LIAR,)),
    Sample("builtin_subclasses", "hostile",
           "subclasses of int, float, str, bytes, list, tuple and dict whose __eq__ is always True, "
           "alone and inside plain containers",
           replace=_functions(
               get_stats="return DictMentiroso({TuplaMentirosa((1, 2)): EnteroMentiroso(1)})",
               merge="return [EnteroMentiroso(0)] * len(ids)",
               train_bpe="return {(97, 97): EnteroMentiroso(256)}",
               build_vocab="return {i: BytesMentirosos(b'') for i in range(258)}",
               encode="return ListaMentirosa([EnteroMentiroso(0)])",
               decode="return CadenaMentirosa('')",
               compression_ratio="return FloatMentiroso(0.0)",
           ), first_cells=(_SUBCLASSES,)),
    Sample("sys_exit", "hostile",
           "sys.exit(0), exit(), quit(), SystemExit, KeyboardInterrupt and GeneratorExit in every function, "
           "and sys.exit(0) in load-time cells before and after the functions",
           replace=_functions(
               get_stats="import sys\nsys.exit(0)",
               merge="raise SystemExit(0)",
               train_bpe="exit(0)",
               build_vocab="quit()",
               encode="import sys\nsys.exit('aprobado')",
               decode="raise KeyboardInterrupt",
               compression_ratio="raise GeneratorExit",
           ),
           first_cells=("import sys\nsys.exit(0)",), cells=("raise SystemExit(0)", "exit()")),
    Sample("read_hidden_files", "hostile",
           "looks for the hidden suite and the reference by absolute path (walking up from the cwd, "
           "/proc/1/cwd, the autograder package, the worker's argv, mountinfo, a bounded os.walk), tries to "
           "unmount the masks, prints what it finds, execs a found solution and raises/returns found text",
           replace=_functions(**{name: _FROM_HIDDEN.replace("ARGS", _arguments(name)) for name in _SIGNATURES} | {
               "decode": "textos = _buscar()\nreturn '\\n'.join(textos.values()) or 'nada'"}),
           first_cells=(_FIND_HIDDEN,)),
    Sample("os_exit", "hostile",
           "os._exit(0) in get_stats, os.abort() in compression_ratio and os._exit(0) in a load-time cell after "
           "the functions",
           replace=_functions(get_stats="import os\nos._exit(0)", compression_ratio="import os\nos.abort()"),
           cells=("import os\nos._exit(0)",)),
    Sample("kill_signals", "hostile",
           "os.kill(os.getppid(), SIGKILL), os.killpg(0, SIGKILL), kill(-1) and a pid sweep, also at load time "
           "(the broad ones only inside a PID namespace, so the suite is safe to run anywhere)",
           replace=_functions(
               get_stats="import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nraise RuntimeError('sigo vivo')",
               merge="import os, signal\nos.killpg(0, signal.SIGKILL)\nraise RuntimeError('sigo vivo')",
               train_bpe="""
                   import os, signal
                   if os.getpid() == 1:
                       os.kill(-1, signal.SIGKILL)
                   os.kill(os.getpid(), signal.SIGKILL)
                   raise RuntimeError("sigo vivo")
               """,
               build_vocab="""
                   import os, signal
                   for pid in (range(2, 4000) if os.getpid() == 1 else ()):
                       try:
                           os.kill(pid, signal.SIGKILL)
                       except OSError:
                           pass
                   os.killpg(os.getpgid(0), signal.SIGTERM)
                   raise RuntimeError("sigo vivo")
               """,
               encode="""
                   import os, signal
                   os.kill(os.getppid(), signal.SIGTERM)
                   os.kill(os.getpid(), signal.SIGSEGV)
                   raise RuntimeError("sigo vivo")
               """,
           ),
           cells=("import os, signal\ntry:\n    os.kill(os.getppid(), signal.SIGKILL)\nexcept OSError:\n    pass",)),
    Sample("fake_results_files", "hostile",
           "writes a full-marks results.json into the cwd, /tmp, /autograder/results and the project root, "
           "and prints a fake results JSON to stdout and to fds 1 and 2, at load time and in every call",
           replace=_functions("_escribir_resultados()\nraise NotImplementedError()"),
           first_cells=(_FAKE_RESULTS,)),
    Sample("infinite_loop", "hostile", "compression_ratio never returns; the rest are stubs",
           replace=_functions(compression_ratio="while True:\n    pass")),
    Sample("memory_bomb", "hostile",
           "bytearray(10**11), an ever-growing list, 'x' * 10**12 and [0] * 10**10 in calls, "
           "and ~1 GB held in a global at load time",
           replace=_functions(
               get_stats="return bytearray(10 ** 11)",
               merge="monton = []\nwhile True:\n    monton.append(b' ' * 10 ** 6)",
               train_bpe="return 'x' * 10 ** 12",
               build_vocab="return [0] * 10 ** 10",
           ),
           cells=("_retenido = []\nwhile True:\n    _retenido.append(b'x' * 10 ** 7)",)),
    Sample("patch_builtins", "hostile",
           "at load time replaces builtins.type, isinstance, len, sorted and print so that the worker's own "
           "codec takes a non-data object for a dict of 258 entries",
           replace=_functions("return Mentira()"), first_cells=(_PATCH_BUILTINS,)),
    Sample("fork_bomb", "hostile",
           "build_vocab forks forever (only inside the sandbox worker, with its process limit and dropped uid)",
           replace=_functions(build_vocab="""
               if not _en_el_sandbox():
                   raise RuntimeError("fuera del sandbox: no se lanza la bomba")
               while True:
                   try:
                       _os.fork()
                   except OSError:
                       pass
           """), first_cells=(_IN_WORKER,)),
    Sample("settrace_setprofile", "hostile",
           "sys.settrace and sys.setprofile (also for threads) at load time; the profiler rewrites every reply of "
           "the worker into 'returned NaN' with every list, dict and set argument 'emptied'",
           replace=_functions(), cells=(_TRACE,)),
    Sample("ipython_hooks", "hostile",
           "IPython magics and shell escapes that would run or print the reference, get_ipython().events.register, "
           "input/AST transformers and user_ns: the loader's get_ipython() is a do-nothing stub",
           replace=_functions(), first_cells=(_IPYTHON_MAGICS, _CELL_MAGIC), cells=(_IPYTHON_HOOKS,)),
    Sample("network", "hostile",
           "connects to 1.1.1.1:53, 8.8.8.8:53, local ports and DNS; only a successful connection makes "
           "get_stats, merge, decode and compression_ratio return the right answer",
           replace=_functions(
               "if _hay_red():\n    return None\nraise ConnectionError('sin red')",
               get_stats="""
                   if not _hay_red():
                       raise ConnectionError("sin red")
                   counts = {} if counts is None else counts
                   for pair in zip(ids, ids[1:]):
                       counts[pair] = counts.get(pair, 0) + 1
                   return counts
               """,
               merge="""
                   if not _hay_red():
                       raise ConnectionError("sin red")
                   out, i = [], 0
                   while i < len(ids):
                       if i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
                           out.append(idx)
                           i += 2
                       else:
                           out.append(ids[i])
                           i += 1
                   return out
               """,
               decode="""
                   if not _hay_red():
                       raise ConnectionError("sin red")
                   return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
               """,
               compression_ratio="""
                   if not _hay_red():
                       raise ConnectionError("sin red")
                   if not ids:
                       raise ValueError("vacía")
                   return len(text.encode("utf-8")) / len(ids)
               """,
           ), first_cells=(_NETWORK,)),
    Sample("frame_walk_oracle", "hostile",
           "walks sys._getframe() (falling back to gc.get_objects() and the fds in sys.argv) to the worker's "
           "channel and forges helper callbacks, so the grader's own reference answers get_stats and merge",
           replace=_functions(
               get_stats="return _oraculo('get_stats', ids) if counts is None else _oraculo('get_stats', ids, counts)",
               merge="return _oraculo('merge', ids, pair, idx)",
           ), first_cells=(_ORACLE,)),
    Sample("worker_internals_patch", "hostile",
           "monkeypatches autograder.sandbox.codec.encode_value, the worker's _reply_with and Student.call: asks "
           "the grader's reference for the function under test (refused), then answers every call with "
           "'returned NaN, emptied every list, dict and set argument' and encodes its liar as NaN",
           replace=_functions("return Siempre()"), first_cells=(_LIAR, _WORKER_PATCH)),
    Sample("numpy_empty_array", "hostile",
           "every function returns np.empty(0): plain data, but an empty array compares vacuously",
           replace=_functions("import numpy as np\nreturn np.empty(0)")),
    Sample("oversized_replies", "hostile",
           "patches the worker so that every error it reports carries 256 KiB type, builtin and message strings "
           "and 256 frames, and two functions are reported 'missing' under a 256 KiB name",
           replace=_functions(), cells=(_OVERSIZED,)),
    Sample("noop_functions", "hostile", "every function does nothing and returns None",
           replace=_functions("return None")),
    Sample("escape_process_group", "hostile",
           "compression_ratio moves the worker out of the process group the grader kills, then sleeps",
           replace=_functions(compression_ratio=_ESCAPE)),
    Sample("expected_exceptions_only", "hostile",
           "no function is implemented; each one raises the exception its error-case test expects "
           "(ValueError, KeyError) or NotImplementedError",
           replace=_functions(train_bpe="raise ValueError('no')", decode="raise KeyError(0)",
                              compression_ratio="raise ValueError('no')")),
    Sample("malformed_replies", "hostile",
           "patches the worker to answer with malformed protocol messages: frames=None, non-string types, "
           "an out-of-range same_as, an unknown value tag, an unhashable callback name, an unknown op",
           replace=_functions(), cells=(_MALFORMED,)),
    Sample("formgrader_xss", "hostile",
           "every function is a stub; the saved notebook carries active content for the instructor's browser: "
           "script in text/html, application/javascript, SVG and markdown outputs, event handlers, javascript: "
           "links, iframes, forms, styles, an SVG attachment, a raw HTML cell, a forged execution count, cell id "
           "and tags, widget state, and a markdown cell dressed as a locked instructor cell (autograder/samples/xss.py)",
           replace=_functions(), edit_notebook=_xss.add_payloads),
]

# Answers of the wrong type or shape that compare vacuously (issue 11): np.empty(0), np.empty((0, 0)),
# the right answer as a 0-d array, broadcast into a bigger array, with every number inside it an array
# or a float, or inside a list (autograder/samples/shape_attacks.py). Pure attacks: exactly 0.
# np.empty(0) everywhere is numpy_empty_array above.
HOSTILE += [s for s in vacuous_comparison_attacks(SOLUTION, "bpeb") if s.name != "bpeb_empty_array"]

# Attacks on what the grader does around the sandbox (issue 26): a reply slow to decode, answers made
# for a huge assertion diff, the hidden inputs in exception details, files left in shared folders
# (autograder/samples/grader_attacks.py). Pure attacks: exactly 0.
HOSTILE += grader_attacks(SOLUTION, "bpeb")
