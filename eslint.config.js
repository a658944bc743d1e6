import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './scripts/layerOrder.js';

export default tseslint.config(
  // build/ holds generated files: the inspector page (npm run build:page) and the API reference (npm run docs).
  {
    ignores: [
      'dist/',
      'build/',
      'coverage/',
      'node_modules/',
      'test/.readme/',
      'bench/baseline/core-*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { layers },
    rules: {
      // src/ is in layers (docs/design.md, scripts/layerOrder.js): nothing imports upward, by a
      // relative path or by the package's own name.
      'layers/layer-order': 'error',
      'no-console': 'error',
      'no-restricted-imports': [
        'error',
        {
          // Exact names for bare built-ins (a pattern would also match './events' or './path').
          paths: builtinModules.map((name) => ({
            name,
            message: 'The core must stay browser-safe: no Node built-ins.',
          })),
          patterns: [
            {
              group: ['node:*', ...builtinModules.map((name) => `${name}/*`)],
              message: 'The core must stay browser-safe: no Node built-ins.',
            },
            {
              group: ['fp-ts/*', 'io-ts/*'],
              message: 'Import fp-ts and io-ts from the package roots (they have no exports map).',
            },
          ],
        },
      ],
    },
  },
  {
    // The Node-only session stores (conversation-memory/node), the MCP server and the CLI may
    // use Node built-ins.
    files: ['src/node/**/*.ts', 'src/mcp/**/*.ts', 'src/cli/**/*.ts', 'src/inspector/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fp-ts/*', 'io-ts/*'],
              message: 'Import fp-ts and io-ts from the package roots (they have no exports map).',
            },
          ],
        },
      ],
    },
  },
);
