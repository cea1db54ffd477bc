import { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { VERSION } from '../lib/version.js';
import { registerCallPaths } from './paths/calls-paths.js';
import { registerCenterPaths } from './paths/centers-paths.js';
import { registerCodifyPaths } from './paths/codify-paths.js';
import { registerConsolePaths } from './paths/console-paths.js';
import { registerFeedbackPaths } from './paths/feedback-paths.js';
import { registerHealthPaths } from './paths/health-paths.js';
import { registerMetricsPaths } from './paths/metrics-paths.js';
import { registerNotePaths } from './paths/notes-paths.js';
import { registerReferencePaths } from './paths/reference-paths.js';
import { registerRunPaths } from './paths/runs-paths.js';
import { registerThreadPaths } from './paths/threads-paths.js';
import { registerTranscriptionPaths } from './paths/transcriptions-paths.js';
import { registerRotateSecretPaths } from './paths/rotate-secret-paths.js';
import { registerTrustPaths } from './paths/trust-paths.js';
import { registerWebhookPaths } from './paths/webhooks-paths.js';
import { createRegistry } from './registry.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const DESCRIPTION = `Integration gateway for AI-assisted clinical documentation: transcriptions, scribe threads and runs, clinical notes (SOAP, BIRP, DAP, GIRP), ICD-10-CM coding, voice questionnaire calls and signed webhooks.

Clinical operations (\`/v1\`) take \`Authorization: Bearer <JWT>\` and \`x-doctor\`; voice and operator operations (\`/api/v1\`) take \`X-Api-Key\` (a voice key reaches calls and the centers catalog only; an operator key every key route); inbound webhooks are authenticated by \`X-Integration-Signature\`. Every error answers \`{success: false, error, details}\`; timestamps are ISO 8601 with milliseconds and \`Z\`.`;

const TAGS = [
  ['Transcriptions', 'Step 1: store the transcript of a conversation'],
  ['Threads', 'Step 2: a stateful session with the clinical assistant'],
  ['Runs', 'Step 3: chat or note extraction inside a thread, asynchronous'],
  ['Clinical notes', 'Step 4: notes, their versions and FHIR view'],
  ['Codify', 'ICD-10-CM code assessments of a note'],
  ['Voice calls', 'Outbound questionnaire calls'],
  ['Centers', 'Centers and their services'],
  ['Inbound webhooks', 'Events from the EHR/HIS and the voice service'],
  ['Outbound webhooks', 'Subscriptions, deliveries and the events sent'],
  ['Health', 'Liveness and dependencies'],
  ['Operations console', 'What the /console page reads and does: PHI-free lists, audited details and actions'],
  ['Operations', 'Metrics and this reference'],
].map(([name, description]) => ({ name, description }));

/** Builds the OpenAPI 3.1 document from the request schemas of the modules and the response schemas here. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = createRegistry();
  for (const register of [
    registerTranscriptionPaths,
    registerThreadPaths,
    registerRunPaths,
    registerNotePaths,
    registerCodifyPaths,
    registerCallPaths,
    registerCenterPaths,
    registerWebhookPaths,
    registerTrustPaths,
    registerRotateSecretPaths,
    registerConsolePaths,
    registerFeedbackPaths,
    registerHealthPaths,
    registerMetricsPaths,
    registerReferencePaths,
  ]) {
    register(registry);
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Clinigate',
      version: VERSION,
      description: DESCRIPTION,
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
    },
    servers: [{ url: '/', description: 'This Clinigate instance' }],
    tags: TAGS,
  });
}

let cached: OpenApiDocument | undefined;

/** The document, built once per process (the schemas do not change at run time). */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
