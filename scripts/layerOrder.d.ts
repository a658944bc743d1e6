/** The layers of src/, from the bottom (see layerOrder.js). */
export declare const LAYERS: readonly string[];
/** The ESLint plugin with the `layer-order` rule. */
declare const plugin: { readonly rules: Readonly<Record<string, unknown>> };
export default plugin;
