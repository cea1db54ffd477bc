import { AppError } from '../lib/errors.js';

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * Request bodies are UTF-8 only (DESIGN "Fair share between groups"): a `charset` other than
 * utf-8 is 415, before a byte of the body is decoded, so no decoder can hide the JSON from the
 * depth scan (a UTF-16 body's brackets are not the bytes it looks for). No charset is UTF-8.
 */
export function assertUtf8Body(contentType: string | undefined): void {
  const charset = contentType ? CHARSET.exec(contentType)?.[1] : undefined;
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new AppError(415, `Request bodies must be UTF-8 (charset=utf-8), not charset=${charset.slice(0, 40)}`);
  }
}
