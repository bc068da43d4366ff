import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { TRUST_LEVELS } from "../src/core/evidence.js";
import { seededRandom } from "../src/indexer/semantic/random.js";
import { tokenCounter } from "../src/query/context-package/tokens.js";
import { openHarness, type Harness } from "./helpers/harness.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const count = tokenCounter("o200k_base");

type Json = Record<string, unknown>;

interface TextFile {
  path: string;
  facts: string[];
  lines: [number, string][];
  notes: string[];
}

/**
 * A compact answer rendered as text (search_code): the header's facts, each file's heading and its `line:text`
 * lines, and the JSON lines after the files (`stats:`, `omitted:`).
 */
function parseText(text: string): { header: string; files: TextFile[]; json: Record<string, unknown> } {
  const [header, ...rest] = text.split("\n");
  const files: TextFile[] = [];
  const json: Record<string, unknown> = {};
  let file: TextFile | null = null;
  let blank = false;
  for (const line of rest) {
    const hit = /^(\d+):(.*)$/.exec(line);
    const top = /^(stats|omitted|evidence): (.*)$/.exec(line);
    if (line === "") blank = true;
    else if (blank && top) [json[top[1]!], file, blank] = [JSON.parse(top[2]!), null, false];
    else if (blank) {
      const m = /^(.*?)(?: \((.*)\))?$/.exec(line)!;
      files.push((file = { path: m[1]!, facts: m[2] ? m[2].split(", ") : [], lines: [], notes: [] }));
      blank = false;
    } else if (file && hit) file.lines.push([Number(hit[1]), hit[2]!]);
    else if (file) file.notes.push(line);
    else if (top) json[top[1]!] = JSON.parse(top[2]!);
  }
  return { header: header!, files, json };
}

/** One call as the client receives it: the text content (what a model reads), parsed, with its size. */
async function raw(h: Harness, name: string, args: Json): Promise<{ text: string; body: Json; structured: unknown; isError: boolean }> {
  const res = await h.client.callTool({ name, arguments: args });
  const text = (res.content as { text: string }[])[0]!.text;
  if (text.startsWith("{")) return { text, body: JSON.parse(text) as Json, structured: res.structuredContent, isError: res.isError === true };
  // Text answers (search_code): the header says whether something was left out; `omitted:` says what.
  const parsed = parseText(text);
  const body: Json = { ok: res.isError !== true, truncated: parsed.header.split(" · ").includes("truncated"), ...parsed.json };
  return { text, body, structured: res.structuredContent, isError: res.isError === true };
}

/** Every matching line of a file, as `rg -n` would print it: [line, text]. */
function grepLines(root: string, path: string, needle: string): [number, string][] {
  const lines = readFileSync(join(root, path), "utf8").split("\n");
  return lines.flatMap((l, i) => (l.includes(needle) ? [[i + 1, l] as [number, string]] : []));
}

describe("answers: compact by default, full on request, within maxTokens", () => {
  let h: Harness;
  before(async () => {
    h = await openHarness();
  });
  after(async () => h.close());

  test("a lexical search answers every matched line once, as line:text under its file's heading, the file's facts once", async () => {
    const res = await h.client.callTool({ name: "search_code", arguments: { query: "Quote", mode: "lexical", caseSensitive: true, maxResults: 50 } });
    assert.equal(res.structuredContent, undefined, "a compact answer is its text content alone");
    assert.equal(res.isError, false);
    const text = (res.content as { text: string }[])[0]!.text;
    const { header, files, json } = parseText(text);
    assert.match(header, /^commit [0-9a-f]{12} · index idx-\S+( · truncated)?$/);
    assert.ok(files.length > 1);
    for (const f of files) {
      assert.deepEqual(f.lines, grepLines(h.repo.root, f.path, "Quote"), f.path);
      assert.ok(f.facts.some((x) => /^sha256:[0-9a-f]{12}$/.test(x)), f.facts.join(", "));
      assert.ok(f.facts.some((x) => (TRUST_LEVELS as readonly string[]).includes(x)), f.facts.join(", "));
      assert.ok(!f.facts.includes("lexical"), "exact lines say how they were found");
    }
    assert.equal(json.evidence, undefined, "every evidence entry is folded into its file");
    // A line with two matches is one line of the answer, as rg prints it once.
    const twice = files.flatMap((f) => grepLines(h.repo.root, f.path, "Quote")).filter(([, l]) => l.split("Quote").length > 2);
    assert.ok(twice.length > 0, "the fixture has a line matching twice");
    // Commit and index version once, in the header.
    const commit = header.split(" ")[1]!;
    assert.equal(text.split(commit).length - 1, 1);
  });

  test("verbosity full is the whole envelope, as text and as structured content; compact says the same facts", async () => {
    const full = await raw(h, "find_symbol", { symbol: "QuoteService", intent: "references", verbosity: "full" });
    assert.deepEqual(full.structured, full.body);
    const env = full.body as { evidence: { path: string; contentHash: string; startLine: number }[]; data: { hits: { path: string; startLine: number }[] } };
    assert.ok(env.evidence.length > 1);
    const compact = await raw(h, "find_symbol", { symbol: "QuoteService", intent: "references" });
    const files = (compact.body.data as { hits: Json[] }).hits;
    // Each file once, with its hits beneath (or flat when it has one), the full hash's prefix as its hash.
    const paths = files.map((f) => f.path as string);
    assert.deepEqual(paths, [...new Set(env.data.hits.map((x) => x.path))]);
    for (const f of files) {
      const e = env.evidence.find((x) => x.path === f.path)!;
      assert.ok(e.contentHash.startsWith(f.hash as string), `${String(f.path)}: ${String(f.hash)}`);
      const lines = Array.isArray(f.hits) ? (f.hits as Json[]).map((x) => x.lines) : [f.lines];
      assert.deepEqual(lines, env.data.hits.filter((x) => x.path === f.path).map((x) => x.startLine));
    }
    assert.ok(compact.text.length < full.text.length * 0.7, `compact ${compact.text.length} chars, full ${full.text.length}`);
  });

  test("countOnly counts matching lines per file (like rg -c) and references per file", async () => {
    const { body } = await raw(h, "search_code", { query: "Quote", mode: "lexical", caseSensitive: true, countOnly: true });
    const stats = body.stats as { lines: number; files: number; byFile: { path: string; lines: number }[] };
    assert.ok(stats.files > 1);
    for (const f of stats.byFile) assert.equal(f.lines, grepLines(h.repo.root, f.path, "Quote").length, f.path);
    assert.equal(stats.lines, stats.byFile.reduce((n, f) => n + f.lines, 0));
    const refs = await h.call("find_symbol", { symbol: "QuoteService", intent: "references", maxResults: 50 });
    const counted = await h.call("find_symbol", { symbol: "QuoteService", intent: "references", countOnly: true });
    const c = (counted.data as { stats: { count: number; byFile: { path: string; count: number }[] } }).stats;
    const hits = (refs.data as { hits: { path: string }[] }).hits;
    assert.equal(c.count, hits.length);
    for (const f of c.byFile) assert.equal(f.count, hits.filter((x) => x.path === f.path).length, f.path);
  });

  test("a bad answer option is a categorized error, and the call is not run", async () => {
    const { body, isError } = await raw(h, "search_code", { query: "Quote", maxTokens: 3 });
    assert.equal(isError, true);
    assert.equal((body.data as { error: { category: string } }).error.category, "invalid_input");
  });

  test("property: every tool's answer stays within maxTokens and says what it left out", async () => {
    const pkg = await h.call("build_context_package", { purpose: "editing", goal: "Validate quote expiry", symbols: ["QuoteService#isQuoteExpired"], budgetTokens: 3000 });
    const manifest = (pkg.data as { package: { manifest: unknown } }).package.manifest;
    const calls: [string, Json][] = [
      ["search_code", { query: "quote", mode: "lexical", maxResults: 50 }],
      ["search_code", { query: "how are quotes priced and when do they expire?" }],
      ["find_symbol", { symbol: "QuoteService", intent: "references", maxResults: 50 }],
      ["get_file_slice", { path: SERVICE }],
      ["find_related_tests", { changedPaths: [SERVICE] }],
      ["get_ownership", { paths: [SERVICE, "web/src/quote.ts", "services/pricing/pom.xml"] }],
      ["get_instructions", { paths: [SERVICE, "web/src/quote.ts"] }],
      ["get_task_context", { taskId: "7" }],
      ["inspect_index", {}],
      ["get_change_impact_context", { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"] }],
      ["build_context_package", { purpose: "editing", goal: "Validate quote expiry", symbols: ["QuoteService#isQuoteExpired"], budgetTokens: 8000 }],
      ["check_context_freshness", { manifest }],
    ];
    const rnd = seededRandom(Number(process.env.REPOCTX_PROPERTY_SEED ?? 20261202));
    const tried = new Set<string>();
    for (let i = 0; i < 48; i++) {
      const [name, args] = calls[i % calls.length]!;
      const verbosity = rnd() < 0.5 ? "compact" : "full";
      const maxTokens = Math.round(150 * Math.pow(40, rnd()));
      const whole = await raw(h, name, { ...args, verbosity });
      const bounded = await raw(h, name, { ...args, verbosity, maxTokens });
      const used = count(bounded.text);
      const label = `${name} ${verbosity} maxTokens ${maxTokens} (whole ${count(whole.text)})`;
      // A tool with a budget of its own is asked to fit within maxTokens, so its answer may differ even when whole fits.
      const ownBudget = name === "build_context_package" || name === "get_change_impact_context";
      assert.ok(used <= maxTokens, `${label}: ${used} tokens`);
      if (count(whole.text) <= maxTokens && !ownBudget) assert.equal(bounded.text, whole.text, label);
      if (bounded.body.ok === true && count(whole.text) > maxTokens && !ownBudget) {
        assert.equal(bounded.body.truncated, true, label);
        assert.equal((bounded.body.omitted as { reason?: string } | undefined)?.reason, "maxTokens", label);
      }
      tried.add(name);
    }
    assert.equal(tried.size, calls.map((c) => c[0]).filter((n, j, a) => a.indexOf(n) === j).length);
  });
});
