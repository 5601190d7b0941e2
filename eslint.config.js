// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries from docs/architecture.md, enforced rather than hoped for. */
const nodeOnly = ['node:*', 'fs', 'path', 'net', 'child_process', 'electron', 'ioredis', 'fastify', '@fastify/*', 'ws'];
const pageFolderOnly = 'a page folder imports only its own files: move what pages share to renderer/lib or renderer/components';
const boundary = (message, groups) => restrict({ group: groups, message });
/** One no-restricted-imports setting per file: a later config's replaces an earlier one's, so each lists all its patterns. */
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const coreBoundary = {
  group: ['**/rpc/**', '**/server/**', '**/electron/**', '**/renderer/**', 'electron', 'fastify', '@fastify/*'],
  message: 'main/core/ knows Redis, not transports: no rpc/, server/ or electron/ imports',
};

/**
 * main/core/ holds one folder per job and the shared folders jobs build on (RESP sockets and
 * parsers, ioredis pool, INFO, text, job manager, redis-server spawning, live pushed streams). A job folder imports
 * shared folders, itself, and another job only through that job's public index.ts; a shared
 * folder imports no job folder. A new folder is a job until it is listed here.
 */
const sharedCore = ['resp', 'pool', 'info', 'text', 'jobs', 'redisProcess', 'live', 'redis'];
const jobFolders = readdirSync(new URL('./main/core/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !sharedCore.includes(d.name))
  .map((d) => d.name);
/** A relative import climbing into one of `folders` (imports are relative: no path aliases). */
const intoFolders = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;
/** The same, past the folder's index: `../<job>` and `../<job>/index` are its public face, nothing deeper is. */
const insideFolders = (folders) => `^(\\.\\./)+(${folders.join('|')})/(?!index$)`;

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
    rules: boundary('renderer/ talks to the Node side only through the Bridge (app/ contract)', ['**/main/**', ...nodeOnly]),
  },
  {
    files: ['main/core/**'],
    rules: restrict(coreBoundary),
  },
  ...jobFolders.map((job) => ({
    files: [`main/core/${job}/**`],
    rules: restrict(coreBoundary, {
      regex: insideFolders(jobFolders.filter((other) => other !== job)),
      message: `main/core/${job}/ is a job: it imports its own folder, the shared ones (${sharedCore.join(', ')}) and another job only through its index.ts (../<job>)`,
    }),
  })),
  {
    files: sharedCore.map((folder) => `main/core/${folder}/**`),
    rules: restrict(coreBoundary, {
      regex: intoFolders(jobFolders),
      message: `main/core/'s shared folders (${sharedCore.join(', ')}) import no job folder`,
    }),
  },
  {
    // Its own rule name, so it adds to the folder boundaries above instead of replacing them.
    files: ['main/**'],
    ignores: ['**/*.test.ts', '**/*TestKit.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+testing/',
              message: 'testing/ (the redis-server helpers) is for tests and *TestKit.ts files only',
            },
          ],
        },
      ],
    },
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
    // renderer/components. Each page's component lives in its folder (pages/<domain>/<Domain>Page.tsx).
    // From renderer/pages/<a>/, `../<b>/...` (another page's folder) goes up one level: refused;
    // the shell (renderer/shell/) imports the pages, so no page imports it back.
    // The @typescript-eslint twin of the rule, so that renderer/'s boundary above still applies.
    files: ['renderer/pages/*/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)', message: pageFolderOnly },
            { group: ['**/pages/**'], message: pageFolderOnly },
            { group: ['**/shell/**'], message: 'renderer/shell/ imports the pages: a page does not import it back' },
          ],
        },
      ],
    },
  },
  {
    // Imports point one way: renderer/shell/ (frame, sidebar, page table) -> pages/ -> the shared
    // folders. A shared part that imported a page or the shell would close a loop through every page.
    // The @typescript-eslint twin of the rule, so that renderer/'s boundary above still applies.
    files: ['renderer/{components,lib,bridge,auth,profiles}/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/pages/**', '**/shell/**'],
              message: "renderer/'s shared folders import no page and not the shell: pages and shell/ build on them",
            },
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
        {
          // The bundler shakes `z.string` off a namespace import down to what is used; `{ z }` is
          // zod's namespace as a value, so every part of zod (every locale) ships and loads.
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "import * as z from 'zod': `import { z }` keeps all of zod in the bundle (see scripts/build-main.js)",
        },
      ],
    },
  },
  {
    files: ['**/*.cjs', 'scripts/**', 'bin/**'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
