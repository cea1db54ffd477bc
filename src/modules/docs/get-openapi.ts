import type { Request, Response } from 'express';
import { openApiDocument } from '../../openapi/document.js';

/** GET /openapi.json: the OpenAPI 3.1 document, open (it holds no secrets). */
export function getOpenApi() {
  return (_req: Request, res: Response) => {
    res.set('cache-control', 'no-cache').json(openApiDocument());
  };
}
