import type { Queryable } from '../../db/pool.js';
import { isoTime } from '../../db/sql.js';

export type IntegrationSource = 'ehr' | 'voice' | 'hl7';

export interface Integration {
  id: string;
  name: string;
  source: IntegrationSource;
  group_ids: string[];
  sending_application: string | null;
  sending_facility: string | null;
  created_at: string;
}

export interface NewIntegration {
  id: string;
  name: string;
  source: IntegrationSource;
  groupIds: string[];
  /** Sealed (lib/secret-box.ts). */
  secret: string;
  sendingApplication: string | null;
  sendingFacility: string | null;
}

// The secret is never selected here: it is shown once, by the creation handler.
const COLUMNS = `id, name, source, group_ids, sending_application, sending_facility, ${isoTime('created_at')}`;

export async function insertIntegration(db: Queryable, i: NewIntegration): Promise<Integration> {
  const { rows } = await db.query<Integration>(
    `INSERT INTO integrations (id, name, source, group_ids, secret, sending_application, sending_facility)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [i.id, i.name, i.source, i.groupIds, i.secret, i.sendingApplication, i.sendingFacility],
  );
  return rows[0];
}

/** Integrations in force (not revoked), newest first. */
export async function listIntegrations(db: Queryable): Promise<Integration[]> {
  const { rows } = await db.query<Integration>(
    `SELECT ${COLUMNS} FROM integrations WHERE revoked_at IS NULL ORDER BY created_at DESC, id DESC`,
  );
  return rows;
}

/** An integration in force of `source`, with its (sealed) secret: what an inbound post is checked against. */
export async function findActiveIntegration(
  db: Queryable,
  id: string,
  source: IntegrationSource,
): Promise<(Integration & { secret: string }) | undefined> {
  const { rows } = await db.query<Integration & { secret: string }>(
    `SELECT ${COLUMNS}, secret FROM integrations WHERE id = $1 AND source = $2 AND revoked_at IS NULL`,
    [id, source],
  );
  return rows[0];
}

/** Revokes at once and wipes the secret; false when there was no such integration in force. */
export async function revokeIntegration(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE integrations SET revoked_at = now(), secret = '' WHERE id = $1 AND revoked_at IS NULL`, [id]);
  return rowCount === 1;
}

/**
 * The HL7 sender in force whose sending application and facility are MSH-3 and MSH-4 (the
 * namespace ids, compared exactly); the newest when an operator made two alike.
 */
export async function findHl7Sender(db: Queryable, sendingApplication: string, sendingFacility: string): Promise<Integration | undefined> {
  const { rows } = await db.query<Integration>({
    name: 'integrations-find-hl7-sender',
    text: `SELECT ${COLUMNS} FROM integrations
     WHERE source = 'hl7' AND revoked_at IS NULL AND sending_application = $1 AND sending_facility = $2
     ORDER BY created_at DESC LIMIT 1`,
    values: [sendingApplication, sendingFacility],
  });
  return rows[0];
}
