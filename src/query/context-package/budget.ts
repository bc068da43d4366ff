import { QueryError } from "../../core/errors.js";
import { blockText, renderPackage, type RenderedPackage } from "./render.js";
import type { TokenCounter } from "./tokens.js";
import { PRIORITY_ORDER, type BlockForm, type BlockKind, type BlockRole, type ContextBlock, type Priority, type RenderTarget } from "./types.js";
import type { ManifestEvidence } from "./manifest-schema.js";
import type { Retrieval, TrustLevel } from "../../core/evidence.js";

/** Where a block's evidence id goes in its title until the package is numbered. */
export const EVIDENCE_SLOT = "[E?]";

/** A block before the budget has chosen it and its form: the forms run from richest to smallest. */
export interface Candidate {
  priority: Priority;
  role: BlockRole;
  kind: BlockKind;
  title: string;
  forms: { form: BlockForm; text: string }[];
  trustLevel: TrustLevel;
  reason: string;
  /** Never dropped (ranks 1–3 of Part 032 §4): the budget may only pick a smaller form. */
  mandatory?: boolean;
  evidence?: Omit<ManifestEvidence, "id">;
  retrieval?: Retrieval;
  /** Instruction-like passages the block's text holds (its trust label already says so). */
  flagged?: number;
}

export interface OmittedBlock {
  kind: BlockKind;
  title: string;
  priority: Priority;
  /** Tokens its smallest form would have needed. */
  tokens: number;
  reason: "budget";
  path?: string;
  lines?: string;
}

export interface Fitted {
  blocks: ContextBlock[];
  chosen: Candidate[];
  omitted: OmittedBlock[];
  rendered: RenderedPackage;
  /** Tokens per chosen block, in block order. */
  blockTokens: number[];
}

/** Tokens between two blocks ("\n\n"). */
const SEPARATOR_TOKENS = 1;

const rankOf = (c: Candidate): number => PRIORITY_ORDER.indexOf(c.priority);

function realize(chosen: readonly { c: Candidate; form: number }[]): ContextBlock[] {
  let n = 0;
  return chosen.map(({ c, form }, i) => {
    const f = c.forms[form]!;
    const id = c.evidence ? `E${++n}` : null;
    return {
      id: id ?? `B${i + 1}`,
      priority: c.priority,
      role: c.role,
      kind: c.kind,
      title: id ? c.title.replace(EVIDENCE_SLOT, `[${id}]`) : c.title,
      text: f.text,
      form: f.form,
      trustLevel: c.trustLevel,
      reason: c.reason,
      ...(c.evidence && id ? { evidence: { id, ...c.evidence } } : {}),
    };
  });
}

/**
 * Chooses blocks and forms within the budget, in Part 032 §4's priority order: mandatory blocks first (shrunk to
 * smaller forms only if they must be), then the rest greedily, each at the richest form that still fits. The exact
 * rendering is then counted; while it is over (token boundaries do not add up exactly), the least important block
 * goes. A budget that cannot hold the mandatory blocks at their smallest is refused with the minimum it needs.
 */
export function fitToBudget(candidates: readonly Candidate[], budget: number, target: RenderTarget, count: TokenCounter): Fitted {
  const ordered = candidates.map((c, i) => ({ c, i })).sort((a, b) => rankOf(a.c) - rankOf(b.c) || a.i - b.i).map((x) => x.c);
  const cost = (c: Candidate, form: number): number =>
    count(blockText({ title: c.title.replace(EVIDENCE_SLOT, "[E99]"), text: c.forms[form]!.text } as ContextBlock)) + SEPARATOR_TOKENS;
  const mandatory = ordered.filter((c) => c.mandatory).map((c) => ({ c, form: 0 }));
  const fixed = renderPackage([], target, count).tokenCount;
  let used = fixed + mandatory.reduce((n, m) => n + cost(m.c, m.form), 0);
  // Shrink mandatory blocks, least important first, until they fit or cannot shrink further.
  for (let i = mandatory.length - 1; i >= 0 && used > budget; i--) {
    const m = mandatory[i]!;
    while (m.form < m.c.forms.length - 1 && used > budget) {
      used -= cost(m.c, m.form);
      m.form++;
      used += cost(m.c, m.form);
    }
  }
  if (used > budget) throw tooSmall(budget, used);
  const chosen: { c: Candidate; form: number }[] = [...mandatory];
  const omitted: OmittedBlock[] = [];
  for (const c of selectionOrder(ordered)) {
    if (c.mandatory) continue;
    const form = c.forms.findIndex((_, f) => used + cost(c, f) <= budget);
    if (form < 0) {
      omitted.push(omission(c, cost(c, c.forms.length - 1)));
      continue;
    }
    chosen.push({ c, form });
    used += cost(c, form);
  }
  const inOrder = () => chosen.map((x, i) => ({ x, i })).sort((a, b) => rankOf(a.x.c) - rankOf(b.x.c) || ordered.indexOf(a.x.c) - ordered.indexOf(b.x.c)).map((y) => y.x);
  for (;;) {
    const sorted = inOrder();
    const blocks = realize(sorted);
    const rendered = renderPackage(blocks, target, count);
    if (rendered.tokenCount <= budget) {
      return { blocks, chosen: sorted.map((s) => s.c), omitted, rendered, blockTokens: blocks.map((b) => count(blockText(b))) };
    }
    const drop = sorted.filter((s) => !s.c.mandatory).pop();
    if (!drop) throw tooSmall(budget, rendered.tokenCount);
    chosen.splice(chosen.indexOf(drop), 1);
    omitted.push(omission(drop.c, cost(drop.c, drop.c.forms.length - 1)));
  }
}

/** Evidence around the target rather than the target itself. */
const SECONDARY: ReadonlySet<Candidate["kind"]> = new Set(["call_site", "related_type", "test_file", "example"]);

/** Call sites and tests chosen ahead of the rest of their priority: the evidence that decides a change (issue #18). */
const DECISIVE: Readonly<Partial<Record<Candidate["kind"], number>>> = { call_site: 3, test_file: 2 };

/**
 * The order blocks are offered the budget in: priority order, but the first few call sites and related tests go
 * before the other optional blocks (same-file helpers, related types, further call sites, examples, documents),
 * taking turns, so a tight budget keeps a test that exercises the change instead of a tenth call site. Rendering keeps priority
 * order whatever the selection order was.
 */
function selectionOrder(ordered: readonly Candidate[]): Candidate[] {
  const optional = ordered.filter((c) => !c.mandatory);
  // Decisive blocks come right before the first secondary evidence (a call site, a related type, a test): what the
  // package opens with (instructions, the map, the target's excerpts and definitions) keeps its place.
  const cut = optional.findIndex((c) => SECONDARY.has(c.kind));
  if (cut < 0) return optional;
  const byKind = new Map<string, Candidate[]>();
  for (const c of optional.slice(cut)) {
    const list = byKind.get(c.kind) ?? byKind.set(c.kind, []).get(c.kind)!;
    if (list.length < (DECISIVE[c.kind] ?? 0)) list.push(c);
  }
  // Interleaved: the first call site, the first test, the second call site, the second test, …
  const decisive: Candidate[] = [];
  const lists = [...byKind.values()];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) decisive.push(l[i]!);
  const chosenFirst = new Set(decisive);
  return [...optional.slice(0, cut), ...decisive, ...optional.slice(cut).filter((c) => !chosenFirst.has(c))];
}

function omission(c: Candidate, tokens: number): OmittedBlock {
  return {
    kind: c.kind,
    title: c.title.replace(`${EVIDENCE_SLOT} `, ""),
    priority: c.priority,
    tokens,
    reason: "budget",
    ...(c.evidence ? { path: c.evidence.path, lines: `${c.evidence.startLine}-${c.evidence.endLine}` } : {}),
  };
}

function tooSmall(budget: number, needed: number): QueryError {
  return new QueryError(
    "invalid_input",
    `budgetTokens ${budget} cannot hold this package's policy, task and output contract even in their smallest form (${needed} tokens)`,
    `raise budgetTokens to at least ${needed}, or shorten the goal and the contract`,
  );
}
