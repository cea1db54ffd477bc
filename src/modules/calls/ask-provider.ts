import axios from 'axios';
import { signPayload } from '../outbound-webhooks/transport/signing.js';
import { CALL_STATUSES, type CallStatus } from './call-status.js';

export const ASK_TIMEOUT_MS = 15_000;

/**
 * `GET <VOICE_PROVIDER_URL>/calls/{providerCallId}` (DESIGN "Delivery operations"), signed like
 * the dispatch (over an empty body) when VOICE_PROVIDER_SECRET is set. The call's status as the
 * provider reports it (`status` of its JSON answer), or undefined when it did not answer one.
 */
export async function askProviderStatus(
  baseUrl: string,
  secret: string | undefined,
  providerCallId: string,
): Promise<CallStatus | undefined> {
  const url = `${baseUrl.replace(/\/+$/, '')}/calls/${encodeURIComponent(providerCallId)}`;
  try {
    const res = await axios.get(url, {
      headers: { 'user-agent': 'Clinigate-Voice/1', ...(secret ? signPayload(secret, providerCallId, '') : {}) },
      timeout: ASK_TIMEOUT_MS,
      maxRedirects: 0,
      validateStatus: () => true,
    });
    const status = (res.data as { status?: unknown } | undefined)?.status;
    if (res.status < 200 || res.status >= 300 || typeof status !== 'string') return undefined;
    return (CALL_STATUSES as readonly string[]).includes(status) ? (status as CallStatus) : undefined;
  } catch {
    return undefined;
  }
}
