import type { RequestHandler } from 'express';
import { badRequest } from '../lib/errors.js';

const MAX_IDENTIFIER = 256;

function identifier(value: string | undefined, header: string): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (trimmed.length > MAX_IDENTIFIER) throw badRequest(`Header ${header} must be at most ${MAX_IDENTIFIER} characters`);
  return trimmed;
}

/** `x-doctor` is required on every clinical operation; `x-patient` is optional. */
export const requireDoctor: RequestHandler = (req, _res, next) => {
  const doctor = identifier(req.get('x-doctor'), 'x-doctor');
  if (!doctor) throw badRequest('Missing required header x-doctor');
  req.doctor = doctor;
  req.patient = identifier(req.get('x-patient'), 'x-patient');
  next();
};
