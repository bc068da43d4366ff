import { redactText } from "../../policy/redact.js";
import { MAX_ITEM_CHARS } from "./limits.js";
import type { TaskItemDraft } from "./sections.js";
import type { TaskItem } from "./types.js";

// Bounded, redacted text

/** Redacts first, then cuts: cutting first could leave half a secret the redactor no longer recognises. */
export class Clipper {
  readonly reasons = new Set<string>();
  truncated = false;

  clip(text: string, max: number): { text: string; truncated: boolean } {
    const r = redactText(text);
    for (const x of r.redactions) this.reasons.add(x.reason);
    if (r.text.length <= max) return { text: r.text, truncated: false };
    this.truncated = true;
    return { text: `${r.text.slice(0, max - 1).trimEnd()}…`, truncated: true };
  }

  str(text: string, max: number): string {
    return this.clip(text, max).text;
  }
}

/** Items deduplicated (case-insensitively), at most `max`, each clipped; says whether any were left out. */
export function boundItems(drafts: readonly TaskItemDraft[], max: number, clip: Clipper): { items: TaskItem[]; truncated: boolean } {
  const seen = new Set<string>();
  const items: TaskItem[] = [];
  let truncated = false;
  for (const d of drafts) {
    const key = d.text.toLowerCase();
    if (d.text === "" || seen.has(key)) continue;
    seen.add(key);
    if (items.length >= max) {
      truncated = true;
      break;
    }
    const c = clip.clip(d.text, MAX_ITEM_CHARS);
    items.push({ text: c.text, line: d.line, ...(d.checked !== undefined ? { checked: d.checked } : {}), ...(c.truncated ? { truncated: true } : {}) });
  }
  return { items, truncated };
}
