import type { Db } from 'pg-boss';
import type { Queryable } from '../db/pool.js';

/** Lets pg-boss run its statements on our transaction client, so a row and its job commit together. */
export function bossDb(tx: Queryable): Db {
  return { executeSql: (text, values) => tx.query(text, values) };
}
