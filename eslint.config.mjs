// @ts-check
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/**
 * Which project may import which. `scope:` keeps the apps apart (they share only `scope:shared`
 * libs); `type:` orders the layers: app → feature → util, and `type:test` (suites, test support)
 * may use anything while only test files may use it.
 */
function boundaries(inTests) {
  const test = inTests ? ['type:test'] : [];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:account', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:location', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:reliability', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:util', ...test] },
      { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:util', ...test] },
      { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', ...test] },
      { sourceTag: 'type:test', onlyDependOnLibsWithTags: ['type:app', 'type:feature', 'type:util', 'type:test'] },
    ],
  };
}

/** Plain JavaScript (scripts, bench, configs): only the regular-expression rules below apply to it. */
const SCRIPTS = ['**/*.js', '**/*.mjs', '**/*.cjs'];

/**
 * Regular expressions: no pattern that can backtrack or move super-linearly on what it is
 * given (docs/contract.md §13: every expression that sees request data runs in linear time),
 * and none of the mistakes that hide a wrong match. Over every source file of the repository,
 * TypeScript and JavaScript alike; `regexp-safety.spec.ts` checks the same expressions with
 * `recheck`.
 */
const REGEXP_RULES = {
  'regexp/no-super-linear-backtracking': ['error', { report: 'certain' }],
  'regexp/no-super-linear-move': ['error', { report: 'certain', ignoreSticky: false, ignorePartial: false }],
  'regexp/no-misleading-capturing-group': ['error', { reportBacktrackingEnds: true }],
  'regexp/no-dupe-disjunctions': ['error', { reportExponentialBacktracking: 'potential' }],
  'regexp/no-potentially-useless-backreference': 'error',
  'regexp/no-useless-backreference': 'error',
  'regexp/no-empty-alternative': 'error',
  'regexp/no-empty-capturing-group': 'error',
  'regexp/no-empty-group': 'error',
  'regexp/no-empty-lookarounds-assertion': 'error',
  'regexp/no-lazy-ends': 'error',
  'regexp/no-optional-assertion': 'error',
  'regexp/no-useless-quantifier': 'error',
  'regexp/no-useless-assertions': 'error',
  'regexp/no-contradiction-with-assertion': 'error',
  'regexp/no-invalid-regexp': 'error',
  'regexp/no-escape-backspace': 'error',
  'regexp/no-zero-quantifier': 'error',
  'regexp/optimal-lookaround-quantifier': 'error',
  'regexp/control-character-escape': 'error',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.nx/**', '.data/**', 'apps/location/src/data/**'] },
  { ...js.configs.recommended, ignores: SCRIPTS },
  ...tseslint.configs.recommended.map((config) => ({ ...config, ignores: [...(config.ignores ?? []), ...SCRIPTS] })),
  {
    files: ['**/*.ts', '**/*.tsx', ...SCRIPTS],
    plugins: { regexp },
    rules: REGEXP_RULES,
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
    },
  },
  {
    // Tests of an app or a lib may also use the test-support libraries; production code may not.
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(true)] },
  },
  prettier,
);
