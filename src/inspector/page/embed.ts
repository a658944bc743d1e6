import type { PageData } from './data';

/** Where the built page's template takes its data: the content of its JSON `<script>` element. */
export const DATA_SLOT = '"__CONVERSATION_MEMORY_INSPECTOR_DATA__"';

/**
 * JSON that cannot leave the `<script>` element it is put in: `<` is written `\u003c` (so neither
 * `</script>` nor `<!--` can appear), `>` and `&` likewise, and U+2028/U+2029 as escapes. It
 * parses back to the same value.
 *
 * @param value - a JSON value
 * @returns its JSON text, safe inside `<script type="application/json">`
 * @example
 * ```ts
 * scriptSafeJson({ text: '</script>' }); // '{"text":"\\u003c/script\\u003e"}'
 * ```
 */
export const scriptSafeJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => {
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });

/**
 * The page for one inspected file: the built template with the data put in its slot.
 *
 * @param template - the built page (one HTML file holding {@link DATA_SLOT} once)
 * @param data - the page's data
 * @returns the page's HTML
 * @throws Error when the template does not hold the slot exactly once
 * @example
 * ```ts
 * writeFileSync('page.html', renderPage(template, pageDataOf('log.json', inspected)));
 * ```
 */
export const renderPage = (template: string, data: PageData): string => {
  const at = template.indexOf(DATA_SLOT);
  if (at < 0 || template.indexOf(DATA_SLOT, at + 1) >= 0) {
    throw new Error('the inspector page template must hold its data slot exactly once');
  }
  return template.slice(0, at) + scriptSafeJson(data) + template.slice(at + DATA_SLOT.length);
};
