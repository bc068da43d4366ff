import { createHash } from "node:crypto";
import type { ResolverRule } from "./layers.js";
import type { Conflict, EffectiveInstructions } from "./resolved.js";

/** JSON with object keys sorted at every level: the same content always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The effective instruction hash: the outcome, targets, effective set (rules with their provenance hashes) and the
 * conflicts, as canonical JSON. Same instructions in force, same hash.
 */
export function effectiveInstructionHash(
  needsHuman: boolean,
  targets: readonly string[],
  effective: EffectiveInstructions,
  effectiveRules: readonly ResolverRule[],
  conflicts: readonly Conflict[],
): string {
  const hashed = {
    outcome: needsHuman ? "needs_human" : "ok",
    targetPaths: targets,
    effective: {
      ...effective,
      rules: effectiveRules.map((r) => ({ id: r.id, layer: r.layer, text: r.text, scope: r.scope, contentHash: r.contentHash ?? null, commit: r.commit ?? null })),
    },
    conflicts: conflicts.map((c) => ({ type: c.type, resolution: c.resolution, winner: c.winner, loser: c.loser, action: c.action, purpose: c.purpose, rules: c.rules.map((r) => r.ruleId) })),
  };
  return `sha256:${createHash("sha256").update(canonicalJson(hashed)).digest("hex")}`;
}
