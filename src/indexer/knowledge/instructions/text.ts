/** Small helpers over instruction text: code spans, de-duplicated lists, short excerpts for lint messages. */

/** The distinct items, in first-seen order. */
export function uniq<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}

/** Code spans of a line of Markdown (`x`, ``x``). */
export function codeSpans(text: string): string[] {
  const out: string[] = [];
  const re = /(`+)([^`]+?)\1/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) out.push(m[2]!.trim());
  return out;
}

/** The text cut to 120 characters for a lint message. */
export function excerpt(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}
