import type { Queryable } from '../../db/pool.js';
import { parseWith } from '../../http/validate.js';
import { unprocessable } from '../../lib/errors.js';
import {
  centerExists,
  deleteCenterRow,
  deleteServiceRow,
  upsertCenterRow,
  upsertCenterRows,
  upsertServiceRow,
  type ServiceRow,
} from './centers.repo.js';
import { centerSchema, serviceSchema } from './centers.schema.js';

/*
 * What the inbound EHR/HIS webhooks call for `center.upserted`, `center.deleted`,
 * `service.upserted` and `service.deleted`, inside their transaction. Event data that does not
 * fit is 422 naming the field.
 */

export async function upsertCenter(db: Queryable, data: unknown): Promise<void> {
  await upsertCenterRow(db, parseWith(centerSchema, data, 422));
}

/** Many centers at once, in order (the last copy of an id wins); throws 422 when any does not fit. */
export async function upsertCenters(db: Queryable, data: unknown[]): Promise<void> {
  await upsertCenterRows(
    db,
    data.map((d) => parseWith(centerSchema, d, 422)),
  );
}

/** Removes the center and its services. Deleting one that is not there is not an error (false). */
export async function deleteCenter(db: Queryable, data: unknown): Promise<boolean> {
  const { id } = parseWith(centerSchema.pick({ id: true }), data, 422);
  return deleteCenterRow(db, id);
}

export async function upsertService(db: Queryable, data: unknown): Promise<ServiceRow> {
  const service = parseWith(serviceSchema, data, 422);
  if (!(await centerExists(db, service.centerId))) throw unprocessable(`centerId: center ${service.centerId} does not exist`);
  return upsertServiceRow(db, service);
}

export async function deleteService(db: Queryable, data: unknown): Promise<boolean> {
  const { id } = parseWith(serviceSchema.pick({ id: true }), data, 422);
  return deleteServiceRow(db, id);
}
