/**
 * Link targets the model keeps (readers check them as they build it; the renderer checks again).
 * Only http(s) and mailto: nothing that runs script, embeds data or points inside the document.
 */
/** A link target that is safe to keep, or undefined (javascript:, data:, relative, anchors…). */
export function safeHref(href: string | null | undefined): string | undefined {
  const trimmed = (href ?? '').trim();
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return undefined;
  return trimmed.replace(/[\s()<>"'`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
