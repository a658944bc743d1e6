/** The churn worker's states (test/support/sessionFileWorker.ts), shared with the test that checks them. */

/** The number of messages of the churn's k-th save (one big save in three). */
export const churnSize = (k: number): number => (k % 3 === 0 ? 1500 : 20 + (k % 7));

/** The content of message i of the churn's k-th save. */
export const churnText = (k: number, i: number): string =>
  `save ${k} message ${i} ${'padding '.repeat(8)}`;
