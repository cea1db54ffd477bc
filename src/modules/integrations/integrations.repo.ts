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
  /** hl7: the addresses (IPs, CIDRs) its connections may come from. */
  allowed_ips: string[] | null;
  /** hl7: SHA-256 of its TLS client certificate (`AB:CD:...`), when it must send over TLS with it. */
  tls_client_fingerprint: string | null;
  /** hl7 with several groups: PV1-3.4 facility -> group id. */
  facility_groups: Record<string, string> | null;
  /** hl7: PID-3 assigning authority -> FHIR identifier system. */
  identifier_systems: Record<string, string> | null;
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
  allowedIps?: string[] | null;
  tlsClientFingerprint?: string | null;
  facilityGroups?: Record<string, string> | null;
  identifierSystems?: Record<string, string> | null;
}

// The secret is never selected here: it is shown once, by the creation handler.
const COLUMNS = `id, name, source, group_ids, sending_application, sending_facility, allowed_ips::text[] AS allowed_ips,
  tls_client_fingerprint, facility_groups, identifier_systems, ${isoTime('created_at')}`;

export async function insertIntegration(db: Queryable, i: NewIntegration): Promise<Integration> {
  const { rows } = await db.query<Integration>(
    `INSERT INTO integrations (id, name, source, group_ids, secret, sending_application, sending_facility,
                               allowed_ips, tls_client_fingerprint, facility_groups, identifier_systems)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::inet[], $9, $10, $11) RETURNING ${COLUMNS}`,
    [
      i.id,
      i.name,
      i.source,
      i.groupIds,
      i.secret,
      i.sendingApplication,
      i.sendingFacility,
      i.allowedIps ?? null,
      i.tlsClientFingerprint ?? null,
      i.facilityGroups ? JSON.stringify(i.facilityGroups) : null,
      i.identifierSystems ? JSON.stringify(i.identifierSystems) : null,
    ],
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
): Promise<(Integration & { secret: string; previous_secret: string | null }) | undefined> {
  const { rows } = await db.query<Integration & { secret: string; previous_secret: string | null }>(
    `SELECT ${COLUMNS}, secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret
     FROM integrations WHERE id = $1 AND source = $2 AND revoked_at IS NULL`,
    [id, source],
  );
  return rows[0];
}

/** Revokes at once and wipes the secret; false when there was no such integration in force. */
export async function revokeIntegration(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE integrations SET revoked_at = now(), secret = '', previous_secret = NULL WHERE id = $1 AND revoked_at IS NULL`,
    [id],
  );
  return rowCount === 1;
}

/** The peer a message arrived from: its address and, over TLS, its client certificate's fingerprint. */
export interface Hl7Peer {
  address: string;
  fingerprint?: string;
}

/**
 * The HL7 sender in force a message belongs to: MSH-3 and MSH-4 equal its sending application and
 * facility (compared exactly), the peer's address lies in its allowed_ips, and, when it names a
 * client certificate, the message came over TLS with that certificate. The newest of several alike.
 */
export async function findHl7Sender(
  db: Queryable,
  sendingApplication: string,
  sendingFacility: string,
  peer: Hl7Peer,
): Promise<Integration | undefined> {
  const { rows } = await db.query<Integration>({
    name: 'integrations-find-hl7-sender-v2',
    text: `SELECT ${COLUMNS} FROM integrations
     WHERE source = 'hl7' AND revoked_at IS NULL AND sending_application = $1 AND sending_facility = $2
       AND $3::inet <<= ANY (allowed_ips)
       AND (tls_client_fingerprint IS NULL OR tls_client_fingerprint = $4)
     ORDER BY created_at DESC LIMIT 1`,
    values: [sendingApplication, sendingFacility, peer.address, peer.fingerprint ?? null],
  });
  return rows[0];
}

/** Every network an HL7 sender in force may connect from: the listeners' first check, before a byte is read. */
export async function listHl7AllowedNetworks(db: Queryable): Promise<Array<{ address: string; prefix: number; family: 4 | 6 }>> {
  const { rows } = await db.query<{ address: string; prefix: number; family: 4 | 6 }>(
    `SELECT DISTINCT host(net) AS address, masklen(net) AS prefix, family(net) AS family
       FROM integrations, unnest(allowed_ips) AS net
      WHERE source = 'hl7' AND revoked_at IS NULL`,
  );
  return rows;
}
