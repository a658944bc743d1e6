/** Alias map for esbuild's `alias`: each import name of the package to this build's ESM file. */
export declare const distAliases: (root: string) => Record<string, string>;
