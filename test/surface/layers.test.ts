/**
 * The layer order of src/ (scripts/layerOrder.js, run by `npm run lint`): an import upward, or
 * from a folder with no place in the order, is a lint error; imports within a layer, downward, or
 * by package name are not. Checked through ESLint itself, with the project's own config, so the
 * rule cannot silently stop applying to src/.
 */
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

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

  it('accepts imports downward, within a layer, and by package name', async () => {
    const code = [
      "import { describeValue } from '../util/describeValue';",
      "import { MemoryArgumentError } from '../errors/memoryErrors';",
      "import { planTrim } from './planTrim';",
      "import { either } from 'fp-ts';",
      'export { describeValue, MemoryArgumentError, planTrim, either };',
      '',
    ].join('\n');
    expect(await layerErrors('src/core/example.ts', code)).toEqual([]);
  });

  it('refuses a folder with no place in the order', async () => {
    const errors = await layerErrors('src/newThing/example.ts', "export * from '../model/role';\n");
    expect(errors[0]).toMatch(/folder newThing, which has no place in the layer order/);
  });

  it('places every folder of src/', async () => {
    const { LAYERS } = await import('../../scripts/layerOrder.js');
    const folders = readdirSync(new URL('../../src/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders.filter((folder) => !LAYERS.includes(folder))).toEqual([]);
  });
});
