import { isValidPhoneNumber } from 'libphonenumber-js';
import { z } from 'zod';
import { isLanguageTag } from '../../lib/language-tag.js';
import { rememberedCheck } from '../../lib/remembered-check.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const E164 = /^\+[1-9]\d{1,14}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Remembered: constructing an Intl.DateTimeFormat per event costs more than the rest of the event's checks. */
const isTimeZone = rememberedCheck((tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz.includes('/') || tz === 'UTC';
  } catch {
    return false;
  }
});

const isE164Phone = rememberedCheck((v: string) => E164.test(v) && isValidPhoneNumber(v));

const text = (max = 300) => z.string().trim().min(1, 'must not be empty').max(max);

const interval = z
  .object({ opens: z.string().regex(HHMM, 'must be HH:MM'), closes: z.string().regex(HHMM, 'must be HH:MM') })
  .refine((i) => i.opens < i.closes, 'opens must be before closes');

/** Opening hours per weekday; a day left out (or an empty list) is closed. */
export const openingHoursSchema = z
  .object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(interval).max(6).default([])])) as Record<
      (typeof WEEKDAYS)[number],
      z.ZodDefault<z.ZodArray<typeof interval>>
    >,
  )
  .strict();

/** Opening hours with every day closed, as parsing `{}` gives them (built, not parsed: once per catalog event). */
function allDaysClosed(): z.output<typeof openingHoursSchema> {
  return Object.fromEntries(WEEKDAYS.map((day) => [day, []])) as unknown as z.output<typeof openingHoursSchema>;
}

/** A center as config/centers.json and the `center.upserted` event carry it. */
export const centerSchema = z.object({
  id: text(100),
  name: text(),
  address: z.object({
    line: text(),
    city: text(100),
    postalCode: text(20),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as ES'),
  }),
  phone: z.string().refine(isE164Phone, 'must be a valid phone number in E.164 format'),
  timezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Madrid'),
  openingHours: openingHoursSchema.default(allDaysClosed),
});
export type Center = z.output<typeof centerSchema>;

/** A service as config/centers.json and the `service.upserted` event carry it. */
export const serviceSchema = z.object({
  id: text(100),
  centerId: text(100),
  name: text(),
  specialty: text(100),
  durationMinutes: z.number().int().min(1).max(1440),
  languages: z.array(z.string().refine(isLanguageTag, 'must be BCP 47 language tags')).max(20).default([]),
});
export type Service = z.output<typeof serviceSchema>;

export const catalogFileSchema = z.object({
  centers: z.array(centerSchema),
  services: z.array(serviceSchema),
});
