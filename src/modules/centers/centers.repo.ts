import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';
import type { Center, Service } from './centers.schema.js';

export type CenterRow = Center & { updatedAt: string };
export type ServiceRow = Service & { updatedAt: string };

/** Keyset position: the sort key (name) and id of the last row of the previous page. */
export interface PageAfter {
  name: string;
  id: string;
}

const CENTER_COLUMNS = `id, name,
  json_build_object('line', address_line, 'city', city, 'postalCode', postal_code, 'country', country) AS address,
  phone, timezone, opening_hours AS "openingHours", ${isoTime('updated_at', '"updatedAt"')}`;

const SERVICE_COLUMNS = `id, center_id AS "centerId", name, specialty, duration_minutes AS "durationMinutes", languages,
  ${isoTime('updated_at', '"updatedAt"')}`;

/** `%text%` for ILIKE with the pattern characters of the text escaped. */
const contains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function centerExists(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM centers WHERE id = $1', [id]);
  return rowCount === 1;
}

export async function countCenters(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM centers');
  return rows[0].n;
}

/**
 * A center that is already stored as sent is left as it is: no new row version, and `updated_at`
 * stays the time it last changed (EHR feeds resend whole catalogs, and rewriting an unchanged row
 * would be most of the database's work for such an event).
 */
const CENTER_UPSERT = `ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, address_line = EXCLUDED.address_line, city = EXCLUDED.city,
       postal_code = EXCLUDED.postal_code, country = EXCLUDED.country, phone = EXCLUDED.phone,
       timezone = EXCLUDED.timezone, opening_hours = EXCLUDED.opening_hours, updated_at = now()
     WHERE (centers.name, centers.address_line, centers.city, centers.postal_code, centers.country, centers.phone, centers.timezone, centers.opening_hours)
       IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.address_line, EXCLUDED.city, EXCLUDED.postal_code, EXCLUDED.country, EXCLUDED.phone, EXCLUDED.timezone, EXCLUDED.opening_hours)`;

export async function upsertCenterRow(db: Queryable, c: Center): Promise<void> {
  await db.query(
    `INSERT INTO centers (id, name, address_line, city, postal_code, country, phone, timezone, opening_hours)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ${CENTER_UPSERT}`,
    [
      c.id,
      c.name,
      c.address.line,
      c.address.city,
      c.address.postalCode,
      c.address.country,
      c.phone,
      c.timezone,
      JSON.stringify(c.openingHours),
    ],
  );
}

/**
 * Many centers in one statement (a batch of `center.upserted` events): the last copy of an id
 * wins, as if they had been applied one by one in order.
 */
export async function upsertCenterRows(db: Queryable, centers: Center[]): Promise<void> {
  const last = new Map(centers.map((c) => [c.id, c]));
  if (last.size === 0) return;
  const rows = [...last.values()].map((c) => ({
    id: c.id,
    name: c.name,
    line: c.address.line,
    city: c.address.city,
    postal: c.address.postalCode,
    country: c.address.country,
    phone: c.phone,
    timezone: c.timezone,
    hours: c.openingHours,
  }));
  await db.query({
    name: 'centers-upsert-many-v2',
    text: `INSERT INTO centers (id, name, address_line, city, postal_code, country, phone, timezone, opening_hours)
     SELECT id, name, line, city, postal, country, phone, timezone, hours
       FROM json_to_recordset($1::json) AS c (id text, name text, line text, city text, postal text, country text, phone text, timezone text, hours jsonb)
     ${CENTER_UPSERT}`,
    values: [JSON.stringify(rows)],
  });
}

/** Deletes the center and (by cascade) its services; false when there was none. */
export async function deleteCenterRow(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM centers WHERE id = $1', [id]);
  return rowCount === 1;
}

export async function upsertServiceRow(db: Queryable, s: Service): Promise<ServiceRow> {
  const { rows } = await db.query<ServiceRow>(
    `INSERT INTO center_services (id, center_id, name, specialty, duration_minutes, languages)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET center_id = EXCLUDED.center_id, name = EXCLUDED.name, specialty = EXCLUDED.specialty,
       duration_minutes = EXCLUDED.duration_minutes, languages = EXCLUDED.languages, updated_at = now()
     RETURNING ${SERVICE_COLUMNS}`,
    [s.id, s.centerId, s.name, s.specialty, s.durationMinutes, s.languages],
  );
  return rows[0];
}

export async function deleteServiceRow(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM center_services WHERE id = $1', [id]);
  return rowCount === 1;
}

export interface CenterFilter {
  city?: string;
  q?: string;
  limit: number;
  after?: PageAfter;
}

/** One page ordered by name then id; fetches limit + 1 rows so the caller knows whether more follow. */
export async function listCenters(db: Queryable, f: CenterFilter): Promise<CenterRow[]> {
  const { rows } = await db.query<CenterRow>(
    `SELECT ${CENTER_COLUMNS} FROM centers
      WHERE ($1::text IS NULL OR lower(city) = lower($1))
        AND ($2::text IS NULL OR name ILIKE $2 OR address_line ILIKE $2 OR city ILIKE $2 OR postal_code ILIKE $2)
        AND ($3::text IS NULL OR (name, id) > ($3, $4))
      ORDER BY name, id
      LIMIT $5`,
    [f.city ?? null, f.q ? contains(f.q) : null, f.after?.name ?? null, f.after?.id ?? null, f.limit + 1],
  );
  return rows;
}

export interface ServiceFilter {
  centerId?: string;
  specialty?: string;
  q?: string;
  limit: number;
  after?: PageAfter;
}

export async function listServices(db: Queryable, f: ServiceFilter): Promise<ServiceRow[]> {
  const { rows } = await db.query<ServiceRow>(
    `SELECT ${SERVICE_COLUMNS} FROM center_services
      WHERE ($1::text IS NULL OR center_id = $1)
        AND ($2::text IS NULL OR lower(specialty) = lower($2))
        AND ($3::text IS NULL OR name ILIKE $3 OR specialty ILIKE $3)
        AND ($4::text IS NULL OR (name, id) > ($4, $5))
      ORDER BY name, id
      LIMIT $6`,
    [f.centerId ?? null, f.specialty ?? null, f.q ? contains(f.q) : null, f.after?.name ?? null, f.after?.id ?? null, f.limit + 1],
  );
  return rows;
}

/** Serialises seeding across processes starting at once; inside the caller's transaction. */
export async function lockCatalogSeed(db: Queryable): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [727_100_005]);
}
