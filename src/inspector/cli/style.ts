/**
 * Terminal styles: ANSI when colour is on, plain text otherwise.
 *
 * @example
 * ```ts
 * const style = createStyle(false);
 * style.red('x'); // 'x'
 * ```
 */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
}

const ansi =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

/**
 * The styles, coloured or plain.
 *
 * @param colour - whether to colour
 * @returns the styles
 * @example
 * ```ts
 * createStyle(true).bold('step'); // '\u001b[1mstep\u001b[22m'
 * ```
 */
export const createStyle = (colour: boolean): Style =>
  colour
    ? {
        bold: ansi(1, 22),
        dim: ansi(2, 22),
        red: ansi(31, 39),
        yellow: ansi(33, 39),
        cyan: ansi(36, 39),
      }
    : { bold: String, dim: String, red: String, yellow: String, cyan: String };

/**
 * Whether to colour: only on a terminal, and never when `NO_COLOR` is set to a non-empty value
 * (https://no-color.org).
 *
 * @param isTTY - whether stdout is a terminal
 * @param env - the environment
 * @returns whether to colour
 * @example
 * ```ts
 * wantsColour(true, { NO_COLOR: '1' }); // false
 * ```
 */
export const wantsColour = (
  isTTY: boolean,
  env: Readonly<Record<string, string | undefined>>,
): boolean => isTTY && (env['NO_COLOR'] === undefined || env['NO_COLOR'] === '');
