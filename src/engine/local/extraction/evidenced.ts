/** One written sentence and the 1-based transcript lines it was drawn from. */
export interface Evidenced {
  text: string;
  lines: number[];
}
