import { isObject, type Json, type JsonObject } from "./answer-compact.js";

/**
 * `maxTokens`: an answer larger than the bound keeps its first items, in the order the tool ranked them, and drops
 * the rest, saying how many and how to get them. Items are the entries of the answer's lists (a file's hits before
 * the file itself); when no list is left to shorten, the longest text is cut at a line boundary.
 */

export type Counter = (text: string) => number;

/** An entry that holds a list of entries of its own (a file with its hits) is kept while one of them is. */
function isContainer(v: Json): boolean {
  return isObject(v) && Object.values(v).some((x) => Array.isArray(x) && x.some((y) => isObject(y) || Array.isArray(y)));
}

/** Entries of lists of objects or of tuples are what can be dropped; lists of strings are attributes. */
function droppableList(v: Json[]): boolean {
  return v.some((x) => isObject(x) || Array.isArray(x));
}

function countLeaves(v: Json): number {
  if (Array.isArray(v)) return droppableList(v) ? v.reduce<number>((n, x) => n + (isContainer(x) ? Math.max(1, countLeaves(x)) : 1), 0) : 0;
  if (isObject(v)) return Object.values(v).reduce<number>((n, x) => n + countLeaves(x), 0);
  return 0;
}

/** A copy keeping the first `left.n` droppable entries in document order. */
function keepFirst(v: Json, left: { n: number }): Json {
  if (Array.isArray(v)) {
    if (!droppableList(v)) return v;
    const out: Json[] = [];
    for (const x of v) {
      if (left.n <= 0) break;
      if (isContainer(x) && countLeaves(x) > 0) {
        const kept = keepFirst(x, left);
        if (countLeaves(kept) > 0) out.push(kept);
      } else {
        out.push(x);
        left.n -= 1;
      }
    }
    return out;
  }
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keepFirst(x, left)]));
  return v;
}

/** The longest string in a value, by path of keys, for the last resort of cutting text. */
function longestString(v: Json, at: (string | number)[] = []): { at: (string | number)[]; text: string } | null {
  let best: { at: (string | number)[]; text: string } | null = null;
  const consider = (c: { at: (string | number)[]; text: string } | null) => {
    if (c && (!best || c.text.length > best.text.length)) best = c;
  };
  if (typeof v === "string") return { at, text: v };
  if (Array.isArray(v)) v.forEach((x, i) => consider(longestString(x, [...at, i])));
  else if (isObject(v)) for (const [k, x] of Object.entries(v)) consider(longestString(x, [...at, k]));
  return best;
}

function setAt(v: Json, at: (string | number)[], value: string): Json {
  if (at.length === 0) return value;
  const [head, ...rest] = at;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, value) : x));
  if (isObject(v)) return { ...v, [head as string]: setAt(v[head as string]!, rest, value) };
  return v;
}

export interface Fitted {
  answer: JsonObject;
  tokens: number;
}

/** How the answer says what a bound left out. */
function omittedNote(dropped: number, cutChars: number, fullTokens: number): JsonObject {
  const what = [dropped > 0 ? `${dropped} item(s)` : null, cutChars > 0 ? `${cutChars} characters of text` : null].filter(Boolean).join(" and ");
  return {
    reason: "maxTokens",
    ...(dropped > 0 ? { items: dropped } : {}),
    ...(cutChars > 0 ? { textChars: cutChars } : {}),
    hint: `left out ${what} (the whole answer is ${fullTokens} tokens): raise maxTokens, or narrow the request (paths, maxResults, a line range)`,
  };
}

function withNote(answer: JsonObject, body: JsonObject, note: JsonObject): JsonObject {
  return { ...answer, ...body, truncated: true, omitted: note };
}

/**
 * The answer within `maxTokens` (counted on the text it is sent as: its JSON, or a tool's rendering), or null when even its identity and warnings do not fit.
 * The parts shortened are `data` and `evidence`.
 */
export function fitAnswer(answer: JsonObject, maxTokens: number, count: Counter, render: (a: JsonObject) => string = JSON.stringify): Fitted | null {
  const size = (a: JsonObject) => count(render(a));
  const fullTokens = size(answer);
  if (fullTokens <= maxTokens) return { answer, tokens: fullTokens };
  const body: JsonObject = { data: answer.data ?? {}, ...(answer.evidence !== undefined ? { evidence: answer.evidence } : {}) };
  const total = countLeaves(body);
  const tryKeep = (k: number): JsonObject => {
    const kept = keepFirst(body, { n: k }) as JsonObject;
    return withNote(answer, kept, omittedNote(total - k, 0, fullTokens));
  };
  // The largest number of entries kept that fits: binary search, since the size grows with the entries kept.
  let lo = 0;
  let hi = total - 1;
  let best: JsonObject | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const a = tryKeep(mid);
    if (size(a) <= maxTokens) [best, lo] = [a, mid + 1];
    else hi = mid - 1;
  }
  if (best) return { answer: best, tokens: size(best) };
  return cutLongest(answer, best ?? tryKeep(0), total, maxTokens, fullTokens, size);
}

/**
 * Nothing left to drop: cut the longest text at a line boundary, keeping as many of its first lines as fit (a binary
 * search over the lines kept); the note counts the characters left out.
 */
function cutLongest(answer: JsonObject, start: JsonObject, total: number, maxTokens: number, fullTokens: number, size: (a: JsonObject) => number): Fitted | null {
  const body: JsonObject = { data: start.data ?? {}, ...(start.evidence !== undefined ? { evidence: start.evidence } : {}) };
  const dropped = total - countLeaves(body);
  const longest = longestString(body);
  if (!longest || longest.text.length < 80) return null;
  const lines = longest.text.split("\n");
  const tryLines = (k: number): Fitted => {
    const kept = lines.slice(0, k).join("\n");
    const text = `${kept}${k > 0 ? "\n" : ""}… (${lines.length - k} more line(s) cut for maxTokens)`;
    const a = withNote(answer, setAt(body, longest.at, text) as JsonObject, omittedNote(dropped, longest.text.length - kept.length, fullTokens));
    return { answer: a, tokens: size(a) };
  };
  let lo = 0;
  let hi = lines.length - 1;
  let best: Fitted | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = tryLines(mid);
    if (f.tokens <= maxTokens) [best, lo] = [f, mid + 1];
    else hi = mid - 1;
  }
  return best;
}

