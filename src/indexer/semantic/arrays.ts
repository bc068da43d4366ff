/** A copy of `a` with room for `need` entries: doubling, but never past `cap` (unless `need` is). */
export function grow(a: Int32Array, need: number, cap = Infinity): Int32Array {
  let size = Math.max(1, a.length * 2);
  while (size < need) size *= 2;
  size = Math.max(need, Math.min(size, cap));
  const out = new Int32Array(size);
  out.set(a);
  return out;
}
