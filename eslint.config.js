// ESLint flat config: typescript-eslint's type-checked rules over src/, test/ and bench/ (and the
// recommended ones over the plain JavaScript of bin/ and the views' bundler, src/cli/views/bundle.mjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', '.tap/**', 'node_modules/**', 'src/grpc/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.js',
            'bin/*.js',
            'src/cli/views/*.mjs',
            'test/fixtures/*.js',
            'test/support/*.cjs',
            'static/portal/*.js',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // exactOptionalPropertyTypes stays off (zod's optional outputs are `T | undefined`), so `x?: T` already
      // admits undefined: the longer spelling is one of two ways to say one thing.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSPropertySignature[optional=true] > TSTypeAnnotation > TSUnionType > TSUndefinedKeyword',
          message: 'Write `x?: T`; `| undefined` on an optional property says nothing more here.',
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read JSON answers as untyped values on purpose: the assertions are the type check there.
    // tap handles the promise of a subtest itself, so `t.test(...)` is a known-safe call.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // tap subtests are async functions by convention, awaiting or not; terminal tests match escape codes.
      '@typescript-eslint/require-await': 'off',
      'no-control-regex': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', package: '@tapjs/core', name: 'PromiseWithSubtest' }] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The tenant portal's browser script (plain JavaScript, loaded by the page as a classic script).
    files: ['static/portal/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', EventSource: 'readonly' },
    },
  },
  {
    // CommonJS only where a tool require()s the file (ts-node's transpiler, test/support/transpile-cache.cjs).
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
);
