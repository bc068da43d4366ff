// Markdown structure

type SectionKind = "preamble" | "objective" | "acceptance" | "non_goals" | "steps" | "other";

interface BodyLine {
  n: number;
  text: string;
  inCode: boolean;
  isHeading: boolean;
}

export interface Section {
  kind: SectionKind;
  /** Lower is a better objective source. */
  objectiveRank: number;
  heading: string | null;
  line: number;
  lines: BodyLine[];
}

export const FENCE = /^\s{0,3}(?:```|~~~)/;
const ATX_HEADING = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/;
const PSEUDO_HEADING = /^\s*(?:\*\*|__)(.{1,60}?)(?:\*\*|__)\s*:?\s*$|^\s*([A-Za-z][\w -]{1,40}):\s*$/;
export const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[([ xX])\]\s+)?(.+)$/;
const CHECKBOX = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\[([ xX])\]\s+(.+)$/;
export const INLINE_ACCEPTANCE = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:acceptance(?:\s+criteria)?|definition\s+of\s+done|done\s+when)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(\S.*)$/i;
export const INLINE_NON_GOALS = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:non[\s-]?goals?|out\s+of\s+scope)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(\S.*)$/i;

const OBJECTIVE_HEADINGS: readonly [RegExp, number][] = [
  [/^(?:objectives?|goals?|summary|tl ?dr)\b/, 0],
  [/^(?:description|overview|problem(?: statement)?|what)\b/, 1],
  [/^(?:motivation|background|context|why)\b/, 2],
];

function classifyHeading(heading: string): { kind: SectionKind; rank: number } {
  const h = heading.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  if (/^(?:acceptance(?: criteria)?|definition of done|done when|success criteria|exit criteria)\b/.test(h)) return { kind: "acceptance", rank: 99 };
  if (/^(?:non ?goals?|out of scope|not in scope|outside (?:the )?scope|won ?t do)\b/.test(h)) return { kind: "non_goals", rank: 99 };
  // Reproduction steps are imperative too, but they describe a bug, not what to change.
  if (/^(?:steps(?: to reproduce)?|reproduction|repro|how to reproduce|to reproduce)\b/.test(h)) return { kind: "steps", rank: 99 };
  for (const [re, rank] of OBJECTIVE_HEADINGS) if (re.test(h)) return { kind: "objective", rank };
  return { kind: "other", rank: 99 };
}

export function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, "\n").split("\n");
}

export function sectionsOf(body: string): Section[] {
  const sections: Section[] = [{ kind: "preamble", objectiveRank: 3, heading: null, line: 1, lines: [] }];
  let inCode = false;
  splitLines(body).forEach((text, i) => {
    const n = i + 1;
    if (FENCE.test(text)) {
      inCode = !inCode;
      sections.at(-1)!.lines.push({ n, text, inCode: true, isHeading: false });
      return;
    }
    if (!inCode) {
      const atx = ATX_HEADING.exec(text);
      const pseudo = atx ? null : PSEUDO_HEADING.exec(text);
      const heading = atx?.[1] ?? pseudo?.[1] ?? pseudo?.[2];
      if (heading !== undefined) {
        const c = classifyHeading(heading);
        // Bold or "Word:" lines only count as headings when they name a section we know.
        if (atx || c.kind !== "other") {
          sections.push({ kind: c.kind, objectiveRank: c.rank, heading: heading.replace(/[*_`]/g, "").trim(), line: n, lines: [] });
          return;
        }
      }
    }
    sections.at(-1)!.lines.push({ n, text, inCode, isHeading: false });
  });
  return sections;
}

/** The first paragraph of a section: consecutive non-blank prose lines, joined. */
function firstParagraph(lines: readonly BodyLine[]): { text: string; line: number } | null {
  const para: BodyLine[] = [];
  for (const l of lines) {
    if (l.inCode || l.text.trim() === "" || /^\s*(?:<!--|-->)/.test(l.text)) {
      if (para.length > 0) break;
      continue;
    }
    para.push(l);
  }
  if (para.length === 0) return null;
  const text = para.map((l) => l.text.trim().replace(LIST_ITEM, "$2")).join(" ").replace(/\s+/g, " ").trim();
  return text.length > 0 ? { text, line: para[0]!.n } : null;
}

/** List items of a section (continuation lines folded in); a section without items gives its prose lines. */
function itemsOf(lines: readonly BodyLine[]): TaskItemDraft[] {
  const items: TaskItemDraft[] = [];
  const prose: TaskItemDraft[] = [];
  let last: TaskItemDraft | null = null;
  for (const l of lines) {
    if (l.inCode) {
      last = null;
      continue;
    }
    const trimmed = l.text.trim();
    if (trimmed === "") {
      last = null;
      continue;
    }
    const m = LIST_ITEM.exec(l.text);
    if (m) {
      last = { text: (m[2] ?? "").trim(), line: l.n, ...(m[1] !== undefined ? { checked: m[1] !== " " } : {}) };
      items.push(last);
    } else if (last && /^\s+/.test(l.text)) {
      last.text = `${last.text} ${trimmed}`;
    } else {
      prose.push({ text: trimmed, line: l.n });
    }
  }
  return items.length > 0 ? items : prose;
}

export interface TaskItemDraft {
  text: string;
  line: number;
  checked?: boolean;
}

/** "Acceptance: no remaining call sites, tests pass." → two items. */
function splitInline(rest: string, line: number): TaskItemDraft[] {
  return rest
    .split(/;\s*|,\s+(?:and\s+)?/)
    .map((s) => s.trim().replace(/\.$/, "").trim())
    .filter((s) => s.length > 0)
    .map((text) => ({ text, line }));
}

/** Objective: the best-named section's first paragraph, else the text before the first heading, else the first section. */
export function objectiveOf(sections: readonly Section[], suspiciousBodyLines: ReadonlySet<number>): string | null {
  const candidates = sections
    .filter((s) => s.kind === "objective" || s.kind === "preamble" || s.kind === "other")
    .map((s) => ({ s, rank: s.kind === "other" ? 4 : s.objectiveRank }))
    .sort((a, b) => a.rank - b.rank || a.s.line - b.s.line);
  for (const { s } of candidates) {
    const p = firstParagraph(s.lines.filter((l) => !suspiciousBodyLines.has(l.n)));
    if (p) return p.text;
  }
  return null;
}

/**
 * Acceptance criteria and non-goals: the items of their sections, inline "Acceptance: …" / "Non-goals: …" lines, and
 * checklist items anywhere else (as criteria).
 */
export function criteriaAndNonGoalsOf(sections: readonly Section[]): { criteria: TaskItemDraft[]; nonGoals: TaskItemDraft[] } {
  const criteriaDrafts: TaskItemDraft[] = [];
  const nonGoalDrafts: TaskItemDraft[] = [];
  for (const s of sections) {
    if (s.kind === "acceptance") criteriaDrafts.push(...itemsOf(s.lines));
    if (s.kind === "non_goals") nonGoalDrafts.push(...itemsOf(s.lines));
    for (const l of s.lines) {
      if (l.inCode) continue;
      const acc = INLINE_ACCEPTANCE.exec(l.text);
      if (acc) criteriaDrafts.push(...splitInline(acc[1] ?? "", l.n));
      const ng = INLINE_NON_GOALS.exec(l.text);
      if (ng) nonGoalDrafts.push(...splitInline(ng[1] ?? "", l.n));
      if (s.kind !== "acceptance" && s.kind !== "non_goals") {
        const cb = CHECKBOX.exec(l.text);
        if (cb) criteriaDrafts.push({ text: (cb[2] ?? "").trim(), line: l.n, checked: cb[1] !== " " });
      }
    }
  }
  return { criteria: criteriaDrafts, nonGoals: nonGoalDrafts };
}
