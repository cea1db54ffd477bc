import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  cert: string;
  key: string;
  /** SHA-256 of the certificate as Node reports it (`AB:CD:...`). */
  fingerprint: string;
}

/** A fresh self-signed P-256 certificate for `cn` (valid for 127.0.0.1), made by the openssl binary. */
export function selfSignedCertificate(cn: string): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'clinigate-cert-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat(
        ['-subj', `/CN=${cn}`, '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      ),
      { stdio: 'ignore' },
    );
    const pem = readFileSync(cert, 'utf8');
    return { cert: pem, key: readFileSync(key, 'utf8'), fingerprint: new X509Certificate(pem).fingerprint256 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
