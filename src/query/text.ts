import type { QueryContext } from "./context.js";

/** A file's indexed text, read once per query whoever asks. */
export type TextFn = (path: string) => Promise<string | null>;

/** A TextFn over the query's index: each path's text is read from the store once, later calls share it. */
export function textReader(ctx: Pick<QueryContext, "store" | "index">): TextFn {
  const texts = new Map<string, Promise<string | null>>();
  return (path) => {
    let t = texts.get(path);
    if (!t) texts.set(path, (t = ctx.store.getContent(ctx.index.id, path)));
    return t;
  };
}

/** A string as a regular expression that matches exactly that string. */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A string cut to `max` characters, the last three an ellipsis, for quoting in a reason. */
export function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
