import type { Request } from 'express';

/**
 * Whose endpoints a request sees: a group's bearer token (`/v1/webhook-endpoints`) sees and
 * changes its group's only, so another group's id is 404; an operator key (`/api/v1/...`) all.
 */
export type EndpointOwner = (req: Request) => string | undefined;

export const operatorOwner: EndpointOwner = () => undefined;
export const groupOwner: EndpointOwner = (req) => req.principal!.groupId;
