/** A PDF transformation matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];

/** The product of two PDF transformation matrices: `b` applied first, then `a` (PDF's m × n order). */
export function multiplyMatrix(a: readonly number[], b: readonly number[]): Matrix {
  // Filled with doubles from the start (NaN), so the array never changes its element kind.
  return multiplyMatrixInto([NaN, NaN, NaN, NaN, NaN, NaN], a, b);
}

/** The same product written into `out` (which may be reused: a loop over many items allocates nothing). */
export function multiplyMatrixInto(out: Matrix, a: readonly number[], b: readonly number[]): Matrix {
  // Read first: `out` may be `a` or `b`.
  const a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], a4 = a[4], a5 = a[5];
  const b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3], b4 = b[4], b5 = b[5];
  out[0] = a0 * b0 + a2 * b1;
  out[1] = a1 * b0 + a3 * b1;
  out[2] = a0 * b2 + a2 * b3;
  out[3] = a1 * b2 + a3 * b3;
  out[4] = a0 * b4 + a2 * b5 + a4;
  out[5] = a1 * b4 + a3 * b5 + a5;
  return out;
}
