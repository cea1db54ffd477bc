import { serveTasks } from '../../lib/thread-tasks.js';
import { readHl7Message } from './hl7-read.js';
import type { Hl7SenderProfile } from './hl7-event.js';

/** The HL7 reader's thread: large messages are decoded and parsed here, off the event loop (hl7-reader.ts). */
serveTasks({
  ping: () => true,
  read: (args: { bytes: Uint8Array; charset: string; sender: Hl7SenderProfile }) => readHl7Message(args.bytes, args.charset, args.sender),
});
