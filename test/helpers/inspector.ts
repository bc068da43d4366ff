import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "./cli.js";

/**
 * The MCP Inspector CLI, the third-party client the tests drive the server with. It is installed apart from
 * repoctx's dependencies (`npm run setup:inspector`, into tools/inspector: every release declares Node >= 22), so a
 * checkout without it skips these tests locally, named in the test output; under CI a missing inspector is an error.
 */
export const INSPECTOR_LAUNCHER = join(PROJECT_ROOT, "tools/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

/** `skip` option for node:test when the inspector is not installed here. */
export function inspectorSkip(): string | false {
  if (existsSync(INSPECTOR_LAUNCHER)) return false;
  if (process.env.CI === "true") throw new Error("the MCP Inspector is not installed (npm run setup:inspector): CI must run the inspector tests");
  return "MCP Inspector not installed (npm run setup:inspector)";
}

/** One inspector CLI run (`--cli` and `args`), with its home and catalog kept in `home`. */
export function runInspector(args: readonly string[], home: string): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [INSPECTOR_LAUNCHER, "--cli", ...args], {
    cwd: PROJECT_ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, "catalog.json") },
  });
}
