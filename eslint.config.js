// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries from docs/architecture.md, enforced rather than hoped for. */
const nodeOnly = ['node:*', 'fs', 'path', 'net', 'child_process', 'electron', 'ioredis', 'fastify', '@fastify/*', 'ws'];
const pageFolderOnly =
  'a page folder imports only its own files: move what pages share to renderer/lib or renderer/components';
const boundary = (message, groups) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-electron/', 'release/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['app/**'],
    rules: boundary('app/ is the pure contract: it imports nothing of ours and no runtime-specific module', [
      '**/main/**',
      '**/renderer/**',
      '**/e2e/**',
      'react',
      ...nodeOnly,
    ]),
  },
  {
    files: ['renderer/**'],
    rules: boundary('renderer/ talks to the Node side only through the Bridge (app/ contract)', [
      '**/main/**',
      ...nodeOnly,
    ]),
  },
  {
    files: ['main/core/**'],
    rules: boundary('main/core/ knows Redis, not transports: no rpc/, server/ or electron/ imports', [
      '**/rpc/**',
      '**/server/**',
      '**/electron/**',
      '**/renderer/**',
      'electron',
      'fastify',
      '@fastify/*',
    ]),
  },
  {
    files: ['main/rpc/**'],
    rules: boundary('main/rpc/ is transport-independent: no server/ or electron/ imports', [
      '**/server/**',
      '**/electron/**',
      '**/renderer/**',
      'electron',
      'fastify',
      '@fastify/*',
    ]),
  },
  {
    // A page folder holds one page's parts; what two pages share lives in renderer/lib or
    // renderer/components. From renderer/pages/<a>/, `../<b>/...` (another page's folder),
    // `../<Page>` (a top-level page component) and `../pages` all go up one level: refused.
    // The top-level renderer/pages/X.tsx are outside this glob, so they may import their folder.
    // The @typescript-eslint twin of the rule, so that renderer/'s boundary above still applies.
    files: ['renderer/pages/*/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)', message: pageFolderOnly },
            { group: ['**/pages/**'], message: pageFolderOnly },
          ],
        },
      ],
    },
  },
  {
    // A module that exists only for tests is named <thing>TestKit.ts, beside the code it serves
    // (testing/ holds the shared redis-server helpers). Shipped code never imports one. A
    // no-restricted-syntax rule, so that it does not replace the import boundaries above.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*TestKit.ts', 'e2e/**', 'testing/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].map((node) => ({
          selector: `${node}[source.value=/TestKit$/]`,
          message: 'a *TestKit module is for tests only',
        })),
      ],
    },
  },
  {
    files: ['**/*.cjs', 'scripts/**', 'bin/**'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
