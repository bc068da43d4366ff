/**
 * File classification for the indexer: language ids (Linguist filename, extension, shebang).
 *
 * Everything here is pure and synchronous: it runs once per file of very large repositories (80k+ files),
 * so every function is a handful of string operations and map lookups. The Linguist-derived lookup maps
 * are built once, on first use, by `createLanguageDetector()` (the default instance is created lazily).
 *
 * Paths are repository-relative and use "/" (a "\" is tolerated and treated like "/").
 */
import { linguistLanguages } from "./linguist.js";
import { baseNameOf } from "./paths.js";

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
  for (const lang of linguistLanguages()) {
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
