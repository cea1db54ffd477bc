/** host:port/database of a PostgreSQL URL, never the credentials. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL (unparsable)';
  }
}
