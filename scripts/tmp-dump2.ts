import { extractNote } from '../src/engine/local/extraction/index.js';
import { HELD_OUT } from '../test/engine/fixtures/visits.js';
const v = HELD_OUT.find((x) => x.name.includes(process.argv[2]))!;
console.log(extractNote(v.transcript, 'SOAP'));
