import { InvalidArgumentError, type Command } from "commander";
import { CORE_TOOLS, TOOL_NAMES, toolSet } from "../../mcp/tool-names.js";
import { EXIT } from "../exit-codes.js";
import { collect, port, withCommon, withSetup } from "../options.js";
import type { CommonOptions } from "../setup.js";

/**
 * `repoctx serve`'s options. Registering them loads nothing of the server: the action imports ./serve.js (the MCP SDK,
 * the tools, the transports) when it runs, so other commands and `--version` start without them (#19).
 */

export const DEFAULT_HTTP_HOST = "127.0.0.1";
export const DEFAULT_HTTP_PORT = 8808;

type ServeFlags = Omit<CommonOptions, "repo"> & { repo?: string[]; reindex?: boolean; quiet?: boolean; watch?: boolean; http?: boolean; host?: string; port?: number; tools?: string[] };

/** `--tools core|all|name,name`: the names, or a usage error naming the unknown ones. */
function toolsOption(value: string): string[] {
  const { names, unknown } = toolSet(value);
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown tool(s) ${unknown.join(", ")}; known: core, all, ${TOOL_NAMES.join(", ")}`);
  if (names.length === 0) throw new InvalidArgumentError("names no tool");
  return names;
}

/** `repoctx serve`: one repository over stdio, or one or several over Streamable HTTP with --http. */
export function registerServeCommand(program: Command): void {
  withCommon(program.command("serve").description("serve repositories over MCP: stdio (one repository), or Streamable HTTP with --http"), false)
    .option("--repo <path>", "repository root (default: current directory); repeat with --http to serve several", collect)
    .option("--reindex", "rebuild the index before serving")
    .option("--watch", "rebuild the index when files change (queries keep answering from the last ready index)")
    .option("--quiet", "no progress on stderr")
    .option("--http", "serve MCP Streamable HTTP at /mcp instead of stdio (bearer tokens: REPOCTX_HTTP_TOKENS or the policy file's http.tokens)")
    .option("--host <host>", `with --http: address to bind (default ${DEFAULT_HTTP_HOST}; any other than loopback needs tokens)`)
    .option("--port <n>", `with --http: port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one, logged in the "listening" line)`, port)
    .option("--tools <set>", `tools to expose: core (default: ${CORE_TOOLS.join(", ")}), all (adds get_instructions, get_ownership, get_task_context, build_context_package, check_context_freshness), or a comma list of names`, toolsOption)
    .action(async (flags: ServeFlags) => {
      const opts = { ...flags, repo: flags.repo ?? [] };
      const [{ runServe, runServeHttp }, { ConfigError }] = await Promise.all([import("./serve.js"), import("../../config/resolve.js")]);
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
}
