import { z } from "zod";

/** Schema pieces several tools share, so their bounds stay the same everywhere. */
const MAX_GLOBS = 20;
const MAX_GLOB_CHARS = 500;
const MAX_RESULTS_CEILING = 50;

export function pathGlobsSchema(description: string) {
  return z.array(z.string().min(1).max(MAX_GLOB_CHARS)).max(MAX_GLOBS).optional().describe(description);
}

export function maxResultsSchema(description: string) {
  return z.number().int().min(1).max(MAX_RESULTS_CEILING).optional().describe(description);
}
