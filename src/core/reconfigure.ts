import { checkConfig, configError } from '../internal/checkConfig';
import { readState } from '../internal/readState';
import { sameConfig } from '../internal/sameConfig';
import { addToTotal } from '../internal/tokenTotal';
import { appendAndTrim, makeState, NO_EFFECTS } from '../internal/window';
import type { MemoryConfig, MemoryOptions } from '../model/config';
import type { MemoryEffect, Transition } from '../model/effects';
import type { MemoryState } from '../model/state';
import { countMessageTokens } from '../tokens/registry';

const API = 'reconfigure';

/** Every message of the window counted again with `config.tokenizer`, and their total. */
const recount = (state: MemoryState, config: MemoryConfig) => {
  const counts = new Array<number>(state.messages.length);
  let total = 0;
  state.messages.forEach((message, i) => {
    const count = countMessageTokens(config.tokenizer, message, API);
    total = addToTotal(total, count, config.tokenizer, API);
    counts[i] = count;
  });
  return { counts, total };
};

/**
 * Changes a conversation's config: new limits, a new tokenizer, a new trimming policy. `config`
 * is a whole config or some fields, merged over the state's own (`{ maxMessages: 5 }` keeps the
 * rest), checked as `createMemory` checks its options. Then:
 *
 * - a new tokenizer recounts every message of the window and the total (the one place messages
 *   are counted again; the held, pending messages have no counts and are untouched);
 * - the window is planned again under the new config, as `enforceLimits` plans it: what a
 *   tighter limit or a stricter policy removes is reported in a `memory/trimmed` effect, with the
 *   messages' positions, which never change.
 *
 * The effects are a `memory/reconfigured` effect (`from`, `to`), then the trim if there was one.
 * The same config returns the same state and no effects.
 *
 * @param state - the current memory
 * @param config - a whole `MemoryConfig`, or `MemoryOptions` fields to change
 * @returns the next state and its effects
 * @throws MemoryConfigError naming each invalid field and its value, or an unknown key, e.g.
 *   `[conversation-memory] reconfigure: maxMessages must be at least 1, received 0`
 * @throws TokenizerError when the new tokenizer fails on a message; the state is untouched
 * @example
 * ```ts
 * let state = createMemory({ maxMessages: 20 });
 * for (const text of ['a', 'b', 'c']) state = addMessage(state, userMessage(text)).state;
 * const { state: next, effects } = reconfigure(state, { maxMessages: 2 });
 * getHistory(next).map((m) => m.content); // ['b', 'c']
 * effects.map((e) => e.type); // ['memory/reconfigured', 'memory/trimmed']
 * ```
 */
export const reconfigure = (state: MemoryState, config: MemoryOptions): Transition =>
  reconfigureWith(state, config, true);

/**
 * {@link reconfigure}, optionally without building its effects (`memoryReducer`'s replays), its
 * errors naming `api`, the public call or action (`memory/reconfigured`).
 *
 * @internal
 */
export const reconfigureWith = (
  state: MemoryState,
  config: MemoryOptions,
  withEffects: boolean,
  api = API,
): Transition => {
  state = readState(state, api);
  const checked =
    config === undefined
      ? { ok: false as const, problems: ['options must be an object, received undefined'] }
      : checkConfig(config, state.config);
  if (!checked.ok) throw configError(api, checked);
  const from = state.config;
  const to = checked.config;
  if (sameConfig(from, to)) return { state, effects: NO_EFFECTS };

  const counted =
    to.tokenizer === from.tokenizer
      ? { counts: state.tokenCounts, total: state.totalTokens }
      : recount(state, to);
  const configured = makeState({
    ...state,
    config: to,
    tokenCounts: counted.counts,
    totalTokens: counted.total,
  });
  const trimmed = appendAndTrim(
    configured,
    [],
    [],
    { limits: true, scan: 'full' },
    withEffects,
    'reconfigure',
  );
  if (!withEffects) return { state: trimmed.state, effects: NO_EFFECTS };
  const changed: MemoryEffect = Object.freeze({ type: 'memory/reconfigured', from, to });
  return { state: trimmed.state, effects: Object.freeze([changed, ...trimmed.effects]) };
};
