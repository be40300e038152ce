/**
 * The import graph of src/, one direction only (ARCHITECTURE.md states it):
 *
 *   index.ts -> client.ts -> resources/ -> payouts/ -> internal/ -> rules/ -> core/
 *   testing/ -> rules/, core/        webhooks.ts -> core/        version.ts: a leaf anyone may read
 *   outbox/ -> index.ts (the public entry, as a separate package would) and anything below client.ts
 *   otel/ -> internal/channels.ts (the channel names and context types), core/, version.ts
 *   uploads/ (the payments-service-sdk/uploads entry) -> resources/ and below; payouts/index.ts, the
 *   payments-service-sdk/payouts entry, stays in payouts/: the payouts namespace provides it a port (payouts/port.ts)
 *
 * A folder may import itself and anything below it. Type-only imports count: a type is a dependency too.
 * Run by `npm run lint:imports` and by CI.
 */
const below = {
  client: '^src/(resources|payouts|internal|rules|core)/|^src/version\\.ts$',
  resources: '^src/(resources|payouts|internal|rules|core)/|^src/version\\.ts$',
  payouts: '^src/(payouts|internal|rules|core)/|^src/version\\.ts$',
  internal: '^src/(internal|rules|core)/|^src/version\\.ts$',
  rules: '^src/(rules|core)/',
  core: '^src/core/',
  testing: '^src/(testing|rules|core)/',
  webhooks: '^src/core/',
  outbox: '^src/(outbox|resources|payouts|internal|rules|core)/|^src/index\\.ts$',
  otel: '^src/(otel/|core/|internal/channels\\.ts$)|^src/version\\.ts$',
  uploads: '^src/(uploads|resources|payouts|internal|rules|core)/|^src/version\\.ts$',
};

/** `from` may import only what `allowed` matches among src/ files. */
const layer = (name, from, allowed) => ({
  name: `${name}-imports-only-below`,
  comment: `${from} may import only ${allowed} (see ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: from },
  to: { path: '^src/', pathNot: allowed },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'a cycle of runtime imports means two modules are one; split what both need into the lower one. A cycle ' +
        'through a type-only import is allowed: request.ts builds the wire form of transport.ts types',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'resolvable',
      comment: 'an import the cruiser cannot resolve would escape every rule above',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    layer('client', '^src/client\\.ts$', below.client),
    layer('resources', '^src/resources/', below.resources),
    layer('payouts', '^src/payouts/', below.payouts),
    layer('internal', '^src/internal/', below.internal),
    layer('rules', '^src/rules/', below.rules),
    layer('core', '^src/core/', below.core),
    layer('webhooks', '^src/webhooks\\.ts$', below.webhooks),
    layer('outbox', '^src/outbox/', below.outbox),
    layer('otel', '^src/otel/', below.otel),
    layer('uploads', '^src/uploads/', below.uploads),
    {
      name: 'testing-never-a-resource',
      comment:
        'the mock reads the spec from rules/ and throws core/ errors; it never reaches a resource, the machinery ' +
        'or the client, so it cannot agree with the SDK by sharing its code paths',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { path: '^src/', pathNot: below.testing },
    },
    {
      name: 'nothing-imports-the-entries',
      comment:
        'src/index.ts and src/testing/index.ts are what the package exports; nothing inside the core imports ' +
        'them. The outbox, an entry of its own, builds on the public entry as a separate package would, so the ' +
        "core's code stays in the core's chunk",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/outbox/' },
      to: { path: '^src/(index|testing/index)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // ES modules only: CommonJS detection would read a local function named `require` as an import.
    moduleSystems: ['es6'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // package.json's `#compiler` resolves under `types` to its source (src/rules/compiler.ts), as TypeScript reads it.
    enhancedResolveOptions: { conditionNames: ['types', 'import', 'node', 'default'] },
  },
};
