/** A job failure that retrying cannot mend: the worker records it and does not retry. */
export class PermanentJobFailure extends Error {}
