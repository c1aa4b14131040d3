// The addresses every *_SERVICE_ADDR variable takes (one host:port, a list of replicas, a dns:/// name) and
// the grpc-js targets they become; a bad one stops the process at start-up with the reason. The channels' service
// config, and which methods are the reads sent again.
import { credentials } from '@grpc/grpc-js';
import { PostServiceClient } from '@rotunda/protos/post';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addressProblem } from '../src/grpc/addresses.ts';
import { IDEMPOTENT_READS } from '../src/grpc/clients.ts';
import { clientOptions, envAddress, grpcTarget, isIdempotentRead, loadConfig } from '../src/index.ts';

describe('grpcTarget', () => {
  it('turns one address, a list of replicas or a DNS name into a grpc-js target', () => {
    expect(grpcTarget('127.0.0.1:50052')).toBe('ipv4:127.0.0.1:50052');
    expect(grpcTarget('127.0.0.1:50052, 127.0.0.1:50062')).toBe('ipv4:127.0.0.1:50052,127.0.0.1:50062');
    expect(grpcTarget('[::1]:50052,[fd00::7]:50052')).toBe('ipv6:[::1]:50052,[fd00::7]:50052');
    // A name is resolved by DNS, every address it answers a replica (Compose, a Kubernetes headless Service).
    expect(grpcTarget('profile:50052')).toBe('dns:///profile:50052');
    expect(grpcTarget('dns:///profile.rotunda.svc.cluster.local:50052')).toBe(
      'dns:///profile.rotunda.svc.cluster.local:50052',
    );
  });

  it('refuses what names no service, saying what it takes', () => {
    expect(addressProblem('profile')).toMatch(/must be host:port/);
    expect(addressProblem('127.0.0.1:70000')).toMatch(/must be host:port/);
    expect(addressProblem('127.0.0.1:50052,')).toMatch(/must be host:port/);
    expect(addressProblem('dns:///profile')).toBe('must be dns:///name:port');
    expect(addressProblem('a:1,b:2')).toMatch(/a list must give IP addresses .* use dns:\/\/\/name:port/);
    expect(addressProblem('127.0.0.1:1,[::1]:1')).toBe(
      'a list must give IPv4 addresses only or IPv6 addresses only',
    );
    expect(() => grpcTarget('nowhere')).toThrow(/nowhere/);
  });

  it('is checked when the configuration is read', () => {
    const schema = z.object({ PROFILE_SERVICE_ADDR: envAddress('127.0.0.1:50052') });
    expect(loadConfig(schema, {}).PROFILE_SERVICE_ADDR).toBe('127.0.0.1:50052');
    expect(loadConfig(schema, { PROFILE_SERVICE_ADDR: ' 10.0.0.1:1,10.0.0.2:1 ' }).PROFILE_SERVICE_ADDR).toBe(
      '10.0.0.1:1,10.0.0.2:1',
    );
    expect(() => loadConfig(schema, { PROFILE_SERVICE_ADDR: 'a:1,b:1' })).toThrow(
      /PROFILE_SERVICE_ADDR: a list must give IP addresses/,
    );
  });
});

describe('clientOptions', () => {
  it('balances round robin and retries only the service’s reads, up to twice, on UNAVAILABLE', () => {
    const options = clientOptions('rotunda.post.v1.PostService');
    const config = JSON.parse(options['grpc.service_config'] as string);
    expect(config.loadBalancingConfig).toEqual([{ round_robin: {} }]);
    const [reads] = config.methodConfig;
    const methods = reads.name.map((name: { method: string }) => name.method);
    expect(methods).toContain('ListPosts');
    for (const write of ['AddPost', 'AddComment', 'SetLike', 'AddRead', 'DeletePost'])
      expect(methods).not.toContain(write);
    expect(reads.retryPolicy).toMatchObject({ maxAttempts: 3, retryableStatusCodes: ['UNAVAILABLE'] });
  });
});

describe('isIdempotentRead', () => {
  it('knows a generated method by its path: the reads listed, never a write or another service’s method', () => {
    const client = new PostServiceClient('127.0.0.1:1', credentials.createInsecure());
    expect(isIdempotentRead(client.listPosts)).toBe(true);
    expect(isIdempotentRead(client.getFeedVersion)).toBe(true);
    expect(isIdempotentRead(client.addPost)).toBe(false);
    expect(isIdempotentRead(client.addComment)).toBe(false);
    expect(isIdempotentRead({ path: '/rotunda.post.v1.PostService/Nothing' })).toBe(false);
    expect(isIdempotentRead({ path: '/rotunda.nowhere.v1.Service/ListPosts' })).toBe(false);
    expect(isIdempotentRead(() => undefined)).toBe(false);
    client.close();
  });
});

describe('IDEMPOTENT_READS', () => {
  it('names only unary methods the services define, so every read listed is really retried', async () => {
    const definitions = {
      'rotunda.auth.v1.AuthService': (await import('@rotunda/protos/auth')).AuthServiceService,
      'rotunda.profile.v1.ProfileService': (await import('@rotunda/protos/profile')).ProfileServiceService,
      'rotunda.org.v1.OrgService': (await import('@rotunda/protos/org')).OrgServiceService,
      'rotunda.post.v1.PostService': (await import('@rotunda/protos/post')).PostServiceService,
      'rotunda.news.v1.NewsService': (await import('@rotunda/protos/news')).NewsServiceService,
    };
    for (const [service, definition] of Object.entries(definitions)) {
      const unary = Object.values(definition)
        .filter((method) => !method.requestStream && !method.responseStream)
        .map((method) => method.path.split('/').at(-1));
      const listed: readonly string[] = IDEMPOTENT_READS[service as keyof typeof definitions];
      expect(unary, service).toEqual(expect.arrayContaining([...listed]));
    }
  });
});
