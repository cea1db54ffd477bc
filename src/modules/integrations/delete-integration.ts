import type { Request, Response } from 'express';
import type { Queryable } from '../../db/pool.js';
import { isUuid } from '../../http/validate.js';
import { notFound } from '../../lib/errors.js';
import { revokeIntegration } from './integrations.repo.js';

/** DELETE /api/v1/integrations/{id}: 204; revoked at once (its posts answer 401 from now on), its secret wiped. */
export function deleteIntegration(db: Queryable) {
  return async (req: Request<{ id: string }>, res: Response) => {
    const { id } = req.params;
    if (!isUuid(id) || !(await revokeIntegration(db, id))) throw notFound('Integration', id);
    res.status(204).end();
  };
}
