import { createHash } from "node:crypto";
import { extractFileSymbols } from "../../src/indexer/pipeline.js";
import type { ExtractionPool } from "../../src/indexer/symbols/pool.js";
import type { RepoDoc, RepoKnowledge, RepoModule } from "../../src/core/knowledge.js";
import { fileTerms } from "../../src/core/terms.js";
import type { SemanticMeta } from "../../src/core/semantic.js";
import type { AuditRecord, FileInput, FileRow, IndexMeta, IndexStats, SkipReason } from "../../src/store/store.js";
import { textFile } from "./rows.js";
import type { InstructionFile } from "../../src/core/instructions.js";

/** Rows and knowledge the store contract suite writes: what the pipeline would, for files small enough to read. */

export const META: IndexMeta = { repoId: "acme/contract", rootPath: "/repo", baseCommit: "a".repeat(40), branch: "main", dirty: false, extractorVersion: "7" };
export const STATS: IndexStats = { files: 3, indexedFiles: 2, skippedFiles: 1, bytes: 300, indexedBytes: 200, durationMs: 12, extractedFiles: 2, reusedFiles: 0 };

export const sha256 = (text: string): string => `sha256:${createHash("sha256").update(text).digest("hex")}`;

/** An indexed text file with its ranking terms (no symbols), as the inventory and the pipeline write it. */
export function textRow(path: string, content: string, over: Partial<FileInput> = {}): FileInput {
  return {
    ...textFile(path, content),
    mtimeMs: 1767225600000.25,
    sizeBytes: Buffer.byteLength(content),
    lineCount: content.split("\n").length,
    contentHash: sha256(content),
    terms: fileTerms(path, content, []),
    ...over,
  };
}

/** A file the inventory recorded without its text, with the reason. */
export function skippedRow(path: string, reason: SkipReason, detail: string | null = null, sizeBytes = 10): FileInput {
  return {
    ...textRow(path, ""),
    language: null,
    sizeBytes,
    lineCount: null,
    contentHash: sha256(path),
    isBinary: reason === "binary",
    skipReason: reason,
    skipDetail: detail,
    content: null,
    terms: null,
  };
}

/** A source file with the symbols, references and terms the real extractor (tree-sitter or lexical) gives it. */
export async function codeRow(pool: ExtractionPool, path: string, language: string, content: string): Promise<FileInput> {
  return extractFileSymbols({ ...textRow(path, content, { language }), terms: null }, pool);
}

/** What a store gives back for a row it was given: the file row without text, extraction, terms or reuse. */
export function fileRowOf(f: FileInput): FileRow {
  const { content: _c, extraction: _e, reuse: _r, terms: _t, ...row } = f;
  return {
    ...row,
    symbolStatus: f.symbolStatus ?? f.extraction?.status ?? null,
    symbolExtractor: f.symbolExtractor ?? f.extraction?.extractor ?? null,
    symbolDetail: f.symbolDetail ?? f.extraction?.detail ?? null,
  };
}

/** Small TypeScript, Python and Elixir sources whose definitions and calls refer to each other. */
export const SOURCES = {
  price: {
    path: "src/pricing/price.ts",
    language: "typescript",
    content: `export function basePrice(sku: string): number {
  return sku.length * 10;
}

export function getXtotal(): number {
  return 0;
}

export class PriceTable {
  lookup(sku: string): number {
    return basePrice(sku);
  }
}
`,
  },
  quote: {
    path: "src/pricing/quote.ts",
    language: "typescript",
    content: `import { basePrice } from "./price";

export function computeQuote(sku: string, qty: number): number {
  return basePrice(sku) * qty;
}

export function get_total(): number {
  return computeQuote("a", 1) + computeQuote("b", 2);
}
`,
  },
  report: {
    path: "tools/report.py",
    language: "python",
    content: `from quote import computeQuote


def summarize_report():
    return computeQuote("a", 1)
`,
  },
  billing: {
    path: "lib/billing.ex",
    language: "elixir",
    content: `defmodule Billing do
  def charge_card(amount) do
    computeQuote(amount)
  end
end
`,
  },
  broken: { path: "src/broken.ts", language: "typescript", content: "export function broken( {\n" },
  /** Calls basePrice more often than an edge's weight counts. */
  hot: { path: "src/hot.ts", language: "typescript", content: `${Array.from({ length: 12 }, () => "basePrice('x');").join("\n")}\ninit();\n` },
} as const;

/** Nine files define `init`: a name that common says nothing about which one a call means. */
export const COMMON_NAME_FILES = Array.from({ length: 9 }, (_, i) => ({
  path: `src/many/m${i}.ts`,
  language: "typescript",
  content: `export function init(): void {}\n`,
}));

function module(name: string, path: string, extra: Partial<RepoModule> = {}): RepoModule {
  return {
    name,
    path,
    buildSystem: "npm",
    manifest: path === "" ? "package.json" : `${path}/package.json`,
    type: "library",
    mainLanguage: "typescript",
    testPaths: [path === "" ? "test" : `${path}/test`],
    dependsOn: [],
    buildCommand: "npm run build",
    testCommand: "npm test",
    testRunner: "node-test",
    commandSource: "package.json scripts.test",
    ...extra,
  };
}

function doc(path: string, title: string | null): RepoDoc {
  return {
    docId: path,
    path,
    title,
    sourceType: path.startsWith("docs") ? "docs" : "readme",
    headings: title ? [{ level: 1, text: title, line: 1 }] : [],
    contentHash: sha256(path),
    lineCount: 12,
    hasInstructionLikeText: path.includes("b"),
  };
}

function instructions(path: string, scope: string): InstructionFile {
  return {
    path,
    scope,
    sourceKind: "agents_md",
    trusted: true,
    loadedFrom: "base_commit",
    commit: "a".repeat(40),
    contentHash: sha256(path),
    bytes: 120,
    lineCount: 6,
    workingTree: "unchanged",
    modifiedInWorkingTree: false,
    notLoadedReason: null,
    rules: [
      {
        id: `${path}#L3`,
        text: "Run `npm test` before committing.",
        category: "test_command",
        section: "Testing",
        startLine: 3,
        endLine: 3,
        claims: {
          commands: [{ purpose: "test", command: "npm test", cwd: scope, appliesTo: [], impliedActions: [], stale: "no test script" }],
          forbidPaths: ["dist/**"],
          forbidActions: ["force_push"],
          requireActions: [],
        },
        essential: true,
      },
    ],
    lint: [{ ruleId: "STALE_COMMAND", path, line: 3, message: "npm test has no script", suggestion: "add a test script" }],
  };
}

/** Knowledge with rows deliberately out of order: modules come back by path then name, rules by ordinal, docs by path. */
export function knowledge(variant: "first" | "second"): RepoKnowledge {
  if (variant === "second") {
    return {
      dirtyPaths: [],
      graph: { buildSystems: ["go"], modules: [module("svc", "svc", { buildSystem: "go", testRunner: "go" })], edges: [], rootTestCommand: null, entrypoints: [], warnings: [] },
      ownership: { path: null, shadowed: [], rules: [], warnings: [] },
      docs: [doc("CHANGELOG.md", "Changes")],
      instructions: [],
    };
  }
  return {
    dirtyPaths: ["web/src/x.ts", "README.md"],
    graph: {
      buildSystems: ["npm", "maven"],
      modules: [module("web", "web", { dependsOn: ["core"], testFileCommand: "npm test -w web --" }), module("root", ""), module("core", "core", { type: "app" })],
      edges: [{ from: "web", to: "core" }],
      rootTestCommand: "npm test",
      entrypoints: [{ type: "cli-bin", path: "package.json", name: "acme", module: null, startLine: 3, endLine: 3, target: "bin/acme.js" }],
      warnings: [{ path: "web/package.json", line: null, reason: "unknown field \"wokspaces\"" }],
    },
    ownership: {
      path: ".github/CODEOWNERS",
      shadowed: ["CODEOWNERS"],
      rules: [
        { ordinal: 1, pattern: "/web/", owners: ["@acme/web"], section: "Web", optional: true, source: ".github/CODEOWNERS", line: 4, approvals: 2 },
        { ordinal: 0, pattern: "*", owners: ["@acme/all"], section: null, optional: false, source: ".github/CODEOWNERS", line: 1, inheritedOwners: true },
      ],
      warnings: [{ path: ".github/CODEOWNERS", line: 7, reason: "no owners" }],
    },
    docs: [doc("docs/b.md", "Bee"), doc("README.md", "Readme"), doc("docs_old/a.md", null), doc("docs/a.md", "Ay — ünïcode")],
    instructions: [instructions("web/AGENTS.md", "web"), instructions("AGENTS.md", "")],
  };
}

export const SEMANTIC_META: SemanticMeta = {
  modelFormat: 3,
  vectors: { provider: "builtin", model: null, dims: 4 },
  training: { documentsSeen: 10, documentsKept: 9, tokensKept: 1234, sampleLevel: 0, vocabulary: 321, dims: 4, pairs: 999, prunedPairs: 12, nonZeros: 4567 },
};

/** Audit records, oldest first, one second apart. */
export function auditRecords(): AuditRecord[] {
  const base = Date.parse("2026-02-01T10:00:00.000Z");
  const tools = ["search_code", "find_symbol", "search_code", "inspect_index"];
  return tools.map((tool, i) => ({
    at: new Date(base + i * 1000).toISOString(),
    runId: i % 2 === 0 ? `run-${i}` : null,
    stepId: i === 0 ? "step-0" : null,
    tool,
    queryHash: sha256(`${tool}${i}`),
    mode: tool === "search_code" ? "hybrid" : null,
    resultCount: i * 3,
    truncated: i === 2,
    latencyMs: 1.234 + i,
    repoId: i === 3 ? null : "acme/contract",
    indexVersion: i === 3 ? null : "idx-1",
    outcome: i === 1 ? "not_found" : "ok",
    preview: i === 0 ? '{"query":"quote"}' : null,
  }));
}
