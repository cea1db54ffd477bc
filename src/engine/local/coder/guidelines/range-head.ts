/**
 * Whether a sentence states what a "use additional code" range is about, not only what tells its
 * codes apart. Z79.81- says "use additional code ... genetic susceptibility to malignant neoplasm
 * (Z15.0-)": "breast" tells Z15.01 from Z15.02, but a breast cancer on tamoxifen states no genetic
 * susceptibility ("if applicable", I.A.16). The words every title of the range shares, less those
 * of the code that asks (E11.22 "... chronic kidney disease" asking for N18.-: only "stage" is
 * left), must be stated, more than half of them; a range whose titles share nothing is not held.
 */
export function rangeHeadStated(
  titles: ReadonlyArray<ReadonlySet<string>>,
  asking: ReadonlySet<string>,
  neutral: ReadonlySet<string>,
  present: { has(stem: string): boolean },
): boolean {
  if (titles.length < 2) return true;
  const head = [...titles[0]].filter((stem) => !neutral.has(stem) && !asking.has(stem) && titles.every((t) => t.has(stem)));
  if (head.length === 0) return true;
  return head.filter((stem) => present.has(stem)).length * 2 > head.length;
}
