import type { RequestHandler } from 'express';
import type { PgBoss } from 'pg-boss';
import type { Config } from './config.js';
import type { NotificationHub } from './db/notifications.js';
import type { Pool } from './db/pool.js';
import type { DirectRoutes } from './http/direct-routes.js';
import type { ClinicalEngine } from './engine/engine.js';
import type { Logger } from './lib/logger.js';
import type { SecretBox } from './lib/secret-box.js';
import type { AuditWriter } from './modules/audit/audit-writer.js';
import type { InboundEventTypes } from './modules/inbound-events/inbound-event-type.js';
import type { Metrics } from './metrics/metrics.js';
import type { OutboundTransports } from './modules/outbound-webhooks/transport/outbound-transport.js';

/** What the app and its job runner are built from; passed in, never module-level singletons. */
export interface AppDeps {
  config: Config;
  pool: Pool;
  logger: Logger;
  boss: PgBoss;
  engine: ClinicalEngine;
  /** In-process subscriptions to PostgreSQL NOTIFY channels (db/notifications.ts). */
  notifications: NotificationHub;
  metrics: Metrics;
  /** Batched writes of the audit log (one row per operation, after its answer). */
  audit: AuditWriter;
  /** Seals and opens stored credentials with SECRETS_ENCRYPTION_KEY (lib/secret-box.ts). */
  secrets: SecretBox;
  /** The inbound event types every feature declares (event-registry.ts), found by source and type. */
  eventTypes: InboundEventTypes;
  /** The kinds of outbound destination every protocol module declares (transport-registry.ts), found by kind. */
  transports: OutboundTransports;
}

export interface Guards {
  /** Bearer token and `x-doctor`: every `/v1` operation. */
  clinical: RequestHandler[];
  /** `X-Api-Key` of the voice platform or an operator: calls and the centers catalog. */
  voice: RequestHandler[];
  /** `X-Api-Key` of an operator (a voice key: 403): every other `/api/v1` operation and the console. */
  operator: RequestHandler[];
}

export interface RouteDeps extends AppDeps {
  guards: Guards;
  /** Routes answered without Express (the busiest: signed inbound webhooks), registered on the router too. */
  direct: DirectRoutes;
}
