import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The few pages made of another feature's part, each importing only that feature's
 * index.ts. Anything else a feature needs from outside itself lives in src/shared, or is
 * plugged in from src/app (a registry, such as the chat's message kinds).
 */
const COMPOSITIONS = {
  // /profile shows the member's wallets and notification switch; it and /u/:userId show reviews.
  profile: ['wallet', 'push', 'reviews'],
  // /chats offers the notification switch above the list.
  chat: ['push'],
  // /group/:id shows the group's posts beside its details, and its moderators the reported reviews' link with its count.
  group: ['feed', 'reviews'],
};

/** A feature's files, or with `entry` only its public index.ts. */
const feature = (name = '*', { entry = false } = {}) => ({
  element: { type: 'feature', captured: { feature: name }, ...(entry ? { fileInternalPath: 'index.ts' } : {}) },
});

/** The web app's layers: app -> features -> shared (docs/architecture.md); src/test serves the tests. */
const layers = {
  files: ['src/**/*.{ts,tsx}'],
  languageOptions: { parser: tseslint.parser },
  plugins: { boundaries },
  settings: {
    'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    'boundaries/elements': [
      { type: 'app', pattern: 'src/app' },
      { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
      { type: 'shared', pattern: 'src/shared' },
      { type: 'test-support', pattern: 'src/test' },
    ],
    // The entry file only mounts the app.
    'boundaries/ignore': ['src/main.tsx'],
    'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
    // Lazy routes are imports too.
    'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
  },
  rules: {
    'boundaries/no-unknown-files': 'error',
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        message:
          '{{from.file.path}} may not import {{to.file.path}}: a feature imports src/shared and its own folder; ' +
          'src/app reaches a feature through its index.ts; src/shared imports no feature (web/eslint.config.js)',
        policies: [
          { from: { element: { type: ['app', 'feature', 'test-support'] } }, allow: { to: { element: { type: 'shared' } } } },
          // The app sees a feature through its public index.ts only.
          { from: { element: { type: 'app' } }, allow: { to: feature('*', { entry: true }) } },
          ...Object.entries(COMPOSITIONS).map(([from, parts]) => ({ from: feature(from), allow: { to: feature(parts, { entry: true }) } })),
          // Tests may render the whole app and use the helpers of src/test, which reach into features
          // to render their parts as the app composes them (a plug-in's message in the chat's bubble).
          { from: { file: { categories: 'test' } }, allow: { to: { element: { type: ['app', 'test-support'] } } } },
          { from: { element: { type: 'test-support' } }, allow: { to: { element: { type: ['app', 'feature'] } } } },
        ],
      },
    ],
  },
};

const SOURCES = ['src/**/*.{ts,tsx}'];

/**
 * The recommended rules of typescript-eslint and of React's hooks (the rules of hooks, complete
 * effect dependencies, and the React Compiler's checks of what a render may do), all errors:
 * `npm run lint` passes on warnings, and a warning nobody must fix is noise.
 */
const correctness = [
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: SOURCES })),
  { ...reactHooks.configs.flat.recommended, files: SOURCES },
  {
    files: SOURCES,
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/incompatible-library': 'error',
      'react-hooks/unsupported-syntax': 'error',
      // `const { [key]: _dropped, ...rest } = object` leaves a key out; `_args` names what a mock takes.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
    },
  },
];

export default [{ ignores: ['dist/', 'node_modules/'] }, layers, ...correctness];
