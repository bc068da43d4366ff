/**
 * Runs the knowledge measurement (measure-knowledge.ts) in a process of its own, so that each resource's first
 * read is the process's first and the index's knowledge is loaded by it, whatever the bench measured before.
 * Argument: one JSON object ({ root, dbPath, relatedLookups, ownershipLookups, passes }); prints one JSON line.
 */
import { measureKnowledge, type KnowledgeChildInput } from "./measure-knowledge.js";

const input = JSON.parse(process.argv[2] ?? "null") as KnowledgeChildInput | null;
if (!input) throw new Error("usage: knowledge-child.ts <json input>");
const result = await measureKnowledge(input.root, input.dbPath, input.relatedLookups, input.ownershipLookups, input.passes);
process.stdout.write(`${JSON.stringify(result)}\n`);
