/// <reference lib="dom" />
/**
 * Building elements. Text goes in through `textContent` only: nothing from the data is ever
 * parsed as HTML.
 */

/** Attributes as strings; `class` included. */
export type Attributes = Readonly<Record<string, string>>;

/**
 * A new element with attributes and text content (as text, never HTML).
 *
 * @param tag - the tag name
 * @param attributes - attributes to set
 * @param text - its text, if any
 * @returns the element
 * @example
 * ```ts
 * el('span', { class: 'tag' }, 'pinned');
 * ```
 */
export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  text?: string,
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
};

/**
 * The element with this id (the page's fixed skeleton).
 *
 * @param id - its id
 * @returns the element
 * @throws Error when the page has no such element
 * @example
 * ```ts
 * byId('window').replaceChildren();
 * ```
 */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
};

/** The SVG namespace. */
const SVG = 'http://www.w3.org/2000/svg';

/**
 * A new SVG element with attributes.
 *
 * @param tag - the tag name
 * @param attributes - attributes to set
 * @returns the element
 * @example
 * ```ts
 * svg('line', { x1: '0', x2: '10', y1: '0', y2: '0' });
 * ```
 */
export const svg = (tag: string, attributes: Attributes = {}): SVGElement => {
  const element = document.createElementNS(SVG, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
};

/**
 * Whether keys pressed in `target` belong to it: a select, a text area, an editable element, or
 * an input other than the step slider's kind (`range`), whose arrow keys move a caret, change a
 * number or pick an option. The page's step keys leave those alone.
 *
 * @param target - the event's target
 * @returns `true` for a form control that uses arrow keys itself
 * @example
 * ```ts
 * ownsArrowKeys(document.createElement('select')); // true
 * ```
 */
export const ownsArrowKeys = (target: EventTarget | null): boolean => {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && target.type !== 'range';
};
