import { AppError } from '@/server/errors';
import type { ProviderAdapter } from '@/server/providers/types';
import type { BuiltAdapter } from '@/server/routing/compile-provider';
import { bedrockRegionOfHost, type ProviderConfigEntry } from '@/server/routing/config-schema';
import { convertError } from './convert-error';
import { bedrockBaseUrl, convertRequest } from './convert-request';
import { convertResponse } from './convert-response';
import { createStreamConverter } from './convert-stream';
import { createEventStreamParser } from './parse-event-stream';
import { type AwsCredentials, type AwsCredentialsProvider, createSigner, signRequest } from './sign-request';

/** The standard variables (as the AWS CLI and SDKs read them), unless the entry names others. */
export const DEFAULT_AWS_VARIABLES = { accessKeyId: 'AWS_ACCESS_KEY_ID', secretAccessKey: 'AWS_SECRET_ACCESS_KEY', sessionToken: 'AWS_SESSION_TOKEN' };

/**
 * AWS Bedrock's Converse / ConverseStream APIs behind the provider spec. Requests are signed with SigV4 from
 * the provider's IAM credentials, unless a Bedrock API key (the provider's `keys`) is used: then it goes as
 * `Authorization: Bearer` and nothing is signed.
 */
export function createBedrockAdapter(options: { region: string; credentials?: AwsCredentials | AwsCredentialsProvider }): ProviderAdapter {
  const signer = options.credentials ? createSigner(options.region, options.credentials) : null;
  return {
    id: 'bedrock',
    convertRequest,
    convertResponse: (body) => convertResponse(body),
    createStreamConverter: () => createStreamConverter(),
    convertError: (status, body, headers) => convertError(status, body, headers),
    createStreamParser: createEventStreamParser,
    async authorize(request, ctx) {
      if (ctx.config.apiKey) return request; // a Bedrock API key: Bearer, set by convertRequest
      if (!signer) throw new AppError('service_unavailable', `Provider ${ctx.model.provider} has neither AWS credentials nor a Bedrock API key`);
      try {
        return await signRequest(signer, request);
      } catch (err) {
        // The default chain found no credentials (or its source failed): the next endpoint may serve.
        if (typeof options.credentials === 'function') {
          throw new AppError('service_unavailable', `Provider ${ctx.model.provider} could not get AWS credentials from the default chain: ${(err as Error).message}`);
        }
        throw err;
      }
    },
  };
}

/**
 * The region a VPC or test endpoint's host names (bedrock-runtime.<region>.…), else us-east-1 (the signature needs
 * one; a signed provider that leaves it to this guess is warned about when built, and refused by the admin API).
 */
function regionOf(entry: ProviderConfigEntry): string {
  if (entry.region) return entry.region;
  return (entry.base_url ? bedrockRegionOfHost(entry.base_url) : null) ?? 'us-east-1';
}

/** ADAPTER_FACTORIES' entry for `type: bedrock`: credentials are read when the routing table is built (each reload). */
export function buildBedrockAdapter(entry: ProviderConfigEntry, readVar: (name: string) => string | undefined): BuiltAdapter {
  const names = {
    accessKeyId: entry.access_key_id_env ?? DEFAULT_AWS_VARIABLES.accessKeyId,
    secretAccessKey: entry.secret_access_key_env ?? DEFAULT_AWS_VARIABLES.secretAccessKey,
    sessionToken: entry.session_token_env ?? DEFAULT_AWS_VARIABLES.sessionToken,
  };
  const region = regionOf(entry);
  if (entry.aws_credentials === 'default') {
    // The AWS SDK's chain, as the AWS CLI resolves it: environment, web identity (EKS IRSA), ECS task role, EC2 instance
    // role, shared config and SSO. It caches what it got and asks again five minutes before it expires.
    // Loaded on first use: the SDK's providers are not imported by a server that does not need them.
    let chain: Promise<AwsCredentialsProvider> | null = null;
    const credentials: AwsCredentialsProvider = async () => {
      chain ??= import('@aws-sdk/credential-providers').then((sdk) => sdk.fromNodeProviderChain({ clientConfig: { region } }));
      return (await chain)();
    };
    return {
      adapter: createBedrockAdapter({ region, credentials }),
      credentials: { configured: true },
      baseUrl: bedrockBaseUrl(region),
    };
  }
  const read = (name: string) => readVar(name)?.trim() || undefined;
  const accessKeyId = read(names.accessKeyId);
  const secretAccessKey = read(names.secretAccessKey);
  const sessionToken = read(names.sessionToken);
  const credentials = accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } : undefined;
  return {
    adapter: createBedrockAdapter({ region, credentials }),
    credentials: credentials
      ? { configured: true }
      : { configured: false, missing: `${[names.accessKeyId, names.secretAccessKey].filter((name) => !read(name)).join(' and ')} (or a Bedrock API key in keys, or aws_credentials: default) for provider "${entry.id}"` },
    baseUrl: bedrockBaseUrl(region),
  };
}
