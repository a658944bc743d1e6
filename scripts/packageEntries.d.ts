/** The package's own name (see packageEntries.js). */
export declare const PACKAGE_NAME: 'conversation-memory';
/** Whether a module name is the package's own name or one of its subpaths. */
export declare const isPackageName: (name: string) => boolean;
/** The entry file of each import name of the package, absolute, from tsconfig.json's `paths`. */
export declare const packageEntries: (root: string) => ReadonlyMap<string, string>;
