/**
 * Runs the context-assembly measurement (measure-context.ts) in a process of its own, so that the first package
 * built is the process's first call and loads the index's knowledge, whatever the bench measured before.
 * Argument: one JSON object ({ root, dbPath, specs, impactLookups, passes }); prints one JSON line.
 */
import { measureContext, type ContextChildInput } from "./measure-context.js";

const input = JSON.parse(process.argv[2] ?? "null") as ContextChildInput | null;
if (!input) throw new Error("usage: context-child.ts <json input>");
const result = await measureContext(input.root, input.dbPath, input.specs, input.impactLookups, input.passes);
process.stdout.write(`${JSON.stringify(result)}\n`);
