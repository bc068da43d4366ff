/**
 * `npm run bench:redact`: how long the secret redactor (src/policy/redact.ts) takes, printed, never asserted and
 * not written to BENCHMARKS.md. Four views:
 *
 * - throughput on ordinary text (source, config, prose) at 10 KB, 100 KB and 1 MB, and the ratio between sizes
 *   (a linear redactor takes ~10x for 10x the text);
 * - answers of source code (this repository's files as a JSON string, as a tool answer carries them) at 2 KB, 20 KB
 *   and 100 KB, with the literal pre-checks and without them (every rule run on every text);
 * - the adversarial inputs of test/redact.test.ts at n and 2n characters (ratio ~2 when linear);
 * - per-call cost on many short strings, as the projection calls it on every string of an answer.
 *
 * Each figure is the median of several runs on this machine.
 */
import { readFileSync } from "node:fs";
import { redactText } from "../src/policy/redact.js";

const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(fn: () => void): number {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    runs.push(performance.now() - start);
  }
  return median(runs);
}

const ORDINARY = [
  "export async function loadConfig(path: string): Promise<Config> {\n  const raw = await readFile(path, \"utf8\");\n  return parse(raw) as Config;\n}\n",
  "database:\n  host: db.internal\n  port: 5432\n  password: ${DB_PASSWORD}\nlogging:\n  level: info\n",
  "The service retries failed calls three times with exponential backoff before it reports an error to the caller.\n",
  `commit 9f3a1c2b7d4e5f60718293a4b5c6d7e8f9012345\n"integrity": "sha512-Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0a=="\n`,
  "API_URL=https://api.example.com\nFEATURE_FLAGS=a,b,c\nMAX_TOKENS=4096\n",
].join("");

function ordinary(size: number): string {
  return ORDINARY.repeat(Math.ceil(size / ORDINARY.length)).slice(0, size);
}

/** This repository's sources as one text: what search and slice answers carry. */
function sourceText(): string {
  const files = ["src/query/search.ts", "src/query/change-impact.ts", "src/store/sqlite/sqlite-store.ts", "src/cli/options.ts", "README.md"];
  return files.map((f) => readFileSync(new URL(`../${f}`, import.meta.url), "utf8")).join("\n");
}

const ADVERSARIAL: Record<string, (n: number) => string> = {
  "long identifier run": (n) => "a".repeat(n),
  "secret keys without values": (n) => "password=".repeat(n / 9),
  "unclosed quotes": (n) => 'password: "'.repeat(n / 11),
  "BEGIN markers without END": (n) => "-----BEGIN PRIVATE KEY-----\n".repeat(n / 28),
  "jwt-like fragments": (n) => "eyJaaaaa.".repeat(n / 9),
  "token prefixes without bodies": (n) => "glpat- sk-ant- sk-proj- SG. pypi-Ag hvs. AKIA ghp_ xoxb- ".repeat(n / 58),
  "one long line of assignments": (n) => "a password=Zx9!Zx9!Zx9 # ".repeat(n / 25),
  "many Kubernetes data blocks": (n) => "kind: Secret\ndata:\n  a: b\n".repeat(n / 26),
};

function main(): void {
  console.log("ordinary text");
  let previous = 0;
  for (const size of [10_000, 100_000, 1_000_000]) {
    const text = ordinary(size);
    const ms = time(() => redactText(text));
    const ratio = previous > 0 ? ` (x${(ms / previous).toFixed(1)} for x10 text)` : "";
    console.log(`  ${String(size).padStart(9)} chars  ${ms.toFixed(1).padStart(8)} ms  ${(size / 1e6 / (ms / 1000)).toFixed(1)} MB/s${ratio}`);
    previous = ms;
  }
  console.log("answers of source code, as JSON (pre-checks on / off)");
  const source = sourceText();
  for (const size of [2_000, 20_000, 100_000]) {
    const answer = JSON.stringify({ snippet: source.slice(0, size) });
    for (let i = 0; i < 20; i++) redactText(answer); // warm up: the server redacts every string of every answer
    const on = time(() => redactText(answer));
    const off = time(() => redactText(answer, { prefilter: false }));
    console.log(`  ${String(size).padStart(9)} chars  ${on.toFixed(2).padStart(8)} ms  ${off.toFixed(2).padStart(8)} ms without pre-checks`);
  }
  console.log("adversarial inputs (200k and 400k characters)");
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    const small = make(200_000);
    const large = make(400_000);
    const a = time(() => redactText(small));
    const b = time(() => redactText(large));
    console.log(`  ${name.padEnd(32)} ${a.toFixed(1).padStart(8)} ms  ${b.toFixed(1).padStart(8)} ms  x${(b / a).toFixed(2)}`);
  }
  const short = Array.from({ length: 100_000 }, (_, i) => `src/module${i}/file${i}.ts`);
  const ms = time(() => short.forEach((s) => redactText(s)));
  console.log(`short strings: ${short.length} calls in ${ms.toFixed(1)} ms (${((ms * 1000) / short.length).toFixed(2)} µs per call)`);
}

main();
