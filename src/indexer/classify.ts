/**
 * File classification for the indexer: language, binary, generated/vendored, secret-looking file names.
 *
 * Everything here is pure and synchronous: it runs once per file of very large repositories (80k+ files),
 * so every function is a handful of string operations and map lookups. The Linguist-derived lookup maps
 * are built once, on first use, by `createLanguageDetector()` (the default instance is created lazily).
 *
 * Paths are repository-relative and use "/" (a "\" is tolerated and treated like "/").
 */
import * as linguist from "linguist-languages";
import type { Language } from "linguist-languages";

// ---------------------------------------------------------------------------------------------------------
// Language ids
// ---------------------------------------------------------------------------------------------------------

/** Linguist types we accept; anything else (there is nothing else in 9.x, but Linguist may add types) is ignored. */
const ACCEPTED_LINGUIST_TYPES: ReadonlySet<string> = new Set(["programming", "markup", "data", "prose"]);

/** Linguist names whose id is not the plain "lowercase, spaces to dashes" form. */
const LANGUAGE_ID_SPECIAL_CASES: Readonly<Record<string, string>> = {
  "C++": "cpp",
  "C#": "csharp",
  "F#": "fsharp",
  "Objective-C": "objective-c",
  "Objective-C++": "objective-cpp",
};

/**
 * Linguist language name -> repoctx language id: lowercased, spaces -> "-", and (generalising the
 * special cases above) "++" -> "pp" and "#" -> "sharp" (e.g. "Q#" -> "qsharp", "OMNeT++ MSG" -> "omnetpp-msg").
 */
export function languageIdFromLinguistName(name: string): string {
  const special = LANGUAGE_ID_SPECIAL_CASES[name];
  if (special !== undefined) return special;
  return name.toLowerCase().replace(/\+\+/g, "pp").replace(/#/g, "sharp").replace(/\s+/g, "-");
}

/**
 * Extensions claimed by several Linguist languages, resolved explicitly (keys are lowercase, with the dot).
 * Values are repoctx language ids; `null` means "deliberately unknown". Consulted before the Linguist map,
 * so an entry also pins an extension that is unambiguous today against future Linguist additions.
 */
export const EXTENSION_OVERRIDES: Readonly<Record<string, string | null>> = {
  ".h": "c", // C, C++ and Objective-C all claim it; C is the common denominator (C++ headers mostly use .hpp/.hh)
  ".ts": "typescript", // Linguist also lists XML (Qt Linguist translation files); TypeScript dominates by far
  ".tsx": "tsx", // Linguist also lists XML; TSX is what these files are in practice
  ".js": "javascript", // pinned: the most common source extension
  ".mjs": "javascript", // ES module JavaScript
  ".cjs": "javascript", // CommonJS JavaScript
  ".m": "objective-c", // also MATLAB, Mercury, Limbo, M, MUF, Wolfram; Objective-C is the most common in repos
  ".mm": "objective-cpp", // Linguist also lists XML; Objective-C++ in practice
  ".pl": "perl", // also Prolog and Raku; Perl is far more common
  ".pm": "perl", // also Raku and X PixMap
  ".t": "perl", // Perl test scripts (also Raku, Terra, Turing)
  ".v": "verilog", // also Rocq Prover (Coq) and V; Verilog is the most common in large repos
  ".md": "markdown", // Linguist also lists GCC Machine Description
  ".json": "json", // Linguist also lists OpenAPI JSON variants (OASv2-json, OASv3-json)
  ".yml": "yaml", // Linguist also lists MiniYAML and OpenAPI YAML variants
  ".yaml": "yaml", // same as .yml
  ".sql": "sql", // also PLSQL, PLpgSQL, SQLPL, TSQL dialects; plain SQL is the safe umbrella
  ".cs": "csharp", // Linguist also lists Smalltalk
  ".fs": "fsharp", // also Filterscript, Forth, GLSL
  ".r": "r", // also Rebol and Rez
  ".inc": "php", // claimed by 12 languages (PHP, C++, Assembly, Pascal, SQL, BitBake, ...); legacy PHP includes are the most common committed .inc files. Low confidence by design.
  ".cls": "apex", // Apex (Salesforce) classes dominate; also TeX document classes, VBA, ObjectScript, OpenEdge ABL
  ".pro": "qmake", // Qt project files; also IDL, INI, Proguard and Prolog
  ".rs": "rust", // Linguist also lists RenderScript and XML
  ".sh": "shell", // pinned
  ".txt": "text", // also Adblock Filter List and Vim Help File
  ".properties": "java-properties", // Linguist also lists INI
  ".mod": null, // AMPL, Modula-2, NMODL, XML and Linux kernel build artefacts; too ambiguous (go.mod is matched by filename)
  ".d": "d", // D; also DTrace and Make dependency files (a build artefact, rarely committed)
  ".frag": "glsl", // fragment shaders; Linguist also lists JavaScript
  ".spec": "rpm-spec", // RPM spec files; Linguist also lists Python and Ruby (their .spec files are rarer)
  ".plist": "xml-property-list", // Apple XML plists; also OpenStep (old-style) property lists
  ".cfg": "ini", // generic INI-style config; Linguist also lists HAProxy
  ".sol": "solidity", // Solidity; Linguist also lists Gerber Image (PCB data)
};

/**
 * Tie-break for ambiguous extensions, filenames and interpreters without an override: the first language of
 * this list among the candidates wins; if none is listed, the best Linguist type (programming, markup, prose,
 * data) wins, and among those the alphabetically first Linguist name.
 */
export const LANGUAGE_PRIORITY: readonly string[] = [
  "JavaScript",
  "TypeScript",
  "Python",
  "Java",
  "C",
  "C++",
  "C#",
  "Go",
  "PHP",
  "Ruby",
  "Rust",
  "Kotlin",
  "Swift",
  "Scala",
  "Shell",
  "HTML",
  "CSS",
  "Markdown",
  "JSON",
  "YAML",
  "XML",
  "SQL",
  "Perl",
];

/** Filenames that Linguist (9.5) does not know but large repositories are full of. Ids are not Linguist ids. */
const EXTRA_FILENAMES: Readonly<Record<string, string>> = {
  Kconfig: "kconfig", // Linux kernel configuration language (thousands of files in the kernel tree)
};

/** Basename prefixes (checked only when no filename/extension matched). */
const FILENAME_PREFIX_RULES: readonly (readonly [prefix: string, id: string])[] = [
  ["Dockerfile.", "dockerfile"], // Dockerfile.dev, Dockerfile.prod, ...
  ["Containerfile.", "dockerfile"], // Podman's name for the same format
  ["Makefile.", "makefile"], // Makefile.linux, Makefile.common, ... (Linguist lists only a few)
  ["Kconfig.", "kconfig"], // Kconfig.debug, Kconfig.platforms, ...
];

export interface LanguageDetector {
  detectLanguage(path: string, firstLine?: string): string | null;
}

/** Second tie-break (after LANGUAGE_PRIORITY): code beats markup beats prose beats data formats. */
const LINGUIST_TYPE_RANK: Readonly<Record<string, number>> = { programming: 0, markup: 1, prose: 2, data: 3 };

function pickByPriority(names: readonly string[], typeOf: ReadonlyMap<string, string>): string {
  const rank = (n: string): number => {
    const p = LANGUAGE_PRIORITY.indexOf(n);
    return p >= 0 ? p : LANGUAGE_PRIORITY.length + (LINGUIST_TYPE_RANK[typeOf.get(n) ?? ""] ?? 4);
  };
  // Deterministic: rank, then code-unit order of the name (not locale order).
  return [...names].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))[0]!;
}

interface ExtensionEntry {
  /** resolved id (override-free tie-break already applied) */
  id: string;
  /** ids of all candidates when ambiguous (a shebang may pick one of them), else null */
  candidates: readonly string[] | null;
}

interface LanguageTables {
  /** lowercase extension (with dot) -> entry */
  extensions: Map<string, ExtensionEntry>;
  /** exact filename -> id */
  filenames: Map<string, string>;
  /** lowercase filename -> id (fallback) */
  filenamesLower: Map<string, string>;
  /** interpreter -> id */
  interpreters: Map<string, string>;
}

function pushTo(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

function buildTables(): LanguageTables {
  const typeOf = new Map<string, string>();
  const extensionsMulti = new Map<string, string[]>();
  const filenamesMulti = new Map<string, string[]>();
  const filenamesLowerMulti = new Map<string, string[]>();
  const interpretersMulti = new Map<string, string[]>();
  for (const lang of Object.values(linguist) as readonly Language[]) {
    if (!ACCEPTED_LINGUIST_TYPES.has(lang.type)) continue;
    typeOf.set(lang.name, lang.type);
    for (const ext of lang.extensions ?? []) pushTo(extensionsMulti, ext.toLowerCase(), lang.name);
    for (const fn of lang.filenames ?? []) {
      pushTo(filenamesMulti, fn, lang.name);
      pushTo(filenamesLowerMulti, fn.toLowerCase(), lang.name);
    }
    for (const interp of lang.interpreters ?? []) pushTo(interpretersMulti, interp, lang.name);
  }
  const resolve = (multi: Map<string, string[]>): Map<string, string> => {
    const out = new Map<string, string>();
    for (const [key, names] of multi) out.set(key, languageIdFromLinguistName(pickByPriority(names, typeOf)));
    return out;
  };
  const extensions = new Map<string, ExtensionEntry>();
  for (const [ext, names] of extensionsMulti) {
    extensions.set(ext, {
      id: languageIdFromLinguistName(pickByPriority(names, typeOf)),
      candidates: names.length > 1 ? names.map(languageIdFromLinguistName) : null,
    });
  }
  const filenames = resolve(filenamesMulti);
  const filenamesLower = resolve(filenamesLowerMulti);
  for (const [name, id] of Object.entries(EXTRA_FILENAMES)) {
    if (!filenames.has(name)) filenames.set(name, id);
    if (!filenamesLower.has(name.toLowerCase())) filenamesLower.set(name.toLowerCase(), id);
  }
  return { extensions, filenames, filenamesLower, interpreters: resolve(interpretersMulti) };
}

function baseNameOf(path: string): string {
  let i = path.lastIndexOf("/");
  const j = path.lastIndexOf("\\");
  if (j > i) i = j;
  return i < 0 ? path : path.slice(i + 1);
}

/** Interpreter named by a shebang line, e.g. "#!/usr/bin/env -S python3 -u" -> "python3". */
export function shebangInterpreter(firstLine: string | undefined): string | null {
  if (firstLine === undefined || !firstLine.startsWith("#!")) return null;
  const tokens = firstLine.slice(2).trim().split(/\s+/);
  let k = 0;
  let prog = tokens[k] ?? "";
  prog = prog.slice(prog.lastIndexOf("/") + 1);
  if (prog === "env") {
    k++;
    // skip env options (-S, -i, -u NAME is rare enough to ignore) and VAR=value assignments
    while (k < tokens.length && (tokens[k]!.startsWith("-") || tokens[k]!.includes("="))) k++;
    prog = tokens[k] ?? "";
    prog = prog.slice(prog.lastIndexOf("/") + 1);
  }
  return prog === "" ? null : prog;
}

/** Builds the lookup maps (once, on first detection) and returns a detector bound to them. */
export function createLanguageDetector(): LanguageDetector {
  let tables: LanguageTables | undefined;
  const getTables = (): LanguageTables => (tables ??= buildTables());

  const fromShebang = (t: LanguageTables, firstLine: string | undefined): string | null => {
    const interp = shebangInterpreter(firstLine);
    if (interp === null) return null;
    const direct = t.interpreters.get(interp);
    if (direct !== undefined) return direct;
    // python3.12 -> python, ruby2.7 -> ruby, php8 -> php
    const stripped = interp.replace(/[\d.]+$/, "");
    return stripped !== interp ? (t.interpreters.get(stripped) ?? null) : null;
  };

  return {
    detectLanguage(path: string, firstLine?: string): string | null {
      const t = getTables();
      const base = baseNameOf(path);
      if (base === "") return null;

      const byName = t.filenames.get(base) ?? t.filenamesLower.get(base.toLowerCase());
      if (byName !== undefined) return byName;

      // Extensions, longest suffix first ("foo.h.in" tries ".h.in" then ".in"); a leading dot is not an extension.
      for (let i = base.indexOf(".", 1); i > 0; i = base.indexOf(".", i + 1)) {
        const ext = base.slice(i).toLowerCase();
        if (Object.prototype.hasOwnProperty.call(EXTENSION_OVERRIDES, ext)) return EXTENSION_OVERRIDES[ext] ?? null;
        const entry = t.extensions.get(ext);
        if (entry === undefined) continue;
        if (entry.candidates !== null && firstLine !== undefined) {
          const viaShebang = fromShebang(t, firstLine);
          if (viaShebang !== null && entry.candidates.includes(viaShebang)) return viaShebang;
        }
        return entry.id;
      }

      for (const [prefix, id] of FILENAME_PREFIX_RULES) if (base.startsWith(prefix)) return id;

      return fromShebang(t, firstLine);
    },
  };
}

let defaultDetector: LanguageDetector | undefined;

/**
 * Language id for a path (Linguist filename, then extension, then shebang of `firstLine`), or null.
 * `firstLine` is only needed for extensionless scripts and to disambiguate a few extensions.
 */
export function detectLanguage(path: string, firstLine?: string): string | null {
  defaultDetector ??= createLanguageDetector();
  return defaultDetector.detectLanguage(path, firstLine);
}

// ---------------------------------------------------------------------------------------------------------
// Binary detection
// ---------------------------------------------------------------------------------------------------------

/** How many leading bytes are inspected for a NUL byte (same window as git's buffer_is_binary). */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * Magic numbers of binary formats that may not contain a NUL byte early on. Only signatures with
 * non-ASCII bytes or long, distinctive ASCII prefixes are listed, so that a text file cannot match by accident.
 */
const BINARY_SIGNATURES: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], // GIF87a
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], // GIF89a
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x50, 0x4b, 0x03, 0x04], // ZIP (jar, docx, apk, ...)
  [0x50, 0x4b, 0x05, 0x06], // empty ZIP
  [0x1f, 0x8b], // gzip
  [0x42, 0x5a, 0x68], // bzip2 "BZh" (followed by a non-text block header)
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], // xz
  [0x28, 0xb5, 0x2f, 0xfd], // zstd
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], // 7z
  [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], // RAR
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce], // Mach-O 32
  [0xfe, 0xed, 0xfa, 0xcf], // Mach-O 64
  [0xce, 0xfa, 0xed, 0xfe], // Mach-O 32 (LE)
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O 64 (LE)
  [0xca, 0xfe, 0xba, 0xbe], // Java class / Mach-O fat binary
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
  [0x77, 0x4f, 0x46, 0x46], // WOFF
  [0x77, 0x4f, 0x46, 0x32], // WOFF2
  [0x4f, 0x67, 0x67, 0x53, 0x00], // Ogg
  [0x49, 0x44, 0x33, 0x03], // MP3 with ID3v2.3
  [0x49, 0x44, 0x33, 0x04], // MP3 with ID3v2.4
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE2 (legacy .doc/.xls/.msi)
  [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00], // SQLite
];

function startsWithBytes(buf: Uint8Array, sig: readonly number[]): boolean {
  if (buf.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (buf[i] !== sig[i]) return false;
  return true;
}

/** True when the buffer looks binary: a NUL byte in the first 8000 bytes, or a known binary signature. */
export function isBinaryContent(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  for (const sig of BINARY_SIGNATURES) if (startsWithBytes(buf, sig)) return true;
  return false;
}

/**
 * Extensions that are always binary (lowercase, no dot). Deliberately excludes extensions that Linguist
 * also assigns to text languages (.obj = Wavefront OBJ, .pb = PureBasic, .mo = Modelica, .pkl = Pkl, .dat, .cer).
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  // images
  "png", "jpg", "jpeg", "gif", "bmp", "ico", "icns", "tif", "tiff", "webp", "avif", "heic", "heif", "psd", "xcf", "jxl",
  // documents
  "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "epub",
  // archives and packages
  "zip", "gz", "tgz", "bz2", "tbz2", "xz", "txz", "7z", "rar", "tar", "zst", "lz4", "lzma", "br", "cab",
  "jar", "war", "ear", "aar", "apk", "aab", "ipa", "deb", "rpm", "dmg", "iso", "msi", "nupkg", "whl", "egg", "gem", "crx", "xpi", "vsix",
  // compiled code, objects and libraries
  "class", "dex", "pyc", "pyo", "pyd", "o", "a", "lib", "so", "dylib", "dll", "exe", "bin", "wasm", "node", "pdb", "ilk", "beam", "rlib", "elc", "lockb",
  // fonts
  "woff", "woff2", "ttf", "otf", "eot", "ttc",
  // audio and video
  "mp3", "mp4", "m4a", "m4v", "wav", "ogg", "oga", "ogv", "opus", "flac", "aac", "wma", "mov", "avi", "mkv", "webm", "wmv", "flv", "mpg", "mpeg", "3gp",
  // data stores, models and serialized blobs
  "sqlite", "sqlite3", "db", "mdb", "accdb", "parquet", "avro", "orc", "feather", "arrow", "npy", "npz", "h5", "hdf5", "onnx", "pt", "pth", "ckpt", "safetensors", "tflite", "keras",
  // keystores (also flagged by secretFileNameReason)
  "jks", "keystore", "p12", "pfx",
  // design and 3D assets
  "sketch", "fig", "blend", "fbx", "glb", "3ds", "swf", "fla",
]);

/** Basenames of binary files without a telling extension. */
const BINARY_FILENAMES: ReadonlySet<string> = new Set([".DS_Store"]);

/** True when the path's extension (or name) is always binary, e.g. "logo.png", "lib/x.so", "a.tar.gz". */
export function isBinaryPath(path: string): boolean {
  const base = baseNameOf(path);
  if (BINARY_FILENAMES.has(base)) return true;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return false;
  return BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

// ---------------------------------------------------------------------------------------------------------
// Generated / vendored detection
// ---------------------------------------------------------------------------------------------------------

export interface GeneratedInfo {
  generated: boolean;
  vendored: boolean;
  /**
   * Stable id of the first rule that matched, or null:
   * "vendored:<dir>", "build-output:<dir>", "lock-file", "protobuf", "generated-name", "minified",
   * "source-map", "marker:@generated", "marker:code-generated", "marker:do-not-edit", "marker:auto-generated".
   */
  reason: string | null;
}

/** Third-party code folders, at any depth (key: folder name, value: reason suffix). */
const VENDORED_DIRS: ReadonlyMap<string, string> = new Map([
  ["vendor", "vendor"],
  ["node_modules", "node_modules"],
  ["third_party", "third_party"],
  ["third-party", "third-party"],
  ["bower_components", "bower_components"],
  ["jspm_packages", "jspm_packages"],
  ["Pods", "pods"], // CocoaPods; case-sensitive on purpose ("pods" is a common Kubernetes source folder)
]);

/**
 * Build-output folders that are only trusted as such at a module root: as the first path segment
 * ("dist/app.js") or right under a monorepo package ("packages/ui/dist/app.js", see MONOREPO_CONTAINER_DIRS).
 * Deeper occurrences are source far too often (Linux "tools/build/", Chromium "build/", "src/out/" ...).
 */
const ROOT_OUTPUT_DIRS: ReadonlySet<string> = new Set(["dist", "build", "target", "out", "coverage", "obj"]);

/** Folders whose children are module roots in monorepos. */
const MONOREPO_CONTAINER_DIRS: ReadonlySet<string> = new Set([
  "packages",
  "apps",
  "libs",
  "modules",
  "crates",
  "services",
  "plugins",
  "projects",
]);

/** Output/cache folders that are unambiguous at any depth. */
const ANYWHERE_OUTPUT_DIRS: ReadonlySet<string> = new Set([
  "__pycache__",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  ".pytest_cache",
  ".mypy_cache",
  ".tox",
]);

/**
 * Output folders recognised at any depth by what sits directly inside them:
 * .NET "bin/Debug", "obj/Release", Maven/Cargo "target/classes", "target/debug", ...
 * ("bin/" alone is usually hand-written scripts, so it is never output on its own).
 */
const OUTPUT_DIR_CHILDREN: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["bin", new Set(["Debug", "Release"])],
  ["obj", new Set(["Debug", "Release"])],
  [
    "target",
    new Set(["classes", "test-classes", "generated-sources", "generated-test-sources", "surefire-reports", "maven-status", "debug", "release"]),
  ],
]);

/** Lock files (by basename), generated by package managers. */
export const LOCK_FILES: ReadonlySet<string> = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "bun.lock",
  "Cargo.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "pdm.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
  "go.work.sum",
  "gradle.lockfile",
  "Podfile.lock",
  "mix.lock",
  "pubspec.lock",
  "flake.lock",
  "packages.lock.json",
  "Package.resolved",
]);

/** protoc / grpc output names (basename suffixes). "_grpc.pb.go" is covered by ".pb.go". */
const PROTOBUF_SUFFIXES: readonly string[] = [
  ".pb.go",
  "_pb2.py",
  "_pb2.pyi",
  "_pb2_grpc.py",
  ".pb.h",
  ".pb.cc",
  "_pb.js",
  "_pb.d.ts",
  "_grpc_pb.js",
  "_grpc_pb.d.ts",
  ".pb.swift",
  ".pb.dart",
  ".pbgrpc.dart",
  ".pbenum.dart",
  ".pbjson.dart",
];

/** Other code-generator output names (basename suffixes / prefixes), reason "generated-name". */
const GENERATED_NAME_SUFFIXES: readonly string[] = [
  ".designer.cs", // WinForms / resx designer files (matched case-insensitively)
  ".g.cs", // C# source generators, WPF
  ".g.i.cs", // WPF intermediate
  ".g.dart", // build_runner / json_serializable
  ".freezed.dart", // freezed
];
const GENERATED_NAME_PREFIXES: readonly string[] = [
  "zz_generated.", // Kubernetes deepcopy/conversion/defaults generators
];

const MINIFIED_NAME = /\.min\.(?:js|mjs|cjs|css)$/i;
const SOURCE_MAP_NAME = /\.(?:js|mjs|cjs|css)\.map$/i;
/** Only these extensions are checked for minification by content. */
const MINIFIABLE_EXTENSIONS = /\.(?:js|mjs|cjs|css)$/i;
/** Average line length (characters) above which a JS/CSS file is treated as minified. */
export const MINIFIED_AVG_LINE_LENGTH = 500;

/** How much of the file head is searched for generator markers. */
export const MARKER_SCAN_CHARS = 1500;

/** "auto-generated", "autogenerated", "automatically generated", "generated by|from|with|using" (any case). */
const GENERATED_NOTICE = /(?:auto-?|automatically )?generated(?: (?:by|from|with|using)\b)?/gi;
/** What may precede a generated notice on its line: a comment leader and "this file/code is|was|has been". */
const NOTICE_LINE_OPENER =
  /^[ \t]*(?:\/\/+|#+|\/?\*+|<!--|--|;+|%+|"""|''')?[ \t]*(?:this (?:file|code|source(?: file)?|class|module) (?:is|was|has been) )?$/i;

/**
 * A line that opens with a generated notice ("// Auto-generated by ...", "# Generated by protoc", " * Automatically
 * generated from schema.json"). A bare "generated" does not count, nor a notice in the middle of prose
 * ("the id is auto-generated by the database").
 */
function hasGeneratedNoticeLine(head: string): boolean {
  GENERATED_NOTICE.lastIndex = 0;
  for (let m = GENERATED_NOTICE.exec(head); m !== null; m = GENERATED_NOTICE.exec(head)) {
    if (m[0].length === "generated".length) continue; // neither "auto"/"automatically" nor "by/from/with/using"
    const lineStart = head.lastIndexOf("\n", m.index - 1) + 1;
    if (NOTICE_LINE_OPENER.test(head.slice(lineStart, m.index))) return true;
  }
  return false;
}

const regexMarker =
  (re: RegExp) =>
  (head: string): boolean =>
    re.test(head);

/** Generator markers searched in the first MARKER_SCAN_CHARS characters, in priority order. */
const GENERATED_MARKERS: readonly (readonly [reason: string, test: (head: string) => boolean])[] = [
  ["marker:@generated", regexMarker(/@generated\b/)], // Meta/Facebook convention (also "@generated SignedSource<<...>>")
  ["marker:code-generated", regexMarker(/Code generated .{0,200}? DO NOT EDIT\./)], // Go convention (golang.org/s/generatedcode)
  ["marker:do-not-edit", regexMarker(/\bDO NOT (?:EDIT|MODIFY)\b/)], // upper case only: "do not edit" in prose is too common
  ["marker:do-not-edit", regexMarker(/\bdo not (?:edit|modify) this file\b/i)],
  ["marker:auto-generated", regexMarker(/<auto-generated\b/)], // .NET "// <auto-generated>" header
  [
    "marker:auto-generated",
    regexMarker(/\bthis (?:file|code|source file|module|class) (?:is|was|has been) (?:automatically |auto-?)?generated\b/i),
  ],
  ["marker:auto-generated", hasGeneratedNoticeLine],
];

/**
 * Cheap gate in front of GENERATED_MARKERS: every marker contains "generated" or "not edit|modify" (any case),
 * and most files contain neither, so the costlier patterns only run on the few heads that pass.
 */
const MARKER_GATE = /generated|not (?:edit|modify)/i;

function generated(reason: string): GeneratedInfo {
  return { generated: true, vendored: false, reason };
}

function endsWithAny(s: string, suffixes: readonly string[]): boolean {
  for (const suf of suffixes) if (s.endsWith(suf)) return true;
  return false;
}

function looksMinified(content: string): boolean {
  if (content.length <= MINIFIED_AVG_LINE_LENGTH) return false;
  // average line length > threshold  <=>  lines < length / threshold; stop counting as soon as that fails.
  const maxLines = content.length / MINIFIED_AVG_LINE_LENGTH;
  let lines = 1;
  for (let i = content.indexOf("\n"); i >= 0; i = content.indexOf("\n", i + 1)) {
    if (i === content.length - 1) break; // a trailing newline does not start a line
    if (++lines >= maxLines) return false;
  }
  return true;
}

/**
 * Whether a file is generated and/or vendored, and why. Vendored implies generated (neither is code the
 * repository's authors maintain). `content` may be null when the file was not read (binary, too large).
 */
export function detectGenerated(path: string, content: string | null): GeneratedInfo {
  const p = path.includes("\\") ? path.replace(/\\/g, "/") : path;
  const segs = p.split("/");
  const last = segs.length - 1;
  const base = segs[last] ?? "";

  for (let i = 0; i < last; i++) {
    const v = VENDORED_DIRS.get(segs[i]!);
    if (v !== undefined) return { generated: true, vendored: true, reason: `vendored:${v}` };
  }

  for (let i = 0; i < last; i++) {
    const seg = segs[i]!;
    if (ANYWHERE_OUTPUT_DIRS.has(seg)) return generated(`build-output:${seg}`);
    const children = OUTPUT_DIR_CHILDREN.get(seg);
    if (children !== undefined && i + 1 < last && children.has(segs[i + 1]!)) return generated(`build-output:${seg}`);
    if (ROOT_OUTPUT_DIRS.has(seg) && (i === 0 || (i === 2 && MONOREPO_CONTAINER_DIRS.has(segs[0]!)))) {
      return generated(`build-output:${seg}`);
    }
  }

  if (LOCK_FILES.has(base)) return generated("lock-file");
  if (endsWithAny(base, PROTOBUF_SUFFIXES)) return generated("protobuf");
  const lower = base.toLowerCase();
  if (endsWithAny(lower, GENERATED_NAME_SUFFIXES)) return generated("generated-name");
  for (const pre of GENERATED_NAME_PREFIXES) if (lower.startsWith(pre)) return generated("generated-name");
  if (MINIFIED_NAME.test(base)) return generated("minified");
  if (SOURCE_MAP_NAME.test(base)) return generated("source-map");

  if (content !== null && content.length > 0) {
    const head = content.length > MARKER_SCAN_CHARS ? content.slice(0, MARKER_SCAN_CHARS) : content;
    if (MARKER_GATE.test(head)) for (const [reason, test] of GENERATED_MARKERS) if (test(head)) return generated(reason);
    if (MINIFIABLE_EXTENSIONS.test(base) && looksMinified(content)) return generated("minified");
  }
  return { generated: false, vendored: false, reason: null };
}

// ---------------------------------------------------------------------------------------------------------
// Secret-looking file names
// ---------------------------------------------------------------------------------------------------------

/** Exact basenames (compared lowercase) that usually hold credentials. */
const SECRET_FILE_NAMES: ReadonlySet<string> = new Set([
  ".env",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".htpasswd",
  "credentials.json",
  "secrets.yml",
  "secrets.yaml",
]);

/** Extensions (lowercase, with dot) of key material and credential files. */
const SECRET_FILE_EXTENSIONS: readonly string[] = [".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".tfvars"];

/** ".env.<suffix>" files that are templates, not secrets (any of these as a dot-separated part after ".env"). */
const ENV_TEMPLATE_PARTS: ReadonlySet<string> = new Set(["example", "examples", "sample", "template", "tmpl", "dist", "defaults"]);

/**
 * A stable reason id when the file NAME suggests credentials ("secret-file-name:.env", "secret-file-name:*.pem",
 * "secret-file-name:id_rsa", "secret-file-name:service-account*.json", ...), else null.
 */
export function secretFileNameReason(path: string): string | null {
  const lower = baseNameOf(path).toLowerCase();
  if (SECRET_FILE_NAMES.has(lower)) return `secret-file-name:${lower}`;
  if (lower.startsWith(".env.")) {
    const parts = lower.slice(5).split(".");
    if (parts.some((part) => ENV_TEMPLATE_PARTS.has(part))) return null;
    return "secret-file-name:.env.*";
  }
  for (const ext of SECRET_FILE_EXTENSIONS) if (lower.endsWith(ext) && lower.length > ext.length) return `secret-file-name:*${ext}`;
  if (lower.startsWith("service-account") && lower.endsWith(".json")) return "secret-file-name:service-account*.json";
  return null;
}
