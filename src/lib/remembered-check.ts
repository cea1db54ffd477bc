/**
 * A pure yes/no check whose recent answers are kept: ingest validates the same time zones and
 * phone numbers over and over (every `center.upserted` event, at the gateway and again in the
 * job that applies it), and each `new Intl.DateTimeFormat` or libphonenumber parse costs tens of
 * microseconds. The memory is bounded: when full it starts again, so hostile input cannot grow it.
 */
export function rememberedCheck(check: (value: string) => boolean, max = 1_000): (value: string) => boolean {
  const known = new Map<string, boolean>();
  return (value) => {
    const seen = known.get(value);
    if (seen !== undefined) return seen;
    const answer = check(value);
    if (known.size >= max) known.clear();
    known.set(value, answer);
    return answer;
  };
}
