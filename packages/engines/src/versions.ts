// The pinned engines: one place to read and bump them. Each is fetched by its registry's own client (Maven for
// the Java servers, the Go module proxy for SeaweedFS) and cached outside the clone under its version (cache.ts).

/** Runs `copy` / `copy-dependencies` without a project; pinned so every machine fetches the same way. */
export const MAVEN_DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/** Keycloak's server distribution (Quarkus), the newest 26.x Maven Central serves; runs on Java 17. */
export const KEYCLOAK = {
  version: '26.7.3',
  artifact: 'org.keycloak:keycloak-quarkus-dist:26.7.3:zip',
} as const;

/**
 * Keycloak's features beyond its defaults that Rotunda needs, the same under test and in production (compose,
 * k8s): the exchange of a member's token for their agency's (legacy token exchange, with the identity-provider
 * permissions it is granted through), by which a renewal learns that the agency disabled the person (ADR 0044).
 */
export const KEYCLOAK_FEATURES = 'token-exchange,admin-fine-grained-authz:v1';

/**
 * The search engine: OpenSearch's minimal distribution (Apache-2.0). Its server has the `wildcard` field type the
 * Elasticsearch adapter maps text to, and this distribution carries the modules the adapter uses (reindex for
 * delete-by-query). 3.x runs on Java 21 or newer; 2.19, the last line on Java 17, lacks the reindex module in
 * this distribution and misses a wildcard match ending in an escaped backslash. Why not Elasticsearch itself:
 * the draft ADR in this package's README.
 */
export const OPENSEARCH = {
  version: '3.6.0',
  artifact: 'org.opensearch.distribution.integ-test-zip:opensearch:3.6.0:zip',
  minimumJava: 21,
} as const;

/**
 * SeaweedFS (Apache-2.0), an S3 server built from its Go module. Its releases are not semver tags, so the proxy
 * serves it as a pseudo-version; this one is SeaweedFS 4.53 (`weed version`).
 */
export const SEAWEEDFS = {
  module: 'github.com/seaweedfs/seaweedfs',
  version: 'v0.0.0-20261109003541-7506e5f91cd6',
  release: '4.53',
} as const;
