#!/usr/bin/env node
import { readFile } from "node:fs/promises";
import { Command, InvalidArgumentError, Option } from "commander";
import { ConfigError } from "../config/resolve.js";
import { CHANGE_TYPES } from "../query/change-impact.js";
import { serverVersion } from "../mcp/server.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import { QueryError } from "../core/errors.js";
import { printIndexResult, runIndex } from "./commands/index-cmd.js";
import {
  callTool,
  formatChangeImpact,
  formatJson,
  formatOwnership,
  formatRelatedTests,
  formatSearch,
  formatSlice,
  formatSymbol,
  parseLineRange,
  report,
} from "./commands/query-cmds.js";
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, runServe, runServeHttp } from "./commands/serve.js";
import { runEvalCommand } from "./commands/eval-cmd.js";
import { contextArgs, formatFreshness, printContext, type ContextOptions } from "./commands/context-cmd.js";
import { CONTEXT_PURPOSES, RENDER_TARGETS, TOKENIZERS } from "../query/context-package/types.js";
import { setup, type CommonOptions, type Setup } from "./setup.js";
import { withoutStoreSecret } from "../store/store-url.js";
import { DEFAULT_AUDIT_LIMIT, formatAudit, parseSince } from "./commands/audit.js";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a positive integer");
  return n;
}

const MAX_PORT = 65535;

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > MAX_PORT) throw new InvalidArgumentError(`must be an integer from 0 to ${MAX_PORT}`);
  return n;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function withCommon(cmd: Command, repoOption = true): Command {
  if (repoOption) cmd.option("--repo <path>", "repository root (default: current directory)");
  return cmd
    .option(
      "--store <file|url>",
      "SQLite store file (default: a per-user cache file keyed by the repository root), or a PostgreSQL URL " +
        "postgres://user@host:5432/db (?schema=name picks a schema; the password is best left to PGPASSWORD or ~/.pgpass)",
    )
    .option("--policy <file>", "operator read policy (YAML); never read from the served repository")
    .option("--repo-id <id>", "repository id (default: from the origin remote, else the folder name)");
}

/** Opens the store, runs `body`, closes the store, and turns failures into exit codes. */
async function withSetup(opts: CommonOptions, rootArg: string | undefined, body: (s: Setup) => Promise<number>): Promise<void> {
  let s: Setup | undefined;
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

export function buildProgram(): Command {
  const program = new Command("repoctx")
    .description("Read-only, evidence-first repository context server for AI coding agents (MCP)")
    .version(serverVersion());

  withCommon(program.command("index [path]").description("index a repository (default: current directory)"), false)
    .option("--json", "print the summary as JSON")
    .option("--quiet", "no progress on stderr")
    .option("--full", "re-extract every file's symbols instead of reusing those of unchanged files")
    .action(async (path: string | undefined, opts: CommonOptions & { json?: boolean; quiet?: boolean; full?: boolean }) =>
      withSetup(opts, path, async (s) => {
        printIndexResult(await runIndex(s, opts), s.storeLabel, opts.json ?? false, process.stdout);
        return EXIT.ok;
      }),
    );

  withCommon(program.command("serve").description("serve repositories over MCP: stdio (one repository), or Streamable HTTP with --http"), false)
    .option("--repo <path>", "repository root (default: current directory); repeat with --http to serve several", collect)
    .option("--reindex", "rebuild the index before serving")
    .option("--watch", "rebuild the index when files change (queries keep answering from the last ready index)")
    .option("--quiet", "no progress on stderr")
    .option("--http", "serve MCP Streamable HTTP at /mcp instead of stdio (bearer tokens: REPOCTX_HTTP_TOKENS or the policy file's http.tokens)")
    .option("--host <host>", `with --http: address to bind (default ${DEFAULT_HTTP_HOST}; any other than loopback needs tokens)`)
    .option("--port <n>", `with --http: port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one, logged in the "listening" line)`, port)
    .action(async (flags: Omit<CommonOptions, "repo"> & { repo?: string[]; reindex?: boolean; quiet?: boolean; watch?: boolean; http?: boolean; host?: string; port?: number }) => {
      const opts = { ...flags, repo: flags.repo ?? [] };
      // With --http the policy file is read by runServeHttp, checked against every served work tree, not the first.
      return withSetup({ ...opts, repo: opts.repo[0], ...(opts.http ? { policy: undefined } : {}) }, undefined, async (s) => {
        if (!opts.http) {
          if (opts.repo.length > 1) throw new ConfigError("stdio serves one repository; serve several with --http");
          if (opts.host !== undefined || opts.port !== undefined) throw new ConfigError("--host and --port apply to --http");
          await runServe(s, opts);
          return EXIT.ok;
        }
        await runServeHttp(s, {
          ...opts,
          repos: opts.repo,
          host: opts.host ?? DEFAULT_HTTP_HOST,
          port: opts.port ?? DEFAULT_HTTP_PORT,
          ...(opts.policy ? { policyPath: opts.policy } : {}),
        });
        return EXIT.ok;
      });
    });

  withCommon(program.command("search <query>").description("search indexed code (lexical)"))
    .option("--regex", "treat the query as a regular expression")
    .option("--case-sensitive", "match case")
    .option("--path <glob...>", "limit to paths matching these globs")
    .option("--max <n>", "maximum hits", positiveInt)
    .option("--include-generated", "include generated and vendored files")
    .option("--mode <mode>", "hybrid (default), lexical or symbol")
    .option("--json", "print the envelope as JSON")
    .action(
      async (
        query: string,
        opts: CommonOptions & {
          regex?: boolean;
          caseSensitive?: boolean;
          path?: string[];
          max?: number;
          includeGenerated?: boolean;
          mode?: string;
          json?: boolean;
        },
      ) =>
        withSetup(opts, undefined, async (s) => {
          const env = await callTool(s, "search_code", {
            query,
            regex: opts.regex ?? false,
            caseSensitive: opts.caseSensitive ?? false,
            ...(opts.path ? { paths: opts.path } : {}),
            ...(opts.max ? { maxResults: opts.max } : {}),
            ...(opts.includeGenerated ? { includeGenerated: true } : {}),
            ...(opts.mode ? { mode: opts.mode } : {}),
          });
          return report(env, opts.json ?? false, formatSearch, process.stdout, process.stderr);
        }),
    );

  withCommon(program.command("symbol <name>").description("find a symbol's definition, references (--refs) or call sites (--calls)"))
    .option("--refs", "every syntactic reference")
    .option("--calls", "call sites only, with the enclosing function")
    .option("--language <id>", "limit to one language")
    .option("--path <glob...>", "limit to paths matching these globs")
    .option("--max <n>", "maximum hits", positiveInt)
    .option("--json", "print the envelope as JSON")
    .action(async (name: string, opts: CommonOptions & { refs?: boolean; calls?: boolean; language?: string; path?: string[]; max?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const env = await callTool(s, "find_symbol", {
          symbol: name,
          intent: opts.calls ? "call_sites" : opts.refs ? "references" : "definition",
          ...(opts.language ? { language: opts.language } : {}),
          ...(opts.path ? { paths: opts.path } : {}),
          ...(opts.max ? { maxResults: opts.max } : {}),
        });
        return report(env, opts.json ?? false, formatSymbol, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("slice <path>").description("print a line range of an indexed file"))
    .option("--lines <a:b>", "line range, e.g. 10:40")
    .option("--expected-hash <sha256:...>", "fail with stale_context if the file's hash differs")
    .option("--no-line-numbers", "print without line numbers")
    .option("--json", "print the envelope as JSON")
    .action(async (path: string, opts: CommonOptions & { lines?: string; expectedHash?: string; lineNumbers: boolean; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const env = await callTool(s, "get_file_slice", {
          path,
          ...parseLineRange(opts.lines),
          includeLineNumbers: opts.lineNumbers,
          ...(opts.expectedHash ? { expectedContentHash: opts.expectedHash } : {}),
        });
        return report(env, opts.json ?? false, formatSlice, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("tests [paths...]").description("find the tests related to changed paths and/or symbols, with a command to run each"))
    .option("--symbol <name...>", "changed symbols (QuoteService, QuoteService#quote)")
    .option("--max <n>", "maximum tests", positiveInt)
    .option("--json", "print the envelope as JSON")
    .action(async (paths: string[], opts: CommonOptions & { symbol?: string[]; max?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const env = await callTool(s, "find_related_tests", {
          ...(paths.length > 0 ? { changedPaths: paths } : {}),
          ...(opts.symbol ? { symbols: opts.symbol } : {}),
          ...(opts.max ? { maxResults: opts.max } : {}),
        });
        return report(env, opts.json ?? false, formatRelatedTests, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("owners <paths...>").description("show owners and reviewers of paths from CODEOWNERS, with the deciding rule"))
    .option("--json", "print the envelope as JSON")
    .action(async (paths: string[], opts: CommonOptions & { json?: boolean }) =>
      withSetup(opts, undefined, async (s) => report(await callTool(s, "get_ownership", { paths }), opts.json ?? false, formatOwnership, process.stdout, process.stderr)),
    );

  withCommon(program.command("impact <paths...>").description("collect the evidence bundle for a candidate change: call sites, tests, owners, risks, commands, gaps"))
    .option("--symbol <name...>", "changed symbols (QuoteService#quote); default: the public symbols the files define")
    .addOption(new Option("--change-type <type>", "kind of change (call sites for api_migration, bug_fix, feature, dependency_upgrade)").choices(CHANGE_TYPES).default("refactor"))
    .option("--max-files <n>", "files listed in call sites and in related tests", positiveInt)
    .option("--json", "print the envelope as JSON")
    .action(async (paths: string[], opts: CommonOptions & { symbol?: string[]; changeType: string; maxFiles?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const env = await callTool(s, "get_change_impact_context", {
          candidatePaths: paths,
          changeType: opts.changeType,
          ...(opts.symbol ? { symbols: opts.symbol } : {}),
          ...(opts.maxFiles ? { maxFiles: opts.maxFiles } : {}),
        });
        return report(env, opts.json ?? false, formatChangeImpact, process.stdout, process.stderr);
      }),
    );

  withCommon(program.command("context <purpose>").description(`print a budgeted context package for a purpose (${CONTEXT_PURPOSES.join(", ")})`))
    .option("--goal <text>", "what the change must achieve")
    .option("--task <id>", "a task from the operator's task sources")
    .option("--path <paths...>", "candidate paths")
    .option("--symbol <names...>", "target symbols (QuoteService#quote)")
    .option("--from <symbol>", "migration: the old API")
    .option("--to <symbol>", "migration: the new API")
    .option("--allowed <globs...>", "contract: paths a change may touch")
    .option("--forbidden <globs...>", "contract: paths a change may not touch")
    .option("--criterion <texts...>", "contract: acceptance criteria")
    .option("--non-goal <texts...>", "contract: non-goals")
    .option("--check <commands...>", "contract: required verification commands")
    .option("--diff <file>", "unified diff to review or repair ('-' reads stdin)")
    .option("--log <file>", "the failing verifier's output (verification_repair)")
    .option("--budget <tokens>", "token budget", positiveInt, 8000)
    .addOption(new Option("--target <target>", "message shape").choices(RENDER_TARGETS).default("local"))
    .addOption(new Option("--tokenizer <name>", "encoding the budget is counted in").choices(TOKENIZERS).default("o200k_base"))
    .option("--max-files <n>", "files per list", positiveInt)
    .option("--manifest-out <file>", "write the package manifest here (for `repoctx freshness`)")
    .option("--json", "print the whole envelope as JSON")
    .action(async (purpose: string, opts: CommonOptions & ContextOptions) =>
      withSetup(opts, undefined, async (s) => {
        const env = await callTool(s, "build_context_package", await contextArgs(purpose, opts));
        if (opts.json || !env.ok) return report(env, opts.json ?? false, () => "", process.stdout, process.stderr);
        for (const w of env.warnings) process.stderr.write(`warning: ${w.code}: ${w.message}\n`);
        await printContext(env, opts, process.stdout, process.stderr);
        return EXIT.ok;
      }),
    );

  withCommon(program.command("freshness <manifest>").description("check a context package's manifest against the work tree and the index: fresh, or what went stale"))
    .option("--json", "print the envelope as JSON")
    .action(async (manifestFile: string, opts: CommonOptions & { json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as unknown;
        const env = await callTool(s, "check_context_freshness", { manifest });
        const code = report(env, opts.json ?? false, formatFreshness, process.stdout, process.stderr);
        return code === EXIT.ok && !(env.data as { contextFreshness: { fresh: boolean } }).contextFreshness.fresh ? EXIT.stale_context : code;
      }),
    );

  withCommon(program.command("inspect").description("show index status, counts, exclusions and the policy in force"))
    .option("--json", "print the envelope as JSON")
    .action(async (opts: CommonOptions & { json?: boolean }) =>
      withSetup(opts, undefined, async (s) => report(await callTool(s, "inspect_index", {}), opts.json ?? false, formatJson, process.stdout, process.stderr)),
    );

  withCommon(program.command("audit").description("show the audit log: one record per tool call (hashes, counts, outcome)"))
    .option("--since <when>", "ISO time, or a duration such as 30m, 2h, 7d")
    .option("--tool <name>", "only this tool")
    .option("--limit <n>", "records to show (default 50)", positiveInt)
    .option("--json", "print records as JSON")
    .action(async (opts: CommonOptions & { since?: string; tool?: string; limit?: number; json?: boolean }) =>
      withSetup(opts, undefined, async (s) => {
        const since = parseSince(opts.since, new Date());
        if (since === null) {
          process.stderr.write("repoctx: --since must be an ISO time or a duration like 30m, 2h, 7d\n");
          return EXIT.invalid_input;
        }
        const records = await s.store.listAudit({ ...(since ? { since } : {}), ...(opts.tool ? { tool: opts.tool } : {}), limit: opts.limit ?? DEFAULT_AUDIT_LIMIT });
        process.stdout.write(opts.json ? `${JSON.stringify(records, null, 2)}\n` : formatAudit(records));
        return EXIT.ok;
      }),
    );

  // Not withSetup: eval indexes a temporary worktree into its own temporary store, never the served index.
  program
    .command("eval")
    .description("evaluate retrieval on the repository's own history: query recent commit messages at their parents, report Recall@k, MRR, related-test recall, latency")
    .option("--repo <path>", "repository root (default: current directory)")
    .option("--commits <n>", "commits to evaluate (default 30)", positiveInt)
    .option("--modes <names...>", "retrieval modes to compare (default: all registered)")
    .option("--policy <file>", "operator read policy (YAML); never read from the evaluated repository")
    .option("--json", "print the whole report as JSON")
    .option("--quiet", "no progress on stderr")
    .action(async (opts: { repo?: string; commits?: number; modes?: string[]; policy?: string; json?: boolean; quiet?: boolean }) => {
      process.exitCode = await runEvalCommand(opts, { out: process.stdout, err: process.stderr });
    });

  program.exitOverride((err) => {
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.invalid_input);
  });
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`repoctx: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.internal_error;
  });
