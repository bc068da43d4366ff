import { createHash } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve as resolvePath, isAbsolute } from "node:path";

import { PolicyFileSchema, defaultOperatorConfig, type OperatorConfig } from "./schema.js";

/** A configuration problem the operator must fix; the CLI reports it and exits with the usage code. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Per-user cache directory (XDG on Linux), outside any served repository. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REPOCTX_CACHE_DIR) return env.REPOCTX_CACHE_DIR;
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), "repoctx");
}

/** The default store file for a repository root: one SQLite file per root, keyed by the root's real path. */
export function defaultStorePath(realRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash("sha256").update(realRoot).digest("hex").slice(0, 16);
  const name = basename(realRoot).replace(/[^\w.-]+/g, "_").slice(0, 64) || "repo";
  return join(cacheDir(env), `${name}-${key}`, "index.db");
}

export async function resolveRoot(path: string): Promise<string> {
  try {
    return await realpath(resolvePath(path));
  } catch {
    throw new ConfigError(`repository path does not exist: ${path}`);
  }
}

function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Loads and validates the operator's policy file (read policy, instruction layers, task sources). A policy file
 * inside the served repository is refused: a repository must not be able to loosen the policy that reads it.
 */
export async function loadOperatorConfig(policyPath: string | undefined, servedRoots: string[]): Promise<OperatorConfig> {
  if (!policyPath) return defaultOperatorConfig();
  let real: string;
  try {
    real = await realpath(resolvePath(policyPath));
  } catch {
    throw new ConfigError(`policy file not found: ${policyPath}`);
  }
  for (const root of servedRoots) {
    if (isWithin(root, real)) {
      throw new ConfigError("policy file lies inside the served repository; the read policy must come from the operator");
    }
  }
  let raw: unknown;
  try {
    // yaml is loaded when there is a policy file to read, not with every command (startup, #19).
    const { parse: parseYaml } = await import("yaml");
    raw = parseYaml(await readFile(real, "utf8"));
  } catch (err) {
    throw new ConfigError(`policy file is not valid YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
  }
  const parsed = PolicyFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new ConfigError(`policy file is invalid: ${issues}`);
  }
  // A snapshot folder named relative to the policy file lives beside it, wherever the server is started from.
  const taskSources = parsed.data.taskSources.map((t) => (t.type === "local" ? { ...t, dir: resolvePath(dirname(real), t.dir) } : t));
  return { ...parsed.data, taskSources };
}

