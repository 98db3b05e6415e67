// @ts-check
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
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

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.nx/**', '.data/**', '**/*.js', '**/*.mjs', '**/*.cjs', 'apps/location/src/data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
