/**
 * A line variant: a rewritten copy of a line (invisible characters removed, confusables folded, letter-spacing
 * closed up) that the phrase rules also read, with the original span of every character so a match on the copy is
 * reported at the right columns of the original line.
 */
export interface LineVariant {
  text: string;
  /** `starts[i]`/`ends[i]`: the original span of character i of `text`; null when `text` is the original line. */
  starts: number[] | null;
  ends: number[] | null;
}

export const identityVariant = (line: string): LineVariant => ({ text: line, starts: null, ends: null });

/** Builds a variant of `base`, piece by piece; each piece names the characters of `base` it stands for. */
export class VariantBuilder {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(private readonly base: LineVariant) {}

  /** Appends `out` for the characters `[from, to)` of the base (an empty `out` drops them). */
  emit(out: string, from: number, to: number): void {
    if (out === "") return;
    const start = this.base.starts === null ? from : (this.base.starts[from] ?? from);
    const end = this.base.ends === null ? to : (this.base.ends[to - 1] ?? to);
    for (let k = 0; k < out.length; k++) {
      this.starts.push(start);
      this.ends.push(end);
    }
    this.parts.push(out);
  }

  done(): LineVariant {
    return { text: this.parts.join(""), starts: this.starts, ends: this.ends };
  }
}

/** Maps a match `[index, index + length)` on a variant back to `[start, end)` on the original line. */
export function originalSpan(v: LineVariant, index: number, length: number): { start: number; end: number } {
  const last = index + Math.max(1, length) - 1;
  const start = v.starts === null ? index : (v.starts[index] ?? 0);
  const end = v.ends === null ? last + 1 : (v.ends[Math.min(last, v.ends.length - 1)] ?? start + 1);
  return { start, end };
}
