import { readFileSync } from 'node:fs';
import type { Config } from '../../config.js';
import { StartupError } from '../../lib/startup-error.js';
import type { MllpListenerOptions } from './mllp-listener.js';

function pem(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new StartupError(`${variable} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The MLLP listeners as the configuration sets them: HL7_MLLP_PORT, HL7_MLLPS_PORT with its PEM files, the frame bound. */
export function mllpOptions(config: Config): MllpListenerOptions {
  return {
    host: config.HL7_MLLP_HOST,
    port: config.HL7_MLLP_PORT,
    tlsPort: config.HL7_MLLPS_PORT,
    tls:
      config.HL7_MLLPS_PORT !== undefined && config.HL7_TLS_CERT && config.HL7_TLS_KEY
        ? {
            cert: pem('HL7_TLS_CERT', config.HL7_TLS_CERT),
            key: pem('HL7_TLS_KEY', config.HL7_TLS_KEY),
            ...(config.HL7_TLS_CA ? { ca: pem('HL7_TLS_CA', config.HL7_TLS_CA) } : {}),
          }
        : undefined,
    limits: { maxFrameBytes: config.HL7_MAX_FRAME_BYTES },
  };
}
