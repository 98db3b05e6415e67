// Install-time corrections to third-party manifests, so that the production closure of each
// app (`pnpm deploy --prod`, the Docker images) holds only what runs in production:
// - a runtime package that lists type declarations as dependencies does not need them to run
//   (TypeScript reads them at build time; skipLibCheck covers their absence there);
// - some optional peers are never used by our apps, yet resolve to a package another workspace
//   project holds and follow the app into its image: `typescript` of @nestjs/swagger (its
//   compile-time plugin), `ioredis` of typeorm (its Redis query cache; account caches nothing
//   there and location has no typeorm data source).
const TYPES_ONLY_AT_BUILD = ['class-validator', 'cosmiconfig', '@opentelemetry/instrumentation-pg'];
const UNUSED_OPTIONAL_PEERS = { '@nestjs/swagger': ['typescript'], typeorm: ['ioredis'] };

function readPackage(pkg) {
  if (TYPES_ONLY_AT_BUILD.includes(pkg.name)) {
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      if (name.startsWith('@types/')) delete pkg.dependencies[name];
    }
  }
  for (const peer of UNUSED_OPTIONAL_PEERS[pkg.name] ?? []) {
    if (pkg.peerDependenciesMeta?.[peer]?.optional) {
      delete pkg.peerDependencies[peer];
      delete pkg.peerDependenciesMeta[peer];
    }
  }
  return pkg;
}

module.exports = { hooks: { readPackage } };
