import { INLINE_ACCEPTANCE, INLINE_NON_GOALS, LIST_ITEM, type Section, type TaskItemDraft } from "./sections.js";

// User-authored instructions: requirement sentences, kept apart from suspicious ones

const IMPERATIVE =
  /^(?:replace|migrate|remove|add|update|use|rename|move|delete|keep|ensure|make|implement|fix|refactor|change|introduce|extract|deprecate|avoid|do not|don't|never|must not|switch|convert|split|merge|wrap|drop|port|upgrade|bump|document|write|create|run|verify|preserve|support|return|handle|log|expose|reuse)\b/i;
const FILLER = /^(?:(?:also|please|then|and|first|finally|next|additionally)\b[,:]?\s+)+/i;

/** Imperative sentences outside acceptance, non-goal and reproduction sections; code and suspicious lines left out. */
export function userInstructionsOf(sections: readonly Section[], suspiciousLines: ReadonlySet<number>): TaskItemDraft[] {
  const out: TaskItemDraft[] = [];
  const emit = (para: { text: string; line: number }[]): void => {
    if (para.length === 0) return;
    // A sentence may run over several lines: split the paragraph, and give each sentence the line it starts on.
    let joined = "";
    const starts: { at: number; line: number }[] = [];
    for (const p of para) {
      if (joined !== "") joined += " ";
      starts.push({ at: joined.length, line: p.line });
      joined += p.text;
    }
    let at = 0;
    for (const sentence of joined.split(/(?<=[.!?])\s+/)) {
      const begin = joined.indexOf(sentence, at);
      at = begin + sentence.length;
      const line = [...starts].reverse().find((s) => s.at <= begin)?.line ?? para[0]!.line;
      const bare = sentence.replace(/^[*_>\s]+/, "").replace(FILLER, "");
      if (IMPERATIVE.test(bare)) out.push({ text: sentence.trim(), line });
    }
  };
  for (const s of sections) {
    if (s.kind === "non_goals" || s.kind === "acceptance" || s.kind === "steps") continue;
    let para: { text: string; line: number }[] = [];
    for (const l of s.lines) {
      const m = LIST_ITEM.exec(l.text);
      const text = (m ? (m[2] ?? "") : l.text).trim();
      const skip =
        l.inCode || suspiciousLines.has(l.n) || text === "" || text.startsWith("<!--") || INLINE_ACCEPTANCE.test(text) || INLINE_NON_GOALS.test(text);
      // A list item is its own paragraph; so is anything after a skipped line.
      if (skip || m) {
        emit(para);
        para = [];
      }
      if (skip) continue;
      para.push({ text, line: l.n });
      if (m) {
        emit(para);
        para = [];
      }
    }
    emit(para);
  }
  return out;
}
