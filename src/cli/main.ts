#!/usr/bin/env node
import { createRequire } from "node:module";
import { Command } from "commander";
import { registerAuditCommand } from "./commands/audit.js";
import { registerContextCommands } from "./commands/context-cmd.js";
import { registerEvalCommand } from "./commands/eval-cmd.js";
import { registerImpactCommand } from "./commands/impact-cmd.js";
import { registerIndexCommand } from "./commands/index-cmd.js";
import { registerInspectCommand, registerKnowledgeCommands } from "./commands/knowledge-cmds.js";
import { registerSearchCommands } from "./commands/search-cmds.js";
import { registerServeCommand } from "./commands/serve-cmd.js";
import { EXIT } from "./exit-codes.js";

/** The package's version (the MCP server reports the same, mcp/server.ts serverVersion), read without loading the server. */
function packageVersion(): string {
  return (createRequire(import.meta.url)("../../package.json") as { version: string }).version;
}

/**
 * The command line: each command registers itself from its own file, in the order `--help` lists them. Registering
 * loads only commander and the options; each command's action imports what it runs when it runs (startup, #19).
 */
export function buildProgram(): Command {
  const program = new Command("repoctx")
    .description("Read-only, evidence-first repository context server for AI coding agents (MCP)")
    .version(packageVersion());
  // Before the commands are added: subcommands inherit it, so a usage error in one exits 2 like the root's.
  program.exitOverride((err) => {
    process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.invalid_input);
  });
  registerIndexCommand(program);
  registerServeCommand(program);
  registerSearchCommands(program);
  registerKnowledgeCommands(program);
  registerImpactCommand(program);
  registerContextCommands(program);
  registerInspectCommand(program);
  registerAuditCommand(program);
  registerEvalCommand(program);
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`repoctx: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = EXIT.internal_error;
  });
