import { createLogger, type Logger } from "../core/log.js";
import type { IndexProgress } from "../indexer/pipeline.js";

const BAR_WIDTH = 30;
const REDRAW_INTERVAL_MS = 100;
/** Without a terminal, a progress record this often while files are read (and on every phase). */
const LINE_INTERVAL_MS = 5000;
const MB = 1024 * 1024;

export interface ProgressOptions {
  stream?: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Where progress records go without a terminal (default: a logger on `stream`, in its default format). */
  logger?: Logger;
  now?: () => number;
}

/** Seconds left at the pace so far, by files done; null before there is a pace. */
function etaSeconds(p: IndexProgress, elapsedMs: number): number | null {
  if (p.filesTotal === 0 || p.filesDone === 0 || p.filesDone >= p.filesTotal) return null;
  return Math.round(((elapsedMs / p.filesDone) * (p.filesTotal - p.filesDone)) / 1000);
}

function etaText(s: number | null): string {
  if (s === null) return "";
  return s >= 60 ? ` ETA ${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : ` ETA ${s}s`;
}

/**
 * Indexing progress on stderr (never stdout: in stdio mode stdout belongs to JSON-RPC). On a terminal a bar redraws
 * in place with files, MB and the time left; otherwise a log record (the logger's one format) on each phase and
 * every few seconds while files are read, so a pipe or a log file gets lines of one kind.
 */
export function createProgressReporter(opts: ProgressOptions = {}): (p: IndexProgress) => void {
  const stream = opts.stream ?? process.stderr;
  const now = opts.now ?? Date.now;
  const tty = (stream as { isTTY?: boolean }).isTTY === true;
  const logger = opts.logger ?? createLogger(stream);
  const started = now();
  let lastDraw = 0;
  let lastPhase = "";
  return (p: IndexProgress): void => {
    const phaseChanged = p.phase !== lastPhase;
    lastPhase = p.phase;
    const t = now();
    const interval = tty ? REDRAW_INTERVAL_MS : LINE_INTERVAL_MS;
    if (!phaseChanged && t - lastDraw < interval) return;
    lastDraw = t;
    const eta = etaSeconds(p, t - started);
    if (!tty) {
      logger.log("info", "indexing", {
        phase: p.phase,
        files: p.filesDone,
        filesTotal: p.filesTotal,
        mb: Number((p.bytesDone / MB).toFixed(1)),
        ...(eta !== null ? { etaSeconds: eta } : {}),
      });
      return;
    }
    const ratio = p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0;
    const filled = Math.round(ratio * BAR_WIDTH);
    const bar = `${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}`;
    stream.write(
      `\r\x1b[2Krepoctx ${p.phase.padEnd(9)} [${bar}] ${(ratio * 100).toFixed(0).padStart(3)}% ${p.filesDone}/${p.filesTotal} files ${(p.bytesDone / MB).toFixed(1)} MB${etaText(eta)}`,
    );
    if (p.phase === "done") stream.write("\n");
  };
}
