// What chats' and rooms' renderings tables share in SQL (a message's or an utterance's texts per
// reader group): which renderings a changed glossary makes again.
import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, AnyPgTable } from 'drizzle-orm/pg-core';

/** A renderings table as these conditions read it, and the items' table it renders. */
export interface RenderingsTable {
  itemId: AnyPgColumn;
  version: AnyPgColumn;
  state: AnyPgColumn;
  /** The machine's text, kept when a reader corrected it (null: not corrected). */
  machineText: AnyPgColumn;
  items: AnyPgTable;
  itemsId: AnyPgColumn;
  itemsVersion: AnyPgColumn;
}

/**
 * The items' renderings that can be made again: of their current version, done or failed (not
 * pending: a render is on its way), and not corrected by a reader (their words stand).
 */
export function renderableAgain(table: RenderingsTable, itemIds: number[]): SQL | undefined {
  return and(
    inArray(table.itemId, itemIds),
    isNull(table.machineText),
    inArray(table.state, ['done', 'failed']),
    sql`${table.version} = (select ${table.itemsVersion} from ${table.items} where ${table.itemsId} = ${table.itemId})`,
  );
}
