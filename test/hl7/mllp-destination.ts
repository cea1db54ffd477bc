import { Hl7Message } from '@medplum/core';
import { Hl7Server } from '@medplum/hl7';
import { freePort } from '../../src/lib/free-port.js';

export type DestinationMode = 'AA' | 'AE' | 'AR' | 'silent';

/**
 * A hospital's HL7 interface stand-in (@medplum/hl7's Hl7Server): records every message and
 * answers it with the ACK code of its current mode, or not at all.
 */
export class MllpDestination {
  readonly received: Array<{ message: Hl7Message; answered: DestinationMode; at: number }> = [];
  mode: DestinationMode = 'AA';
  /** Answers this much later (a slow interface: a crash of the sender lands mid-delivery). */
  delayMs = 0;
  private readonly server: Hl7Server;

  private constructor(readonly port: number) {
    this.server = new Hl7Server((connection) => {
      connection.addEventListener('message', ({ message }) => {
        const answered = this.mode;
        this.received.push({ message, answered, at: Date.now() });
        if (answered === 'silent') return;
        const answer = () => {
          if (!connection.isClosed()) connection.send(message.buildAck({ ackCode: answered }));
        };
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    this.server.start(port);
  }

  static async start(): Promise<MllpDestination> {
    const destination = new MllpDestination(await freePort());
    await new Promise((r) => setTimeout(r, 50));
    return destination;
  }

  get url() {
    return `mllp://127.0.0.1:${this.port}`;
  }

  /** Messages of one type (`MDM^T02`), in arrival order. */
  of(type: string) {
    return this.received.filter((r) => `${r.message.header.getComponent(9, 1)}^${r.message.header.getComponent(9, 2)}` === type);
  }

  stop(): Promise<void> {
    return this.server.stop({ forceDrainTimeoutMs: 100 });
  }
}
