/** The integration a post to /api/v1/webhooks/{source}/{integrationId} comes from (req.integration). */
export interface InboundSender {
  id: string;
  groupIds: string[];
  secret: string;
  /** the secret before a rotation, until it expires: it still verifies */
  previousSecret?: string;
}
