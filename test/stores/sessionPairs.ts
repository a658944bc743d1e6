import fc from 'fast-check';

/** A session or stream address as the stores take it: `[id, namespace]`. */
export type SessionPair = readonly [id: string, namespace: string | undefined];

/**
 * Distinct (id, namespace) pairs built from the characters storage keys are made of (`:` joins
 * a namespace to its id, `%` escapes, and `3`, `A`, `a` spell the escapes), so that any mapping
 * that is not injective (selectools' `ns:id`, or an escape that forgets `%`) makes two of them
 * share a key.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(distinctSessionPairsArb, (pairs) => pairs.length >= 2));
 * ```
 */
export const distinctSessionPairsArb: fc.Arbitrary<SessionPair[]> = (() => {
  const part = fc.stringMatching(/^[:%3Aa]{1,4}$/u);
  const pair = fc.tuple(part, fc.option(part, { nil: undefined }));
  return fc.uniqueArray(pair, {
    minLength: 2,
    maxLength: 6,
    selector: ([id, ns]) => `${ns ?? '\u0000'}\u0000${id}`,
  });
})();
