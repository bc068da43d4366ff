import type { Command } from "commander";
import { positiveInt } from "../options.js";
import { RECALL_CUTOFFS } from "../../eval/metrics.js";
import type { EvalEvent, EvalReport } from "../../eval/run.js";
import { EXIT } from "../exit-codes.js";

/** Commits evaluated when --commits is not given: enough for stable averages, a few minutes on large repositories. */
export const DEFAULT_EVAL_COMMITS = 30;
/** The shell convention for a run ended by Ctrl-C (128 + SIGINT). */
const INTERRUPTED_EXIT = 130;
const SUBJECT_CHARS = 60;
const SHORT_SHA = 12;

export interface EvalCommandOptions {
  repo?: string;
  policy?: string;
  commits?: number;
  modes?: string[];
  json?: boolean;
  quiet?: boolean;
}

export interface EvalIo {
  out: NodeJS.WritableStream;
  err: NodeJS.WriteStream;
}

/** `--modes a,b c` and `--modes a --modes b` both work: names split on commas and spaces; none given, `defaults`. */
export function parseModeList(values: readonly string[] | undefined, defaults: readonly string[]): string[] {
  const names = (values ?? []).flatMap((v) => v.split(/[\s,]+/)).filter((n) => n.length > 0);
  return names.length > 0 ? names : [...defaults];
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Progress on stderr, one line per event (stdout carries only the report). */
function progressLine(e: EvalEvent): string {
  switch (e.type) {
    case "selected":
      return `repoctx eval: ${e.selected} commits selected of ${e.scanned} scanned\n`;
    case "indexed":
      return e.kind === "update" ? "" : `repoctx eval: index ${e.kind === "build" ? "built" : "rebuilt"} at ${e.commit.slice(0, SHORT_SHA)} (${e.files} files, ${seconds(e.ms)})\n`;
    case "answered":
      return `[${e.done}/${e.total}] ${e.result.sha.slice(0, SHORT_SHA)} ${e.result.subject.slice(0, SUBJECT_CHARS)}\n`;
  }
}

function fixed(x: number): string {
  return x.toFixed(3);
}

/** The compact table: one row per mode, then related tests, selection and index figures. */
export function formatEvalReport(r: EvalReport): string {
  const skipped = Object.entries(r.selection.skipped)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");
  const lines = [
    `repoctx eval: ${r.repo} at ${r.head.slice(0, SHORT_SHA)}: ${r.selection.selected} commits evaluated of ${r.selection.scanned} scanned` +
      (skipped ? ` (skipped: ${skipped})` : ""),
  ];
  if (r.commits.length === 0) {
    lines.push(`no commit qualified (descriptive message, 1-4 source files) among the last ${r.selection.scanned}`);
    return `${lines.join("\n")}\n`;
  }
  lines.push(
    `index: built ${r.index.builds + r.index.rebuilds}x in ${seconds(r.index.buildMs)} (${r.index.files} files), ${r.index.updates} in-place updates in ${seconds(r.index.updateMs)}`,
    "",
  );
  const header = ["mode".padEnd(16), ...RECALL_CUTOFFS.map((k) => `R@${k}`.padStart(6)), "MRR".padStart(6), "p50 ms".padStart(8), "p95 ms".padStart(8), "errors".padStart(7)];
  lines.push(header.join(" "));
  for (const [name, m] of Object.entries(r.modes)) {
    lines.push(
      [
        name.padEnd(16),
        ...RECALL_CUTOFFS.map((k) => fixed(m.recall[`@${k}`]).padStart(6)),
        fixed(m.mrr).padStart(6),
        m.latency.p50Ms.toFixed(1).padStart(8),
        m.latency.p95Ms.toFixed(1).padStart(8),
        String(m.errors).padStart(7),
      ].join(" "),
    );
  }
  const t = r.relatedTests;
  lines.push(
    "",
    `related tests: recall ${fixed(t.recall)} over ${t.commits} commits that changed existing tests (top ${r.options.relatedTestsResults}); ` +
      `p50 ${t.latency.p50Ms.toFixed(1)} ms, p95 ${t.latency.p95Ms.toFixed(1)} ms` +
      (t.errors > 0 ? `; ${t.errors} errors` : ""),
    `time: ${seconds(r.durationMs)}`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * Runs `repoctx eval`: its own temporary worktree and store (never the served index or the default store),
 * Ctrl-C removes the worktree before exiting. Returns the exit code.
 */
export async function runEvalCommand(opts: EvalCommandOptions, io: EvalIo): Promise<number> {
  // Imported here, when eval runs, not when the command line is built (#19).
  const [{ ConfigError, loadOperatorConfig, resolveRoot }, { isGitWorkTree }, { DEFAULT_MODES }, { UnknownModeError, runEval }, { createProgressReporter }, { currentHead }] =
    await Promise.all([
      import("../../config/resolve.js"),
      import("../../indexer/git.js"),
      import("../../eval/modes.js"),
      import("../../eval/run.js"),
      import("../progress.js"),
      import("../../sources/git-head.js"),
    ]);
  const controller = new AbortController();
  const onSigint = () => {
    io.err.write("repoctx eval: interrupted; removing the temporary worktree\n");
    controller.abort();
  };
  process.once("SIGINT", onSigint);
  try {
    const root = await resolveRoot(opts.repo ?? process.cwd());
    if (!(await isGitWorkTree(root)) || (await currentHead(root)) === null) throw new ConfigError("eval needs a git repository with at least one commit");
    const operator = await loadOperatorConfig(opts.policy, [root]);
    const report = await runEval({
      repoRoot: root,
      commits: opts.commits ?? DEFAULT_EVAL_COMMITS,
      modes: parseModeList(opts.modes, DEFAULT_MODES),
      policy: operator.repoContext,
      signal: controller.signal,
      ...(opts.quiet ? {} : { onEvent: (e: EvalEvent) => io.err.write(progressLine(e)), onIndexProgress: createProgressReporter({ stream: io.err }) }),
    });
    io.out.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : formatEvalReport(report));
    return EXIT.ok;
  } catch (err) {
    if (controller.signal.aborted) return INTERRUPTED_EXIT;
    io.err.write(`repoctx: ${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof ConfigError || err instanceof UnknownModeError ? EXIT.invalid_input : EXIT.internal_error;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

/** `repoctx eval`: retrieval quality on the repository's own history. Not withSetup: it indexes a temporary worktree into its own temporary store, never the served index. */
export function registerEvalCommand(program: Command): void {
  program
    .command("eval")
    .description("evaluate retrieval on the repository's own history: query recent commit messages at their parents, report Recall@k, MRR, related-test recall, latency")
    .option("--repo <path>", "repository root (default: current directory)")
    .option("--commits <n>", "commits to evaluate (default 30)", positiveInt)
    .option("--modes <names...>", "retrieval modes to compare (default: all registered)")
    .option("--policy <file>", "operator read policy (YAML); never read from the evaluated repository")
    .option("--json", "print the whole report as JSON")
    .option("--quiet", "no progress on stderr")
    .action(async (opts: EvalCommandOptions) => {
      process.exitCode = await runEvalCommand(opts, { out: process.stdout, err: process.stderr });
    });
}
