/**
 * Verifier logs for context packages (Part 032 §15.3/§18: "structured summary plus link artifact"): which command
 * ran, how it exited, which tests failed with what message, where in the code, and the few log lines around the
 * first failure, instead of the whole log. The log comes from the caller and is untrusted: one pass over its lines,
 * each looked at only up to MAX_LOG_LINE_CHARS, with regexes that cannot backtrack badly; every list is capped.
 */

/** Input past this many characters is not read. */
export const MAX_LOG_CHARS = 16 * 1024 * 1024;
/** Characters of a line that are looked at (and shown in the excerpt). */
export const MAX_LOG_LINE_CHARS = 2000;
export const MAX_LOG_FAILURES = 200;
export const MAX_LOG_LOCATIONS = 200;
/** Lines in the excerpt, of which EXCERPT_LINES_BEFORE come before the first failure or error. */
export const EXCERPT_LINES = 25;
const EXCERPT_LINES_BEFORE = 5;
const MAX_MESSAGE_CHARS = 500;
const MAX_COMMAND_CHARS = 500;
const MAX_LOCATION_TEXT_CHARS = 300;
/** Lines after a failure header searched for its message (the assertion is on the next non-blank line). */
const MESSAGE_LOOKAHEAD_LINES = 3;
/** Lines of a TAP YAML block searched for its `error:` key. */
const TAP_YAML_LOOKAHEAD_LINES = 20;
const CLIPPED = " …";

export interface LogFailure {
  /** The test as the tool names it (`com.acme.FooTest.shouldX`, `Suite › name`, `tests/test_x.py::test_y`). */
  test: string;
  message: string | null;
  /** 1-based log line where the failure is reported first. */
  line: number;
}

export interface LogLocation {
  /** As the log has it, `file://` and `./` removed; absolute paths stay absolute, Java frames give the package path. */
  path: string;
  line: number;
  column: number | null;
  text: string;
  logLine: number;
}

export interface LogExcerpt {
  startLine: number;
  endLine: number;
  text: string;
}

export interface VerifierLogSummary {
  lineCount: number;
  command: string | null;
  exitCode: number | null;
  failures: LogFailure[];
  locations: LogLocation[];
  errorExcerpt: LogExcerpt | null;
  /** Something was cut: the input, the failure or location lists, or a long line in the excerpt. */
  truncated: boolean;
}

const ANSI_ESCAPE = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;
/** GitHub Actions and similar prefix every line with a timestamp. */
const CI_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /;

const PROMPT_COMMAND = /^[$>+] (\S.*)$/;
/** npm/pnpm print `> pkg@1.0.0 script` before the script's command. */
const NPM_SCRIPT_LABEL = /^> (?:@[\w.-]+\/)?[\w.-]+@[\w.+-]+ /;
const GRADLE_PROGRESS = /^> (?:Task|Configure|Transform) /;
const RUNNING_COMMAND = /^Running: (\S.*)$/;
const EXIT_CODE = /\bexit(?:ed)?(?: with)?(?: exit)? (?:code|status)[:=]? ?(-?\d{1,5})\b/i;
const MAKE_ERROR = /^make(?:\[\d+\])?: \*\*\* .*\bError (\d{1,5})/;

const MAVEN_CLASS_SUMMARY = /(Tests run: \d+, Failures: \d+, Errors: \d+)[^<]*<<< (?:FAILURE|ERROR)! -+ in (\S+)/;
const MAVEN_TIME_ELAPSED = /^(?:\[ERROR\]\s+)?(\S+)\s+(?:-- )?Time elapsed:[^<]*<<< (?:FAILURE|ERROR)!/;
const JUNIT4_NAME = /^([\w$]+)\(([\w$.]+)\)$/;
const MAVEN_RESULTS_HEADER = /^\[ERROR\] (?:Failures|Errors):\s*$/;
const MAVEN_RESULTS_ENTRY = /^\[ERROR\] {2,}/;
const MAVEN_RESULT = /^\[ERROR\]\s+((?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*)(?::(\d+))?(?:->\S*)?\s+(?:»\s*)?(.*)$/;
const TAP_NOT_OK = /^\s*not ok \d+(?: -)?(?: (.*))?$/;
const TAP_DIRECTIVE = /\s#\s*(?:TODO|SKIP)\b/i;
const TAP_ERROR = /^\s*error: ?(.*)$/;
const YAML_BLOCK_INDICATOR = /^[|>][+-]?$/;
const FAIL_LINE = /^\s*FAIL\s+(\S.*)$/;
const GO_PACKAGE_FAIL = /^(\S+)\t/;
const JEST_DETAIL = /^\s*● (.+)$/;
const JEST_NOT_TESTS = /^(?:Test suite failed to run|Console)\b/;
const CROSS_MARK = /^\s*[✕×✖]\s+(.+)$/;
const TRAILING_DURATION = /\s\(?\d[\d.]*\s?m?s\)?$/;
const PYTEST_SUMMARY = /^(?:FAILED|ERROR) (\S+)(?: - (.*))?$/;
const PYTEST_VERBOSE = /^(\S+::\S+) (?:FAILED|ERROR)\b/;
const GO_FAIL = /^\s*--- FAIL: (\S+)/;
const CARGO_FAIL = /^test (\S+) \.\.\. FAILED$/;
const CARGO_PANIC = /^thread '([^']*)' panicked at (.*)$/;
/** Separators between a test's suite or class and its own name, for telling one test reported twice. */
const NAME_SEPARATORS = [".", " > ", " › ", "::", "#"];
/** vitest puts a failure's message on the next line after an arrow. */
const VITEST_ARROW = /^→ /;
/** Lines of a test list, a stack or a runner's progress, never a failure's message. */
const NOT_A_MESSAGE = /^(?:at |[✓✔√○↓✕×✖] |ok \d|not ok \d|---$|\.\.\.$|=== |FAIL$|PASS$)/;

const JAVA_FRAME = /^\s*at (?:[\w.$@-]+\/+)?((?:[\w$]+\.)*[\w$]+)\.[\w$<>-]+\(([\w$.-]+\.(?:java|kt|kts|scala|groovy)):(\d{1,7})\)/;
const MAVEN_COMPILER = /^\[ERROR\]\s+(\S+?):\[(\d{1,7})(?:,(\d{1,5}))?\]/;
const TSC_ERROR = /^\s*([^\s()]+)\((\d{1,7}),(\d{1,5})\): (?:error|warning)/;
const PYTHON_FRAME = /^\s*File "([^"]+)", line (\d{1,7})/;
const RUST_ARROW = /^\s*--> ([^\s:]+):(\d{1,7}):(\d{1,5})/;
const JS_FRAME_TARGET = /^(.*):(\d{1,7}):(\d{1,5})$/;
const GENERIC_LOCATION = /(?:^|[\s(['"=])((?:file:\/\/)?[\w./@~+-]+):(\d{1,7})(?::(\d{1,5}))?/g;
const SOURCE_EXTENSIONS = new Set(
  "java kt kts scala groovy gradle ts tsx mts cts js jsx mjs cjs vue svelte py pyi go rs c h cc cpp cxx hpp cs fs rb php swift m mm dart lua ex exs erl hs ml sh sql proto yaml yml json xml toml properties".split(" "),
);
/** Frames in these packages are the JDK, build tools or test frameworks, not code a change can fix. */
const LIBRARY_PACKAGES = /^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|org\.junit|junit|org\.opentest4j|org\.apache\.maven|org\.gradle|worker\.org\.gradle|org\.mockito|org\.assertj|org\.hamcrest|org\.springframework|net\.bytebuddy)\./;
const LIBRARY_PATH = /(?:^node:|^internal\/|^<|(?:^|\/)(?:node_modules|site-packages|dist-packages)\/|\/rustc\/|\/\.cargo\/registry\/|\/go\/pkg\/mod\/|\/usr\/local\/go\/src\/|\/usr\/lib\/go)/;

const ERROR_MARKER =
  /^(?:\[ERROR\]|ERROR\b|FATAL\b|FAILURE:|BUILD FAILED|BUILD FAILURE|npm ERR!|npm error |error(?:\[E\d{1,5}\])?:|panic:|Traceback \(most recent call last\)|make(?:\[\d+\])?: \*\*\*|Exception in thread |\w+(?:\.\w+)*(?:Error|Exception): )/;
const COMPILER_ERROR = /: (?:fatal )?error(?: TS\d{1,6})?:/;
/** pytest's assertion lines: its failures are listed at the end, the detail is here. */
const PYTEST_ASSERTION = /^E {3}/;

interface FailureHit {
  test: string;
  message: string | null;
  /** The message is on a following line (or in a TAP YAML block). */
  follows: "line" | "tap" | null;
  /** A file, class or package that failed, kept only when no single test is named. */
  container: boolean;
}

interface Pending {
  index: number;
  left: number;
  tap: boolean;
}

interface ScanState {
  lineCount: number;
  command: string | null;
  commandState: "first" | "npm_label" | "done";
  exitCode: number | null;
  failures: LogFailure[];
  failureIndex: Map<string, number>;
  containers: LogFailure[];
  locations: LogLocation[];
  locationKeys: Set<string>;
  pending: Pending | null;
  mavenResults: boolean;
  firstFailure: number | null;
  firstAssertion: number | null;
  firstError: number | null;
  firstLocation: number | null;
  truncated: boolean;
  /** Keep frames in installed libraries (site-packages, node_modules, …): an issue about a library has them. */
  libraryFrames: boolean;
}

/**
 * Summarizes a build or test log: Maven/Gradle, node:test (TAP and spec), jest, vitest, pytest, go test and cargo
 * test failures; Java, TS/JS, Python, Go and Rust locations. Never throws.
 */
export function summarizeVerifierLog(text: string, options: { libraryFrames?: boolean } = {}): VerifierLogSummary {
  const st: ScanState = {
    libraryFrames: options.libraryFrames ?? false,
    lineCount: 0,
    command: null,
    commandState: "first",
    exitCode: null,
    failures: [],
    failureIndex: new Map(),
    containers: [],
    locations: [],
    locationKeys: new Set(),
    pending: null,
    mavenResults: false,
    firstFailure: null,
    firstAssertion: null,
    firstError: null,
    firstLocation: null,
    truncated: text.length > MAX_LOG_CHARS,
  };
  const body = text.length > MAX_LOG_CHARS ? text.slice(0, MAX_LOG_CHARS) : text;
  st.lineCount = forEachLine(body, (line, lineNo) => {
    scanLine(st, line.text, lineNo);
    return true;
  });
  const anchor = st.firstAssertion ?? st.firstFailure ?? st.firstError ?? st.firstLocation;
  const errorExcerpt = anchor === null ? null : excerpt(body, anchor, st);
  return {
    lineCount: st.lineCount,
    command: st.command,
    exitCode: st.exitCode,
    failures: st.failures.length > 0 ? st.failures : st.containers,
    locations: st.locations,
    errorExcerpt,
    truncated: st.truncated,
  };
}

interface LogLine {
  text: string;
  clipped: boolean;
}

/**
 * Calls `visit` with each line, cleaned: CR and terminal colours removed, only what a `\r` progress line shows last,
 * a CI timestamp prefix dropped, cut to MAX_LOG_LINE_CHARS. Stops when `visit` returns false. Returns lines visited.
 */
function forEachLine(text: string, visit: (line: LogLine, lineNo: number) => boolean): number {
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    let raw = text.slice(start, end);
    start = end + 1;
    lineNo += 1;
    if (raw.endsWith("\r")) raw = raw.slice(0, -1);
    const cr = raw.lastIndexOf("\r");
    if (cr !== -1) raw = raw.slice(cr + 1);
    const clipped = raw.length > MAX_LOG_LINE_CHARS;
    const line = (clipped ? raw.slice(0, MAX_LOG_LINE_CHARS) : raw).replace(ANSI_ESCAPE, "").replace(CI_TIMESTAMP, "");
    if (!visit({ text: line, clipped }, lineNo)) break;
  }
  return lineNo;
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}${CLIPPED}` : s;
}

function scanLine(st: ScanState, line: string, lineNo: number): void {
  const trimmed = line.trim();
  readCommand(st, trimmed);
  const exit = EXIT_CODE.exec(line) ?? MAKE_ERROR.exec(trimmed);
  if (exit) st.exitCode = Number(exit[1]);
  const hit = matchFailure(st, line, trimmed);
  if (hit) recordFailure(st, hit, lineNo);
  else if (st.pending && trimmed !== "") readPendingMessage(st, trimmed);
  else if (st.pending && --st.pending.left <= 0) st.pending = null;
  const panic = CARGO_PANIC.exec(trimmed);
  if (panic) attachPanic(st, panic[1]!, panic[2]!, lineNo);
  const loc = matchLocation(line, trimmed, st.libraryFrames);
  if (loc) recordLocation(st, loc, trimmed, lineNo);
  if (st.firstAssertion === null && PYTEST_ASSERTION.test(line)) st.firstAssertion = lineNo;
  if (st.firstError === null && (ERROR_MARKER.test(trimmed) || COMPILER_ERROR.test(line) || panic)) st.firstError = lineNo;
}

/** `$ cmd`, `> cmd` or `+ cmd` as the first line (after npm's `> pkg@1.0.0 test` label), else `Running: cmd`. */
function readCommand(st: ScanState, trimmed: string): void {
  if (st.command !== null || trimmed === "") return;
  if (st.commandState !== "done") {
    const m = PROMPT_COMMAND.exec(trimmed);
    if (st.commandState === "first" && m && NPM_SCRIPT_LABEL.test(trimmed)) {
      st.commandState = "npm_label";
      return;
    }
    const wanted = st.commandState === "first" ? !GRADLE_PROGRESS.test(trimmed) : trimmed.startsWith(">");
    st.commandState = "done";
    if (m && wanted) {
      st.command = clip(m[1]!, MAX_COMMAND_CHARS);
      return;
    }
  }
  const running = RUNNING_COMMAND.exec(trimmed);
  if (running) st.command = clip(running[1]!, MAX_COMMAND_CHARS);
}

/** The test a line reports as failed, if it is a failure header of one of the known tools. */
function matchFailure(st: ScanState, line: string, trimmed: string): FailureHit | null {
  const test = (name: string, message: string | null = null, follows: FailureHit["follows"] = null): FailureHit => ({
    test: name,
    message: message && clip(message, MAX_MESSAGE_CHARS),
    follows,
    container: false,
  });
  if (MAVEN_RESULTS_HEADER.test(trimmed)) {
    st.mavenResults = true;
    return null;
  }
  if (st.mavenResults && !MAVEN_RESULTS_ENTRY.test(line)) st.mavenResults = false;
  let m = MAVEN_CLASS_SUMMARY.exec(trimmed);
  if (m) return { test: m[2]!, message: m[1]!, follows: null, container: true };
  if ((m = MAVEN_TIME_ELAPSED.exec(trimmed))) {
    const junit4 = JUNIT4_NAME.exec(m[1]!);
    return test(junit4 ? `${junit4[2]}.${junit4[1]}` : m[1]!, null, "line");
  }
  if ((m = MAVEN_RESULT.exec(trimmed)) && (st.mavenResults || m[2] !== undefined)) return test(m[1]!, m[3] || null);
  if (trimmed.endsWith(" FAILED") && trimmed.indexOf(" > ") > 0) return test(trimmed.slice(0, -" FAILED".length), null, "line");
  if ((m = TAP_NOT_OK.exec(line))) {
    const name = m[1] ?? "";
    return TAP_DIRECTIVE.test(name) ? null : test(name.trim() || trimmed, null, "tap");
  }
  if ((m = FAIL_LINE.exec(line))) {
    const what = m[1]!.replace(TRAILING_DURATION, "").trim();
    if (what.includes(" > ")) return test(what, null, "line");
    return { test: GO_PACKAGE_FAIL.exec(what)?.[1] ?? what, message: null, follows: null, container: true };
  }
  if ((m = JEST_DETAIL.exec(line))) return JEST_NOT_TESTS.test(m[1]!) ? null : test(m[1]!.trim(), null, "line");
  if ((m = CROSS_MARK.exec(line))) {
    const name = m[1]!.trimEnd().replace(TRAILING_DURATION, "").trim();
    return name === "failing tests:" ? null : test(name, null, "line");
  }
  if ((m = PYTEST_SUMMARY.exec(trimmed)) && (m[1]!.includes("::") || m[1]!.endsWith(".py"))) return test(m[1]!, m[2] ?? null);
  if ((m = PYTEST_VERBOSE.exec(trimmed))) return test(m[1]!);
  if ((m = GO_FAIL.exec(line))) return test(m[1]!, null, "line");
  if ((m = CARGO_FAIL.exec(trimmed))) return test(m[1]!);
  return null;
}

/** The same test reported twice (`com.acme.FooTest.x` and `FooTest.x`, `Suite › x` and `x`): one is the other's tail. */
function sameTest(a: string, b: string): boolean {
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  return long === short || NAME_SEPARATORS.some((sep) => long.endsWith(`${sep}${short}`));
}

function recordFailure(st: ScanState, hit: FailureHit, lineNo: number): void {
  st.pending = null;
  st.firstFailure ??= lineNo;
  if (hit.container) {
    if (st.containers.length < MAX_LOG_FAILURES) st.containers.push({ test: hit.test, message: hit.message, line: lineNo });
    else st.truncated = true;
    return;
  }
  let index = st.failureIndex.get(hit.test);
  if (index === undefined && st.failures.length < MAX_LOG_FAILURES) {
    index = st.failures.findIndex((f) => sameTest(f.test, hit.test));
    if (index === -1) {
      index = st.failures.push({ test: hit.test, message: null, line: lineNo }) - 1;
    } else if (hit.test.length > st.failures[index]!.test.length) {
      st.failures[index]!.test = hit.test;
    }
    st.failureIndex.set(hit.test, index);
  }
  if (index === undefined) {
    st.truncated = true;
    return;
  }
  const f = st.failures[index]!;
  f.message ??= hit.message;
  if (f.message === null && hit.follows) {
    st.pending = { index, left: hit.follows === "tap" ? TAP_YAML_LOOKAHEAD_LINES : MESSAGE_LOOKAHEAD_LINES, tap: hit.follows === "tap" };
  }
}

/** The message after a failure header: the next non-blank line, or a TAP block's `error:` value. */
function readPendingMessage(st: ScanState, trimmed: string): void {
  const p = st.pending!;
  const f = st.failures[p.index]!;
  p.left -= 1;
  if (p.tap) {
    const m = TAP_ERROR.exec(trimmed);
    if (m && YAML_BLOCK_INDICATOR.test(m[1]!.trim())) {
      st.pending = { index: p.index, left: MESSAGE_LOOKAHEAD_LINES, tap: false };
      return;
    }
    if (m) f.message = clip(unquoteYaml(m[1]!.trim()), MAX_MESSAGE_CHARS);
    if (m || trimmed === "..." || p.left <= 0) st.pending = null;
    return;
  }
  st.pending = null;
  if (!NOT_A_MESSAGE.test(trimmed)) f.message = clip(trimmed.replace(VITEST_ARROW, ""), MAX_MESSAGE_CHARS);
}

function unquoteYaml(v: string): string {
  return v.length >= 2 && (v[0] === "'" || v[0] === '"') && v[v.length - 1] === v[0] ? v.slice(1, -1) : v;
}

/** cargo: `thread 'x::y' panicked at src/lib.rs:10:5:` then the message, or (older) `'msg', src/lib.rs:10:5`. */
function attachPanic(st: ScanState, name: string, rest: string, lineNo: number): void {
  const index = st.failures.findIndex((f) => f.test === name);
  if (index === -1 || st.failures[index]!.message !== null) return;
  if (rest.endsWith(":")) st.pending = { index, left: MESSAGE_LOOKAHEAD_LINES, tap: false };
  else st.failures[index]!.message = clip(rest, MAX_MESSAGE_CHARS);
  st.firstAssertion ??= lineNo;
}

interface LocationHit {
  path: string;
  line: number;
  column: number | null;
}

/** A source location on the line; none for a stack frame in the JDK, node_modules and the like (unless `libraryFrames`). */
function matchLocation(line: string, trimmed: string, libraryFrames: boolean): LocationHit | null {
  const at = (path: string, l: string, c: string | undefined): LocationHit | null => {
    const p = cleanLocationPath(path);
    return p === null || (!libraryFrames && LIBRARY_PATH.test(p)) ? null : { path: p, line: Number(l), column: c === undefined ? null : Number(c) };
  };
  let m = JAVA_FRAME.exec(line);
  if (m) {
    const segments = m[1]!.split(".");
    if (LIBRARY_PACKAGES.test(`${m[1]!}.`)) return null;
    return at([...segments.slice(0, -1), m[2]!].join("/"), m[3]!, undefined);
  }
  if (trimmed.startsWith("at ")) {
    const inner = trimmed.endsWith(")") && trimmed.includes("(") ? trimmed.slice(trimmed.lastIndexOf("(") + 1, -1) : trimmed.slice(3);
    if ((m = JS_FRAME_TARGET.exec(inner))) return at(m[1]!, m[2]!, m[3]);
  }
  if ((m = MAVEN_COMPILER.exec(trimmed) ?? TSC_ERROR.exec(line) ?? PYTHON_FRAME.exec(line) ?? RUST_ARROW.exec(line))) return at(m[1]!, m[2]!, m[3]);
  for (const g of line.matchAll(GENERIC_LOCATION)) {
    const path = g[1]!;
    const dot = path.lastIndexOf(".");
    if (dot !== -1 && SOURCE_EXTENSIONS.has(path.slice(dot + 1).toLowerCase())) return at(path, g[2]!, g[3]);
  }
  return null;
}

function cleanLocationPath(path: string): string | null {
  let p = path.startsWith("file://") ? path.slice("file://".length) : path;
  if (p.startsWith("./")) p = p.slice(2);
  return p === "" ? null : p;
}

function recordLocation(st: ScanState, loc: LocationHit, trimmed: string, lineNo: number): void {
  st.firstLocation ??= lineNo;
  const key = `${loc.path}\0${loc.line}\0${loc.column ?? ""}`;
  if (st.locationKeys.has(key)) return;
  if (st.locations.length >= MAX_LOG_LOCATIONS) {
    st.truncated = true;
    return;
  }
  st.locationKeys.add(key);
  st.locations.push({ ...loc, text: clip(trimmed, MAX_LOCATION_TEXT_CHARS), logLine: lineNo });
}

/** EXCERPT_LINES cleaned lines from a little before the anchor; a clipped line ends in " …". */
function excerpt(text: string, anchor: number, st: ScanState): LogExcerpt {
  const startLine = Math.max(1, anchor - EXCERPT_LINES_BEFORE);
  const endLine = Math.min(st.lineCount, startLine + EXCERPT_LINES - 1);
  const lines: string[] = [];
  forEachLine(text, (line, lineNo) => {
    if (lineNo >= startLine) {
      lines.push(line.clipped ? `${line.text}${CLIPPED}` : line.text);
      if (line.clipped) st.truncated = true;
    }
    return lineNo < endLine;
  });
  return { startLine, endLine, text: lines.join("\n") };
}
