import { isIP } from 'node:net';

/** An IP address or a CIDR (`10.20.0.0/16`, `2001:db8::/32`). */
export function isNetwork(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
