/**
 * The layer order of src/ (docs/design.md; scripts/layerOrder.js, run by `npm run lint`): an
 * import upward, or from a folder with no place in the order, is a lint error, whether it names
 * the file by a relative path or by the package's own name (`conversation-memory/tokens`, resolved
 * to its entry file through tsconfig.json's `paths`); imports within a layer, downward, or of
 * other packages are not. Checked through ESLint itself, with the project's own config, so the
 * rule cannot silently stop applying to src/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../scripts/importGraph.mjs';
import { LAYERS } from '../../scripts/layerOrder.js';
import { packageEntries } from '../../scripts/packageEntries.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const eslint = new ESLint();

const layerErrors = async (file: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'layers/layer-order')
    .map((message) => message.message);
};

describe('the layer order of src/', () => {
  it('refuses an import upward, naming both files, both layers and the order', async () => {
    const errors = await layerErrors(
      'src/model/example.ts',
      "export { addMessage } from '../core/addMessage';\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^src\/model\/example\.ts \(layer model\) may not import src\/core\/addMessage \(layer core\): the layer order is model < util < errors/,
    );
  });

  it('refuses type imports, re-exports and dynamic imports upward too', async () => {
    const code = [
      "import type { Agent } from '../agent/types';",
      "export * from '../view/modelView';",
      "export const load = () => import('../facade/ConversationMemory');",
      '',
    ].join('\n');
    expect(await layerErrors('src/codec/example.ts', code)).toHaveLength(3);
  });

  it('keeps util a leaf: it may import nothing of the project but util', async () => {
    expect(
      await layerErrors('src/util/example.ts', "export { isRole } from '../model/role';\n"),
    ).toEqual([]);
    expect(
      await layerErrors(
        'src/util/example.ts',
        "export { TokenizerError } from '../errors/memoryErrors';\n",
      ),
    ).toHaveLength(1);
  });

  it('accepts imports downward, within a layer, and of other packages', async () => {
    const code = [
      "import { describeValue } from '../util/describeValue';",
      "import { MemoryArgumentError } from '../errors/memoryErrors';",
      "import { planTrim } from './planTrim';",
      "import { either } from 'fp-ts';",
      "import type { Other } from 'conversation-memory-other';",
      'export { describeValue, MemoryArgumentError, planTrim, either, type Other };',
      '',
    ].join('\n');
    expect(await layerErrors('src/core/example.ts', code)).toEqual([]);
  });

  it('refuses a folder with no place in the order', async () => {
    const errors = await layerErrors('src/newThing/example.ts', "export * from '../model/role';\n");
    expect(errors[0]).toMatch(/folder newThing, which has no place in the layer order/);
  });

  it('places every folder of src/ (src/stores/ by its subfolders, and holds no file itself)', () => {
    const src = new URL('../../src/', import.meta.url);
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const unplaced = folders.flatMap((folder) => {
      if (LAYERS.includes(folder)) return [];
      const inside = readdirSync(new URL(`${folder}/`, src), { withFileTypes: true });
      return inside.length === 0
        ? [folder]
        : inside.map((entry) => `${folder}/${entry.name}`).filter((path) => !LAYERS.includes(path));
    });
    expect(unplaced).toEqual([]);
    expect(LAYERS.filter((layer) => layer.startsWith('stores/'))).toEqual([
      'stores/kit',
      'stores/session',
      'stores/knowledge',
      'stores/event',
    ]);
  });

  it('keeps the store kit below the three families, which import nothing of each other', async () => {
    expect(
      await layerErrors(
        'src/stores/kit/example.ts',
        "export type { SessionStore } from '../session/types';\n",
      ),
    ).toHaveLength(1);
    expect(
      await layerErrors(
        'src/stores/event/example.ts',
        "export { sessionKeyOf } from '../kit/sessionKey';\n",
      ),
    ).toEqual([]);
    const families = ['session', 'knowledge', 'event'];
    const { arrows } = importGraph(root);
    for (const from of families) {
      for (const to of families) {
        expect(arrows, `stores/${from} → stores/${to}`).not.toContain(
          `stores/${from} → stores/${to}`,
        );
      }
    }
    for (const family of families) expect(arrows).toContain(`stores/${family} → stores/kit`);
  });
});

describe('imports of the package by its own name, in src/', () => {
  /** Every import name of the package, with its entry file's layer. */
  const names = [...packageEntries(root)].map(([name, file]) => ({
    name,
    layer: file.includes('/src/entries/integrations/') ? 'entries/integrations' : 'entries',
  }));

  it('knows every subpath of package.json, from tsconfig.json', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const subpaths = Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object')
      .map(([subpath]) => `conversation-memory${subpath.slice(1)}`);
    expect(names.map(({ name }) => name).sort()).toEqual(subpaths.sort());
  });

  it('refuses each of them, as its entry file, from every layer below the entries', async () => {
    const below = LAYERS.slice(0, LAYERS.indexOf('entries'));
    for (const { name, layer } of names) {
      for (const from of below) {
        const file = from === '(root)' ? 'src/example.ts' : `src/${from}/example.ts`;
        const errors = await layerErrors(
          file,
          `import type { X } from '${name}';\nexport type { X };\n`,
        );
        expect(errors, `${from} importing ${name}`).toHaveLength(1);
        expect(errors[0]).toContain(`may not import ${name} (src/entries/`);
        expect(errors[0]).toContain(`(layer ${layer}): the layer order is`);
      }
    }
  });

  it('refuses the entries of the integrations from the adapters and the Node stores', async () => {
    const code = [
      "export { openaiProvider } from 'conversation-memory/openai';",
      "export * from 'conversation-memory/node';",
      "export const load = () => import('conversation-memory/sessions/node');",
      '',
    ].join('\n');
    for (const file of ['src/adapters/redux/example.ts', 'src/node/sqlite/example.ts']) {
      const errors = await layerErrors(file, code);
      expect(errors, file).toHaveLength(3);
      for (const error of errors) expect(error).toContain('(layer entries/integrations)');
    }
  });

  it('accepts the entries, the adapters and the Node stores importing the entries by name', async () => {
    const code = [
      "import type { Message } from 'conversation-memory';",
      "import { sessionKeyOf } from 'conversation-memory/store-kit';",
      "import { estimateTokens } from 'conversation-memory/tokens';",
      'export { sessionKeyOf, estimateTokens, type Message };',
      '',
    ].join('\n');
    for (const file of [
      'src/entries/example.ts',
      'src/adapters/openai/example.ts',
      'src/adapters/shared/example.ts',
      'src/node/redis/example.ts',
      'src/entries/integrations/example.ts',
    ]) {
      expect(await layerErrors(file, code), file).toEqual([]);
    }
    expect(
      await layerErrors(
        'src/entries/integrations/example.ts',
        "export * from 'conversation-memory/node';\nexport * from '../../adapters/openai/openaiProvider';\n",
      ),
    ).toEqual([]);
  });

  it('refuses a subpath that tsconfig.json does not map, naming it', async () => {
    const errors = await layerErrors(
      'src/adapters/example.ts',
      "export * from 'conversation-memory/nothing';\n",
    );
    expect(errors).toEqual([
      "conversation-memory/nothing has no entry file in tsconfig.json's paths, so its layer is unknown: add it there, or import the file it means.",
    ]);
  });
});

describe('the layer order, described once', () => {
  it("is docs/design.md's list, in the same order", () => {
    const design = readFileSync(`${root}docs/design.md`, 'utf8');
    const section = design.slice(design.indexOf('## Layers and dependencies'));
    const listed = [...section.matchAll(/^ {2}\d+\. `([^`]+)`:/gm)].map((match) => match[1]);
    expect(listed).toEqual([...LAYERS]);
  });

  it('leaves no arrow of the import graph running upward', () => {
    const { files, imports, upward, unresolved } = importGraph(root);
    expect(files).toBeGreaterThan(400);
    expect(imports).toBeGreaterThan(2000);
    expect(unresolved).toEqual([]);
    expect(upward).toEqual([]);
  });
});
