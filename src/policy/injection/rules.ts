/**
 * The detector's vocabulary: rule ids, the shape of a line rule, the limits every pattern keeps, and the optional
 * work counter that proves linear behaviour (test/injection.test.ts counts characters scanned, not milliseconds).
 */

export const INJECTION_RULE_IDS = [
  "override-instructions",
  "role-reassignment",
  "system-prompt-reference",
  "fake-authority",
  "conceal-from-user",
  "verifier-gaming",
  "weaken-security",
  "unsafe-git",
  "exfiltration",
  "remote-execution",
  "agent-directive",
  "encoded-instructions",
  "hidden-agent-comment",
  "hidden-agent-html",
  "invisible-characters",
] as const;
export type InjectionRuleId = (typeof INJECTION_RULE_IDS)[number];

/** Longest excerpt returned for a match. */
export const MAX_EXCERPT_LENGTH = 160;
/** Longest stretch of a line a single pattern spans (keeps every pattern linear in the line length). */
export const MAX_SPAN = 300;

export interface LineRule {
  ruleId: InjectionRuleId;
  patterns: readonly RegExp[];
  /** "Never force-push to main" is advice, not an attack: a nearby negation cancels the match. */
  negatable: boolean;
  /**
   * Also cancelled by a hedge around the match ("you can pass `verify=False` for local testing"): documentation
   * describing an option, not a directive to use it.
   */
  hedgeable?: boolean;
  /** Also cancelled when the phrase is described, not said: "requests to disregard the system prompt". */
  describable?: boolean;
  /**
   * A cheap test a line must pass before the patterns run (the other languages' patterns only run on lines with a
   * non-ASCII letter or one of their ASCII stems, so an English-only repository never even builds them).
   */
  gate?: LanguageGate;
  /** The patterns one by one, compiled on demand (a rule built by `lazyRule`; `patterns` then compiles them all). */
  lazy?: () => LazyPatterns;
}

/** A gate: a letter outside ASCII, or one of the stems (pattern sources, case-insensitive). */
export interface LanguageGate {
  /** The whole test: `NON_ASCII_LETTER|stem|stem|…`. */
  pattern: RegExp;
  stems: readonly string[];
}

/** A pattern not compiled yet. */
export interface PatternSource {
  source: string;
  flags: string;
}

/** Patterns compiled one by one, on first use (the other languages' tables are large). */
export class LazyPatterns {
  private readonly built: Array<RegExp | undefined>;
  private every: RegExp[] | undefined;

  constructor(
    readonly sources: readonly PatternSource[],
    private readonly compile: (p: PatternSource) => RegExp,
  ) {
    this.built = sources.map(() => undefined);
  }

  at(k: number): RegExp {
    return (this.built[k] ??= this.compile(this.sources[k]!));
  }

  all(): readonly RegExp[] {
    return (this.every ??= this.sources.map((_, k) => this.at(k)));
  }
}

/** A rule whose patterns are listed on first use and compiled one by one (see `LineRule.lazy`). */
export function lazyRule(rule: Omit<LineRule, "patterns" | "lazy">, build: () => LazyPatterns): LineRule {
  let list: LazyPatterns | undefined;
  const lazy = (): LazyPatterns => (list ??= build());
  return {
    ...rule,
    lazy,
    get patterns(): readonly RegExp[] {
      return lazy().all();
    },
  };
}

export function re(source: string, flags = "i"): RegExp {
  return new RegExp(source, flags);
}

/**
 * Characters each rule scanned: every regex execution adds the length of the text it was given, every single-pass
 * scan the length it walked. Optional; the detector counts only when given one.
 */
export class WorkCounter {
  readonly byRule = new Map<string, number>();
  total = 0;

  add(rule: string, chars: number): void {
    this.total += chars;
    this.byRule.set(rule, (this.byRule.get(rule) ?? 0) + chars);
  }
}

/** `pattern.exec(text)`, counted against `rule` when a counter is given. */
export function countedExec(pattern: RegExp, text: string, rule: string, work: WorkCounter | undefined): RegExpExecArray | null {
  work?.add(rule, text.length - (pattern.global || pattern.sticky ? pattern.lastIndex : 0));
  return pattern.exec(text);
}
