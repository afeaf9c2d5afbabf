/**
 * What an added line must look like for its hunk to be shown to the parent whatever the self-review says:
 * process control, dynamic code, network access, writes outside the tree. One table per language, matched
 * against a hunk's added code (comment lines blanked), so a call split over lines is still seen. They are
 * deliberately broad: a false positive costs the parent one hunk, a miss can cost it the run. The names a
 * worker could compute instead (`globalThis["pro" + "cess"]`, `getattr(sys, …)`) are caught as dynamic code.
 */

export type RiskKind = "process control" | "dynamic code" | "network access" | "a write outside the tree";

export interface RiskPattern {
  kind: RiskKind;
  re: RegExp;
}

export type Language = "js" | "python" | "shell" | "go" | "rust";

const p = (kind: RiskKind, re: RegExp): RiskPattern => ({ kind, re });
const CONTROL = "process control";
const DYNAMIC = "dynamic code";
const NET = "network access";
const WRITE = "a write outside the tree";

/** A string literal naming a place outside the tree: absolute (not /dev/null), under HOME, or above it. */
const OUTSIDE_LITERAL = String
  .raw`['"\x60](?:\/(?!dev\/(?:null|stdout|stderr)\b)|~(?:\/|['"\x60])|\.\.(?:\/|['"\x60]))`;
/** Names of HOME and of git's own directory, which no code under test has a reason to write. */
const OUTSIDE_NAMES = String.raw`\bhomedir\s*\(|\bHOME\b|\bexpanduser\s*\(|\bPath\s*\.\s*home\s*\(|` +
  String.raw`\bUserHomeDir\s*\(|\bhome_dir\s*\(|\.git\/`;
/** A write-like call and a place outside the tree on one line, either order (`Path("/x").write_text(`). */
const writeTo = (verbs: string) =>
  new RegExp(
    String.raw`\b(?:${verbs})\s*\([^\n]*(?:${OUTSIDE_LITERAL}|${OUTSIDE_NAMES})|` +
      String.raw`(?:${OUTSIDE_LITERAL}|${OUTSIDE_NAMES})[^\n]*\.\s*(?:${verbs})\s*\(`,
  );

/** A JS/TS import of one of `names` (a static import, a require call or a dynamic import of the name), any prefix. */
const jsModule = (names: string) =>
  new RegExp(
    String.raw`(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*['"\x60](?:node:|npm:)?(?:${names})` +
      String.raw`(?:@[^'"\x60\/]*)?(?:\/[^'"\x60]*)?['"\x60]`,
  );

const JS: RiskPattern[] = [
  // Not `abort(`: AbortController's is everywhere; `process.abort` is caught below.
  p(CONTROL, /(?<![\w$])(?:exit|reallyExit|kill)\s*\(/),
  p(CONTROL, /\b(?:process|Deno)\s*(?:\?\.|\.)\s*(?:exitCode|addSignalListener|abort)\b/),
  p(
    CONTROL,
    /\bprocess\s*(?:\?\.|\.)\s*(?:on|once|addListener|prepend(?:Once)?Listener)\s*\(\s*['"`](?:exit|beforeExit|SIG\w+|uncaughtException|unhandledRejection)/,
  ),
  // `const p = process`, `f(Deno)`: the object handed on so that its exit is called under another name.
  p(CONTROL, /(?:[=(,:?]|\breturn)\s*(?:globalThis\s*\.\s*)?(?:process|Deno)\s*(?:[;,)\]}]|$)/m),
  p(DYNAMIC, /(?<![\w$.])(?:eval|Function)\s*\(|\bnew\s+Function\b/),
  p(DYNAMIC, /\b(?:process|Deno|globalThis|global|window|self|require|module)\s*(?:\?\.)?\s*\[/),
  p(DYNAMIC, /\bimport\s*\(\s*(?!['"][^'"`$]*['"]\s*[,)])/),
  p(DYNAMIC, /(?<![\w$.])require\s*\(\s*(?!['"][^'"]*['"]\s*\))/),
  p(DYNAMIC, jsModule("child_process|vm|worker_threads|cluster|inspector|module")),
  p(DYNAMIC, /(?<![\w$])(?:spawn|spawnSync|execSync|execFile|execFileSync|fork|execa|execaSync)\s*\(/),
  p(DYNAMIC, /(?<![\w$.])exec\s*\(/),
  p(
    DYNAMIC,
    /\bDeno\s*\.\s*(?:Command|run|dlopen)\b|\bnew\s+Worker\s*\(|\bset(?:Timeout|Interval)\s*\(\s*['"`]/,
  ),
  p(NET, /\bfetch\s*\(|\b(?:XMLHttpRequest|WebSocket|EventSource|WebTransport)\b|\bsendBeacon\b/),
  p(NET, /\bDeno\s*\.\s*(?:connect|connectTls|listen|listenTls|listenDatagram|startTls|resolveDns|serve)\b/),
  p(NET, jsModule("http|https|http2|net|tls|dgram|dns|axios|got|undici|node-fetch|ws|superagent")),
  p(
    WRITE,
    writeTo(
      "writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|writeTextFile|writeTextFileSync|" +
        "mkdir|mkdirSync|rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|rename|renameSync|copyFile|copyFileSync|" +
        "cp|cpSync|symlink|symlinkSync|link|linkSync|chmod|chmodSync|truncate|truncateSync|remove|removeSync|" +
        "open|openSync|create|createSync|writeFileStr",
    ),
  ),
];

const NET_MODULES =
  String.raw`socket|ssl|urllib\d?|urllib3|requests|httpx|aiohttp|http\.client|http\.server|` +
  String.raw`ftplib|smtplib|poplib|imaplib|telnetlib|xmlrpc|websockets?|paramiko|asyncssh|pycurl|grpc`;

const PYTHON: RiskPattern[] = [
  p(CONTROL, /(?<!\w)_?exit\s*\(|(?<![\w.])quit\s*\(|\bSystemExit\b|\bKeyboardInterrupt\s*\(/),
  p(CONTROL, /\b(?:os|posix)\s*\.\s*(?:abort|kill|killpg)\s*\(|\.\s*(?:kill|terminate|send_signal)\s*\(/),
  p(CONTROL, /\bsignal\s*\.\s*(?:signal|alarm|setitimer|pthread_kill|raise_signal)\s*\(|\batexit\b/),
  p(
    CONTROL,
    /^\s*from\s+(?:sys|os|posix|signal)\s+import\b[^\n]*\b(?:exit|_exit|abort|kill|killpg|signal)\b/m,
  ),
  p(DYNAMIC, /(?<![\w.])(?:eval|exec|execfile|compile)\s*\(|\b__import__\s*\(|\bimportlib\b|\brunpy\b/),
  p(DYNAMIC, /\bsubprocess\b|\bmultiprocessing\b|\bpty\s*\.\s*(?:spawn|fork)\b|\b(?:ctypes|cffi)\b/),
  p(DYNAMIC, /\bos\s*\.\s*(?:system|popen|spawn\w*|exec\w*|posix_spawn\w*|fork\w*)\s*\(/),
  p(
    DYNAMIC,
    /\b(?:getattr|setattr|delattr)\s*\(\s*(?:os|sys|subprocess|builtins|__builtins__|importlib|signal)\b/,
  ),
  p(DYNAMIC, /\b(?:__builtins__|builtins)\b|\b(?:globals|vars)\s*\(|\.__dict__\b/),
  p(
    DYNAMIC,
    /\bsys\s*\.\s*(?:modules|meta_path|path_hooks|settrace|setprofile|path\s*\.\s*(?:insert|append|extend))\b/,
  ),
  p(DYNAMIC, /\b(?:pickle|cPickle|marshal|dill|shelve)\s*\.\s*loads?\s*\(/),
  p(
    NET,
    new RegExp(String.raw`^\s*(?:from\s+(?:${NET_MODULES})\b|import\s[^\n#]*\b(?:${NET_MODULES})\b)`, "m"),
  ),
  p(NET, /\b(?:urlopen|urlretrieve|create_connection|open_connection)\s*\(|\bsocket\s*\.\s*socket\s*\(/),
  p(
    WRITE,
    writeTo(
      "open|write_text|write_bytes|makedirs|mkdir|remove|unlink|rmdir|rename|replace|rmtree|copy|copy2|" +
        "copyfile|copytree|move|symlink|symlink_to|link|hardlink_to|chmod|chown|touch|truncate",
    ),
  ),
];

const SHELL: RiskPattern[] = [
  p(CONTROL, /(?<![\w$.-])(?:exit|kill|killall|pkill|trap|disown|nohup|setsid)\b(?![-=])/),
  p(DYNAMIC, /(?<![\w$.-])(?:eval|exec|source)\b(?![-=])|(?:^|[;&|]\s*)\.\s+\S/m),
  p(DYNAMIC, /\b(?:bash|sh|zsh|dash|ksh|python3?|node|deno|perl|ruby)\s+-[ce]\b/),
  p(
    NET,
    /(?<![\w$.-])(?:curl|wget|nc|ncat|netcat|socat|ssh|scp|sftp|rsync|telnet|ftp)\b(?![-=])|\/dev\/(?:tcp|udp)\//,
  ),
  p(
    WRITE,
    /(?:>>?|\btee(?:\s+-a)?)\s*["']?(?:\/(?!dev\/(?:null|stdout|stderr)\b)|~|\$HOME|\$\{HOME\}|\.\.\/)/,
  ),
  p(
    WRITE,
    /(?<![\w-])(?:cp|mv|rm|ln|mkdir|chmod|chown|install|touch|dd)\b[^\n#]*\s["']?(?:\/(?!dev\/null\b)|~\/|\$HOME|\$\{HOME\}|\.\.\/)/,
  ),
];

const GO: RiskPattern[] = [
  p(CONTROL, /\bos\s*\.\s*Exit\s*\(|\blog\s*\.\s*(?:Fatal\w*|Panic\w*)\s*\(|\bruntime\s*\.\s*Goexit\b/),
  p(
    CONTROL,
    /\bsyscall\s*\.\s*(?:Kill|Exit|Tgkill)\b|\bsignal\s*\.\s*(?:Notify|Ignore)\b|\.\s*Process\s*\.\s*(?:Kill|Signal)\b/,
  ),
  p(DYNAMIC, /"os\/exec"|\bexec\s*\.\s*Command(?:Context)?\s*\(|\bsyscall\s*\.\s*(?:Exec|ForkExec)\b/),
  p(DYNAMIC, /\bos\s*\.\s*StartProcess\b|"plugin"|\bplugin\s*\.\s*Open\b/),
  p(NET, /"net(?:\/http(?:\/\w+)?|\/rpc|\/smtp)?"|"google\.golang\.org\/grpc"/),
  p(
    NET,
    /\bnet\s*\.\s*(?:Dial\w*|Listen\w*)\b|\bhttp\s*\.\s*(?:Get|Post|PostForm|Head|NewRequest\w*|DefaultClient|ListenAndServe\w*)\b/,
  ),
  p(
    WRITE,
    writeTo(
      "WriteFile|Create|OpenFile|Mkdir|MkdirAll|Remove|RemoveAll|Rename|Symlink|Link|Chmod|Chown|Truncate",
    ),
  ),
];

const RUST: RiskPattern[] = [
  p(CONTROL, /\bprocess\s*::\s*(?:exit|abort)\b|\buse\s+std\s*::\s*process\b|\.\s*kill\s*\(\s*\)/),
  p(CONTROL, /\blibc\s*::\s*(?:exit|_exit|kill|signal|sigaction|raise|abort)\b|\b(?:ctrlc|signal_hook)\b/),
  p(DYNAMIC, /\bprocess\s*::\s*Command\b|\bCommand\s*::\s*new\s*\(|\b(?:libloading|dlopen)\b/),
  p(NET, /\bstd\s*::\s*net\b|\b(?:TcpStream|TcpListener|UdpSocket)\b|\b(?:reqwest|hyper|ureq|surf|isahc)\b/),
  p(
    WRITE,
    writeTo(
      "write|create_dir|create_dir_all|remove_file|remove_dir|remove_dir_all|rename|copy|hard_link|" +
        "set_permissions|create|open",
    ),
  ),
];

const TABLES: Record<Language, RiskPattern[]> = { js: JS, python: PYTHON, shell: SHELL, go: GO, rust: RUST };

const EXTENSIONS: Record<string, Language> = {
  js: "js",
  mjs: "js",
  cjs: "js",
  jsx: "js",
  ts: "js",
  mts: "js",
  cts: "js",
  tsx: "js",
  py: "python",
  pyw: "python",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  ksh: "shell",
  go: "go",
  rs: "rust",
};

/** Files without an extension that run as shell: make and just recipes, scripts in the usual places. */
const SHELL_NAMES = /^(?:GNUmakefile|[Mm]akefile|[Jj]ustfile)$/;
const SCRIPT_DIRS = /(?:^|\/)(?:bin|scripts?|hooks|\.husky|\.githooks)\//;

/**
 * The language of a changed file: its shebang (`firstLine`, when the hunk starts at line 1) first, then its
 * extension; a file without one is shell when it is a makefile or sits in a script directory, else nothing
 * (a LICENSE is not code).
 */
export function languageOf(file: string, firstLine?: string): Language | null {
  const shebang = firstLine?.startsWith("#!") ? firstLine : "";
  if (/\b(?:env\s+(?:-S\s+)?)?(?:ba|z|da|k)?sh\b/.test(shebang)) return "shell";
  if (/\bpython/.test(shebang)) return "python";
  if (/\b(?:node|deno|bun|tsx|ts-node)\b/.test(shebang)) return "js";
  const base = file.split("/").at(-1) ?? file;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return SHELL_NAMES.test(base) || SCRIPT_DIRS.test(file) ? "shell" : null;
  return EXTENSIONS[base.slice(dot + 1).toLowerCase()] ?? null;
}

export function patternsFor(language: Language): RiskPattern[] {
  return TABLES[language];
}

/** Whole-line comments, blanked before matching: they run nothing. Block comments are not skipped. */
export function isCommentLine(language: Language, line: string): boolean {
  const t = line.trimStart();
  return language === "js" || language === "go" || language === "rust"
    ? t.startsWith("//")
    : t.startsWith("#") && !t.startsWith("#!");
}
