import { tokenCounter } from "./context-package/tokens.js";
import type { ChangeImpactBundle, ChangeImpactEnv } from "./change-impact.js";
import { QueryError } from "../core/errors.js";

/**
 * Fitting a change-impact bundle into a token budget: the least valuable items go first; coverage, the candidate
 * files and the instructions' prohibitions always stay, and every list that lost items says so in coverage.truncated.
 */

type Item = object;
type Lists = Map<string, Item[]>;

function listsOf(b: ChangeImpactBundle): Lists {
  const lists: Lists = new Map<string, Item[]>([
    ["callSites", b.callSites],
    ["relatedTests", b.relatedTests],
    ["riskHints", b.riskHints],
    ["ownerHints", b.ownerHints],
    ["verifierHints", b.verifierHints],
    ["instructions.files", b.instructions.files],
    ["instructions.conflicts", b.instructions.conflicts],
    ["instructions.commands", b.instructions.commands],
  ]);
  for (const d of b.directFiles) lists.set(`directFiles[${d.path}].symbols`, d.symbols);
  for (const g of b.callSites) lists.set(`callSites[${g.path}].hits`, g.hits);
  return lists;
}

const field = (item: Item, key: string): unknown => (item as Record<string, unknown>)[key];

/** Symbols that inventory a file (its `mod` lines, fields, constants): the agent reads them from the file itself. */
const INVENTORY_KINDS = new Set(["module", "field", "constant"]);
const byConfidence = (tier: string) => (i: Item) => field(i, "confidence") === tier;

/**
 * Drop order, explicit: inventories of the candidate files first (module lists, fields, constants), then
 * low-confidence evidence, instruction files and the rest of the symbol lists, then medium-confidence hints, and
 * last what decides the change: the tests that exercise it, then its call sites (the candidate files are the
 * caller's own; their callers are what it cannot see). The fit drops the fewest items in this order, so nothing
 * later in it goes while budget remains.
 */
const TRIM_PLAN: { list: string; match?: (item: Item) => boolean; byDepth?: boolean }[] = [
  { list: "directFiles[", match: (i) => INVENTORY_KINDS.has(String(field(i, "kind"))) },
  { list: "ownerHints", match: (i) => field(i, "role") === "call_site" },
  ...["riskHints", "verifierHints", "relatedTests", "callSites"].map((list) => ({ list, match: byConfidence("low") })),
  { list: "instructions.files" },
  { list: "directFiles[" },
  ...["riskHints", "verifierHints"].map((list) => ({ list, match: byConfidence("medium") })),
  { list: "riskHints" },
  { list: "verifierHints", match: (i) => field(i, "scope") === "single_test" || field(i, "scope") === "dependent_module" },
  ...["relatedTests", "callSites"].map((list) => ({ list, match: byConfidence("medium") })),
  { list: "ownerHints" },
  { list: "instructions.conflicts" },
  { list: "verifierHints" },
  { list: "relatedTests" },
  // Call sites one at a time, deepest first across files (every file's last, then the one before…), so each file
  // keeps its first call site until only whole files are left to drop.
  { list: "callSites[", byDepth: true },
  { list: "callSites" },
  { list: "instructions.commands" },
];

/** A step's list: a prefix ending in `[` names every list of that family (`directFiles[…].symbols`), else one list. */
const stepMatches = (step: string, name: string) => (step.endsWith("[") ? name.startsWith(step) : name === step);

/** Items of several lists, deepest position first and the last list first at each depth. */
function byDepth(lists: Item[][]): Item[] {
  const out: Item[] = [];
  const deepest = Math.max(0, ...lists.map((l) => l.length));
  for (let depth = deepest - 1; depth >= 0; depth--) {
    for (let i = lists.length - 1; i >= 0; i--) if (depth < lists[i]!.length) out.push(lists[i]![depth]!);
  }
  return out;
}

export function dropOrder(b: ChangeImpactBundle): Item[] {
  const order: Item[] = [];
  const taken = new Set<Item>();
  const lists = listsOf(b);
  for (const step of TRIM_PLAN) {
    const family = [...lists].filter(([name]) => stepMatches(step.list, name)).map(([, items]) => items);
    const items = step.byDepth ? byDepth(family) : family.flatMap((list) => [...list].reverse());
    for (const item of items) {
      if (taken.has(item) || (step.match && !step.match(item))) continue;
      taken.add(item);
      order.push(item);
    }
  }
  return order;
}

function without(b: ChangeImpactBundle, dropped: Set<Item>): ChangeImpactBundle {
  const keep = <T extends Item>(items: T[]) => items.filter((i) => !dropped.has(i));
  const trimmed: ChangeImpactBundle = {
    directFiles: b.directFiles.map((d) => ({ ...d, symbols: keep(d.symbols) })),
    callSites: keep(b.callSites).map((g) => ({ ...g, hits: keep(g.hits) })),
    relatedTests: keep(b.relatedTests),
    ownerHints: keep(b.ownerHints),
    riskHints: keep(b.riskHints),
    verifierHints: keep(b.verifierHints),
    instructions: { ...b.instructions, files: keep(b.instructions.files), conflicts: keep(b.instructions.conflicts), commands: keep(b.instructions.commands) },
    coverage: b.coverage,
  };
  const truncated = b.coverage.truncated.map((t) => ({ ...t }));
  const after = listsOf(trimmed);
  for (const [name, items] of listsOf(b)) {
    const kept = after.get(name);
    // A file dropped whole is counted once, in callSites, not again for its hits.
    if (kept === undefined) continue;
    const shown = kept.length;
    if (shown === items.length) continue;
    const prior = truncated.find((t) => t.list === name);
    if (prior) Object.assign(prior, { shown, reason: `${prior.reason}; budgetTokens` });
    else truncated.push({ list: name, total: items.length, shown, reason: "budgetTokens" });
  }
  return { ...trimmed, coverage: { ...b.coverage, truncated } };
}

/** The fewest drops (in drop order) that fit, found by bisection: each try is one full count. */
export function fitBudget(full: ChangeImpactBundle, budget: number, tokens: (b: ChangeImpactBundle) => number): ChangeImpactBundle {
  const order = dropOrder(full);
  const attempt = (n: number) => without(full, new Set(order.slice(0, n)));
  if (tokens(full) <= budget) return full;
  const smallest = attempt(order.length);
  const floor = tokens(smallest);
  if (floor > budget) {
    throw new QueryError(
      "invalid_input",
      `budgetTokens ${budget} cannot hold the bundle's coverage, candidate files and prohibitions (${floor} tokens)`,
      `raise budgetTokens to at least ${floor}, or name fewer candidatePaths`,
    );
  }
  let lo = 0;
  let hi = order.length;
  let best = smallest;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const b = attempt(mid);
    if (tokens(b) <= budget) [hi, best] = [mid, b];
    else lo = mid;
  }
  return best;
}

export function defaultMeasure(): NonNullable<ChangeImpactEnv["measure"]> {
  const count = tokenCounter("o200k_base");
  return (data) => count(JSON.stringify(data));
}
