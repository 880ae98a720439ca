/** A PDF transformation matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];

/** The product of two PDF transformation matrices: `b` applied first, then `a` (PDF's m × n order). */
export function multiplyMatrix(a: readonly number[], b: readonly number[]): Matrix {
  return [
    a[0] * b[0] + a[2] * b[1],
    a[1] * b[0] + a[3] * b[1],
    a[0] * b[2] + a[2] * b[3],
    a[1] * b[2] + a[3] * b[3],
    a[0] * b[4] + a[2] * b[5] + a[4],
    a[1] * b[4] + a[3] * b[5] + a[5],
  ];
}
