/**
 * The Python module names a check's interpreter and runner own: the standard
 * library (Python 3.11's `sys.stdlib_module_names`, plus the names later
 * releases added; the regression-test package `test` is not on it), the
 * runners and what they load, and the modules a check's argv names (`-m X`,
 * pytest's `-p X`). A file in the tree that Python could import under one of
 * these names shadows the real module (the tree comes first on `sys.path`
 * for `python -m`, a script's directory, pytest's rootdir insertion). Pure.
 */

const STDLIB_NAMES = `
__future__ _abc _aix_support _ast _asyncio _bisect _blake2 _bootsubprocess _bz2 _codecs _codecs_cn _codecs_hk
_codecs_iso2022 _codecs_jp _codecs_kr _codecs_tw _collections _collections_abc _compat_pickle _compression
_contextvars _crypt _csv _ctypes _curses _curses_panel _datetime _dbm _decimal _elementtree _frozen_importlib
_frozen_importlib_external _functools _gdbm _hashlib _heapq _imp _io _json _locale _lsprof _lzma _markupbase _md5
_msi _multibytecodec _multiprocessing _opcode _operator _osx_support _overlapped _pickle _posixshmem
_posixsubprocess _py_abc _pydecimal _pyio _queue _random _scproxy _sha1 _sha256 _sha3 _sha512 _signal
_sitebuiltins _socket _sqlite3 _sre _ssl _stat _statistics _string _strptime _struct _symtable _thread
_threading_local _tkinter _tokenize _tracemalloc _typing _uuid _warnings _weakref _weakrefset _winapi _zoneinfo
abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect
builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall
concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm
decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput
fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq
hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3
linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt
multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib
pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd
py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy
sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd
sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau
symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit
tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata
unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp
zipfile zipimport zlib zoneinfo
_pylong _wmi _pydatetime _colorize _interpchannels _interpqueues _interpreters _ios_support _opcode_metadata
_pyrepl _suggestions _sysconfig _android_support _apple_support annotationlib compression _zstd _hmac _types
_remote_debugging
`;

/** The standard library's top-level module names. */
export const PYTHON_STDLIB: ReadonlySet<string> = new Set(STDLIB_NAMES.split(/\s+/).filter(Boolean));

/**
 * Modules the usual runners and the interpreter's start-up load beside the standard library: pytest and
 * what it imports (some only when installed), its plugin naming (`pytest_*`), coverage, hypothesis, the
 * other runners, setuptools' start-up hooks, and the two start-up modules `site` imports by name.
 */
export const PYTHON_RUNNER_MODULES: readonly string[] = [
  "pytest",
  "_pytest",
  "py",
  "pluggy",
  "iniconfig",
  "packaging",
  "exceptiongroup",
  "tomli",
  "pygments",
  "colorama",
  "argcomplete",
  "pytest_*",
  "xdist",
  "execnet",
  "coverage",
  "hypothesis",
  "_hypothesis_pytestplugin",
  "_hypothesis_globals",
  "nose",
  "nose2",
  "unittest2",
  "green",
  "tox",
  "nox",
  "setuptools",
  "pkg_resources",
  "_distutils_hack",
  "pip",
  "sitecustomize",
  "usercustomize",
];

const base = (program: string) => program.split("/").pop() ?? program;

/** True for a Python interpreter (`python`, `python3`, `python3.12`, a venv's or pyenv's). */
export function isPythonProgram(program: string): boolean {
  return /^python(\d+(\.\d+)?)?$/.test(base(program));
}

/** The top-level modules a check's argv names: `python -m X` (`-mX` too), and pytest's `-p X` plugins. */
export function argvModules(argv: readonly (readonly string[])[]): string[] {
  const out = new Set<string>();
  const top = (name: string) => name.split(".")[0];
  for (const cmd of argv) {
    // Before `-m`, the interpreter's options; after `-m pytest` (or from `pytest` itself), pytest's.
    let mode: "python" | "pytest" | "other" = isPythonProgram(cmd[0] ?? "")
      ? "python"
      : ["pytest", "py.test"].includes(base(cmd[0] ?? ""))
      ? "pytest"
      : "other";
    for (let i = 1; i < cmd.length && mode !== "other"; i++) {
      const flag = cmd[i].slice(0, 2);
      if (mode === "python") {
        // A script or `-c` code ends the interpreter's options; `-W` and `-X` take a value.
        if (!cmd[i].startsWith("-") || flag === "-c") break;
        if (cmd[i] === "-W" || cmd[i] === "-X") i++;
      }
      if (flag !== (mode === "python" ? "-m" : "-p")) continue;
      const value = cmd[i].length > 2 ? cmd[i].slice(2) : cmd[++i] ?? "";
      if (value && !value.startsWith("no:")) out.add(top(value));
      if (mode === "python") mode = top(value) === "pytest" ? "pytest" : "other";
    }
  }
  return [...out].filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
}

/** Whether `name` is on the list; an entry ending in `*` is a prefix. */
export function onList(name: string, list: Iterable<string>): boolean {
  for (const entry of list) {
    if (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : name === entry) return true;
  }
  return false;
}
