import { setFlagsFromString } from 'node:v8';

/**
 * Keeps the main thread's young generation at V8's initial size instead of letting it grow to
 * V8's default maximum for a main thread (two 16 MB semi-spaces, which the HTTP thread of ROLE=all
 * fills while it loads the service and answers), for the service's RSS (issue 28): started,
 * ROLE=all, 178 -> 152 MB. Worker threads bound theirs with `resourceLimits`; the main thread's
 * bound is a V8 flag, read whenever V8 would grow the space, so it is set before the service's
 * modules load (main.ts, `clinigate serve`).
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
