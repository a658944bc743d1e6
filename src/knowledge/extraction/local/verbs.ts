import { lazy } from '../../../util/lazy';
/**
 * The verbs of rules 3 to 5 of the local extractor, each form with the subject it agrees with:
 * `work` takes the first person, `works` a name, `working` either after an auxiliary, `worked`
 * either.
 */

/** Who a verb's subject is, as the verb's form allows. */
export type Agreement = 'first' | 'third' | 'any' | 'progressive';

/** A verb of rules 3 to 5: its relation, the word after it, the object's kind, and its form. */
export interface Verb {
  readonly relation: 'works_at' | 'lives_in' | 'likes';
  readonly preposition: readonly string[];
  readonly agreement: Agreement;
}

const verbs = (
  relation: Verb['relation'],
  preposition: readonly string[],
  forms: readonly (readonly [string, Agreement])[],
): [string, Verb][] =>
  forms.map(([form, agreement]) => [form, { relation, preposition, agreement }]);

/**
 * Each verb form the patterns know: its relation, the word that must follow it (`at`, `in`,
 * `to`; none for `likes`), and its agreement.
 *
 * @internal
 */
export const VERBS: () => ReadonlyMap<string, Verb> = /* @__PURE__ */ lazy(
  () =>
    new Map([
      ...verbs(
        'works_at',
        ['at', 'for'],
        [
          ['work', 'first'],
          ['works', 'third'],
          ['worked', 'any'],
          ['working', 'progressive'],
        ],
      ),
      ...verbs(
        'lives_in',
        ['in'],
        [
          ['live', 'first'],
          ['lives', 'third'],
          ['lived', 'any'],
          ['living', 'progressive'],
        ],
      ),
      ...verbs(
        'lives_in',
        ['to'],
        [
          ['move', 'first'],
          ['moves', 'third'],
          ['moved', 'any'],
          ['moving', 'progressive'],
          ['relocated', 'any'],
        ],
      ),
      ...verbs(
        'likes',
        [],
        [
          ['like', 'first'],
          ['likes', 'third'],
          ['love', 'first'],
          ['loves', 'third'],
          ['prefer', 'first'],
          ['prefers', 'third'],
          ['enjoy', 'first'],
          ['enjoys', 'third'],
        ],
      ),
    ]),
);
