// ESLint flat config: typescript-eslint's recommended set plus the type-aware rules that catch async mistakes.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      curly: ['error', 'multi-line'],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through AppConfig (src/config).',
        },
      ],
    },
  },
  {
    // The only places that may read the environment: configuration, and the tools and tests that set it up.
    files: ['src/config/**', 'test/**', 'bench/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The playground page and the web widget show untrusted agent text and catalog fields (docs/playground.md,
    // docs/widget.md): only as text nodes.
    files: ['playground/src/**', 'widget/src/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render untrusted text as text, never as HTML.' },
        { selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML)$/]', message: 'Render untrusted text as text, never as HTML.' },
        {
          selector: 'CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment|write|writeln)$/]',
          message: 'Render untrusted text as text, never as HTML.',
        },
      ],
    },
  },
  {
    // Build tooling: the dev server's proxy reads PORT like the service does.
    files: ['playground/vite.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
