import { z } from 'zod';
import type { PageAfter } from './centers.repo.js';

const afterSchema = z.object({ n: z.string(), i: z.string() }).strict();

/** Opaque cursor: base64url of the last row's sort key and id. */
export function encodeCursor(after: PageAfter): string {
  return Buffer.from(JSON.stringify({ n: after.name, i: after.id })).toString('base64url');
}

export function decodeCursor(cursor: string): PageAfter | undefined {
  try {
    const parsed = afterSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? { name: parsed.data.n, id: parsed.data.i } : undefined;
  } catch {
    return undefined;
  }
}

/** `limit` (default 20, 1-100) and `cursor` as query parameters; a bad value is 400 naming it. */
export const pageQuery = {
  limit: z
    .string()
    .regex(/^\d+$/, 'must be an integer from 1 to 100')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100'))
    .optional()
    .default(20),
  cursor: z
    .string()
    .transform((c, ctx) => {
      const after = decodeCursor(c);
      if (!after) ctx.addIssue({ code: 'custom', message: 'is not a cursor from a previous page' });
      return after as PageAfter;
    })
    .optional(),
};

/** Turns limit + 1 rows into a page and the cursor of the next one (null at the end). */
export function toPage<T extends { id: string; name: string }>(rows: T[], limit: number): { data: T[]; nextCursor: string | null } {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: rows.length > limit && last ? encodeCursor({ name: last.name, id: last.id }) : null };
}
