/**
 * The names a Table of Drugs title gives its substance, lower case. The Table inverts its titles
 * as the Index does: after the comma stands either another spelling of the substance ("Aluminium,
 * aluminum", "Busulfan, busulphan") or a word that qualifies it ("Decongestant, nasal",
 * "Glycoside, cardiac", "Relaxant, muscle"). A qualifier names no substance alone ("nasal bone",
 * "cardiac arrest", "muscle pain"): it is read only before its head, as a note says it ("nasal
 * decongestant", "cardiac glycoside"). Another spelling shares the head's first letters.
 */
export function titleNames(title: string): string[] {
  const parts = title.split(/,\s*/).filter((p) => p.length > 0);
  if (parts.length < 2) return [title];
  const head = parts[0];
  const names = [title, head];
  for (const part of parts.slice(1)) {
    if (part.slice(0, 3) === head.slice(0, 3) || head.includes(part) || part.includes(head)) names.push(part);
    else if (parts.length === 2) names.push(`${part} ${head}`);
  }
  return names;
}
