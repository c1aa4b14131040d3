// The pinned engines: one place to read and bump them. Each is fetched by its registry's own client (Maven for
// the Java servers, the Go module proxy for SeaweedFS) and cached under .data/engines/cache/.

/** Runs `copy` / `copy-dependencies` without a project; pinned so every machine fetches the same way. */
export const MAVEN_DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/** Keycloak's server distribution (Quarkus), the newest 26.x Maven Central serves; runs on Java 17. */
export const KEYCLOAK = {
  version: '26.7.3',
  artifact: 'org.keycloak:keycloak-quarkus-dist:26.7.3:zip',
} as const;

/**
 * The search engine: OpenSearch's minimal distribution (Apache-2.0), whose server has the `wildcard` field type
 * the Elasticsearch adapter maps text to, plus its reindex module (delete-by-query), which the minimal
 * distribution leaves out and Maven Central publishes as a jar. 2.19 is the newest line that runs on Java 17.
 * Why not Elasticsearch itself: docs/adr (draft in the engines README).
 */
export const OPENSEARCH = {
  version: '2.19.6',
  artifact: 'org.opensearch.distribution.integ-test-zip:opensearch:2.19.6:zip',
  reindex: { groupId: 'org.opensearch.plugin', artifactId: 'reindex-client', version: '2.19.6' },
  reindexPluginClass: 'org.opensearch.index.reindex.ReindexPlugin',
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
