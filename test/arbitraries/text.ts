import fc from 'fast-check';

/** A lone (unpaired) UTF-16 surrogate: valid in a JS string and in JSON, one code point in Python. */
const loneSurrogateArb = fc.constantFrom('\uD83D', '\uDE00', '\uDBFF', '\uDC00');

/**
 * One unit of text: mostly printable ASCII, sometimes any grapheme (emoji, combining marks), a
 * special-token lookalike, any code point, or a lone surrogate.
 */
const unitArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 8 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), weight: 3 },
  {
    arbitrary: fc.constantFrom('😀', '👩‍👩‍👧', '🇫🇷', 'é', 'e\u0301', '中', ' ', '\n', '<|endoftext|>'),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
  { arbitrary: loneSurrogateArb, weight: 1 },
);

/**
 * Message or summary text: empty, short, medium or (rarely) long; ASCII words, emoji, combining
 * marks, astral code points and lone surrogates, so code-point counting is exercised.
 */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 1 },
  { arbitrary: fc.string({ unit: unitArb, maxLength: 12 }), weight: 4 },
  { arbitrary: fc.string({ unit: unitArb, maxLength: 80 }), weight: 3 },
  { arbitrary: fc.lorem({ maxCount: 12 }), weight: 2 },
  {
    // Exact lengths around multiples of 4, to sit on the heuristic's floor boundaries.
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '😀', '中 '), fc.integer({ min: 1, max: 160 }))
      .map(([unit, count]) => unit.repeat(count)),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: unitArb, maxLength: 400 }), weight: 1 },
);

/** A short identifier-like string (tool names, tool-call ids). */
export const identifierArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), weight: 5 },
  { arbitrary: fc.string({ unit: unitArb, minLength: 1, maxLength: 8 }), weight: 1 },
);

/**
 * Summary chunks: mostly ordinary text, sometimes a long repeated unit (up to ~5000 code points,
 * emoji included) so the 4000-code-point cap of `applySummary` is reached and cut near a pair.
 */
export const summaryTextArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: textArb, weight: 4 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('a', 'ab ', '😀', 'x😀', '\uDE00y'),
        fc.integer({ min: 500, max: 2600 }),
      )
      .map(([unit, count]) => unit.repeat(count)),
    weight: 1,
  },
);
