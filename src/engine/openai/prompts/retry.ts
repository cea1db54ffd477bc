/** Sent after an answer that did not fit the schema. Bump VERSION on every change. */
export const VERSION = 'retry.v1';

export const USER = `{{error}}
Answer again with only the JSON object, fitting the schema exactly.`;
