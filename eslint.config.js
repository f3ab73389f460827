import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// ESLint lints each file with the eslint.config.js nearest to it, so web/ has its own config,
// which starts from this one.
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'docs/**',
      'services/gateway/public/**',
      '.venv-schemathesis/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  // Formatting is Prettier's: no lint rule may disagree with it.
  prettier,
);
