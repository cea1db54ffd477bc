import type { ServerResponse } from 'node:http';

/**
 * A JSON answer, byte for byte as Express's `res.status(status).json(body)` sends it here (no
 * ETag: the app turns them off): `Content-Type: application/json; charset=utf-8` unless a
 * handler set another, and `Content-Length`. For handlers that answer on Node's response alone.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
