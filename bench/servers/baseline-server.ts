/**
 * The ingest baseline: a bare Express 5 route that reads the body, checks its HMAC-SHA256
 * signature (timingSafeEqual) and inserts one row. Started by bench/ingest.ts in a child process.
 * Env: PORT, DATABASE_URL, SECRET, POOL_MAX (10, the app pool's default).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import express from 'express';
import pg from 'pg';

const secret = process.env.SECRET ?? '';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_MAX ?? 10) });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_baseline_events (
  event_id text PRIMARY KEY, body jsonb NOT NULL, received_at timestamptz NOT NULL DEFAULT now())`);

const app = express();
app.post('/api/v1/webhooks/ehr', express.raw({ type: 'application/json', limit: '1mb' }), async (req, res) => {
  const raw = req.body as Buffer;
  const header = /^sha256=([0-9a-f]{64})$/.exec(req.get('x-integration-signature') ?? '');
  const given = header ? Buffer.from(header[1], 'hex') : Buffer.alloc(32);
  const expected = createHmac('sha256', secret).update(raw).digest();
  if (!header || !timingSafeEqual(given, expected)) {
    res.status(401).json({ success: false, error: 'Invalid signature' });
    return;
  }
  const event = JSON.parse(raw.toString('utf8')) as { id: string };
  await pool.query('INSERT INTO bench_baseline_events (event_id, body) VALUES ($1, $2)', [event.id, raw.toString('utf8')]);
  res.status(202).json({ received: true, id: event.id });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
