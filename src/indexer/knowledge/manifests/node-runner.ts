/**
 * Test runner detection from the text of package.json scripts: the runner a `test` script ends up in (through
 * wrappers, env assignments and `npm run` of other scripts), how to run it on one file, and whether arguments
 * given to `npm test -- ...` reach it.
 */
import { baseName, shellQuote } from "./common.js";
import type { TestRunner } from "../../../core/knowledge.js";

/** Programs that run another program: skip them (and their options) to find the real one. */
const WRAPPERS: ReadonlySet<string> = new Set(["npx", "cross-env", "dotenv", "env", "c8", "nyc", "bunx", "env-cmd", "dotenvx"]);
/** Node options a one-file run must keep; the ones in the first set take a value. */
const NODE_VALUE_FLAGS: ReadonlySet<string> = new Set(["--import", "--loader", "--experimental-loader", "--require", "-r", "--conditions", "-C", "--env-file"]);
const JEST_VALUE_FLAGS: ReadonlySet<string> = new Set(["--config", "-c", "--project", "--selectProjects", "--root", "-r", "--dir", "--environment", "--rootDir", "--setupFiles"]);
const MOCHA_VALUE_FLAGS: ReadonlySet<string> = new Set(["--require", "-r", "--import", "--loader", "--extension", "--ui", "-u", "--config", "--timeout", "-t"]);

export interface RunnerInfo {
  runner: TestRunner;
  /** The runner run directly on some files: `npx vitest run --config x.ts`, `node --import tsx --test`. */
  direct: string[];
  /** Environment assignments the script gives the runner (`NODE_OPTIONS=--experimental-vm-modules`). */
  env: string[];
  /** Whether `<test command> -- <file>` reaches the runner. */
  appendable: boolean;
}

/** Split a script into its commands (at `&&`, `||`, `;`, `|`), outside quotes. */
function splitCommands(script: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = "";
  let quote: string | null = null;
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < script.length) word += script[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "&" || c === "|" || c === ";") {
      endCommand();
      if (script[i + 1] === c) i++;
    } else if (c === " " || c === "\t" || c === "\n") endWord();
    else if (c === "\\" && i + 1 < script.length) {
      word += script[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

function isEnvAssignment(w: string): boolean {
  const eq = w.indexOf("=");
  if (eq <= 0 || w.startsWith("-")) return false;
  for (let i = 0; i < eq; i++) {
    const c = w[i]!;
    const ok = (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_" || (i > 0 && c >= "0" && c <= "9");
    if (!ok) return false;
  }
  return true;
}

/** The test runner script `scriptName` ends up in (following `npm run` into other scripts), or null. */
export function detectRunner(scripts: Map<string, string>, scriptName: string, seen: Set<string>): RunnerInfo | null {
  const script = scripts.get(scriptName);
  if (script === undefined || seen.has(scriptName) || seen.size > 8) return null;
  const top = seen.size === 0;
  seen.add(scriptName);
  const commands = splitCommands(script);
  for (let c = 0; c < commands.length; c++) {
    const words = commands[c]!;
    const env: string[] = [];
    let k = 0;
    for (;;) {
      const w = words[k];
      if (w === undefined) break;
      if (isEnvAssignment(w)) {
        env.push(w);
        k++;
        continue;
      }
      const b = baseName(w);
      if (WRAPPERS.has(b)) {
        k++;
        while (words[k]?.startsWith("-")) k++;
        if (b === "dotenv" || b === "env-cmd") while (words[k] !== undefined && words[k] !== "--" && !words[k]!.startsWith("-") && words[k]!.includes(".")) k++;
        if (words[k] === "--") k++;
        continue;
      }
      if ((b === "pnpm" || b === "yarn") && (words[k + 1] === "exec" || words[k + 1] === "dlx")) {
        k += 2;
        continue;
      }
      break;
    }
    const program = words[k] === undefined ? "" : baseName(words[k]!);
    const args = words.slice(k + 1);
    if (program === "npm" || program === "pnpm" || program === "yarn" || program === "bun") {
      let target: string | undefined;
      if (args[0] === "run" || args[0] === "run-script") target = args[1];
      else if (args[0] === "test" || args[0] === "t") target = "test";
      else if (program !== "npm" && args[0] !== undefined && scripts.has(args[0])) target = args[0];
      if (target !== undefined && !args.includes("-w") && !args.includes("--workspace") && !args.includes("--filter") && !args.includes("-r") && !args.includes("--recursive")) {
        const found = detectRunner(scripts, target, seen);
        if (found) return { ...found, appendable: false };
      }
      continue;
    }
    // Arguments given to `npm test -- ...` land at the end of the script: they reach the runner only when
    // the runner is the script's last command.
    const appendable = top && c === commands.length - 1;
    const envWords = env.map((e) => `${e.slice(0, e.indexOf("="))}=${shellQuote(e.slice(e.indexOf("=") + 1))}`);
    if (program === "jest") return { runner: "jest", direct: ["npx", "jest", ...keepFlags(args, JEST_VALUE_FLAGS, false)], env: envWords, appendable };
    if ((program === "react-scripts" || program === "craco") && args[0] === "test") {
      return { runner: "jest", direct: ["npx", program, "test", "--watchAll=false"], env: envWords, appendable };
    }
    if (program === "vitest") return { runner: "vitest", direct: ["npx", "vitest", "run", ...keepFlags(args, JEST_VALUE_FLAGS, false)], env: envWords, appendable };
    if (program === "mocha" || program === "_mocha") {
      return { runner: "mocha", direct: ["npx", "mocha", ...keepFlags(args, MOCHA_VALUE_FLAGS, false)], env: envWords, appendable: false };
    }
    if ((program === "node" || program === "tsx") && args.includes("--test")) {
      const flags = keepFlags(args, NODE_VALUE_FLAGS, true);
      const direct = ["node", ...(program === "tsx" ? ["--import", "tsx"] : []), ...flags, "--test"];
      // Its file arguments (test/*.test.ts) would still run: never append to the script.
      return { runner: "node-test", direct, env: envWords, appendable: false };
    }
  }
  return null;
}

/** Options before the first positional argument that a one-file run keeps. */
function keepFlags(args: string[], valueFlags: ReadonlySet<string>, keepExperimental: boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("-")) continue;
    const eq = a.indexOf("=");
    const flag = eq > 0 ? a.slice(0, eq) : a;
    if (valueFlags.has(flag)) {
      if (eq > 0) out.push(a);
      else if (args[i + 1] !== undefined) {
        out.push(a, args[i + 1]!);
        i++;
      }
    } else if (keepExperimental && (flag.startsWith("--experimental-") || flag === "--enable-source-maps" || flag === "--no-warnings")) {
      out.push(a);
    }
  }
  return out.map(shellQuote);
}
