/**
 * ETags of a note: the strong tag `"<version>"` (the JSON of one version never changes). If-Match
 * compares the opaque part only, so FHIR-style weak tags (`W/"3"`, as FHIR servers send) match too.
 */
export const noteEtag = (version: number) => `"${version}"`;
export const fhirEtag = (version: number) => `W/"${version}"`;

/** Whether an If-Match header value (`*` or a comma-separated list of tags) names this version. */
export function ifMatchSatisfied(header: string, version: number): boolean {
  const tags = header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return tags.some((tag) => tag === '*' || opaque(tag) === String(version));
}

function opaque(tag: string): string {
  const strong = tag.startsWith('W/') ? tag.slice(2) : tag;
  return strong.length >= 2 && strong.startsWith('"') && strong.endsWith('"') ? strong.slice(1, -1) : strong;
}
