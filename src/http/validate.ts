import { z } from 'zod';
import { AppError } from '../lib/errors.js';

/** One line naming each wrong or missing field: `duration_seconds is required; language_used: ...`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.map(String).join('.') || 'body';
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${field} is required`;
      if (issue.code === 'unrecognized_keys') {
        const where = issue.path.length ? ` in ${field}` : '';
        return `unknown field${issue.keys.length > 1 ? 's' : ''}${where}: ${issue.keys.join(', ')}`;
      }
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

/** Parses input with a zod schema; a failure is a 400 (or the status given) naming the fields. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, status = 400): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError(status, describeZodError(result.error));
  return result.data;
}

/** A body that must be a JSON object (no body at all counts as `{}`). */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError(400, 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

export const uuidSchema = z.uuid();
export const isUuid = (value: string) => uuidSchema.safeParse(value).success;
