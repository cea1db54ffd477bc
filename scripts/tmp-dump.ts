import { extractNote } from '../src/engine/local/extraction/index.js';
import { SHAPES } from '../test/engine/fixtures/visit-shapes.js';
const which = process.argv.slice(2);
for (const v of SHAPES) {
  if (which.length && !which.some((w) => v.name.includes(w))) continue;
  const n = extractNote(v.transcript, 'SOAP');
  console.log(`=== ${v.name}`);
  for (const [k, t] of Object.entries(n)) console.log(`--${k}\n${t}`);
}
