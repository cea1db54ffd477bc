/**
 * A hospital's two receiving ends, on this machine, for the README's quick tour:
 * - an HL7 v2 MLLP receiver (`mllp://127.0.0.1:2575`): prints every message it gets (the note's
 *   MDM^T02, then the ADT^A08 with its codes) and answers each with an AA ACK;
 * - a FHIR R4 server (`http://127.0.0.1:8080/fhir`) with a SMART Backend Services token endpoint
 *   (`/token`): checks the client assertion against the key made here, hands out a token, then
 *   prints every transaction Bundle POSTed to the base and answers a transaction-response.
 *
 * It writes `hl7-endpoint.json` and `fhir-endpoint.json` (the bodies of POST
 * /api/v1/webhook-endpoints; the FHIR one holds a P-384 key made at start) into the working folder.
 *
 *   npx tsx scripts/example-destinations.ts [--mllp-port 2575] [--fhir-port 8080]
 *   (or EXAMPLE_MLLP_PORT / EXAMPLE_FHIR_PORT)
 *
 * Only for a laptop: it trusts every connection and keeps nothing.
 */
import { Hl7Message } from '@medplum/core';
import { randomUUID, generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { parseArgs } from 'node:util';
import { jwtVerify } from 'jose';
import { MllpDeframer, mllpFrame } from '../src/modules/hl7/mllp-frames.js';

const { values } = parseArgs({
  options: {
    'mllp-port': { type: 'string', default: process.env.EXAMPLE_MLLP_PORT ?? '2575' },
    'fhir-port': { type: 'string', default: process.env.EXAMPLE_FHIR_PORT ?? '8080' },
  },
});
const mllpPort = Number(values['mllp-port']);
const fhirPort = Number(values['fhir-port']);
const fhirBase = `http://127.0.0.1:${fhirPort}/fhir`;
const tokenUrl = `http://127.0.0.1:${fhirPort}/token`;
const clientId = 'clinigate-example';

const say = (line: string) => process.stdout.write(`${line}\n`);

// ---- HL7 v2 over MLLP -------------------------------------------------------------------------
const mllp = createTcpServer((socket) => {
  const frames = new MllpDeframer(16 * 1024 * 1024);
  socket.on('data', (chunk) => {
    for (const frame of frames.push(chunk)) {
      const text = frame.toString('utf8');
      const message = Hl7Message.parse(text);
      const type = message.getSegment('MSH')?.getField(9)?.toString() ?? '?';
      say(`\n=== MLLP <- ${type.split('^').slice(0, 2).join('^')} (MSH-10 ${message.getSegment('MSH')?.getField(10)?.toString()})`);
      say(text.replace(/\r/g, '\n').trimEnd());
      const ack = message.buildAck();
      socket.write(mllpFrame(Buffer.from(ack.toString(), 'utf8')));
      say(`=== MLLP -> ACK AA`);
    }
  });
  socket.on('error', () => socket.destroy());
});

// ---- FHIR R4 with SMART Backend Services ------------------------------------------------------
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const tokens = new Set<string>();

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, json: unknown, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(json));
}

async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await body(req));
  try {
    await jwtVerify(form.get('client_assertion') ?? '', publicKey, { issuer: clientId, subject: clientId, audience: tokenUrl });
  } catch (err) {
    say(`\n=== FHIR token request refused: ${(err as Error).message}`);
    return answer(res, 400, { error: 'invalid_client' });
  }
  const issued = randomUUID();
  tokens.add(issued);
  say(`\n=== FHIR token issued (client assertion verified, scope ${form.get('scope')})`);
  answer(res, 200, { access_token: issued, token_type: 'bearer', expires_in: 300, scope: form.get('scope') });
}

interface Bundle {
  resourceType?: string;
  type?: string;
  entry?: { resource?: { resourceType?: string } }[];
}

async function transaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const bearer = (req.headers.authorization ?? '').replace(/^Bearer /i, '');
  if (!tokens.has(bearer)) return answer(res, 401, { resourceType: 'OperationOutcome' }, 'application/fhir+json');
  const bundle = JSON.parse(await body(req)) as Bundle;
  const kinds = (bundle.entry ?? []).map((e) => e.resource?.resourceType ?? '?');
  say(`\n=== FHIR <- ${bundle.resourceType} type ${bundle.type}: ${kinds.join(', ')}`);
  say(JSON.stringify(bundle, null, 2));
  answer(
    res,
    200,
    {
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: kinds.map((kind) => ({ response: { status: '201 Created', location: `${kind}/${randomUUID()}/_history/1` } })),
    },
    'application/fhir+json',
  );
}

const fhir = createHttpServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/$/, '');
  const handled =
    req.method === 'POST' && path === '/token'
      ? token(req, res)
      : req.method === 'POST' && path === '/fhir'
        ? transaction(req, res)
        : Promise.resolve(answer(res, 404, { resourceType: 'OperationOutcome' }, 'application/fhir+json'));
  handled.catch((err: Error) => answer(res, 400, { resourceType: 'OperationOutcome', issue: [{ diagnostics: err.message }] }));
});

// ---- the endpoint bodies to register, then listen ---------------------------------------------
writeFileSync(
  'hl7-endpoint.json',
  `${JSON.stringify({ url: `mllp://127.0.0.1:${mllpPort}`, kind: 'hl7-mllp', events: ['note.ready'] }, null, 2)}\n`,
);
writeFileSync(
  'fhir-endpoint.json',
  `${JSON.stringify(
    {
      url: fhirBase,
      kind: 'fhir',
      events: ['note.ready'],
      auth: { token_url: tokenUrl, client_id: clientId, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) },
    },
    null,
    2,
  )}\n`,
);

mllp.listen(mllpPort, '127.0.0.1', () => {
  fhir.listen(fhirPort, '127.0.0.1', () => {
    say(`MLLP receiver on mllp://127.0.0.1:${mllpPort}; FHIR server on ${fhirBase} (token URL ${tokenUrl})`);
    say('Wrote hl7-endpoint.json and fhir-endpoint.json: register them with POST /api/v1/webhook-endpoints');
  });
});
for (const server of [mllp, fhir]) {
  server.on('error', (err: NodeJS.ErrnoException) => {
    process.stderr.write(`example destinations: ${err.code === 'EADDRINUSE' ? `port in use (${err.message})` : err.message}\n`);
    process.exit(1);
  });
}
