/** Orders the layout stages share (no imports, so that every stage can use them). */

/** Orders pieces by their left edge. */
export const byLeft = (a: { x0: number }, b: { x0: number }) => a.x0 - b.x0;

/**
 * `items` in the order of `compare`, as a stable sort gives it: `items` itself when it is in that
 * order already (most rows and lines are: no copy and no sort), else a sorted copy. The result
 * must not be changed.
 */
export function sortedView<T>(items: readonly T[], compare: (a: T, b: T) => number): readonly T[] {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1], items[i]) > 0) return items.slice().sort(compare);
  return items;
}
