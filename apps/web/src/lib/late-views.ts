// One ordering guard for what live events and fetches bring of the same item (a message, a
// segment): views arrive out of order (an answer after the push that overtook it, a push after a
// fetch), and a late view must not replace a newer one.

/** How a view shows its item: the text as written (whatever rendering the reader got), whether it was edited, how far its rendering has come. */
export interface ViewOrder<T> {
  original(item: T): string;
  edited(item: T): boolean;
  progress(item: T): number;
}

/**
 * The view to keep when `incoming` arrives for the item shown as `existing`: a view of the same
 * text (same original, same edit) that has come less far is a late one and the shown one stays;
 * a different text (an edit, a correction) always wins.
 */
export function newerView<T>(existing: T | undefined, incoming: T, order: ViewOrder<T>): T {
  if (existing === undefined) return incoming;
  const sameText = order.original(existing) === order.original(incoming) && order.edited(existing) === order.edited(incoming);
  return sameText && order.progress(incoming) < order.progress(existing) ? existing : incoming;
}
