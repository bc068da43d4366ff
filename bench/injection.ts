/**
 * `npm run bench:injection [-- --write] [-- --split dev|holdout|holdout-2] [-- --verbose] [-- --skip-adversarial]`: runs
 * the instruction-like-text detector (src/policy/injection/) over the labelled corpus in test/fixtures/injection-corpus/ and prints
 * precision, recall, F1, the confusion counts, per-rule hits and the ids of the false positives and negatives, for
 * the dev and holdout parts separately and together. With `--write` it replaces the `## Injection detector` section
 * of BENCHMARKS.md (appending it when missing; other sections are left alone).
 *
 * An item counts as flagged when the detector returns at least one match anywhere in its text. The corpus is split
 * on purpose: rules are tuned against `dev` only; `holdout` and `holdout-2` were each written before a round of rule
 * changes and are the honest estimates. See test/fixtures/injection-corpus/README.md for the labelling rules.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { INJECTION_RULE_IDS, WorkCounter, detectInstructionLikeText } from "../src/policy/injection.js";
import { ADVERSARIAL_INPUTS } from "./injection-adversarial.js";
import type { InstructionLikeMatch } from "../src/core/instructions.js";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CORPUS_DIR = join(REPO_ROOT, "test", "fixtures", "injection-corpus");
export const SPLITS = ["dev", "holdout", "holdout-2"] as const;
export type Split = (typeof SPLITS)[number];
const BENCHMARKS_FILE = join(REPO_ROOT, "BENCHMARKS.md");
const SECTION_START = "<!-- bench:injection-detector:start -->";
const SECTION_END = "<!-- bench:injection-detector:end -->";
const SECTION_HEADING = "## Injection detector";
const COMMAND = "npm run bench:injection -- --write";

export interface CorpusItem {
  id: string;
  label: "malicious" | "benign";
  kind: string;
  text: string;
  note: string;
  split: Split;
}

export interface ItemResult {
  item: CorpusItem;
  matches: InstructionLikeMatch[];
  flagged: boolean;
}

export interface Score {
  items: number;
  malicious: number;
  benign: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
  falsePositives: string[];
  falseNegatives: string[];
  /** Rule id → items it fired on, by label. */
  ruleHits: Map<string, { malicious: number; benign: number }>;
  ms: number;
}

/** Reads `<split>.jsonl`; throws on a malformed line, a bad label or a duplicate id. */
export function loadCorpus(split: Split): CorpusItem[] {
  const file = join(CORPUS_DIR, `${split}.jsonl`);
  const items: CorpusItem[] = [];
  const ids = new Set<string>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      const raw = JSON.parse(line) as Partial<CorpusItem>;
      const where = `${file}:${i + 1}`;
      if (typeof raw.id !== "string" || ids.has(raw.id)) throw new Error(`${where}: missing or duplicate id`);
      if (raw.label !== "malicious" && raw.label !== "benign") throw new Error(`${where}: bad label`);
      if (typeof raw.text !== "string" || typeof raw.kind !== "string") throw new Error(`${where}: missing text or kind`);
      ids.add(raw.id);
      items.push({ id: raw.id, label: raw.label, kind: raw.kind, text: raw.text, note: raw.note ?? "", split });
    });
  return items;
}

export function runDetector(items: readonly CorpusItem[]): { results: ItemResult[]; ms: number } {
  const start = performance.now();
  const results = items.map((item) => {
    const matches = detectInstructionLikeText(item.text);
    return { item, matches, flagged: matches.length > 0 };
  });
  return { results, ms: performance.now() - start };
}

const ratio = (num: number, den: number): number => (den === 0 ? 0 : num / den);

export function score(results: readonly ItemResult[], ms = 0): Score {
  const s: Score = {
    items: results.length,
    malicious: 0,
    benign: 0,
    tp: 0,
    fp: 0,
    fn: 0,
    tn: 0,
    precision: 0,
    recall: 0,
    f1: 0,
    falsePositives: [],
    falseNegatives: [],
    ruleHits: new Map(INJECTION_RULE_IDS.map((id) => [id, { malicious: 0, benign: 0 }])),
    ms,
  };
  for (const r of results) {
    const malicious = r.item.label === "malicious";
    if (malicious) s.malicious++;
    else s.benign++;
    if (malicious && r.flagged) s.tp++;
    else if (malicious) {
      s.fn++;
      s.falseNegatives.push(r.item.id);
    } else if (r.flagged) {
      s.fp++;
      s.falsePositives.push(r.item.id);
    } else s.tn++;
    for (const ruleId of new Set(r.matches.map((m) => m.ruleId))) {
      const hits = s.ruleHits.get(ruleId) ?? { malicious: 0, benign: 0 };
      if (malicious) hits.malicious++;
      else hits.benign++;
      s.ruleHits.set(ruleId, hits);
    }
  }
  s.precision = ratio(s.tp, s.tp + s.fp);
  s.recall = ratio(s.tp, s.tp + s.fn);
  s.f1 = ratio(2 * s.precision * s.recall, s.precision + s.recall);
  return s;
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function describeMatches(matches: readonly InstructionLikeMatch[]): string {
  return matches.map((m) => `${m.ruleId}@${m.line}:${m.startColumn}-${m.endColumn}`).join(", ");
}

function textReport(parts: ReadonlyArray<[string, Score, ItemResult[]]>, verbose: boolean): string {
  const out: string[] = [];
  for (const [name, s, results] of parts) {
    out.push(
      `${name}: ${s.items} items (${s.malicious} malicious, ${s.benign} benign), ${s.ms.toFixed(1)} ms`,
      `  precision ${pct(s.precision)}  recall ${pct(s.recall)}  F1 ${pct(s.f1)}`,
      `  TP ${s.tp}  FP ${s.fp}  FN ${s.fn}  TN ${s.tn}`,
      `  rule hits (items: malicious/benign): ${[...s.ruleHits].map(([id, h]) => `${id} ${h.malicious}/${h.benign}`).join(", ")}`,
      `  false positives: ${s.falsePositives.join(", ") || "none"}`,
      `  false negatives: ${s.falseNegatives.join(", ") || "none"}`,
    );
    if (verbose) {
      for (const r of results) {
        const wrong = r.flagged !== (r.item.label === "malicious");
        if (!wrong) continue;
        out.push(`    ${r.item.id} [${r.item.kind}] ${r.flagged ? describeMatches(r.matches) : "(no match)"}: ${r.item.note}`);
        for (const m of r.matches) out.push(`      line ${m.line} ${m.ruleId}: ${JSON.stringify(m.excerpt)}`);
      }
    }
    out.push("");
  }
  return out.join("\n");
}

/**
 * Times the detector on every adversarial input at full size, with the characters it scanned per input character
 * (tests assert on the counts, never on these timings).
 */
function adversarialReport(): string {
  const out = ["adversarial inputs (timed here only; test/injection.test.ts proves linearity by counting work):"];
  for (const input of ADVERSARIAL_INPUTS) {
    const text = input.build(input.full);
    const work = new WorkCounter();
    const start = performance.now();
    detectInstructionLikeText(text, work);
    const ms = performance.now() - start;
    out.push(`  ${input.name.padEnd(34)} ${String(text.length).padStart(8)} chars  ${ms.toFixed(1).padStart(8)} ms  ${(work.total / Math.max(1, text.length)).toFixed(1).padStart(7)} scanned/char`);
  }
  return out.join("\n");
}

function gitRevision(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src/policy/injection.ts", "src/policy/injection", "test/fixtures/injection-corpus"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    }).trim();
    return dirty === "" ? head : `${head} (detector or corpus with uncommitted changes)`;
  } catch {
    return "unknown";
  }
}

const mdCell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function markdownSection(parts: ReadonlyArray<[string, Score]>, date: string, revision: string): string {
  const row = (cells: string[]): string => `| ${cells.map(mdCell).join(" | ")} |`;
  const lines = [
    SECTION_START,
    SECTION_HEADING,
    "",
    `- Date: ${date}`,
    `- repoctx: ${revision}`,
    `- Command: \`${COMMAND}\``,
    `- Corpus: \`test/fixtures/injection-corpus/\`, ${parts.map(([n, s]) => `${n} ${s.items} items (${s.malicious} malicious, ${s.benign} benign)`).join("; ")}`,
    "- Unit: one item (a whole document, comment, issue or commit message); flagged when the detector returns any match.",
    "- The rules were tuned on `dev` only; `holdout` and `holdout-2` were each written before a round of rule changes and are the honest estimates.",
    "- Some false positives are accepted by the labelling rules (test/fixtures/injection-corpus/README.md): pipe-to-shell install lines written for people, docs quoting an attack string, owner-written notes to agents.",
    "",
    row(["part", "precision", "recall", "F1", "TP", "FP", "FN", "TN"]),
    row(["---", "---", "---", "---", "---", "---", "---", "---"]),
    ...parts.map(([n, s]) => row([n, pct(s.precision), pct(s.recall), pct(s.f1), `${s.tp}`, `${s.fp}`, `${s.fn}`, `${s.tn}`])),
    "",
    "Per rule, items it fired on (malicious / benign):",
    "",
    row(["rule", ...parts.map(([n]) => n)]),
    row(["---", ...parts.map(() => "---")]),
    ...INJECTION_RULE_IDS.map((id) =>
      row([`\`${id}\``, ...parts.map(([, s]) => {
        const h = s.ruleHits.get(id) ?? { malicious: 0, benign: 0 };
        return `${h.malicious} / ${h.benign}`;
      })]),
    ),
    "",
    "Misclassified items (ids in the corpus files):",
    "",
    ...parts
      .filter(([n]) => n !== "all")
      .flatMap(([n, s]) => [
        `- ${n} false positives: ${s.falsePositives.join(", ") || "none"}`,
        `- ${n} false negatives: ${s.falseNegatives.join(", ") || "none"}`,
      ]),
    SECTION_END,
  ];
  return lines.join("\n");
}

/**
 * Replaces the injection section of BENCHMARKS.md: between its markers when present, else from a bare
 * `## Injection detector` heading to the next `## ` heading or section marker, else appended at the end.
 */
export function replaceSection(current: string, section: string): string {
  const start = current.indexOf(SECTION_START);
  const end = current.indexOf(SECTION_END);
  if (start !== -1 && end > start) return current.slice(0, start) + section + current.slice(end + SECTION_END.length);
  const heading = current.search(/^## Injection detector[ \t]*$/m);
  if (heading !== -1) {
    const rest = current.slice(heading + SECTION_HEADING.length);
    const next = rest.search(/^(?:## |<!-- bench:)/m);
    const stop = next === -1 ? current.length : heading + SECTION_HEADING.length + next;
    const tail = current.slice(stop);
    return `${current.slice(0, heading)}${section}\n${tail === "" ? "" : `\n${tail}`}`;
  }
  return `${current.trimEnd()}\n\n${section}\n`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      write: { type: "boolean", default: false },
      split: { type: "string" },
      verbose: { type: "boolean", short: "v", default: false },
      "skip-adversarial": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(`usage: npm run bench:injection [-- --split ${SPLITS.join("|")}] [-- --verbose] [-- --write] [-- --skip-adversarial]`);
    return;
  }
  const only = values.split;
  if (only !== undefined && !(SPLITS as readonly string[]).includes(only)) throw new Error(`--split must be one of ${SPLITS.join(", ")}`);
  if (only !== undefined && values.write) throw new Error("--write measures every part; drop --split");

  const splits = only === undefined ? [...SPLITS] : [only as Split];
  const parts: Array<[string, Score, ItemResult[]]> = [];
  const all: ItemResult[] = [];
  let allMs = 0;
  for (const split of splits) {
    const { results, ms } = runDetector(loadCorpus(split));
    parts.push([split, score(results, ms), results]);
    all.push(...results);
    allMs += ms;
  }
  if (splits.length > 1) parts.push(["all", score(all, allMs), all]);
  console.log(textReport(parts, values.verbose));
  if (!values["skip-adversarial"] && only === undefined) console.log(adversarialReport());

  if (values.write) {
    const section = markdownSection(
      parts.map(([n, s]) => [n, s]),
      new Date().toISOString(),
      gitRevision(),
    );
    const current = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, "utf8") : "# Benchmarks\n";
    const tmp = `${BENCHMARKS_FILE}.tmp-${process.pid}`;
    writeFileSync(tmp, replaceSection(current, section));
    renameSync(tmp, BENCHMARKS_FILE);
    console.log(`updated ${BENCHMARKS_FILE} (section "Injection detector")`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
