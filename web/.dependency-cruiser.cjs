/**
 * Import cycles in the web app, type-only imports included: ESLint's import-x/no-cycle skips
 * those, and each of the three cycles the architecture issue found ran through one.
 * Run by `npm run lint`; the layer rules themselves are ESLint's (eslint.config.js).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module may not depend on itself through others; move the shared part down (src/shared) instead.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types still ties the modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
