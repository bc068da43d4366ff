import type { IndexProgress } from "../indexer/pipeline.js";

const BAR_WIDTH = 30;
const REDRAW_INTERVAL_MS = 100;
const MB = 1024 * 1024;

/**
 * Draws indexing progress on stderr (never stdout: in stdio mode stdout belongs to JSON-RPC). On a terminal a bar
 * redraws in place; otherwise one line per phase keeps logs readable.
 */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now) {
  let lastDraw = 0;
  let lastPhase = "";
  const tty = stream.isTTY === true;
  return (p: IndexProgress): void => {
    const phaseChanged = p.phase !== lastPhase;
    lastPhase = p.phase;
    if (!tty) {
      if (phaseChanged) {
        const detail = p.phase === "walk" ? "listing files" : `${p.filesDone}/${p.filesTotal} files, ${(p.bytesDone / MB).toFixed(1)} MB`;
        stream.write(`repoctx: ${p.phase} ${detail}\n`);
      }
      return;
    }
    const t = now();
    if (!phaseChanged && p.phase === "inventory" && t - lastDraw < REDRAW_INTERVAL_MS) return;
    lastDraw = t;
    const ratio = p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0;
    const filled = Math.round(ratio * BAR_WIDTH);
    const bar = `${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}`;
    stream.write(
      `\rrepoctx ${p.phase.padEnd(9)} [${bar}] ${(ratio * 100).toFixed(0).padStart(3)}% ${p.filesDone}/${p.filesTotal} files ${(p.bytesDone / MB).toFixed(1)} MB`,
    );
    if (p.phase === "done") stream.write("\n");
  };
}
