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
 * Keycloak's server settings Rotunda needs beyond its defaults, as environment variables, the same under test and
 * in production. With brute-force detection on, Keycloak by default refuses a password grant for an account while
 * another grant for it is running, and answers it `user_temporarily_disabled` with a wrong password's words: a
 * member signing in on two devices at once, or retrying while a cold Keycloak (just restarted) still checks the
 * first try, was refused with the right password. Failures still count: wrong passwords lock the account as before.
 */
export const KEYCLOAK_SETTINGS = {
  KC_SPI_BRUTE_FORCE_PROTECTOR_DEFAULT_BRUTE_FORCE_DETECTOR_ALLOW_CONCURRENT_REQUESTS: 'true',
} as const;

/**
 * The search engine: OpenSearch's minimal distribution (Apache-2.0). Its server has the `wildcard` field type the
 * Elasticsearch adapter maps text to, and this distribution carries the modules the adapter uses (reindex for
 * delete-by-query). 3.x runs on Java 21 or newer; 2.19, the last line on Java 17, lacks the reindex module in
 * this distribution and misses a wildcard match ending in an escaped backslash. Why not Elasticsearch itself:
 * ADR 0023.
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
