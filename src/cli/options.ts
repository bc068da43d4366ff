import { InvalidArgumentError, type Command } from "commander";
import { QueryError } from "../core/errors.js";
import { LOG_FORMATS, type LogFormat } from "../core/log.js";
import { withoutStoreSecret } from "../store/store-url.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import type { CommonOptions, Setup } from "./setup.js";

const MAX_PORT = 65535;

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > MAX_PORT) throw new InvalidArgumentError(`must be an integer from 0 to ${MAX_PORT}`);
  return n;
}

/** A repeatable option's values, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The options every command that reads a store takes: repository, store, operator policy, repository id. */
export function withCommon(cmd: Command, repoOption = true): Command {
  if (repoOption) cmd.option("--repo <path>", "repository root (default: current directory)");
  return cmd
    .option(
      "--store <file|url>",
      "SQLite store file (default: a per-user cache file keyed by the repository root), or a PostgreSQL URL " +
        "postgres://user@host:5432/db (?schema=name picks a schema; the password is best left to PGPASSWORD or ~/.pgpass)",
    )
    .option("--policy <file>", "operator read policy (YAML); never read from the served repository")
    .option("--repo-id <id>", "repository id (default: from the origin remote, else the folder name)")
    .option("--log-format <format>", "logs on stderr: human or json (default: human on a terminal, JSON lines otherwise)", logFormat);
}

function logFormat(value: string): LogFormat {
  if (!(LOG_FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${LOG_FORMATS.join(", ")}`);
  return value as LogFormat;
}

/**
 * Opens the store, runs `body`, closes the store, and turns failures into exit codes. The setup (policy, store,
 * sources) is imported when a command runs, not when the command line is built (#19).
 */
export async function withSetup(opts: CommonOptions, rootArg: string | undefined, body: (s: Setup) => Promise<number>): Promise<void> {
  let s: Setup | undefined;
  const [{ setup }, { ConfigError }] = await Promise.all([import("./setup.js"), import("../config/resolve.js")]);
  try {
    s = await setup(opts, rootArg);
    process.exitCode = await body(s);
  } catch (err) {
    // The store location may be a URL with a password: no message prints it.
    const safe = (text: string): string => withoutStoreSecret(text, opts.store);
    if (err instanceof ConfigError) {
      process.stderr.write(`repoctx: ${safe(err.message)}\n`);
      process.exitCode = EXIT.invalid_input;
    } else if (err instanceof QueryError) {
      // Expected failures before any tool runs, e.g. a PostgreSQL store that is unreachable or from a newer repoctx.
      process.stderr.write(`repoctx: ${err.category}: ${safe(err.message)}${err.hint ? `\nhint: ${safe(err.hint)}` : ""}\n`);
      process.exitCode = exitCodeFor(err.category);
    } else {
      process.stderr.write(`repoctx: ${safe(err instanceof Error ? err.message : String(err))}\n`);
      process.exitCode = EXIT.internal_error;
    }
  } finally {
    await s?.store.close();
  }
}
