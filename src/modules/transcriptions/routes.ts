import type { IRouter } from 'express';
import type { RouteDeps } from '../../app-deps.js';
import { audited } from '../../http/audit.js';
import { createTranscription } from './create-transcription.js';
import { getTranscription } from './get-transcription.js';

export function transcriptionsRoutes(router: IRouter, { pool, guards }: RouteDeps): void {
  const created = audited({ created: { body: 'transcription.id' } });
  router.post('/v1/transcriptions/create', ...guards.clinical, created, createTranscription(pool));
  router.get('/v1/transcriptions/:id', ...guards.clinical, audited({ param: 'id' }), getTranscription(pool));
}
