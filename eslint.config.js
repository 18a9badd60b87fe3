// ESLint (flat config) with typescript-eslint's type-aware rules; `npm run lint` (scripts/lint.sh)
// and tests/code-shape/linters.test.ts run it. recommendedTypeChecked, less the rules that flag no
// bug class here (each turned off below says why), plus no-floating-promises and friends that
// catch promises nobody awaits or that land where a callback is expected.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.venv/**', '.venv-moto/**', 'data/state/**', 'tests/fixtures/**', '.stamps/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
      }],
      // The code writes `xs[i]!` where the index is known to be in range: without
      // noUncheckedIndexedAccess the `!` is "unnecessary" to tsc but records the assumption.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Temporal activities and their stubs are async by contract; dropping `async` from one that
      // does not await would turn its rejected promise into a synchronous throw.
      '@typescript-eslint/require-await': 'off',
      // Errors re-thrown with a better message deliberately carry no `cause`: the CLI reports the
      // innermost cause of a failure (cli/failure.ts), which would then be the raw ENOENT or gRPC
      // text instead of the message that says what to do.
      'preserve-caught-error': 'off',
      '@typescript-eslint/no-unused-vars': ['error', {
        // `_`-prefixed names are the code's way to say "deliberately unused" (rest-destructuring to drop keys).
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_',
        ignoreRestSiblings: true,
      }],
    },
  },
  {
    // Tests read the JSON the code under test prints and assert on it: an `any` there is checked
    // by the assertion itself. They destructure activity objects the way the Temporal worker calls
    // them (unbound), and their regexes match printed tables whose runs of spaces are the point.
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      'no-regex-spaces': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
);
