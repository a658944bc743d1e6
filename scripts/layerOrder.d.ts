/** The layers of src/, from the bottom (docs/design.md describes them; see layerOrder.js). */
export declare const LAYERS: readonly string[];
/** The layer of a path inside src/ (`undefined` outside src/). */
export declare const layerOf: (srcRoot: string, file: string) => string | undefined;
/** The ESLint plugin with the `layer-order` rule. */
declare const plugin: { readonly rules: Readonly<Record<string, unknown>> };
export default plugin;
