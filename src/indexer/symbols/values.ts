/**
 * Names used as values: every identifier a tags query marks `@reference.value` (the languages list it as their most
 * general pattern, after calls, types and member accesses), less those that are not uses of a definition elsewhere:
 * names bound inside a function or block (parameters, assignments, loop, `with`/`except`/`catch` and destructuring
 * targets, nested definitions) and their uses there and in the functions nested in it, labels (`f(name=1)`), and
 * names inside imports and `global` declarations. The query marks all of these with `@value.*` captures, so this
 * works on offsets and ranges alone. Scopes are syntactic; a name a function both binds and reads is local there, as
 * Python's compiler decides.
 */

/** What the tags query marks for telling value uses from locals: scopes, bindings, labels, members, imports, `global`. */
export interface ValueContext {
  /** Function scopes (`@value.scope`): start, end and the start of the scope's own name (it belongs outside). */
  scopes: { start: number; end: number; nameStart: number | null }[];
  /** Ranges whose names are never value uses (`@value.skip`: imports). */
  skips: { start: number; end: number }[];
  /** `global x` / `nonlocal x` statements (`@value.global`): their range. */
  globals: { start: number; end: number }[];
  /** Names at a binding position, by start (`@value.bind`: assignment targets, parameters, loop and `as` targets, nested definitions). */
  binds: Map<number, string>;
  /** Names that label rather than use (`@value.label`: `f(name=1)`). */
  labels: Set<number>;
  /** Member names (`@value.member`: `a.name`, `a.name()`): another pattern's references, never a local's use. */
  members: Set<number>;
  /**
   * Declaring statements (`@value.statement`: Rust `let`, Go `:=` and `var`): a name bound in one is local only after
   * it, as those languages decide (`let dirname = dirname(path);` calls the function). Bindings outside one
   * (parameters, Python and JavaScript declarations) hold in their whole scope.
   */
  statements: { start: number; end: number }[];
}

/** Per name, the ranges around it (function scopes, statements), innermost first, from the ranges alone (no tree walk). */
function scopesAround(starts: number[], scopes: readonly { start: number; end: number; nameStart?: number | null }[]): number[][] {
  const order = [...scopes.keys()].sort((a, b) => scopes[a]!.start - scopes[b]!.start || scopes[b]!.end - scopes[a]!.end);
  const byName = [...starts.keys()].sort((a, b) => starts[a]! - starts[b]!);
  const out: number[][] = starts.map(() => []);
  const open: number[] = [];
  let k = 0;
  for (const i of byName) {
    const at = starts[i]!;
    while (k < order.length && scopes[order[k]!]!.start <= at) open.push(order[k++]!);
    while (open.length > 0 && scopes[open[open.length - 1]!]!.end <= at) open.pop();
    // Closed scopes may sit below an open one: keep only those containing the name.
    out[i] = open.filter((s) => scopes[s]!.end > at && scopes[s]!.nameStart !== at).reverse();
  }
  return out;
}

function inside(ranges: { start: number; end: number }[], at: number): boolean {
  return ranges.some((r) => r.start <= at && at < r.end);
}

/**
 * Of the names captured as value uses (start offset and text), those that are not uses of a definition outside
 * their function: their start offsets. Everything comes from the query as offsets and ranges: no tree walk.
 */
export function localValueUses(context: ValueContext, candidates: { start: number; name: string }[]): Set<number> {
  const around = scopesAround(candidates.map((c) => c.start), context.scopes);
  const declaredGlobal = new Map<number, Set<string>>();
  const drop = new Set<number>();
  // `global x` first: a binding of x in that function is then no local.
  for (const [i, { start, name }] of candidates.entries()) {
    if (!inside(context.globals, start)) continue;
    drop.add(start);
    const scope = around[i]![0];
    if (scope !== undefined) (declaredGlobal.get(scope) ?? declaredGlobal.set(scope, new Set()).get(scope)!).add(name);
  }
  const binds = [...context.binds];
  const bindScopes = scopesAround(binds.map(([start]) => start), context.scopes);
  const bindStatements = scopesAround(binds.map(([start]) => start), context.statements);
  // Per scope, per local name: from where on it is local (the end of its declaring statement, or the scope's start).
  const locals = new Map<number, Map<string, number>>();
  for (const [i, [start, name]] of binds.entries()) {
    const scope = bindScopes[i]![0];
    if (scope === undefined || declaredGlobal.get(scope)?.has(name)) continue;
    drop.add(start);
    // The statement's own names only: a parameter of a closure inside it (`let cb = |x| x + 1;`) is local at once,
    // so only the innermost statement around the name counts, and only when it lies inside the name's scope.
    const st = bindStatements[i]![0] === undefined ? undefined : context.statements[bindStatements[i]![0]!]!;
    const from = st && context.scopes[scope]!.start < st.start ? st.end : -Infinity;
    const names = locals.get(scope) ?? locals.set(scope, new Map()).get(scope)!;
    names.set(name, Math.min(names.get(name) ?? Infinity, from));
  }
  for (const [i, { start: at, name }] of candidates.entries()) {
    if (drop.has(at)) continue;
    if (context.labels.has(at) || inside(context.skips, at)) {
      drop.add(at);
      continue;
    }
    if (context.members.has(at)) continue;
    for (const s of around[i]!) {
      if (declaredGlobal.get(s)?.has(name)) break;
      if ((locals.get(s)?.get(name) ?? Infinity) <= at) {
        drop.add(at);
        break;
      }
    }
  }
  return drop;
}
