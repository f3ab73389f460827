import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import web from './web/eslint.config.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'docs/**',
      'web/public/**',
      'services/gateway/public/**',
      '.venv-schemathesis/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  ...web,
  // Formatting is Prettier's: no lint rule may disagree with it.
  prettier,
);
