import { defineConfig } from 'tsup';

/**
 * The published `@geoaccount/client`: one self-contained package (the workspace's signing rules and
 * `@noble/ciphers` bundled in, no dependency to install).
 * - `index`: ES module and CommonJS, for Node ≥ 20 and browsers (no Node API), with types;
 * - `openapi-fetch`: the signing middleware of openapi-fetch clients (`@geoaccount/client/openapi-fetch`);
 * - `cli`: the `geoaccount` command (Node, CommonJS).
 */
export default defineConfig([
  {
    entry: { index: 'src/index.ts', 'openapi-fetch': 'src/openapi-fetch.ts' },
    format: ['esm', 'cjs'],
    platform: 'neutral',
    target: 'es2022',
    dts: { resolve: true, compilerOptions: { composite: false, incremental: false } },
    noExternal: [/^@geoaccount\//, /^@noble\//],
    sourcemap: true,
    clean: true,
    // Each entry one self-contained file (a page can import dist/index.mjs alone).
    splitting: false,
    outExtension: ({ format }) => ({ js: format === 'esm' ? '.mjs' : '.cjs' }),
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    noExternal: [/^@geoaccount\//, /^@noble\//],
    outExtension: () => ({ js: '.cjs' }),
  },
]);
