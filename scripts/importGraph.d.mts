/** One pair of layers whose imports run upward, and the imports that make it. */
export interface UpwardArrow {
  readonly arrow: string;
  readonly imports: readonly string[];
}
/** The import graph of `root`'s src/ and its upward arrows (see importGraph.mjs). */
export declare const importGraph: (root: string) => {
  readonly files: number;
  readonly imports: number;
  readonly arrows: readonly string[];
  readonly upward: readonly UpwardArrow[];
  readonly unresolved: readonly string[];
};
