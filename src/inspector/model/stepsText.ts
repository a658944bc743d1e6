/**
 * How the inspector counts steps, in one place for the CLI and the page: step 0 is the initial
 * state and step `n` (1 to N) the state after the log's `n`th action, so a log of N actions has
 * steps 0 to N and its last step is N (`--at N`, "step N of N").
 *
 * @param actions - the log's length (its number of actions)
 * @returns `'16 actions (steps 0–16)'`, `'1 action (steps 0–1)'` or `'no actions (step 0 only)'`
 * @example
 * ```ts
 * stepsText(16); // '16 actions (steps 0–16)'
 * stepsText(0); // 'no actions (step 0 only)'
 * ```
 */
export const stepsText = (actions: number): string =>
  actions === 0
    ? 'no actions (step 0 only)'
    : `${actions} action${actions === 1 ? '' : 's'} (steps 0–${actions})`;

/**
 * The position of one step in a log, as the CLI's `--at` and the page's step label show it.
 *
 * @param step - the step, from 0 to `actions`
 * @param actions - the log's length
 * @returns `'step 9 of 16'`
 * @example
 * ```ts
 * stepOfText(16, 16); // 'step 16 of 16' (the last step: the state after the 16th action)
 * ```
 */
export const stepOfText = (step: number, actions: number): string => `step ${step} of ${actions}`;
