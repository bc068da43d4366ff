import type { InstructionLikeMatch, InstructionCategory, InstructionClaims } from "../../core/instructions.js";
import type { WithheldReason } from "../../core/evidence.js";
import type { TrustLevel } from "../../core/evidence.js";

/**
 * The instruction hierarchy (seed Part 034 §4): which instruction is authoritative for a change to some paths, which
 * is context only, and what happens when they disagree. Pure: the caller hands in every layer's rules.
 *
 * Lower layers may narrow (forbid more, add commands) but never widen: a lower rule requiring what a higher layer
 * forbids loses and leaves the effective set, and the conflict is reported with its winner. Contradictions between
 * rules of the same rank cannot be ranked and make the outcome `needs_human: instruction_conflict`.
 */

export const INSTRUCTION_LAYERS = [
  { layer: "platform_safety", authority: "PLATFORM_SAFETY" },
  { layer: "organization_policy", authority: "ORGANIZATION_POLICY" },
  { layer: "runtime_policy", authority: "RUNTIME_POLICY" },
  { layer: "task_contract", authority: "TASK_CONTRACT" },
  { layer: "user_task", authority: "USER_TASK" },
  { layer: "repository_instruction", authority: "REPOSITORY_INSTRUCTION" },
  { layer: "directory_instruction", authority: "DIRECTORY_INSTRUCTION" },
  { layer: "tool_description", authority: "TOOL_DESCRIPTION" },
  { layer: "evidence", authority: "EVIDENCE" },
  { layer: "untrusted_content", authority: "UNTRUSTED_CONTENT" },
] as const;
export type InstructionLayer = (typeof INSTRUCTION_LAYERS)[number]["layer"];
export type AuthorityLevel = (typeof INSTRUCTION_LAYERS)[number]["authority"];

export const LAYER_INDEX = new Map<string, number>(INSTRUCTION_LAYERS.map((l, i) => [l.layer, i]));
export const AUTHORITY = new Map<string, AuthorityLevel>(INSTRUCTION_LAYERS.map((l) => [l.layer, l.authority]));

export type RuleSource = "platform" | "operator_policy" | "task_contract" | "user_task" | "repository_file";
export type RuleStatus = "in_effect" | "excluded" | "overridden" | "suspicious";

/** One instruction as the resolver sees it: words, structured claims, layer, scope and provenance. */
export interface ResolverRule {
  id: string;
  layer: InstructionLayer;
  source: RuleSource;
  text: string;
  category: InstructionCategory;
  /** Folder it applies to ("" = whole repository). */
  scope: string;
  claims: InstructionClaims;
  trustLevel: TrustLevel;
  path?: string;
  startLine?: number;
  endLine?: number;
  commit?: string | null;
  contentHash?: string | null;
  suspicious?: InstructionLikeMatch[];
  /** The rule's text is not served (its file may hold a secret); its restrictions still apply. */
  withheld?: WithheldReason;
}

/** Each applicable rule's status while the resolver decides, with the reason when it is not plainly in effect. */
export type RuleStatuses = Map<ResolverRule, { status: RuleStatus; reason?: string }>;

// ---------------------------------------------------------------------------------------------------------------
// Scope and rank.

/** How many folders deep a scope sits ("" = the root, 0). */
export function depthOf(scope: string): number {
  return scope === "" ? 0 : scope.split("/").length;
}

/** Whether a rule scoped to `scope` applies to `path`. */
export function inScope(scope: string, path: string): boolean {
  return scope === "" || path === scope || path.startsWith(`${scope}/`);
}

function rank(r: ResolverRule): [number, number] {
  return [LAYER_INDEX.get(r.layer)!, r.layer === "directory_instruction" ? depthOf(r.scope) : 0];
}

/** -1: a outranks b; 1: b outranks a; 0: same rank. */
export function compareRank(a: ResolverRule, b: ResolverRule): number {
  const [la, da] = rank(a);
  const [lb, db] = rank(b);
  if (la !== lb) return la < lb ? -1 : 1;
  if (da !== db) return da < db ? -1 : 1;
  return 0;
}

/** A comparator ordering by a string key, code unit by code unit (not locale-aware). */
export function byString<T>(key: (t: T) => string): (a: T, b: T) => number {
  return (a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/** Rules in rank order, ties broken by id. */
export function byRankThenId(a: ResolverRule, b: ResolverRule): number {
  return compareRank(a, b) || byString<ResolverRule>((r) => r.id)(a, b);
}
